"""The report's plots, drawn from the summary as inline SVG text (``analysis.svg_chart``).

Each function takes a summary (or a comparison, ladder.json, tune.json) and returns one
``<svg>`` element: no file, no state between figures, the same summary draws the same text.
Labels use English names (``summary.name``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis.labels import end_condition
from stargazer_rules.analysis.summary_view import Rate, RunInfo, SummaryView, view_of
from stargazer_rules.analysis.svg_chart import THEME, Chart, Panel, text_width

__all__ = [
    "comparison_seats",
    "crew_picks",
    "crew_wins",
    "feel",
    "ladder_steps",
    "margins",
    "pace",
    "planet_accidents",
    "planet_rows",
    "score_by_round",
    "scores_by_bot",
    "seats",
    "tune_front",
    "tune_progress",
    "vp_sources",
]

_BLUE, _ORANGE, _GREY, _GREEN = THEME.blue, THEME.orange, THEME.grey, THEME.green


#: A share and its interval: (rate, low, high), each None when nothing was observed.
Band = tuple[float | None, float | None, float | None]


def _band(figure: Rate) -> Band:
    return figure.rate, figure.low, figure.high


def _errors(bands: Sequence[Band]) -> tuple[list[float], list[list[float]]]:
    """Rates and their asymmetric error bars, in percent (0 for an empty rate)."""
    rates = [100 * (rate or 0) for rate, _, _ in bands]
    below = [100 * ((rate or 0) - (low or 0)) for rate, low, _ in bands]
    above = [100 * ((high or 0) - (rate or 0)) for rate, _, high in bands]
    return rates, [below, above]


def seats(summary: SummaryView | Mapping[str, Any]) -> str:
    """Win share per seat in turn order, with intervals, against the fair share."""
    summary = view_of(summary)
    part = summary.seats
    panel = Panel(6, 3, title=f"Win share by seat ({part.games} games, {_level(summary)} intervals)",
                  ylabel="win share (%)")
    labels = [seat.label for seat in part.seats]
    panel.categories("x", labels)
    rates, (below, above) = _errors([_band(seat.wins) for seat in part.seats])
    panel.bars(range(len(labels)), rates, below=below, above=above, colour=_BLUE)
    panel.reference(100 * part.fair_share, axis="y", colour=_ORANGE, label="fair share")
    return Chart(panel).svg()


def _level(summary: SummaryView) -> str:
    return f"{100 * summary.run.confidence:g}%"


def _two_bar_panels(names: Sequence[str], sides: Sequence[tuple[Sequence[Band], str, str]], height: float) -> str:
    """Two panels of horizontal bars with whiskers, one row a card (named on the left panel)."""
    panels = []
    for index, (bands, title, colour) in enumerate(sides):
        panel = Panel(4.5 if index else 4.5 + _names_width(names), height, xlabel=title)
        panel.categories("y", names if index == 0 else [""] * len(names))
        if index:
            panel.hide_ticks("y")
        rates, (below, above) = _errors(bands)
        panel.bars(range(len(names)), rates, below=below, above=above, colour=colour, horizontal=True, width=0.7)
        panels.append(panel)
    return Chart(*panels).svg()


def _names_width(names: Sequence[str]) -> float:
    """The inches the longest name takes beside a panel."""
    return max((text_width(name, THEME.tick_size) for name in names), default=0.0) / THEME.inch


def crew_picks(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per crew: share of its rounds in play it is picked, and picked first, with intervals."""
    summary = view_of(summary)
    cards = summary.crew.cards
    names = [summary.name("crew", card.crew) for card in cards]
    return _two_bar_panels(names, (
        ([_band(card.picked) for card in cards], "picked (% of rounds in play)", _BLUE),
        ([_band(card.picked_first) for card in cards], "picked first (% of rounds in play)", _ORANGE),
    ), 0.3 * len(cards) + 0.9)


