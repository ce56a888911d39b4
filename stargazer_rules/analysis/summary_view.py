"""summary.json read through typed parts: the one place the analysis spells a summary's keys.

``summarize`` writes the summary as plain JSON (docs/simulation.md, "summary.json";
schemas/summary.schema.json). The report, the terminal, the plots, the findings and the
comparison read it through ``view_of(summary)``: small classes over the summary's objects
whose fields are named and typed as the keys of the schema (``view.seats.balance.value``,
``view.run.players``, ``view.crew_card("navigator").picked``). Each field reads its key when
it is read, so a view of a part of a summary serves what that part holds, a key misspelt by a
reader is an ``AttributeError`` where it is read, and a key the summary lacks is a
``ValueError`` naming its JSON path. ``to_json(part)`` is the JSON a part reads, unchanged.
A test holds the fields to the schema and to every key of real summaries.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from stargazer_rules.analysis.targets import Targets

__all__ = [
    "AccidentRow",
    "Advantage",
    "Balance",
    "BotScores",
    "ChiSquare",
    "Colour",
    "Component",
    "Components",
    "CountedDistribution",
    "Crew",
    "CrewCard",
    "Distribution",
    "Feel",
    "FeelRound",
    "Finding",
    "GamesNeeded",
    "Motivation",
    "Name",
    "Names",
    "Pace",
    "Part",
    "PlanetCard",
    "PlanetFigures",
    "Planets",
    "RankVP",
    "Rate",
    "RoundScores",
    "RulesetId",
    "RunInfo",
    "RunWarning",
    "Scores",
    "Seat",
    "Seats",
    "SummaryView",
    "TableSeat",
    "TableSeats",
    "TargetAnswer",
    "TargetSubject",
    "TargetsSection",
    "Trigger",
    "to_json",
    "view_of",
]

Kind = TypeVar("Kind", bound=type)


class Part:
    """A part of a summary over the JSON object it reads: ``part``'s fields read its keys."""

    __slots__ = ("_data", "_where")

    def __init__(self, data: Mapping[str, Any], where: str = "$") -> None:
        if not isinstance(data, Mapping):
            raise ValueError(f"{where} is {type(data).__name__}, not an object: not a summary part")
        self._data = data
        self._where = where

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._data == self._data  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._where})"


def part(cls: Kind) -> Kind:
    """Make each field annotated in ``cls`` a property reading the key of its name."""
    for name in cls.__dict__.get("__annotations__", {}):
        setattr(cls, name, property(functools.partial(_read, name=name), doc=f"The summary's {name!r}."))
    return cls


def _read(self: Part, name: str) -> Any:
    try:
        value = self._data[name]
    except KeyError:
        raise ValueError(f"{self._where} has no {name!r}: not a stargazer-summary/1 document "
                         "(schemas/summary.schema.json)") from None
    return _as(_hints(type(self))[name], value, f"{self._where}.{name}")


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    """The fields of a part with their types, its bases' first."""
    return typing.get_type_hints(kind)


def _as(kind: Any, value: Any, where: str) -> Any:
    """``value`` (JSON) read as a ``kind``: parts over objects, tuples from lists, mappings by
    key, the targets as ``Targets``, other values as they are."""
    if isinstance(kind, type) and issubclass(kind, Part):
        return kind(value, where)
    if kind is Targets:
        return Targets.from_json(dict(value))
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        (present,) = (arg for arg in args if arg is not type(None))
        return _as(present, value, where)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_as(args[0], item, f"{where}[{i}]") for i, item in enumerate(value))
        return tuple(value)
    if origin is Mapping:
        return {key: _as(args[1], item, f"{where}.{key}") for key, item in value.items()}
    return value


# -- the two shapes that recur ---------------------------------------------------------------


@part
class Rate(Part):
    """``count`` of ``n`` (fractional for shared wins), the ``rate`` and its Wilson interval
    ``low``..``high``; the last three are None when ``n`` is 0."""

    count: float
    n: int
    rate: float | None
    low: float | None
    high: float | None


@part
class Distribution(Part):
    """``n`` values: the mean with its Student's t interval, the sd and quantiles (all None
    without values)."""

    n: int
    mean: float | None
    mean_low: float | None
    mean_high: float | None
    sd: float | None
    min: float | None
    p10: float | None
    p25: float | None
    median: float | None
    p75: float | None
    p90: float | None
    max: float | None


