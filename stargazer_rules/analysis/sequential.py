"""Stopping a comparison when its verdict is clear: a group-sequential design with alpha spending.

``stargazer compare --until-decided`` plays both rulesets in batches and looks at the verdict
after each batch. Looking repeatedly at a test made for one look would inflate its error
rates (with ten looks at 5% each, about one A/A comparison in five would be called better or
worse), so each look spends only part of the error rate, by the Lan-DeMets spending function
of O'Brien-Fleming type:

    spent(t) = 2 - 2 * Phi(z_(1 - a/2) / sqrt(t)),      t = games so far / maximum games

which spends almost nothing at the first looks (the boundary is far out) and nearly all of ``a``
at the last. Look ``k`` may use ``spent(t_k) - spent(t_(k-1))``; its boundary is the normal
quantile of that increment, and the decision rule of ``verdict.decide`` is applied with the
boundaries in place of the fixed-sample quantiles: *better*/*worse* (two-sided, ``a`` = 1 -
confidence) when ``|change| > z_k * se``; *equivalent* when both one-sided tests reject against
the margin at their own spent level (``a`` = 2 alpha, two one-sided tests at alpha each). Using
the increments alone (a Bonferroni bound over the looks) is conservative: the chance of any
false better/worse over all looks is at most the stated alpha whatever the correlation between
looks. ``se`` is the paired bootstrap's standard error of the balance change.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy.stats import norm

from stargazer_rules.analysis.games import credit_row, same_deal
from stargazer_rules.analysis.verdict import balance_of, paired_balance_draws, verdict_text

__all__ = ["boundary", "look", "spent"]


def spent(fraction: float, alpha: float) -> float:
    """The error rate spent by information fraction ``fraction`` (0..1), O'Brien-Fleming type."""
    if fraction <= 0:
        return 0.0
    fraction = min(fraction, 1.0)
    return float(2 - 2 * norm.cdf(norm.ppf(1 - alpha / 2) / math.sqrt(fraction)))


@functools.lru_cache(maxsize=1024)
def boundary(fraction: float, previous: float, alpha: float) -> tuple[float, float]:
    """(the alpha look ``fraction`` may use, its two-sided normal boundary); ``previous`` is the
    fraction of the look before (0 for the first)."""
    increment = spent(fraction, alpha) - spent(previous, alpha)
    if increment <= 0:
        return 0.0, math.inf
    return increment, float(norm.ppf(1 - increment / 2))


def decide_look(difference: float, se: float, fraction: float, previous: float, *, confidence: float, margin: float) -> dict[str, Any]:
    """The decision at one look from the change and its standard error."""
    alpha = 1 - confidence
    used, z = boundary(fraction, previous, alpha)
    used_eq, z_eq = boundary(fraction, previous, 2 * alpha)
    if se <= 0:
        decision = "equivalent" if abs(difference) < margin else ("better" if difference > 0 else "worse")
    elif difference - z_eq * se > -margin and difference + z_eq * se < margin:
        decision = "equivalent"
    elif difference - z * se > 0:
        decision = "better"
    elif difference + z * se < 0:
        decision = "worse"
    else:
        decision = "continue" if fraction < 1 else "inconclusive"
    return {
        "fraction": fraction,
        "alpha": used,
        "boundary": z,
        "equivalence_alpha": used_eq,
        "equivalence_boundary": z_eq,
        "difference": difference,
        "se": se,
        "decision": decision,
    }


def look(
    rows_a: Sequence[Sequence[float]],
    rows_b: Sequence[Sequence[float]],
    *,
    max_games: int,
    previous_games: int,
    confidence: float = 0.95,
    margin: float = 0.02,
) -> dict[str, Any]:
    """One look at paired credit rows (as for ``verdict.verdict``): the balance change, its
    bootstrap standard error, the boundaries this look may use, and its decision (``better``,
    ``worse``, ``equivalent``, ``continue``, or ``inconclusive`` at the last look)."""
    rows_a, rows_b = np.asarray(rows_a, dtype=float), np.asarray(rows_b, dtype=float)
    games = len(rows_a)
    difference = float(balance_of(rows_b) - balance_of(rows_a))
    se = float(np.std(paired_balance_draws(rows_a, rows_b), ddof=1)) if games >= 2 else math.inf
    result = decide_look(difference, se, games / max_games, previous_games / max_games,
                         confidence=confidence, margin=margin)
    result["games"] = games
    return result


def look_text(number: int, result: Mapping[str, Any]) -> str:
    """``look 2: 3,600 paired games, change -0.014 (se 0.011), boundary ±3.47 (alpha 0.0007): continue``."""
    return (
        f"look {number}: {result['games']:,} paired games, balance change {result['difference']:+.3f} "
        f"(se {result['se']:.3f}), boundary ±{result['boundary']:.2f} (alpha {result['alpha']:.4f}; "
        f"equivalence ±{result['equivalence_boundary']:.2f}): {result['decision']}"
    )


def paired_rows(games_a: Sequence[Mapping[str, Any]], games_b: Sequence[Mapping[str, Any]]) -> tuple[list[list[float]], list[list[float]]]:
    """The credit rows (seats in turn order) of the games both runs have with the same deal."""
    by_index = {game["index"]: game for game in games_b}
    rows_a, rows_b = [], []
    for game in sorted(games_a, key=lambda g: g["index"]):
        other = by_index.get(game["index"])
        if other is None or not same_deal(game, other):
            continue
        rows_a.append(credit_row(game))
        rows_b.append(credit_row(other))
    return rows_a, rows_b


def apply_looks(comparison: dict[str, Any], looks: Sequence[Mapping[str, Any]], max_games: int) -> None:
    """Put the sequential decision in the comparison's verdict (the fixed-sample one is kept as
    ``fixed_decision``), with every look and the design, and say so in its text."""
    decided = comparison["verdict"]
    final = looks[-1]["decision"]
    final = "inconclusive" if final == "continue" else final
    decided["fixed_decision"] = decided["decision"]
    decided["decision"] = final
    if final != "inconclusive":
        decided["games_needed"] = None
    decided["sequential"] = {
        "design": "group sequential, Lan-DeMets alpha spending of O'Brien-Fleming type (Bonferroni over looks)",
        "max_games": max_games,
        "looks": [dict(item) for item in looks],
    }
    label_a, label_b = comparison["a"]["label"], comparison["b"]["label"]
    stop = "stopped at" if final != "inconclusive" else "no decision by"
    decided["text"] = (
        verdict_text(decided, label_a, label_b)
        + f" Sequential design: {stop} look {len(looks)} ({looks[-1]['games']:,} paired games, at most "
        f"{max_games:,}), O'Brien-Fleming alpha spending."
    )
