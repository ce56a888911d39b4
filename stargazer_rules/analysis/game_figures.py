"""What a comparison keeps of each game: its per-game figures and its parts, not the game.

A comparison pairs two runs game by game, and a ``compare --until-decided`` looks at the pairs
after every batch; holding both runs' games.jsonl lines for that (about 50 kB of Python objects
a game) would take a gigabyte for two runs of 7,200 games. ``GameFigures`` is what the
comparison reads of a game, made once from its line: the deal it pairs by, each per-game figure
of the comparison's metrics (``FIGURES``: a ``(numerator, denominator)``, as
``compare._per_game`` averages them), and the parts of each measure the targets name
(``analysis.measures``), all numbers in one flat array; about 2 kB a game.

The figures are computed here by the same functions on the same lines as before, so the
comparison's numbers do not depend on whether it was given lines or their figures.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.analysis.games import deal_of, lead_changes, seat_at, win_credit, winning_margin
from stargazer_rules.analysis.measures import Measure, MeasureContext

__all__ = [
    "FIGURES",
    "FiguresOf",
    "GameFigures",
    "bot_figure_ids",
    "figures_of",
    "seat_figure_id",
    "trigger_figure_id",
]

#: A per-game figure: (numerator, denominator), or None when the game has no such figure.
PerGame = Callable[[Mapping[str, Any]], tuple[float, float] | None]


def _seat_mean(part: str) -> PerGame:
    def figure(game: Mapping[str, Any]) -> tuple[float, float]:
        return float(sum(seat[part] for seat in game["score_sheet"]["seats"])), float(game["players"])

    return figure


def _vp_share(part: str) -> PerGame:
    def figure(game: Mapping[str, Any]) -> tuple[float, float]:
        seats = game["score_sheet"]["seats"]
        return float(sum(seat[f"{part}_vp"] for seat in seats)), float(sum(seat["total"] for seat in seats))

    return figure


def _single(value: Callable[[Mapping[str, Any]], float | None]) -> PerGame:
    def figure(game: Mapping[str, Any]) -> tuple[float, float] | None:
        found = value(game)
        return None if found is None else (float(found), 1.0)

    return figure


def _tie(game: Mapping[str, Any]) -> tuple[float, float]:
    return float(len(game["winners"]) > 1), 1.0


def _options(game: Mapping[str, Any]) -> tuple[float, float]:
    return float(sum(game["options"])), float(len(game["options"]))


def _forced(game: Mapping[str, Any]) -> tuple[float, float]:
    return float(sum(1 for count in game["options"] if count == 1)), float(len(game["options"]))


def _rounds(game: Mapping[str, Any]) -> int:
    return game["rounds"]


def _decisions(game: Mapping[str, Any]) -> int:
    return game["decisions"]


def _lead_changes(game: Mapping[str, Any]) -> int:
    return lead_changes(game["score_by_round"])


#: The per-game figures every game has, by the id of the comparison's metric.
FIGURES: Mapping[str, PerGame] = {
    "seats.ties": _tie,
    "scores.total": _seat_mean("total"),
    **{f"scores.{part}.mean": _seat_mean(f"{part}_vp") for part in ("majority", "bonus", "play")},
    **{f"scores.{part}.share": _vp_share(part) for part in ("majority", "bonus", "play")},
    "scores.margin": _single(winning_margin),
    "scores.lead_changes": _single(_lead_changes),
    "pace.rounds": _single(_rounds),
    "pace.decisions": _single(_decisions),
    "pace.options": _options,
    "pace.forced": _forced,
}


def seat_figure_id(position: int) -> str:
    """The metric of the win credit of the seat ``position`` in turn order (0: the start player)."""
    return f"seats.{position + 1}.win_share"


def bot_figure_ids(spec: str) -> tuple[str, str]:
    """The metrics of a bot spec's win credit and final score per seat it played."""
    return f"scores.bot.{spec}.wins", f"scores.bot.{spec}.total"


def trigger_figure_id(trigger: str) -> str:
    """The metric of the games an end condition ended."""
    return f"pace.trigger.{trigger}"


_TRIGGER = trigger_figure_id("")


def _bot_figures(game: Mapping[str, Any], spec: str) -> tuple[tuple[float, float], tuple[float, float]]:
    seats = [seat for seat, bot in enumerate(game["seating"]) if bot == spec]
    totals = {s["seat"]: s["total"] for s in game["score_sheet"]["seats"]}
    wins = sum(win_credit(game, seat) for seat in seats), float(len(seats))
    return wins, (float(sum(totals[seat] for seat in seats)), float(len(seats)))


