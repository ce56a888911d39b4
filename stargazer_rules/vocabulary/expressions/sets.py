"""The sets of the rules language: Planets, seats and crews by word, by colour, by VP, to the
left of, and filtered by a condition (``where``); each lists its members on a ``Scope`` and
bounds their count by the ``Limits``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from stargazer_rules.vocabulary.expressions.nodes import ConditionNode, Node, SetNode, _OverOne
from stargazer_rules.vocabulary.expressions.scope import CREWS, PLANETS, SEATS, Limits, Scope


# -- sets -----------------------------------------------------------------------------------


def _seat_order(scope: Scope) -> range | list[int]:
    """Every seat in turn order from "you", or from the start player when nobody is "you"
    (a planet ability's event of the whole table, or a free cube's, docs/skills.md)."""
    players = scope.table.players
    first = scope.me if scope.me >= 0 else scope.table.start_player
    return [(first + k) % players for k in range(players)]


@attrs.frozen
class PlanetsNamed(SetNode):
    """A set of Planets by a word: ``all``, ``with_room``, ``full``, ``surveyed`` (got a cube
    in this turn's survey), ``this_planet``."""

    kind: ClassVar[str] = PLANETS
    words: ClassVar[tuple[str, ...]] = ("all", "with_room", "full", "surveyed", "this_planet")
    name: str

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.name

    def members(self, scope: Scope) -> tuple[int, ...]:
        table = scope.table
        name = self.name
        if name == "this_planet":
            return (scope.planet,)
        if name == "surveyed":
            return tuple(sorted(table.surveyed))
        count = table.planet_count
        if name == "all":
            return tuple(range(count))
        if name == "with_room":
            return tuple(p for p in range(count) if table.room(p) > 0)
        return tuple(p for p in range(count) if table.room(p) == 0)

    def most(self, limits: Limits) -> int:
        return 1 if self.name == "this_planet" else limits.planets

    def to_data(self) -> Any:
        return self.name


@attrs.frozen
class PlanetsOfColour(SetNode):
    """The Planets of one colour: ``{colour: blue}``."""

    word: ClassVar[str] = "colour"
    kind: ClassVar[str] = PLANETS
    colour: str

    def members(self, scope: Scope) -> tuple[int, ...]:
        table = scope.table
        return tuple(p for p in range(table.planet_count) if table.colour_of(p) == self.colour)

    def to_data(self) -> Any:
        return {"colour": self.colour}


@attrs.frozen
class NextWithRoom(_OverOne, SetNode):
    """For each Planet of a set, the next Planet clockwise after it that has room (itself
    excluded, R4): ``{next_with_room: this_planet}``."""

    word: ClassVar[str] = "next_with_room"
    kind: ClassVar[str] = PLANETS
    of: SetNode

    def members(self, scope: Scope) -> tuple[int, ...]:
        table = scope.table
        count = table.planet_count
        found = set()
        for p in self.of.members(scope):
            for k in range(1, count):
                q = (p + k) % count
                if table.room(q) > 0:
                    found.add(q)
                    break
        return tuple(sorted(found))

    def most(self, limits: Limits) -> int:
        return min(limits.planets, self.of.most(limits))


@attrs.frozen
class SeatsNamed(SetNode):
    """A set of seats by a word: ``me``, ``others``, ``everyone``, ``start_player``,
    ``left`` (the seat after mine), ``this_seat``. Seats are listed in turn order from mine."""

    kind: ClassVar[str] = SEATS
    words: ClassVar[tuple[str, ...]] = ("me", "others", "everyone", "start_player", "left", "this_seat")
    name: str

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.name

    def members(self, scope: Scope) -> tuple[int, ...]:
        name = self.name
        if name == "me":
            return (scope.me,) if scope.me >= 0 else ()
        if name == "this_seat":
            return (scope.seat,)
        if name == "start_player":
            return (scope.table.start_player,)
        if name == "left":
            return ((scope.me + 1) % scope.table.players,) if scope.me >= 0 else ()
        order = _seat_order(scope)
        return tuple(order[1:]) if name == "others" and scope.me >= 0 else tuple(order)

    def most(self, limits: Limits) -> int:
        if self.name in ("others",):
            return limits.players - 1
        return limits.players if self.name == "everyone" else 1

    def to_data(self) -> Any:
        return self.name


@attrs.frozen
class SeatsByVP(_OverOne, SetNode):
    """The seats of a set holding its most (or fewest) VP, ties all included:
    ``{most_vp: others}``, ``{fewest_vp: everyone}``."""

    kind: ClassVar[str] = SEATS
    most_first: bool
    of: SetNode

    @property
    def word(self) -> str:  # type: ignore[override]
        return "most_vp" if self.most_first else "fewest_vp"

    def members(self, scope: Scope) -> tuple[int, ...]:
        seats = self.of.members(scope)
        if not seats:
            return ()
        vp = scope.table.vp
        best = max(vp[s] for s in seats) if self.most_first else min(vp[s] for s in seats)
        return tuple(s for s in seats if vp[s] == best)

    def most(self, limits: Limits) -> int:
        return self.of.most(limits)


@attrs.frozen
class LeftOf(_OverOne, SetNode):
    """For each seat of a set, the seat to its left, the next in turn order (R4):
    ``{left_of: start_player}`` where nobody is "you" (a round's end), ``{left_of: me}`` being
    ``left``. Listed in turn order from mine (from the start player when nobody is "you")."""

    word: ClassVar[str] = "left_of"
    kind: ClassVar[str] = SEATS
    of: SetNode

    def members(self, scope: Scope) -> tuple[int, ...]:
        players = scope.table.players
        found = {(seat + 1) % players for seat in self.of.members(scope)}
        return tuple(seat for seat in _seat_order(scope) if seat in found)

    def most(self, limits: Limits) -> int:
        return self.of.most(limits)


@attrs.frozen
class CrewsNamed(SetNode):
    """A set of crews by a word: ``all``, ``others`` (every crew but this skill's),
    ``unpicked`` (no worker on it this round), ``this_crew`` (the skill's own, or the crew
    bound by ``for_each``/``choose``/a filter)."""

    kind: ClassVar[str] = CREWS
    words: ClassVar[tuple[str, ...]] = ("all", "others", "unpicked", "this_crew")
    name: str

    @property
    def word(self) -> str:  # type: ignore[override]
        return self.name

    def members(self, scope: Scope) -> tuple[int, ...]:
        name = self.name
        if name == "this_crew":
            slot = scope.bound_crew if scope.bound_crew >= 0 else scope.crew
            return (slot,) if slot >= 0 else ()  # a planet ability has no crew of its own
        count = scope.table.crew_count
        if name == "all":
            return tuple(range(count))
        if name == "others":
            return tuple(slot for slot in range(count) if slot != scope.crew)
        workers = scope.table.workers
        return tuple(slot for slot in range(count) if workers[slot] < 0)

    def most(self, limits: Limits) -> int:
        return 1 if self.name == "this_crew" else limits.crews

    def to_data(self) -> Any:
        return self.name


@attrs.frozen
class Where(SetNode):
    """The members of ``of`` for which ``condition`` holds, each bound as ``this_planet``,
    ``this_seat`` or ``this_crew``: ``{where: <condition>, from: <set>}``."""

    word: ClassVar[str] = "where"
    set_kind: str
    condition: ConditionNode
    of: SetNode

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.set_kind

    def children(self) -> Iterator[Node | int]:
        yield self.condition
        yield self.of

    def members(self, scope: Scope) -> tuple[int, ...]:
        kind = self.set_kind
        condition = self.condition
        return tuple(m for m in self.of.members(scope) if condition.holds(scope.bind(kind, m)))

    def most(self, limits: Limits) -> int:
        return self.of.most(limits)

    def to_data(self) -> Any:
        data = {"where": self.condition.to_data()}
        default = "everyone" if self.set_kind == SEATS else "all"
        if self.of.to_data() != default:
            data["from"] = self.of.to_data()
        return data
