"""The statistics of the balance report: intervals, tests and sample sizes, each in one place.

Every interval is two-sided at the ``confidence`` given (0.95 in the report unless the
designer's ``Bounds`` say otherwise).

- ``wilson``: the Wilson score interval for a proportion (Wilson 1927). It stays inside [0, 1]
  and behaves at 0 and n successes, where the textbook ``p +- z*se`` does not. Shared wins
  (0.5 for a two-way tie) make fractional counts; the formula only needs the rate and ``n``.
- ``newcombe``: the difference of two independent proportions from their Wilson intervals
  (Newcombe 1998, method 10).
- ``mean_interval`` and ``paired``/``welch``: Student's t for a mean, the mean of paired
  differences, and two independent means (Welch).
- ``chi_square_uniform``: Pearson's goodness-of-fit test against equal shares, its p-value
  from the chi-square survival function.
- ``games_needed``: the sample size of a one-sample test of a proportion (normal approximation).

The quantiles and tail areas come from ``scipy.special`` (``ndtri``, ``stdtrit``, ``chdtrc``),
the functions ``scipy.stats`` itself calls, so the numbers are the same to the last bit; it is
imported on first use, and ``scipy.stats`` (half a second more to import) never is. The
standard library's ``NormalDist.inv_cdf`` differs from ``ndtri`` in the last bits, which would
change summary.json. numpy is imported on first use too.

>>> [round(x, 4) for x in wilson(81, 263)]      # Newcombe (1998), Table I
[0.2553, 0.3662]
>>> [round(x, 4) for x in newcombe(56, 70, 48, 80)]   # Newcombe (1998b), example (a)
[0.2, 0.0524, 0.3339]
>>> round(chi_square_uniform([30, 20, 25, 25])["p"], 4)
0.5724
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "chi_square_uniform",
    "describe",
    "detectable_advantage",
    "games_needed",
    "mean_interval",
    "newcombe",
    "normal_cdf",
    "normal_quantile",
    "paired",
    "rate",
    "welch",
    "welch_moments",
    "wilson",
    "z_value",
]


def _special() -> Any:
    from scipy import special

    return special


@functools.cache
def normal_quantile(p: float) -> float:
    """The standard normal quantile of ``p``: 1.64 for 0.95."""
    return float(_special().ndtri(p))


def normal_cdf(x: float) -> float:
    """The standard normal distribution function at ``x``."""
    return float(_special().ndtr(x))


@functools.cache
def z_value(confidence: float) -> float:
    """The standard normal quantile of a two-sided interval: 1.96 for 0.95."""
    return normal_quantile(1 - (1 - confidence) / 2)


def wilson(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``n``; (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, n: int, confidence: float = 0.95) -> dict[str, Any]:
    """A rate as the summary stores it: ``count`` of ``n``, the ``rate`` and its Wilson interval.

    With ``n`` 0 the rate and interval are ``None``: nothing was observed.
    """
    if n <= 0:
        return {"count": successes, "n": 0, "rate": None, "low": None, "high": None}
    if not 0 <= successes <= n:
        raise ValueError(f"a rate of {successes} in {n}: the count must lie between 0 and n")
    low, high = wilson(successes, n, confidence)
    return {"count": successes, "n": n, "rate": successes / n, "low": low, "high": high}


def newcombe(
    successes_a: float, n_a: float, successes_b: float, n_b: float, confidence: float = 0.95
) -> tuple[float, float, float]:
    """``p_a - p_b`` and its interval from the two Wilson intervals (Newcombe's method 10)."""
    p_a, p_b = successes_a / n_a, successes_b / n_b
    low_a, high_a = wilson(successes_a, n_a, confidence)
    low_b, high_b = wilson(successes_b, n_b, confidence)
    difference = p_a - p_b
    below = math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    above = math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return difference, difference - below, difference + above


@functools.cache
def _t(confidence: float, df: int) -> float:
    return float(_special().stdtrit(df, 1 - (1 - confidence) / 2))


def _spread(values: np.ndarray) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for one value)."""
    mean = float(values.mean())
    return mean, float(values.std(ddof=1)) if len(values) > 1 else 0.0


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean and its Student's t interval; the interval is the mean itself for one value."""
    import numpy as np

    array = np.asarray(values, dtype=float)
    mean, sd = _spread(array)
    if len(array) < 2:
        return mean, mean, mean
    half = _t(confidence, len(array) - 1) * sd / math.sqrt(len(array))
    return mean, mean - half, mean + half


#: The quantiles a distribution stores, by key.
QUANTILES = {"p10": 0.10, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.90}


