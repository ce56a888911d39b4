"""Actions: the decisions a player makes, as small immutable values.

Every decision of the game is one ``Action``. ``kind`` says which decision it answers and the
other fields carry its choice. Numbers are positions in the state (crew slot in the crew area,
Planet position in the ring, seat), so an action is only meaningful together with its state;
``stargazer_rules.formats.actions_json`` turns them into card ids for JSON.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

#: Step 1: choose a crew (``target`` = crew slot).
PICK_CREW = "pick_crew"
#: Step 2, the walk of R7/R8 in one decision: ``target`` = start Planet (-1 with ``count`` 0,
#: placing nothing), ``count`` cubes, ``direction`` +1 clockwise or -1 counter-clockwise.
SURVEY = "survey"
#: Step 2 cube by cube, when a skill lifts the walk's limits: put the next cube on Planet ``target``.
SURVEY_STEP = "survey_step"
#: End a cube-by-cube survey.
SURVEY_STOP = "survey_stop"
#: A skill asks for a Planet (``target`` = Planet position).
TARGET_PLANET = "target_planet"
#: A skill asks for another crew (``target`` = crew slot).
TARGET_CREW = "target_crew"
#: A "choose one" skill: ``target`` = option index.
CHOOSE_OPTION = "choose_option"
#: Captain Armstrong's chooser names the next start player (R12): ``target`` = seat.
NAME_START_PLAYER = "name_start_player"
#: A skill asks for a seat (the rules language's ``choose`` over seats): ``target`` = seat.
TARGET_SEAT = "target_seat"

KINDS = (
    CHOOSE_OPTION,
    NAME_START_PLAYER,
    PICK_CREW,
    SURVEY,
    SURVEY_STEP,
    SURVEY_STOP,
    TARGET_CREW,
    TARGET_PLANET,
    TARGET_SEAT,
)

CLOCKWISE = 1
COUNTER_CLOCKWISE = -1
#: Each direction's name: in the JSON forms (``action.schema.json``) and the catalogue's
#: ``directions`` section, which words it for people.
DIRECTION_NAMES = {CLOCKWISE: "clockwise", COUNTER_CLOCKWISE: "counter_clockwise"}


class Action(NamedTuple):
    """One decision. See the module constants for what ``target``, ``count`` and ``direction`` mean.

    A named tuple rather than an attrs class: bots compare and hash millions of them, and tuple
    comparison runs in C.
    """

    kind: str
    target: int = -1
    count: int = 0
    direction: int = CLOCKWISE


@functools.cache
def action(kind: str, target: int = -1, count: int = 0, direction: int = CLOCKWISE) -> Action:
    """The shared instance of an action: legal-action lists reuse them instead of building new ones."""
    return Action(kind, target, count, direction)
