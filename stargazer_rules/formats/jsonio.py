"""Plain-JSON forms of the values front ends exchange: states, actions, events, sheets, setups.

A JSON form holds only dicts, lists, strings, integers, booleans and None, and names cards by
id and players by seat where the engine uses positions (ring position, crew slot). Each form
has a JSON Schema under ``schemas/`` (``<kind>.schema.json``); every ``*_to_json`` output
validates against it, and every ``*_from_json`` checks its input against it first.

Reading is strict: a ``*_from_json`` raises ``RecordError`` listing every problem found, each
at its JSON path (``$.planets[2].track``): schema errors, unknown ids, cube counts that break
conservation, a track longer than its planet, a ``legal`` list that disagrees with the rules.
A state belongs to its ruleset: its document carries the ruleset's fingerprint, and reading it
under another ruleset is refused.

Conventions, also in docs/api.md:

- a free cube's owner is ``-1`` (the virtual player, as in events and score sheets);
- a crew without a worker has ``"worker": null``;
- directions are ``"clockwise"`` and ``"counter_clockwise"``.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import jsonschema
import referencing
import referencing.jsonschema

from stargazer_rules.engine import state_checks
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.engine.scoring import PlanetResult, ScoreSheet, SeatScore, Standing
from stargazer_rules.errors import RecordError, SetupError
from stargazer_rules.rulesets import validation
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.effects import DIRECTION, FREE_CUBE_OWNER, REPEAT, SKIP, Effect
from stargazer_rules.vocabulary.events import EVENT_KEYS, Event
from stargazer_rules.vocabulary.table import BEFORE_SURVEY, NO_WORKER, OVER, SURVEYING, Pending, State

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = [
    "SCHEMA_KINDS",
    "action_from_json",
    "action_to_json",
    "check_ruleset",
    "event_from_json",
    "event_to_json",
    "schema",
    "problem_lines",
    "schema_problems",
    "schema_registry",
    "state_schema_for",
    "state_schema_problems",
    "score_sheet_from_json",
    "score_sheet_to_json",
    "setup_from_json",
    "setup_to_json",
    "state_from_json",
    "state_to_json",
    "unproven_values",
    "validate",
]

#: The JSON forms with a schema: ``schemas/<kind>.schema.json``.
SCHEMA_KINDS = ("action", "event", "record", "score_sheet", "setup", "state")

_SCHEMA_URN = "urn:stargazer-rules:schemas:{}.schema.json"
_MAX_REPORTED = 20
#: Schema checks stop after this many errors: enough to report, never all of a huge document.
MAX_CHECKED = 50

_DIRECTIONS = {A.CLOCKWISE: "clockwise", A.COUNTER_CLOCKWISE: "counter_clockwise"}
_DIRECTION_VALUES = {name: value for value, name in _DIRECTIONS.items()}

#: Survey rule flags by the name of the effect that sets them.
_SURVEY_RULES = {
    "allow_repeat_planet": REPEAT,
    "choose_direction": DIRECTION,
    "may_skip_planets": SKIP,
}


# -- schemas ------------------------------------------------------------------------------


@functools.cache
def _registry() -> referencing.Registry:
    resources = []
    for kind in SCHEMA_KINDS:
        path = schemas_dir() / f"{kind}.schema.json"
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append(
            (_SCHEMA_URN.format(kind), referencing.jsonschema.DRAFT202012.create_resource(contents))
        )
    return referencing.Registry().with_resources(resources)


def schema_registry(state_schema: dict[str, Any] | None = None) -> referencing.Registry:
    """The library's schemas by their URNs, for validators of documents that refer to them;
    with ``state_schema`` (``state_schema_for``) in place of the state's. The narrowed schema
    keeps the library's $id, so it must replace the library's here too: its own
    "#/$defs/..." references have to find the narrowed definitions."""
    if state_schema is None:
        return _registry()
    resource = referencing.jsonschema.DRAFT202012.create_resource(state_schema)
    return _registry().with_resource(_SCHEMA_URN.format("state"), resource)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one JSON form (``kind`` is one of ``SCHEMA_KINDS``)."""
    if kind not in SCHEMA_KINDS:
        raise ValueError(f"no schema for {kind!r}; the kinds are {', '.join(SCHEMA_KINDS)}")
    contents = _registry()[_SCHEMA_URN.format(kind)].contents
    assert isinstance(contents, dict)
    return contents


