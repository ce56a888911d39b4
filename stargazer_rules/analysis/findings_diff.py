"""The findings of two runs compared: resolved, new and persisting, with the change behind each.

A finding of A that B does not have is *resolved*, one of B that A does not have is *new*, one
of both is *persisting*. Each carries the figure in both runs and the change between the drafts
from the comparison's metric (its interval and whether it is significant). A resolved or new
finding whose change is not significant has only *crossed its bound*: the figure moved a little
and its interval now lies on the other side (or no longer wholly outside), which is not evidence
that the draft changed it. *Near misses* are figures of either run that are not findings but
whose value lies within ``Bounds.near_miss`` of their bound (or past it, with an interval that
still reaches inside): the next draft may make them findings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.bounds import Bounds
from stargazer_rules.analysis.summary_view import Finding, Rate, SummaryView, view_of

__all__ = ["findings_diff", "near_misses"]


def _key(finding: Finding, seen: dict[tuple[str, str], int]) -> tuple[str, str, int]:
    pair = (finding.kind, finding.subject)
    seen[pair] = seen.get(pair, 0) + 1
    return (*pair, seen[pair])


def _keyed(findings: Sequence[Finding]) -> dict[tuple[str, str, int], Finding]:
    seen: dict[tuple[str, str], int] = {}
    return {_key(finding, seen): finding for finding in findings}


def metric_id(kind: str, subject: str) -> str | None:
    """The comparison metric that measures a finding's figure, when there is one."""
    if kind == "seat_share":
        return f"seats.{subject.split()[-1]}.win_share"
    return {
        "seat_chi_square": "seats.balance",
        "balance": "seats.balance",
        "ties": "seats.ties",
        "crew_first_pick": f"crew.{subject}.picked_first",
        "crew_rarely_picked": f"crew.{subject}.picked",
        "crew_picker_advantage": f"crew.{subject}.picker_wins",
        "accident_rate": f"planets.planet.{subject}.accident",
        "accident_never_reached": f"planets.planet.{subject}.top_square",
        "round_limit": "pace.trigger.round_limit",
    }.get(kind)


def figure(summary: SummaryView | Mapping[str, Any], kind: str, subject: str) -> dict[str, Any] | None:
    """The figure a finding is about in one run's summary: ``value``, ``low``, ``high``."""
    summary = view_of(summary)
    if kind in ("crew_first_pick", "crew_rarely_picked", "crew_picker_advantage"):
        card = summary.crew_card(subject)
        if card is None:
            return None
        if kind == "crew_picker_advantage":
            adv = card.picker_advantage
            return _fig(adv.difference, adv.low, adv.high)
        return _rate(card.picked_first if kind == "crew_first_pick" else card.picked)
    if kind in ("accident_rate", "accident_never_reached"):
        planet = summary.planet_card(subject)
        return None if planet is None else _rate(planet.accident)
    seats = summary.seats
    if kind == "seat_share":
        place = int(subject.split()[-1]) - 1
        return _rate(seats.seats[place].wins) if place < len(seats.seats) else None
    if kind == "seat_chi_square":
        return _fig(seats.chi_square.p, None, None)
    if kind == "balance":
        return _fig(seats.balance.value, None, None)
    if kind == "ties":
        return _rate(seats.ties)
    if kind == "round_limit":
        trigger = summary.pace.trigger("round_limit")
        return None if trigger is None else _rate(trigger)
    return None


def _fig(value: float | None, low: float | None, high: float | None) -> dict[str, Any] | None:
    return None if value is None else {"value": value, "low": low, "high": high}


def _rate(rate: Rate) -> dict[str, Any] | None:
    return _fig(rate.rate, rate.low, rate.high)


def _change(kind: str, figure_a, figure_b, metric, confidence: float) -> dict[str, Any] | None:
    """The change of the finding's figure: the comparison's metric, or for a picker advantage
    (a difference of two rates in each run) the two runs' intervals combined as independent."""
    if kind == "crew_picker_advantage" and figure_a and figure_b and figure_a["low"] is not None and figure_b["low"] is not None:
        z = stats.z_value(confidence)
        se = math.hypot((figure_a["high"] - figure_a["low"]) / (2 * z), (figure_b["high"] - figure_b["low"]) / (2 * z))
        difference = figure_b["value"] - figure_a["value"]
        low, high = difference - z * se, difference + z * se
        return {"difference": difference, "low": low, "high": high, "significant": low > 0 or high < 0, "metric": None, "kind": "rate"}
    if metric is None or metric["difference"] is None:
        return None
    return {
        "difference": metric["difference"],
        "low": metric["low"],
        "high": metric["high"],
        "significant": metric["significant"],
        "metric": metric["id"],
        "kind": metric["kind"],
    }


