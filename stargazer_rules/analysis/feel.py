"""How a game feels: the per-game figures designers and game researchers judge a game by.

They are read from one games.jsonl line (docs/simulation.md, "games.jsonl"), mostly from its
``score_by_round``, and follow the metrics of Ludii's evaluation (LeadChange, Drama,
DecisivenessThreshold, Stability, Drawishness, BranchingFactor) and of TAG's drama
metrics, on score shares and worded for this game (docs/simulation.md, "How the game feels").

A seat's *standing* after a round is its share of the provisional totals (its total over the
sum of all totals; ``1/players`` each while the sum is 0), so that a 6-round and a 9-round game,
or a low- and a high-scoring ruleset, read on one scale from 0 to 1.

*Who leads* (one convention for every figure here): after a round, a seat leads when its
total is above every other seat's; a round tied at the top has no leader. After the last round
the sole winner leads: R18 breaks a tie on totals by cubes in hand, and that result is what
puts the winner ahead; a shared win has no leader and no eventual winner, so the winner's
figures (drama, winner not leading, decided at, comeback) are None for it. ``games.lead_changes``
counts changes between the same leaders on the totals alone: a round tied at the top keeps
the last leader, so a final tie broken by cubes is no lead change.

A *turn* is one player's crew pick and what follows it (R5: every turn starts with one pick,
and each player takes one turn a round), so a game's turns are its ``picks``: rounds x players.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import attrs

from stargazer_rules.analysis.games import lead_changes

__all__ = ["FEEL_FIGURES", "FeelFigure", "feel_figures", "leaders", "sole_winner", "trajectory"]


@attrs.frozen
class FeelFigure:
    """One figure of ``feel_figures``: its ``key``, the ``label`` the report shows, the one-line
    ``definition`` the report and docs give, and its ``kind``: ``rate`` for a figure that is
    1 or 0 in each game (the summary counts it as a rate), ``mean`` for a number (a distribution).
    """

    key: str
    label: str
    definition: str
    kind: Literal["rate", "mean"] = "mean"


#: The figures of ``feel_figures`` in the report's order: the one home of their words.
FEEL_FIGURES: tuple[FeelFigure, ...] = (
    FeelFigure("lead_changes", "Lead changes",
               "How often the leader after a round is another seat than the last leader (a round tied at the top keeps it)."),
    FeelFigure("drama", "Drama",
               "How far behind the eventual winner was: over the rounds it did not lead, the mean of the best standing minus its own."),
    FeelFigure("winner_trailed", "Winner not leading",
               "The share of a game's rounds after which the eventual winner was not leading."),
    FeelFigure("decisiveness", "Decided at",
               "The round from which the eventual winner leads to the end, over the game's rounds (1.0: only the final result)."),
    FeelFigure("stability", "Swing per round",
               "How much standings move: over seats, the mean change of a seat's standing from one round to the next."),
    FeelFigure("comeback", "Comebacks",
               "Games whose winner was not leading after the middle round (round rounds/2, rounded up).", "rate"),
    FeelFigure("tie", "Shared wins", "Games whose win is shared (R18).", "rate"),
    FeelFigure("rounds", "Rounds", "Rounds per game."),
    FeelFigure("decisions", "Decisions", "Decisions (actions) per game."),
    FeelFigure("decisions_per_turn", "Decisions per turn",
               "Decisions over turns; a turn is one player's crew pick and what follows it (R5)."),
    FeelFigure("branching", "Options per decision", "The mean number of legal options of a game's decisions."),
)


def trajectory(game: Mapping[str, Any]) -> list[list[float]]:
    """Each seat's standing after every round: its share of the provisional totals (``1/players``
    each while they sum to 0); rounds in order, seats as the table seats of the line. A ruleset
    whose accidents cost VP can put totals below 0: the totals are then counted from the
    lowest, so standings keep their order, lie in [0, 1] and still sum to 1."""
    rows = []
    for totals in game["score_by_round"]:
        floor = min(0, *totals)
        above = [total - floor for total in totals]
        whole = sum(above)
        rows.append([total / whole for total in above] if whole else [1 / len(above)] * len(above))
    return rows


def sole_winner(game: Mapping[str, Any]) -> int | None:
    """The seat that won alone; None for a shared win."""
    winners = game["winners"]
    return winners[0] if len(winners) == 1 else None


def leaders(game: Mapping[str, Any]) -> list[int | None]:
    """The seat leading after each round (module docstring): the seat whose total is above every
    other's, None for a round tied at the top; after the last round, the sole winner."""
    found: list[int | None] = []
    for totals in game["score_by_round"]:
        best = max(totals)
        top = [seat for seat, total in enumerate(totals) if total == best]
        found.append(top[0] if len(top) == 1 else None)
    if found:
        found[-1] = sole_winner(game)
    return found


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def feel_figures(game: Mapping[str, Any]) -> dict[str, float | None]:
    """The figures of ``FEEL_FIGURES`` for one games.jsonl line, by key; None where the game
    has no such figure (the winner's figures of a shared win, the swing of a one-round game,
    the means of a game without decisions)."""
    shares = trajectory(game)
    led = leaders(game)
    rounds = len(shares)
    winner = sole_winner(game)
    figures: dict[str, float | None] = {"lead_changes": lead_changes(game["score_by_round"])}
    if winner is None:
        figures.update(dict.fromkeys(("drama", "winner_trailed", "decisiveness")))
    else:
        behind = [max(row) - row[winner] for row, leader in zip(shares, led, strict=True) if leader != winner]
        figures["drama"] = _mean(behind) if behind else 0.0
        figures["winner_trailed"] = len(behind) / rounds
        since = rounds  # the rounds before the winner's lead that lasts to the end
        while since > 0 and led[since - 1] == winner:
            since -= 1
        figures["decisiveness"] = (since + 1) / rounds
    steps = list(itertools.pairwise(shares))
    figures["stability"] = None
    if steps:
        swing = [_mean([abs(now[seat] - before[seat]) for before, now in steps]) or 0.0 for seat in range(game["players"])]
        figures["stability"] = _mean(swing)
    figures["comeback"] = None if winner is None else float(led[math.ceil(rounds / 2) - 1] != winner)
    figures["tie"] = float(winner is None)
    figures["rounds"] = game["rounds"]
    figures["decisions"] = game["decisions"]
    turns = len(game["picks"])
    figures["decisions_per_turn"] = game["decisions"] / turns if turns else None
    figures["branching"] = _mean(game["options"])
    return {figure.key: figures[figure.key] for figure in FEEL_FIGURES}