def state_schema_for(game: Game) -> dict[str, Any]:
    """The state schema narrowed to ``game``'s ruleset: its player counts, ring and crew area
    sizes, longest track, largest special square, cubes, the most legal actions a state
    can list (``Game.most_legal_actions``) and every count's bound (``Game.bounds``).

    The library schema bounds what any ruleset could need (8 seats, 20,000 legal actions); a
    server holding one ruleset checks bodies against this one, so that a state listing more
    than its rules allow is refused by its size, before anything else reads it.
    """
    rules = game.ruleset
    narrowed = copy.deepcopy(schema("state"))
    properties, defs = narrowed["properties"], narrowed["$defs"]
    seats, planets, crews = game.most_players, game.most_planets, game.most_crew
    properties["players"].update(minimum=min(rules.player_counts), maximum=seats)
    properties["seats"].update(minItems=min(rules.player_counts), maxItems=seats)
    properties["planets"].update(maxItems=planets)
    properties["crew"].update(maxItems=crews)
    properties["chosen"].update(maxItems=crews)
    if game.most_legal_actions is not None:
        properties["legal"].update(maxItems=game.most_legal_actions)
    defs["planet"]["properties"]["track"].update(maxItems=max(card.length for card in rules.planets))
    defs["planet"]["properties"]["special"].update(maxItems=max(card.special_capacity for card in rules.planets))
    defs["crew"]["properties"]["cubes"].update(maxItems=seats * rules.cubes_per_player)
    # What a state may hold (Game.bounds): the checker refuses past these too.
    bounds = game.bounds
    seat = defs["seat"]["properties"]
    seat["hand"].update(maximum=bounds.most_hand)
    seat["removed"].update(maximum=bounds.most_hand)
    if bounds.most_vp is not None:
        seat["vp"].update(maximum=bounds.most_vp)
    properties["stock"].update(maximum=bounds.most_stock)
    properties["round"].update(maximum=bounds.most_round)
    properties["turn"].update(maximum=seats)
    defs["crew"]["properties"]["free_cubes"].update(maximum=rules.max_free_cubes_per_crew)
    properties["pending"].update(maxItems=bounds.most_pending)
    defs["pending"]["properties"]["remaining"].update(maximum=bounds.most_steps)
    survey = defs["survey"]["properties"]
    if bounds.least_survey_bonus is not None:
        survey["bonus"].update(minimum=bounds.least_survey_bonus, maximum=bounds.most_survey_bonus)
    survey["placed"].update(maximum=bounds.most_survey_placed)
    narrowed["description"] = f"{narrowed.get('description', '')} Narrowed to ruleset {rules.name}.".strip()
    return narrowed


def state_schema_problems(game: Game, data: Any, limit: int | None = MAX_CHECKED) -> list[str]:
    """Every way ``data`` breaks the state schema narrowed to ``game``'s ruleset
    (``state_schema_for``), as ``"$.path: message"``; the first ``limit`` found."""
    return problem_lines(itertools.islice(game.derived(_narrowed_validator).iter_errors(data), limit))


def _narrowed_validator(game: Game) -> Any:
    """The validator of ``state_schema_for(game)``, kept by the game (``Game.derived``)."""
    narrowed = state_schema_for(game)
    return StrictValidator(narrowed, registry=schema_registry(narrowed))


#: JSON Schema's integer without 1.0 and true (``rulesets.validation.StrictValidator``): the
#: server checks request bodies with it too.
StrictValidator = validation.StrictValidator


@functools.cache
def _validator(kind: str) -> Any:
    return StrictValidator(schema(kind), registry=_registry())


