"""Stopping a comparison when its verdict is clear: a group-sequential design with alpha spending.

``stargazer compare --until-decided`` plays both rulesets in batches and looks at the verdict
after each batch. Looking repeatedly at a test made for one look would inflate its error
rates (with ten looks at 5% each, about one A/A comparison in five would be called better or
worse), so each look spends only part of the error rate, by the Lan-DeMets spending function
of O'Brien-Fleming type:

    spent(t) = 2 - 2 * Phi(z_(1 - a/2) / sqrt(t)),      t = games so far / maximum games

which spends almost nothing at the first looks (the boundary is far out) and nearly all of ``a``
at the last. Look ``k`` may use ``spent(t_k) - spent(t_(k-1))``; its boundary is the normal
quantile of that increment, and the decision rule of ``target_verdict.decide_change`` is applied with the
boundaries in place of the fixed-sample quantiles: *better*/*worse* (two-sided, ``a`` = 1 -
confidence) when ``|change| > z_k * se`` (a shortfall change B - A: negative is better); *equivalent* when both one-sided tests reject against
the margin at their own spent level (``a`` = 2 alpha, two one-sided tests at alpha each). Using
the increments alone (a Bonferroni bound over the looks) is conservative: the chance of any
false better/worse over all looks is at most the stated alpha whatever the correlation between
looks. ``se`` is the paired bootstrap's standard error of the shortfall change.

**Why a look may leave open what the fixed-sample test decides.** The fixed-sample test spends
its whole error budget at one look; a sequential look spends only its increment, so its
boundary lies further out (at the first of four looks 3.92 standard errors against 1.96, for one
target).
The same games can then be decided by ``compare`` and open at a look of ``--until-decided``:
``apply_looks`` says so for each target where the two differ, with both boundaries.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis.game_figures import GameFigures
from stargazer_rules.analysis.measures import MeasureContext
from stargazer_rules.analysis.stats import normal_cdf, normal_quantile
from stargazer_rules.analysis.target_verdict import decide_change, headline, target_changes
from stargazer_rules.analysis.targets import Targets

__all__ = ["boundary", "look", "spent"]


def spent(fraction: float, alpha: float) -> float:
    """The error rate spent by information fraction ``fraction`` (0..1), O'Brien-Fleming type."""
    if fraction <= 0:
        return 0.0
    fraction = min(fraction, 1.0)
    return float(2 - 2 * normal_cdf(normal_quantile(1 - alpha / 2) / math.sqrt(fraction)))


@functools.lru_cache(maxsize=1024)
def boundary(fraction: float, previous: float, alpha: float) -> tuple[float, float]:
    """(the alpha look ``fraction`` may use, its two-sided normal boundary); ``previous`` is the
    fraction of the look before (0 for the first)."""
    increment = spent(fraction, alpha) - spent(previous, alpha)
    if increment <= 0:
        return 0.0, math.inf
    return increment, normal_quantile(1 - increment / 2)


def decide_look(difference: float, se: float, fraction: float, previous: float, *, confidence: float, margin: float) -> dict[str, Any]:
    """The decision at one look from the change and its standard error."""
    alpha = 1 - confidence
    used, z = boundary(fraction, previous, alpha)
    used_eq, z_eq = boundary(fraction, previous, 2 * alpha)
    decision = decide_change(difference, se, margin, z, z_eq)
    if decision == "inconclusive" and fraction < 1:
        decision = "continue"
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
    pairs: Sequence[tuple[GameFigures, GameFigures]],
    targets: Targets,
    contexts: tuple[MeasureContext, MeasureContext],
    *,
    max_games: int,
    previous_games: int,
    decided: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """One look at the paired games: every target's change and standard error
    (``target_verdict.target_changes``) and its decision at this look (``better``, ``worse``,
    ``equivalent``, ``continue``, or ``inconclusive`` at the last look), each at the level
    ``alpha / m`` of the Bonferroni split over the ``m`` targets compared. A target ``decided``
    at an earlier look keeps its decision. ``decision`` is ``stop`` once every target with
    weight is decided, else ``continue``."""
    rows = target_changes(pairs, targets, contexts[0], contexts[1], {}, {})
    compared = [row for row in rows if row["compared"]]
    alpha_each = (1 - targets.confidence) / max(1, len(compared))
    games = len(pairs)
    decided = dict(decided or {})
    per_target = []
    for row in compared:
        before = decided.get(row["key"])
        if before in ("better", "worse", "equivalent"):
            decision = before
            step = None
        elif row["change"] is None:
            decision, step = ("continue" if games < max_games else "inconclusive"), None
        else:
            step = decide_look(row["change"], row["se"], games / max_games, previous_games / max_games,
                               confidence=1 - alpha_each, margin=row["margin"])
            decision = step["decision"]
        decided[row["key"]] = decision
        per_target.append({"key": row["key"], "label": row["label"], "weight": row["weight"],
                           "change": row["change"], "se": row["se"], "decision": decision,
                           "boundary": None if step is None else step["boundary"]})
    weighted = [item for item in per_target if item["weight"] > 0]
    open_targets = [item["label"] for item in weighted if item["decision"] in ("continue", "inconclusive")]
    return {
        "games": games,
        "fraction": games / max_games,
        "alpha_each": alpha_each,
        "targets": per_target,
        "decided": decided,
        "open": open_targets,
        "decision": "stop" if not open_targets else ("continue" if games < max_games else "inconclusive"),
    }


