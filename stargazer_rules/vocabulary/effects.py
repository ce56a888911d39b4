"""The skill vocabulary: one class per effect, named exactly as in the crew YAML.

A crew's skill is a list of effects. The loader builds each from its YAML mapping through a
registry (``EFFECT_TYPES``, name -> class); the engine runs them and never looks at crew ids.
Each effect type declares, once and on its class, everything the other layers read of it: its
parameters (``params``), timings, the parameter values that need one timing
(``timing_requirements``, refused elsewhere by ``rulesets.checks``) and the sentence of the
target decision it asks for (``target_message``, read by ``text.messages``). The loader's
checks and the crew schema's effect section (``rulesets.schemas.effect_schema``) are both
generated from these declarations.

Timing (``when``) says at which point of the turn an effect resolves:

- ``on_choose``: right after the worker is placed and the motivation bonus taken (R5);
- ``survey``: changes this turn's survey (count, walk limits); resolved with ``on_choose``;
- ``after_survey``: after the survey's cubes are placed;
- ``round_end``: at the end of the round, after free cubes are added (R11, R12), and only if
  the game goes on.

An effect that needs a decision returns its options from ``choices``; the engine turns them
into a pending decision for the chooser. Options that cannot be applied are never offered, and
an effect with no option left is skipped with an event (R9).

New effect types for ideas the vocabulary lacks: subclass ``Effect``, declare ``name``,
``timings``, ``params`` and the two methods, and pass ``extend_effect_types(EFFECT_TYPES, New)``
to ``load_ruleset``. See docs/skills.md.

This module is the bottom of the package with ``actions``, ``events`` and ``table``: it imports
nothing of the rulesets or the engine, which both import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import (
    CHOOSE_OPTION,
    NAME_START_PLAYER,
    TARGET_CREW,
    TARGET_PLANET,
    Action,
    action,
)

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table

ON_CHOOSE = "on_choose"
SURVEY = "survey"
AFTER_SURVEY = "after_survey"
ROUND_END = "round_end"
TIMINGS = (ON_CHOOSE, SURVEY, AFTER_SURVEY, ROUND_END)

#: Owner number of a free cube on a Planet: it belongs to the virtual player (R15).
FREE_CUBE_OWNER = -1

# Survey rule flags, set by the effects that lift the walk's limits (R8).
REPEAT = 1
SKIP = 2
DIRECTION = 4


class _Required:
    """Marks a parameter without a default."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@attrs.frozen
class Param:
    """One parameter of an effect type, declared once for the loader, the schema and the docs.

    ``kind`` is ``integer``, ``choice`` (one of ``choices``), ``colour`` (a colour id of the
    ruleset) or ``options`` (a list of effect lists, for ``choose_one``). A parameter with a
    ``default`` may be left out of the YAML.
    """

    name: str
    kind: str
    description: str
    minimum: int | None = None
    choices: tuple[str, ...] = ()
    default: Any = REQUIRED
    required_when: tuple[str, str] | None = None  # (other param, value) that makes it required

    @property
    def required(self) -> bool:
        return self.default is REQUIRED and self.required_when is None


@attrs.frozen
class TimingRequirement:
    """A parameter value that only makes sense at one timing: ``param: value`` needs ``when: timing``.

    The loader refuses the value at any other timing, naming both (``rulesets.checks``).
    """

    param: str
    value: Any
    timing: str