def crew_wins(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per crew: the win share of the players who picked it against the other players."""
    summary = view_of(summary)
    cards = summary.crew.cards
    names = [summary.name("crew", card.crew) for card in cards]
    panel = Panel(6 + _names_width(names), 0.35 * len(cards) + 0.9, xlabel="win share (%)")
    panel.categories("y", names)
    positions = range(len(cards))
    for offset, bands, label, colour in (
        (-0.15, [_band(card.picker_wins) for card in cards], "picked it", _BLUE),
        (0.15, [_band(card.other_wins) for card in cards], "did not", _GREY),
    ):
        rates, errors = _errors(bands)
        panel.points(rates, [p + offset for p in positions], xerr=errors, colour=colour, label=label)
    panel.reference(100 * summary.seats.fair_share, axis="x", colour=_ORANGE, label="fair share")
    return Chart(panel).svg()


def planet_accidents(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per planet: how often first place scores an accident, and how often it fills."""
    summary = view_of(summary)
    cards = summary.planets.cards
    names = [summary.name("planets", card.planet) for card in cards]
    return _two_bar_panels(names, (
        ([_band(card.accident) for card in cards], "first place scores an accident (%)", _ORANGE),
        ([_band(card.full) for card in cards], "planet filled (%)", _GREEN),
    ), 0.3 * len(cards) + 0.9)


def planet_rows(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per planet: the share of its games ending at each top square; accident rows marked x."""
    summary = view_of(summary)
    cards = summary.planets.cards
    names = [summary.name("planets", card.planet) for card in cards]
    longest = max((card.top_square.max or 0 for card in cards), default=0)
    for card in cards:
        if card.track:
            longest = max(longest, len(card.track))
    grid = []
    for card in cards:
        counts = {value: count for value, count in card.top_square.counts}
        games = card.top_square.n or 1
        length = len(card.track) if card.track else longest
        grid.append([counts.get(row, 0) / games if row <= length else math.nan for row in range(longest + 1)])
    highest = max((value for row in grid for value in row if not math.isnan(value)), default=0)
    panel = Panel(6 + _names_width(names), 0.3 * len(cards) + 1.1,
                  xlabel="final top square (0: no cube; blank: beyond the track); x: an accident row")
    panel.categories("y", names)
    panel.limits("x", -0.5, longest + 0.5)
    panel.set_ticks("x", list(range(longest + 1)))
    marks = [(y, x, "x") for y, card in enumerate(cards) for x, value in enumerate(card.track or (), start=1) if value == 0]
    panel.cells(grid, high=max(highest, 0.01), labels=marks)
    return Chart(panel, colour_scale=(max(highest, 0.01), "share of games in play")).svg()


def scores_by_bot(summary: SummaryView | Mapping[str, Any]) -> str:
    """Final score quantiles per bot spec (box: quartiles, whiskers: 10th-90th percentile)."""
    summary = view_of(summary)
    bots = summary.scores.by_bot
    names = [f"{bot.bot} (n={bot.total.n})" for bot in bots]
    panel = Panel(6 + _names_width(names), 0.45 * len(bots) + 0.9, xlabel="final score (VP)")
    panel.categories("y", names)
    panel.boxes([(bot.total.p10, bot.total.p25, bot.total.median, bot.total.p75, bot.total.p90, bot.total.mean)
                 for bot in bots], colour=_BLUE)
    return Chart(panel).svg()


def vp_sources(summary: SummaryView | Mapping[str, Any]) -> str:
    """Where the VP come from: majority, major-planet bonus, VP scored during play."""
    summary = view_of(summary)
    parts = summary.scores.components
    labels = ["majority", "major-planet bonus", "in play"]
    shares = [100 * (source.share or 0) for source in (parts.majority, parts.bonus, parts.play)]
    panel = Panel(6, 1.1, xlabel="share of all VP scored (%)")
    panel.limits("x", 0, 100)
    panel.limits("y", -0.5, 0.5)
    panel.hide_ticks("y")
    left = 0.0
    for label, share, colour in zip(labels, shares, (_BLUE, _GREEN, _ORANGE), strict=True):
        panel.bars([0], [share], starts=[left], colour=colour, horizontal=True, label=f"{label} {share:.1f}%")
        left += share
    return Chart(panel).svg()


def score_by_round(summary: SummaryView | Mapping[str, Any]) -> str:
    """Provisional score after each round: mean, 10th-90th percentile band, the leader's mean."""
    summary = view_of(summary)
    rounds = summary.scores.by_round
    x = [r.round for r in rounds]
    panel = Panel(6, 3, xlabel="round", ylabel="provisional score (VP)")
    panel.band(x, [r.p10 for r in rounds], [r.p90 for r in rounds], colour=_BLUE, label="10th-90th percentile")
    panel.line(x, [r.mean for r in rounds], colour=_BLUE, marker="circle", label="mean (all seats)")
    panel.line(x, [r.leader_mean for r in rounds], colour=_ORANGE, marker="dot", dash="dashed",
               label="mean of the leader")
    panel.set_ticks("x", x)
    return Chart(panel).svg()


def _histogram(panel: Panel, counts: Sequence[Sequence[float]], colour: str) -> None:
    panel.bars([value for value, _ in counts], [count for _, count in counts], colour=colour, width=0.8)
    if counts:
        low, high = min(v for v, _ in counts), max(v for v, _ in counts)
        panel.limits("x", low - 0.6, high + 0.6)


def margins(summary: SummaryView | Mapping[str, Any]) -> str:
    """Winning margins and lead changes per game."""
    summary = view_of(summary)
    scores = summary.scores
    left = Panel(4.5, 2.6, xlabel="winning margin (VP)", ylabel="games")
    _histogram(left, scores.margin.counts, _BLUE)
    right = Panel(4.5, 2.6, xlabel="lead changes per game", ylabel="games")
    _histogram(right, scores.lead_changes.counts, _GREEN)
    return Chart(left, right).svg()


def pace(summary: SummaryView | Mapping[str, Any]) -> str:
    """Rounds per game, the end conditions, legal options per decision."""
    summary = view_of(summary)
    part = summary.pace
    rounds = Panel(3.5, 2.8, xlabel="rounds per game", ylabel="games")
    _histogram(rounds, part.rounds.counts, _BLUE)
    names = [textwrap.fill(end_condition(t.trigger), 16) for t in part.triggers]
    triggers = Panel(4, 2.8, xlabel="end condition (a game may meet several)", ylabel="games (%)")
    triggers.categories("x", names)
    rates, (below, above) = _errors([_band(trigger) for trigger in part.triggers])
    triggers.bars(range(len(names)), rates, below=below, above=above, colour=_ORANGE)
    options = Panel(3.5, 2.8, xlabel="legal options per decision", ylabel="decisions")
    _histogram(options, part.options.counts, _GREEN)
    return Chart(rounds, triggers, options).svg()


def feel(summary: SummaryView | Mapping[str, Any]) -> str:
    """The eventual winner's mean standing per round against the leader's, and the fair share."""
    summary = view_of(summary)
    rounds = summary.feel.trajectory
    x = [r.round for r in rounds]
    valued = [r for r in rounds if r.winner_value_mean is not None]
    panel = Panel(6.5, 3.2, xlabel="round",
                  ylabel="standing (% of all VP)\nor search value (%)" if valued else "standing (% of all VP)")
    panel.line(x, [100 * r.leader_mean for r in rounds], colour=_ORANGE, marker="dot", dash="dashed", label="the leader")
    panel.line(x, [100 * r.winner_mean for r in rounds], colour=_BLUE, marker="circle", label="the eventual winner")
    if valued:  # where a search played: who it thought was winning (its root value, 0-1)
        panel.line([r.round for r in valued], [100 * r.winner_value_mean for r in valued], colour=_GREEN,
                   marker="triangle", dash="dashdot", label="the search's value of the winner")
    panel.reference(100 * summary.seats.fair_share, axis="y", colour=_GREY, dash="dotted", label="fair share")
    panel.set_ticks("x", x, [f"{r.round}\n(n={r.n})" for r in rounds])
    return Chart(panel).svg()


def comparison_seats(comparison: Mapping[str, Any]) -> str:
    """Seat win shares of two runs side by side, with intervals."""
    seats = [m for m in comparison["metrics"] if m["id"].startswith("seats.") and m["id"].endswith(".win_share")]
    panel = Panel(6, 3, ylabel="win share (%)")
    panel.categories("x", [m["label"].replace(" win share", "") for m in seats])
    positions = range(len(seats))
    for offset, side, colour in ((-0.2, "a", _BLUE), (0.2, "b", _ORANGE)):
        rates, (below, above) = _errors([(m[side]["value"], m[side]["low"], m[side]["high"]) for m in seats])
        panel.bars([p + offset for p in positions], rates, width=0.4, below=below, above=above, colour=colour,
                   label=comparison[side]["label"])
    players = RunInfo(comparison["a"]["run"], "$.a.run").players
    panel.reference(100 / players, axis="y", colour=_GREY, label="fair share")
    return Chart(panel).svg()


def ladder_steps(ladder: Mapping[str, Any]) -> str:
    """The stronger bot's win share at each step of a ladder (ladder.json), with intervals,
    against the fair share of its seats."""
    steps = ladder["steps"]
    panel = Panel(max(4.0, 1.1 * len(steps) + 1.5), 3,
                  title=f"Skill depth {ladder['skill_depth']} ({100 * ladder['confidence']:g}% intervals)",
                  xlabel="MCTS iterations: weaker vs stronger", ylabel="stronger bot's win share (%)")
    panel.categories("x", [f"{step['budgets'][0]} vs {step['budgets'][1]}" for step in steps])
    rates, errors = _errors([_band(Rate(step["wins"], f"$.steps[{i}].wins")) for i, step in enumerate(steps)])
    colours = [_GREEN if step["stronger_wins_more"] else _GREY for step in steps]
    panel.points(range(len(steps)), rates, yerr=errors, colour=_GREEN, colours=colours)
    panel.reference(100 * ladder["fair_share"], axis="y", colour=_ORANGE, label="fair share")
    return Chart(panel).svg()


def tune_progress(tune: Mapping[str, Any]) -> str:
    """Each complete candidate's objective over the trials of a tune (tune.json), and the best so far."""
    rows = [row for row in tune["trials"] if row["value"] is not None and row["state"] == "complete"]
    panel = Panel(6, 3, xlabel="trial", ylabel="weighted shortfall")
    panel.points([row["number"] for row in rows], [row["value"] for row in rows], colour=_BLUE, label="candidate")
    best = [row for row in tune["trials"] if row["best"] is not None]
    panel.line([row["number"] for row in best], [row["best"] for row in best], colour=_ORANGE, step=True,
               label="best so far")
    return Chart(panel).svg()


def tune_front(tune: Mapping[str, Any]) -> str:
    """The best objective of a tune's candidates with each number of edits (tune.json's front)."""
    front = tune["front"]
    panel = Panel(max(3.5, 0.9 * len(front) + 2), 3, xlabel="edits", ylabel="best weighted shortfall")
    panel.categories("x", [str(point["edits"]) for point in front])
    values = [point["value"] for point in front]
    panel.bars(range(len(front)), values, colour=_BLUE)
    for index, point in enumerate(front):
        count = point.get("targets_met")  # the targets with weight met, as every table of tune.html counts them
        if count is not None:
            panel.note(index, point["value"], f"{count['met']} of {count['of']} met")
    return Chart(panel).svg()
