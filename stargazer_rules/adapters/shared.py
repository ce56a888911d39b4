"""What the three adapters share: the library each needs, and one fast game per ruleset."""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

import numpy as np

from stargazer_rules.errors import install_line
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
        raise ImportError(install_line(extra)) from missing


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
    """The least and most of each entry of the fast API's observation vector as float32 arrays:
    the Box a Gymnasium or PettingZoo space declares (``FastGame.observation_low``/``_high``)."""
    return np.asarray(fast.observation_low, np.float32), np.asarray(fast.observation_high, np.float32)


def legal_mask(state) -> np.ndarray:
    """int8, 1 for each legal action id of the fast ``state`` (all 0 once it is over); a new
    array each call, so that an environment never hands out a buffer it later changes."""
    return np.frombuffer(state.legal_mask(), dtype=np.int8).copy()