@part
class CountedDistribution(Distribution):
    """A distribution of whole numbers with ``counts``: (value, how many) by value."""

    counts: tuple[tuple[float, int], ...]


# -- run, names, findings ------------------------------------------------------------------


@part
class RulesetId(Part):
    """The ruleset's ``name`` and ``fingerprint``."""

    name: str
    fingerprint: str


@part
class RunWarning(Part):
    """A warning about the run: its ``kind`` (``random_only``, ``partial``, ...) and ``text``."""

    kind: str
    text: str


@part
class RunInfo(Part):
    """What was summarised: the games, the bots, the blocks, the targets and the warnings."""

    games: int
    players: int
    ruleset: RulesetId
    lineup: tuple[str, ...]
    bots: tuple[str, ...]
    engine: str
    random_only: bool
    blocks: int
    complete_blocks: int
    missing_games: int
    first_index: int
    last_index: int
    confidence: float
    targets: Targets
    warnings: tuple[RunWarning, ...]


@part
class Name(Part):
    """A card's or colour's name in English and Japanese."""

    en: str
    ja: str


@part
class Names(Part):
    """Names by id of the ``crew``, ``planets`` and ``colours``; empty without the ruleset."""

    crew: Mapping[str, Name]
    planets: Mapping[str, Name]
    colours: Mapping[str, Name]

    def of(self, kind: str, card_id: str, lang: str = "en") -> str:
        """The name of ``card_id`` (``kind``: crew, planets or colours) in ``lang``; the id
        when the summary has no name for it."""
        if kind not in ("crew", "planets", "colours"):
            raise ValueError(f"no names of {kind!r}: the kinds are crew, planets and colours")
        found = getattr(self, kind).get(card_id)
        return card_id if found is None else getattr(found, lang)


@part
class TargetSubject(Part):
    """One seat, card or the game under a target: its value over ``n`` games with interval,
    ``status`` (met, not_met, unknown), ``miss`` (how far outside the goal; negative inside),
    ``games_needed`` when unknown, ``judged`` (false: too few games, min_card_games) and the
    ``note`` that says why not."""

    subject: str
    label: str
    anchor: str
    n: int
    value: float | None
    low: float | None
    high: float | None
    status: str
    miss: float | None
    games_needed: int | None
    judged: bool
    note: str | None


@part
class TargetAnswer(Part):
    """One target answered: its ``key``, measure, goal and weight, the ``status``, the value of
    its ``worst`` subject with interval, and every subject."""

    key: str
    measure: str
    label: str
    unit: str
    goal: Mapping[str, Any]
    goal_text: str
    weight: float
    card: str | None
    line: int | None
    section: str
    status: str
    value: float | None
    low: float | None
    high: float | None
    worst: str | None
    worst_label: str | None
    miss: float | None
    games_needed: int | None
    note: str | None
    subjects: tuple[TargetSubject, ...]


@part
class TargetsSection(Part):
    """The run against its targets (``analysis.target_check``): where they came from, the
    counts met / not_met / unknown of ``total``, and each answer."""

    source: str
    confidence: float
    method: str
    settings: Mapping[str, Any]
    total: int
    met: int
    not_met: int
    unknown: int
    targets: tuple[TargetAnswer, ...]

    def answer(self, key: str) -> TargetAnswer | None:
        return next((answer for answer in self.targets if answer.key == key), None)


@part
class Finding(Part):
    """A subject of a target not met: its ``kind`` (the target's key), report ``section``,
    ``subject``, the ``anchor`` of its figure in report.html and the sentence ``text``."""

    kind: str
    section: str
    subject: str
    anchor: str
    text: str


# -- seats ----------------------------------------------------------------------------------


@part
class ChiSquare(Part):
    """Pearson's test of equal win shares: ``statistic`` and ``p`` (None without a win), ``df``, ``n``."""

    statistic: float | None
    df: int
    p: float | None
    n: int


@part
class Balance(Part):
    """1 minus the largest gap between two seats' win shares, and the two seats."""

    value: float
    gap: float
    best_seat: int
    worst_seat: int
    n: int


