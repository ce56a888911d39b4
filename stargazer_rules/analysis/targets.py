"""Design targets: what the designer says the game should be, and the settings every answer uses.

A target is a measure (``analysis.measures``), a goal and a weight::

    {measure: crew_picker_advantage, within: 0.10}      # every crew card, within ±10 points of 0
    {measure: game_rounds, between: [6, 9], weight: 2}
    {measure: crew_first_pick, at_most: 0.5, card: navigator}

A measure counted per seat, crew or planet applies the goal to each (or to the one ``card``).
Targets come from the ``targets.yaml`` beside a ruleset's files (``analysis.targets_file``),
``--targets FILE``, or ``Targets.default()``: the bounds a run was judged by before targets
existed. The command line's ``--bound NAME=VALUE`` changes one target's goal or one setting
(``Targets.with_settings``): one concept, not two.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.rulesets.validation import close_match
from stargazer_rules.rulesets.yamlsource import number_from_text

__all__ = ["GOALS", "MAX_GOAL", "SETTING_RANGES", "Settings", "Target", "Targets", "goal_problem", "parse_setting", "range_text"]

#: The goal kinds, as targets.yaml writes them.
GOALS = ("at_most", "at_least", "within", "between")


#: The range of each setting, ends included: wide enough for any design question, narrow
#: enough that every figure computed from a setting is finite (a confidence of
#: 0.9999999999999999 makes an infinite quantile, a seat advantage of 1e-300 an infinite number
#: of games). targets.yaml's schema, ``Settings`` and ``--bound`` all read them from here.
SETTING_RANGES: dict[str, tuple[float, float]] = {
    "confidence": (0.5, 0.999),
    "seat_advantage": (0.001, 0.5),
    "power": (0.5, 0.999),
    "min_card_games": (0, 1_000_000),
    "equivalence_margin": (0.001, 0.5),
    "near_miss": (0.0, 1000.0),
}
#: The largest goal a target may name, either sign: any figure of a game is far inside this.
MAX_GOAL = 1_000_000


def range_text(low: float, high: float) -> str:
    """``from 0.5 to 0.999``: the one wording of a stated range."""
    def shown(number: float) -> str:
        return f"{int(number):,}" if float(number).is_integer() else f"{number:g}"

    return f"from {shown(low)} to {shown(high)}"


def _in_range(instance: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    low, high = SETTING_RANGES[attribute.name]
    whole = isinstance(low, int) and isinstance(high, int)
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)) or not low <= value <= high:
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"{attribute.name} is {kind} {range_text(low, high)}, not {value!r}")


@attrs.frozen(kw_only=True)
class Settings:
    """How every target is answered. Every share is a fraction (0.5 is 50%).

    - ``confidence`` (0.95): the level of every interval and test.
    - ``seat_advantage`` (0.02) and ``power`` (0.8): the report says how many games it takes to
      detect a seat that wins 2 points more often than the fair share, with 80% power.
    - ``min_card_games`` (30): a crew or planet card in play in fewer games is not judged (too
      little data); its figures are still shown.
    - ``equivalence_margin`` (0.02): a comparison calls a target *equivalent* in two drafts when
      its change lies inside ±this (for measures in shares or points; other measures have
      their own margin, ``Measure.margin``).
    - ``near_miss`` (0.03): a target met (or not yet known) whose value lies within this of its
      goal (3 points of a share) is listed as a near miss in a comparison.
    """

    confidence: float = attrs.field(default=0.95, validator=_in_range)
    seat_advantage: float = attrs.field(default=0.02, validator=_in_range)
    power: float = attrs.field(default=0.8, validator=_in_range)
    min_card_games: int = attrs.field(default=30, validator=_in_range)
    equivalence_margin: float = attrs.field(default=0.02, validator=_in_range)
    near_miss: float = attrs.field(default=0.03, validator=_in_range)


@attrs.frozen(kw_only=True)
class Target:
    """One target: ``measure``, one goal (``goal`` is its kind, ``bound`` its number, or the pair
    ``(low, high)`` for ``between``), ``weight`` (0: shown, never counted in a headline or a
    stopping rule), ``card`` (one subject of a per-card measure), ``margin`` (the change a
    comparison calls equivalent, in the measure's unit), ``players`` and ``lineups`` (the player
    counts and the lineups, as ``--bots`` writes one, of the runs it applies to; None: every
    run) and ``line`` (where targets.yaml sets it)."""

    measure: str
    goal: str
    bound: float | tuple[float, float]
    weight: float = 1.0
    card: str | None = None
    margin: float | None = None
    players: tuple[int, ...] | None = attrs.field(default=None, converter=attrs.converters.optional(tuple))
    lineups: tuple[str, ...] | None = attrs.field(default=None, converter=attrs.converters.optional(tuple))
    line: int | None = attrs.field(default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        if self.measure not in MEASURES:
            close = close_match(self.measure, MEASURES)
            hint = f" (did you mean {close!r}?)" if close else ""
            raise ValueError(f"no measure {self.measure!r}{hint}; measures: {', '.join(MEASURES)}")
        if self.goal not in GOALS:
            raise ValueError(f"a goal is one of {', '.join(GOALS)}, not {self.goal!r}")
        if self.goal == "between":
            low, high = self.bound  # type: ignore[misc]
            if low > high:
                raise ValueError(f"between [{low}, {high}]: the first bound is above the second")
        elif self.goal == "within":
            if self.bound < 0:  # type: ignore[operator]
                raise ValueError(f"within {self.bound}: a distance is 0 or more")
            if MEASURES[self.measure].centre is None:
                raise ValueError(f"{self.measure} has no centre to be within a distance of; use at_most, at_least or between")

    def applies_to(self, players: int, lineup: Sequence[str]) -> bool:
        """Whether the target answers a run of ``players`` with this ``lineup`` (canonical bot
        specs, one a seat): its ``players`` hold the count and one of its ``lineups``, filled to
        ``players`` seats as ``--bots`` fills them, is the lineup."""
        if self.players is not None and players not in self.players:
            return False
        return self.lineups is None or any(_lineup_of(text, players) == tuple(lineup) for text in self.lineups)

    @property
    def key(self) -> str:
        """How the target is named in results: ``crew_picker_advantage``, ``crew_first_pick:navigator``."""
        return f"{self.measure}:{self.card}" if self.card else self.measure

    def miss(self, value: Any, centre: float = 0.0) -> Any:
        """How far ``value`` lies outside the goal (negative: inside, by that much). Works on
        numpy arrays too."""
        if self.goal == "at_most":
            return value - self.bound
        if self.goal == "at_least":
            return self.bound - value
        if self.goal == "within":
            return abs(value - centre) - self.bound
        low, high = self.bound  # type: ignore[misc]
        return _maximum(low - value, value - high)

    def goal_text(self, centre: float | None = None) -> str:
        """``at most 50.0%``, ``within ±3 points of 25.0%``, ``between 6 and 9 rounds``."""
        measure = MEASURES[self.measure]
        if self.goal == "within":
            centre = centre or 0.0
            of = measure.shown(centre) if centre else "0"
            return f"within ±{measure.amount(self.bound)} of {of}"  # type: ignore[arg-type]
        if self.goal == "between":
            low, high = self.bound  # type: ignore[misc]
            first = f"{100 * low:g}" if measure.unit in ("share", "points") else f"{low:g}"
            return f"between {first} and {measure.bound_text(high)}"
        words = "at most" if self.goal == "at_most" else "at least"
        return f"{words} {measure.bound_text(self.bound)}"  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        goal: Any = list(self.bound) if self.goal == "between" else self.bound  # type: ignore[arg-type]
        data: dict[str, Any] = {"measure": self.measure, self.goal: goal, "weight": self.weight}
        if self.card is not None:
            data["card"] = self.card
        if self.margin is not None:
            data["margin"] = self.margin
        if self.players is not None:
            data["players"] = list(self.players)
        if self.lineups is not None:
            data["lineups"] = list(self.lineups)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], line: int | None = None) -> Target:
        goals = [name for name in GOALS if name in data]
        if len(goals) != 1:
            raise ValueError(f"a target has exactly one goal of {', '.join(GOALS)}")
        goal = goals[0]
        bound = tuple(data[goal]) if goal == "between" else data[goal]
        return cls(
            measure=data["measure"],
            goal=goal,
            bound=bound,
            weight=data.get("weight", 1.0),
            card=data.get("card"),
            margin=data.get("margin"),
            players=data.get("players"),
            lineups=data.get("lineups"),
            line=line,
        )


def _lineup_of(text: str, players: int) -> tuple[str, ...] | None:
    """A target's lineup at ``players`` seats (canonical specs), or None when it cannot seat them."""
    from stargazer_rules.errors import BotSpecError, SimulationError
    from stargazer_rules.simulation.planning import parse_lineup

    try:
        return parse_lineup(text, players)
    except (BotSpecError, SimulationError):
        return None


