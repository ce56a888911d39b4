"""What a comparison's decisions share: the games needed to decide a change, the balance
number's paired bootstrap, and the ranking of the changes that matter most.

The verdict itself is target by target (``analysis.target_verdict``). ``games_needed`` answers
"how many paired games would decide it" for any change with a standard error: assuming the change
and its spread stay as measured (the standard error shrinks as 1/sqrt(games)), the fewest games for
either the interval to exclude 0 or the two one-sided tests' interval to fit inside the margin.
The balance number (1 minus the largest gap between two seats' win shares) is a maximum minus a
minimum, not a mean: its change gets its interval from ``BOOTSTRAP`` paired resamples (seeded).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stargazer_rules.analysis import stats

__all__ = ["BOOTSTRAP", "BOOTSTRAP_SEED", "balance_of", "games_needed", "paired_balance_draws", "top_changes"]
#: Bootstrap resamples for the balance number, and the generator's seed.
BOOTSTRAP = 1000
BOOTSTRAP_SEED = 20240601
#: How many of the other changes the verdict lists.
TOP_CHANGES = 5


def balance_of(rows: Any) -> Any:
    """Seat balances of credit matrices: axis -2 are games, axis -1 seats in turn order."""
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


def top_changes(metrics: Sequence[Mapping[str, Any]], confidence: float, count: int = TOP_CHANGES) -> list[dict[str, Any]]:
    """The significant changes of a comparison's metrics, largest effect first.

    The effect size is the change over its standard error (``|B - A| / se``, the se read off
    the interval's half-width), so rates, means and counts rank on one scale.
    """
    z = stats.z_value(confidence)
    ranked = []
    for metric in metrics:
        if not metric["significant"] or metric["difference"] is None:
            continue
        se = (metric["high"] - metric["low"]) / (2 * z)
        effect = abs(metric["difference"]) / se if se > 0 else math.inf
        ranked.append((effect, metric))
    ranked.sort(key=lambda pair: -pair[0])
    return [
        {"id": metric["id"], "label": metric["label"], "effect": effect if math.isfinite(effect) else None}
        for effect, metric in ranked[:count]
    ]
