"""The effects that change this turn's survey (R7, R8): its count, the limits its walk lifts
(each a survey-rule flag), its direction and its start."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.expressions import (
    AMOUNT,
    PLANETS,
    Amount,
    Limits,
    Scope,
    SetNode,
    amount_bounds,
    amount_value,
)
from stargazer_rules.vocabulary.effects.base import (
    COUNTER,
    DIRECTION,
    NO_SKIP_LIMIT,
    REPEAT,
    SKIP,
    START,
    SURVEY,
    _NO_FOLLOW_UP,
    Effect,
    Param,
    _Immediate,
)
from stargazer_rules.vocabulary.effects.facts import _list_survey, list_landings, list_most_vp

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


@attrs.frozen(kw_only=True)
class _SurveyRule(Effect):
    """Base of the effects that lift a limit of this turn's survey: each sets one flag."""

    timings: ClassVar[tuple[str, ...]] = (SURVEY,)
    immediate: ClassVar[bool] = True
    flag: ClassVar[int] = 0
    MOVES_CUBES: ClassVar[bool] = False
    VP_PER_STEP: ClassVar[int | None] = 0
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

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


@attrs.frozen(kw_only=True)
class AllowRepeatPlanet(_SurveyRule):
    """This turn's survey may put two or more cubes in a row on the same Planet (lifts the R8 limit for the whole survey)."""

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
    VP_PER_STEP: ClassVar[int | None] = 0
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

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
    def survey_bonus_per_step(self) -> int | None:
        return self.delta if type(self.delta) is int else None

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        return amount_bounds(self.delta, limits)


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
class SetSurveyCount(_Immediate):
    """This turn's survey count becomes an amount, whatever the crew prints (R7)."""

    name: ClassVar[str] = "set_survey_count"
    summary: ClassVar[str] = "This turn's survey count becomes the amount given (never below 0), whatever the crew prints."
    timings: ClassVar[tuple[str, ...]] = (SURVEY,)
    params: ClassVar[tuple[Param, ...]] = (Param("count", AMOUNT, "The survey count this turn (an amount)."),)
    MOVES_CUBES: ClassVar[bool] = True
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = None
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    count: Amount

    def perform(self, scope: Scope) -> None:
        table = scope.table
        printed = table.game.ruleset.crew[table.crew[scope.crew]].survey_count
        table.survey_bonus = amount_value(self.count, scope) - printed
        table.log_effect(scope.me, scope.crew, self)

    def survey_bonus_range(self, limits: Limits) -> tuple[int | None, int | None]:
        lo, hi = amount_bounds(self.count, limits)
        if lo is None or hi is None:
            return (None, None)
        return (lo - limits.most_survey_count, hi - limits.least_survey_count)