def findings_diff(
    summary_a: SummaryView | Mapping[str, Any],
    summary_b: SummaryView | Mapping[str, Any],
    metrics: Sequence[Mapping[str, Any]],
    confidence: float,
) -> list[dict[str, Any]]:
    """Every finding of either run: ``status`` (resolved, new, persisting), the finding's text in
    each run, the figure in each (``a``, ``b``), the ``change`` and ``crossed_bound_only``."""
    summary_a, summary_b = view_of(summary_a), view_of(summary_b)
    by_id = {metric["id"]: metric for metric in metrics}
    found_a, found_b = _keyed(summary_a.findings), _keyed(summary_b.findings)
    rows = []
    for key in dict.fromkeys([*found_a, *found_b]):
        kind, subject, _ = key
        in_a, in_b = found_a.get(key), found_b.get(key)
        status = "persisting" if in_a and in_b else "resolved" if in_a else "new"
        figure_a, figure_b = figure(summary_a, kind, subject), figure(summary_b, kind, subject)
        ident = metric_id(kind, subject)
        change = _change(kind, figure_a, figure_b, by_id.get(ident) if ident else None, confidence)
        significant = bool(change and change["significant"])
        rows.append(
            {
                "status": status,
                "kind": kind,
                "subject": subject,
                "section": (in_b or in_a).section,
                "anchor": (in_b or in_a).anchor,
                "text_a": in_a.text if in_a else None,
                "text_b": in_b.text if in_b else None,
                "a": figure_a,
                "b": figure_b,
                "change": change,
                "crossed_bound_only": status != "persisting" and not significant,
            }
        )
    order = {"resolved": 0, "new": 1, "persisting": 2}
    rows.sort(key=lambda row: order[row["status"]])
    return rows


#: (kind, where the bound is, which side is outside) of the figures that get near misses.
_NEAR = (
    ("crew_first_pick", "max_first_pick_share", "above"),
    ("crew_rarely_picked", "min_pick_share", "below"),
    ("crew_picker_advantage", "max_picker_advantage", "both"),
    ("accident_rate", "max_accident_rate", "above"),
    ("ties", "max_tie_rate", "above"),
    ("balance", "min_balance", "below"),
)


def _subjects(summary: SummaryView, kind: str, bounds: Bounds) -> list[tuple[str, str]]:
    if kind.startswith("crew_"):
        return [(c.crew, summary.name("crew", c.crew)) for c in summary.crew.cards
                if c.in_play.count >= bounds.min_card_games]
    if kind == "accident_rate":
        return [(c.planet, summary.name("planets", c.planet)) for c in summary.planets.cards
                if c.in_play.count >= bounds.min_card_games]
    return [("ties" if kind == "ties" else "seats", "ties" if kind == "ties" else "balance number")]


def near_misses(summary: SummaryView | Mapping[str, Any], bounds: Bounds) -> list[dict[str, Any]]:
    """The figures of one run that are not findings but lie within ``bounds.near_miss`` of their
    bound, or past it with an interval that reaches back inside; nearest first."""
    summary = view_of(summary)
    found = {(f.kind, f.subject) for f in summary.findings}
    rows = []
    for kind, bound_name, side in _NEAR:
        bound = getattr(bounds, bound_name)
        for subject, shown in _subjects(summary, kind, bounds):
            if (kind, subject) in found:
                continue
            fig = figure(summary, kind, subject)
            if fig is None:
                continue
            value = fig["value"]
            if side == "both":
                distance = bound - abs(value)
            elif side == "above":
                distance = bound - value
            else:
                distance = value - bound
            if distance <= bounds.near_miss:
                rows.append({"kind": kind, "subject": subject, "label": shown, "bound_name": bound_name,
                             "bound": bound, "value": value, "low": fig["low"], "high": fig["high"],
                             "distance": distance, "past_bound": distance < 0})
    rows.sort(key=lambda row: row["distance"])
    return rows
