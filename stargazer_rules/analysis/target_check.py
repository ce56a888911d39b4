"""A run against its design targets: per target, met, not met, or not yet known (with the games
needed), and the sentences of the targets not met (the report's findings).

Each subject of a target (a seat, a crew card, a planet, the game) gets its value over the run's
games and a 95% interval: Wilson's for a rate (as every rate of the report's tables), else the
percentile bootstrap of the games (``analysis.bootstrap``). So that noise does not
decide, a subject **meets** its goal when its whole interval lies inside the goal, **misses** it
when its whole interval lies outside, and is **not yet known** otherwise: then the games needed
are those for the interval, shrinking as 1/sqrt(games), to clear the nearest end of the goal.
An ``exact`` measure (games at the round limit, the skill depth) is decided on its value. A
target is not met when any of its subjects misses, met when all of them meet.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.bootstrap import DRAWS, draws_of, part_matrix
from stargazer_rules.analysis.labels import anchor
from stargazer_rules.analysis.measures import MEASURES, Measure, MeasureContext
from stargazer_rules.analysis.targets import Target, Targets

__all__ = ["METHOD", "check_targets", "goal_range", "measured", "subject_intervals", "subject_label"]

METHOD = f"Wilson interval for a rate, else percentile bootstrap of the games ({DRAWS:,} resamples, seeded)"

#: The report section each kind of subject's findings link to.
_SECTION = {"seat": "seats", "crew": "crew", "planet": "planets", "accident_row": "planets"}
_GAME_SECTION = {"tie_rate": "seats", "seat_balance": "seats", "skill_depth": "feel"}
_PACE = {"round_limit_share", "game_rounds", "game_decisions", "branching"}


def section_of(measure: Measure) -> str:
    if measure.per in _SECTION:
        return _SECTION[measure.per]
    if measure.name in _PACE:
        return "pace"
    return _GAME_SECTION.get(measure.name, "feel")


def centre_of(measure: Measure, players: int) -> float:
    return measure.centre(players) if measure.centre is not None and players else 0.0


def goal_range(target: Target, centre: float) -> tuple[float, float]:
    """The goal as an interval of values (ends may be infinite)."""
    if target.goal == "at_most":
        return -math.inf, float(target.bound)  # type: ignore[arg-type]
    if target.goal == "at_least":
        return float(target.bound), math.inf  # type: ignore[arg-type]
    if target.goal == "within":
        return centre - target.bound, centre + target.bound  # type: ignore[operator]
    low, high = target.bound  # type: ignore[misc]
    return float(low), float(high)


def subject_label(measure: Measure, subject: str, names: Mapping[str, Any]) -> str:
    """A subject in words: ``Seat 1 (the start player)``, ``Engineer``, ``Lava 1 row 3``."""
    if measure.per == "seat":
        return f"Seat {subject}" + (" (the start player)" if subject == "1" else "")
    if measure.per == "crew":
        return _name(names, "crew", subject)
    if measure.per == "planet":
        return _name(names, "planets", subject)
    if measure.per == "accident_row":
        planet, _, row = subject.partition("#")
        return f"{_name(names, 'planets', planet)} row {row}"
    return ""


def _name(names: Mapping[str, Any], kind: str, card: str) -> str:
    return names.get(kind, {}).get(card, {}).get("en", card)


def _anchor(measure: Measure, subject: str) -> str:
    if measure.per == "crew":
        return anchor("crew", subject)
    if measure.per in ("planet", "accident_row"):
        return anchor("planet", subject.partition("#")[0])
    return anchor(section_of(measure))


def interval_text(measure: Measure, low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "[n/a]"
    if measure.unit == "share":
        return f"[{100 * low:.1f}, {100 * high:.1f}]"
    if measure.unit == "points":
        return f"[{100 * low:+.1f}, {100 * high:+.1f}]"
    return f"[{low:,.2f}, {high:,.2f}]"


def _status(low: float, high: float, goal: tuple[float, float]) -> str:
    if goal[0] <= low and high <= goal[1]:
        return "met"
    if high < goal[0] or low > goal[1]:
        return "not_met"
    return "unknown"


def _games_needed(games: int, value: float, se: float, goal: tuple[float, float], confidence: float) -> int | None:
    """Games for the interval (half-width z * se * sqrt(games / n)) to clear the nearest end."""
    distance = min(abs(value - end) for end in goal if math.isfinite(end))
    if distance <= 0 or se <= 0 or games < 1:
        return None
    needed = games * (stats.z_value(confidence) * se / distance) ** 2
    return max(games + 1, math.ceil(needed))


def _finite(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def check_targets(
    games: Sequence[Mapping[str, Any]],
    targets: Targets,
    context: MeasureContext,
    names: Mapping[str, Any],
    matrices: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``targets`` section of a summary: every target's answer over ``games`` (checked,
    sorted games.jsonl lines), and the counts met / not met / not yet known. ``matrices`` are
    the games' ``measured`` figures when the caller has them (the summary shows some of them
    elsewhere: one computation for both)."""
    settings = targets.settings
    alpha = 1 - settings.confidence
    answers = []
    if matrices is None:
        matrices = measured([MEASURES[t.measure] for t in targets.targets], games, context)
    for target in targets.targets:
        measure = MEASURES[target.measure]
        answers.append(_answer(target, measure, games, context, names, settings, alpha, matrices))
    counts = {status: sum(1 for a in answers if a["status"] == status) for status in ("met", "not_met", "unknown")}
    return {
        "source": targets.source,
        "confidence": settings.confidence,
        "method": METHOD,
        "settings": targets.to_json()["settings"],
        "total": len(answers),
        "met": counts["met"],
        "not_met": counts["not_met"],
        "unknown": counts["unknown"],
        "targets": answers,
    }


