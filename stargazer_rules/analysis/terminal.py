"""Short plain-text tables for the terminal: a summary, and a comparison of two runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis.brief import bots_in_words
from stargazer_rules.analysis.labels import (
    interval,
    metric_label,
    number,
    p_number,
    p_value,
    pct,
    points,
)
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.summary_view import RunInfo, SummaryView, to_json, view_of
from stargazer_rules.analysis.target_check import answer_cells
from stargazer_rules.analysis.target_verdict import change_text
from stargazer_rules.rulesets.loader import short_fingerprint

__all__ = ["terminal_comparison", "terminal_summary"]

#: How many findings (or significant changes) the terminal lists before "... and N more".
SHOWN = 8


def _columns(rows: Sequence[Sequence[str]], right: int = 1) -> list[str]:
    """Rows as aligned text: the first ``right`` columns left-aligned, the rest right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) if i < right else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    ]


def _header(run: RunInfo) -> list[str]:
    fingerprint = short_fingerprint(run.ruleset.fingerprint)
    lines = [
        (f"{run.ruleset.name} ({fingerprint}), {run.players} players, {number(run.games)} games; "
        f"{bots_in_words(run.bots)}, {run.engine} engine")
    ]
    lines += [f"! {warning.text}" for warning in run.warnings]
    return lines


def _listed(items: Sequence[str], shown: int = SHOWN) -> list[str]:
    lines = [f"  - {item}" for item in items[:shown]]
    if len(items) > shown:
        lines.append(f"  ... and {len(items) - shown} more (see the report)")
    return lines


def terminal_summary(summary: SummaryView | Mapping[str, Any]) -> str:
    """Seat win shares with intervals, the balance number, ties, and the top findings."""
    summary = view_of(summary)
    run = summary.run
    seats = summary.seats
    level = f"{100 * run.confidence:g}%"
    rows = [["seat (turn order)", "win share", f"{level} interval", "fair", ""]]
    for seat in seats.seats:
        rows.append(
            [
                seat.label + (" (starts)" if seat.seat == 0 else ""),
                pct(seat.wins.rate),
                interval(seat.wins),
                pct(seats.fair_share),
                "*" if seat.excludes_fair else "",
            ]
        )
    balance = seats.balance
    chi = seats.chi_square
    needed = seats.games_needed
    lines = _header(run) + [""] + _targets_lines(summary) + [""] + _columns(rows) + [""]
    lines.append(
        f"seat balance {pct(balance.value)} (largest gap {points(balance.gap)} points, seat "
        f"{balance.best_seat + 1} vs seat {balance.worst_seat + 1}); seats alike by chance: {p_value(chi.p)}; "
        f"ties {pct(seats.ties.rate)} {interval(seats.ties)}"
    )
    lines.append(
        f"games to detect a {100 * needed.advantage:g}-point seat advantage: "  # the bound as set
        f"{number(needed.games)} (this run: {number(needed.have)})"
    )
    lines.append("")
    lines += findings_lines(summary)
    return "\n".join(lines)


def findings_lines(summary: SummaryView) -> list[str]:
    """``targets not met (N):`` with each target not met, then its seats' or cards' sentences:
    N is the ``not_met`` of the targets line above it."""
    grouped = summary.findings_by_target()
    if not grouped:
        return ["targets not met: none"]
    lines = [f"targets not met ({len(grouped)}):"]
    for answer, found in grouped[:SHOWN]:
        if len(found) == 1:
            lines.append(f"  - {found[0].text}")
            continue
        lines.append(f"  - {answer.label}, missed by {len(found)}:")
        lines += [f"  {line}" for line in _listed([f.text for f in found])]
    if len(grouped) > SHOWN:
        lines.append(f"  ... and {len(grouped) - SHOWN} more (see the report)")
    return lines


def _targets_lines(summary: SummaryView) -> list[str]:
    """The targets table: each target, its goal, the value of its worst subject, the status."""
    judged = summary.targets
    level = f"{100 * judged.confidence:g}%"
    rows = [["target", "goal", "value (worst)", f"{level} interval", "status"]]
    for answer in judged.targets:
        cells = answer_cells(to_json(answer))
        rows.append([cells["target"], cells["goal"], cells["value"], cells["interval"], cells["status"]])
    head = (f"targets: {judged.met} of {judged.total} met, {judged.not_met} not met, {judged.unknown} not yet known "
            f"({'defaults' if judged.source == 'defaults' else judged.source})")
    return [head, *_columns(rows, right=5)]


def _value(side: Mapping[str, Any], kind: str) -> str:
    value = side.get("value")
    if value is None:
        return "n/a"
    return pct(value) if kind == "rate" else p_number(value) if kind == "p" else f"{value:.3f}"


def _difference(metric: Mapping[str, Any]) -> str:
    if metric["difference"] is None:
        return ""
    if metric["kind"] == "rate":
        text = f"{points(metric['difference'], sign=True)} pt"
        if metric["low"] is not None:
            text += f" [{points(metric['low'], sign=True)}, {points(metric['high'], sign=True)}]"
        return text
    text = f"{metric['difference']:+.3f}"
    if metric["low"] is not None:
        text += f" [{metric['low']:+.3f}, {metric['high']:+.3f}]"
    return text


