"""The verdict of a comparison: is B better, worse, equivalent or not yet known, on seat balance.

The primary measure is the **balance number** (1 minus the largest gap between two seats' win
shares, docs/simulation.md "Reading the report"): the first question of a draft is whether a
seat is favoured, and the balance number answers it in one figure where higher is better. Its
change B - A is measured over the paired games (same deal seed and rotation in both runs) by a
paired bootstrap (``BOOTSTRAP`` resamples of the games, seeded), which keeps the luck of the deal
out of the difference.

The decision, at the comparison's confidence (95%: alpha 0.05) and ``margin`` (the
``equivalence_margin`` bound, 0.02 by default, the 2 points of ``seat_advantage``):

- **equivalent** when two one-sided tests (TOST) both reject at level alpha: the
  ``1 - 2 alpha`` (90%) interval of the change lies inside ``(-margin, +margin)``. This wins over
  better/worse: a change smaller than the margin does not matter, significant or not;
- **better** when the ``1 - alpha`` interval lies above 0, **worse** when it lies below;
- **inconclusive** otherwise, with the games needed to decide: assuming the change and its
  spread stay as measured (the standard error shrinks as 1/sqrt(games)), the fewest games for
  either the interval to exclude 0 or the TOST interval to fit inside the margin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stargazer_rules.analysis import stats

__all__ = ["BOOTSTRAP", "BOOTSTRAP_SEED", "PRIMARY", "balance_of", "decide", "paired_balance_draws", "top_changes", "verdict", "verdict_text"]

#: The metric id of the primary measure in comparison.json.
PRIMARY = "seats.balance"
#: Bootstrap resamples for the balance number, and the generator's seed.
BOOTSTRAP = 1000
BOOTSTRAP_SEED = 20240601
#: How many of the other changes the verdict lists.
TOP_CHANGES = 5


def balance_of(rows: Any) -> Any:
    """Balance numbers of credit matrices: axis -2 are games, axis -1 seats in turn order."""
    shares = rows.mean(axis=-2)
    return 1 - (shares.max(axis=-1) - shares.min(axis=-1))


def paired_balance_draws(rows_a: np.ndarray, rows_b: np.ndarray, seed: int = BOOTSTRAP_SEED) -> np.ndarray:
    """``BOOTSTRAP`` paired bootstrap draws of balance(B) - balance(A) (same games resampled)."""
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(BOOTSTRAP // 100):
        picks = rng.integers(0, len(rows_a), size=(100, len(rows_a)))
        draws.append(balance_of(rows_b[picks]) - balance_of(rows_a[picks]))
    return np.concatenate(draws)


def decide(
    difference: float,
    low: float,
    high: float,
    eq_low: float,
    eq_high: float,
    margin: float,
) -> str:
    """The decision from the change's ``1 - alpha`` interval and its ``1 - 2 alpha`` (TOST) one."""
    if -margin < eq_low and eq_high < margin:
        return "equivalent"
    if low > 0:
        return "better"
    if high < 0:
        return "worse"
    return "inconclusive"


def games_needed(
    games: int, difference: float, se: float, margin: float, confidence: float
) -> int | None:
    """The fewest games to decide if the change and its spread stay as measured (None: never)."""
    if games < 2 or se <= 0:
        return None
    z_two = stats.z_value(confidence)
    z_one = stats.z_value(1 - 2 * (1 - confidence))
    sd = se * math.sqrt(games)
    candidates = []
    if abs(difference) > 0:
        candidates.append((z_two * sd / abs(difference)) ** 2)
    if abs(difference) < margin:
        candidates.append((z_one * sd / (margin - abs(difference))) ** 2)
    if not candidates:
        return None
    return max(games + 1, math.ceil(min(candidates)))


