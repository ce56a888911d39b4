"""The findings of two runs compared: resolved, new and persisting, with the change behind each.

A finding of A that B does not have is *resolved*, one of B that A does not have is *new*, one
of both is *persisting*. Each carries the figure in both runs and the change between the drafts
from the comparison's metric (its interval and whether it is significant). A resolved or new
finding whose change is not significant has only *crossed its bound*: the figure moved a little
and its interval now lies on the other side (or no longer wholly outside), which is not evidence
that the draft changed it. *Near misses* are figures of either run that are not findings but
whose value lies within ``Settings.near_miss`` of their goal (or past it, with an interval that
still reaches inside): the next draft may make them findings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.summary_view import Finding, SummaryView, view_of
from stargazer_rules.analysis.targets import Settings

__all__ = ["findings_diff", "near_misses"]


def _key(finding: Finding, seen: dict[tuple[str, str], int]) -> tuple[str, str, int]:
    pair = (finding.kind, finding.subject)
    seen[pair] = seen.get(pair, 0) + 1
    return (*pair, seen[pair])


def _keyed(findings: Sequence[Finding]) -> dict[tuple[str, str, int], Finding]:
    seen: dict[tuple[str, str], int] = {}
    return {_key(finding, seen): finding for finding in findings}


def metric_id(kind: str, subject: str) -> str | None:
    """The comparison metric that measures a finding's figure, when there is one (``kind`` is
    the target's key, ``measure`` or ``measure:card``)."""
    measure = kind.partition(":")[0]
    card = subject.partition("#")[0]
    return {
        "seat_win_share": f"seats.{subject}.win_share",
        "seat_balance": "seats.balance",
        "tie_rate": "seats.ties",
        "crew_first_pick": f"crew.{subject}.picked_first",
        "crew_pick_share": f"crew.{subject}.picked",
        "crew_picker_advantage": f"crew.{subject}.picker_wins",
        "planet_first_place_accident": f"planets.planet.{subject}.accident",
        "accident_row_reached": f"planets.planet.{card}.top_square",
        "round_limit_share": "pace.trigger.round_limit",
        "game_rounds": "pace.rounds",
        "game_decisions": "pace.decisions",
        "branching": "pace.options",
        "lead_changes": "scores.lead_changes",
    }.get(measure)


def figure(summary: SummaryView | Mapping[str, Any], kind: str, subject: str) -> dict[str, Any] | None:
    """The figure a finding is about in one run's summary: ``value``, ``low``, ``high`` of the
    target's subject (None when the run does not have it)."""
    answer = view_of(summary).targets.answer(kind)
    if answer is None:
        return None
    if not answer.subjects:
        return _fig(answer.value, answer.low, answer.high)
    found = next((s for s in answer.subjects if s.subject == subject), None)
    return None if found is None else _fig(found.value, found.low, found.high)


def _fig(value: float | None, low: float | None, high: float | None) -> dict[str, Any] | None:
    return None if value is None else {"value": value, "low": low, "high": high}


def _change(kind: str, figure_a, figure_b, metric, confidence: float) -> dict[str, Any] | None:
    """The change of the finding's figure: the comparison's metric, or for a picker advantage
    (a difference of two rates in each run) the two runs' intervals combined as independent."""
    if kind.startswith("crew_picker_advantage") and figure_a and figure_b and figure_a["low"] is not None and figure_b["low"] is not None:
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


def near_misses(summary: SummaryView | Mapping[str, Any], settings: Settings) -> list[dict[str, Any]]:
    """The subjects of one run's targets that are not findings but whose value lies within
    ``settings.near_miss`` of the goal (in the measure's unit for shares and points; its
    equivalence margin for others), or past it with an interval that reaches back inside;
    nearest first."""
    summary = view_of(summary)
    rows = []
    for answer in summary.targets.targets:
        measure = MEASURES[answer.measure]
        if measure.per == "run":
            continue
        near = settings.near_miss if measure.unit in ("share", "points") else (measure.margin or settings.near_miss)
        for subject in answer.subjects:
            if not subject.judged or subject.status == "not_met" or subject.miss is None:
                continue
            distance = -subject.miss
            if distance <= near:
                rows.append({"kind": answer.key, "subject": subject.subject, "label": subject.label or answer.label,
                             "measure": answer.measure, "goal": answer.goal_text, "value": subject.value,
                             "low": subject.low, "high": subject.high, "distance": distance,
                             "past_bound": distance < 0})
    rows.sort(key=lambda row: row["distance"])
    return rows
