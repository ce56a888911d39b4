"""The effects that change VP at once: ``gain_vp``, ``lose_vp`` and ``take_vp`` (R18 counts
them as VP scored during play), with the default ``to`` (the chooser) they share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.expressions import (
    AMOUNT,
    SEATS,
    Amount,
    Limits,
    Scope,
    SeatsNamed,
    SetNode,
    amount_bounds,
    amount_value,
)
from stargazer_rules.vocabulary.effects.base import (
    AFTER_SURVEY,
    ON_CHOOSE,
    ROUND_END,
    _NO_FOLLOW_UP,
    _PLAY_TIMINGS,
    Effect,
    Param,
    _Immediate,
)

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


#: ``gain_vp``'s and ``lose_vp``'s default ``to``: the chooser.
ME = SeatsNamed("me")
_TO = Param("to", SEATS, "The seats that gain or lose, each the amount (default you, the chooser).", default="me")


def _to_data(effect: Effect, data: dict[str, Any]) -> dict[str, Any]:
    """An effect's data without ``to`` when it is the chooser: the form every ruleset written
    before ``to`` keeps (and with it its fingerprint)."""
    if data.get("to") == "me":
        del data["to"]
    return data


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
        if vp:  # a gain of nothing is not news: the log says what changed
            table.log("vp_gained", player=seat, crew=table.crew_id(scope.crew), vp=vp)


#: The bound facts of each effect list computed in the derivation under way (``derivation``):


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
    MOVES_CUBES: ClassVar[bool] = False
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0

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
        if vp:  # a gain of nothing is not news: the log says what changed
            table.log("vp_gained", player=seat, crew=table.crew_id(slot), vp=vp)
        return _NO_FOLLOW_UP

    def perform(self, scope: Scope) -> None:
        _gain(scope, self.vp, self.to)

    def changes_anything(self, table: Table, seat: int, slot: int) -> bool:
        scope = Scope(table, seat, slot)
        return amount_value(self.vp, scope) > 0 and bool(self.to.members(scope))

    def to_data(self) -> dict[str, Any]:
        return _to_data(self, super().to_data())

    @property
    def vp_per_step(self) -> int | None:
        return self.vp if type(self.vp) is int and self.to == ME else None

    def most_vp(self, limits: Limits) -> int | None:
        return _most(self.vp, limits)


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
            if lost:  # as with gains and vp_taken: only what changed
                table.log("vp_lost", player=seat, crew=table.crew_id(scope.crew), vp=lost)

    def changes_anything(self, table: Table, seat: int, slot: int) -> bool:
        scope = Scope(table, seat, slot)
        return amount_value(self.vp, scope) > 0 and any(table.vp[member] > 0 for member in self.to.members(scope))

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