def verdict(
    rows_a: Sequence[Sequence[float]],
    rows_b: Sequence[Sequence[float]],
    *,
    margin: float = 0.02,
    confidence: float = 0.95,
    label_a: str = "A",
    label_b: str = "B",
) -> dict[str, Any]:
    """The verdict on paired credit rows (game i of A and of B share a deal; one column per
    seat in turn order, each a seat's share of the win). See the module docstring."""
    rows_a, rows_b = np.asarray(rows_a, dtype=float), np.asarray(rows_b, dtype=float)
    games = len(rows_a)
    result: dict[str, Any] = {
        "measure": PRIMARY,
        "label": "Balance number",
        "higher_is_better": True,
        "confidence": confidence,
        "margin": margin,
        "games": games,
        "a": None, "b": None, "difference": None, "low": None, "high": None,
        "equivalence": None,
        "decision": "inconclusive",
        "games_needed": None,
    }
    if games != len(rows_b) or games < 2 or rows_a.shape[1:] != rows_b.shape[1:]:
        result["text"] = verdict_text(result, label_a, label_b)
        return result
    alpha = 1 - confidence
    balance_a, balance_b = float(balance_of(rows_a)), float(balance_of(rows_b))
    difference = balance_b - balance_a
    draws = paired_balance_draws(rows_a, rows_b)
    low, high = (float(q) for q in np.quantile(draws, [alpha / 2, 1 - alpha / 2]))
    eq_low, eq_high = (float(q) for q in np.quantile(draws, [alpha, 1 - alpha]))
    low, high = min(low, difference), max(high, difference)
    eq_low, eq_high = min(eq_low, difference), max(eq_high, difference)
    se = float(np.std(draws, ddof=1))
    decision = decide(difference, low, high, eq_low, eq_high, margin)
    result.update(
        a=balance_a,
        b=balance_b,
        difference=difference,
        low=low,
        high=high,
        se=se,
        equivalence={
            "margin": margin,
            "low": eq_low,
            "high": eq_high,
            "level": 1 - 2 * alpha,
            "p": _tost_p(difference, se, margin),
        },
        decision=decision,
        games_needed=games_needed(games, difference, se, margin, confidence) if decision == "inconclusive" else None,
    )
    result["text"] = verdict_text(result, label_a, label_b)
    return result


def _tost_p(difference: float, se: float, margin: float) -> float:
    """The larger p of the two one-sided tests (normal approximation with the bootstrap SE)."""
    from scipy.stats import norm

    if se <= 0:
        return 0.0 if abs(difference) < margin else 1.0
    return float(max(norm.sf((difference + margin) / se), norm.sf((margin - difference) / se)))


def verdict_text(result: Mapping[str, Any], label_a: str, label_b: str) -> str:
    """``draft8 is not measurably better balanced than draft7 (balance 0.868 -> 0.854, ...)``."""
    if result["difference"] is None:
        return f"Inconclusive: fewer than 2 paired games of {label_a} and {label_b}; no verdict."
    figures = (
        f"balance {result['a']:.3f} -> {result['b']:.3f}, change {result['difference']:+.3f} "
        f"[{result['low']:+.3f}, {result['high']:+.3f}] over {result['games']:,} paired games"
    )
    margin = result["margin"]
    decision = result["decision"]
    if decision == "better":
        return f"Better: {label_b} is better balanced than {label_a} ({figures})."
    if decision == "worse":
        return f"Worse: {label_b} is less well balanced than {label_a} ({figures})."
    equivalence = result["equivalence"]
    tost = (
        f"{100 * equivalence['level']:g}% interval [{equivalence['low']:+.3f}, {equivalence['high']:+.3f}]"
    )
    if decision == "equivalent":
        return (
            f"Equivalent: {label_b} is as well balanced as {label_a} within ±{margin:.3f} ({figures}; "
            f"two one-sided tests, {tost} inside the margin)."
        )
    needed = result["games_needed"]
    more = f"; about {needed:,} paired games would decide it" if needed else ""
    return (
        f"Inconclusive: {label_b} is not measurably better or worse balanced than {label_a}, nor shown "
        f"equivalent within ±{margin:.3f} ({figures}; {tost}){more}."
    )


def top_changes(metrics: Sequence[Mapping[str, Any]], confidence: float, count: int = TOP_CHANGES) -> list[dict[str, Any]]:
    """The significant changes other than the primary measure, largest effect first.

    The effect size is the change over its standard error (``|B - A| / se``, the se read off
    the interval's half-width), so rates, means and counts rank on one scale.
    """
    z = stats.z_value(confidence)
    ranked = []
    for metric in metrics:
        if not metric["significant"] or metric["id"] == PRIMARY or metric["difference"] is None:
            continue
        se = (metric["high"] - metric["low"]) / (2 * z)
        effect = abs(metric["difference"]) / se if se > 0 else math.inf
        ranked.append((effect, metric))
    ranked.sort(key=lambda pair: -pair[0])
    return [
        {"id": metric["id"], "label": metric["label"], "effect": effect if math.isfinite(effect) else None}
        for effect, metric in ranked[:count]
    ]
