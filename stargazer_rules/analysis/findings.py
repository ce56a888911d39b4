"""Findings: a plain sentence for each figure of the summary outside the designer's bounds.

Each finding names its ``section`` and the ``anchor`` of its figure in report.html, so the
report links the sentence to the table and plot it comes from. The rules are those of
``Bounds``: a rate is out of bounds when its whole interval is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stargazer_rules.analysis.bounds import Bounds
from stargazer_rules.analysis.labels import (
    anchor,
    interval,
    number,
    p_value,
    pct,
    points,
    rate_text,
)
from stargazer_rules.analysis.summary_view import SummaryView, view_of

__all__ = ["findings"]


def _finding(kind: str, section: str, subject: str, link: str, text: str) -> dict[str, Any]:
    return {"kind": kind, "section": section, "subject": subject, "anchor": link, "text": text}


def findings(summary: SummaryView | Mapping[str, Any], bounds: Bounds) -> list[dict[str, Any]]:
    """The findings of a summary (its own ``findings`` are not read), most general first."""
    summary = view_of(summary)
    found: list[dict[str, Any]] = []
    found += _seat_findings(summary, bounds)
    found += _crew_findings(summary, bounds)
    found += _planet_findings(summary, bounds)
    found += _pace_findings(summary, bounds)
    return found


def _seat_findings(summary: SummaryView, bounds: Bounds) -> list[dict[str, Any]]:
    seats = summary.seats
    n = seats.games
    fair = seats.fair_share
    found = []
    for seat in seats.seats:
        if seat.excludes_fair:
            role = " (the start player)" if seat.seat == 0 else ""
            found.append(
                _finding(
                    "seat_share",
                    "seats",
                    seat.label,
                    anchor("seats"),
                    f"{seat.label}{role} wins {rate_text(seat.wins)} of {number(n)} games "
                    f"vs {pct(fair)} fair.",
                )
            )
    p = seats.chi_square.p
    significant = p is not None and p < 1 - bounds.confidence
    if significant:
        found.append(
            _finding(
                "seat_chi_square",
                "seats",
                "seats",
                anchor("seats"),
                f"The seats' win shares differ more than chance allows: chi-square {p_value(p)} "
                f"over {number(n)} games.",
            )
        )
    balance = seats.balance
    if significant and balance.value < bounds.min_balance:
        found.append(
            _finding(
                "balance",
                "seats",
                "seats",
                anchor("seats"),
                f"Balance {balance.value:.2f} is below {bounds.min_balance:.2f}: seat "
                f"{balance.best_seat + 1} wins {points(balance.gap)} points more often than "
                f"seat {balance.worst_seat + 1}.",
            )
        )
    ties = seats.ties
    if ties.n and ties.low > bounds.max_tie_rate:
        found.append(
            _finding(
                "ties",
                "seats",
                "ties",
                anchor("seats", "ties"),
                f"{pct(ties.rate)} {interval(ties)} of games end in a shared win "
                f"(bound {pct(bounds.max_tie_rate, 0)}).",
            )
        )
    return found


def _crew_findings(summary: SummaryView, bounds: Bounds) -> list[dict[str, Any]]:
    found = []
    for card in summary.crew.cards:
        if card.in_play.count < bounds.min_card_games:
            continue
        crew = card.crew
        shown = summary.name("crew", crew)
        link = anchor("crew", crew)
        rounds = number(card.rounds_in_play)
        first = card.picked_first
        if first.n and first.low > bounds.max_first_pick_share:
            found.append(
                _finding(
                    "crew_first_pick",
                    "crew",
                    crew,
                    link,
                    f"{shown} is picked first in {rate_text(first)} of the {rounds} rounds it is in "
                    f"play (bound {pct(bounds.max_first_pick_share, 0)}).",
                )
            )
        picked = card.picked
        if picked.n and picked.high < bounds.min_pick_share:
            found.append(
                _finding(
                    "crew_rarely_picked",
                    "crew",
                    crew,
                    link,
                    f"{shown} is picked in only {rate_text(picked)} of the {rounds} rounds it is in "
                    f"play (bound {pct(bounds.min_pick_share, 0)}).",
                )
            )
        advantage = card.picker_advantage
        if advantage.low is not None and (
            advantage.low > bounds.max_picker_advantage
            or advantage.high < -bounds.max_picker_advantage
        ):
            found.append(
                _finding(
                    "crew_picker_advantage",
                    "crew",
                    crew,
                    link,
                    f"Players who pick {shown} win {rate_text(card.picker_wins)} vs "
                    f"{rate_text(card.other_wins)} for the others in the same games: "
                    f"{points(advantage.difference, sign=True)} points "
                    f"[{points(advantage.low, sign=True)}, {points(advantage.high, sign=True)}] "
                    f"(bound ±{100 * bounds.max_picker_advantage:g}).",  # the bound as set: 2.5 is not "2"
                )
            )
    return found


def _planet_findings(summary: SummaryView, bounds: Bounds) -> list[dict[str, Any]]:
    found = []
    for card in summary.planets.cards:
        games = card.in_play.count
        if games < bounds.min_card_games:
            continue
        planet = card.planet
        shown = summary.name("planets", planet)
        link = anchor("planet", planet)
        for row in card.accident_rows or ():
            if row.reached.count == 0:
                found.append(
                    _finding(
                        "accident_never_reached",
                        "planets",
                        planet,
                        link,
                        f"{shown}'s row-{row.row} accident was never reached in the "
                        f"{number(games)} games it was in play.",
                    )
                )
        accident = card.accident
        if accident.n and accident.low > bounds.max_accident_rate:
            found.append(
                _finding(
                    "accident_rate",
                    "planets",
                    planet,
                    link,
                    f"On {shown}, first place scores an accident in {rate_text(accident)} of the "
                    f"{number(accident.n)} games it had cubes (bound {pct(bounds.max_accident_rate, 0)}).",
                )
            )
    return found


def _pace_findings(summary: SummaryView, bounds: Bounds) -> list[dict[str, Any]]:
    found = []
    for trigger in summary.pace.triggers:
        if trigger.trigger == "round_limit" and trigger.rate > bounds.max_round_limit_share:
            found.append(
                _finding(
                    "round_limit",
                    "pace",
                    "round_limit",
                    anchor("pace", "triggers"),
                    f"{number(trigger.count)} of {number(trigger.n)} games ({pct(trigger.rate)}) "
                    "reached the round limit, a safety net rather than a rule of the game.",
                )
            )
    return found