def _answer(
    target: Target,
    measure: Measure,
    games: Sequence[Mapping[str, Any]],
    context: MeasureContext,
    names: Mapping[str, Any],
    settings: Any,
    alpha: float,
    matrices: dict[str, Any],
) -> dict[str, Any]:
    centre = centre_of(measure, context.players)
    goal = goal_range(target, centre)
    answer: dict[str, Any] = {
        "key": target.key,
        "measure": target.measure,
        "label": measure.label,
        "unit": measure.unit,
        "goal": target.to_json(),
        "goal_text": target.goal_text(centre),
        "weight": target.weight,
        "card": target.card,
        "line": target.line,
        "section": section_of(measure),
        "status": "unknown",
        "value": None, "low": None, "high": None,
        "worst": None, "worst_label": None, "miss": None,
        "games_needed": None,
        "note": None,
        "subjects": [],
    }
    if measure.per == "run":
        value = context.external.get(measure.name)
        if value is None:
            answer["note"] = "not measured: run stargazer ladder on this ruleset to measure it"
            return answer
        miss = float(target.miss(value, centre))
        answer.update(value=value, low=value, high=value, miss=miss, status="met" if miss <= 0 else "not_met")
        return answer
    matrix, values, draws = matrices[measure.name]
    subjects = []
    for index, subject in enumerate(matrix.subjects):
        if target.card is not None and target.card not in (subject, subject.partition("#")[0]):
            continue
        n = int(matrix.games_in[index])
        value = _finite(values[index])
        entry: dict[str, Any] = {"subject": subject, "label": subject_label(measure, subject, names),
                                 "anchor": _anchor(measure, subject), "n": n, "value": value,
                                 "low": None, "high": None, "status": "unknown", "miss": None,
                                 "games_needed": None, "judged": True, "note": None}
        if measure.per_card and n < settings.min_card_games:
            entry["judged"] = False
            entry["note"] = f"in play in {n:,} games, fewer than min_card_games ({settings.min_card_games:,})"
        if value is not None:
            low, high, se = _subject_interval(measure, matrix, value, draws[:, index], index, alpha)
            entry.update(low=low, high=high, miss=float(target.miss(value, centre)))
            if entry["judged"]:
                if measure.exact:
                    entry["status"] = "met" if entry["miss"] <= 0 else "not_met"
                else:
                    entry["status"] = _status(low, high, goal)
                if entry["status"] == "unknown":
                    entry["games_needed"] = _games_needed(len(games), value, se, goal, 1 - alpha)
        subjects.append(entry)
    answer["subjects"] = subjects
    judged = [s for s in subjects if s["judged"] and s["value"] is not None]
    if target.card is not None and not subjects:
        answer["note"] = f"{target.card} was not in play in these games"
    if not judged:
        answer["note"] = answer["note"] or "no subject has enough games to be judged"
        return answer
    worst = max(judged, key=lambda s: s["miss"])
    statuses = {s["status"] for s in judged}
    status = "not_met" if "not_met" in statuses else "met" if statuses == {"met"} else "unknown"
    needed = [s["games_needed"] for s in judged if s["status"] == "unknown" and s["games_needed"]]
    answer.update(
        status=status,
        value=worst["value"], low=worst["low"], high=worst["high"],
        worst=worst["subject"], worst_label=worst["label"], miss=worst["miss"],
        games_needed=max(needed) if status == "unknown" and needed else None,
    )
    return answer