def schema_problems(kind: str, data: Any, at: str = "$", limit: int | None = None) -> list[str]:
    """Every way ``data`` breaks the schema of ``kind``, as ``"$.path: message"``, sorted by path.

    ``at`` is the JSON path of ``data`` in a larger document, put in front of each path.
    ``limit`` stops the check after that many errors (a document with 30,000 bad items costs
    no more than one with 30); ``validate`` stops after ``MAX_CHECKED``.
    """
    return problem_lines(itertools.islice(_validator(kind).iter_errors(data), limit), at)


def problem_lines(errors: Iterable[jsonschema.ValidationError], at: str = "$") -> list[str]:
    """Schema errors as ``"$.path: message"`` lines, sorted by path (list indexes as numbers),
    each once, in plain words (unexpected properties named, bounds stated, long values cut).

    ``at`` is the JSON path of the checked data in a larger document, put in front of each path.
    """
    ordered = sorted(errors, key=lambda error: (_sort_key(error.absolute_path), error.message))
    return list(dict.fromkeys(f"{at}{error.json_path[1:]}: {_plain_message(error)}" for error in ordered))


def validate(kind: str, data: Any, what: str | None = None, at: str = "$") -> None:
    """Raise ``RecordError`` listing the schema problems of ``data`` as a ``kind`` document
    (the first ``MAX_CHECKED`` found)."""
    _raise_if(schema_problems(kind, data, at, MAX_CHECKED), what or f"{kind.replace('_', ' ')} document")


def _sort_key(path: Iterable[Any]) -> list[tuple[int, Any]]:
    return [(0, part) if isinstance(part, int) else (1, str(part)) for part in path]


def _plain_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = sorted(key for key in error.instance if key not in allowed)
        expected = ", ".join(sorted(allowed))
        noun = "property" if len(extra) == 1 else "properties"
        return short_message(f"unexpected {noun} {', '.join(map(repr, extra))} (expected: {expected})")
    return short_message(bound_message(error) or error.message)


#: The longest schema message kept; past it a message is cut (a 30,000-item list is not quoted).
_MAX_MESSAGE = 300