@attrs.frozen(kw_only=True)
class Effect:
    """Base of every effect type. ``when`` is the effect's timing, one of its type's ``timings``."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    timings: ClassVar[tuple[str, ...]] = ()
    params: ClassVar[tuple[Param, ...]] = ()
    #: Parameter values that only make sense at one of its timings.
    timing_requirements: ClassVar[tuple[TimingRequirement, ...]] = ()
    #: The action message (text/messages.yaml, ``actions``) of the target decision it asks
    #: for; empty for the plain ``target_planet`` / ``target_crew`` sentence.
    target_message: ClassVar[str] = ""

    when: str

    @property
    def steps(self) -> int:
        """How many times the effect resolves (a counted effect places ``count`` cubes one by one)."""
        return 1

    @property
    def vp_per_step(self) -> int | None:
        """The most VP one step scores for the chooser; None when the type cannot say.

        It bounds the VP a seat may hold (``bounds.StateBounds``). A new type that does not
        override this leaves the VP of its rulesets unbounded.
        """
        return None

    @property
    def survey_bonus_per_step(self) -> int | None:
        """What one step adds to this turn's survey count (``survey_bonus``, R7), negative to
        take away; None when the type cannot say (the bonus is then unbounded)."""
        return None

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...] | None:
        """The options of the decision this effect asks ``seat`` for; None when it needs none.

        ``slot`` is the crew slot whose skill is resolving. An empty tuple means the effect
        cannot be applied now and is skipped (R9).
        """
        return None

    def most_choices(self, *, players: int, planets: int, crews: int) -> int | None:
        """The most options ``choices`` can ever offer at a table of at most ``players`` seats,
        ``planets`` Planets and ``crews`` crew slots; None when the type cannot say.

        It bounds the legal actions a state may list (``Game.most_legal_actions``), so that a
        server refuses a state listing more before reading it. A type that asks no decision
        offers 0; a new type that asks one and does not override this is unbounded (None).
        """
        return 0 if type(self).choices is Effect.choices else None

    def apply(
        self, table: Table, seat: int, slot: int, choice: Action | None
    ) -> tuple[tuple[int, ...], ...]:
        """Apply one step for ``seat``; return paths (relative to this effect) to resolve next."""
        raise NotImplementedError

    @property
    def branches(self) -> tuple[tuple[Effect, ...], ...]:
        """Effect lists nested in this one (the options of ``choose_one``); the engine indexes them."""
        return ()

    @property
    def moves_cubes(self) -> bool:
        """Whether the effect can ever take a cube out of a hand or put one on a Planet's track.

        A game ends (R10) only when a hand is empty or Planets are full; a ruleset where no
        survey and no effect can do either ends only at the round limit, which ``stargazer
        validate`` warns about. True unless a type knows better, so a new effect type is never
        the cause of a false warning.
        """
        return True

    def can_apply(self, table: Table, seat: int, slot: int) -> bool:
        options = self.choices(table, seat, slot)
        return options is None or len(options) > 0

    def to_data(self) -> dict[str, Any]:
        """The effect as it is written in YAML (defaults included)."""
        data: dict[str, Any] = {"effect": self.name}
        for param in self.params:
            value = getattr(self, param.name)
            if value is None:
                continue
            if param.kind == "options":
                value = [[effect.to_data() for effect in option] for option in value]
            data[param.name] = value
        data["when"] = self.when
        return data


_NO_FOLLOW_UP: tuple[tuple[int, ...], ...] = ()

_COUNT = Param("count", "integer", "How many cubes, placed one at a time.", minimum=1, default=1)


@attrs.frozen(kw_only=True)
class _Counted(Effect):
    """Base of the effects that move ``count`` cubes one at a time, a decision for each."""

    params: ClassVar[tuple[Param, ...]] = (_COUNT,)

    count: int = 1

    @property
    def steps(self) -> int:
        return self.count

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class _SurveyRule(Effect):
    """Base of the effects that lift a limit of this turn's survey: each sets one flag."""

    timings: ClassVar[tuple[str, ...]] = (SURVEY,)
    flag: ClassVar[int] = 0

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        table.survey_rules |= self.flag
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP

    @property
    def moves_cubes(self) -> bool:
        return False

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class AddFreeCubes(_Counted):
    """Free cubes from the stock onto another crew of the chooser's choice, within the cap (R11)."""

    name: ClassVar[str] = "add_free_cubes"
    summary: ClassVar[str] = (
        "Move free cubes from the stock onto other crews, one at a time, each onto a crew the "
        "chooser picks that holds fewer than the free-cube cap."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    target_message: ClassVar[str] = "target_crew_free_cube"

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.stock == 0:
            return ()
        cap = table.game.ruleset.max_free_cubes_per_crew
        free = table.crew_free
        return tuple(
            action(TARGET_CREW, other)
            for other in range(len(free))
            if other != slot and free[other] < cap
        )

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return crews - 1

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.stock_to_crew(choice.target)
        return _NO_FOLLOW_UP

    @property
    def moves_cubes(self) -> bool:
        return False


@attrs.frozen(kw_only=True)
class AllowRepeatPlanet(_SurveyRule):
    """This turn's survey may put two cubes in a row on the same Planet (lifts the R8 limit)."""

    name: ClassVar[str] = "allow_repeat_planet"
    summary: ClassVar[str] = (
        "This turn's survey is made cube by cube and may stay on the Planet it is on for "
        "another cube, instead of moving on."
    )
    flag: ClassVar[int] = REPEAT


@attrs.frozen(kw_only=True)
class ChangeSurveyCount(Effect):
    """Add ``delta`` (negative to take away) to this turn's survey count (R7)."""

    name: ClassVar[str] = "change_survey_count"
    summary: ClassVar[str] = (
        "Add to (or, negative, take from) the chosen crew's survey count for this turn; the "
        "count never drops below 0."
    )
    timings: ClassVar[tuple[str, ...]] = (SURVEY,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("delta", "integer", "Cubes added to the survey count this turn (may be negative)."),
    )

    delta: int

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        table.survey_bonus += self.delta
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP

    @property
    def moves_cubes(self) -> bool:
        return self.delta > 0  # a larger survey places cubes from hand

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return self.delta


@attrs.frozen(kw_only=True)
class ChooseDirection(_SurveyRule):
    """This turn's survey may walk counter-clockwise instead of clockwise (R8)."""

    name: ClassVar[str] = "choose_direction"
    summary: ClassVar[str] = (
        "The survey's walk may go counter-clockwise instead of clockwise; the chooser decides "
        "with the start Planet."
    )
    flag: ClassVar[int] = DIRECTION


@attrs.frozen(kw_only=True)
class ChooseOne(Effect):
    """The chooser picks one option, a list of effects, among those that can be applied (R9)."""

    name: ClassVar[str] = "choose_one"
    summary: ClassVar[str] = (
        "The chooser picks one of the options, each a list of effects; only options with at "
        "least one effect that can be applied are offered."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "options",
            "options",
            "Two or more options; each is a list of effects that resolve in order when picked.",
            minimum=2,
        ),
    )

    options: tuple[tuple[Effect, ...], ...]

    @property
    def branches(self) -> tuple[tuple[Effect, ...], ...]:
        return self.options

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        return tuple(
            action(CHOOSE_OPTION, index)
            for index, option in enumerate(self.options)
            if any(effect.can_apply(table, seat, slot) for effect in option)
        )

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return len(self.options)

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.log("option_chosen", player=seat, crew=table.crew_id(slot), option=choice.target)
        return tuple((choice.target, index) for index in range(len(self.options[choice.target])))

    @property
    def moves_cubes(self) -> bool:
        return any(effect.moves_cubes for option in self.options for effect in option)

    @property
    def vp_per_step(self) -> int:
        return 0  # its options' effects score, each bounded on its own

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class GainVP(Effect):
    """Score VP at once (R18 counts them as VP scored during play)."""

    name: ClassVar[str] = "gain_vp"
    summary: ClassVar[str] = "Score VP at once."
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (Param("vp", "integer", "VP scored.", minimum=1),)

    vp: int

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        table.add_vp(seat, self.vp)
        table.log("vp_gained", player=seat, crew=table.crew_id(slot), vp=self.vp)
        return _NO_FOLLOW_UP

    @property
    def moves_cubes(self) -> bool:
        return False

    @property
    def vp_per_step(self) -> int:
        return self.vp

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class MaySkipPlanets(_SurveyRule):
    """This turn's survey may skip Planets: each cube goes to any Planet with room (R8 lifted)."""

    name: ClassVar[str] = "may_skip_planets"
    summary: ClassVar[str] = (
        "This turn's survey is made cube by cube and may skip Planets: each cube goes on any "
        "Planet with room other than the one that just got a cube."
    )
    flag: ClassVar[int] = SKIP