@part
class GamesNeeded(Part):
    """The games a seat ``advantage`` needs at ``confidence`` and ``power``; the run ``have``s."""

    advantage: float
    confidence: float
    power: float
    games: int
    have: int
    detectable_advantage: float | None


@part
class TableSeat(Part):
    """A seat's ``wins`` (0-based ``seat``, ``label`` as the report shows it) and whether
    their interval ``excludes_fair``."""

    seat: int
    label: str
    wins: Rate
    excludes_fair: bool


@part
class Seat(TableSeat):
    """A seat in turn order (0: the start player), with its final totals' ``score``."""

    score: Distribution


@part
class Seats(Part):
    """Win figures by seat in turn order from the start player."""

    order: str
    players: int
    games: int
    fair_share: float
    seats: tuple[Seat, ...]
    chi_square: ChiSquare
    balance: Balance
    ties: Rate
    games_needed: GamesNeeded


@part
class TableSeats(Part):
    """Win figures by the table seats of the game lines."""

    order: str
    games: int
    fair_share: float
    seats: tuple[TableSeat, ...]
    chi_square: ChiSquare


# -- crew and planets -----------------------------------------------------------------------


@part
class Motivation(Part):
    """The motivation VP a crew's picks scored (R6)."""

    total: float
    per_pick: Distribution
    per_game_in_play: float


@part
class Advantage(Part):
    """``difference`` of two rates (the pickers' win share minus the others') with the percentile
    bootstrap interval its target is judged by; all None without both rates."""

    difference: float | None
    low: float | None
    high: float | None


@part
class CrewCard(Part):
    """One crew card's figures over the games and rounds it was in play."""

    crew: str
    always_in_play: bool
    in_play: Rate
    rounds_in_play: int
    picked: Rate
    picked_first: Rate
    games_picked: Rate
    pick_round: CountedDistribution
    pick_order: CountedDistribution
    motivation_vp: Motivation
    picker_wins: Rate
    other_wins: Rate
    picker_advantage: Advantage


@part
class Crew(Part):
    """Crew figures: the ``cards`` in the ruleset's order."""

    games: int
    always_in_play: tuple[str, ...]
    rounds: int
    cards: tuple[CrewCard, ...]


@part
class RankVP(Part):
    """The VP one rank of a planet was paid, and what free cubes took of it."""

    rank: int
    n: int
    mean_vp: float
    total_vp: float
    free_cube_ranks: int
    vp_lost_to_free_cubes: float


@part
class AccidentRow(Part):
    """An accident row of a track: how often the track ``reached`` it and first place scored it."""

    row: int
    reached: Rate
    scored_by_first: Rate


@part
class PlanetFigures(Part):
    """What a planet card, or all planets of a colour, did over the games in play."""

    in_play: Rate
    planet_games: int
    top_square: CountedDistribution
    accident: Rate
    full: Rate
    owners: CountedDistribution
    free_cubes_rank: Rate
    vp_by_rank: tuple[RankVP, ...]


@part
class PlanetCard(PlanetFigures):
    """One planet card; its ``track`` and ``accident_rows`` are None without the ruleset."""

    planet: str
    colour: str
    track: tuple[int, ...] | None
    accident_rows: tuple[AccidentRow, ...] | None


@part
class Colour(PlanetFigures):
    """All planets of one colour together."""

    colour: str


@part
class Planets(Part):
    """Planet figures: the ``cards`` and ``colours`` in the ruleset's order."""

    games: int
    cards: tuple[PlanetCard, ...]
    colours: tuple[Colour, ...]


# -- scores and pace ------------------------------------------------------------------------


@part
class BotScores(Part):
    """One bot spec's final totals and win share over the seat-games it played."""

    bot: str
    seat_games: int
    total: CountedDistribution
    wins: Rate
    fair_share: float


@part
class Component(Part):
    """The VP of one source: all of them, their ``share`` of all VP, per seat-game."""

    vp: float
    share: float | None
    per_seat_game: Distribution


@part
class Components(Part):
    """Where the VP come from: planet ``majority``, the major-planet ``bonus``, ``play``."""

    seat_games: int
    all_vp: float
    majority: Component
    bonus: Component
    play: Component
    total: Distribution


@part
class RoundScores(Part):
    """The provisional totals after one round, over the games lasting that long."""

    round: int
    games: int
    n: int
    mean: float
    p10: float
    p90: float
    leader_mean: float