def _maximum(a: Any, b: Any) -> Any:
    import numpy as np

    return np.maximum(a, b)


#: The targets when a ruleset has no targets.yaml: the bounds runs were judged by before.
_DEFAULT_TARGETS = (
    Target(measure="seat_win_share", goal="within", bound=0.03),
    Target(measure="seat_balance", goal="at_least", bound=0.90),
    Target(measure="tie_rate", goal="at_most", bound=0.10),
    Target(measure="crew_first_pick", goal="at_most", bound=0.50),
    Target(measure="crew_pick_share", goal="at_least", bound=0.20),
    Target(measure="crew_picker_advantage", goal="within", bound=0.10),
    Target(measure="planet_first_place_accident", goal="at_most", bound=0.50),
    Target(measure="accident_row_reached", goal="at_least", bound=0.01),
    Target(measure="round_limit_share", goal="at_most", bound=0.0),
)

#: The names ``--bound`` took before targets, each the goal of one default target.
LEGACY_BOUNDS = {
    "min_balance": "seat_balance",
    "max_tie_rate": "tie_rate",
    "max_first_pick_share": "crew_first_pick",
    "min_pick_share": "crew_pick_share",
    "max_picker_advantage": "crew_picker_advantage",
    "max_accident_rate": "planet_first_place_accident",
    "max_round_limit_share": "round_limit_share",
}


