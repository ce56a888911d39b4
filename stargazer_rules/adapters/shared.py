"""What the three adapters share: the library each needs, and one fast game per ruleset."""

from __future__ import annotations

import functools
import importlib
import math
import numbers
import os
from types import ModuleType

import numpy as np

from stargazer_rules.engine.seeds import check_seed
from stargazer_rules.errors import install_line
from stargazer_rules.fast import FastGame
from stargazer_rules.fast.limits import integer
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


#: The range of Gymnasium's ``illegal_reward``: a win is worth 1, so a penalty past a
#: thousand wins says nothing more and only skews a learner's value scale.
REWARD_RANGE = (-1000.0, 1000.0)


def fast_game(ruleset: str | os.PathLike[str] = DEFAULT_RULESET) -> FastGame:
    """The fast game of a bundled ruleset name or a ruleset folder, loaded once per process:
    every environment and OpenSpiel game of one ruleset shares its compiled tables. TypeError
    for anything that is not a name or a path."""
    if not isinstance(ruleset, (str, os.PathLike)):
        raise TypeError(f"ruleset={ruleset!r}; write a bundled ruleset's name (e.g. {DEFAULT_RULESET!r}) or a ruleset folder")
    return _fast_game(os.fspath(ruleset))


@functools.cache
def _fast_game(ruleset: str) -> FastGame:
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


def action_id(action: object, where: str) -> int:
    """``action`` as an action id: an int or a numpy integer; TypeError for a bool, a float or
    a text, which are never rounded or parsed into an id."""
    return integer(action, f"{where}: an action")


def reset_seed(seed: object, where: str) -> int | None:
    """The seed of a ``reset``: None, or a whole number from 0 to 2**64 - 1 (an int or a numpy
    integer; ``SeedError``, a ValueError, says the range; a bool or a float is a TypeError)."""
    return None if seed is None else check_seed(integer(seed, f"{where}: seed"))


def reward(value: object, name: str, where: str) -> float:
    """``value`` as a finite reward within ``REWARD_RANGE``; ValueError saying the range."""
    low, high = REWARD_RANGE
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{where}: {name}={value!r}; write a number from {low:g} to {high:g}")
    return float(value)


def observation_bounds(fast: FastGame) -> tuple[np.ndarray, np.ndarray]:
    """The least and most of each entry of the fast API's observation vector as float32 arrays:
    the Box a Gymnasium or PettingZoo space declares (``FastGame.observation_low``/``_high``)."""
    return np.asarray(fast.observation_low, np.float32), np.asarray(fast.observation_high, np.float32)


def legal_mask(state) -> np.ndarray:
    """int8, 1 for each legal action id of the fast ``state`` (all 0 once it is over); a new
    array each call, so that an environment never hands out a buffer it later changes."""
    return np.frombuffer(state.legal_mask(), dtype=np.int8).copy()
