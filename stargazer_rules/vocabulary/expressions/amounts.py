"""The amounts of the rules language: counts, cubes, hands, VP, room, the quantities of the
table, arithmetic and ``most_of``/``least_of``; each computes its value on a ``Scope`` and its
least and most from the ``Limits``, so a program's VP and survey count stay bounded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from stargazer_rules.vocabulary.expressions.nodes import (
    Amount,
    AmountNode,
    Node,
    SetNode,
    _OverOne,
    amount_bounds,
    amount_data,
    amount_value,
)
from stargazer_rules.vocabulary.expressions.scope import FREE, Interval, Limits, Scope


# -- amounts --------------------------------------------------------------------------------


@attrs.frozen
class CountOf(_OverOne, AmountNode):
    """How many members a set has: ``{planets: full}``, ``{seats: others}``, ``{crews: unpicked}``."""

    of: SetNode

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.of.kind

    def value(self, scope: Scope) -> int:
        return len(self.of.members(scope))

    def bounds(self, limits: Limits) -> Interval:
        return (0, self.of.most(limits))


@attrs.frozen
class Colours(_OverOne, AmountNode):
    """How many colours the Planets of a set show: ``{colours: {where: {has_cube: me}}}``."""

    word: ClassVar[str] = "colours"
    of: SetNode

    def value(self, scope: Scope) -> int:
        table = scope.table
        return len({table.colour_of(p) for p in self.of.members(scope)})

    def bounds(self, limits: Limits) -> Interval:
        return (0, min(limits.colours, self.of.most(limits)))


#: Whose cubes ``cubes`` counts: a seat set, ``free`` (the virtual player's) or ``anyone``.
OWNER_WORDS = ("free", "anyone")
#: Where ``cubes`` counts: normal squares (R2), special squares (R3) or both.
SQUARES = ("normal", "special", "both")


@attrs.frozen
class Cubes(AmountNode):
    """Cubes on the Planets of a set: ``{cubes: {owner: me, squares: normal, planets: all}}``
    (each key may be left out: anyone's, on normal squares, on every Planet)."""

    word: ClassVar[str] = "cubes"
    owner: SetNode | str
    squares: str
    planets: SetNode

    def children(self) -> Iterator[Node | int]:
        if isinstance(self.owner, Node):
            yield self.owner
        yield self.planets

    def value(self, scope: Scope) -> int:
        table = scope.table
        owner = self.owner
        owners: set[int] | None
        if owner == "anyone":
            owners = None
        elif owner == "free":
            owners = {FREE}
        else:
            owners = set(owner.members(scope))  # type: ignore[union-attr]
        total = 0
        for p in self.planets.members(scope):
            cubes: tuple[int, ...] = ()
            if self.squares != "special":
                cubes = table.tracks[p]
            if self.squares != "normal":
                cubes = cubes + table.specials[p]
            total += len(cubes) if owners is None else sum(1 for o in cubes if o in owners)
        return total

    def bounds(self, limits: Limits) -> Interval:
        if self.owner == "free":
            return (0, limits.free_cubes)
        if self.owner == "anyone":
            return (0, limits.players * limits.cubes_per_player + limits.free_cubes)
        return (0, self.owner.most(limits) * limits.cubes_per_player)  # type: ignore[union-attr]

    def to_data(self) -> Any:
        owner = self.owner if isinstance(self.owner, str) else self.owner.to_data()
        return {"cubes": {"owner": owner, "squares": self.squares, "planets": self.planets.to_data()}}


@attrs.frozen
class CrewCubes(_OverOne, AmountNode):
    """Cubes on the crews of a set: free cubes (``{free_cubes: all}``) or player cubes
    (``{player_cubes: this_crew}``), each set down by a skill or the round's end (R6, R11)."""

    free: bool
    of: SetNode

    @property
    def word(self) -> str:  # type: ignore[override]
        return "free_cubes" if self.free else "player_cubes"

    def value(self, scope: Scope) -> int:
        table = scope.table
        if self.free:
            return sum(table.crew_free[slot] for slot in self.of.members(scope))
        return sum(len(table.crew_cubes[slot]) for slot in self.of.members(scope))

    def bounds(self, limits: Limits) -> Interval:
        if self.free:
            return (0, min(limits.free_cubes, self.of.most(limits) * limits.free_on_crew))
        return (0, limits.players * limits.cubes_per_player)


@attrs.frozen
class HandOf(_OverOne, AmountNode):
    """Cubes in the hands of a set of seats: ``{hand: me}``."""

    word: ClassVar[str] = "hand"
    of: SetNode

    def value(self, scope: Scope) -> int:
        hands = scope.table.hands
        return sum(hands[seat] for seat in self.of.members(scope))

    def bounds(self, limits: Limits) -> Interval:
        return (0, self.of.most(limits) * limits.cubes_per_player)


@attrs.frozen
class VPOf(_OverOne, AmountNode):
    """VP scored during play by a set of seats (R18): ``{vp: me}``. It has no bound, so it may
    be compared but may not give VP or change a survey."""

    word: ClassVar[str] = "vp"
    of: SetNode

    def value(self, scope: Scope) -> int:
        vp = scope.table.vp
        return sum(vp[seat] for seat in self.of.members(scope))

    def bounds(self, limits: Limits) -> Interval:
        return (0, None)


@attrs.frozen
class Room(_OverOne, AmountNode):
    """Empty normal squares on the Planets of a set: ``{room: this_planet}``."""

    word: ClassVar[str] = "room"
    of: SetNode

    def value(self, scope: Scope) -> int:
        table = scope.table
        return sum(table.room(p) for p in self.of.members(scope))

    def bounds(self, limits: Limits) -> Interval:
        return (0, self.of.most(limits) * limits.longest_track)


@attrs.frozen
class Quantity(AmountNode):
    """A number of the game by its word: ``round`` (1-based), ``players``, ``stock`` (free
    cubes in the stock), ``full_planets_to_end`` (the player count's knob of R10 in
    rules.yaml's ``player_counts``)."""

    words: ClassVar[tuple[str, ...]] = ("round", "players", "stock", "full_planets_to_end")
    name: str

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.name

    def value(self, scope: Scope) -> int:
        table = scope.table
        if self.name == "round":
            return table.round
        if self.name == "players":
            return table.players
        if self.name == "stock":
            return table.stock
        return table.game.ruleset.setups[table.players].full_planets_to_end

    def bounds(self, limits: Limits) -> Interval:
        if self.name == "round":
            return (1, limits.rounds)
        if self.name == "players":
            return (limits.least_players, limits.players)
        if self.name == "stock":
            return (0, limits.free_cubes)
        return (0, limits.planets)  # at most the Planets dealt (the loader checks it)

    def to_data(self) -> Any:
        return self.name


#: The arithmetic words and how each combines its amounts' values and bounds.
ARITHMETIC = ("sum", "difference", "product", "min", "max")


@attrs.frozen
class Arithmetic(AmountNode):
    """``sum``, ``difference`` (the first less the others), ``product``, ``min`` or ``max`` of
    a list of amounts: ``{min: [{free_cubes: all}, 3]}`` is "at most 3"."""

    operator: str
    items: tuple[Amount, ...]

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.operator

    def children(self) -> Iterator[Node | int]:
        return iter(self.items)

    def value(self, scope: Scope) -> int:
        values = [amount_value(item, scope) for item in self.items]
        op = self.operator
        if op == "sum":
            return sum(values)
        if op == "difference":
            return values[0] - sum(values[1:])
        if op == "min":
            return min(values)
        if op == "max":
            return max(values)
        product = 1
        for value in values:
            product *= value
        return product

    def bounds(self, limits: Limits) -> Interval:
        parts = [amount_bounds(item, limits) for item in self.items]
        if any(lo is None or hi is None for lo, hi in parts):
            return (None, None)
        op = self.operator
        los = [lo for lo, _ in parts]
        his = [hi for _, hi in parts]
        if op == "sum":
            return (sum(los), sum(his))  # type: ignore[arg-type]
        if op == "difference":
            return (los[0] - sum(his[1:]), his[0] - sum(los[1:]))  # type: ignore[operator,arg-type]
        if op == "min":
            return (min(los), min(his))  # type: ignore[type-var]
        if op == "max":
            return (max(los), max(his))  # type: ignore[type-var]
        lo, hi = 1, 1
        for a, b in parts:
            corners = [lo * a, lo * b, hi * a, hi * b]  # type: ignore[operator]
            lo, hi = min(corners), max(corners)
        return (lo, hi)

    def to_data(self) -> Any:
        return {self.operator: [amount_data(item) for item in self.items]}


#: The aggregate words: the greatest or least of an amount over a set's members.
EXTREMES = ("most_of", "least_of")


@attrs.frozen
class Extreme(AmountNode):
    """``most_of`` or ``least_of``: the greatest or least value of ``amount`` read once for
    each member of a set, with that member bound (``this_seat``, ``this_planet`` or
    ``this_crew``) and the outer bindings otherwise kept; 0 when the set is empty:
    ``{most_of: {seats: everyone, amount: {hand: this_seat}}}`` (issue 27: a seat's amount
    compared with the other seats')."""

    most: bool
    of: SetNode
    amount: Amount

    @property
    def word(self) -> str:  # type: ignore[override]
        return "most_of" if self.most else "least_of"

    def children(self) -> Iterator[Node | int]:
        yield self.of
        yield self.amount

    def value(self, scope: Scope) -> int:
        kind = self.of.kind
        values = [amount_value(self.amount, scope.bind(kind, m)) for m in self.of.members(scope)]
        if not values:
            return 0
        return max(values) if self.most else min(values)

    def bounds(self, limits: Limits) -> Interval:
        # within the amount's bounds, and 0 (an empty set's value) too
        lo, hi = amount_bounds(self.amount, limits)
        return (None if lo is None else min(lo, 0), None if hi is None else max(hi, 0))

    def to_data(self) -> Any:
        return {self.word: {self.of.kind: self.of.to_data(), "amount": amount_data(self.amount)}}


def reads_vp(node: Node | int | str) -> bool:
    """Whether an expression reads a seat's VP (and so has no bound as an amount of VP)."""
    if isinstance(node, VPOf):
        return True
    return isinstance(node, Node) and any(reads_vp(child) for child in node.children())
