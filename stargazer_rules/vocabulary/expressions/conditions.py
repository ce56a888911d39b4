"""The conditions of the rules language: comparisons, ``all``/``any``/``not``, the seat
predicates and the tests of a bound Planet or crew; each holds or not on a ``Scope``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from stargazer_rules.vocabulary.expressions.nodes import Amount, ConditionNode, Node, SetNode, amount_data, amount_value
from stargazer_rules.vocabulary.expressions.scope import FREE, Scope
from stargazer_rules.vocabulary.majority import first_places


# -- conditions -----------------------------------------------------------------------------

#: The comparison words: each compares two amounts.
COMPARISONS = ("at_least", "at_most", "more_than", "less_than", "equal", "not_equal")


@attrs.frozen
class Compare(ConditionNode):
    """``{at_least: [a, b]}`` and the other ``COMPARISONS``: a against b."""

    operator: str
    left: Amount
    right: Amount

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.operator

    def children(self) -> Iterator[Node | int]:
        yield self.left
        yield self.right

    def holds(self, scope: Scope) -> bool:
        a = amount_value(self.left, scope)
        b = amount_value(self.right, scope)
        op = self.operator
        if op == "at_least":
            return a >= b
        if op == "at_most":
            return a <= b
        if op == "more_than":
            return a > b
        if op == "less_than":
            return a < b
        if op == "equal":
            return a == b
        return a != b

    def to_data(self) -> Any:
        return {self.operator: [amount_data(self.left), amount_data(self.right)]}


@attrs.frozen
class Logic(ConditionNode):
    """``all`` (every condition holds), ``any`` (one does) or ``not`` (the one condition fails)."""

    operator: str
    items: tuple[ConditionNode, ...]

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.operator

    def children(self) -> Iterator[Node | int]:
        return iter(self.items)

    def holds(self, scope: Scope) -> bool:
        if self.operator == "all":
            return all(item.holds(scope) for item in self.items)
        if self.operator == "any":
            return any(item.holds(scope) for item in self.items)
        return not self.items[0].holds(scope)

    def to_data(self) -> Any:
        if self.operator == "not":
            return {"not": self.items[0].to_data()}
        return {self.operator: [item.to_data() for item in self.items]}


#: Predicates of seats: each holds when a seat of its set is so.
SEAT_PREDICATES = ("is_start_player", "has_most_vp", "has_fewest_vp")


@attrs.frozen
class SeatPredicate(ConditionNode):
    """``{is_start_player: me}``, ``{has_most_vp: me}``, ``{has_fewest_vp: me}``: a seat of the
    set is the start player, or holds the most (fewest) VP of every seat, ties included."""

    predicate: str
    of: SetNode

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.predicate

    def children(self) -> Iterator[Node | int]:
        yield self.of

    def holds(self, scope: Scope) -> bool:
        seats = self.of.members(scope)
        table = scope.table
        if self.predicate == "is_start_player":
            return table.start_player in seats
        vp = table.vp
        best = max(vp) if self.predicate == "has_most_vp" else min(vp)
        return any(vp[seat] == best for seat in seats)

    def to_data(self) -> Any:
        return {self.predicate: self.of.to_data()}


@attrs.frozen
class OnPlanet(ConditionNode):
    """A predicate of the bound Planet (``this_planet``): ``{ranks_first: me}`` (a seat of the
    set ranks first on it, R15), ``{has_cube: me}`` (holds a cube of the owner on a normal
    square; ``free`` and ``anyone`` too), ``full``, ``has_room``, ``special_has_room``,
    ``surveyed`` (got a cube this turn), ``{is_colour: blue}``."""

    words: ClassVar[tuple[str, ...]] = ("full", "has_room", "special_has_room", "surveyed")
    with_seats: ClassVar[tuple[str, ...]] = ("ranks_first", "has_cube")
    predicate: str
    of: SetNode | str | None = None

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.predicate

    def children(self) -> Iterator[Node | int]:
        if isinstance(self.of, Node):
            yield self.of

    def holds(self, scope: Scope) -> bool:
        table = scope.table
        p = scope.planet
        predicate = self.predicate
        if predicate == "full":
            return table.room(p) == 0
        if predicate == "has_room":
            return table.room(p) > 0
        if predicate == "special_has_room":
            return table.special_room(p) > 0
        if predicate == "surveyed":
            return p in table.surveyed
        if predicate == "is_colour":
            return table.colour_of(p) == self.of
        owner = self.of
        track = table.tracks[p]
        if predicate == "ranks_first":
            first = first_places(track, table.game.ruleset.majority)
            if owner == "free":
                return FREE in first
            if owner == "anyone":
                return any(o >= 0 for o in first)
            owners = owner.members(scope)  # type: ignore[union-attr]
            return any(o in owners for o in first)
        if owner == "anyone":
            return bool(track)
        if owner == "free":
            return FREE in track
        owners = owner.members(scope)  # type: ignore[union-attr]
        return any(o in owners for o in track)

    def to_data(self) -> Any:
        if self.of is None:
            return self.predicate
        of = self.of if isinstance(self.of, str) else self.of.to_data()
        return {self.predicate: of}


@attrs.frozen
class OnCrew(ConditionNode):
    """A predicate of the bound crew (``this_crew``): ``unpicked`` (no worker on it this round)."""

    words: ClassVar[tuple[str, ...]] = ("unpicked",)
    predicate: str

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.predicate

    def holds(self, scope: Scope) -> bool:
        slot = scope.bound_crew if scope.bound_crew >= 0 else scope.crew
        return slot >= 0 and scope.table.workers[slot] < 0  # a planet ability has no crew of its own

    def to_data(self) -> Any:
        return self.predicate
