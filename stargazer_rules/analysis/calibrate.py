"""Calibration: which rung of the ladder do the people at the table play like?

The playtest logs are set beside the games of each rung (every seat played by that rung's bot,
made into logs by ``playtests.sources``) on each measure of ``playtests.figures``, with one
two-sample test per measure and a distance that does not grow with the number of games:

- a number per game (final score, winning margin, major-planet bonus, rounds): the
  Mann-Whitney U test, two-sided (ranks, so ties and skew are no trouble); its distance is the
  rank-biserial correlation's size, ``|2U / (n1 n2) - 1|``: 0 when a log's game is as likely
  to be above a rung's game as below it, 1 when every one is above (or below);
- the start player's win (0 or 1 per game): Fisher's exact test on the 2x2 table of wins and
  other games; its distance is the difference of the two shares' size;
- the crew pick shares: a permutation test that moves whole games between the two groups
  (the picks of one game are not independent of each other), ``PERMUTATIONS`` resamples,
  p = (1 + resamples at least as far apart) / (1 + resamples); its distance is the total
  variation distance between the two groups' pick shares (half the sum of the shares'
  differences' sizes).

Every distance lies in [0, 1]. Within a rung, the p-values are adjusted for the number of
measures tested (Holm), and the rung *is consistent with* the logs when no adjusted p-value is
below ``alpha`` (0.05). A rung's combined distance is the root mean square of its measures'
distances. The verdict: the consistent rung of the smallest combined distance is the one the
people resemble (the other consistent rungs named beside it); with none consistent, none does,
and the verdict names the closest rung and the measures on which it differs.

**Too few logs.** When several rungs are consistent, the logs do not tell them apart. The
suggestion is then the *fastest* consistent rung (the first of the rungs, listed weakest and
so fastest first): any of them plays like the people as far as the logs can tell.
``logs_needed`` says how many logs would set the consistent rung furthest from them apart,
from the power of its test on the measure where it lies furthest (``POWER``, at the Holm
level ``alpha / m`` of the first test): ``(z + z_power)^2 / (3 d^2)`` games for a number (the
rank-biserial distance ``d``; Noether's formula with the rung's many games), and
``(z + z_power)^2 p (1 - p) / d^2`` for a share or the crew picks (``d`` the share's distance,
``p`` the logs' share, 1/2 for the picks). It assumes the distance stays as measured.

The tests need SciPy and numpy (the ``sim`` extra), imported here only.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from scipy import stats

from stargazer_rules.playtests.figures import TABLE_MEASURES, TableMeasure, values_of
from stargazer_rules.playtests.log import PlaytestLog

__all__ = ["ALPHA", "CALIBRATION_FORMAT", "PERMUTATIONS", "MeasureTest", "calibrate", "compare_measure", "holm", "verdict"]

#: The ``format`` of calibration.json.
CALIBRATION_FORMAT = "stargazer-calibration/1"
#: The level of each rung's family of tests (after Holm's adjustment).
ALPHA = 0.05
#: The resamples of the crew picks' permutation test.
PERMUTATIONS = 999
#: The power ``logs_needed`` asks of a test.
POWER = 0.8


@attrs.frozen
class MeasureTest:
    """One measure of the logs against one rung: each side's ``n`` and figure (a mean, a share,
    or each crew's share of the picks), the ``test``, its ``p`` value and ``distance``; None
    (no p) when a side has nothing to test."""

    measure: str
    logs_n: int
    rung_n: int
    logs_figure: Any
    rung_figure: Any
    test: str
    p: float | None
    distance: float | None


def compare_measure(measure: TableMeasure, logs: Sequence[PlaytestLog], rung: Sequence[PlaytestLog],
                    rng: np.random.Generator) -> MeasureTest:
    """The two-sample test of ``measure`` between the logs and a rung's games."""
    mine, theirs = values_of(logs, measure), values_of(rung, measure)
    if measure.kind == "number":
        test = "Mann-Whitney U"
        figures = (_mean(mine), _mean(theirs))
        p, distance = _mann_whitney(mine, theirs) if mine and theirs else (None, None)
    elif measure.kind == "share":
        test = "Fisher's exact"
        figures = (_mean(mine), _mean(theirs))
        p, distance = _fisher(mine, theirs) if mine and theirs else (None, None)
    else:
        test = f"permutation ({PERMUTATIONS} resamples of whole games)"
        figures = (_shares(mine), _shares(theirs))
        p, distance = _permutation(mine, theirs, rng) if mine and theirs else (None, None)
    return MeasureTest(measure.name, len(mine), len(theirs), figures[0], figures[1], test, p, distance)


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _mann_whitney(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    if len(set(a) | set(b)) == 1:
        return 1.0, 0.0  # every game alike on both sides: nothing differs
    result = stats.mannwhitneyu(a, b, alternative="two-sided")
    return float(result.pvalue), abs(2 * float(result.statistic) / (len(a) * len(b)) - 1)


def _fisher(a: Sequence[int], b: Sequence[int]) -> tuple[float, float]:
    table = [[sum(a), len(a) - sum(a)], [sum(b), len(b) - sum(b)]]
    return float(stats.fisher_exact(table).pvalue), abs(sum(a) / len(a) - sum(b) / len(b))


def _shares(counts: Sequence[Counter[str]]) -> dict[str, float] | None:
    total: Counter[str] = sum(counts, Counter())
    picks = sum(total.values())
    return {crew: count / picks for crew, count in sorted(total.items())} if picks else None


def _permutation(a: Sequence[Counter[str]], b: Sequence[Counter[str]], rng: np.random.Generator) -> tuple[float, float]:
    crews = sorted(set().union(*a, *b))
    matrix = np.array([[game[crew] for crew in crews] for game in (*a, *b)], dtype=float)
    first = np.zeros(len(matrix), dtype=bool)
    first[: len(a)] = True

    def tv(mask: np.ndarray) -> float:
        one, two = matrix[mask].sum(axis=0), matrix[~mask].sum(axis=0)
        return 0.5 * float(np.abs(one / one.sum() - two / two.sum()).sum())

    observed = tv(first)
    farther = sum(tv(rng.permutation(first)) >= observed - 1e-12 for _ in range(PERMUTATIONS))
    return (1 + farther) / (1 + PERMUTATIONS), observed


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (in their order)."""
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def calibrate(logs: Sequence[PlaytestLog], rungs: Mapping[str, Sequence[PlaytestLog]], *, alpha: float = ALPHA,
              seed: int = 0) -> dict[str, Any]:
    """Every rung's tests and distance, and the verdict, as calibration.json's ``rungs`` and
    ``verdict`` (docs/simulation.md, "stargazer calibrate")."""
    if not logs:
        raise ValueError("no playtest logs to calibrate against")
    rows = []
    for rung, games in rungs.items():
        rng = np.random.default_rng(seed)
        tests = [compare_measure(measure, logs, games, rng) for measure in TABLE_MEASURES.values()]
        tested = [test for test in tests if test.p is not None]
        adjusted = dict(zip((test.measure for test in tested), holm([test.p for test in tested]), strict=True))  # type: ignore[misc]
        distances = [test.distance for test in tested]
        measures = {}
        for test in tests:
            measures[test.measure] = {
                "logs": test.logs_figure, "rung": test.rung_figure, "logs_n": test.logs_n, "rung_n": test.rung_n,
                "test": test.test, "p": test.p, "p_adjusted": adjusted.get(test.measure),
                "distance": test.distance, "differs": adjusted.get(test.measure, 1.0) < alpha,
            }
        differs_on = [name for name, entry in measures.items() if entry["differs"]]
        rows.append({
            "rung": rung, "games": len(games), "measures": measures, "differs_on": differs_on,
            "consistent": not differs_on,
            "distance": math.sqrt(sum(d * d for d in distances) / len(distances)) if distances else None,  # type: ignore[operator]
        })
    return {"logs": len(logs), "alpha": alpha, "permutations": PERMUTATIONS, "rungs": rows,
            "verdict": verdict(rows, len(logs), alpha)}


def verdict(rows: Sequence[Mapping[str, Any]], logs: int = 0, alpha: float = ALPHA) -> dict[str, Any]:
    """The rung the people resemble, or none and where the closest differs; the fastest
    consistent rung and, when several are consistent, the logs that would tell them apart
    (the module docstring). ``rows`` are in the rungs' order, fastest first."""
    ranked = sorted((row for row in rows if row["distance"] is not None), key=lambda row: row["distance"])
    consistent = [row["rung"] for row in ranked if row["consistent"]]
    closest = ranked[0] if ranked else None
    fastest = next((row["rung"] for row in rows if row["rung"] in consistent), None)
    needed = None
    if len(consistent) > 1:
        furthest = next(row for row in reversed(ranked) if row["consistent"])
        needed = _logs_needed(furthest, alpha)
    extra = {"fastest": fastest, "logs_needed": needed if needed is None else max(needed, logs + 1)}
    if consistent:
        also = consistent[1:]
        sentence = f"the people resemble {consistent[0]}" + (f" (also consistent: {', '.join(also)})" if also else "")
        return {"resembles": consistent[0], "closest": consistent[0], "also_consistent": also, "differs_on": [],
                "sentence": sentence, **extra}
    if closest is None:
        return {"resembles": None, "closest": None, "also_consistent": [], "differs_on": [],
                "sentence": "no rung could be compared: no measure had games on both sides", **extra}
    labels = [TABLE_MEASURES[name].label for name in closest["differs_on"]]
    return {"resembles": None, "closest": closest["rung"], "also_consistent": [], "differs_on": list(closest["differs_on"]),
            "sentence": f"none resembles the people: the closest, {closest['rung']}, differs on {', '.join(labels)}", **extra}


def _logs_needed(row: Mapping[str, Any], alpha: float) -> int | None:
    """The logs for the test of ``row``'s furthest measure to find it apart (module docstring)."""
    tested = {name: entry for name, entry in row["measures"].items() if entry["distance"]}
    if not tested:
        return None
    name, entry = max(tested.items(), key=lambda item: item[1]["distance"])
    z = float(stats.norm.ppf(1 - alpha / (2 * len(row["measures"])))) + float(stats.norm.ppf(POWER))
    kind, distance = TABLE_MEASURES[name].kind, entry["distance"]
    if kind == "number":
        return math.ceil(z * z / (3 * distance * distance))
    share = entry["logs"] if kind == "share" and entry["logs"] is not None else 0.5
    share = min(max(share, 0.05), 0.95)
    return math.ceil(z * z * share * (1 - share) / (distance * distance))