def look_text(number: int, result: Mapping[str, Any]) -> str:
    """``look 2: 3,600 paired games; decided 5 of 6 targets with weight; open: seat balance``."""
    weighted = [item for item in result["targets"] if item["weight"] > 0]
    done = len(weighted) - len(result["open"])
    still = f"; open: {', '.join(label.lower() for label in result['open'])}" if result["open"] else ""
    return (
        f"look {number}: {result['games']:,} paired games; decided {done} of {len(weighted)} targets with weight"
        f"{still}: {result['decision']}"
    )


def paired_games(games_a: Sequence[GameFigures], games_b: Sequence[GameFigures]) -> list[tuple[GameFigures, GameFigures]]:
    """The games both runs have with the same deal, in index order (their ``GameFigures``)."""
    by_index = {game.index: game for game in games_b}
    pairs = []
    for game in sorted(games_a, key=lambda g: g.index):
        other = by_index.get(game.index)
        if other is not None and game.deal == other.deal:
            pairs.append((game, other))
    return pairs


def apply_looks(comparison: dict[str, Any], looks: Sequence[Mapping[str, Any]], max_games: int) -> None:
    """Put the sequential decisions in the comparison's verdict, target by target (the
    fixed-sample ones kept as ``fixed_decision``), with every look and the design, and say so;
    where the two decisions differ, say why (``differs_text``)."""
    decided = comparison["verdict"]
    final = looks[-1]["decided"]
    label_a, label_b = comparison["a"]["label"], comparison["b"]["label"]
    fixed_boundary = normal_quantile(1 - decided["multiplicity"]["alpha_each"] / 2)
    rows, differing = [], []
    for row in decided["targets"]:
        row = dict(row)
        row["fixed_decision"] = row["decision"]
        row["differs"] = None
        if row["decision"] != "not compared":
            chosen = final.get(row["key"], "inconclusive")
            row["decision"] = "inconclusive" if chosen == "continue" else chosen
            if row["decision"] != "inconclusive":
                row["games_needed"] = None
            row["text"] = row["text"].replace(f": {row['fixed_decision']} (", f": {row['decision']} (", 1)
            if row["decision"] != row["fixed_decision"]:
                row["differs"] = differs_text(row, looks, fixed_boundary)
                differing.append(row["differs"])
        rows.append(row)
    decided["targets"] = rows
    decided.update(headline(rows, label_a, label_b, decided["met"]))
    decided["sequential"] = {
        "design": "group sequential per target, Lan-DeMets alpha spending of O'Brien-Fleming type "
        "(Bonferroni over looks and over targets)",
        "max_games": max_games,
        "fixed_boundary": fixed_boundary,
        "looks": [{key: value for key, value in item.items() if key != "decided"} for item in looks],
    }
    stop = "stopped at" if looks[-1]["decision"] == "stop" else "no decision on every target by"
    decided["text"] += (
        f" Sequential design: {stop} look {len(looks)} ({looks[-1]['games']:,} paired games, at most "
        f"{max_games:,}), O'Brien-Fleming alpha spending."
    )
    if differing:
        decided["text"] += (
            " The fixed-sample test of the same games decides otherwise on " + "; ".join(differing) + ": a look "
            "spends only part of the error budget, so its boundary lies further out than the fixed-sample test's."
        )


def differs_text(row: Mapping[str, Any], looks: Sequence[Mapping[str, Any]], fixed_boundary: float) -> str:
    """Why the sequential decision of ``row`` differs from the fixed-sample one, in numbers:
    ``crew picker advantage: better by the fixed-sample test (|change| > 2.77 standard errors),
    inconclusive at look 1 of 4 (|change| > 4.31 standard errors)``."""
    number, boundary = None, None
    for index, item in enumerate(looks, 1):
        for target in item["targets"]:
            if target["key"] == row["key"] and target["boundary"] is not None:
                number, boundary = index, target["boundary"]
    most = math.ceil(1 / looks[0]["fraction"] - 1e-9) if looks[0]["fraction"] > 0 else len(looks)
    at = "" if number is None else (f" at look {number} of at most {most}" +
                                    (f" (|change| > {boundary:.2f} standard errors)" if math.isfinite(boundary) else ""))
    return (f"{row['label'].lower()}: {row['fixed_decision']} by the fixed-sample test (|change| > "
            f"{fixed_boundary:.2f} standard errors), {row['decision']}{at}")