def short_message(message: str) -> str:
    """``message``, cut to ``_MAX_MESSAGE`` characters with an ellipsis."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"


def bound_message(error: jsonschema.ValidationError) -> str | None:
    """A short message for a value past a schema bound, naming the bound; None for other errors."""
    bound, value = error.validator_value, error.instance
    if error.validator == "maxItems":
        return f"has {len(value)} items, more than the {bound} allowed (maxItems)"
    if error.validator == "maxLength":
        return f"has {len(value)} characters, more than the {bound} allowed (maxLength)"
    if error.validator == "maximum":
        shown = str(value) if len(str(value)) <= 30 else f"a {len(str(value))}-digit number"
        return f"{shown} is over the maximum of {bound}"
    if error.validator == "minimum" and len(str(value)) > 30:
        return f"a {len(str(value))}-digit negative number is under the minimum of {bound}"
    return None


def _raise_if(problems: Sequence[str], what: str) -> None:
    if not problems:
        return
    count = len(problems)
    lines = [f"{count} problem{'s' if count != 1 else ''} in the {what}:"]
    lines += [f"  {problem}" for problem in problems[:_MAX_REPORTED]]
    if count > _MAX_REPORTED:
        lines.append(f"  ... and {count - _MAX_REPORTED} more")
    if count >= MAX_CHECKED:
        lines.append(f"  (the check stops after {MAX_CHECKED} problems)")
    raise RecordError("\n".join(lines))


# -- ruleset identity ---------------------------------------------------------------------


def _ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    return {"name": ruleset.name, "fingerprint": ruleset.fingerprint}


def check_ruleset(game: Game, data: Mapping[str, Any], what: str) -> None:
    """Refuse a document's ``ruleset`` unless it names the game's ruleset and its fingerprint."""
    made = data["ruleset"]
    loaded = game.ruleset
    if made["fingerprint"] != loaded.fingerprint:
        raise RecordError(
            f"this {what} was made with ruleset {made['name']} "
            f"(fingerprint {_short(made['fingerprint'])}), "
            f"but the loaded ruleset is {loaded.name} (fingerprint {_short(loaded.fingerprint)})"
        )
    if made["name"] != loaded.name:
        raise RecordError(
            f"this {what} names ruleset {made['name']}, "
            f"but its fingerprint {_short(made['fingerprint'])} "
            f"is that of ruleset {loaded.name}"
        )


def _short(fingerprint: str) -> str:
    """The first 12 hex digits of a fingerprint, as git shortens commit hashes."""
    return fingerprint[:12]


# -- actions ------------------------------------------------------------------------------


def action_to_json(game: Game, state: State, act: Action) -> dict[str, Any]:
    """``act`` as JSON, naming the crew, Planet or seat it points at by id or seat number."""
    kind = act.kind
    if kind in (A.PICK_CREW, A.TARGET_CREW):
        return {"type": kind, "crew": _crew_id(game, state, act.target)}
    if kind in (A.TARGET_PLANET, A.SURVEY_STEP):
        return {"type": kind, "planet": _planet_id(game, state, act.target)}
    if kind == A.SURVEY:
        if act.count == 0:
            return {"type": kind, "count": 0}
        return {
            "type": kind,
            "planet": _planet_id(game, state, act.target),
            "count": act.count,
            "direction": _DIRECTIONS[act.direction],
        }
    if kind == A.SURVEY_STOP:
        return {"type": kind}
    if kind == A.CHOOSE_OPTION:
        return {"type": kind, "option": act.target}
    if kind == A.NAME_START_PLAYER:
        return {"type": kind, "seat": act.target}
    raise ValueError(f"unknown action kind {kind!r}; the kinds are {', '.join(A.KINDS)}")


def action_from_json(
    game: Game, state: State, data: Any, *, at: str = "$", what: str = "action", checked: bool = False
) -> Action:
    """The action a JSON action names in ``state``; ``RecordError`` if malformed or unknown ids.

    Whether the action is legal is ``Game.apply``'s question. ``at`` and ``what`` place the
    action in a larger document for the messages (``$.actions[3]``, ``game record``).
    ``checked`` says ``data`` already passed the action schema (as part of a request body
    whose schema includes it), so that it is not checked twice.
    """
    if not checked:
        validate("action", data, what, at)
    problems: list[str] = []
    act = _read_action(game, state, data, at, problems)
    _raise_if(problems, what)
    assert act is not None
    return act


def _read_action(
    game: Game, state: State, data: Mapping[str, Any], at: str, problems: list[str]
) -> Action | None:
    kind = data["type"]
    if kind in (A.PICK_CREW, A.TARGET_CREW):
        target = _crew_slot(game, state, data["crew"], f"{at}.crew", problems)
    elif kind in (A.TARGET_PLANET, A.SURVEY_STEP):
        target = _planet_position(game, state, data["planet"], f"{at}.planet", problems)
    elif kind == A.SURVEY:
        if data["count"] == 0:
            return action(A.SURVEY, -1, 0)
        target = _planet_position(game, state, data["planet"], f"{at}.planet", problems)
        if target is None:
            return None
        return action(A.SURVEY, target, data["count"], _DIRECTION_VALUES[data["direction"]])
    elif kind == A.SURVEY_STOP:
        target = -1
    elif kind == A.CHOOSE_OPTION:
        target = data["option"]
    else:  # NAME_START_PLAYER
        target = data["seat"]
        if target >= state.players:
            problems.append(f"{at}.seat: seat {target} is not a seat of 0..{state.players - 1}")
            return None
    return None if target is None else action(kind, target)


def _planet_id(game: Game, state: State, position: int) -> str:
    if not 0 <= position < len(state.planets):
        raise ValueError(f"Planet position {position} is outside the ring of {len(state.planets)}")
    return game.ruleset.planets[state.planets[position]].id


def _crew_id(game: Game, state: State, slot: int) -> str:
    if not 0 <= slot < len(state.crew):
        raise ValueError(f"crew slot {slot} is outside the crew area of {len(state.crew)}")
    return game.ruleset.crew[state.crew[slot]].id


def _planet_position(
    game: Game, state: State, planet_id: str, at: str, problems: list[str]
) -> int | None:
    ring = [game.ruleset.planets[index].id for index in state.planets]
    if planet_id in ring:
        return ring.index(planet_id)
    problems.append(f"{at}: planet {planet_id!r} is not in the ring ({', '.join(ring)})")
    return None


def _crew_slot(game: Game, state: State, crew_id: str, at: str, problems: list[str]) -> int | None:
    area = [game.ruleset.crew[index].id for index in state.crew]
    if crew_id in area:
        return area.index(crew_id)
    problems.append(f"{at}: crew {crew_id!r} is not in the crew area ({', '.join(area)})")
    return None


# -- events -------------------------------------------------------------------------------


def event_to_json(event: Event) -> dict[str, Any]:
    """``event`` as JSON: ``{"key": ..., **params}``."""
    return event.to_json()


def event_from_json(data: Any) -> Event:
    """The event a JSON event describes; ``RecordError`` for an unknown key or wrong parameters."""
    validate("event", data, "event")
    event = Event.from_json(data)
    assert set(event.params) == set(EVENT_KEYS[event.key])  # the schema lists exactly these
    return event


# -- setups -------------------------------------------------------------------------------


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """``setup`` as JSON: players, planet ids in ring order, dealt crew ids, start player."""
    return {
        "players": setup.players,
        "planets": list(setup.planets),
        "crew": list(setup.crew),
        "start_player": setup.start_player,
    }


def setup_from_json(data: Any, game: Game | None = None) -> Setup:
    """The setup a JSON setup describes; with ``game``, also checked against its ruleset (R14)."""
    validate("setup", data, "setup")
    setup = Setup(
        data["players"], tuple(data["planets"]), tuple(data["crew"]), data["start_player"]
    )
    if game is not None:
        try:
            game.check_setup(setup)
        except SetupError as error:
            raise RecordError(str(error)) from None
    return setup


# -- score sheets -------------------------------------------------------------------------


def score_sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """``sheet`` as JSON; ``accident`` is included for front ends (derived)."""
    return {
        "final": sheet.final,
        "winners": list(sheet.winners),
        "planets": [
            {
                "planet": result.planet,
                "colour": result.colour,
                "top_square": result.top_square,
                "full": result.full,
                "accident": result.accident,
                "standings": [
                    {
                        "owner": standing.owner,
                        "cubes": standing.cubes,
                        "first_square": standing.first_square,
                        "rank": standing.rank,
                        "row": standing.row,
                        "vp": standing.vp,
                    }
                    for standing in result.standings
                ],
            }
            for result in sheet.planets
        ],
        "seats": [
            {
                "seat": seat.seat,
                "planets": _seat_planets(sheet, seat.seat),
                "majority_vp": seat.majority_vp,
                "bonus_vp": seat.bonus_vp,
                "bonus_count": seat.bonus_count,
                "bonus_colours": list(seat.bonus_colours),
                "colour_counts": dict(seat.colour_counts),
                "play_vp": seat.play_vp,
                "total": seat.total,
                "hand": seat.hand,
            }
            for seat in sheet.seats
        ],
    }


def _seat_planets(sheet: ScoreSheet, seat: int) -> list[dict[str, Any]]:
    """Per seat, the majority VP of each Planet with the rank and row used (derived)."""
    return [
        {"planet": planet, "cubes": s.cubes, "rank": s.rank, "row": s.row, "vp": s.vp}
        for planet, s in sheet.majority_of(seat)
    ]


def score_sheet_from_json(data: Any) -> ScoreSheet:
    """The score sheet a JSON sheet describes; ``RecordError`` when malformed."""
    validate("score_sheet", data, "score sheet")
    planets = []
    problems = []
    for p, result in enumerate(data["planets"]):
        planet = PlanetResult(
            result["planet"],
            result["colour"],
            result["top_square"],
            result["full"],
            tuple(Standing(**standing) for standing in result["standings"]),
        )
        if planet.accident != result["accident"]:
            problems.append(
                f"$.planets[{p}].accident: is {result['accident']}, "
                f"but the standings make it {planet.accident}"
            )
        planets.append(planet)
    seats = tuple(
        SeatScore(
            seat=seat["seat"],
            majority_vp=seat["majority_vp"],
            bonus_vp=seat["bonus_vp"],
            bonus_count=seat["bonus_count"],
            bonus_colours=tuple(seat["bonus_colours"]),
            colour_counts=tuple(sorted(seat["colour_counts"].items())),
            play_vp=seat["play_vp"],
            total=seat["total"],
            hand=seat["hand"],
        )
        for seat in data["seats"]
    )
    sheet = ScoreSheet(tuple(planets), seats, tuple(data["winners"]), data["final"])
    for index, seat in enumerate(data["seats"]):
        if seat["planets"] != _seat_planets(sheet, seat["seat"]):
            problems.append(f"$.seats[{index}].planets: disagrees with the Planets' standings")
    _raise_if(problems, "score sheet")
    return sheet


# -- states -------------------------------------------------------------------------------


def state_to_json(game: Game, state: State) -> dict[str, Any]:
    """``state`` as JSON for a front end: the board by card id, supplies, turn, legal actions."""
    rules = game.ruleset
    ring = [rules.planets[index].id for index in state.planets]
    area = [rules.crew[index].id for index in state.crew]
    return {
        "ruleset": _ruleset_json(rules),
        "players": state.players,
        "round": state.round,
        "start_player": state.start_player,
        "turn": state.turn,
        "stage": state.stage,
        "current_player": game.current_player(state),
        "planets": [
            {"id": planet_id, "track": list(track), "special": list(special)}
            for planet_id, track, special in zip(ring, state.tracks, state.specials)
        ],
        "crew": [
            {
                "id": crew_id,
                "free_cubes": free,
                "cubes": list(cubes),
                "worker": None if worker == NO_WORKER else worker,
            }
            for crew_id, free, cubes, worker in zip(
                area, state.crew_free, state.crew_cubes, state.workers
            )
        ],
        "seats": [
            {"hand": hand, "vp": vp, "removed": removed}
            for hand, vp, removed in zip(state.hands, state.vp, state.removed)
        ],
        "stock": state.stock,
        "chosen": [area[slot] for slot in state.chosen],
        "pending": [
            {
                "crew": area[item.slot],
                "effect": _effect_at(rules.crew[state.crew[item.slot]].skill, item.path).name,
                "path": list(item.path),
                "remaining": item.remaining,
                "seat": item.seat,
            }
            for item in state.pending
        ],
        "survey": {
            "rules": [name for name, flag in _SURVEY_RULES.items() if state.survey_rules & flag],
            "bonus": state.survey_bonus,
            "placed": state.survey_placed,
            "last": ring[state.survey_last] if state.survey_last >= 0 else None,
            "direction": _DIRECTIONS.get(state.survey_direction),
            "surveyed": [ring[p] for p in sorted(state.surveyed)],
        },
        "triggers": list(state.triggers),
        "legal": [action_to_json(game, state, act) for act in state.legal],
    }


def state_from_json(game: Game, data: Any, *, trusted: bool = False, checked: bool = False) -> State:
    """The state a JSON state describes, rebuilt exactly (``legal`` included).

    Raises ``RecordError`` for a document of another ruleset, and, listing every problem at
    its JSON path, for a malformed or inconsistent one: schema errors, unknown or repeated
    ids, a setup the ruleset does not deal, tracks and special squares over capacity, cube
    counts that break conservation, a ``current_player`` or ``legal`` list that disagrees with
    the rules.

    The board proves itself, but a seat's VP, its removed cubes and the round are taken as
    written: ``unproven_values`` lists them for a caller that cannot trust the document's
    source. ``trusted=True`` is for a document known to be one this library wrote (a state
    whose signature checked, ``signing``): the schema and the comparison of ``current_player``
    and ``legal`` with the rules are skipped. ``checked=True`` says the document already passed
    the state schema (as part of a request body), so that it is not checked twice.
    """
    if not trusted and not checked:
        validate("state", data, "state document")
    check_ruleset(game, data, "state")
    reader = _StateReader(game, data, trusted=trusted)
    state = reader.read()
    _raise_if(reader.problems, "state document")
    assert state is not None
    return state


def unproven_values(data: Mapping[str, Any]) -> list[str]:
    """What a schema-valid state document claims that its board cannot prove, as
    ``"$.path = value"``: a seat's VP or removed cubes other than 0, a round after the first.

    A document from an unknown source is believable only where these are at their values at
    the start of a game; past that, it must come signed (``signing``) or be rebuilt from its
    game record (``records``).
    """
    found = []
    for seat, supply in enumerate(data["seats"]):
        for key in ("vp", "removed"):
            if supply[key] != 0:
                found.append(f"$.seats[{seat}].{key} = {supply[key]}")
    if data["round"] != 1:
        found.append(f"$.round = {data['round']}")
    return found


class _StateReader:
    """Reads one schema-valid state document, collecting every inconsistency as a problem."""

    def __init__(self, game: Game, data: Mapping[str, Any], *, trusted: bool = False) -> None:
        self.game = game
        self.rules = game.ruleset
        self.data = data
        self.trusted = trusted
        self.problems: list[str] = []

    def problem(self, at: str, message: str) -> None:
        self.problems.append(f"{at}: {message}")

    def read(self) -> State | None:
        """Translate the document's ids to positions and check the state they make
        (``state_checks``); None, with the problems collected, when it is not one."""
        data, rules = self.data, self.rules
        planets = self._card_indices(
            "planet", data["planets"], {card.id: i for i, card in enumerate(rules.planets)}
        )
        crew = self._card_indices(
            "crew", data["crew"], {card.id: i for i, card in enumerate(rules.crew)}
        )
        if planets is None or crew is None:
            return None
        area = [member["id"] for member in data["crew"]]
        chosen = []
        for k, crew_id in enumerate(data["chosen"]):
            if crew_id in area:
                chosen.append(area.index(crew_id))
            else:
                self.problem(
                    f"$.chosen[{k}]",
                    f"crew {crew_id!r} is not in the crew area ({', '.join(area)})",
                )
        pending = self._pending(crew, area)
        survey = self._survey([card.id for card in (rules.planets[i] for i in planets)])
        if survey is None or pending is None or len(chosen) != len(data["chosen"]):
            return None
        rules_flags, bonus, placed, last, direction, surveyed = survey
        seats = data["seats"]
        state = State(
            players=data["players"],
            planets=planets,
            crew=crew,
            tracks=tuple(tuple(planet["track"]) for planet in data["planets"]),
            specials=tuple(tuple(planet["special"]) for planet in data["planets"]),
            crew_free=tuple(member["free_cubes"] for member in data["crew"]),
            crew_cubes=tuple(tuple(member["cubes"]) for member in data["crew"]),
            workers=tuple(NO_WORKER if member["worker"] is None else member["worker"] for member in data["crew"]),
            hands=tuple(seat["hand"] for seat in seats),
            vp=tuple(seat["vp"] for seat in seats),
            removed=tuple(seat["removed"] for seat in seats),
            stock=data["stock"],
            round=data["round"],
            start_player=data["start_player"],
            turn=data["turn"],
            stage=data["stage"],
            chosen=tuple(chosen),
            pending=pending,
            survey_rules=rules_flags,
            survey_bonus=bonus,
            survey_placed=placed,
            survey_last=last,
            survey_direction=direction,
            surveyed=surveyed,
            triggers=tuple(data["triggers"]),
            legal=(),
        )
        problems, legal = state_checks.check(self.game, state)
        self.problems += problems
        if self.problems:
            return None
        assert legal is not None
        state = state._replace(legal=legal)
        if self.trusted:
            return state
        current = self.game.current_player(state)
        if data["current_player"] != current:
            self.problem(
                "$.current_player", f"is {data['current_player']}, but the rules make it {current}"
            )
        expected = [action_to_json(self.game, state, act) for act in legal]
        if data["legal"] != expected:
            self.problem("$.legal", _legal_difference(data["legal"], expected))
        return state

    def _card_indices(
        self, kind: str, items: Sequence[Mapping[str, Any]], known: Mapping[str, int]
    ) -> tuple[int, ...] | None:
        indices = []
        seen: set[str] = set()
        ok = True
        for k, item in enumerate(items):
            card_id = item["id"]
            if card_id not in known:
                self.problem(
                    f"$.{'planets' if kind == 'planet' else 'crew'}[{k}].id",
                    f"unknown {kind} {card_id!r} in ruleset {self.rules.name}",
                )
                ok = False
            elif card_id in seen:
                self.problem(
                    f"$.{'planets' if kind == 'planet' else 'crew'}[{k}].id",
                    f"{kind} {card_id!r} appears twice",
                )
                ok = False
            else:
                seen.add(card_id)
                indices.append(known[card_id])
        return tuple(indices) if ok else None

    def _pending(self, crew: tuple[int, ...], area: list[str]) -> tuple[Pending, ...] | None:
        """The pending effects with crew ids as slots; the effect name each names (derived)
        is checked here, the rest by ``state_checks``."""
        items = []
        ok = True
        for k, item in enumerate(self.data["pending"]):
            at = f"$.pending[{k}]"
            if item["crew"] not in area:
                self.problem(
                    f"{at}.crew",
                    f"crew {item['crew']!r} is not in the crew area ({', '.join(area)})",
                )
                ok = False
                continue
            slot = area.index(item["crew"])
            card = self.rules.crew[crew[slot]]
            path = tuple(item["path"])
            effect = _effect_at(card.skill, path)
            if effect is not None and item["effect"] != effect.name:
                self.problem(
                    f"{at}.effect",
                    f"is {item['effect']!r}, but the effect at {list(path)} "
                    f"of crew {card.id!r} is {effect.name!r}",
                )
            items.append(Pending(slot, path, item["remaining"], item["seat"]))
        return tuple(items) if ok else None

    def _survey(self, ring: list[str]) -> tuple[int, int, int, int, int, frozenset[int]] | None:
        survey = self.data["survey"]
        flags = 0
        for name in survey["rules"]:
            flags |= _SURVEY_RULES[name]
        last = -1
        if survey["last"] is not None:
            if survey["last"] in ring:
                last = ring.index(survey["last"])
            else:
                self.problem(
                    "$.survey.last",
                    f"planet {survey['last']!r} is not in the ring ({', '.join(ring)})",
                )
                return None
        surveyed = set()
        for k, planet_id in enumerate(survey["surveyed"]):
            if planet_id in ring:
                surveyed.add(ring.index(planet_id))
            else:
                self.problem(
                    f"$.survey.surveyed[{k}]",
                    f"planet {planet_id!r} is not in the ring ({', '.join(ring)})",
                )
                return None
        direction = 0 if survey["direction"] is None else _DIRECTION_VALUES[survey["direction"]]
        return flags, survey["bonus"], survey["placed"], last, direction, frozenset(surveyed)


def _effect_at(skill: Sequence[Effect], path: Sequence[int]) -> Effect | None:
    """The effect at ``path`` in a skill: effect index, then option index and effect index, ..."""
    effects = skill
    effect = None
    for depth, index in enumerate(path):
        if depth % 2 == 0:
            if index >= len(effects):
                return None
            effect = effects[index]
        else:
            assert effect is not None
            if index >= len(effect.branches):
                return None
            effects = effect.branches[index]
    return effect if len(path) % 2 == 1 else None


def _legal_difference(found: list[Any], expected: list[dict[str, Any]]) -> str:
    for index, (have, want) in enumerate(zip(found, expected)):
        if have != want:
            return (
                f"disagrees with the rules at [{index}]: "
                f"the document has {json.dumps(have, sort_keys=True)}, "
                f"the rules give {json.dumps(want, sort_keys=True)}"
            )
    return f"lists {len(found)} actions, but the rules give {len(expected)}"