@attrs.frozen(kw_only=True)
class Targets:
    """The targets a run is judged by, with the ``settings`` of every answer, and ``source``
    (the file they were read from, or ``"defaults"``)."""

    targets: tuple[Target, ...] = attrs.field(converter=tuple)
    settings: Settings = attrs.field(factory=Settings)
    source: str = attrs.field(default="defaults", eq=False)

    @classmethod
    def default(cls, **overrides: float) -> Targets:
        """The default targets, with ``NAME=VALUE`` overrides as ``with_settings`` takes them."""
        targets = cls(targets=_DEFAULT_TARGETS)
        return targets.with_settings(f"{name}={value}" for name, value in overrides.items())

    @property
    def confidence(self) -> float:
        return self.settings.confidence

    def to_json(self) -> dict[str, Any]:
        return {"settings": attrs.asdict(self.settings), "targets": [t.to_json() for t in self.targets]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "defaults") -> Targets:
        return cls(
            targets=[Target.from_json(item) for item in data["targets"]],
            settings=Settings(**data.get("settings", {})),
            source=source,
        )

    def for_variant(self, players: int, lineup: Sequence[str]) -> Targets:
        """The targets that apply to a run of ``players`` with ``lineup`` (``Target.applies_to``):
        each run of several lineups or player counts is judged by these alone."""
        return attrs.evolve(self, targets=[t for t in self.targets if t.applies_to(players, lineup)])

    def with_settings(self, settings: Iterable[str]) -> Targets:
        """These targets with ``NAME=VALUE`` settings applied (the command line's ``--bound``).

        ``NAME`` is a setting (``confidence``, ``min_card_games``, ...), a measure whose targets
        have a one-number goal (``tie_rate=0.15``: every target of that measure gets the bound;
        for ``between``, ``game_rounds=6..9``), or one of the bounds' former names
        (``max_tie_rate``), which set the goal of their default target, adding it if absent.
        Raises ``ValueError`` naming the setting for an unknown name (with a did-you-mean) or a
        value out of range.
        """
        result = self
        for text in settings:
            result = result._with(text)
        return result

    def _with(self, text: str) -> Targets:
        name, value = parse_setting(text)
        if name in _SETTING_NAMES:
            return attrs.evolve(self, settings=attrs.evolve(self.settings, **{name: value}))
        measure = LEGACY_BOUNDS.get(name, name)
        matching = [t for t in self.targets if t.measure == measure]
        if not matching:
            default = next((t for t in _DEFAULT_TARGETS if t.measure == measure), None)
            if default is None:
                raise ValueError(
                    f"{text}: no target of {measure} to change; add one to targets.yaml "
                    f"(for example {{measure: {measure}, at_least: {text.partition('=')[2].strip()}}})"
                )
            targets = [*self.targets, attrs.evolve(default, bound=value)]
        else:
            targets = list(self.targets)
        changed = []
        for target in targets:
            if target.measure != measure:
                changed.append(target)
                continue
            if isinstance(value, tuple) != (target.goal == "between"):
                form = "LOW..HIGH" if target.goal == "between" else "one number"
                raise ValueError(f"{text}: the {target.goal} goal of {measure} takes {form}")
            problem = goal_problem(measure, target.goal, value)
            if problem is not None:
                raise ValueError(f"{text}: {problem}")
            changed.append(attrs.evolve(target, bound=value))
        return attrs.evolve(self, targets=changed)


