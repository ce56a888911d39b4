"""Seeded runs as ``games.jsonl`` lines, for the analysis's tests (tests only).

The lines are the runner's own (``simulation.plan`` and ``simulation.play_game``, played in this
process), so the analysis is tested on exactly what ``stargazer simulate`` writes; that a line
agrees with the contract and with a replay of its record is tested in tests/test_simulation.py.

Bots are the real ``make_bot`` bots, plus ``first`` (always the first legal action), a
deterministic stand-in for a second kind of bot so that lineups can mix specs. It is registered
only while a run is played, so the bot list other tests and docs see stays the real one.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterator, Sequence
from typing import Any

from stargazer_rules import Game, load_ruleset
from stargazer_rules.bots import register_bot, unregister_bot
from stargazer_rules.simulation import plan, play_game
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State


class FirstLegal:
    """Always the first legal action: a deterministic bot with the spec ``first``."""

    spec = "first"

    def __init__(self, seed: int) -> None:
        del seed  # no randomness to seed

    def choose(self, game: Game, state: State) -> Action:
        return game.legal_actions(state)[0]


@contextlib.contextmanager
def _first_bot() -> Iterator[None]:
    register_bot("first", FirstLegal)
    try:
        yield
    finally:
        unregister_bot("first")


@functools.cache
def game_of(ruleset: str) -> Game:
    return Game(load_ruleset(ruleset))


@functools.cache
def _run(ruleset: str, lineup: tuple[str, ...], blocks: int, seed: int) -> str:
    game = game_of(ruleset)
    players = len(lineup)
    with _first_bot():
        lines = [play_game(game, entry, lineup) for entry in plan(blocks * players, players, seed)]
    return json.dumps(lines)


def run(
    ruleset: str = "draft7",
    lineup: Sequence[str] = ("random",) * 4,
    blocks: int = 3,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """The lines of a whole run: ``blocks`` blocks of ``len(lineup)`` games (a fresh copy each call)."""
    return json.loads(_run(ruleset, tuple(lineup), blocks, seed))
