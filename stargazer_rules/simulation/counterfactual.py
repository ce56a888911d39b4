"""The counterfactual arms of ``stargazer explain``: the games of a run played again with one
seat forced to take a crew, or with one card left out of the deal.

Each arm plays the very entries of the baseline run (``planning.plan``: the same deal seeds,
rotations and bot seeds), so game ``i`` of an arm pairs with game ``i`` of the run:

- **forced** (``play_forced``): in game ``i`` the table seat ``forced_seat(entry)`` (the
  entry's rotation, so every seat is forced once in each block of a deal) is played by
  ``bots.forced.ForcedCrewBot``: it takes the crew whenever that pick is legal, and its bot
  decides everything else. Played one decision at a time (``one_game.play_game_stepwise``),
  with the run's engine's bots: a kernel bot searches in the kernel, and a game the wrapper
  never changes is the run's game move for move.
- **left out** (``play_left_out``): the ruleset without the card (``rulesets.variants``), dealt
  from the same seeds (a smaller deck: the deals differ, the seeds and seats do not), played as
  a run is (``kernel_games.play_games``).

The analysis of the pairs is ``analysis.counterfactual``'s (docs/simulation.md, "stargazer explain").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from stargazer_rules.bots.forced import ForcedCrewBot
from stargazer_rules.errors import RulesetError, SetupError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.variants import ruleset_without
from stargazer_rules.simulation.kernel_games import play_games
from stargazer_rules.simulation.one_game import game_of, play_game_stepwise
from stargazer_rules.simulation.planning import PlanEntry

__all__ = ["LeftOut", "forced_seat", "play_forced", "play_left_out"]


def forced_seat(entry: PlanEntry) -> int:
    """The table seat forced in the game of ``entry``: its rotation, so each block of a deal
    forces every seat once."""
    return entry.rotation % entry.players


def play_forced(
    ruleset: Ruleset, entries: Sequence[PlanEntry], lineup: Sequence[str], crew: str,
    engine: str = native.DEFAULT_ENGINE,
) -> list[dict[str, Any]]:
    """The games.jsonl lines of ``entries`` with ``forced_seat(entry)`` taking ``crew``
    whenever it is free (``KeyError`` for a crew the ruleset does not have)."""
    ruleset.crew_card(crew)
    game = game_of(ruleset)
    lines = []
    for entry in entries:
        seat = forced_seat(entry)

        def wrap(at: int, bot: Any, seat: int = seat) -> Any:
            return ForcedCrewBot(bot, crew) if at == seat else bot

        lines.append(play_game_stepwise(game, entry, lineup, engine, wrap))
    return lines


@attrs.frozen
class LeftOut:
    """A left-out arm: the ruleset without ``card`` and its games' ``lines``, or, when the card
    cannot be left out, ``why`` (lines empty, ruleset None)."""

    card: str
    ruleset: Ruleset | None
    lines: list[dict[str, Any]]
    why: str | None


def play_left_out(
    ruleset: Ruleset, entries: Sequence[PlanEntry], lineup: Sequence[str], card: str,
    engine: str = native.DEFAULT_ENGINE,
) -> LeftOut:
    """The games of ``entries`` under ``ruleset`` without the crew or Planet card ``card``; a
    ruleset the checks refuse or a deal it cannot make is said in ``why``, not raised."""
    try:
        without = ruleset_without(ruleset, card)
    except RulesetError as error:
        return LeftOut(card, None, [], f"the ruleset without it is not valid: {_first_problem(error)}")
    try:
        lines = play_games(game_of(without), entries, lineup, engine)
    except SetupError as error:
        return LeftOut(card, None, [], f"the deal cannot be made without it: {error}")
    return LeftOut(card, without, lines, None)


def _first_problem(error: RulesetError) -> str:
    problems = getattr(error, "problems", ())
    return str(problems[0]) if problems else str(error)