@part
class Scores(Part):
    """Score figures."""

    by_bot: tuple[BotScores, ...]
    components: Components
    margin: CountedDistribution
    by_round: tuple[RoundScores, ...]
    lead_changes: CountedDistribution


@part
class Trigger(Rate):
    """One end condition (R10): a rate over games, and the games it ended ``alone``."""

    trigger: str
    alone: int


@part
class Pace(Part):
    """Pace figures."""

    games: int
    rounds: CountedDistribution
    triggers: tuple[Trigger, ...]
    decisions: Distribution
    options: CountedDistribution
    forced: Rate

    def trigger(self, name: str) -> Trigger | None:
        """The figures of the end condition ``name``; None when no game ended by it."""
        return next((trigger for trigger in self.triggers if trigger.trigger == name), None)


# -- how the game feels ---------------------------------------------------------------------


@part
class FeelRound(Part):
    """One round of the mean trajectory, over the ``n`` games won alone lasting that long: the
    eventual winner's mean standing and the mean best standing (the leader's); and, over the
    ``value_n`` of them a search played, the search's mean root value for the eventual winner."""

    round: int
    n: int
    winner_mean: float
    leader_mean: float
    value_n: int
    winner_value_mean: float | None


@part
class Feel(Part):
    """The figures of ``analysis.feel.FEEL_FIGURES`` over the games that have each (rates for
    ``comeback`` and ``tie``), and the mean ``trajectory``."""

    games: int
    lead_changes: Distribution
    drama: Distribution
    winner_trailed: Distribution
    decisiveness: Distribution
    stability: Distribution
    comeback: Rate
    tie: Rate
    rounds: Distribution
    decisions: Distribution
    decisions_per_turn: Distribution
    branching: Distribution
    trajectory: tuple[FeelRound, ...]

    def figure(self, key: str) -> Distribution | Rate:
        """The summary of the figure ``key`` of ``FEEL_FIGURES``."""
        if key not in _FEEL_KEYS:
            raise ValueError(f"no feel figure {key!r}: the figures are {', '.join(_FEEL_KEYS)}")
        return getattr(self, key)


#: The fields of ``Feel`` that are figures (all but ``games`` and ``trajectory``).
_FEEL_KEYS = tuple(name for name in Feel.__annotations__ if name not in ("games", "trajectory"))


# -- the summary ----------------------------------------------------------------------------


@part
class SummaryView(Part):
    """A summary (schemas/summary.schema.json), part by part."""

    format: str
    run: RunInfo
    targets: TargetsSection
    names: Names
    seats: Seats
    table_seats: TableSeats
    crew: Crew
    planets: Planets
    scores: Scores
    pace: Pace
    feel: Feel
    findings: tuple[Finding, ...]

    def findings_by_target(self) -> list[tuple[TargetAnswer, tuple[Finding, ...]]]:
        """Each target not met with its findings (one per seat or card that misses), in the
        targets' order: the list "targets not met (N)" shows, so that N is the ``not_met``
        count of the targets section (a target missed by two crews is one target, not two)."""
        return [(answer, tuple(f for f in self.findings if f.kind == answer.key))
                for answer in self.targets.targets if answer.status == "not_met"]

    def crew_card(self, crew: str) -> CrewCard | None:
        """The figures of the crew card ``crew``; None when it was never in play."""
        return next((card for card in self.crew.cards if card.crew == crew), None)

    def planet_card(self, planet: str) -> PlanetCard | None:
        """The figures of the planet card ``planet``; None when it was never in play."""
        return next((card for card in self.planets.cards if card.planet == planet), None)

    def name(self, kind: str, card_id: str, lang: str = "en") -> str:
        """``names.of``: a card's or colour's name, its id when the summary has none."""
        return self.names.of(kind, card_id, lang)


def view_of(summary: SummaryView | Mapping[str, Any]) -> SummaryView:
    """The view of ``summary`` (a view is returned as it is)."""
    return summary if isinstance(summary, SummaryView) else SummaryView(summary)


def to_json(view: Part | tuple[Part, ...]) -> Any:
    """The JSON a part (or a tuple of parts) reads, as it is in the summary."""
    if isinstance(view, tuple):
        return [to_json(item) for item in view]
    return view._data
