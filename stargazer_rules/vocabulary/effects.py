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

import contextlib
import contextvars
import keyword
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import (
    CHOOSE_OPTION,
    NAME_START_PLAYER,
    TARGET_CREW,
    TARGET_PLANET,
    TARGET_SEAT,
    Action,
    action,
)
from stargazer_rules.vocabulary.expressions import (
    AMOUNT,
    CONDITION,
    CREWS,
    PLANETS,
    SEATS,
    Amount,
    ConditionNode,
    Limits,
    Scope,
    SeatsNamed,
    SetNode,
    amount_bounds,
    amount_data,
    amount_value,
)

from stargazer_rules.vocabulary.table import PROTECTION_UNTIL, SETUP_STAGE, _bump

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table

ON_CHOOSE = "on_choose"
SURVEY = "survey"
AFTER_SURVEY = "after_survey"
ROUND_END = "round_end"
TIMINGS = (ON_CHOOSE, SURVEY, AFTER_SURVEY, ROUND_END)

#: Owner number of a free cube on a Planet: it belongs to the virtual player (R15).
FREE_CUBE_OWNER = -1

#: The parameter kinds that hold an expression of the rules language (``vocabulary.expressions``).
EXPRESSION_KINDS = (AMOUNT, CONDITION, PLANETS, SEATS, CREWS)
#: Whose cubes a rules-language action moves: a set of seats, ``free`` or ``anyone``.
OWNER = "owner"

# Survey rule flags, set by the effects that change the walk (R8): a limit lifted, a forced
# counter-clockwise direction, or the skill's ``survey_start`` in force.
REPEAT = 1
SKIP = 2
DIRECTION = 4
COUNTER = 8
START = 16
#: The flags that make a survey cube by cube (``survey_step``, ``survey_stop``) instead of one
#: whole-walk decision: each changes the walk in a way one ``survey`` action cannot say.
STEP_RULES = REPEAT | SKIP | COUNTER | START
#: ``survey_skips`` when a survey may skip without limit (or may not skip at all).
NO_SKIP_LIMIT = -1


class _Required:
    """Marks a parameter without a default."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@attrs.frozen
class Param:
    """One parameter of an effect type, declared once for the loader, the schema and the docs.

    ``kind`` is ``integer``, ``choice`` (one of ``choices``), ``colour`` (a colour id of the
    ruleset), ``options`` (a list of effect lists, for ``choose_one``), ``effects`` (one effect
    list: the branches of ``if``, the body of ``choose`` and ``for_each``), or an expression of
    the rules language: ``amount``, ``condition``, ``planets``, ``seats``, ``crews`` or
    ``owner`` (a set of seats, ``free`` or ``anyone``). A parameter with a ``default`` may be
    left out of the YAML; an expression's default is written as in YAML.
    """

    name: str
    kind: str
    description: str
    minimum: int | None = None
    choices: tuple[str, ...] = ()
    default: Any = REQUIRED
    required_when: tuple[str, str] | None = None  # (other param, value) that makes it required
    #: The set kind an expression parameter sees bound (``this_planet`` in ``move_cube``'s ``to``).
    binds: str | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED and self.required_when is None

    @property
    def attribute(self) -> str:
        """The attribute that holds it on the effect: its name, with ``_`` after a Python
        keyword (``from``, ``else``)."""
        return self.name + "_" if keyword.iskeyword(self.name) else self.name


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

    def most_vp(self, limits: Limits) -> int | None:
        """The most VP one step scores for the chooser, from the ruleset's ``limits``; None
        when it cannot say. By default ``vp_per_step``: the rules language's types compute it
        from their amounts' bounds."""
        return self.vp_per_step

    def most_landings(self, limits: Limits) -> int | None:
        """The most cubes one step lands on Planets (normal and special squares), each a
        ``cube_placed`` event of the planet abilities (``bounds.ability_vp``); nested effect
        lists are counted by the caller. None when the type cannot say: 0 for a type that
        never moves a cube."""
        return None if self.moves_cubes else 0

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        """The least and most one step changes this turn's survey count by (R7); by default
        ``survey_bonus_per_step`` both ways."""
        value = self.survey_bonus_per_step
        return (value, value)

    #: True for a type that asks no decision and performs at once on a ``Scope``: only such
    #: effects may stand in the body of ``choose`` and ``for_each`` (their consequences
    #: resolve with the choice, docs/skills.md).
    immediate: ClassVar[bool] = False

    def perform(self, scope: Scope) -> None:
        """Perform the effect at once (an ``immediate`` type)."""
        raise NotImplementedError

    def can_perform(self, scope: Scope) -> bool:
        """Whether ``perform`` would change anything (R9: else it is skipped)."""
        return True

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
        """Effect lists nested in this one that resolve as pending effects (the options of
        ``choose_one``, the branches of ``if``); the engine indexes them by path."""
        return ()

    @property
    def bodies(self) -> tuple[tuple[Effect, ...], ...]:
        """Effect lists this one performs at once inside itself (the ``do`` of ``choose`` and
        ``for_each``): never pending, so not indexed; the text, the checks and the kernel read them."""
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

    @classmethod
    def binds(cls, param: Param, data: Mapping[str, Any]) -> frozenset[str]:
        """The set kinds bound for parameter ``param`` of an effect written as ``data``:
        ``this_planet``, ``this_seat`` or ``this_crew`` read there (``Param.binds``)."""
        return frozenset((param.binds,)) if param.binds else frozenset()

    def can_apply(self, table: Table, seat: int, slot: int) -> bool:
        options = self.choices(table, seat, slot)
        return options is None or len(options) > 0

    def to_data(self) -> dict[str, Any]:
        """The effect as it is written in YAML (defaults included)."""
        data: dict[str, Any] = {"effect": self.name}
        for param in self.params:
            value = getattr(self, param.attribute)
            if value is None:
                continue
            if param.kind == "options":
                value = [[effect.to_data() for effect in option] for option in value]
            elif param.kind == "effects":
                value = [effect.to_data() for effect in value]
            elif param.kind == AMOUNT:
                value = amount_data(value)
            elif param.kind in EXPRESSION_KINDS or param.kind == OWNER:
                value = value if isinstance(value, str) and param.kind == OWNER else value.to_data()
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
    immediate: ClassVar[bool] = True
    flag: ClassVar[int] = 0

    @property
    def survey_flags(self) -> int:
        """The survey-rule flags this effect sets (the action index reads ``DIRECTION``)."""
        return self.flag

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        table.survey_rules |= self.flag
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP

    def perform(self, scope: Scope) -> None:
        self.apply(scope.table, scope.me, scope.crew, None)

    @property
    def moves_cubes(self) -> bool:
        return False

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0

    def most_landings(self, limits: Limits) -> int:
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

    def most_landings(self, limits: Limits) -> int:
        return 0


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
        Param("delta", AMOUNT, "Cubes added to the survey count this turn (an amount; may be negative)."),
    )
    immediate: ClassVar[bool] = True

    delta: Amount

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        delta = self.delta
        table.survey_bonus += delta if type(delta) is int else amount_value(delta, Scope(table, seat, slot))
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP

    def perform(self, scope: Scope) -> None:
        scope.table.survey_bonus += amount_value(self.delta, scope)
        scope.table.log_effect(scope.me, scope.crew, self)

    @property
    def moves_cubes(self) -> bool:
        return type(self.delta) is not int or self.delta > 0  # a larger survey places cubes from hand

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int | None:
        return self.delta if type(self.delta) is int else None

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        return amount_bounds(self.delta, limits)

    def most_landings(self, limits: Limits) -> int:
        return 0


