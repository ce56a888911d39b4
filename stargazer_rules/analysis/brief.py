"""The designer's answer on one screen: the brief that ``compare``, ``tune``, ``explain`` and
``calibrate`` print on the terminal (docs/simulation.md, "The brief").

Every brief has the same four parts, in the designer's words and units (percentage points, VP,
rounds; one decimal): **the answer** in one sentence; **what changed most** (or what matters
most), at most three sentences; **what to try next**, the strongest lead with the command that
looks into it; and **how sure**, the games played and the open question more games would decide.
Each figure is said once. Every detail (intervals, tests, every metric) stays in the HTML page
and the JSON file the command writes beside it; the brief names them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.labels import metric_label, number
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.target_check import centre_of, goal_range
from stargazer_rules.analysis.targets import Targets

__all__ = ["Brief", "bots_in_words", "comparison_brief", "designer_label", "lead_of", "lineup_text", "said_once", "short_spec"]

#: How many changes the brief lists.
MOST = 3
#: Comparison metrics a designer does not read as a change of the game (a p-value; the balance
#: number, whose seats' win shares are listed themselves).
_NOT_CHANGES = frozenset({"seats.chi_square_p", "seats.balance"})
#: The words a designer uses for a measure whose label is a statistician's.
_PLAIN_LABELS = {
    "seat_balance": "the gap between the best and the worst seat",
    "crew_picker_advantage": "how much more a crew's pickers win",
}
#: What a subject does when a measure lies above its goal and below it, for the lead.
_TOO = {
    "seat_win_share": ("wins too often", "wins too rarely"),
    "seat_balance": ("the seats win too alike", "the best seat wins far more often than the worst"),
    "tie_rate": ("too many games end in a shared win", "too few games end in a shared win"),
    "round_limit_share": ("too many games reach the round limit", "too few games reach the round limit"),
    "crew_first_pick": ("is picked first too often", "is picked first too rarely"),
    "crew_pick_share": ("is picked too often", "is picked too rarely"),
    "crew_picker_advantage": ("wins its pickers too many games", "costs its pickers too many games"),
    "planet_first_place_accident": ("gives first place an accident too often", "gives first place an accident too rarely"),
    "accident_row_reached": ("reaches its accident row too often", "reaches its accident row too rarely"),
}


@attrs.frozen
class Brief:
    """The four parts of a brief; ``text`` lays them out in at most about 25 lines."""

    title: str
    answer: str
    most: tuple[str, ...] = attrs.field(converter=tuple)
    next_steps: tuple[tuple[str, str], ...] = attrs.field(converter=tuple)
    sure: str
    warnings: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    most_heading: str = "What changed most"
    nothing_next: str = "every target you set is met: nothing stands out"

    def text(self) -> str:
        lines = [self.title, *(f"! {warning}" for warning in self.warnings), "", f"The answer: {self.answer}"]
        lines += ["", f"{self.most_heading}:"]
        lines += [f"  - {item}" for item in self.most] or ["  - nothing measurable at these games"]
        lines += ["", "What to try next:"]
        for lead, command in self.next_steps:
            lines += [f"  - {lead}", f"      {command}"] if command else [f"  - {lead}"]
        if not self.next_steps:
            lines.append(f"  - {self.nothing_next}")
        lines += ["", f"How sure: {self.sure}"]
        return "\n".join(lines)


def short_spec(spec: str) -> str:
    """A bot spec as a person types it, the parameters at their defaults left out:
    ``mcts:200`` for ``mcts:c=0.7,depth=16,iterations=200,...``."""
    from stargazer_rules.bots.base import parse_spec, spec_defaults

    kind, params = parse_spec(spec)
    defaults, positional = spec_defaults(kind)
    changed = {name: value for name, value in params.items() if value != defaults[name] or name == positional}
    shown = [str(changed.pop(positional))] if positional in changed else []
    shown += [f"{name}={value}" for name, value in sorted(changed.items())]
    return f"{kind}:{','.join(shown)}" if shown else kind


def lineup_text(lineup: Sequence[str]) -> str:
    """A lineup as ``--bots`` takes it: ``mcts:200``, ``mcts:200/greedy/greedy/greedy``."""
    short = [short_spec(spec) for spec in lineup]
    return short[0] if len(set(short)) == 1 else "/".join(short)


def bots_in_words(specs: Sequence[str]) -> str:
    """The bots of a lineup as a person names them: ``strong bots (mcts:200)``, ``greedy bots``,
    ``strong bots (mcts:200) and greedy bots``; the full spec stays in the JSON."""
    from stargazer_rules.bots.base import parse_spec
    from stargazer_rules.errors import BotSpecError

    named: list[str] = []
    for spec in specs:
        try:
            kind, params = parse_spec(spec)
        except BotSpecError:  # a bot registered by another program: named as its spec says
            kind, params = spec, {}
        if kind == "mcts":
            strength = "strong" if params["iterations"] >= 200 else "quick"
            text = f"{strength} bots ({short_spec(spec)})"
        else:
            text = f"{kind} bots"
        if text not in named:
            named.append(text)
    return " and ".join(named)


def designer_label(key: str, label: str) -> str:
    """A target's name in a designer's words, lower case."""
    return _PLAIN_LABELS.get(key.partition(":")[0], label.lower())


def said_once(text: str) -> list[str]:
    """The figures of ``text`` said more than once (a figure: a number with a decimal point, a
    percentage, or a count of a thousand or more), for the tests and the brief's own check."""
    import re

    found = re.findall(r"(?<![\w.])[+-]?\d[\d,]*(?:\.\d+)?%?", text)
    figures = [f.lstrip("+-") for f in found if "." in f or "%" in f or "," in f]
    return sorted({f for f in figures if figures.count(f) > 1})