def describe(values: Sequence[float], confidence: float = 0.95, counts: bool = False) -> dict[str, Any]:
    """A distribution as the summary stores it: ``n``, mean with its interval, sd, quantiles
    (linear between order statistics), min and max.

    ``counts`` adds ``counts``: ``[value, how many]`` pairs, for a histogram of whole numbers.

    >>> describe([1, 2, 2, 5], counts=True)["counts"]
    [[1, 1], [2, 2], [5, 1]]
    """
    n = len(values)
    result: dict[str, Any] = {"n": n}
    if n == 0:
        result.update(dict.fromkeys(("mean", "mean_low", "mean_high", "sd", "min", *QUANTILES, "max")))
    else:
        import numpy as np

        array = np.asarray(values, dtype=float)
        mean, low, high = mean_interval(array, confidence)
        quantiles = np.quantile(array, list(QUANTILES.values()))
        result.update({"mean": mean, "mean_low": low, "mean_high": high, "sd": _spread(array)[1]})
        result["min"] = min(values)
        result.update({key: float(q) for key, q in zip(QUANTILES, quantiles, strict=True)})
        result["max"] = max(values)
    if counts:
        result["counts"] = [[value, count] for value, count in sorted(Counter(values).items())]
    return result


def paired(
    values_a: Sequence[float], values_b: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """The mean of ``b - a`` over pairs and its t interval (zero width when every pair agrees)."""
    return mean_interval([b - a for a, b in zip(values_a, values_b, strict=True)], confidence)


def welch(
    values_a: Sequence[float], values_b: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """``mean(b) - mean(a)`` for independent samples and its Welch t interval."""
    return welch_moments(_moments(values_a), _moments(values_b), confidence)


def _moments(values: Sequence[float]) -> tuple[float, float, int]:
    import numpy as np

    mean, sd = _spread(np.asarray(values, dtype=float))
    return mean, sd, len(values)


def welch_moments(
    a: tuple[float, float, int], b: tuple[float, float, int], confidence: float = 0.95
) -> tuple[float, float, float]:
    """Welch's interval of ``mean_b - mean_a`` from each sample's (mean, sd, n).

    With a sample of one, or no spread in either, the interval is the difference itself.
    """
    (mean_a, sd_a, n_a), (mean_b, sd_b, n_b) = a, b
    difference = mean_b - mean_a
    if n_a < 2 or n_b < 2:
        return difference, difference, difference
    var_a, var_b = sd_a**2 / n_a, sd_b**2 / n_b
    se = math.sqrt(var_a + var_b)
    if se == 0:
        return difference, difference, difference
    df = (var_a + var_b) ** 2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1))
    half = _t(confidence, max(1, math.floor(df))) * se
    return difference, difference - half, difference + half


def chi_square_uniform(observed: Sequence[float]) -> dict[str, Any]:
    """Pearson's chi-square test of ``observed`` counts against equal shares.

    Returns ``statistic``, ``df`` and ``p`` (``scipy.special.chdtrc``); ``p`` is ``None``
    without any count.
    """
    total = math.fsum(observed)
    k = len(observed)
    if total <= 0 or k < 2:
        return {"statistic": None, "df": k - 1, "p": None}
    expected = total / k
    statistic = math.fsum((o - expected) ** 2 / expected for o in observed)
    return {"statistic": statistic, "df": k - 1, "p": float(_special().chdtrc(k - 1, statistic))}


def games_needed(fair: float, advantage: float, confidence: float = 0.95, power: float = 0.8) -> int:
    """Games for a two-sided test at ``confidence`` to detect, with ``power``, that one seat
    wins ``fair + advantage`` instead of ``fair`` (normal approximation, one proportion):
    ``n = ((z_a*sqrt(p0*q0) + z_b*sqrt(p1*q1)) / advantage)^2``, rounded up.

    >>> games_needed(0.25, 0.02)
    3736
    """
    p1 = fair + advantage
    z_a = z_value(confidence)
    z_b = normal_quantile(power)
    root = z_a * math.sqrt(fair * (1 - fair)) + z_b * math.sqrt(p1 * (1 - p1))
    return math.ceil((root / advantage) ** 2)


def detectable_advantage(fair: float, games: int, confidence: float = 0.95, power: float = 0.8) -> float | None:
    """The smallest seat advantage ``games`` games detect with ``power`` (p1's variance taken as p0's)."""
    if games <= 0:
        return None
    z_a = z_value(confidence)
    z_b = normal_quantile(power)
    return (z_a + z_b) * math.sqrt(fair * (1 - fair) / games)
