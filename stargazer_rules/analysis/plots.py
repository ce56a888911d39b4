"""The report's plots: matplotlib figures drawn from the summary, returned as inline SVG text.

Figures are made with ``matplotlib.figure.Figure`` directly (no pyplot, so no global figure
state and no GUI backend), text is kept as SVG text (``svg.fonttype: none``: small files the
browser renders with its own fonts), and each figure gets its own ``svg.hashsalt`` so that the
ids of several SVGs in one HTML page never collide. Labels use English names: the fonts
matplotlib measures text with have no Japanese glyphs, and a missing glyph is a warning.
"""

from __future__ import annotations

import io
import itertools
import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from stargazer_rules.analysis.labels import end_condition
from stargazer_rules.analysis.summary_view import Rate, RunInfo, SummaryView, view_of

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

_salt = itertools.count()
_BLUE, _ORANGE, _GREY, _GREEN = "#3b6ea8", "#d9822b", "#888888", "#4a9a5b"
#: No <metadata> block: no date (the same summary draws the same page), no links to licences.
_NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.DOTALL)


def _svg(figure: Figure) -> str:
    """The figure as an ``<svg>`` element: no XML prologue, no metadata, unique ids."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": f"stargazer-{next(_salt)}"}):
        figure.savefig(buffer, format="svg", metadata=_NO_METADATA, bbox_inches="tight")
    return _PROLOGUE.sub("", buffer.getvalue(), count=1).strip()


def _figure(width: float, height: float, columns: int = 1) -> tuple[Figure, Any]:
    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.subplots(1, columns)
    for ax in axes if columns > 1 else (axes,):
        ax.spines[["top", "right"]].set_visible(False)
    return figure, axes


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
    figure, ax = _figure(6, 3)
    labels = [seat.label for seat in part.seats]
    rates, errors = _errors([_band(seat.wins) for seat in part.seats])
    ax.bar(labels, rates, yerr=errors, color=_BLUE, capsize=6)
    ax.axhline(100 * part.fair_share, color=_ORANGE, linestyle="--", label="fair share")
    ax.set_ylabel("win share (%)")
    ax.set_title(f"Win share by seat ({part.games} games, {_level(summary)} intervals)")
    ax.legend(loc="lower right")
    return _svg(figure)


def _level(summary: SummaryView) -> str:
    return f"{100 * summary.run.confidence:g}%"


def crew_picks(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per crew: share of its rounds in play it is picked, and picked first, with intervals."""
    summary = view_of(summary)
    cards = summary.crew.cards
    names = [summary.name("crew", card.crew) for card in cards]
    figure, (left, right) = _figure(9, 0.35 * len(cards) + 1.5, columns=2)
    positions = range(len(cards))
    for ax, bands, title, colour in (
        (left, [_band(card.picked) for card in cards], "picked (% of rounds in play)", _BLUE),
        (right, [_band(card.picked_first) for card in cards], "picked first (% of rounds in play)", _ORANGE),
    ):
        rates, errors = _errors(bands)
        ax.barh(list(positions), rates, xerr=errors, color=colour, capsize=3)
        ax.set_yticks(list(positions), names)
        ax.invert_yaxis()
        ax.set_xlabel(title)
    right.set_yticks(list(positions), [""] * len(cards))
    return _svg(figure)