@attrs.frozen(kw_only=True)
class ChooseDirection(_SurveyRule):
    """This turn's survey may walk counter-clockwise instead of clockwise (R8)."""

    name: ClassVar[str] = "choose_direction"
    summary: ClassVar[str] = (
        "The survey's walk may go counter-clockwise instead of clockwise; the chooser decides "
        "with the start Planet."
    )
    flag: ClassVar[int] = DIRECTION

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        # The latest direction resolved this turn holds: either way, no longer a forced one.
        table.survey_rules = (table.survey_rules & ~COUNTER) | DIRECTION
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP


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

    def most_landings(self, limits: Limits) -> int:
        return 0


#: ``gain_vp``'s and ``lose_vp``'s default ``to``: the chooser.
ME = SeatsNamed("me")
_TO = Param("to", SEATS, "The seats that gain or lose, each the amount (default you, the chooser).", default="me")


def _to_data(effect: Effect, data: dict[str, Any]) -> dict[str, Any]:
    """An effect's data without ``to`` when it is the chooser: the form every ruleset written
    before ``to`` keeps (and with it its fingerprint)."""
    if data.get("to") == "me":
        del data["to"]
    return data


@attrs.frozen(kw_only=True)
class GainVP(Effect):
    """Score VP at once (R18 counts them as VP scored during play): the chooser, or each seat of ``to``."""

    name: ClassVar[str] = "gain_vp"
    summary: ClassVar[str] = "Score VP at once: you, or each seat of to."
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY, ROUND_END)
    params: ClassVar[tuple[Param, ...]] = (
        Param("vp", AMOUNT, "VP scored (an amount; below 0 scores nothing).", minimum=1),
        _TO,
    )
    immediate: ClassVar[bool] = True

    vp: Amount
    to: SetNode = ME

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        if self.to != ME:
            self.perform(Scope(table, seat, slot))
            return _NO_FOLLOW_UP
        vp = self.vp
        if type(vp) is not int:
            vp = max(0, amount_value(vp, Scope(table, seat, slot)))
        table.add_vp(seat, vp)
        table.log("vp_gained", player=seat, crew=table.crew_id(slot), vp=vp)
        return _NO_FOLLOW_UP

    def perform(self, scope: Scope) -> None:
        _gain(scope, self.vp, self.to)

    def to_data(self) -> dict[str, Any]:
        return _to_data(self, super().to_data())

    @property
    def moves_cubes(self) -> bool:
        return False

    @property
    def vp_per_step(self) -> int | None:
        return self.vp if type(self.vp) is int and self.to == ME else None

    def most_vp(self, limits: Limits) -> int | None:
        return _most(self.vp, limits)

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


@attrs.frozen(kw_only=True)
class MaySkipPlanets(_SurveyRule):
    """This turn's survey may skip Planets (R8 lifted): each cube goes to any Planet with room,
    or, with ``at_most``, walks on in its direction passing at most that many Planets with room
    in all."""

    name: ClassVar[str] = "may_skip_planets"
    summary: ClassVar[str] = (
        "This turn's survey is made cube by cube and may skip Planets: each cube goes on any "
        "Planet with room other than the one that just got a cube; with at_most, the survey "
        "walks on in its direction and passes at most that many Planets with room in all."
    )
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "at_most",
            AMOUNT,
            "The most Planets with room the whole survey may pass over (an amount); left out, no limit.",
            minimum=0,
            default=None,
        ),
    )
    flag: ClassVar[int] = SKIP

    at_most: Amount | None = None

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        self.perform(Scope(table, seat, slot))
        return _NO_FOLLOW_UP

    def perform(self, scope: Scope) -> None:
        table = scope.table  # the limit is read where it stands (a body's member bound)
        table.survey_skips = NO_SKIP_LIMIT if self.at_most is None else skip_limit(amount_value(self.at_most, scope), table)
        table.survey_rules |= SKIP
        table.log_effect(scope.me, scope.crew, self)


def most_skips(cubes_per_player: int, planets: int) -> int:
    """The most Planets a survey could ever pass over: each cube of a hand (R13) passing every
    other Planet of a ring of ``planets``. A skip limit past it changes nothing, so a state
    keeps a limit within it (``skip_limit``) and ``StateBounds.most_survey_skips`` is it."""
    return cubes_per_player * max(0, planets - 1)


def skip_limit(value: int, table: Table) -> int:
    """A survey's skip limit as a state keeps it: within 0 and ``most_skips`` of the ring."""
    return max(0, min(value, most_skips(table.game.ruleset.cubes_per_player, len(table.planets))))


#: The directions ``set_survey_direction`` may set: either way (the chooser decides, as
#: ``choose_direction``), or one forced.
SURVEY_DIRECTIONS = ("either", "clockwise", "counter_clockwise")


@attrs.frozen(kw_only=True)
class SetSurveyDirection(_SurveyRule):
    """This turn's survey walks in the direction given (R8 walks clockwise): either way, or a
    forced one; the latest direction resolved this turn holds."""

    name: ClassVar[str] = "set_survey_direction"
    summary: ClassVar[str] = (
        "This turn's survey walks the way given: either (the chooser decides, as "
        "choose_direction), clockwise, or counter-clockwise (then cube by cube)."
    )
    params: ClassVar[tuple[Param, ...]] = (
        Param("direction", "choice", "either, clockwise or counter_clockwise.", choices=SURVEY_DIRECTIONS),
    )

    direction: str

    @property
    def survey_flags(self) -> int:
        return {"either": DIRECTION, "clockwise": 0, "counter_clockwise": COUNTER}[self.direction]

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        table.survey_rules = (table.survey_rules & ~(DIRECTION | COUNTER)) | self.survey_flags
        table.log_effect(seat, slot, self)
        return _NO_FOLLOW_UP


