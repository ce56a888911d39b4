"""The JSON form of an action: the crew, Planet or seat it points at by card id or seat number.

The engine's actions point by position (ring position, crew slot); a JSON action names the
card, so that it reads without the state it was taken in. Reading one needs that state, to
turn the ids back into positions; whether the action is legal there is ``Game.apply``'s question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.formats.schema_checks import raise_problems, validate
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.table import State

__all__ = [
    "DIRECTION_NAMES",
    "DIRECTION_VALUES",
    "action_from_json",
    "action_to_json",
    "crew_slot",
    "kernel_move_to_json",
    "planet_position",
]

#: The JSON names of the survey's directions (a survey action's, and a state's survey's).
DIRECTION_NAMES = A.DIRECTION_NAMES  # the vocabulary's one table of direction names
DIRECTION_VALUES = {name: value for value, name in DIRECTION_NAMES.items()}


def action_to_json(game: Game, state: State, act: Action) -> dict[str, Any]:
    """``act`` as JSON, naming the crew, Planet or seat it points at by id or seat number."""
    kind = act.kind
    if kind in _CREW_KINDS:
        card_id = _crew_id(game, state, act.target)
    elif kind in _PLANET_KINDS or (kind == A.SURVEY and act.count):
        card_id = _planet_id(game, state, act.target)
    else:
        card_id = None
    return _json_of(kind, act.target, act.count, act.direction, card_id)


def kernel_move_to_json(game: Game, kind: str, target: int, count: int, direction: int, card: int) -> dict[str, Any]:
    """A move of a game played in the kernel (``_kernel.play_games``) as JSON, the same as
    ``action_to_json`` gives for it: ``card`` is the crew or planet card index it points at,
    resolved by the kernel in the state it was played in (-1 when it points at none)."""
    if kind in _CREW_KINDS:
        card_id = game.crew_ids[card]
    elif kind in _PLANET_KINDS or (kind == A.SURVEY and count):
        card_id = game.planet_ids[card]
    else:
        card_id = None
    return _json_of(kind, target, count, direction, card_id)


#: The kinds whose target is a crew slot, and those whose target is a ring position (a survey
#: that places cubes too): JSON names the card there.
_CREW_KINDS = frozenset((A.PICK_CREW, A.TARGET_CREW))
_PLANET_KINDS = frozenset((A.TARGET_PLANET, A.SURVEY_STEP))


def _json_of(kind: str, target: int, count: int, direction: int, card_id: str | None) -> dict[str, Any]:
    """The JSON of an action whose crew or Planet (if any) is ``card_id``: the one shape of it."""
    if kind in _CREW_KINDS:
        return {"type": kind, "crew": card_id}
    if kind in _PLANET_KINDS:
        return {"type": kind, "planet": card_id}
    if kind == A.SURVEY:
        if count == 0:
            return {"type": kind, "count": 0}
        return {"type": kind, "planet": card_id, "count": count, "direction": DIRECTION_NAMES[direction]}
    if kind == A.SURVEY_STOP:
        return {"type": kind}
    if kind == A.CHOOSE_OPTION:
        return {"type": kind, "option": target}
    if kind in (A.NAME_START_PLAYER, A.TARGET_SEAT):
        return {"type": kind, "seat": target}
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
    raise_problems(problems, what)
    assert act is not None
    return act


def _read_action(
    game: Game, state: State, data: Mapping[str, Any], at: str, problems: list[str]
) -> Action | None:
    kind = data["type"]
    if kind in (A.PICK_CREW, A.TARGET_CREW):
        target = crew_slot(_area(game, state), data["crew"], f"{at}.crew", problems)
    elif kind in (A.TARGET_PLANET, A.SURVEY_STEP):
        target = planet_position(_ring(game, state), data["planet"], f"{at}.planet", problems)
    elif kind == A.SURVEY:
        if data["count"] == 0:
            return action(A.SURVEY, -1, 0)
        target = planet_position(_ring(game, state), data["planet"], f"{at}.planet", problems)
        if target is None:
            return None
        return action(A.SURVEY, target, data["count"], DIRECTION_VALUES[data["direction"]])
    elif kind == A.SURVEY_STOP:
        target = -1
    elif kind == A.CHOOSE_OPTION:
        target = data["option"]
    else:  # NAME_START_PLAYER, TARGET_SEAT
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


def planet_position(ring: Sequence[str], planet_id: str, at: str, problems: list[str]) -> int | None:
    """The ring position of ``planet_id`` among the ring's ids; None, with a problem at ``at``,
    when the ring does not hold it (an action's target, a state's survey alike)."""
    if planet_id in ring:
        return ring.index(planet_id)
    problems.append(f"{at}: planet {planet_id!r} is not in the ring ({', '.join(ring)})")
    return None


def crew_slot(area: Sequence[str], crew_id: str, at: str, problems: list[str]) -> int | None:
    """The crew slot of ``crew_id`` among the crew area's ids; None, with a problem at ``at``,
    when the area does not hold it."""
    if crew_id in area:
        return area.index(crew_id)
    problems.append(f"{at}: crew {crew_id!r} is not in the crew area ({', '.join(area)})")
    return None


def _ring(game: Game, state: State) -> list[str]:
    return [game.ruleset.planets[index].id for index in state.planets]


def _area(game: Game, state: State) -> list[str]:
    return [game.ruleset.crew[index].id for index in state.crew]
