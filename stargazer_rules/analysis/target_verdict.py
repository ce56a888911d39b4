"""The verdict of a comparison, target by target: is B better, worse, equivalent or not yet known
on each design target, and one headline over them.

**What is compared.** For each target, its *shortfall* in a run: how far its worst subject lies
outside the goal (``Target.miss``, the largest over the target's seats or cards judged), and 0
when every subject is inside. The change is the shortfall of B minus that of A, as every
difference of a comparison is B - A; a shortfall is lower when better, so a negative change is
better: B misses the target by less, or meets it where A did not (``change_text`` says it in
words). A target both drafts meet has shortfall 0 in both and is *equivalent*. The change is measured over the paired games (game ``i``
of A and of B share a deal) by a paired bootstrap (``analysis.bootstrap``: the same resampled
games in both runs), which keeps the luck of the deal out of it; ``se`` is the bootstrap's
standard error of the change.

**Many targets.** Testing ten targets at 5% each would call about one in ten A/A comparisons
better or worse on some target by chance. Each of the ``m`` targets compared is tested at
``alpha / m`` (Bonferroni), so the chance that *any* target is wrongly called better or worse is
at most ``alpha`` (1 - confidence), whatever the correlation between targets; the headline says so.

**The decision per target** (as ``analysis.verdict`` decides the balance number, with the
level ``alpha / m`` and the normal boundaries of the bootstrap standard error):

- **equivalent** when both one-sided tests put the change inside ``±margin`` (the target's
  ``margin``, else the measure's, else the ``equivalence_margin`` setting);
- **better** when the change is below 0 by more than the boundary (B misses by less),
  **worse** when above;
- **inconclusive** otherwise, with the paired games needed to decide if the change and its
  spread stay as measured.

``skill_depth`` (from a ladder run, not from the games) is shown side by side, not tested.

**Targets met** (``met_counts``): the headline's "B meets 7 of 11 targets (A: 8 of 11)" counts
only the targets decided (met or not met) in both runs, so that both counts count the same
targets; a target decided in one run only (the skill depth measured by a ladder of one draft,
a card in play in one draft only, a target not yet known in one run) is named in the headline
as not counted.
A ``--until-decided`` comparison decides each target by ``sequential.decide_look`` at its
looks, with the same level ``alpha / m`` spent over the looks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.bootstrap import draws_of, part_matrix
from stargazer_rules.analysis.game_figures import GameFigures
from stargazer_rules.analysis.measures import MEASURES, Measure, MeasureContext
from stargazer_rules.analysis.target_check import centre_of, subject_label
from stargazer_rules.analysis.targets import Target, Targets
from stargazer_rules.analysis.verdict import games_needed

__all__ = ["DECISIONS", "change_text", "decide_fixed", "headline", "met_counts", "target_changes", "verdict_of"]

#: Every decision a target can get, in the order the headline lists them.
DECISIONS = ("better", "worse", "inconclusive", "equivalent", "not compared")



def _shortfall(target: Target, measure: Measure, values: np.ndarray, judged: np.ndarray, centre: float) -> np.ndarray:
    """The shortfall per row of ``values`` (..., subjects): the largest miss of the judged
    subjects, 0 when all are inside, NaN when none has a value."""
    misses = np.where(judged & np.isfinite(values), target.miss(values, centre), np.nan)
    with np.errstate(invalid="ignore"):
        present = np.isfinite(misses).any(axis=-1)
        largest = np.where(present, np.nanmax(np.where(np.isfinite(misses), misses, -np.inf), axis=-1), np.nan)
    return np.where(np.isnan(largest), np.nan, np.maximum(largest, 0.0))


def _worst(target: Target, values: np.ndarray, judged: np.ndarray, subjects: Sequence[str], centre: float) -> int | None:
    misses = [target.miss(v, centre) if ok and math.isfinite(v) else -math.inf for v, ok in zip(values, judged, strict=True)]
    if not subjects or all(m == -math.inf for m in misses):
        return None
    return int(np.argmax(misses))


def target_changes(
    pairs: Sequence[tuple[GameFigures, GameFigures]],
    targets: Targets,
    context_a: MeasureContext,
    context_b: MeasureContext,
    names_a: Mapping[str, Any],
    names_b: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Per target: each run's shortfall and worst subject over the paired games (their
    ``GameFigures``, made with these targets' measures), the change
    (B - A shortfall: negative is better) and its bootstrap standard error, the margin. No
    decision yet (``verdict_of`` or a sequential look decides)."""
    games_a = [a for a, _ in pairs]
    games_b = [b for _, b in pairs]
    settings = targets.settings
    measured = [MEASURES[t.measure] for t in targets.targets if MEASURES[t.measure].per != "run"]
    cache = _paired(measured, games_a, games_b, context_a, context_b) if len(pairs) >= 2 else {}
    rows = []
    for target in targets.targets:
        measure = MEASURES[target.measure]
        margin = target.margin or measure.margin or settings.equivalence_margin
        row: dict[str, Any] = {"key": target.key, "measure": target.measure, "label": measure.label,
                               "unit": measure.unit, "weight": target.weight, "margin": margin,
                               "goal_text": target.goal_text(centre_of(measure, context_b.players)),
                               "games": len(pairs), "a": None, "b": None,
                               "change": None, "se": None}
        if measure.per == "run":
            row["a"] = _side_of_external(measure, context_a)
            row["b"] = _side_of_external(measure, context_b)
            row["compared"] = False
            rows.append(row)
            continue
        row["compared"] = True
        if len(pairs) < 2:
            rows.append(row)
            continue
        subjects, (matrix_a, values_a, draws_a), (matrix_b, values_b, draws_b) = cache[measure.name]
        if not subjects:  # nothing to measure (accident rows without the ruleset): as skill_depth, shown only
            row["compared"] = False
            rows.append(row)
            continue
        keep = np.array([target.card is None or target.card in (s, s.partition("#")[0]) for s in subjects], bool)
        judged_a = keep & _judged(measure, matrix_a, settings.min_card_games)
        judged_b = keep & _judged(measure, matrix_b, settings.min_card_games)
        centre_a, centre_b = centre_of(measure, context_a.players), centre_of(measure, context_b.players)
        short_a = float(_shortfall(target, measure, values_a, judged_a, centre_a))
        short_b = float(_shortfall(target, measure, values_b, judged_b, centre_b))
        row["a"] = _side(target, measure, subjects, values_a, judged_a, centre_a, short_a, names_a)
        row["b"] = _side(target, measure, subjects, values_b, judged_b, centre_b, short_b, names_b)
        if math.isnan(short_a) or math.isnan(short_b):
            rows.append(row)
            continue
        changes = _shortfall(target, measure, draws_b, judged_b, centre_b) - _shortfall(target, measure, draws_a, judged_a, centre_a)
        changes = changes[np.isfinite(changes)]
        row["change"] = short_b - short_a
        row["se"] = float(np.std(changes, ddof=1)) if len(changes) > 1 else 0.0
        rows.append(row)
    return rows