# -- compare ----------------------------------------------------------------------------------


def _subjects(row: Mapping[str, Any], label_a: str, label_b: str) -> str:
    """The subjects of a target row: the same one named on both sides, or both named."""
    a, b = (row.get("a") or {}).get("worst_label"), (row.get("b") or {}).get("worst_label")
    if not a and not b:
        return ""
    if a == b:
        return f" ({a} in both)"
    return f" (furthest from the goal: {a or 'none'} in {label_a}, {b or 'none'} in {label_b})"


def _named(rows: Sequence[Mapping[str, Any]], label_a: str, label_b: str) -> str:
    return ", ".join(f"{designer_label(row['key'], row['label'])}{_subjects(row, label_a, label_b)}" for row in rows)


def _answer(verdict: Mapping[str, Any], label_a: str, label_b: str) -> str:
    rows = [row for row in verdict["targets"] if row["weight"] > 0 and row["decision"] != "not compared"]
    by = {d: [row for row in rows if row["decision"] == d] for d in ("better", "worse", "inconclusive", "equivalent")}
    total = f"{len(rows)} target{'s' if len(rows) != 1 else ''} compared"
    rest = []
    if by["inconclusive"]:
        rest.append(f"{len(by['inconclusive'])} still open")
    if by["equivalent"]:
        rest.append(f"{len(by['equivalent'])} the same in both")
    tail = f"; of the others, {' and '.join(rest)}" if rest and (by["better"] or by["worse"]) else ""
    better, worse = _named(by["better"], label_a, label_b), _named(by["worse"], label_a, label_b)
    if by["better"] and by["worse"]:
        return f"Mixed: {label_b} is better than {label_a} on {better}, but worse on {worse}, of {total}{tail}."
    if by["better"]:
        return f"Yes: {label_b} is better than {label_a} on {better}, and worse on none of {total}{tail}."
    if by["worse"]:
        return f"No: {label_b} is worse than {label_a} on {worse}, and better on none of {total}{tail}."
    if rows and len(by["equivalent"]) == len(rows):
        return f"The same: {label_b} and {label_a} do alike on all {total}."
    return (f"Not yet: no target is better or worse in {label_b} than in {label_a} at these games "
            f"({' and '.join(rest) or 'none decided'}, of {total}).")


def _unit(metric: Mapping[str, Any]) -> str:
    ident = metric["id"]
    if metric["kind"] == "rate":
        return "points"
    if ident.startswith("scores.") and ident != "scores.lead_changes" or ident.endswith(".motivation_vp"):
        return "VP"
    return {"pace.rounds": "rounds", "pace.decisions": "decisions", "pace.options": "options",
            "scores.lead_changes": "lead changes"}.get(ident, "")


def _figure(value: float, kind: str) -> str:
    return f"{100 * value:.1f}%" if kind == "rate" else f"{value:,.1f}"


def _change_sentence(metric: Mapping[str, Any], label_a: str, label_b: str) -> str | None:
    """``Historian picked first went from 39.2% in draft7 to 85.1% in draft8, up 45.8 points.``;
    None when the change rounds to nothing at one decimal."""
    a, b, kind = metric["a"]["value"], metric["b"]["value"], metric["kind"]
    change = metric["difference"]
    size = f"{abs(100 * change if kind == 'rate' else change):,.1f}"
    if a is None or b is None or float(size.replace(",", "")) == 0:
        return None
    unit = _unit(metric)
    label = _metric_words(metric)
    direction = "up" if change > 0 else "down"
    return (f"{label} went from {_figure(a, kind)} in {label_a} to {_figure(b, kind)} in {label_b}, "
            f"{direction} {size}{' ' + unit if unit else ''}.")


#: A crew card's metrics (``crew.<id>.<figure>``) in words, with ``{}`` its name.
_CREW_FIGURES = {
    "picked": "How often {} is picked",
    "picked_first": "How often {} is picked first",
    "picker_wins": "How often {}'s pickers win",
    "motivation_vp": "{}'s motivation VP per pick",
}


def _metric_words(metric: Mapping[str, Any]) -> str:
    parts = metric["id"].split(".")
    label = metric_label(metric)
    if parts[0] == "crew" and parts[-1] in _CREW_FIGURES:
        return _CREW_FIGURES[parts[-1]].format(label.rpartition(": ")[0])
    return label.replace(": ", " ")