def crew_wins(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per crew: the win share of the players who picked it against the other players."""
    summary = view_of(summary)
    cards = summary.crew.cards
    names = [summary.name("crew", card.crew) for card in cards]
    figure, ax = _figure(7, 0.4 * len(cards) + 1.5)
    positions = list(range(len(cards)))
    for offset, bands, label, colour in (
        (-0.15, [_band(card.picker_wins) for card in cards], "picked it", _BLUE),
        (0.15, [_band(card.other_wins) for card in cards], "did not", _GREY),
    ):
        rates, errors = _errors(bands)
        ax.errorbar(rates, [p + offset for p in positions], xerr=errors, fmt="o", color=colour, capsize=3, label=label)
    ax.axvline(100 * summary.seats.fair_share, color=_ORANGE, linestyle="--", label="fair share")
    ax.set_yticks(positions, names)
    ax.invert_yaxis()
    ax.set_xlabel("win share (%)")
    figure.legend(loc="outside lower center", ncols=3, frameon=False)
    return _svg(figure)


def planet_accidents(summary: SummaryView | Mapping[str, Any]) -> str:
    """Per planet: how often first place scores an accident, and how often it fills."""
    summary = view_of(summary)
    cards = summary.planets.cards
    names = [summary.name("planets", card.planet) for card in cards]
    figure, (left, right) = _figure(9, 0.35 * len(cards) + 1.5, columns=2)
    positions = list(range(len(cards)))
    for ax, bands, title, colour in (
        (left, [_band(card.accident) for card in cards], "first place scores an accident (%)", _ORANGE),
        (right, [_band(card.full) for card in cards], "planet filled (%)", _GREEN),
    ):
        rates, errors = _errors(bands)
        ax.barh(positions, rates, xerr=errors, color=colour, capsize=3)
        ax.set_yticks(positions, names)
        ax.invert_yaxis()
        ax.set_xlabel(title)
    right.set_yticks(positions, [""] * len(cards))
    return _svg(figure)


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
    figure, ax = _figure(7, 0.35 * len(cards) + 1.5)
    highest = max((value for row in grid for value in row if not math.isnan(value)), default=0)
    image = ax.imshow(grid, aspect="auto", cmap="Blues", vmin=0, vmax=max(highest, 0.01))
    for y, card in enumerate(cards):
        for x, value in enumerate(card.track or (), start=1):
            if value == 0:
                ax.text(x, y, "x", ha="center", va="center", color=_ORANGE, fontweight="bold")
    ax.set_yticks(list(range(len(cards))), names)
    ax.set_xticks(list(range(longest + 1)))
    ax.set_xlabel("final top square (0: no cube; blank: beyond the track); x: an accident row")
    figure.colorbar(image, ax=ax, label="share of games in play")
    return _svg(figure)


def scores_by_bot(summary: SummaryView | Mapping[str, Any]) -> str:
    """Final score quantiles per bot spec (box: quartiles, whiskers: 10th-90th percentile)."""
    summary = view_of(summary)
    bots = summary.scores.by_bot
    figure, ax = _figure(7, 0.5 * len(bots) + 1.5)
    stats = [
        {
            "label": f"{bot.bot} (n={bot.total.n})",
            "med": bot.total.median,
            "q1": bot.total.p25,
            "q3": bot.total.p75,
            "whislo": bot.total.p10,
            "whishi": bot.total.p90,
            "mean": bot.total.mean,
            "fliers": [],
        }
        for bot in bots
    ]
    ax.bxp(stats, orientation="horizontal", showmeans=True)
    ax.set_xlabel("final score (VP)")
    return _svg(figure)


def vp_sources(summary: SummaryView | Mapping[str, Any]) -> str:
    """Where the VP come from: majority, major-planet bonus, VP scored during play."""
    summary = view_of(summary)
    parts = summary.scores.components
    labels = ["majority", "major-planet bonus", "in play"]
    shares = [100 * (source.share or 0) for source in (parts.majority, parts.bonus, parts.play)]
    figure, ax = _figure(6, 1.9)
    left = 0.0
    for label, share, colour in zip(labels, shares, (_BLUE, _GREEN, _ORANGE)):
        ax.barh([0], [share], left=left, color=colour, label=f"{label} {share:.1f}%")
        left += share
    ax.set_yticks([])
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of all VP scored (%)")
    figure.legend(loc="outside lower center", ncols=3, frameon=False)
    return _svg(figure)


def score_by_round(summary: SummaryView | Mapping[str, Any]) -> str:
    """Provisional score after each round: mean, 10th-90th percentile band, the leader's mean."""
    summary = view_of(summary)
    rounds = summary.scores.by_round
    x = [r.round for r in rounds]
    figure, ax = _figure(6, 3)
    ax.fill_between(x, [r.p10 for r in rounds], [r.p90 for r in rounds], color=_BLUE, alpha=0.2, label="10th-90th percentile")
    ax.plot(x, [r.mean for r in rounds], color=_BLUE, marker="o", label="mean (all seats)")
    ax.plot(x, [r.leader_mean for r in rounds], color=_ORANGE, marker=".", linestyle="--", label="mean of the leader")
    ax.set_xlabel("round")
    ax.set_ylabel("provisional score (VP)")
    ax.set_xticks(x)
    ax.legend(loc="upper left")
    return _svg(figure)


def _histogram(ax: Any, counts: Sequence[Sequence[float]], colour: str, xlabel: str) -> None:
    ax.bar([value for value, _ in counts], [count for _, count in counts], color=colour, width=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")


def margins(summary: SummaryView | Mapping[str, Any]) -> str:
    """Winning margins and lead changes per game."""
    summary = view_of(summary)
    scores = summary.scores
    figure, (left, right) = _figure(9, 2.8, columns=2)
    _histogram(left, scores.margin.counts, _BLUE, "winning margin (VP)")
    _histogram(right, scores.lead_changes.counts, _GREEN, "lead changes per game")
    return _svg(figure)


def pace(summary: SummaryView | Mapping[str, Any]) -> str:
    """Rounds per game, the end conditions, legal options per decision."""
    summary = view_of(summary)
    part = summary.pace
    figure, (rounds, triggers, options) = _figure(11, 2.8, columns=3)
    _histogram(rounds, part.rounds.counts, _BLUE, "rounds per game")
    rates, errors = _errors([_band(trigger) for trigger in part.triggers])
    names = [textwrap.fill(end_condition(t.trigger), 16) for t in part.triggers]
    triggers.bar(names, rates, yerr=errors, color=_ORANGE, capsize=4)
    triggers.set_ylabel("games (%)")
    triggers.set_xlabel("end condition (a game may meet several)")
    _histogram(options, part.options.counts, _GREEN, "legal options per decision")
    options.set_ylabel("decisions")
    return _svg(figure)


def feel(summary: SummaryView | Mapping[str, Any]) -> str:
    """The eventual winner's mean standing per round against the leader's, and the fair share."""
    summary = view_of(summary)
    rounds = summary.feel.trajectory
    x = [r.round for r in rounds]
    figure, ax = _figure(6, 3)
    ax.plot(x, [100 * r.leader_mean for r in rounds], color=_ORANGE, marker=".", linestyle="--", label="the leader")
    ax.plot(x, [100 * r.winner_mean for r in rounds], color=_BLUE, marker="o", label="the eventual winner")
    valued = [r for r in rounds if r.winner_value_mean is not None]
    if valued:  # where a search played: who it thought was winning (its root value, 0-1)
        ax.plot([r.round for r in valued], [100 * r.winner_value_mean for r in valued], color=_GREEN, marker="^",
                linestyle="-.", label="the search's value of the winner")
    ax.axhline(100 * summary.seats.fair_share, color=_GREY, linestyle=":", label="fair share")
    ax.set_xticks(x, [f"{r.round}\n(n={r.n})" for r in rounds])
    ax.set_xlabel("round")
    ax.set_ylabel("standing (% of all VP)\nor search value (%)" if valued else "standing (% of all VP)")
    ax.legend(loc="lower right")
    return _svg(figure)


def comparison_seats(comparison: Mapping[str, Any]) -> str:
    """Seat win shares of two runs side by side, with intervals."""
    seats = [m for m in comparison["metrics"] if m["id"].startswith("seats.") and m["id"].endswith(".win_share")]
    figure, ax = _figure(6, 3)
    positions = list(range(len(seats)))
    for offset, side, colour in ((-0.2, "a", _BLUE), (0.2, "b", _ORANGE)):
        rates, errors = _errors([(m[side]["value"], m[side]["low"], m[side]["high"]) for m in seats])
        ax.bar([p + offset for p in positions], rates, width=0.4, yerr=errors, capsize=4, color=colour,
               label=comparison[side]["label"])
    players = RunInfo(comparison["a"]["run"], "$.a.run").players
    ax.axhline(100 / players, color=_GREY, linestyle="--", label="fair share")
    ax.set_xticks(positions, [m["label"].replace(" win share", "") for m in seats])
    ax.set_ylabel("win share (%)")
    figure.legend(loc="outside lower center", ncols=3, frameon=False)
    return _svg(figure)


def ladder_steps(ladder: Mapping[str, Any]) -> str:
    """The stronger bot's win share at each step of a ladder (ladder.json), with intervals,
    against the fair share of its seats."""
    steps = ladder["steps"]
    figure, ax = _figure(max(4.0, 1.1 * len(steps) + 1.5), 3)
    positions = list(range(len(steps)))
    rates, errors = _errors([_band(Rate(step["wins"], f"$.steps[{i}].wins")) for i, step in enumerate(steps)])
    colours = [_GREEN if step["stronger_wins_more"] else _GREY for step in steps]
    for position, rate, below, above, colour in zip(positions, rates, *errors, colours, strict=True):
        ax.errorbar([position], [rate], yerr=[[below], [above]], fmt="o", color=colour, capsize=6)
    ax.axhline(100 * ladder["fair_share"], color=_ORANGE, linestyle="--", label="fair share")
    ax.set_xticks(positions, [f"{step['budgets'][0]} vs {step['budgets'][1]}" for step in steps])
    ax.set_xlabel("MCTS iterations: weaker vs stronger")
    ax.set_ylabel("stronger bot's win share (%)")
    ax.set_title(f"Skill depth {ladder['skill_depth']} ({100 * ladder['confidence']:g}% intervals)")
    ax.legend(loc="lower right")
    return _svg(figure)


def tune_progress(tune: Mapping[str, Any]) -> str:
    """Each complete candidate's objective over the trials of a tune (tune.json), and the best so far."""
    rows = [row for row in tune["trials"] if row["value"] is not None and row["state"] == "complete"]
    figure, ax = _figure(6, 3)
    ax.plot([row["number"] for row in rows], [row["value"] for row in rows], "o", color=_BLUE, label="candidate")
    best = [row for row in tune["trials"] if row["best"] is not None]
    ax.step([row["number"] for row in best], [row["best"] for row in best], where="post", color=_ORANGE,
            label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("weighted shortfall")
    ax.legend(loc="upper right")
    return _svg(figure)


def tune_front(tune: Mapping[str, Any]) -> str:
    """The best objective of a tune's candidates with each number of edits (tune.json's front)."""
    front = tune["front"]
    figure, ax = _figure(max(3.5, 0.9 * len(front) + 2), 3)
    ax.bar([str(point["edits"]) for point in front], [point["value"] for point in front], color=_BLUE)
    for index, point in enumerate(front):
        ax.annotate(f"{point['missed']} missed", (index, point["value"]), ha="center", va="bottom")
    ax.set_xlabel("edits")
    ax.set_ylabel("best weighted shortfall")
    return _svg(figure)
