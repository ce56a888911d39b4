"""The native kernel's fixed limits: every array of its state and compiled rules is sized by
them, and a ruleset past them runs on the Python engine (never a wrong answer)."""

from __future__ import annotations

import attrs


@attrs.frozen
class Limit:
    """One limit: its name (the same in both languages), value and why it is there."""

    name: str
    value: int
    doc: str


LIMITS: tuple[Limit, ...] = (
    Limit("MAX_PLAYERS", 8, "The most seats a kernel game holds."),
    Limit("MAX_PLANETS", 16, "The most Planets in a kernel game's ring."),
    Limit("MAX_CREW", 16, "The most crews in a kernel game's crew area."),
    Limit("MAX_COLOURS", 32, "The most planet colours (R17 counts cubes per colour)."),
    Limit("MAX_BOARD", 4096, "The most squares on all dealt Planets together (normal and special)."),
    Limit("MAX_NODES", 4096, "The most effect nodes of a compiled ruleset."),
    Limit("MAX_QUEUE", 64, "The most crew cards a state's queue holds (R11's replacement)."),
    Limit(
        "MOST_END_TRIGGERS", 7,
        "The most end conditions a ruleset holds (rules.yaml `end`): with the round limit's they fill a state's 8 trigger bits.",
    ),
    Limit(
        "MOST_SCORING_LINES", 8,
        "The most lines of `end_scoring` a ruleset holds: a seat's score sheet keeps each line's VP.",
    ),
)

#: Each limit's value by name, for Python's checks and schemas.
LIMIT = {limit.name: limit.value for limit in LIMITS}