def _largest_changes(comparison: Mapping[str, Any], label_a: str, label_b: str) -> list[str]:
    """The significant changes, largest over its standard error first, that a designer reads
    as a change of the game, each in one sentence; a sentence that would say a figure the
    brief already said is left to the page."""
    z = stats.z_value(comparison["confidence"])
    ranked = []
    for metric in comparison["metrics"]:
        if not metric["significant"] or metric["difference"] is None or metric["id"] in _NOT_CHANGES:
            continue
        se = (metric["high"] - metric["low"]) / (2 * z)
        ranked.append((abs(metric["difference"]) / se if se > 0 else math.inf, metric))
    ranked.sort(key=lambda pair: -pair[0])
    sentences: list[str] = []
    for _, metric in ranked:
        sentence = _change_sentence(metric, label_a, label_b)
        if sentence and not said_once(" ".join([*sentences, sentence])):
            sentences.append(sentence)
        if len(sentences) == MOST:
            break
    return sentences


def lead_of(rows: Sequence[Mapping[str, Any]], targets: Targets, players: int, rules: str,
            lineup: Sequence[str] = (), defaults: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """The strongest lead among target rows of one run (``side`` ``b`` of a comparison's rows):
    the subject furthest outside its goal, what it does too much or too little, and the command
    that looks into it: ``explain --cards`` for a card, ``tune`` for the seats and the pace."""
    by_key = {target.key: target for target in targets.targets}
    missed = [row for row in rows if (row.get("b") or {}).get("shortfall") and row["weight"] > 0 and row["key"] in by_key]
    if not missed:
        return None
    row = max(missed, key=lambda r: (r.get("decision") == "worse", r["b"]["shortfall"] / max(r.get("margin") or 1e-9, 1e-9)))
    target, side = by_key[row["key"]], row["b"]
    measure = MEASURES[target.measure]
    low, high = goal_range(target, centre_of(measure, players))
    high_side = side["value"] is not None and side["value"] > high
    words = _TOO.get(target.measure)
    subject = side.get("worst_label") or ""
    said = words[0 if high_side else 1] if words else f"{designer_label(row['key'], row['label'])} is too {'high' if high_side else 'low'}"
    said = f"{subject} {said}" if subject else said[0].upper() + said[1:]
    lead = f"{said} (goal: {row['goal_text']})."
    card = (side.get("worst") or "").partition("#")[0]
    if measure.per_card and card:
        return lead, f"stargazer explain --rules {rules} --players {players} --cards {card}{_bots(lineup, defaults, 'explain')}"
    return lead, f"stargazer tune {rules} --players {players}{_bots(lineup, defaults, 'tune')}"


def _bots(lineup: Sequence[str], defaults: Mapping[str, str] | None, command: str) -> str:
    """`` --bots LINEUP`` when ``command`` would play another lineup by default."""
    if not lineup:
        return ""
    shown = lineup_text(lineup)
    return "" if defaults is not None and defaults.get(command) == shown else f" --bots {shown}"


def _sure(verdict: Mapping[str, Any]) -> str:
    games = verdict["games"]
    open_rows = [row for row in verdict["targets"]
                 if row["weight"] > 0 and row["decision"] == "inconclusive" and row.get("games_needed")]
    text = f"{number(games)} games of each draft, dealt alike."
    if not open_rows:
        return text + " Every target compared is decided at these games."
    row = min(open_rows, key=lambda r: r["games_needed"])
    others = len(open_rows) - 1
    text += (f" More games would decide {designer_label(row['key'], row['label'])}: about "
             f"{number(row['games_needed'])} games of each")
    return text + (f" ({others} other open target{'s need' if others != 1 else ' needs'} more)." if others else ".")


def comparison_brief(comparison: Mapping[str, Any], *, rules_b: str | None = None, lineup: Sequence[str] = (),
                     defaults: Mapping[str, str] | None = None) -> Brief:
    """The brief of a comparison (comparison.json's content). ``rules_b`` is how the designer
    named ruleset B on the command line (its label otherwise), for the commands of the leads;
    ``lineup`` the run's bots, which a lead's command names unless it is that command's
    ``defaults`` (command -> lineup)."""
    label_a, label_b = comparison["a"]["label"], comparison["b"]["label"]
    run_b = comparison["b"]["run"]
    verdict = comparison["verdict"]
    title = f"{label_b} against {label_a}, {run_b['players']} players, {bots_in_words(run_b['bots'])}"
    targets = Targets.from_json(run_b["targets"])
    lead = lead_of(verdict["targets"], targets, run_b["players"], rules_b or label_b, lineup or run_b["bots"], defaults)
    return Brief(
        title=title,
        answer=_answer(verdict, label_a, label_b),
        most=_largest_changes(comparison, label_a, label_b),
        next_steps=[lead] if lead else [],
        sure=_sure(verdict),
        warnings=comparison.get("warnings") or (),
    )
