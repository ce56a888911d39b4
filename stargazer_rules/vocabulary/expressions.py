"""The rules language's expressions: amounts, conditions and the sets of Planets, seats and crews.

Every place where a skill took a constant can take an expression, computed from the position
when the effect resolves (docs/skills.md, "The rules language"):

- an **amount** is an integer: a number, a count (``planets: full``, ``cubes: {owner: me}``),
  a seat's VP or hand, the round, ``sum``/``difference``/``product``/``min``/``max`` of
  amounts, or ``most_of``/``least_of`` an amount over a set's members, each bound in turn;
- a **condition** is true or false: a comparison of two amounts (``at_least: [a, b]``),
  ``all``/``any``/``not``, or a predicate (``has_fewest_vp: me``, ``ranks_first: me``);
- a **set** lists Planets (ring order), seats (turn order from the chooser) or crews
  (crew-area order): a word (``with_room``, ``others``, ``unpicked``) or a filter
  (``{where: <condition>, from: <set>}``) whose condition reads the member as ``this_planet``,
  ``this_seat`` or ``this_crew``.

An expression is parsed once by the loader (``parse``: every problem at its path, with "did
you mean"), evaluated by the Python engine on a ``Scope`` and compiled node for node into the
kernel, which reads each node's ``word`` and named fields. ``bounds`` gives an amount's least
and most from the ruleset's limits, so that the VP a seat may hold and the survey count stay
bounded for any program: an amount that reads VP has no bound and may not give VP.

This module is the bottom of the package: it imports nothing of the rules.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Union

import attrs

from stargazer_rules.vocabulary.majority import first_places

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table

#: The kinds of expression, as the loader's problems and the docs name them.
AMOUNT = "amount"
CONDITION = "condition"
PLANETS = "planets"
SEATS = "seats"
CREWS = "crews"
KINDS = (AMOUNT, CONDITION, PLANETS, SEATS, CREWS)

#: What a set's filter binds, by the set's kind: the word its condition reads the member by.
BOUND_WORD = {PLANETS: "this_planet", SEATS: "this_seat", CREWS: "this_crew"}

#: Owner of a free cube (the virtual player, R15): the same number as ``effects.FREE_CUBE_OWNER``.
FREE = -1

#: The largest number (either sign) an effect parameter or an amount may be written with: far
#: past any card, and small enough that no product of a program leaves the kernel's 32 bits
#: unnoticed (the crew schema's bound too).
VALUE_LIMIT = 100


# -- the scope an expression is evaluated in ----------------------------------------------


@attrs.frozen
class Scope:
    """Where an expression is evaluated: the table, the chooser (``me``), the crew slot whose
    skill resolves, and the Planet, seat and crew bound by the innermost ``for_each``,
    ``choose`` or filter (-1 when none)."""

    table: Table
    me: int
    crew: int
    planet: int = -1
    seat: int = -1
    bound_crew: int = -1

    def bind(self, kind: str, member: int) -> Scope:
        if kind == PLANETS:
            return attrs.evolve(self, planet=member)
        if kind == SEATS:
            return attrs.evolve(self, seat=member)
        return attrs.evolve(self, bound_crew=member)


@attrs.frozen
class Limits:
    """The ruleset's numbers an amount's bounds are made of (``Game.bounds`` gives them)."""

    players: int
    least_players: int
    planets: int
    crews: int
    #: The most cubes one seat owns: the ruleset's, and the stock's when a seat may take
    #: free cubes as its own (``bounds.most_owned``, idea R8).
    cubes_per_player: int
    free_cubes: int
    free_on_crew: int
    rounds: int
    longest_track: int
    special_capacity: int
    colours: int
    least_survey_count: int
    most_survey_count: int
    free_cube_vp: int


Interval = tuple[int | None, int | None]


# -- nodes ----------------------------------------------------------------------------------


class Node:
    """Base of every expression node: ``word`` is its YAML key (or word), ``kind`` its type."""

    word: ClassVar[str] = ""
    kind: ClassVar[str] = ""

    def children(self) -> Iterator[Node | int]:
        return iter(())

    def to_data(self) -> Any:
        raise NotImplementedError


Amount = Union[int, "AmountNode"]


class AmountNode(Node):
    kind: ClassVar[str] = AMOUNT

    def value(self, scope: Scope) -> int:
        raise NotImplementedError

    def bounds(self, limits: Limits) -> Interval:
        raise NotImplementedError


class ConditionNode(Node):
    kind: ClassVar[str] = CONDITION

    def holds(self, scope: Scope) -> bool:
        raise NotImplementedError


class SetNode(Node):
    """A set of Planets, seats or crews: ``members`` lists them in the set kind's order."""

    def members(self, scope: Scope) -> tuple[int, ...]:
        raise NotImplementedError

    def most(self, limits: Limits) -> int:
        """The most members the set can have."""
        return {PLANETS: limits.planets, SEATS: limits.players, CREWS: limits.crews}[self.kind]