def measured(measures: Sequence[Measure], games: Sequence[Mapping[str, Any]],
             context: MeasureContext) -> dict[str, tuple[Any, Any, Any]]:
    """Per measure counted from games (each once): its part matrix, values and bootstrap draws,
    all from one set of resamples."""
    unique = list({measure.name: measure for measure in measures if measure.per != "run"}.values())
    matrices = [part_matrix(measure, games, context) for measure in unique]
    draws = draws_of(list(zip(matrices, unique, strict=True)), len(games))
    return {measure.name: (matrix, matrix.values(measure), found)
            for measure, matrix, found in zip(unique, matrices, draws, strict=True)}


def _subject_interval(measure: Measure, matrix: Any, value: float, column: np.ndarray, index: int,
                      alpha: float) -> tuple[float, float, float]:
    """The one interval of a subject's value (module docstring) and the standard error the
    games needed are read from: Wilson's for a rate of one part, else the percentile bootstrap
    of ``column`` (the subject's draws); widened to hold the value itself."""
    column = column[np.isfinite(column)]
    if measure.is_rate and matrix.data.shape[2] == 1:
        total = matrix.data[:, index, 0].sum(axis=0)
        low, high = stats.wilson(float(total[0]), float(total[1]), 1 - alpha)
        low, high = min(low, value), max(high, value)
        # the interval that decided; resamples of 0 of n are all 0
        return low, high, (high - low) / (2 * stats.z_value(1 - alpha))
    if len(column):
        low, high = (float(q) for q in np.quantile(column, [alpha / 2, 1 - alpha / 2]))
    else:
        low, high = value, value
    se = float(np.std(column, ddof=1)) if len(column) > 1 else 0.0
    return min(low, value), max(high, value), se


def subject_intervals(found: tuple[Any, Any, Any], measure: Measure, confidence: float) -> dict[str, dict[str, Any]]:
    """Every subject of one ``measured`` entry: ``difference`` (its value), ``low``, ``high``,
    the interval the targets table shows for it too (``_subject_interval``)."""
    matrix, values, draws = found
    result = {}
    for index, subject in enumerate(matrix.subjects):
        value = _finite(values[index])
        if value is None:
            result[subject] = {"difference": None, "low": None, "high": None}
            continue
        low, high, _ = _subject_interval(measure, matrix, value, draws[:, index], index, 1 - confidence)
        result[subject] = {"difference": value, "low": low, "high": high}
    return result


def findings_of(section: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A sentence for each subject of a target not met, most general target first."""
    found = []
    for answer in section["targets"]:
        measure = MEASURES[answer["measure"]]
        if answer["status"] != "not_met":
            continue
        rows = [s for s in answer["subjects"] if s["status"] == "not_met"] or [None]
        for subject in rows:
            if subject is None:  # a run measure (the skill depth)
                text = f"{measure.label} is {measure.shown(answer['value'])}; target {answer['goal_text']}."
                found.append(_finding(answer, measure.name, anchor(answer["section"]), text))
                continue
            who = f"{subject['label']}: " if subject["label"] else ""
            text = (
                f"{who}{measure.label.lower() if who else measure.label} {measure.shown(subject['value'])} "
                f"{interval_text(measure, subject['low'], subject['high'])} over {subject['n']:,} games; "
                f"target {answer['goal_text']}."
            )
            found.append(_finding(answer, subject["subject"], subject["anchor"], text))
    return found


def _finding(answer: Mapping[str, Any], subject: str, link: str, text: str) -> dict[str, Any]:
    return {"kind": answer["key"], "section": answer["section"], "subject": subject, "anchor": link, "text": text}


#: How each status is written for a reader.
STATUS_WORDS = {"met": "met", "not_met": "NOT MET", "unknown": "not yet known"}


def answer_cells(answer: Mapping[str, Any]) -> dict[str, str]:
    """One target's answer as text: ``target``, ``goal``, ``value`` (of its worst subject, named),
    ``interval``, ``status`` (with the games needed), ``weight``: what the terminal and the report
    both show, written once."""
    measure = MEASURES[answer["measure"]]
    who = f"{answer['worst_label']}: " if answer.get("worst_label") else ""
    status = STATUS_WORDS[answer["status"]]
    if answer["status"] == "unknown":
        if answer.get("games_needed"):
            status += f" (about {answer['games_needed']:,} games)"
        elif answer.get("note"):
            status += f" ({answer['note']})"
    card = f" ({answer['card']})" if answer.get("card") else ""
    return {
        "target": f"{answer['label']}{card}",
        "goal": answer["goal_text"],
        "value": f"{who}{measure.shown(answer['value'])}" if answer["value"] is not None else "n/a",
        "interval": interval_text(measure, answer["low"], answer["high"]) if answer["value"] is not None else "",
        "status": status,
        "weight": f"{answer['weight']:g}",
    }
