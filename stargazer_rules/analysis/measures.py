"""The measures a design target can name: each a figure of a run, per seat, crew, planet or game.

A measure is counted from the games.jsonl lines as **parts**: for every game and every subject
(a seat in turn order, a crew card, a planet card, an accident row, or the game itself) a few
``(numerator, denominator)`` pairs. The figure of a set of games is a function of the ratios
``sum(numerators) / sum(denominators)`` of its parts: a seat's win share is one ratio, a crew's
picker advantage the difference of two (its pickers' win share minus the others'), the balance
number ``1 - (max - min)`` of the seats' win shares. Because the figure is a function of sums,
a bootstrap resample of the games is a weighted sum (``analysis.bootstrap``), so one method gives
every measure its interval in a run and its paired change in a comparison.

Each measure is defined here once, with its words (``label``, ``description``) and how its
values are written; docs/simulation.md ("Design targets") lists them from this table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.analysis.games import lead_changes, seat_at, win_credit
from stargazer_rules.errors import counted

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = ["MEASURES", "Measure", "MeasureContext", "measure"]

#: A game's parts: subject -> the (numerator, denominator) of each of the measure's ratios.
Parts = Mapping[str, Sequence[tuple[float, float]]]


@attrs.frozen
class MeasureContext:
    """What the parts of some measures need besides a game: the player count, the crew always
    in play (Captain Armstrong, every game), the accident rows of each planet card (from the
    ruleset; None without it), and figures that are not counted from games (``skill_depth``
    from a ladder run)."""

    players: int
    always_in_play: tuple[str, ...] = ()
    accident_rows: Mapping[str, tuple[int, ...]] | None = None
    external: Mapping[str, float] = attrs.field(factory=dict)

    @classmethod
    def of(
        cls,
        games: Sequence[Mapping[str, Any]],
        ruleset: Ruleset | None,
        external: Mapping[str, float] | None = None,
        players: int | None = None,
    ) -> MeasureContext:
        """The context of ``games`` (their player count unless ``players`` is given: with a
        ruleset, the games are read for nothing else, so a run's context can be made first)."""
        if players is None:
            players = games[0]["players"] if games else 0
        if ruleset is not None:
            always = tuple(card.id for card in ruleset.crew if card.always_in_play)
            rows = {
                card.id: tuple(row for row, vp in enumerate(card.track, start=1) if vp == 0)
                for card in ruleset.planets
            }
        else:
            dealt = {crew for game in games for crew in game["setup"]["crew"]}
            picked = {pick["crew"] for game in games for pick in game["picks"]}
            always, rows = tuple(sorted(picked - dealt)), None
        return cls(players, always, rows, dict(external or {}))


def _first(ratios: Any) -> Any:
    return ratios[..., 0]


@attrs.frozen
class Measure:
    """One measure: its ``name`` in targets.yaml, its words, and how it is counted.

    - ``per``: what it is counted for: ``seat`` (turn order), ``crew``, ``planet``,
      ``accident_row``, ``game`` (one figure for the run), or ``run`` (not counted from games:
      read from ``MeasureContext.external``).
    - ``unit``: ``share`` (a fraction, written as a percentage), ``points`` (a difference of
      shares, written in percentage points), or a word for a mean per game (``rounds``).
    - ``parts(game, context)``: the game's parts (see the module docstring); ``value`` maps the
      ratios (last axis: one per part) to the figure.
    - ``centre(players)``: what ``within`` is measured from (the fair share of a seat; 0 for a
      difference); None when a ``within`` goal makes no sense.
    - ``margin``: the change that does not matter, for a comparison's equivalence test, in the
      measure's unit; None: the targets' ``equivalence_margin`` setting (for shares and points).
    - ``counts_events``: the numerators count events (wins, picks, accidents) out of the
      denominators, so the interval is Wilson's (a mean of other values gets the bootstrap's).
    - ``exact``: decided on the value as counted, not on its interval (a game that reached the
      round limit is a fact, not an estimate).
    - ``unit_one``: the unit's word for exactly one (``step`` for ``steps``); None when it is the
      same word (``per game``) or the unit is a share or points.
    """

    name: str
    label: str
    per: str
    unit: str
    description: str
    parts: Callable[[Mapping[str, Any], MeasureContext], Parts] | None
    value: Callable[[Any], Any] = _first
    centre: Callable[[int], float] | None = None
    margin: float | None = None
    exact: bool = False
    counts_events: bool = False
    unit_one: str | None = None

    @property
    def per_card(self) -> bool:
        """Counted per crew or planet card (or a planet's accident row): judged only for cards in
        play in at least ``min_card_games`` games."""
        return self.per in ("crew", "planet", "accident_row")

    @property
    def is_rate(self) -> bool:
        """A rate of events (a seat's wins over its games, picks over rounds): its interval is
        Wilson's, as the report's tables give every rate (``stats.rate``)."""
        return self.counts_events and self.value is _first

    def shown(self, value: float | None) -> str:
        """A value in the measure's unit: ``31.2%``, ``+4.2 points``, ``7.4 rounds``."""
        if value is None or math.isnan(value):
            return "n/a"
        if self.unit == "share":
            return f"{100 * value:.1f}%"
        if self.unit == "points":
            return f"{100 * value:+.1f} points"
        return f"{value:,.2f} {self.unit}".rstrip()

    def bound_text(self, value: float) -> str:
        """A goal's number as the designer wrote it: ``50%``, ``0 points``, ``6 rounds``."""
        if self.unit == "share":
            return f"{100 * value:g}%"
        if self.unit == "points":
            return f"{100 * value:+g} points" if value else "0 points"
        return self._counted(value)

    def amount(self, value: float) -> str:
        """A distance in the measure's unit, unsigned: ``3 points``, ``0.5 rounds``."""
        if self.unit in ("share", "points"):
            return f"{100 * value:g} points"
        return self._counted(value)

    def _counted(self, value: float) -> str:
        """``value`` as written (``%g``) with the unit's word for that many: ``1 step``, ``2 steps``."""
        return counted(value, f"{self.unit_one or self.unit}|{self.unit}", "g")


# -- parts ----------------------------------------------------------------------------------


def _seat_wins(game: Mapping[str, Any], context: MeasureContext) -> Parts:
    return {
        str(position + 1): ((win_credit(game, seat_at(game, position)), 1.0),)
        for position in range(game["players"])
    }


def _all_seats(game: Mapping[str, Any], context: MeasureContext) -> Parts:
    return {"seats": tuple((win_credit(game, seat_at(game, p)), 1.0) for p in range(game["players"]))}


def _balance(ratios: Any) -> Any:
    return 1 - (ratios.max(axis=-1) - ratios.min(axis=-1))


def _game_figure(figure: Callable[[Mapping[str, Any]], float | None]) -> Callable[[Mapping[str, Any], MeasureContext], Parts]:
    def parts(game: Mapping[str, Any], context: MeasureContext) -> Parts:
        value = figure(game)
        return {"game": ((0.0, 0.0),)} if value is None else {"game": ((float(value), 1.0),)}

    return parts


def _in_play(game: Mapping[str, Any], context: MeasureContext) -> list[str]:
    return [*context.always_in_play, *(c for c in game["setup"]["crew"] if c not in context.always_in_play)]


def _crew_counts(which: Callable[[Mapping[str, Any]], bool]) -> Callable[[Mapping[str, Any], MeasureContext], Parts]:
    """Per crew card in play: (its picks that ``which`` accepts, the game's rounds)."""

    def parts(game: Mapping[str, Any], context: MeasureContext) -> Parts:
        counted: dict[str, int] = {}
        for pick in game["picks"]:
            if which(pick):
                counted[pick["crew"]] = counted.get(pick["crew"], 0) + 1
        rounds = float(game["rounds"])
        return {crew: ((float(counted.get(crew, 0)), rounds),) for crew in _in_play(game, context)}

    return parts


def _picker_wins(game: Mapping[str, Any], context: MeasureContext) -> Parts:
    """Per crew card in play: (its pickers' win credit, pickers), (the others' credit, others)."""
    pickers: dict[str, set[int]] = {}
    for pick in game["picks"]:
        pickers.setdefault(pick["crew"], set()).add(pick["seat"])
    result = {}
    for crew in _in_play(game, context):
        took = pickers.get(crew, set())
        mine = sum(win_credit(game, seat) for seat in took)
        others = sum(win_credit(game, seat) for seat in range(game["players"]) if seat not in took)
        result[crew] = ((mine, float(len(took))), (others, float(game["players"] - len(took))))
    return result


def _difference(ratios: Any) -> Any:
    return ratios[..., 0] - ratios[..., 1]


def _accident(game: Mapping[str, Any], context: MeasureContext) -> Parts:
    """Per planet card: (first place scored an accident, the planet had cubes)."""
    return {
        result["planet"]: ((float(bool(result["accident"])), 1.0 if result["top_square"] > 0 else 0.0),)
        for result in game["score_sheet"]["planets"]
    }


def _accident_reached(game: Mapping[str, Any], context: MeasureContext) -> Parts:
    """Per accident row of a planet card in play: (the track reached it, 1)."""
    if context.accident_rows is None:
        return {}
    result = {}
    for planet in game["score_sheet"]["planets"]:
        for row in context.accident_rows.get(planet["planet"], ()):
            result[f"{planet['planet']}#{row}"] = ((float(planet["top_square"] >= row), 1.0),)
    return result


def _round_limit(game: Mapping[str, Any]) -> float:
    return float("round_limit" in game["triggers"])


def _tie(game: Mapping[str, Any]) -> float:
    return float(len(game["winners"]) > 1)


def _branching(game: Mapping[str, Any]) -> float | None:
    options = game["options"]
    return sum(options) / len(options) if options else None


def _fair(players: int) -> float:
    return 1 / players


def _zero(players: int) -> float:
    return 0.0


def _feel(key: str) -> Callable[[Mapping[str, Any]], float | None]:
    """One figure of ``analysis.feel`` for a game."""

    def figure(game: Mapping[str, Any]) -> float | None:
        from stargazer_rules.analysis.feel import feel_figures

        return feel_figures(game)[key]

    return figure


_LIST: tuple[Measure, ...] = (
    Measure("seat_win_share", "Seat win share", "seat", "share",
            "each seat's share of the wins, seats in turn order (seat 1 starts); a shared win counts 1/k (R18)",
            _seat_wins, centre=_fair, counts_events=True),
    Measure("seat_balance", "Seat balance", "game", "share",
            "1 minus the largest gap between two seats' win shares (1.00: perfectly even)",
            _all_seats, value=_balance),
    Measure("tie_rate", "Tie rate", "game", "share", "games whose win is shared (R18)",
            _game_figure(_tie), counts_events=True),
    Measure("crew_pick_share", "Crew picked", "crew", "share",
            "share of the rounds a crew card is in play that someone picks it", _crew_counts(lambda pick: True), counts_events=True),
    Measure("crew_first_pick", "Crew picked first", "crew", "share",
            "share of the rounds a crew card is in play that it is the round's first pick",
            _crew_counts(lambda pick: pick["order"] == 1), counts_events=True),
    Measure("crew_picker_advantage", "Crew pickers' extra wins", "crew", "points",
            "the win share of the players who picked a crew card in a game minus that of the other players "
            "of the same games", _picker_wins, value=_difference, centre=_zero),
    Measure("planet_first_place_accident", "First place scores an accident", "planet", "share",
            "of the games a planet had cubes, how often its top row is a 0-VP accident (R16)", _accident, counts_events=True),
    Measure("accident_row_reached", "Accident row reached", "accident_row", "share",
            "of the games a planet was in play, how often its track reached an accident row "
            "(an accident never reached does nothing)", _accident_reached, counts_events=True),
    Measure("round_limit_share", "Games at the round limit", "game", "share",
            "games ended by the round limit (a safety net, not a rule of the game)", _game_figure(_round_limit),
            exact=True, counts_events=True),
    Measure("game_rounds", "Rounds per game", "game", "rounds", "the round a game ends in (R10)",
            _game_figure(lambda game: game["rounds"]), margin=0.25, unit_one="round"),
    Measure("game_decisions", "Decisions per game", "game", "decisions", "decisions (actions) played per game",
            _game_figure(lambda game: game["decisions"]), margin=2.0, unit_one="decision"),
    Measure("branching", "Options per decision", "game", "options",
            "legal actions a decision offers, on average (the game's branching factor)",
            _game_figure(_branching), margin=0.5, unit_one="option"),
    Measure("lead_changes", "Lead changes", "game", "per game",
            "how often the sole leader after a round differs from the last sole leader (Ludii's LeadChange)",
            _game_figure(lambda game: lead_changes(game["score_by_round"])), margin=0.1),
    Measure("drama", "Drama", "game", "share",
            "how far behind the eventual winner was, in score share, over the rounds it did not lead "
            "(Ludii's Drama)", _game_figure(_feel("drama"))),
    Measure("winner_trailed", "Rounds the winner trailed", "game", "share",
            "share of the rounds the eventual winner was not leading", _game_figure(_feel("winner_trailed"))),
    Measure("decisiveness", "Decisiveness", "game", "share",
            "the share of the game after which the eventual winner always led "
            "(Ludii's DecisivenessThreshold: lower is decided earlier)", _game_figure(_feel("decisiveness"))),
    Measure("stability", "Stability", "game", "share",
            "mean change of a seat's score share from round to round (Ludii's Stability: lower is steadier)",
            _game_figure(_feel("stability")), margin=0.01),
    Measure("comeback_rate", "Comeback rate", "game", "share",
            "games won by a player who trailed after the middle round", _game_figure(_feel("comeback")), counts_events=True),
    Measure("decisions_per_turn", "Decisions per turn", "game", "decisions",
            "decisions a player makes in one turn, on average", _game_figure(_feel("decisions_per_turn")),
            margin=0.1, unit_one="decision"),
    Measure("skill_depth", "Skill depth", "run", "steps",
            "steps of the skill ladder (stargazer ladder) where the stronger search wins significantly "
            "more than its fair share", None, exact=True, margin=0.5, unit_one="step"),
)

#: Every measure by name, in the order of docs/simulation.md and of a default targets file.
MEASURES: Mapping[str, Measure] = {m.name: m for m in _LIST}


def measure(name: str) -> Measure:
    """The measure ``name``; ``KeyError`` for an unknown one (targets files are checked first)."""
    return MEASURES[name]