def amount_value(amount: Amount, scope: Scope) -> int:
    """An amount's value: a number as written, an expression computed now."""
    return amount if type(amount) is int else amount.value(scope)  # type: ignore[union-attr]


def amount_bounds(amount: Amount, limits: Limits) -> Interval:
    return (amount, amount) if type(amount) is int else amount.bounds(limits)  # type: ignore[union-attr]


def amount_data(amount: Amount) -> Any:
    return amount if type(amount) is int else amount.to_data()  # type: ignore[union-attr]


def reads_vp(node: Node | int | str) -> bool:
    """Whether an expression reads a seat's VP (and so has no bound as an amount of VP)."""
    if isinstance(node, VPOf):
        return True
    return isinstance(node, Node) and any(reads_vp(child) for child in node.children())


def walk(node: Node | int | str) -> Iterator[Node]:
    """Every node of an expression, itself first."""
    if isinstance(node, Node):
        yield node
        for child in node.children():
            yield from walk(child)


class _OverOne:
    """What a node over one set (``of``) shares: its child, and its YAML ``{word: <set>}``."""

    of: SetNode
    word: ClassVar[str]

    def children(self) -> Iterator[Node | int]:
        yield self.of

    def to_data(self) -> Any:
        return {self.word: self.of.to_data()}


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


# -- parsing --------------------------------------------------------------------------------

Path = tuple[Any, ...]