@attrs.frozen(kw_only=True)
class NameStartPlayer(Effect):
    """At round end the chooser names the next start player, any seat (R12, R19)."""

    name: ClassVar[str] = "name_start_player"
    summary: ClassVar[str] = (
        "At the end of the round, if the game goes on, the chooser names the next start "
        "player (any seat, their own included)."
    )
    timings: ClassVar[tuple[str, ...]] = (ROUND_END,)

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        return tuple(action(NAME_START_PLAYER, other) for other in range(table.players))

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return players

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.start_player = choice.target
        table.log("start_player_named", player=seat, start_player=choice.target)
        return _NO_FOLLOW_UP

    @property
    def moves_cubes(self) -> bool:
        return False

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class PlaceFreeCubes(_Counted):
    """Free cubes from the stock onto Planets' normal squares, one at a time (R2, R15)."""

    name: ClassVar[str] = "place_free_cubes"
    summary: ClassVar[str] = (
        "Move free cubes from the stock onto the next square of Planets the chooser picks, one "
        "at a time; they belong to the virtual player."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    target_message: ClassVar[str] = "target_planet_free_cube"

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.stock == 0:
            return ()
        return tuple(action(TARGET_PLANET, p) for p in table.planets_with_room())

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return planets

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.stock -= 1
        table.place_on_track(choice.target, FREE_CUBE_OWNER)
        return _NO_FOLLOW_UP


@attrs.frozen(kw_only=True)
class PlaceOnCrew(_Counted):
    """The chooser's cubes from hand onto other crews, one at a time (feeding R6's 2-VP bonus)."""

    name: ClassVar[str] = "place_on_crew"
    summary: ClassVar[str] = (
        "Move the chooser's cubes from hand onto other crews, one at a time; whoever chooses "
        "such a crew later scores the player-cube motivation bonus for them."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    target_message: ClassVar[str] = "target_crew_cube"

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.hands[seat] == 0:
            return ()
        return tuple(action(TARGET_CREW, other) for other in range(table.crew_count) if other != slot)

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return crews - 1

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.hand_to_crew(seat, choice.target)
        return _NO_FOLLOW_UP


#: Which Planets a ``place_on_special`` effect may use.
SPECIAL_TARGETS = ("any", "colour", "surveyed")


@attrs.frozen(kw_only=True)
class PlaceOnSpecial(_Counted):
    """The chooser's cubes from hand onto special squares with room, one at a time (R3)."""

    name: ClassVar[str] = "place_on_special"
    summary: ClassVar[str] = (
        "Move the chooser's cubes from hand onto special squares with room, one at a time, on "
        "any Planet, on Planets of one colour, or on Planets surveyed this turn."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (
        _COUNT,
        Param(
            "planets",
            "choice",
            "Which Planets: any, those of one colour, or those that got a cube in this turn's "
            "survey (needs when: after_survey).",
            choices=SPECIAL_TARGETS,
            default="any",
        ),
        Param(
            "colour",
            "colour",
            "The colour id, when planets is colour.",
            required_when=("planets", "colour"),
        ),
    )
    #: Planets "surveyed this turn" exist only once the survey has been made.
    timing_requirements: ClassVar[tuple[TimingRequirement, ...]] = (
        TimingRequirement("planets", "surveyed", AFTER_SURVEY),
    )
    target_message: ClassVar[str] = "target_planet_special"

    planets: str = "any"
    colour: str | None = None

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.hands[seat] == 0:
            return ()
        if self.planets == "surveyed":
            candidates = sorted(table.surveyed)
        elif self.planets == "colour":
            candidates = [p for p in range(table.planet_count) if table.colour_of(p) == self.colour]
        else:
            candidates = range(table.planet_count)
        return tuple(action(TARGET_PLANET, p) for p in candidates if table.special_room(p) > 0)

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return planets

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.hand_to_special(seat, choice.target)
        return _NO_FOLLOW_UP


_BUILT_IN: tuple[type[Effect], ...] = (
    AddFreeCubes,
    AllowRepeatPlanet,
    ChangeSurveyCount,
    ChooseDirection,
    ChooseOne,
    GainVP,
    MaySkipPlanets,
    NameStartPlayer,
    PlaceFreeCubes,
    PlaceOnCrew,
    PlaceOnSpecial,
)


def extend_effect_types(
    base: Mapping[str, type[Effect]], *new_types: type[Effect]
) -> Mapping[str, type[Effect]]:
    """A new registry: ``base`` plus ``new_types``. ``base`` is copied, never changed.

    Raises ``ValueError`` for a type without a name, timings, or with a name already taken, and
    for a timing requirement that names a parameter or a timing the type does not have.
    """
    table = dict(base)
    for cls in new_types:
        if not cls.name or not cls.timings:
            raise ValueError(f"effect type {cls.__qualname__} must declare name and timings")
        if not set(cls.timings) <= set(TIMINGS):
            raise ValueError(f"effect type {cls.name!r}: timings must be among {TIMINGS}")
        if cls.name in table:
            raise ValueError(f"effect type {cls.name!r} is already registered")
        params = [param.name for param in cls.params]
        for need in cls.timing_requirements:
            if need.param not in params or need.timing not in cls.timings:
                raise ValueError(
                    f"effect type {cls.name!r}: the timing requirement '{need.param}: {need.value} "
                    f"needs when: {need.timing}' must name one of its params "
                    f"({', '.join(params) or 'none'}) and one of its timings ({', '.join(cls.timings)})"
                )
        table[cls.name] = cls
    return MappingProxyType(dict(sorted(table.items())))


#: The built-in vocabulary, alphabetised: effect name -> effect class.
EFFECT_TYPES: Mapping[str, type[Effect]] = extend_effect_types({}, *_BUILT_IN)

#: The survey rules by the name of the effect that sets each: name -> its flag (R8). A state's
#: ``survey_rules`` holds their flags; its JSON names them so.
SURVEY_RULE_FLAGS: Mapping[str, int] = MappingProxyType(
    {name: cls.flag for name, cls in EFFECT_TYPES.items() if issubclass(cls, _SurveyRule)}
)