@attrs.frozen(slots=True, eq=False)
class GameFigures:
    """One game as a comparison reads it (see the module docstring): its ``index``, ``deal``
    (``games.deal_of``), ``seating`` and end ``triggers``; ``layout``, shared by games of the
    same shape, maps each figure id to its place in ``values`` (two numbers each), and
    ``parts`` gives each measure's subjects and pairs per subject, whose numbers follow."""

    index: int
    deal: tuple[Any, int, int]
    seating: tuple[str, ...]
    triggers: frozenset[str]
    layout: Mapping[str, int]
    parts_layout: tuple[tuple[str, tuple[str, ...], int], ...]
    values: array

    @property
    def players(self) -> int:
        return self.deal[2]

    def figure(self, ident: str) -> tuple[float, float] | None:
        """The per-game figure of the metric ``ident``; None when the game has none (a bot that
        did not play it, a seat beyond its players, a margin when every seat won)."""
        if ident.startswith(_TRIGGER):
            return float(ident[len(_TRIGGER):] in self.triggers), 1.0
        at = self.layout.get(ident)
        return None if at is None else (self.values[at], self.values[at + 1])

    def credit_row(self) -> list[float]:
        """Each seat's win credit, seats in turn order (``games.credit_row``)."""
        return [self.values[self.layout[seat_figure_id(position)]] for position in range(self.players)]

    def parts(self, name: str) -> dict[str, tuple[tuple[float, float], ...]]:
        """The game's parts of the measure ``name`` (one the figures were made with)."""
        at = 2 * len(self.layout)
        for measure, subjects, width in self.parts_layout:
            if measure == name:
                values = self.values
                return {subject: tuple((values[at + 2 * (s * width + k)], values[at + 2 * (s * width + k) + 1])
                                       for k in range(width))
                        for s, subject in enumerate(subjects)}
            at += 2 * len(subjects) * width
        raise KeyError(f"these game figures hold no parts of {name!r}")


class FiguresOf:
    """Makes the ``GameFigures`` of the games of one run, with the parts of ``measures`` (those
    the comparison's targets name) in ``context``; games of one shape share their layouts.
    ``metrics`` False keeps the parts and the deal only: what a sequential look reads (a line
    then needs no more than its measures and the pairing read)."""

    def __init__(self, measures: Iterable[Measure], context: MeasureContext, *, metrics: bool = True) -> None:
        self.measures = [m for m in {m.name: m for m in measures}.values() if m.parts is not None]
        self.context = context
        self.metrics = metrics
        self._shared: dict[Any, Any] = {}

    def _share(self, value: Any) -> Any:
        return self._shared.setdefault(value, value)

    def __call__(self, game: Mapping[str, Any]) -> GameFigures:
        found: list[tuple[str, tuple[float, float] | None]] = []
        if self.metrics:
            found += [(seat_figure_id(position), (win_credit(game, seat_at(game, position)), 1.0))
                      for position in range(game["players"])]
            found += [(ident, figure(game)) for ident, figure in FIGURES.items()]
            for spec in dict.fromkeys(game["seating"]):
                found += list(zip(bot_figure_ids(spec), _bot_figures(game, spec), strict=True))
        numbers = array("d")
        names = []
        for ident, value in found:
            if value is not None:
                names.append(ident)
                numbers.extend(value)
        layout = self._share(tuple(names))
        shape = []
        for measure in self.measures:
            parts = measure.parts(game, self.context)
            width = max((len(pairs) for pairs in parts.values()), default=1)
            for pairs in parts.values():
                for k in range(width):
                    numbers.extend(pairs[k] if k < len(pairs) else (0.0, 0.0))
            shape.append(self._share((measure.name, self._share(tuple(sys.intern(s) for s in parts)), width)))
        return GameFigures(
            index=game["index"],
            deal=deal_of(game),
            seating=self._share(tuple(game["seating"] if self.metrics else game.get("seating", ()))),
            triggers=self._share(frozenset(game["triggers"] if self.metrics else game.get("triggers", ()))),
            layout=self._layout(layout),
            parts_layout=self._share(tuple(shape)),
            values=numbers,
        )

    def _layout(self, names: tuple[str, ...]) -> Mapping[str, int]:
        key = ("layout", names)
        if key not in self._shared:
            self._shared[key] = {name: 2 * place for place, name in enumerate(names)}
        return self._shared[key]


def figures_of(games: Sequence[Mapping[str, Any]], measures: Iterable[Measure], context: MeasureContext, *,
               metrics: bool = True) -> tuple[GameFigures, ...]:
    """The figures of ``games`` (in their order): ``FiguresOf(measures, context, metrics=...)``."""
    reduce = FiguresOf(measures, context, metrics=metrics)
    return tuple(reduce(game) for game in games)