@attrs.define
class Parser:
    """Parses expressions from YAML data, collecting every problem as (path, message).

    ``colours`` are the ruleset's colour ids (a ``colour`` word names one of them); ``bound``
    the set kinds bound where the expression stands (``this_planet`` needs a Planet bound).
    """

    colours: Sequence[str]
    problems: list[tuple[Path, str]] = attrs.field(factory=list)

    def problem(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def parse(self, kind: str, data: Any, path: Path, bound: frozenset[str] = frozenset()) -> Any:
        """The node of ``kind`` that ``data`` writes, or None with problems recorded."""
        if kind == AMOUNT:
            return self.amount(data, path, bound)
        if kind == CONDITION:
            return self.condition(data, path, bound)
        return self.set_of(kind, data, path, bound)

    # -- helpers --

    def _unknown_colour(self, value: Any, at: Path) -> None:
        hint = _did_you_mean(str(value), self.colours)
        self.problem(at, f"unknown colour {_shown(value)}{hint}; the ruleset's colours: {', '.join(self.colours)}")

    def _word(self, data: Any, path: Path, kind: str, words: Sequence[str], keys: Sequence[str]) -> tuple[str, Any] | None:
        """The word of an expression: a string, or the one key of a mapping."""
        if isinstance(data, str):
            if data in words:
                return data, None
            hint = _did_you_mean(data, [*words, *keys])
            if data in keys:
                self.problem(path, f"{data!r} needs a value here: write it as {{{data}: ...}}")
            else:
                self.problem(path, f"unknown {_KIND_NAMES[kind]} word {data!r}{hint}; expected one of {_listing(words, keys)}")
            return None
        if isinstance(data, Mapping):
            if kind in (PLANETS, SEATS, CREWS) and "where" in data:
                return "where", data
            if len(data) != 1:
                self.problem(path, f"a {_KIND_NAMES[kind]} mapping has exactly one key (its word), not {len(data)}: {_listing((), [str(k) for k in data])}")
                return None
            (key, value), = data.items()
            if key in keys:
                return str(key), value
            hint = _did_you_mean(str(key), [*keys, *words])
            self.problem((*path, key), f"unknown {_KIND_NAMES[kind]} word {key!r}{hint}; expected one of {_listing(words, keys)}")
            return None
        self.problem(path, f"expected {_a(kind)} here, found {_shown(data)}")
        return None

    def _list(self, kind: str, data: Any, path: Path, bound: frozenset[str], least: int) -> tuple | None:
        if not isinstance(data, list) or len(data) < least:
            self.problem(path, f"expected a list of at least {least} {_KIND_NAMES[kind]}{'s' if least != 1 else ''}, found {_shown(data)}")
            return None
        items = tuple(self.parse(kind, item, (*path, i), bound) for i, item in enumerate(data))
        return None if any(item is None for item in items) else items

    # -- amounts --

    def amount(self, data: Any, path: Path, bound: frozenset[str]) -> Amount | None:
        if type(data) is int:
            if abs(data) > VALUE_LIMIT:
                # worded as the schema's bounds are (rulesets.validation)
                found = str(data) if len(str(data)) <= 30 else f"a {len(str(data))}-digit number"
                bound = f"at most {VALUE_LIMIT} (the schema's maximum)" if data > 0 else f"at least {-VALUE_LIMIT} (the schema's minimum)"
                self.problem(path, f"expected {bound}, found {found}")
                return None
            return data
        if isinstance(data, bool) or isinstance(data, float):
            self.problem(path, f"expected an amount (a whole number or an expression), found {_shown(data)}")
            return None
        keys = ("planets", "seats", "crews", "colours", "cubes", "free_cubes", "player_cubes", "hand", "vp", "room", *ARITHMETIC, *EXTREMES)
        found = self._word(data, path, AMOUNT, Quantity.words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word in Quantity.words:
            return Quantity(word)
        if word in ("planets", "seats", "crews"):
            of = self.set_of(word, value, at, bound)
            return None if of is None else CountOf(of)
        if word == "colours":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else Colours(of)
        if word in ("free_cubes", "player_cubes"):
            of = self.set_of(CREWS, value, at, bound)
            return None if of is None else CrewCubes(word == "free_cubes", of)
        if word in ("hand", "vp"):
            of = self.set_of(SEATS, value, at, bound)
            return None if of is None else (HandOf(of) if word == "hand" else VPOf(of))
        if word == "room":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else Room(of)
        if word == "cubes":
            return self._cubes(value, at, bound)
        if word in EXTREMES:
            return self._extreme(word, value, at, bound)
        least = 2 if word in ("difference",) else 1
        items = self._list(AMOUNT, value, at, bound, least)
        return None if items is None else Arithmetic(word, items)

    def _cubes(self, value: Any, at: Path, bound: frozenset[str]) -> Cubes | None:
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            self.problem(at, f"cubes takes a mapping of owner, squares and planets, found {_shown(value)}")
            return None
        ok = True
        for key in value:
            if key not in ("owner", "squares", "planets"):
                self.problem((*at, key), f"unknown key {key!r} of cubes{_did_you_mean(str(key), ['owner', 'squares', 'planets'])}; expected owner, squares or planets")
                ok = False
        owner = self.owner(value.get("owner", "anyone"), (*at, "owner"), bound)
        squares = value.get("squares", "normal")
        if squares not in SQUARES:
            self.problem((*at, "squares"), f"squares is one of {', '.join(SQUARES)}, not {_shown(squares)}{_did_you_mean(str(squares), SQUARES)}")
            ok = False
        planets = self.set_of(PLANETS, value.get("planets", "all"), (*at, "planets"), bound)
        if not ok or owner is None or planets is None:
            return None
        return Cubes(owner, squares, planets)

    def _extreme(self, word: str, value: Any, at: Path, bound: frozenset[str]) -> Extreme | None:
        """``{most_of: {seats: <set>, amount: <amount>}}`` (or planets, crews): the amount is
        read with the set's member bound."""
        keys = ("planets", "seats", "crews", "amount")
        if not isinstance(value, Mapping):
            self.problem(at, f"{word} takes a mapping of a set (planets, seats or crews) and an amount, found {_shown(value)}")
            return None
        ok = True
        for key in value:
            if key not in keys:
                self.problem((*at, key), f"unknown key {key!r} of {word}{_did_you_mean(str(key), keys)}; expected planets, seats or crews, and amount")
                ok = False
        kinds = [key for key in (PLANETS, SEATS, CREWS) if key in value]
        if len(kinds) != 1 and (ok or kinds):  # a misspelt set's key is problem enough
            named = f"found {', '.join(kinds)}" if kinds else "found none"
            self.problem(at, f"{word} reads its amount over one set: write exactly one of planets, seats or crews ({named})")
            ok = False
        if "amount" not in value:
            self.problem(at, f"{word} needs an amount: {{{word}: {{seats: everyone, amount: ...}}}}")
            ok = False
        if not ok:
            return None
        kind = kinds[0]
        of = self.set_of(kind, value[kind], (*at, kind), bound)
        amount = self.amount(value["amount"], (*at, "amount"), bound | {kind})
        if of is None or amount is None:
            return None
        return Extreme(word == "most_of", of, amount)

    def owner(self, data: Any, path: Path, bound: frozenset[str]) -> SetNode | str | None:
        """Whose cubes: ``free``, ``anyone`` or a set of seats."""
        if data in OWNER_WORDS:
            return data
        return self.set_of(SEATS, data, path, bound)

    # -- conditions --

    def condition(self, data: Any, path: Path, bound: frozenset[str]) -> ConditionNode | None:
        words = (*OnPlanet.words, *OnCrew.words)
        keys = (*COMPARISONS, "all", "any", "not", *SEAT_PREDICATES, *OnPlanet.with_seats, "is_colour")
        found = self._word(data, path, CONDITION, words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word in COMPARISONS:
            if not isinstance(value, list) or len(value) != 2:
                self.problem(at, f"{word} compares two amounts: write [a, b], not {_shown(value)}")
                return None
            left = self.amount(value[0], (*at, 0), bound)
            right = self.amount(value[1], (*at, 1), bound)
            return None if left is None or right is None else Compare(word, left, right)
        if word in ("all", "any"):
            items = self._list(CONDITION, value, at, bound, 1)
            return None if items is None else Logic(word, items)
        if word == "not":
            item = self.condition(value, at, bound)
            return None if item is None else Logic("not", (item,))
        if word in SEAT_PREDICATES:
            of = self.set_of(SEATS, value, at, bound)
            return None if of is None else SeatPredicate(word, of)
        if word in OnCrew.words:
            if CREWS not in bound:
                self.problem(path, f"{word!r} reads the crew bound by for_each, choose or a crews' where; none is bound here")
                return None
            return OnCrew(word)
        if PLANETS not in bound:
            self.problem(path, f"{word!r} reads the Planet bound by for_each, choose or a planets' where; none is bound here")
            return None
        if word == "is_colour":
            if value not in self.colours:
                self._unknown_colour(value, at)
                return None
            return OnPlanet(word, value)
        if word in OnPlanet.with_seats:
            owner = self.owner(value, at, bound)
            return None if owner is None else OnPlanet(word, owner)
        return OnPlanet(word)

    # -- sets --

    def set_of(self, kind: str, data: Any, path: Path, bound: frozenset[str]) -> SetNode | None:
        if kind == PLANETS:
            words, keys = PlanetsNamed.words, ("colour", "next_with_room")
        elif kind == SEATS:
            words, keys = SeatsNamed.words, ("most_vp", "fewest_vp", "left_of")
        else:
            words, keys = CrewsNamed.words, ()
        found = self._word(data, path, kind, words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word == "where":
            return self._where(kind, value, path, bound)
        if word in words:
            needs = BOUND_WORD.get(kind)
            if word == needs and kind not in bound and kind != CREWS:
                self.problem(path, f"{word!r} names the {_KIND_NAMES[kind][:-1] if kind != SEATS else 'seat'} bound by for_each, choose or a where; none is bound here")
                return None
            if kind == PLANETS:
                return PlanetsNamed(word)
            if kind == SEATS:
                return SeatsNamed(word)
            return CrewsNamed(word)
        if word == "colour":
            if value not in self.colours:
                self._unknown_colour(value, at)
                return None
            return PlanetsOfColour(value)
        if word == "next_with_room":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else NextWithRoom(of)
        of = self.set_of(SEATS, value, at, bound)
        if of is None:
            return None
        return LeftOf(of) if word == "left_of" else SeatsByVP(word == "most_vp", of)

    def _where(self, kind: str, data: Mapping[str, Any], path: Path, bound: frozenset[str]) -> SetNode | None:
        extra = [key for key in data if key not in ("where", "from")]
        for key in extra:
            self.problem((*path, key), f"unknown key {key!r} beside where{_did_you_mean(str(key), ['where', 'from'])}; a filter has where and, optionally, from")
        default = "everyone" if kind == SEATS else "all"
        of = self.set_of(kind, data.get("from", default), (*path, "from"), bound)
        condition = self.condition(data["where"], (*path, "where"), bound | {kind})
        if extra or of is None or condition is None:
            return None
        return Where(kind, condition, of)


_KIND_NAMES = {AMOUNT: "amount", CONDITION: "condition", PLANETS: "Planets", SEATS: "seats", CREWS: "crews"}


def _a(kind: str) -> str:
    name = _KIND_NAMES[kind]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}" if kind in (CONDITION,) else f"a set of {name}"


def _listing(words: Sequence[str], keys: Sequence[str]) -> str:
    parts = [*words, *(f"{{{key}: ...}}" for key in keys)]
    return ", ".join(parts)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _did_you_mean(word: str, candidates: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: The grammar: every word of each kind with what it takes. ``None``: a bare word; a kind:
#: one expression of it; ``(LIST, kind, least)``: a list of at least ``least``; ``PAIR``: two
#: amounts; ``COLOUR``: a colour id; ``OWNER_VALUE``: a set of seats, ``free`` or ``anyone``;
#: ``CUBES_VALUE``: the mapping of ``cubes``; ``WHERE_VALUE``: a filter; ``EXTREME_VALUE``:
#: a set (by its kind's key) and an amount. The parser reads
#: these words, the crew schema (``rulesets.schemas``) and docs/skills.md are generated from
#: this table, and a test holds the three together.
LIST, PAIR, COLOUR, OWNER_VALUE, CUBES_VALUE, WHERE_VALUE = "list", "pair", "colour", "owner", "cubes", "where"
EXTREME_VALUE = "extreme"
GRAMMAR: Mapping[str, Mapping[str, Any]] = {
    AMOUNT: {
        **{word: None for word in Quantity.words},
        "planets": PLANETS,
        "seats": SEATS,
        "crews": CREWS,
        "colours": PLANETS,
        "cubes": CUBES_VALUE,
        "free_cubes": CREWS,
        "player_cubes": CREWS,
        "hand": SEATS,
        "vp": SEATS,
        "room": PLANETS,
        **{word: (LIST, AMOUNT, 2 if word == "difference" else 1) for word in ARITHMETIC},
        **{word: EXTREME_VALUE for word in EXTREMES},
    },
    CONDITION: {
        **{word: PAIR for word in COMPARISONS},
        "all": (LIST, CONDITION, 1),
        "any": (LIST, CONDITION, 1),
        "not": CONDITION,
        **{word: SEATS for word in SEAT_PREDICATES},
        **{word: OWNER_VALUE for word in OnPlanet.with_seats},
        "is_colour": COLOUR,
        **{word: None for word in (*OnPlanet.words, *OnCrew.words)},
    },
    PLANETS: {**{word: None for word in PlanetsNamed.words}, "colour": COLOUR, "next_with_room": PLANETS, "where": WHERE_VALUE},
    SEATS: {**{word: None for word in SeatsNamed.words}, "most_vp": SEATS, "fewest_vp": SEATS, "left_of": SEATS, "where": WHERE_VALUE},
    CREWS: {**{word: None for word in CrewsNamed.words}, "where": WHERE_VALUE},
}


def words_of(kind: str) -> tuple[str, ...]:
    """Every word of the expressions of ``kind``, for the docs and the schema."""
    return tuple(GRAMMAR[kind])
