"""Short plain-text tables for the terminal: a summary, and a comparison of two runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis.labels import (
    interval,
    number,
    p_number,
    p_value,
    pct,
    points,
)

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


def _header(run: Mapping[str, Any]) -> list[str]:
    fingerprint = run["ruleset"]["fingerprint"][:12]
    lines = [
        (f"{run['ruleset']['name']} ({fingerprint}), {run['players']} players, {number(run['games'])} games; "
        f"bots: {', '.join(run['bots'])} ({run.get('engine', 'python')} engine)")
    ]
    lines += [f"! {warning['text']}" for warning in run["warnings"]]
    return lines


def _listed(items: Sequence[str], shown: int = SHOWN) -> list[str]:
    lines = [f"  - {item}" for item in items[:shown]]
    if len(items) > shown:
        lines.append(f"  ... and {len(items) - shown} more (see the report)")
    return lines


def terminal_summary(summary: Mapping[str, Any]) -> str:
    """Seat win shares with intervals, the balance number, ties, and the top findings."""
    run = summary["run"]
    seats = summary["seats"]
    level = f"{100 * run['confidence']:g}%"
    rows = [["seat (turn order)", "win share", f"{level} interval", "fair", ""]]
    for seat in seats["seats"]:
        rows.append(
            [
                seat["label"] + (" (starts)" if seat["seat"] == 0 else ""),
                pct(seat["wins"]["rate"]),
                interval(seat["wins"]),
                pct(seats["fair_share"]),
                "*" if seat["excludes_fair"] else "",
            ]
        )
    balance = seats["balance"]
    chi = seats["chi_square"]
    needed = seats["games_needed"]
    lines = _header(run) + [""] + _columns(rows) + [""]
    lines.append(
        f"balance {balance['value']:.3f} (largest gap {points(balance['gap'])} points, seat "
        f"{balance['best_seat'] + 1} vs seat {balance['worst_seat'] + 1}); chi-square {p_value(chi['p'])}; "
        f"ties {pct(seats['ties']['rate'])} {interval(seats['ties'])}"
    )
    lines.append(
        f"games to detect a {points(needed['advantage'], 0)}-point seat advantage: "
        f"{number(needed['games'])} (this run: {number(needed['have'])})"
    )
    found = [finding["text"] for finding in summary["findings"]]
    lines.append("")
    if found:
        lines.append(f"findings ({len(found)}):")
        lines += _listed(found)
    else:
        lines.append("findings: none outside the bounds")
    return "\n".join(lines)


def _value(side: Mapping[str, Any], kind: str) -> str:
    value = side.get("value")
    if value is None:
        return "n/a"
    return pct(value) if kind == "rate" else p_number(value) if kind == "p" else f"{value:.2f}"


def _difference(metric: Mapping[str, Any]) -> str:
    if metric["difference"] is None:
        return ""
    if metric["kind"] == "rate":
        text = f"{points(metric['difference'], sign=True)} pt"
        if metric["low"] is not None:
            text += f" [{points(metric['low'], sign=True)}, {points(metric['high'], sign=True)}]"
        return text
    text = f"{metric['difference']:+.2f}"
    if metric["low"] is not None:
        text += f" [{metric['low']:+.2f}, {metric['high']:+.2f}]"
    return text


def terminal_comparison(comparison: Mapping[str, Any]) -> str:
    """The headline metrics of both runs side by side, then every significant change."""
    a, b = comparison["a"], comparison["b"]
    pairing = comparison["pairing"]
    lines = [f"A = {a['label']}: " + _header(a["run"])[0], f"B = {b['label']}: " + _header(b["run"])[0]]
    lines += [f"! {warning}" for warning in comparison["warnings"]]
    lines.append(
        f"paired by game index: {number(pairing['pairs'])} pairs"
        + (f" ({number(pairing['only_a'])} only in A, {number(pairing['only_b'])} only in B)" if pairing["only_a"] or pairing["only_b"] else "")
    )
    headline = [m for m in comparison["metrics"] if m["headline"]]
    rows = [["metric", "A", "B", f"B - A ({100 * comparison['confidence']:g}% interval)", ""]]
    for metric in headline:
        rows.append(
            [metric["label"], _value(metric["a"], metric["kind"]), _value(metric["b"], metric["kind"]),
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
        lines += _listed(
            [f"{m['label']}: {_value(m['a'], m['kind'])} -> {_value(m['b'], m['kind'])}, {_difference(m)}" for m in significant],
            2 * SHOWN,
        )
    else:
        lines.append(f"significant changes: none of {total} metrics")
    return "\n".join(lines)