@attrs.frozen(kw_only=True)
class SurveyStart(_SurveyRule):
    """Where this turn's survey may start, how many cubes go on its start Planet, and what is
    done there before the walk (R7, R8); the survey is then made cube by cube."""

    name: ClassVar[str] = "survey_start"
    summary: ClassVar[str] = (
        "This turn's survey starts on a Planet of a set, puts its first cubes there (one after "
        "the other, within the survey count), then walks on as usual; the before_walk effects "
        "are performed on the start Planet first."
    )
    params: ClassVar[tuple[Param, ...]] = (
        Param("planet", PLANETS, "The Planets where the survey may start (those with room).", default="all"),
        Param("cubes", "integer", "Cubes the survey puts on its start Planet, one after the other.", minimum=1, default=1),
        Param(
            "before_walk",
            "effects",
            "Immediate effects performed on the start Planet (this_planet) before the survey's first cube.",
            default=(),
            binds=PLANETS,
        ),
    )
    flag: ClassVar[int] = START
    #: Not performed at once: it names the survey's start, read when the survey is made, so it
    #: stands where nothing is bound (at the top of a skill, in a branch), never in a body.
    immediate: ClassVar[bool] = False

    planet: SetNode
    cubes: int = 1
    before_walk: tuple[Effect, ...] = ()

    def __attrs_post_init__(self) -> None:
        late = [effect.name for effect in self.before_walk if not effect.immediate]
        if late:
            raise ValueError(f"the before_walk of survey_start holds only effects that ask no decision, not {', '.join(late)}")

    @property
    def bodies(self) -> tuple[tuple[Effect, ...], ...]:
        return (self.before_walk,)

    @property
    def moves_cubes(self) -> bool:
        return any(effect.moves_cubes for effect in self.before_walk)

    def most_vp(self, limits: Limits) -> int | None:
        return list_most_vp(self.before_walk, limits)

    def most_landings(self, limits: Limits) -> int | None:
        return list_landings(self.before_walk, limits)  # S6's free cube lands before the walk

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        return _list_survey(self.before_walk, limits)

    def starts(self, scope: Scope) -> list[int]:
        """The Planets the survey may start on: members of ``planet`` where, once the
        before_walk is performed there, the survey's first cube has room (the room the walk
        sees, which the before_walk may change either way) and the chooser a cube to put there."""
        table = scope.table
        if not self.before_walk:
            return [p for p in self.planet.members(scope) if table.room(p) > 0]
        return [p for p in self.planet.members(scope) if _room_after(self.before_walk, scope.bind(PLANETS, p))]

    def begin(self, scope: Scope) -> None:
        """The before_walk performed on the start Planet bound in ``scope``."""
        for effect in self.before_walk:
            if effect.can_perform(scope):
                effect.perform(scope)


def _room_after(effects: tuple[Effect, ...], scope: Scope) -> bool:
    """Whether the survey's first cube can go on the bound Planet once ``effects`` are performed
    there (on a copy): the Planet still has room, and the chooser still holds a cube (a
    before_walk may put the chooser's own cubes on the board)."""
    table = scope.table
    trial = type(table)(table.game, table.freeze(), None)
    bound = attrs.evolve(scope, table=trial)
    for effect in effects:
        if effect.can_perform(bound):
            effect.perform(bound)
    return trial.room(bound.planet) > 0 and trial.hands[bound.me] > 0


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

    def most_landings(self, limits: Limits) -> int:
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

    def most_landings(self, limits: Limits) -> int:
        return 1


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

    def most_landings(self, limits: Limits) -> int:
        return 0


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

    def most_landings(self, limits: Limits) -> int:
        return 1


# -- the rules language's actions and control (docs/skills.md, "The rules language") -------

_ALL_TIMINGS = (ON_CHOOSE, SURVEY, AFTER_SURVEY, ROUND_END)
_PLAY_TIMINGS = (ON_CHOOSE, AFTER_SURVEY, ROUND_END)


def _most(amount: Amount, limits: Limits) -> int | None:
    """The most VP an amount can give: its upper bound, never below 0 (a gain below 0 is none)."""
    hi = amount_bounds(amount, limits)[1]
    return None if hi is None else max(0, hi)


def _gain(scope: Scope, amount: Amount, to: SetNode) -> None:
    """Each seat of ``to`` scores the amount, read once before the first gains."""
    table = scope.table
    vp = max(0, amount_value(amount, scope))
    for seat in to.members(scope):
        table.add_vp(seat, vp)
        table.log("vp_gained", player=seat, crew=table.crew_id(scope.crew), vp=vp)


#: The bound facts of each effect list computed in the derivation under way (``derivation``):
#: a nest of ``for_each`` asks its body's facts once for itself and once for the list holding
#: it, so without this memo deriving bounds doubled its work at each level of nesting.
_FACTS: contextvars.ContextVar[dict[tuple[Any, ...], tuple[tuple[Effect, ...], Any]] | None] = contextvars.ContextVar("bound_facts", default=None)


@contextlib.contextmanager
def derivation() -> Iterator[None]:
    """Share the bound facts of effect lists for as long as it is entered (``bounds.StateBounds.of``
    enters it for a whole ruleset): each list's facts are computed once, so deriving bounds is
    linear in the program's size. Every fact also enters it on its own."""
    if _FACTS.get() is not None:
        yield
        return
    token = _FACTS.set({})
    try:
        yield
    finally:
        _FACTS.reset(token)