_SETTING_NAMES = {field.name: field for field in attrs.fields(Settings)}

def goal_problem(measure_name: str, goal: str, value: Any) -> str | None:
    """Why ``value`` cannot be the ``goal`` of a target of ``measure_name`` (a number out of
    the measure's range), or None: the one check of a goal's numbers, for targets.yaml and
    ``--bound`` alike."""
    measure = MEASURES[measure_name]
    numbers = list(value) if goal == "between" else [value]
    for number in numbers:
        if not math.isfinite(number):
            return f"{number} is not a finite number"
    if goal == "between" and numbers[0] > numbers[1]:
        return f"between [{numbers[0]}, {numbers[1]}]: the first value is above the second"
    if measure.unit in ("share", "points"):
        low = -1 if measure.unit == "points" else 0
        for number in numbers:
            if not low <= number <= 1:
                return (
                    f"{number} is not a share: {measure.name} is a fraction ({'-1 to 1' if low else '0 to 1'}; "
                    f"write 0.5 for 50%)"
                )
    low = 0 if goal == "within" else -MAX_GOAL
    for number in numbers:
        if not low <= number <= MAX_GOAL:
            return f"{number} is out of range: a goal of {measure.name} is {range_text(low, MAX_GOAL)}"
    return None


def parse_setting(text: str) -> tuple[str, Any]:
    """``"max_tie_rate=0.15"`` -> ``("max_tie_rate", 0.15)``, checked; ``"game_rounds=6..9"`` ->
    ``("game_rounds", (6.0, 9.0))``."""
    name, separator, raw = (part.strip() for part in text.partition("="))
    if not separator or not name or not raw:
        raise ValueError(f"{text!r} is not NAME=VALUE (for example tie_rate=0.15)")
    known = [*_SETTING_NAMES, *LEGACY_BOUNDS, *MEASURES]
    if name not in known:
        close = close_match(name, known)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ValueError(f"no setting or measure {name!r}{hint}; settings: {', '.join(_SETTING_NAMES)}; "
                         f"measures: {', '.join(MEASURES)}")
    if name in _SETTING_NAMES:
        low, high = SETTING_RANGES[name]
        whole = isinstance(low, int) and isinstance(high, int)
        try:
            value: Any = number_from_text(raw, whole)
        except ValueError:
            what = "a whole number" if whole else "a number"
            raise ValueError(f"{name}={raw}: {raw!r} is not {what} in ASCII digits ({range_text(low, high)})") from None
        try:
            Settings(**{name: value})
        except ValueError as error:
            raise ValueError(f"{name}={raw}: {error}") from None
        return name, value
    try:
        if ".." in raw:
            low_text, _, high_text = raw.partition("..")
            value = (number_from_text(low_text.strip()), number_from_text(high_text.strip()))
        else:
            value = number_from_text(raw)
    except ValueError:
        raise ValueError(f"{name}={raw}: {raw!r} is not a number in ASCII digits (or LOW..HIGH)") from None
    measure = LEGACY_BOUNDS.get(name, name)
    problem = goal_problem(measure, "between" if isinstance(value, tuple) else "at_most", value)
    if problem is not None:
        raise ValueError(f"{name}={raw}: {problem}")
    return name, value
