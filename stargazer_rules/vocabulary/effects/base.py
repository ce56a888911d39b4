"""What every effect type is made of: its timings, its parameters (``Param``), the base class
``Effect`` with the defaults every bound and behaviour falls back on, the survey-rule flags, and
``extend_effect_types``, the one way a registry grows (``registry.EFFECT_TYPES`` is built by it).

The bound facts of a type that are constants are declared as class data here (``VP_PER_STEP``
and its siblings) and read by one implementation on ``Effect``; a type overrides a method only
where its value is computed from its parameters.
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.expressions import (
    AMOUNT,
    CONDITION,
    CREWS,
    PLANETS,
    SEATS,
    Limits,
    Scope,
    amount_data,
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

    #: The bound facts that are constants of a type, declared once as class data and read by the
    #: methods below; a type whose value depends on its parameters overrides the method instead.
    #: The most VP one step scores for the chooser (``vp_per_step``); None: the type cannot say.
    VP_PER_STEP: ClassVar[int | None] = None
    #: What one step adds to this turn's survey count (``survey_bonus_per_step``); None: cannot say.
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = None
    #: Whether it can ever take a cube out of a hand or put one on a track (``moves_cubes``).
    MOVES_CUBES: ClassVar[bool] = True
    #: The most cubes one step lands on Planets (``most_landings``); None: 0 for a type that
    #: never moves a cube, else it cannot say.
    LANDINGS_PER_STEP: ClassVar[int | None] = None
    #: What the options of its decision are drawn from (``most_choices``): ``planets``, ``seats``,
    #: ``other_crews`` (every crew slot but its own) or ``none`` (it asks no decision); None:
    #: 0 for a type that asks no decision, else it cannot say.
    CHOICES_FROM: ClassVar[str | None] = None

    when: str

    @property
    def steps(self) -> int:
        """How many times the effect resolves (a counted effect places ``count`` cubes one by one)."""
        return 1

    @property
    def vp_per_step(self) -> int | None:
        """The most VP one step scores for the chooser; None when the type cannot say.

        It bounds the VP a seat may hold (``bounds.StateBounds``). A new type that declares no
        ``VP_PER_STEP`` and does not override this leaves the VP of its rulesets unbounded.
        """
        return self.VP_PER_STEP

    @property
    def survey_bonus_per_step(self) -> int | None:
        """What one step adds to this turn's survey count (``survey_bonus``, R7), negative to
        take away; None when the type cannot say (the bonus is then unbounded)."""
        return self.SURVEY_BONUS_PER_STEP

    def most_vp(self, limits: Limits) -> int | None:
        """The most VP one step scores for the chooser, from the ruleset's ``limits``; None
        when it cannot say. By default ``vp_per_step``: the rules language's types compute it
        from their amounts' bounds."""
        return self.vp_per_step

    def most_landings(self, limits: Limits) -> int | None:
        """The most cubes one step lands on Planets (normal and special squares), each a
        ``cube_placed`` event of the planet abilities (``bounds.ability_vp``); nested effect
        lists are counted by the caller. None when the type cannot say: 0 for a type that
        never moves a cube (``LANDINGS_PER_STEP``)."""
        if self.LANDINGS_PER_STEP is not None:
            return self.LANDINGS_PER_STEP
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
        offers 0; a new type that asks one and declares no ``CHOICES_FROM`` nor overrides this
        is unbounded (None).
        """
        drawn_from = self.CHOICES_FROM
        if drawn_from is None:
            return 0 if type(self).choices is Effect.choices else None
        return {"planets": planets, "seats": players, "other_crews": crews - 1, "none": 0}[drawn_from]

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
        the cause of a false warning (``MOVES_CUBES``).
        """
        return self.MOVES_CUBES

    @classmethod
    def binds(cls, param: Param, data: Mapping[str, Any]) -> frozenset[str]:
        """The set kinds bound for parameter ``param`` of an effect written as ``data``:
        ``this_planet``, ``this_seat`` or ``this_crew`` read there (``Param.binds``)."""
        return frozenset((param.binds,)) if param.binds else frozenset()

    def can_apply(self, table: Table, seat: int, slot: int) -> bool:
        options = self.choices(table, seat, slot)
        return options is None or len(options) > 0

    def changes_anything(self, table: Table, seat: int, slot: int) -> bool:
        """Whether applying it now would change the game: ``choose_one`` offers only options
        that would (R9). Most types change something whenever they can be applied; a gain or a
        loss of VP read as nothing, and an ``if`` whose branch does nothing, do not."""
        return self.can_apply(table, seat, slot)

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


# -- the rules language's actions and control (docs/skills.md, "The rules language") -------

_ALL_TIMINGS = (ON_CHOOSE, SURVEY, AFTER_SURVEY, ROUND_END)
_PLAY_TIMINGS = (ON_CHOOSE, AFTER_SURVEY, ROUND_END)


class _Immediate(Effect):
    """Base of the language's actions that ask no decision: each performs on a ``Scope``, and a
    top-level one that cannot change anything is skipped with an event (R9)."""

    immediate: ClassVar[bool] = True
    CHOICES_FROM: ClassVar[str | None] = "none"  # no decision: ``choices`` only says whether it is skipped (R9)
    MOVES_CUBES: ClassVar[bool] = False
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...] | None:
        return None if self.can_perform(Scope(table, seat, slot)) else ()

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        self.perform(Scope(table, seat, slot))
        return _NO_FOLLOW_UP

    def most_vp(self, limits: Limits) -> int | None:
        return 0


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
