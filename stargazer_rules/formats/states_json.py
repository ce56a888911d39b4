"""The JSON form of a state, read strictly; and the state schema narrowed to one ruleset.

A state's document names cards by id and carries its ruleset's fingerprint; reading it under
another ruleset is refused. Reading translates the ids to positions and leaves the question of
what a state may hold to ``engine.state_checks``, then compares what the document derives
(``current_player``, ``legal``) with the rules. Every problem found is listed at its JSON path.

Conventions, also in docs/api.md: a crew without a worker has ``"worker": null``; the survey's
rules are named by the effects that set them, its direction as in actions.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.engine import state_checks
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import counted
from stargazer_rules.formats.actions_json import (
    DIRECTION_NAMES,
    DIRECTION_VALUES,
    action_to_json,
    crew_slot,
    planet_position,
)
from stargazer_rules.formats.ruleset_identity import check_ruleset, ruleset_json
from stargazer_rules.formats.schema_checks import (
    MAX_CHECKED,
    StrictValidator,
    problem_lines,
    raise_problems,
    schema,
    schema_registry,
    validate,
)
from stargazer_rules.formats.shape_checks import ShapeCheck, compile_shape
from stargazer_rules.vocabulary.effects import NO_SKIP_LIMIT, SURVEY_RULE_FLAGS, Effect
from stargazer_rules.vocabulary.table import NO_WORKER, PROTECTION_UNTIL, SETUP_CARD, Pending, State

#: A seat's protection (``State.protected``) by its JSON name, ``protect_cubes``'s ``until``.
PROTECTION_NAMES = {code: name for name, code in PROTECTION_UNTIL.items()}

__all__ = [
    "state_from_json",
    "state_schema_for",
    "state_schema_problems",
    "state_to_json",
    "unproven_values",
]


# -- the state schema narrowed to a ruleset -------------------------------------------------


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
    properties["crew_queue"].update(maxItems=len(rules.crew))  # R11: the crew cards not dealt
    if game.most_legal_actions is not None:
        properties["legal"].update(maxItems=game.most_legal_actions)
    defs["planet"]["properties"]["track"].update(maxItems=max(card.length for card in rules.planets))
    defs["planet"]["properties"]["special"].update(maxItems=max(card.special_capacity for card in rules.planets))
    defs["crew"]["properties"]["cubes"].update(maxItems=seats * game.bounds.most_hand)
    # What a state may hold (Game.bounds): the checker refuses past these too.
    bounds = game.bounds
    seat = defs["seat"]["properties"]
    seat["hand"].update(maximum=bounds.most_hand)
    seat["removed"].update(maximum=bounds.most_hand)
    seat["taken"].update(maximum=bounds.most_hand - rules.cubes_per_player)
    if bounds.most_vp is not None:
        seat["vp"].update(maximum=bounds.most_vp)
    properties["stock"].update(maximum=bounds.most_stock)
    properties["round"].update(maximum=bounds.most_round)
    properties["turn"].update(maximum=seats)
    properties["triggers"].update(maxItems=len(rules.trigger_names))
    properties["triggers"]["items"] = {"enum": list(rules.trigger_names)}  # R10: the ruleset's end, then round_limit
    defs["crew"]["properties"]["free_cubes"].update(maximum=rules.max_free_cubes_per_crew)
    properties["pending"].update(maxItems=bounds.most_pending)
    defs["pending"]["properties"]["remaining"].update(maximum=bounds.most_steps)
    survey = defs["survey"]["properties"]
    if bounds.least_survey_bonus is not None:
        survey["bonus"].update(minimum=bounds.least_survey_bonus, maximum=bounds.most_survey_bonus)
    survey["placed"].update(maximum=bounds.most_survey_placed)
    survey["skips"]["anyOf"][0].update(maximum=bounds.most_survey_skips)
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


# -- states -------------------------------------------------------------------------------


def state_to_json(game: Game, state: State) -> dict[str, Any]:
    """``state`` as JSON for a front end: the board by card id, supplies, turn, legal actions."""
    rules = game.ruleset
    ring = [rules.planets[index].id for index in state.planets]
    area = [rules.crew[index].id for index in state.crew]
    queue = {"crew_queue": [rules.crew[index].id for index in state.queue]} if game.replaces_crews else {}
    return {
        "ruleset": ruleset_json(rules.name, rules.fingerprint),
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
                **_crew_lasting(rules, state, slot),
            }
            for slot, (crew_id, free, cubes, worker) in enumerate(zip(
                area, state.crew_free, state.crew_cubes, state.workers
            ))
        ],
        "seats": [
            {"hand": hand, "vp": vp, "removed": removed, **_seat_taken(taken), **_seat_lasting(until)}
            for hand, vp, removed, taken, until in zip(state.hands, state.vp, state.removed, state.taken, state.protected)
        ],
        **queue,
        "stock": state.stock,
        "chosen": [area[slot] for slot in state.chosen],
        "pending": [_pending_json(rules, state, area, item) for item in state.pending],
        "survey": {
            "rules": [name for name, flag in SURVEY_RULE_FLAGS.items() if state.survey_rules & flag],
            "bonus": state.survey_bonus,
            "placed": state.survey_placed,
            "last": ring[state.survey_last] if state.survey_last >= 0 else None,
            "direction": DIRECTION_NAMES.get(state.survey_direction),
            "skips": None if state.survey_skips == NO_SKIP_LIMIT else state.survey_skips,
            "surveyed": [ring[p] for p in sorted(state.surveyed)],
        },
        "triggers": list(state.triggers),
        "legal": [action_to_json(game, state, act) for act in state.legal],
    }


def _crew_lasting(rules: Any, state: State, slot: int) -> dict[str, Any]:
    """A crew's lasting effects, each only while in force (a state without any reads as before
    they existed): ``closed`` (``close_crew``), ``borrowed`` (``use_skill``)."""
    data: dict[str, Any] = {}
    if slot in state.closed:
        data["closed"] = True
    if state.borrowed[slot] >= 0:
        data["borrowed"] = rules.crew[state.borrowed[slot]].id
    return data


def _seat_taken(taken: int) -> dict[str, Any]:
    """The free cubes a seat took as its own (``take_free_cubes``, idea R8), only when it took
    any: a ruleset without the effect writes its states as before."""
    return {"taken": taken} if taken else {}


def _seat_lasting(until: int) -> dict[str, Any]:
    """A seat's protection (``protect_cubes``), only while in force."""
    return {"protected": PROTECTION_NAMES[until]} if until else {}