def _change_line(metric: Mapping[str, Any]) -> str:
    mark = " (rules changed)" if metric.get("rules_changed") else ""
    return f"{metric_label(metric)}{mark}: {_value(metric['a'], metric['kind'])} -> {_value(metric['b'], metric['kind'])}, {_difference(metric)}"


def verdict_lines(comparison: Mapping[str, Any]) -> list[str]:
    """The verdict, the changes that matter most, the rules diff and the findings diff."""
    decided = comparison["verdict"]
    lines = [f"VERDICT: {decided['text']}", "targets, A -> B (worst subject of each; its shortfall is how far it misses the goal):"]
    lines += [f"  - {_target_line(row)}" for row in decided["targets"]]
    lines.append(f"  ({decided['multiplicity']['text']})")
    by_id = {metric["id"]: metric for metric in comparison["metrics"]}
    top = comparison.get("top_changes") or []
    if top:
        lines.append("changes that matter most (largest change / standard error first):")
        lines += [f"  - {_change_line(by_id[item['id']])}" for item in top]
    rules = comparison.get("rules_diff")
    if rules is not None:
        lines.append(f"rules diff ({len(rules)} change{'s' if len(rules) != 1 else ''}):" if rules else "rules diff: none")
        lines += _listed([change["text"] for change in rules], 2 * SHOWN)
    diff = comparison.get("findings_diff") or []
    if diff:
        lines.append("findings, A -> B:")
        lines += _listed([_finding_line(row) for row in diff], 2 * SHOWN)
    near = comparison.get("near_misses") or {}
    if near.get("b"):
        lines.append(f"near misses of B (within {points(near['distance'], 0)} points of a goal, not findings):")
        lines += _listed([_near_line(row) for row in near["b"]])
    return lines


def _finding_line(row: Mapping[str, Any]) -> str:
    change = row["change"]
    if change is None:
        what = "change not measured"
    else:
        sign = "significant" if change["significant"] else "not significant"
        if change["kind"] == "rate":
            shown = (f"{points(change['difference'], sign=True)} [{points(change['low'], sign=True)}, "
                     f"{points(change['high'], sign=True)}] pt")
        else:
            shown = f"{change['difference']:+.3f} [{change['low']:+.3f}, {change['high']:+.3f}]"
        what = f"change {shown}, {sign}"
    crossed = "; only crossed its bound" if row["crossed_bound_only"] else ""
    text = row["text_b"] or row["text_a"]
    return f"{row['status']}: {text} ({what}{crossed})"


def _target_line(row: Mapping[str, Any]) -> str:
    """``Crew pickers' extra wins: better (Engineer +19.7 points -> ...); shortfall B - A -0.097
    [...]: B misses by 0.097 less (lower is better)``."""
    if row["change"] is None:
        return row["text"]
    needed = f", about {row['games_needed']:,} paired games would decide it" if row.get("games_needed") else ""
    weight = "" if row["weight"] > 0 else " (weight 0)"
    differs = f"; {row['differs']}" if row.get("differs") else ""
    return f"{row['text']}; shortfall {change_text(row)}{needed}{weight}{differs}"


def _near_line(row: Mapping[str, Any]) -> str:
    measure = MEASURES[row["measure"]]
    past = ", past the goal but its interval reaches inside" if row["past_bound"] else ""
    who = f"{row['label']}: " if row["label"] != measure.label else ""
    return f"{who}{measure.label.lower() if who else measure.label} {measure.shown(row['value'])} (goal {row['goal']}){past}"


def terminal_comparison(comparison: Mapping[str, Any]) -> str:
    """The headline metrics of both runs side by side, then every significant change."""
    a, b = comparison["a"], comparison["b"]
    pairing = comparison["pairing"]
    lines = verdict_lines(comparison) if "verdict" in comparison else []
    lines += [f"A = {a['label']}: " + _header(RunInfo(a["run"], "$.a.run"))[0],
              f"B = {b['label']}: " + _header(RunInfo(b["run"], "$.b.run"))[0]]
    lines += [f"! {warning}" for warning in comparison["warnings"]]
    lines.append(
        f"paired by game index: {number(pairing['pairs'])} pairs"
        + (f" ({number(pairing['only_a'])} only in A, {number(pairing['only_b'])} only in B)" if pairing["only_a"] or pairing["only_b"] else "")
    )
    headline = [m for m in comparison["metrics"] if m["headline"]]
    rows = [["metric", "A", "B", f"B - A ({100 * comparison['confidence']:g}% interval)", ""]]
    for metric in headline:
        rows.append(
            [metric_label(metric), _value(metric["a"], metric["kind"]), _value(metric["b"], metric["kind"]),
             _difference(metric), "*" if metric["significant"] else ""]
        )
    lines += [""] + _columns(rows) + [""]
    significant = [m for m in comparison["metrics"] if m["significant"]]
    total = sum(1 for m in comparison["metrics"] if m["difference"] is not None)
    if significant:
        lines.append(
            f"significant changes: {len(significant)} of {total} metrics "
            f"(about {total * (1 - comparison['confidence']):.1f} expected by chance alone):"
        )
        lines += _listed([_change_line(m) for m in significant], 2 * SHOWN)
    else:
        lines.append(f"significant changes: none of {total} metrics")
    return "\n".join(lines)
