"""What the three adapters share: the library each needs, and one fast game per ruleset."""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

import numpy as np

from stargazer_rules.fast import FastGame
from stargazer_rules.rulesets.resources import DEFAULT_RULESET

#: The seats of a table when none are asked for (the four of draft 7's largest table).
DEFAULT_PLAYERS = 4


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or, when it is not installed, raise ImportError with the one line that
    installs it (an installed library that fails to import raises its own error)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        raise ImportError(f"pip install 'stargazer-rules[{extra}]'") from missing


@functools.cache
def fast_game(ruleset: str = DEFAULT_RULESET) -> FastGame:
    """The fast game of a bundled ruleset name or a ruleset folder, loaded once per process:
    every environment and OpenSpiel game of one ruleset shares its compiled tables."""
    return FastGame(ruleset)


def check_players(fast: FastGame, players: int, where: str) -> int:
    """``players`` when the ruleset has a table of that size; else ValueError saying which it has."""
    counts = sorted(fast.ruleset.player_counts)
    if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
        allowed = " or ".join(str(count) for count in counts)
        raise ValueError(
            f"{where}: players={players!r}, but ruleset {fast.ruleset.name} is played by {allowed}; write players={counts[-1]}"
        )
    return players


def observation_bounds(fast: FastGame) -> tuple[np.ndarray, np.ndarray]:
    """The least and most of each entry of the fast API's observation vector (float32), from
    the ruleset's bounds (``Game.bounds``): the Box a Gymnasium or PettingZoo space declares.

    A field this table does not know raises ValueError naming it, so a new field of the
    observation cannot reach a space with a bound that is not its own."""
    game = fast.game
    bounds = game.bounds
    if bounds.most_vp is None or bounds.least_survey_bonus is None or bounds.most_survey_bonus is None:
        raise ValueError(f"ruleset {fast.ruleset.name}: a plugin effect leaves VP or the survey count unbounded")
    most = {
        "round": bounds.most_round,
        "turn": bounds.most_players,
        "stock": bounds.most_stock,
        "hands": bounds.most_hand,
        "vp": bounds.most_vp,
        "removed": bounds.most_hand,
        "special": max(game.special_capacities, default=0),
        "crew_free": bounds.most_free_on_crew,
        "crew_cubes": bounds.most_hand,
        "survey_bonus": bounds.most_survey_bonus,
        "survey_placed": bounds.most_survey_placed,
        "survey_direction": 1,
        "pending": bounds.most_pending,
        "pending_remaining": bounds.most_steps,
    }
    least = {"survey_bonus": bounds.least_survey_bonus, "survey_direction": -1}
    flags = {
        "seats", "to_move", "start_player", "stage", "planet_card", "track", "surveyed", "crew_card",
        "worker", "survey_rules", "survey_last", "pending_slot",
    }
    low = np.zeros(fast.observation_size, np.float32)
    high = np.zeros(fast.observation_size, np.float32)
    for name, offset, length in fast.observation_fields:
        if name not in flags and name not in most:
            raise ValueError(f"observation field {name!r} has no bound here: add it to adapters.shared.observation_bounds")
        low[offset : offset + length] = least.get(name, 0)
        high[offset : offset + length] = most.get(name, 1)
    return low, high


def legal_mask(state) -> np.ndarray:
    """int8, 1 for each legal action id of the fast ``state`` (all 0 once it is over); a new
    array each call, so that an environment never hands out a buffer it later changes."""
    return np.frombuffer(state.legal_mask(), dtype=np.int8).copy()