def _pending_json(rules: Any, state: State, area: list[str], item: Pending) -> dict[str, Any]:
    """A pending effect by crew id; ``skill_of`` names the card whose skill holds it when the
    crew applies another's (``use_skill``)."""
    if item.card == SETUP_CARD:  # a setup step: no crew holds it
        skill = rules.setup_steps
    else:
        skill = rules.crew[item.skill_card(state.crew)].skill
    data = {
        "crew": area[item.slot] if item.slot >= 0 else None,
        "effect": _effect_at(skill, item.path).name,
        "path": list(item.path),
        "remaining": item.remaining,
        "seat": item.seat,
    }
    if item.card >= 0:
        data["skill_of"] = rules.crew[item.card].id
    return data


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
    whose signature checked, ``signing``): the full schema check and the comparison of
    ``current_player`` and ``legal`` with the rules are skipped, but not the shape: a signature
    proves where a state came from, not that it is well formed, so its types and bounds are
    checked (``trusted_shape``, many times cheaper than the schema) before anything reads it. ``checked=True`` says the document already passed
    the state schema (as part of a request body), so that it is not checked twice.
    """
    if trusted:
        raise_problems(game.derived(trusted_shape).problems(data, MAX_CHECKED), "state document")
    elif not checked:
        validate("state", data, "state document")
    check_ruleset(game, data, "state")
    reader = _StateReader(game, data, trusted=trusted)
    state = reader.read()
    raise_problems(reader.problems, "state document")
    assert state is not None
    return state


def trusted_shape(game: Game) -> ShapeCheck:
    """The shape check of a signed state of ``game``'s ruleset: the narrowed state schema's
    types and bounds, without ``legal`` and ``current_player``, which a trusted read derives
    from the rules instead of reading them (kept per game, ``Game.derived``)."""
    return compile_shape(state_schema_for(game), replace={"legal": {"type": "array"}, "current_player": {}})


def unproven_values(data: Mapping[str, Any]) -> list[str]:
    """What a schema-valid state document claims that its board cannot prove, as
    ``"$.path = value"``: a seat's VP, removed cubes or free cubes taken (``take_free_cubes``)
    other than 0, a round after the first.

    A document from an unknown source is believable only where these are at their values at
    the start of a game; past that, it must come signed (``signing``) or be rebuilt from its
    game record (``records``).
    """
    found = []
    for seat, supply in enumerate(data["seats"]):
        for key in ("vp", "removed", "taken"):
            if supply.get(key, 0) != 0:
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
        chosen = [
            crew_slot(area, crew_id, f"$.chosen[{k}]", self.problems)
            for k, crew_id in enumerate(data["chosen"])
        ]
        pending = self._pending(crew, area)
        survey = self._survey([card.id for card in (rules.planets[i] for i in planets)])
        if survey is None or pending is None or None in chosen:
            return None
        rules_flags, bonus, placed, last, direction, skips, surveyed = survey
        borrowed = tuple(
            self._crew_card(member["borrowed"], f"$.crew[{slot}].borrowed") if "borrowed" in member else -1
            for slot, member in enumerate(data["crew"])
        )
        queue = tuple(self._crew_card(crew_id, f"$.crew_queue[{k}]") for k, crew_id in enumerate(data.get("crew_queue", ())))
        if None in borrowed or None in queue:
            return None
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
            chosen=tuple(slot for slot in chosen if slot is not None),
            pending=pending,
            survey_rules=rules_flags,
            survey_bonus=bonus,
            survey_placed=placed,
            survey_last=last,
            survey_direction=direction,
            survey_skips=skips,
            surveyed=surveyed,
            triggers=tuple(data["triggers"]),
            legal=(),
            closed=frozenset(slot for slot, member in enumerate(data["crew"]) if member.get("closed", False)),
            protected=tuple(PROTECTION_UNTIL.get(seat.get("protected"), 0) for seat in seats),
            borrowed=borrowed,
            taken=tuple(seat.get("taken", 0) for seat in seats),
            queue=queue,  # type: ignore[arg-type]
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

    def _crew_card(self, crew_id: str, at: str) -> int | None:
        """The index of the ruleset's crew card ``crew_id``; None, with a problem, if unknown."""
        ids = [card.id for card in self.rules.crew]
        if crew_id in ids:
            return ids.index(crew_id)
        self.problem(at, f"no crew card {crew_id!r} in ruleset {self.rules.name}")
        return None

    def _pending(self, crew: tuple[int, ...], area: list[str]) -> tuple[Pending, ...] | None:
        """The pending effects with crew ids as slots; the effect name each names (derived)
        is checked here, the rest by ``state_checks``."""
        items = []
        ok = True
        for k, item in enumerate(self.data["pending"]):
            at = f"$.pending[{k}]"
            if item["crew"] is None:  # a setup step (rules.yaml setup.each_player)
                if "skill_of" in item:
                    self.problem(f"{at}.skill_of", "a setup step is held by no crew's skill: leave skill_of out")
                    ok = False
                    continue
                path = tuple(item["path"])
                self._effect_name(at, item["effect"], _effect_at(self.rules.setup_steps, path), path, "setup.each_player")
                items.append(Pending(-1, path, item["remaining"], item["seat"], SETUP_CARD))
                continue
            slot = crew_slot(area, item["crew"], f"{at}.crew", self.problems)
            if slot is None:
                ok = False
                continue
            borrowed = -1
            if "skill_of" in item:  # an effect of a skill the crew applies with use_skill
                borrowed = self._crew_card(item["skill_of"], f"{at}.skill_of")
                if borrowed is None:
                    ok = False
                    continue
            card = self.rules.crew[crew[slot] if borrowed < 0 else borrowed]
            path = tuple(item["path"])
            self._effect_name(at, item["effect"], _effect_at(card.skill, path), path, f"crew {card.id!r}")
            items.append(Pending(slot, path, item["remaining"], item["seat"], borrowed))
        return tuple(items) if ok else None

    def _effect_name(self, at: str, name: str, effect: Effect | None, path: tuple[int, ...], held_by: str) -> None:
        if effect is not None and name != effect.name:
            self.problem(f"{at}.effect", f"is {name!r}, but the effect at {list(path)} of {held_by} is {effect.name!r}")

    def _survey(self, ring: list[str]) -> tuple[int, int, int, int, int, int, frozenset[int]] | None:
        survey = self.data["survey"]
        flags = 0
        for name in survey["rules"]:
            flags |= SURVEY_RULE_FLAGS[name]
        last: int | None = -1
        if survey["last"] is not None:
            last = planet_position(ring, survey["last"], "$.survey.last", self.problems)
            if last is None:
                return None
        surveyed = set()
        for k, planet_id in enumerate(survey["surveyed"]):
            position = planet_position(ring, planet_id, f"$.survey.surveyed[{k}]", self.problems)
            if position is None:
                return None
            surveyed.add(position)
        direction = 0 if survey["direction"] is None else DIRECTION_VALUES[survey["direction"]]
        skips = survey.get("skips")  # left out by states written before skip limits: none
        skips = NO_SKIP_LIMIT if skips is None else skips
        return flags, survey["bonus"], survey["placed"], last, direction, skips, frozenset(surveyed)


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
    return f"lists {counted(len(found), 'action|actions')}, but the rules give {len(expected)}"
