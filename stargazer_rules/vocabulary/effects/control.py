"""The rules language's control: ``choose_one`` (options), ``if`` (branches), ``choose`` and
``for_each`` (a body performed for members of a set); each holds effect lists of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import (
    CHOOSE_OPTION,
    TARGET_CREW,
    TARGET_PLANET,
    TARGET_SEAT,
    Action,
    action,
)
from stargazer_rules.vocabulary.expressions import (
    CONDITION,
    CREWS,
    PLANETS,
    SEATS,
    ConditionNode,
    Limits,
    Scope,
    SetNode,
)
from stargazer_rules.vocabulary.effects.base import (
    AFTER_SURVEY,
    ON_CHOOSE,
    _ALL_TIMINGS,
    _NO_FOLLOW_UP,
    Effect,
    Param,
)
from stargazer_rules.vocabulary.effects.facts import _list_survey, list_landings, list_most_vp

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


@attrs.frozen(kw_only=True)
class ChooseOne(Effect):
    """The chooser picks one option, a list of effects, among those that would change something (R9)."""

    name: ClassVar[str] = "choose_one"
    summary: ClassVar[str] = (
        "The chooser picks one of the options, each a list of effects; only options with at "
        "least one effect that would change something are offered."
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
    VP_PER_STEP: ClassVar[int | None] = 0  # its options' effects score, each bounded on its own
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    options: tuple[tuple[Effect, ...], ...]

    @property
    def branches(self) -> tuple[tuple[Effect, ...], ...]:
        return self.options

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        return tuple(
            action(CHOOSE_OPTION, index)
            for index, option in enumerate(self.options)
            if any(effect.changes_anything(table, seat, slot) for effect in option)
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
    VP_PER_STEP: ClassVar[int | None] = 0
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    condition: ConditionNode
    then: tuple[Effect, ...] = ()
    else_: tuple[Effect, ...] = ()

    @property
    def immediate(self) -> bool:  # type: ignore[override]
        return all(effect.immediate for effect in (*self.then, *self.else_))

    @property
    def branches(self) -> tuple[tuple[Effect, ...], ...]:
        return (self.then, self.else_)

    def changes_anything(self, table: Table, seat: int, slot: int) -> bool:
        branch = self.then if self.condition.holds(Scope(table, seat, slot)) else self.else_
        return any(effect.changes_anything(table, seat, slot) for effect in branch)

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