def _judged(measure: Measure, matrix: Any, min_card_games: int) -> np.ndarray:
    if measure.per_card:
        return np.asarray(matrix.games_in >= min_card_games)
    return np.ones(len(matrix.subjects), bool)


def _paired(measures: Sequence[Measure], games_a: Sequence[GameFigures], games_b: Sequence[GameFigures],
            context_a: MeasureContext, context_b: MeasureContext) -> dict[str, tuple[list[str], tuple[Any, ...], tuple[Any, ...]]]:
    """Per measure (each once): the subjects of both runs, and each run's part matrix, values and
    draws. One set of resamples for every matrix of both runs: the same resampled games in A
    and B (the paired bootstrap)."""
    unique = list({measure.name: measure for measure in measures}.values())
    sides: dict[str, Any] = {}
    matrices = []
    for measure in unique:
        parts = ([game.parts(measure.name) for game in games_a], [game.parts(measure.name) for game in games_b])
        subjects = list(dict.fromkeys(subject for side in parts for game in side for subject in game))
        pair = [part_matrix(measure, games, context, subjects, per_game)
                for games, context, per_game in ((games_a, context_a, parts[0]), (games_b, context_b, parts[1]))]
        sides[measure.name] = (subjects, pair)
        matrices += [(matrix, measure) for matrix in pair]
    draws = iter(draws_of(matrices, len(games_a)))
    result = {}
    for measure in unique:
        subjects, pair = sides[measure.name]
        a, b = ((matrix, matrix.values(measure), next(draws)) for matrix in pair)
        result[measure.name] = (subjects, a, b)
    return result


def _side(target: Target, measure: Measure, subjects: Sequence[str], values: np.ndarray, judged: np.ndarray,
          centre: float, shortfall: float, names: Mapping[str, Any]) -> dict[str, Any]:
    worst = _worst(target, values, judged, subjects, centre)
    value = None if worst is None else float(values[worst])
    return {
        "shortfall": None if math.isnan(shortfall) else shortfall,
        "worst": None if worst is None else subjects[worst],
        "worst_label": None if worst is None else subject_label(measure, subjects[worst], names),
        "value": value,
        "shown": measure.shown(value),
    }


