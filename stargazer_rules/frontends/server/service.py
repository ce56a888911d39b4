"""The JSON API as plain functions: a request body (parsed JSON) in, a response body out.

``TableService`` holds one ruleset and nothing else: like the library it is stateless, so the
client keeps the state JSON and sends it back with each request. Every body is checked against
its schema (``stargazer_rules/frontends/server/schemas/<endpoint>.request.schema.json``, which refers to
the library's schemas for states, actions and setups), then its state, action or setup is read
by ``jsonio``, which refuses a tampered state with the ``RecordError`` that says why. Any
problem raises ``RequestError`` carrying the HTTP status and the reason; the HTTP layer
(``stargazer_rules.frontends.server.app``) only maps these calls to routes.

Responses that carry a state (``new``, ``apply``, ``bot``) are a *position*: the state, whose
turn it is, its legal actions with their descriptions in Japanese and English, and the score
sheet, as data and as the table the terminal prints (``text.tables.score_table``), so that a
front end can draw everything from one response. Every text comes rendered: a front end fills
no template of the library's catalogue.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import referencing
import referencing.jsonschema
import yaml

from stargazer_rules.bots import bot_names, make_bot, parse_spec, time_limit
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, BotTimeout, IllegalActionError, RecordError, RequestError, SetupError
from stargazer_rules.formats import actions_json, records, schema_checks, states_json, values_json
from stargazer_rules.formats.signing import StateSigner
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.text import messages, reports, tables
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

__all__ = ["ENDPOINTS", "RequestError", "TableService", "request_schema"]

#: The endpoints that take a JSON body, each with a request schema.
ENDPOINTS = ("new", "legal", "apply", "bot", "score", "record")

#: The file of the page's own words (buttons, headings), served with the catalogue.
PAGE_MESSAGES_PATH = Path(__file__).with_name("page_messages.yaml")

_SCHEMAS_DIR = Path(__file__).with_name("schemas")
_REQUEST_URN = "urn:stargazer-rules:schemas:api:{}.request.schema.json"
_MAX_REPORTED = 20
#: ``--max-bot-iterations``: the most search iterations a bot may spend on one request by
#: default. mcts:1000 takes about 10 ms a decision in the native kernel and up to a second
#: on the Python engine (a ruleset with a plugin effect type), which bounds the worst case.
DEFAULT_MAX_BOT_ITERATIONS = 1000
#: ``--time-limit``: the seconds one request may compute before it is answered 503.
DEFAULT_TIME_LIMIT = 10.0
#: A seed drawn by the server when a new game names none: small enough for any JSON reader.
_MAX_DRAWN_SEED = 2**31 - 1


# -- request schemas ----------------------------------------------------------------------


def request_schema(endpoint: str) -> dict[str, Any]:
    """The JSON Schema of the body of ``POST /api/<endpoint>``."""
    if endpoint not in ENDPOINTS:
        raise ValueError(f"no request schema for {endpoint!r}; the endpoints are {', '.join(ENDPOINTS)}")
    contents = dict(_request_resources())[_REQUEST_URN.format(endpoint)].contents
    assert isinstance(contents, dict)
    return contents


@functools.cache
def _request_resources() -> tuple[tuple[str, referencing.Resource], ...]:
    """The request schemas by their URNs, read once."""
    resources = []
    for endpoint in ENDPOINTS:
        path = _SCHEMAS_DIR / f"{endpoint}.request.schema.json"
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append(
            (_REQUEST_URN.format(endpoint), referencing.jsonschema.DRAFT202012.create_resource(contents))
        )
    return tuple(resources)


class _BodyChecker:
    """The request validators of one ruleset: its state schema (``jsonio.state_schema_for``)
    in place of the library's, and for a signed body a schema that leaves the state unchecked."""

    def __init__(self, state_schema: dict[str, Any]) -> None:
        registry = schema_checks.schema_registry(state_schema).with_resources(_request_resources())
        self._validators = {
            endpoint: schema_checks.StrictValidator(request_schema(endpoint), registry=registry) for endpoint in ENDPOINTS
        }
        self._signed = {}
        self._signed_listed = {}
        for endpoint in ENDPOINTS:
            contents = copy.deepcopy(request_schema(endpoint))
            contents["properties"]["state"] = {"type": "object"}
            self._signed[endpoint] = schema_checks.StrictValidator(contents, registry=registry)
            if "action" in contents["properties"]:
                listed = copy.deepcopy(contents)
                listed["properties"]["action"] = {"type": "object"}
                self._signed_listed[endpoint] = schema_checks.StrictValidator(listed, registry=registry)

    def check(self, endpoint: str, body: Any, signed: bool = False) -> Mapping[str, Any]:
        """``body`` if it fits the endpoint's schema; else 422 listing the problems at their
        paths (the first ``jsonio.MAX_CHECKED`` found: the check stops there).

        With a signed state the state is not checked (the server wrote it), nor an action that
        is one of the state's own ``legal`` actions, which the server wrote too (the action
        schema is the costliest part of a body's check)."""
        if not signed:
            validator = self._validators[endpoint]
        elif endpoint in self._signed_listed and _listed(body):
            validator = self._signed_listed[endpoint]
        else:
            validator = self._signed[endpoint]
        errors = list(itertools.islice(validator.iter_errors(body), schema_checks.MAX_CHECKED))
        problems = schema_checks.problem_lines(errors)
        if problems:
            count = len(problems)
            lines = [f"{count} problem{'s' if count != 1 else ''} in the request body of /api/{endpoint}:"]
            lines += [f"  {problem}" for problem in problems[:_MAX_REPORTED]]
            if count > _MAX_REPORTED:
                lines.append(f"  ... and {count - _MAX_REPORTED} more")
            if len(errors) >= schema_checks.MAX_CHECKED:
                lines.append(f"  (the check stops after {schema_checks.MAX_CHECKED} errors)")
            raise RequestError(422, "invalid_request", "\n".join(lines))
        assert isinstance(body, Mapping)
        return body