def _memoised(fact: str, effects: tuple[Effect, ...], limits: Limits, extra: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``'s value for this effect list, limits and ``extra``, computed once per
    derivation. The list is kept with its value, so that its id is not reused meanwhile."""
    with derivation():
        facts = _FACTS.get()
        assert facts is not None
        key = (fact, id(effects), limits, extra)
        if key not in facts:
            facts[key] = (effects, compute())
        return facts[key][1]


def list_most_vp(effects: tuple[Effect, ...], limits: Limits) -> int | None:
    """The most VP a list of effects scores once through, branches and bodies included."""
    return _memoised("vp", effects, limits, None, lambda: _list_most_vp(effects, limits))


def _list_most_vp(effects: tuple[Effect, ...], limits: Limits) -> int | None:
    total = 0
    for effect in effects:
        most = effect.most_vp(limits)
        if most is None:
            return None
        total += most * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner = list_most_vp(nested, limits)
            if inner is None:
                return None
            total += inner
    return total


def list_landings(effects: tuple[Effect, ...], limits: Limits, borrowed: int | None = None) -> int | None:
    """The most cubes a list of effects lands on Planets once through, branches and bodies
    included (``Effect.most_landings``); a ``use_skill`` lands ``borrowed``, the most the skill
    it may apply lands (``bounds.ability_vp``; None: it cannot say)."""
    return _memoised("landings", effects, limits, borrowed, lambda: _list_landings(effects, limits, borrowed))


def _list_landings(effects: tuple[Effect, ...], limits: Limits, borrowed: int | None) -> int | None:
    total = 0
    for effect in effects:
        most = borrowed if isinstance(effect, UseSkill) else effect.most_landings(limits)
        if most is None:
            return None
        total += most * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner = list_landings(nested, limits, borrowed)
            if inner is None:
                return None
            total += inner
    return total


def _list_survey(effects: tuple[Effect, ...], limits: Limits) -> tuple[int | None, int | None]:
    """The least and most a list of effects changes the survey count by, branches and bodies included."""
    return _memoised("survey", effects, limits, None, lambda: _list_survey_once(effects, limits))


def _list_survey_once(effects: tuple[Effect, ...], limits: Limits) -> tuple[int | None, int | None]:
    least = most = 0
    for effect in effects:
        lo, hi = effect.survey_bonus_range(limits)
        if lo is None or hi is None or least is None or most is None:
            return (None, None)
        least += min(0, lo) * effect.steps
        most += max(0, hi) * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner_lo, inner_hi = _list_survey(nested, limits)
            if inner_lo is None or inner_hi is None:
                return (None, None)
            least += inner_lo
            most += inner_hi
    return (least, most)


class _Immediate(Effect):
    """Base of the language's actions that ask no decision: each performs on a ``Scope``, and a
    top-level one that cannot change anything is skipped with an event (R9)."""

    immediate: ClassVar[bool] = True

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...] | None:
        return None if self.can_perform(Scope(table, seat, slot)) else ()

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return 0  # no decision: ``choices`` only says whether it is skipped (R9)

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        self.perform(Scope(table, seat, slot))
        return _NO_FOLLOW_UP

    @property
    def vp_per_step(self) -> int | None:
        return None

    def most_vp(self, limits: Limits) -> int | None:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0

    @property
    def moves_cubes(self) -> bool:
        return False


@attrs.frozen(kw_only=True)
class LoseVP(_Immediate):
    """Lose VP scored during play; a seat's VP never drop below 0 (the loss takes what there is)."""

    name: ClassVar[str] = "lose_vp"
    summary: ClassVar[str] = "Lose VP at once (an amount): you, or each seat of to; VP never drop below 0."
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (Param("vp", AMOUNT, "VP lost (an amount; below 0 loses nothing).", minimum=1), _TO)

    vp: Amount
    to: SetNode = ME

    def perform(self, scope: Scope) -> None:
        table = scope.table
        amount = max(0, amount_value(self.vp, scope))
        for seat in self.to.members(scope):
            lost = min(amount, table.vp[seat])
            table.add_vp(seat, -lost)
            table.log("vp_lost", player=seat, crew=table.crew_id(scope.crew), vp=lost)

    def to_data(self) -> dict[str, Any]:
        return _to_data(self, super().to_data())


@attrs.frozen(kw_only=True)
class TakeVP(_Immediate):
    """Take VP from each seat of a set (never from oneself), at most what each holds."""

    name: ClassVar[str] = "take_vp"
    summary: ClassVar[str] = (
        "Take VP (an amount) from each seat of a set, the chooser excepted, each losing at most "
        "what it holds; the chooser scores what is taken."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("vp", AMOUNT, "VP taken from each seat (an amount).", minimum=1),
        Param("from", SEATS, "The seats VP are taken from, in turn order from the chooser.", default="others"),
    )

    vp: Amount
    from_: SetNode

    def _victims(self, scope: Scope) -> list[int]:
        if scope.me < 0:  # nobody is "you" (a planet ability): nobody takes
            return []
        return [seat for seat in self.from_.members(scope) if seat != scope.me]

    def can_perform(self, scope: Scope) -> bool:
        vp = scope.table.vp
        return any(vp[seat] > 0 for seat in self._victims(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        amount = max(0, amount_value(self.vp, scope))
        for seat in self._victims(scope):
            taken = min(amount, table.vp[seat])
            if taken:
                table.add_vp(seat, -taken)
                table.add_vp(scope.me, taken)
                table.log("vp_taken", player=scope.me, crew=table.crew_id(scope.crew), other=seat, vp=taken)

    def most_vp(self, limits: Limits) -> int | None:
        most = _most(self.vp, limits)
        return None if most is None else most * self.from_.most(limits)


@attrs.frozen(kw_only=True)
class SetSurveyCount(_Immediate):
    """This turn's survey count becomes an amount, whatever the crew prints (R7)."""

    name: ClassVar[str] = "set_survey_count"
    summary: ClassVar[str] = "This turn's survey count becomes the amount given (never below 0), whatever the crew prints."
    timings: ClassVar[tuple[str, ...]] = (SURVEY,)
    params: ClassVar[tuple[Param, ...]] = (Param("count", AMOUNT, "The survey count this turn (an amount)."),)

    count: Amount

    def perform(self, scope: Scope) -> None:
        table = scope.table
        printed = table.game.ruleset.crew[table.crew[scope.crew]].survey_count
        table.survey_bonus = amount_value(self.count, scope) - printed
        table.log_effect(scope.me, scope.crew, self)

    @property
    def survey_bonus_per_step(self) -> int | None:
        return None

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        lo, hi = amount_bounds(self.count, limits)
        if lo is None or hi is None:
            return (None, None)
        return (lo - limits.most_survey_count, hi - limits.least_survey_count)

    @property
    def moves_cubes(self) -> bool:
        return True

    def most_landings(self, limits: Limits) -> int:
        return 0


@attrs.frozen(kw_only=True)
class If(Effect):
    """A condition: its ``then`` effects resolve when it holds, its ``else`` effects when not."""

    name: ClassVar[str] = "if"
    summary: ClassVar[str] = (
        "Resolve the then effects when the condition holds now, else the else effects (either "
        "may be left out)."
    )
    timings: ClassVar[tuple[str, ...]] = _ALL_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("condition", CONDITION, "The condition, read when the effect resolves."),
        Param("then", "effects", "Effects resolved, in order, when the condition holds.", default=()),
        Param("else", "effects", "Effects resolved, in order, when it does not.", default=()),
    )

    condition: ConditionNode
    then: tuple[Effect, ...] = ()
    else_: tuple[Effect, ...] = ()

    @property
    def immediate(self) -> bool:  # type: ignore[override]
        return all(effect.immediate for effect in (*self.then, *self.else_))

    @property
    def branches(self) -> tuple[tuple[Effect, ...], ...]:
        return (self.then, self.else_)

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        branch = 0 if self.condition.holds(Scope(table, seat, slot)) else 1
        return tuple((branch, index) for index in range(len(self.branches[branch])))

    def perform(self, scope: Scope) -> None:
        for effect in self.then if self.condition.holds(scope) else self.else_:
            if effect.can_perform(scope):
                effect.perform(scope)

    @property
    def moves_cubes(self) -> bool:
        return any(effect.moves_cubes for effect in (*self.then, *self.else_))

    @property
    def vp_per_step(self) -> int:
        return 0

    @property
    def survey_bonus_per_step(self) -> int:
        return 0

    def most_landings(self, limits: Limits) -> int:
        return 0


#: The action kind of a ``choose`` decision, by the kind of set it chooses from.
CHOICE_ACTIONS = {PLANETS: TARGET_PLANET, SEATS: TARGET_SEAT, CREWS: TARGET_CREW}
#: The YAML key of ``choose`` and ``for_each`` naming the set, by its kind.
SET_KEYS = {"planet": PLANETS, "seat": SEATS, "crew": CREWS}


@attrs.frozen(kw_only=True)
class _OverSet(Effect):
    """Base of ``choose`` and ``for_each``: a set of Planets, seats or crews (one of the keys
    ``planet``, ``seat``, ``crew``) and a body of immediate effects performed with each chosen
    (or every) member bound as ``this_planet``, ``this_seat`` or ``this_crew``."""

    timings: ClassVar[tuple[str, ...]] = _ALL_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("planet", PLANETS, "The Planets (give one of planet, seat, crew).", default=None),
        Param("seat", SEATS, "The seats (give one of planet, seat, crew).", default=None),
        Param("crew", CREWS, "The crews (give one of planet, seat, crew).", default=None),
        Param("do", "effects", "Immediate effects performed for the member, in order."),
    )

    planet: SetNode | None = None
    seat: SetNode | None = None
    crew: SetNode | None = None
    do: tuple[Effect, ...] = ()

    def __attrs_post_init__(self) -> None:
        given = [key for key in SET_KEYS if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError(f"{self.name} takes exactly one of planet, seat or crew (found {', '.join(given) or 'none'})")
        late = [effect.name for effect in self.do if not effect.immediate]
        if late:
            raise ValueError(f"the do of {self.name} holds only effects that ask no decision, not {', '.join(late)}")

    @property
    def set_kind(self) -> str:
        return next(SET_KEYS[key] for key in SET_KEYS if getattr(self, key) is not None)

    @classmethod
    def binds(cls, param: Param, data: Mapping[str, Any]) -> frozenset[str]:
        if param.name != "do":
            return frozenset()
        return frozenset(kind for key, kind in SET_KEYS.items() if key in data)

    @property
    def over(self) -> SetNode:
        return next(getattr(self, key) for key in SET_KEYS if getattr(self, key) is not None)

    @property
    def bodies(self) -> tuple[tuple[Effect, ...], ...]:
        return (self.do,)

    def _applies(self, scope: Scope) -> bool:
        return any(effect.can_perform(scope) for effect in self.do)

    def _run(self, scope: Scope) -> None:
        for effect in self.do:
            if effect.can_perform(scope):
                effect.perform(scope)

    @property
    def moves_cubes(self) -> bool:
        return any(effect.moves_cubes for effect in self.do)

    @property
    def vp_per_step(self) -> int | None:
        return None

    @property
    def survey_bonus_per_step(self) -> int | None:
        return None


@attrs.frozen(kw_only=True)
class Choose(_OverSet):
    """The chooser picks one member of a set for which the body can be applied (R9), and the
    body is performed for it at once."""

    name: ClassVar[str] = "choose"
    summary: ClassVar[str] = (
        "The chooser picks one Planet, seat or crew of a set, among those for which the do "
        "effects can be applied, and the do effects are performed for it at once."
    )

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        scope = Scope(table, seat, slot)
        kind = self.set_kind
        act = CHOICE_ACTIONS[kind]
        return tuple(action(act, m) for m in self.over.members(scope) if self._applies(scope.bind(kind, m)))

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return {PLANETS: planets, SEATS: players, CREWS: crews}[self.set_kind]

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        self._run(Scope(table, seat, slot).bind(self.set_kind, choice.target))
        return _NO_FOLLOW_UP

    def most_vp(self, limits: Limits) -> int | None:
        return list_most_vp(self.do, limits)

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        return _list_survey(self.do, limits)

    def most_landings(self, limits: Limits) -> int | None:
        return list_landings(self.do, limits)


@attrs.frozen(kw_only=True)
class ForEach(_OverSet):
    """The body is performed for every member of a set, in the set's order."""

    name: ClassVar[str] = "for_each"
    summary: ClassVar[str] = (
        "The do effects are performed for every Planet (ring order), seat (turn order from the "
        "chooser) or crew (crew-area order) of a set, one member after the other."
    )
    immediate: ClassVar[bool] = True

    def perform(self, scope: Scope) -> None:
        kind = self.set_kind
        for member in self.over.members(scope):
            self._run(scope.bind(kind, member))

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        self.perform(Scope(table, seat, slot))
        return _NO_FOLLOW_UP

    def _scaled(self, value: int | None, limits: Limits) -> int | None:
        return None if value is None else value * self.over.most(limits)

    def most_vp(self, limits: Limits) -> int | None:
        return self._scaled(list_most_vp(self.do, limits), limits)

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        lo, hi = _list_survey(self.do, limits)
        return (self._scaled(lo, limits), self._scaled(hi, limits))

    def most_landings(self, limits: Limits) -> int | None:
        return self._scaled(list_landings(self.do, limits), limits)


#: Where ``return_cube`` sends a cube: its owner's hand (a free cube to the stock), or the
#: stock (a player's cube then leaves play as R6's removed cubes do).
RETURN_TO = ("hand", "stock")


def _owners(owner: SetNode | str, scope: Scope) -> tuple[int, ...] | None:
    """The owner numbers an ``owner`` parameter names; None for anyone."""
    if owner == "anyone":
        return None
    if owner == "free":
        return (FREE_CUBE_OWNER,)
    return owner.members(scope)  # type: ignore[union-attr]


def _placing(owner: SetNode | str, scope: Scope) -> tuple[int, ...]:
    """The owners whose cubes ``place_cube`` and ``place_cube_on_crew`` take from hand (or the
    stock): those ``owner`` names, less the seats protected from other players' skills."""
    owners = _owners(owner, scope) or ()
    shielded = scope.table.shielded(scope.me)
    return tuple(o for o in owners if o not in shielded) if shielded else owners


def _rearmost(track: tuple[int, ...], owners: tuple[int, ...] | None, shielded: frozenset[int] = frozenset()) -> int:
    """The index of the owners' cube that stands furthest back on a track, -1 when none; a cube
    of a ``shielded`` seat (``protect_cubes``) is passed over: it may not be moved."""
    for index in range(len(track) - 1, -1, -1):
        cube = track[index]
        if (owners is None or cube in owners) and cube not in shielded:
            return index
    return -1


@attrs.frozen(kw_only=True)
class ReturnCube(_Immediate):
    """The cube furthest back on each Planet of a set (of an owner, if given) leaves its track;
    the cubes behind it move up one square each, so squares still fill in order (R2)."""

    name: ClassVar[str] = "return_cube"
    summary: ClassVar[str] = (
        "On each Planet of a set, the cube that stands furthest back (of the owner given, else "
        "anyone's) leaves the track, the cubes behind it moving up one square (R2); it goes to "
        "its owner's hand (a free cube to the stock), or to the stock, out of play."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("planet", PLANETS, "The Planets.", default="this_planet"),
        Param(OWNER, OWNER, "Whose cube: a set of seats, free or anyone.", default="anyone"),
        Param("to", "choice", "hand: to its owner's hand (a free cube to the stock); stock: out of play.", choices=RETURN_TO, default="hand"),
    )

    planet: SetNode
    owner: SetNode | str = "anyone"
    to: str = "hand"

    def can_perform(self, scope: Scope) -> bool:
        owners = _owners(self.owner, scope)
        tracks = scope.table.tracks
        shielded = scope.table.shielded(scope.me)
        return any(_rearmost(tracks[p], owners, shielded) >= 0 for p in self.planet.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners = _owners(self.owner, scope)
        shielded = table.shielded(scope.me)
        for p in self.planet.members(scope):
            index = _rearmost(table.tracks[p], owners, shielded)
            if index >= 0:
                owner = table.take_from_track(p, index)
                if owner == FREE_CUBE_OWNER:
                    table.stock += 1
                elif self.to == "hand":
                    table.hands = _bump(table.hands, owner, 1)
                else:
                    table.removed = _bump(table.removed, owner, 1)
                table.log("cube_returned", owner=owner, planet=table.planet_id(p), square=index + 1, to=self.to)

    @property
    def moves_cubes(self) -> bool:
        return True

    def most_landings(self, limits: Limits) -> int:
        return 0


@attrs.frozen(kw_only=True)
class MoveCube(_Immediate):
    """An owner's cube furthest back on each Planet of a set moves to the rearmost square of
    the first Planet of ``to`` with room (the one it left excepted), read before it moves."""

    name: ClassVar[str] = "move_cube"
    summary: ClassVar[str] = (
        "On each Planet of a set, the owner's cube that stands furthest back moves to the "
        "rearmost square of the first Planet of to that has room (not the Planet it leaves); "
        "the cubes behind it move up one square (R2). Nothing moves without such a Planet."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("planet", PLANETS, "The Planets a cube leaves.", default="this_planet"),
        Param(OWNER, OWNER, "Whose cube: a set of seats, free or anyone.", default="me"),
        Param(
            "to",
            PLANETS,
            "Where it goes: the first of these Planets with room; this_planet is the Planet it leaves.",
            default={"next_with_room": "this_planet"},
            binds=PLANETS,
        ),
    )

    planet: SetNode
    owner: SetNode | str
    to: SetNode

    def _moves(self, scope: Scope) -> list[tuple[int, int, int]]:
        table = scope.table
        owners = _owners(self.owner, scope)
        shielded = table.shielded(scope.me)
        moves = []
        for p in self.planet.members(scope):
            index = _rearmost(table.tracks[p], owners, shielded)
            if index < 0:
                continue
            target = next((q for q in self.to.members(scope.bind(PLANETS, p)) if q != p and table.room(q) > 0), -1)
            if target >= 0:
                moves.append((p, index, target))
        return moves

    def can_perform(self, scope: Scope) -> bool:
        return bool(self._moves(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners = _owners(self.owner, scope)
        shielded = table.shielded(scope.me)
        for p in self.planet.members(scope):
            index = _rearmost(table.tracks[p], owners, shielded)
            if index < 0:
                continue
            target = next((q for q in self.to.members(scope.bind(PLANETS, p)) if q != p and table.room(q) > 0), -1)
            if target < 0:
                continue
            owner = table.take_from_track(p, index)
            table.log("cube_moved", owner=owner, planet=table.planet_id(p), square=index + 1)
            table.place_on_track(target, owner)

    @property
    def moves_cubes(self) -> bool:
        return True

    def most_landings(self, limits: Limits) -> int:
        return self.planet.most(limits)


#: Where ``place_cube`` puts a cube on a Planet: its rearmost square (R2) or its special square (R3).
SQUARE_KINDS = ("rearmost", "special")


def _source_has_cube(table: Table, owner: int) -> bool:
    return (table.stock if owner == FREE_CUBE_OWNER else table.hands[owner]) > 0


@attrs.frozen(kw_only=True)
class PlaceCube(_Immediate):
    """A cube of each owner (from hand; a free cube from the stock) onto each Planet of a set,
    on its rearmost square (R2) or its special square (R3)."""

    name: ClassVar[str] = "place_cube"
    summary: ClassVar[str] = (
        "Each owner puts one cube from hand (free: one free cube from the stock) on each Planet "
        "of a set, on its rearmost square or its special square; where there is no room or no "
        "cube, nothing is put."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param(OWNER, OWNER, "Whose cube: a set of seats, or free (from the stock).", default="me"),
        Param("planet", PLANETS, "The Planets.", default="this_planet"),
        Param("square", "choice", "rearmost (R2) or special (R3; not for a free cube).", choices=SQUARE_KINDS, default="rearmost"),
    )

    owner: SetNode | str = "me"
    planet: SetNode
    square: str = "rearmost"

    def __attrs_post_init__(self) -> None:
        if self.owner == "anyone":
            raise ValueError("place_cube needs an owner: a set of seats or free, not anyone")
        if self.owner == "free" and self.square == "special":
            raise ValueError("a free cube never goes on a special square (R3 scores it for its owner)")

    def _room(self, table: Table, p: int) -> int:
        return table.room(p) if self.square == "rearmost" else table.special_room(p)

    def can_perform(self, scope: Scope) -> bool:
        table = scope.table
        owners = _placing(self.owner, scope)
        planets = self.planet.members(scope)
        return any(_source_has_cube(table, o) for o in owners) and any(self._room(table, p) > 0 for p in planets)

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners = _placing(self.owner, scope)
        for p in self.planet.members(scope):
            for owner in owners:
                if not _source_has_cube(table, owner) or self._room(table, p) <= 0:
                    continue
                if self.square == "special":
                    table.hand_to_special(owner, p)
                    continue
                if owner == FREE_CUBE_OWNER:
                    table.stock -= 1
                else:
                    table.hands = _bump(table.hands, owner, -1)
                table.place_on_track(p, owner)

    @property
    def moves_cubes(self) -> bool:
        return True

    def most_landings(self, limits: Limits) -> int:
        owners = 1 if isinstance(self.owner, str) else self.owner.most(limits)
        return owners * self.planet.most(limits)


@attrs.frozen(kw_only=True)
class PlaceCubeOnCrew(_Immediate):
    """A cube of each owner (from hand; a free cube from the stock, within the cap of R11) onto
    each crew of a set; whoever picks the crew later scores it as a motivation bonus (R6)."""

    name: ClassVar[str] = "place_cube_on_crew"
    summary: ClassVar[str] = (
        "Each owner puts one cube from hand (free: one free cube from the stock, while the crew "
        "holds fewer than the free-cube cap) on each crew of a set; whoever picks the crew later "
        "scores the motivation bonus for it."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param(OWNER, OWNER, "Whose cube: a set of seats, or free (from the stock).", default="me"),
        Param("crew", CREWS, "The crews.", default="this_crew"),
    )

    owner: SetNode | str = "me"
    crew: SetNode

    def __attrs_post_init__(self) -> None:
        if self.owner == "anyone":
            raise ValueError("place_cube_on_crew needs an owner: a set of seats or free, not anyone")

    def _fits(self, table: Table, owner: int, slot: int) -> bool:
        if not _source_has_cube(table, owner):
            return False
        return owner != FREE_CUBE_OWNER or table.crew_free[slot] < table.game.ruleset.max_free_cubes_per_crew

    def can_perform(self, scope: Scope) -> bool:
        table = scope.table
        owners = _placing(self.owner, scope)
        return any(self._fits(table, o, slot) for slot in self.crew.members(scope) for o in owners)

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners = _placing(self.owner, scope)
        for slot in self.crew.members(scope):
            for owner in owners:
                if self._fits(table, owner, slot):
                    table.stock_to_crew(slot) if owner == FREE_CUBE_OWNER else table.hand_to_crew(owner, slot)

    @property
    def moves_cubes(self) -> bool:
        return True

    def most_landings(self, limits: Limits) -> int:
        return 0


@attrs.frozen(kw_only=True)
class CollectFreeCubes(_Immediate):
    """The free cubes on each crew of a set go to the stock, scoring the motivation bonus (R6)."""

    name: ClassVar[str] = "collect_free_cubes"
    summary: ClassVar[str] = (
        "The free cubes on each crew of a set go to the stock, and the chooser scores the "
        "motivation bonus for them (R6)."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (Param("crew", CREWS, "The crews.", default="this_crew"),)

    crew: SetNode

    def can_perform(self, scope: Scope) -> bool:
        if scope.me < 0:  # nobody is "you" (a planet ability): nobody scores the bonus
            return False
        free = scope.table.crew_free
        return any(free[slot] > 0 for slot in self.crew.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        per_cube = table.game.ruleset.free_cube_vp
        for slot in self.crew.members(scope):
            free = table.crew_free[slot]
            if free:
                table.stock += free
                table.crew_free = _bump(table.crew_free, slot, -free)
                table.add_vp(scope.me, free * per_cube)
                table.log("free_cubes_collected", player=scope.me, crew=table.crew_id(slot), free_cubes=free, vp=free * per_cube)

    def most_vp(self, limits: Limits) -> int:
        return min(limits.free_cubes, self.crew.most(limits) * limits.free_on_crew) * limits.free_cube_vp


@attrs.frozen(kw_only=True)
class TakeFreeCubes(_Immediate):
    """Free cubes from the stock into the hand of each seat of ``to``, as cubes of that seat's
    own (idea R8): the amount is read once; each seat, in turn order from the chooser, takes
    that many or what the stock holds. Only the stock's wooden free cubes are taken, never the
    removed cubes of R6 (R13). The state counts them per seat (``State.taken``), so that a
    seat's cubes stay conserved: ``cubes_per_player`` plus those taken."""

    name: ClassVar[str] = "take_free_cubes"
    summary: ClassVar[str] = (
        "Each seat of to (default you) takes free cubes from the stock into hand, as cubes of "
        "its own, the amount each (at most what the stock holds); nothing when the stock is empty."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("count", AMOUNT, "Free cubes each seat takes (an amount; below 1 takes nothing).", minimum=1, default=1),
        Param("to", SEATS, "The seats that take them, in turn order from the chooser (default you).", default="me"),
    )

    count: Amount = 1
    to: SetNode = ME

    def can_perform(self, scope: Scope) -> bool:
        return scope.table.stock > 0 and bool(self.to.members(scope)) and amount_value(self.count, scope) > 0

    def perform(self, scope: Scope) -> None:
        table = scope.table
        amount = max(0, amount_value(self.count, scope))
        for seat in self.to.members(scope):
            taken = min(amount, table.stock)
            if taken:
                table.take_free_cubes(seat, taken)
                table.log("free_cubes_taken", player=seat, crew=table.crew_id(scope.crew), free_cubes=taken)

    def to_data(self) -> dict[str, Any]:
        return _to_data(self, super().to_data())


@attrs.frozen(kw_only=True)
class CloseCrew(_Immediate):
    """Each crew of a set that nobody has picked this round is closed until the round ends:
    the pick decision does not offer it (R5). A crew is closed only while enough crews stay
    open for the turns left in the round, so every later player can still pick (R9)."""

    name: ClassVar[str] = "close_crew"
    summary: ClassVar[str] = (
        "Each crew of a set that nobody has picked this round is closed: nobody may pick it "
        "until the round ends (it still gets its free cube at the round's end, being unpicked). "
        "A crew is closed only while enough crews stay open for the turns left in the round."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (Param("crew", CREWS, "The crews.", default="this_crew"),)

    crew: SetNode

    def _closing(self, table: Table, slots: tuple[int, ...]) -> list[int]:
        """The crews of ``slots`` that close, in crew-area order: open ones, while the open
        crews left would still outnumber the turns left after this one (R5, R9); before the
        first round (setup steps) every player's pick is still to come."""
        turns_left = table.players if table.stage == SETUP_STAGE else table.players - table.turn - 1
        open_now = table.open_crews()
        left = len(open_now)
        closing = []
        for slot in slots:
            if slot in open_now and slot not in closing and left - 1 >= turns_left >= 0:
                closing.append(slot)
                left -= 1
        return closing

    def can_perform(self, scope: Scope) -> bool:
        return bool(self._closing(scope.table, self.crew.members(scope)))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        for slot in self._closing(table, self.crew.members(scope)):
            table.closed = table.closed | {slot}
            table.log("crew_closed", player=scope.me, crew=table.crew_id(slot))


#: How long ``protect_cubes`` lasts, in the order of ``table.PROTECTION_UNTIL``.
PROTECTION_UNTIL_WORDS = tuple(PROTECTION_UNTIL)


@attrs.frozen(kw_only=True)
class ProtectCubes(_Immediate):
    """A lasting effect: until the turn (or the round) ends, no other player's skill may move
    the chooser's cubes, on a Planet or in hand (``return_cube``, ``move_cube``, ``place_cube``
    and ``place_cube_on_crew`` pass them over)."""

    name: ClassVar[str] = "protect_cubes"
    summary: ClassVar[str] = (
        "Until the turn or the round ends, no other player's skill may return or move the "
        "chooser's cubes, on a Planet or from hand: those effects pass them over."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "until",
            "choice",
            "turn_end: until this turn ends; round_end: until the round ends (its round-end effects included).",
            choices=PROTECTION_UNTIL_WORDS,
            default="round_end",
        ),
    )

    until: str = "round_end"

    def can_perform(self, scope: Scope) -> bool:
        if scope.me < 0:  # nobody is "you" (a planet ability): nobody's cubes to protect
            return False
        return scope.table.protected[scope.me] < PROTECTION_UNTIL[self.until]

    def perform(self, scope: Scope) -> None:
        table = scope.table
        table.protected = _set_at(table.protected, scope.me, PROTECTION_UNTIL[self.until])
        table.log("cubes_protected", player=scope.me, crew=table.crew_id(scope.crew), until=self.until)


@attrs.frozen(kw_only=True)
class SetStartPlayer(_Immediate):
    """The start player of the next round becomes a seat of a set, with no decision: the first
    of its seats in turn order from the current start player, so a start player among them
    stays; an empty set changes nothing (R9). Only at a round's end: the seat to act is read
    from the start player during a round (R4), and the naming of R12 comes after it, so a
    naming overrides it (docs/rules.md, "Start player")."""

    name: ClassVar[str] = "set_start_player"
    summary: ClassVar[str] = (
        "At a round's end the start player passes, with no decision, to a seat of a set: the "
        "first of them in turn order from the current start player (who stays when among them); "
        "an empty set changes nothing."
    )
    timings: ClassVar[tuple[str, ...]] = (ROUND_END,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("seat", SEATS, "The seats the start player passes to; of several, the first in turn order from the current start player."),
    )

    seat: SetNode

    def next_start(self, scope: Scope) -> int | None:
        """The seat that becomes the start player; None for an empty set."""
        seats = self.seat.members(scope)
        if not seats:
            return None
        table = scope.table
        players = table.players
        return next(seat for k in range(players) if (seat := (table.start_player + k) % players) in seats)

    def can_perform(self, scope: Scope) -> bool:
        return bool(self.seat.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        seat = self.next_start(scope)
        if seat is None:
            return
        table.start_player = seat
        table.log("start_player_set", crew=table.crew_id(scope.crew), start_player=seat)


@attrs.frozen(kw_only=True)
class UseSkill(Effect):
    """The chooser picks a crew of a set and its skill resolves as this crew's (S10): its pick
    effects at once, its later ones at their stage, ``this_crew`` meaning this crew."""

    name: ClassVar[str] = "use_skill"
    summary: ClassVar[str] = (
        "The chooser picks another crew of a set and applies its skill as if it were this "
        "crew's: its on_choose and survey effects resolve at once, its after_survey and "
        "round_end effects at their stage. Always-in-play crews, crews whose skill applies "
        "another's and crews without a skill are never offered."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("crew", CREWS, "The crews whose skill may be applied (this crew never is).", default="others"),
    )
    target_message: ClassVar[str] = "target_crew_skill"

    crew: SetNode

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        borrowable = table.game.borrowable
        crew = table.crew
        members = self.crew.members(Scope(table, seat, slot))
        return tuple(action(TARGET_CREW, m) for m in members if m != slot and crew[m] in borrowable)

    def most_choices(self, *, players: int, planets: int, crews: int) -> int:
        return crews - 1

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.log("skill_applied", player=seat, crew=table.crew_id(slot), skill_of=table.crew_id(choice.target))
        table.apply_skill_of(slot, table.crew[choice.target], seat)
        return _NO_FOLLOW_UP

    @property
    def vp_per_step(self) -> int:
        return 0  # what the skill applied scores is bounded by engine/bounds.py (borrowed_bounds)

    @property
    def survey_bonus_per_step(self) -> int:
        return 0


def _set_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


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
    # the rules language's actions and control
    Choose,
    CloseCrew,
    CollectFreeCubes,
    ForEach,
    If,
    LoseVP,
    MoveCube,
    PlaceCube,
    PlaceCubeOnCrew,
    ProtectCubes,
    ReturnCube,
    SetStartPlayer,
    SetSurveyCount,
    TakeFreeCubes,
    TakeVP,
    # this turn's survey: its direction and its start
    SetSurveyDirection,
    SurveyStart,
    # another crew's skill
    UseSkill,
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

#: The survey rules by name: name -> its flag (R8). A state's ``survey_rules`` holds their
#: flags; its JSON names them so. A lifted limit and the survey's start are named by the effect
#: that sets them; a forced counter-clockwise walk (``set_survey_direction``) by its direction.
SURVEY_RULE_FLAGS: Mapping[str, int] = MappingProxyType(
    dict(
        sorted(
            {
                **{name: cls.flag for name, cls in EFFECT_TYPES.items() if issubclass(cls, _SurveyRule) and cls.flag},
                "counter_clockwise": COUNTER,
            }.items(),
            key=lambda item: item[1],
        )
    )
)