def _side_of_external(measure: Measure, context: MeasureContext) -> dict[str, Any]:
    value = context.external.get(measure.name)
    return {"shortfall": None, "worst": None, "worst_label": None, "value": value, "shown": measure.shown(value)}


def decide_fixed(change: float, se: float, margin: float, alpha: float) -> str:
    """The fixed-sample decision at level ``alpha`` of a shortfall change B - A (lower is
    better; see the module docstring)."""
    return decide_change(change, se, margin, stats.z_value(1 - alpha), stats.z_value(1 - 2 * alpha))


def decide_change(change: float, se: float, margin: float, z: float, z_eq: float) -> str:
    """The one decision rule of a shortfall change B - A (lower is better) against its
    boundaries: ``z`` two-sided for better/worse, ``z_eq`` for each one-sided test of
    equivalence. The fixed-sample test and a sequential look differ only in the boundaries."""
    if se <= 0:
        return "equivalent" if abs(change) < margin else ("better" if change < 0 else "worse")
    if change - z_eq * se > -margin and change + z_eq * se < margin:
        return "equivalent"
    if change + z * se < 0:
        return "better"
    if change - z * se > 0:
        return "worse"
    return "inconclusive"


def change_text(row: Mapping[str, Any]) -> str:
    """A target's shortfall change in numbers and words, as the terminal and the page both show
    it: ``B - A -0.061 [-0.090, -0.032]: B misses by 0.061 less (lower is better)``."""
    if row.get("change") is None:
        return ""
    change = row["change"]
    interval = f" [{row['low']:+.3f}, {row['high']:+.3f}]" if row.get("low") is not None else ""
    if change < 0:
        words = f"B misses by {-change:.3f} less"
    elif change > 0:
        words = f"B misses by {change:.3f} more"
    else:
        words = "the same shortfall"
    return f"B - A {change:+.3f}{interval}: {words} (lower is better)"


