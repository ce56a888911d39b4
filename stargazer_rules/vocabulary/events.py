"""Events: what happened, as a message key plus parameters, never as English text.

Front ends render an event through the catalogue (``stargazer_rules/text/messages.yaml``) in
Japanese or English; parameters name cards by id and players by seat, so they are plain JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

#: Every event key the engine emits, with the parameters it carries.
EVENT_KEYS: Mapping[str, tuple[str, ...]] = {
    "crew_chosen": ("player", "crew"),
    "motivation_bonus": ("player", "crew", "free_cubes", "player_cubes", "vp"),
    "effect_applied": ("player", "crew", "effect"),
    "effect_skipped": ("player", "crew", "effect", "remaining"),
    "option_chosen": ("player", "crew", "option"),
    "vp_gained": ("player", "crew", "vp"),
    "cube_placed": ("owner", "planet", "square"),
    "cube_to_crew": ("owner", "crew"),
    "free_cube_to_crew": ("crew",),
    "crew_replaced": ("crew", "by"),
    "survey_done": ("player", "cubes"),
    "turn_ended": ("player",),
    "round_ended": ("round",),
    "start_player_named": ("player", "start_player"),
    # set_start_player, no decision: by a skill's crew, or "" (round_end.effects, a Planet's ability)
    "start_player_set": ("crew", "start_player"),
    "round_started": ("round", "start_player"),
    "game_over": ("round", "triggers"),
    # the rules language's actions
    "vp_lost": ("player", "crew", "vp"),
    "vp_taken": ("player", "crew", "other", "vp"),
    "cube_returned": ("owner", "planet", "square", "to"),
    "cube_moved": ("owner", "planet", "square"),
    "free_cubes_collected": ("player", "crew", "free_cubes", "vp"),
    "free_cubes_taken": ("player", "crew", "free_cubes"),
    # planet abilities: the effects that follow carry crew "" (no crew acts)
    "ability_triggered": ("planet", "event"),
    # crew triggers: the held crew, its holder and the event; the effects that follow carry the crew
    "crew_triggered": ("player", "crew", "event"),
    # lasting effects of skills
    "crew_closed": ("player", "crew"),
    "cubes_protected": ("player", "crew", "until"),
    "skill_applied": ("player", "crew", "skill_of"),
}


@attrs.frozen
class Event:
    """One thing that happened. ``params`` holds only JSON values (ids, seats, numbers, lists).

    ``owner`` -1 in ``cube_placed`` is a free cube (the virtual player); ``square`` 0 is the
    special square.
    """

    key: str
    params: Mapping[str, Any] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, **self.params}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        params = dict(data)
        key = params.pop("key")
        return cls(key, params)