def _listed(body: Mapping[str, Any]) -> bool:
    """Whether the body's action is, exactly, one of its (signed) state's legal actions: the
    same keys, and values of the same type (``true`` is not the option ``1``) and value."""
    legal, act = body["state"].get("legal"), body.get("action")
    if not isinstance(legal, list) or not isinstance(act, dict):
        return False
    return any(
        isinstance(item, dict)
        and item.keys() == act.keys()
        and all(type(act[key]) is type(value) and act[key] == value for key, value in item.items())
        for item in legal
    )


# -- the service --------------------------------------------------------------------------


class TableService:
    """The API over one ruleset; every method takes and returns plain JSON.

    ``signer`` signs the states it answers and checks those sent back (``signing``; a random
    key by default), ``max_bot_iterations`` bounds a bot's search per request, and
    ``time_limit`` (seconds, or None) is the most a bot may think before the request is
    answered 503.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        signer: StateSigner | None = None,
        max_bot_iterations: int = DEFAULT_MAX_BOT_ITERATIONS,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> None:
        self.ruleset = ruleset
        self.game = Game(ruleset)
        #: The state schema of this ruleset, which the request bodies are checked against.
        self.state_schema = states_json.state_schema_for(self.game)
        self._bodies = _BodyChecker(self.state_schema)
        self.signer = signer if signer is not None else StateSigner()
        self.max_bot_iterations = max_bot_iterations
        self.time_limit = time_limit

    # -- documents without a body ----------------------------------------------------------

    def ruleset_info(self) -> dict[str, Any]:
        """The ruleset as data (``loader.ruleset_to_data``), with names and skills in both languages."""
        rules = self.ruleset
        return {
            "name": rules.name,
            "fingerprint": rules.fingerprint,
            "title": _both(lambda lang: rules.title.in_lang(lang)),
            "player_counts": list(rules.player_counts),
            "bots": list(bot_names()),
            "names": {
                "planets": {card.id: _both(card.name.in_lang) for card in rules.planets},
                "crew": {card.id: _both(card.name.in_lang) for card in rules.crew},
                "colours": {colour.id: _both(colour.name.in_lang) for colour in rules.colours},
                "players": {
                    str(seat): _both(lambda lang, seat=seat: messages.player_name(seat, lang))
                    for seat in (FREE_CUBE_OWNER, *range(max(rules.player_counts)))
                },
            },
            "skills": {
                card.id: {lang: list(messages.skill_sentences(card, rules, lang)) for lang in messages.LANGS}
                for card in rules.crew
            },
            "skill_text": {
                card.id: _both(lambda lang, card=card: messages.describe_skill(card, rules, lang))
                for card in rules.crew
            },
            "data": ruleset_to_data(rules),
        }

    def messages(self) -> dict[str, Any]:
        """The message catalogue (``messages.yaml``) as JSON, plus the page's own words (``page``)."""
        catalogue = yaml.safe_load(messages.CATALOGUE_PATH.read_text(encoding="utf-8"))
        page = yaml.safe_load(PAGE_MESSAGES_PATH.read_text(encoding="utf-8"))
        return {"languages": list(messages.LANGS), **catalogue, "page": page}

    # -- endpoints with a body ---------------------------------------------------------------

    def new(self, body: Any) -> dict[str, Any]:
        """A new game from players and a seed, or from an explicit setup: the setup and the position."""
        body, _signed = self._read("new", body)
        dealt = [key for key in ("players", "seed", "start_player") if key in body]
        if "setup" in body:
            if dealt:
                raise RequestError(
                    422,
                    "invalid_request",
                    f"give either an explicit setup or players (with seed, start_player), "
                    f"not both: the body has setup and {', '.join(dealt)}",
                )
            try:
                setup = values_json.setup_from_json(body["setup"], self.game)
            except RecordError as error:
                raise RequestError(422, "invalid_setup", str(error), at="$.setup") from None
            seed = None
        elif "players" in body:
            seed = body.get("seed")
            if seed is None:
                seed = random.SystemRandom().randint(0, _MAX_DRAWN_SEED)
            try:
                setup = self.game.deal(body["players"], seed=seed, start_player=body.get("start_player"))
                self.game.check_setup(setup)
            except SetupError as error:
                raise RequestError(422, "invalid_setup", str(error)) from None
        else:
            raise RequestError(
                422, "invalid_request", "a new game needs players (and a seed) or an explicit setup"
            )
        state = self.game.new_state(setup=setup)
        return {"setup": values_json.setup_to_json(setup), "seed": seed, **self._position(state), "events": []}

    def legal(self, body: Any) -> dict[str, Any]:
        """The legal actions of a state, each described in ``lang`` (default en)."""
        body, signed = self._read("legal", body)
        state = self._state(body, signed)
        lang = body.get("lang", "en")
        return {
            "current_player": self.game.current_player(state),
            "stage": state.stage,
            "actions": [
                {
                    "action": actions_json.action_to_json(self.game, state, act),
                    "description": messages.describe_action(self.game, state, act, lang),
                }
                for act in state.legal
            ],
        }

    def apply(self, body: Any) -> dict[str, Any]:
        """Play the body's action: the new position and the events, as JSON and in both languages."""
        body, signed = self._read("apply", body)
        state = self._state(body, signed)
        try:
            # The request schema has checked the action, unless it was taken as one of a signed
            # state's own legal actions: a signature proves who wrote them, not their form.
            listed = signed and _listed(body)
            act = actions_json.action_from_json(self.game, state, body["action"], at="$.action", checked=not listed)
        except RecordError as error:
            raise RequestError(422, "invalid_action", str(error), at="$.action") from None
        self._not_over(state)
        try:
            following, events = self.game.apply(state, act)
        except IllegalActionError as error:
            raise RequestError(422, "illegal_action", str(error), at="$.action") from None
        return {**self._position(following), "events": self._events(events)}

    def bot(self, body: Any) -> dict[str, Any]:
        """The action the bot picks for the current player, described, then played as ``apply``."""
        body, signed = self._read("bot", body)
        state = self._state(body, signed)
        try:
            kind, params = parse_spec(body["bot"])
            bot = make_bot(body["bot"], body["seed"])
        except BotSpecError as error:
            raise RequestError(422, "unknown_bot", str(error), at="$.bot") from None
        iterations = params.get("iterations", 0)
        if iterations > self.max_bot_iterations:
            raise RequestError(
                422,
                "bot_budget",
                f"bot {bot.spec} asks for {iterations} iterations a decision; this server allows "
                f"at most {self.max_bot_iterations} (--max-bot-iterations): "
                f"try {kind}:{self.max_bot_iterations}",
                at="$.bot",
            )
        self._not_over(state)
        try:
            with time_limit(self.time_limit):
                act = bot.choose(self.game, state)
        except BotTimeout:
            raise RequestError(
                503,
                "time_limit",
                f"bot {bot.spec} did not choose within this server's time limit of "
                f"{self.time_limit:g} s; ask for fewer iterations",
                at="$.bot",
            ) from None
        following, events = self.game.apply(state, act)
        return {
            "bot": bot.spec,
            "player": self.game.current_player(state),
            "action": actions_json.action_to_json(self.game, state, act),
            "action_text": _both(lambda lang: messages.describe_action(self.game, state, act, lang)),
            **self._position(following),
            "events": self._events(events),
        }

    def score(self, body: Any) -> dict[str, Any]:
        """The state's score sheet (final or provisional) and who wins it, in both languages."""
        body, signed = self._read("score", body)
        return self._score(self._state(body, signed))

    def record(self, body: Any) -> dict[str, Any]:
        """The game record of a setup and its actions, checked by replaying every action."""
        body, _signed = self._read("record", body)
        try:
            record = records.record_from_actions(
                self.game,
                values_json.setup_from_json(body["setup"], self.game),
                body["actions"],
                body.get("seed"),
                body.get("metadata", {}),
            )
        except RecordError as error:
            raise RequestError(422, "invalid_record", str(error)) from None
        return records.record_to_json(record)

    # -- helpers ---------------------------------------------------------------------------

    def _read(self, endpoint: str, body: Any) -> tuple[Mapping[str, Any], bool]:
        """The body checked against its schema, and whether its state carries this server's
        signature. A signature that does not match is refused before anything else is read."""
        signed = isinstance(body, Mapping) and "signature" in body and "state" in body
        if signed and not self.signer.verify(body["state"], body["signature"]):
            raise RequestError(
                422,
                "invalid_state",
                "the state does not match its signature: it was changed after this server "
                "issued it, or another server (another secret) signed it",
                at="$.signature",
            )
        return self._bodies.check(endpoint, body, signed), signed

    def _state(self, body: Mapping[str, Any], signed: bool) -> State:
        """The body's state: a signed one rebuilt without re-deriving it; an unsigned one
        checked in full, and refused when it claims what its board cannot prove."""
        data = body["state"]
        try:
            # The request schema has checked an unsigned state already (``_BodyChecker``).
            state = states_json.state_from_json(self.game, data, trusted=signed, checked=True)
        except RecordError as error:
            raise RequestError(422, "invalid_state", str(error), at="$.state") from None
        except (KeyError, TypeError, ValueError, IndexError) as error:
            # Only a signed state is read unchecked: one signed with this secret by a server
            # whose state form differed. Refused like any unreadable state, never a 500.
            raise RequestError(
                422, "invalid_state", f"this signed state cannot be read here ({error!r}): start a new game", at="$.state"
            ) from None
        unproven = [] if signed else states_json.unproven_values(data)
        if unproven:
            raise RequestError(
                422,
                "unsigned_state",
                f"this unsigned state claims what its board cannot prove ({'; '.join(unproven)}): "
                "send it back with the signature this server answered with it, "
                "or rebuild the game from its record",
                at="$.state",
            )
        return state

    def _not_over(self, state: State) -> None:
        if self.game.is_over(state):
            raise RequestError(
                422, "game_over", f"the game is over (round {state.round}): no decision is left", at="$.state"
            )

    def _position(self, state: State) -> dict[str, Any]:
        game = self.game
        data = states_json.state_to_json(game, state)
        return {
            "state": data,
            "signature": self.signer.sign(data),
            "current_player": game.current_player(state),
            "over": game.is_over(state),
            "legal": [
                {
                    "action": actions_json.action_to_json(game, state, act),
                    "text": _both(lambda lang, act=act: messages.describe_action(game, state, act, lang)),
                }
                for act in state.legal
            ],
            "score": self._score(state),
        }

    def _score(self, state: State) -> dict[str, Any]:
        sheet = self.game.score(state)
        return {
            "sheet": values_json.score_sheet_to_json(sheet),
            "winner": _both(lambda lang: reports.winner_line(sheet, lang)),
            "title": _both(lambda lang: tables.score_title(sheet, lang)),
            "table": _both(lambda lang: tables.score_table(self.game, sheet, lang).to_json()),
        }

    def _events(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        return [
            {
                "event": values_json.event_to_json(event),
                "text": _both(lambda lang, event=event: messages.render_event(event, self.ruleset, lang)),
            }
            for event in events
        ]


def _both(render: Any) -> dict[str, Any]:
    """``{"ja": render("ja"), "en": render("en")}``."""
    return {lang: render(lang) for lang in messages.LANGS}