def met_counts(answers_a: Sequence[Mapping[str, Any]], answers_b: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The targets each run meets among those decided (met or not met) in both runs, and the
    targets decided in one run only (not counted: see the module docstring). ``answers_a`` and
    ``answers_b`` are the two summaries' target answers."""
    decided = ("met", "not_met")
    status_b = {answer["key"]: answer["status"] for answer in answers_b}
    both, one_side = [], []
    for answer in answers_a:
        a, b = answer["status"], status_b.get(answer["key"], "unknown")
        if a in decided and b in decided:
            both.append((a, b))
        elif a in decided or b in decided:
            one_side.append({"key": answer["key"], "label": answer["label"], "a": a, "b": b})
    return {
        "a": [sum(1 for a, _ in both if a == "met"), len(both)],
        "b": [sum(1 for _, b in both if b == "met"), len(both)],
        "one_side": one_side,
    }


def verdict_of(
    rows: Sequence[dict[str, Any]],
    *,
    confidence: float,
    label_a: str,
    label_b: str,
    met: Mapping[str, Any],
    decide: Callable[[Mapping[str, Any], float], str] | None = None,
) -> dict[str, Any]:
    """The comparison's verdict: each row decided at ``alpha / m`` (``decide(row, alpha_each)``,
    the fixed-sample decision by default), and the headline over them; ``met`` is
    ``met_counts`` of the two runs."""
    compared = [row for row in rows if row["compared"]]
    m = max(1, len(compared))
    alpha_each = (1 - confidence) / m
    decided_rows = []
    for row in rows:
        row = dict(row)
        if not row["compared"]:
            row["decision"] = "not compared"
        elif row["change"] is None:
            row["decision"] = "inconclusive"
        else:
            row["decision"] = decide(row, alpha_each) if decide else decide_fixed(row["change"], row["se"], row["margin"], alpha_each)
        low_high = _interval(row, alpha_each)
        row["low"], row["high"] = low_high
        row["games_needed"] = (
            games_needed(row["games"], row["change"], row["se"], row["margin"], 1 - alpha_each)
            if row["decision"] == "inconclusive" and row["change"] is not None else None
        )
        row["text"] = _row_text(row)
        decided_rows.append(row)
    result = {
        "confidence": confidence,
        "targets": decided_rows,
        "multiplicity": {
            "method": "Bonferroni",
            "targets_compared": len(compared),
            "alpha_each": alpha_each,
            "text": (f"each of the {len(compared)} targets compared is tested at {100 * (1 - confidence):g}%/"
                     f"{len(compared)} = {100 * alpha_each:.2g}% (Bonferroni), so the chance that any target is "
                     f"wrongly called better or worse is at most {100 * (1 - confidence):g}%"),
        },
        "games": rows[0]["games"] if rows else 0,
        "met": dict(met),
    }
    result.update(headline(decided_rows, label_a, label_b, met))
    return result


def met_text(met: Mapping[str, Any], label_a: str, label_b: str, changed: frozenset[str] = frozenset()) -> str:
    """``meets 7 of 11 targets decided in both runs (draft7: 8 of 11; not counted, decided in
    draft7 only: skill depth)``. A target in ``changed`` (the keys the headline calls better or
    worse) is not named as not counted: the headline names it once, by its change."""
    (met_a, counted), (met_b, _) = met["a"], met["b"]
    text = f"meets {met_b} of {counted} targets decided in both runs ({label_a}: {met_a} of {counted}"
    sides = []
    for side, label in (("a", label_a), ("b", label_b)):
        only = [row["label"].lower() for row in met["one_side"]
                if row[side] in ("met", "not_met") and row["key"] not in changed]
        if only:
            sides.append(f"{'decided in' if not sides else 'in'} {label} only: {', '.join(only)}")
    if sides:
        text += "; not counted, " + "; ".join(sides)
    return text + ")"


def _interval(row: Mapping[str, Any], alpha: float) -> tuple[float | None, float | None]:
    if row.get("change") is None or row.get("se") is None:
        return None, None
    z = stats.z_value(1 - alpha)
    return row["change"] - z * row["se"], row["change"] + z * row["se"]


def _row_text(row: Mapping[str, Any]) -> str:
    """``crew picker advantage: better (Engineer +19.7 points -> Engineer +6.1 points)``."""
    a, b = row["a"] or {}, row["b"] or {}

    def worst(side: Mapping[str, Any]) -> str:
        who = f"{side['worst_label']} " if side.get("worst_label") else ""
        return f"{who}{side.get('shown', 'n/a')}"

    return f"{row['label']}: {row['decision']} ({worst(a)} -> {worst(b)}; goal {row['goal_text']})"


def headline(rows: Sequence[Mapping[str, Any]], label_a: str, label_b: str, met: Mapping[str, Any]) -> dict[str, Any]:
    """The one decision and sentence over the weighted targets: better (better on some, worse on
    none), worse, mixed (better on some, worse on others), equivalent (on all), or inconclusive."""
    weighted = [row for row in rows if row["weight"] > 0 and row["decision"] != "not compared"]
    by = {decision: [row for row in weighted if row["decision"] == decision] for decision in DECISIONS}
    if by["better"] and by["worse"]:
        decision = "mixed"
    elif by["better"]:
        decision = "better"
    elif by["worse"]:
        decision = "worse"
    elif weighted and len(by["equivalent"]) == len(weighted):
        decision = "equivalent"
    else:
        decision = "inconclusive"

    changed = frozenset(row["key"] for row in by["better"] + by["worse"])

    def listed(decision_rows: Sequence[Mapping[str, Any]], detail: bool) -> str:
        if not decision_rows:
            return "none"
        if not detail:
            return ", ".join(row["label"].lower() for row in decision_rows)
        parts = []
        for row in decision_rows:
            a, b = row["a"], row["b"]
            who_a = f"{a['worst_label']} " if a.get("worst_label") else ""
            who_b = f"{b['worst_label']} " if b.get("worst_label") and b.get("worst_label") != a.get("worst_label") else ""
            parts.append(f"{row['label'].lower()} ({who_a}{a['shown']} -> {who_b}{b['shown']})")
        return ", ".join(parts)

    text = (
        f"{decision.capitalize()}: {label_b} {met_text(met, label_a, label_b, changed)}: better on {listed(by['better'], True)}, worse on {listed(by['worse'], True)}, "
        f"inconclusive on {listed(by['inconclusive'], False)}"
    )
    if by["equivalent"]:
        text += f"; equivalent on {len(by['equivalent'])}"
    needed = [row["games_needed"] for row in by["inconclusive"] if row.get("games_needed")]
    if needed and decision == "inconclusive":
        text += f"; about {max(needed):,} paired games would decide every target"
    text += f" (over {rows[0]['games']:,} paired games)." if rows else "."
    return {"decision": decision, "text": text,
            "counts": {name: len(by[name]) for name in DECISIONS if name != "not compared"}}
