"""The effects that move cubes: the crew words that place ``count`` cubes one decision at a time
(free cubes onto crews and Planets, the chooser's onto crews and special squares), and the rules
language's actions that return, move, place, collect and take cubes with no decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import TARGET_CREW, TARGET_PLANET, Action, action
from stargazer_rules.vocabulary.expressions import (
    AMOUNT,
    CREWS,
    PLANETS,
    SEATS,
    Amount,
    Limits,
    Scope,
    SetNode,
    amount_value,
)
from stargazer_rules.vocabulary.table import _bump
from stargazer_rules.vocabulary.effects.base import (
    AFTER_SURVEY,
    FREE_CUBE_OWNER,
    ON_CHOOSE,
    OWNER,
    _COUNT,
    _NO_FOLLOW_UP,
    _PLAY_TIMINGS,
    Effect,
    Param,
    TimingRequirement,
    _Immediate,
)
from stargazer_rules.vocabulary.effects.scoring_effects import ME, _to_data

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


@attrs.frozen(kw_only=True)
class _Counted(Effect):
    """Base of the effects that move ``count`` cubes one at a time, a decision for each."""

    params: ClassVar[tuple[Param, ...]] = (_COUNT,)
    VP_PER_STEP: ClassVar[int | None] = 0
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0

    count: int = 1

    @property
    def steps(self) -> int:
        return self.count


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
    CHOICES_FROM: ClassVar[str | None] = "other_crews"
    MOVES_CUBES: ClassVar[bool] = False
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

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

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.stock_to_crew(choice.target)
        return _NO_FOLLOW_UP


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
    CHOICES_FROM: ClassVar[str | None] = "planets"
    LANDINGS_PER_STEP: ClassVar[int | None] = 1

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.stock == 0:
            return ()
        return tuple(action(TARGET_PLANET, p) for p in table.planets_with_room())

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
    CHOICES_FROM: ClassVar[str | None] = "other_crews"
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        if table.hands[seat] == 0:
            return ()
        return tuple(action(TARGET_CREW, other) for other in range(table.crew_count) if other != slot)

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
    CHOICES_FROM: ClassVar[str | None] = "planets"
    LANDINGS_PER_STEP: ClassVar[int | None] = 1

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

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.hand_to_special(seat, choice.target)
        return _NO_FOLLOW_UP


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


#: Where a cube stands or goes on a Planet: its track, the rearmost square (R2; the cube that
#: stands furthest back when one is taken off), or its special square (R3).
SQUARE_KINDS = ("rearmost", "special")

_SQUARE_TAKEN = Param(
    "square",
    "choice",
    "rearmost: the cube that stands furthest back on the track (R2); special: the cube placed "
    "last on the special square (R3; never a free cube).",
    choices=SQUARE_KINDS,
    default="rearmost",
)


def _square_cubes(table: Table, p: int, square: str) -> tuple[int, ...]:
    """The owners on Planet ``p``'s track (square 1 first) or special square (placed first first)."""
    return table.specials[p] if square == "special" else table.tracks[p]


def _take_cube(table: Table, p: int, index: int, square: str) -> tuple[int, int]:
    """Take a cube off Planet ``p``, from its track or its special square, and return its owner
    and the square it left (0: the special square, as ``cube_placed`` says)."""
    if square == "special":
        return table.take_from_special(p, index), 0
    return table.take_from_track(p, index), index + 1


def _refuse_free_on_special(effect: Effect, owner: SetNode | str, square: str) -> None:
    if owner == "free" and square == "special":
        raise ValueError(f"{effect.name} with square special needs an owner other than free: a free cube never stands on a special square (R3)")


def _without_rearmost(data: dict[str, Any]) -> dict[str, Any]:
    """An effect's data without ``square`` when it is the track: the form every ruleset written
    before ``square`` keeps (and with it its fingerprint)."""
    if data.get("square") == "rearmost":
        del data["square"]
    return data


@attrs.frozen(kw_only=True)
class ReturnCube(_Immediate):
    """On each Planet of a set, one cube (of an owner, if given) leaves the board: from the
    track the cube furthest back, the cubes behind it moving up one square each so squares
    still fill in order (R2); from the special square the cube placed last (R3)."""

    name: ClassVar[str] = "return_cube"
    summary: ClassVar[str] = (
        "On each Planet of a set, the cube that stands furthest back (of the owner given, else "
        "anyone's) leaves the track, the cubes behind it moving up one square (R2), or with "
        "square special the cube placed last leaves the special square (R3); it goes to its "
        "owner's hand (a free cube to the stock), or to the stock, out of play."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("planet", PLANETS, "The Planets.", default="this_planet"),
        Param(OWNER, OWNER, "Whose cube: a set of seats, free or anyone.", default="anyone"),
        Param("to", "choice", "hand: to its owner's hand (a free cube to the stock); stock: out of play.", choices=RETURN_TO, default="hand"),
        _SQUARE_TAKEN,
    )
    MOVES_CUBES: ClassVar[bool] = True
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    planet: SetNode
    owner: SetNode | str = "anyone"
    to: str = "hand"
    square: str = "rearmost"

    def __attrs_post_init__(self) -> None:
        _refuse_free_on_special(self, self.owner, self.square)

    def can_perform(self, scope: Scope) -> bool:
        owners = _owners(self.owner, scope)
        table = scope.table
        shielded = table.shielded(scope.me)
        return any(_rearmost(_square_cubes(table, p, self.square), owners, shielded) >= 0 for p in self.planet.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners = _owners(self.owner, scope)
        shielded = table.shielded(scope.me)
        for p in self.planet.members(scope):
            index = _rearmost(_square_cubes(table, p, self.square), owners, shielded)
            if index >= 0:
                owner, square = _take_cube(table, p, index, self.square)
                if owner == FREE_CUBE_OWNER:
                    table.stock += 1
                elif self.to == "hand":
                    table.hands = _bump(table.hands, owner, 1)
                else:
                    table.removed = _bump(table.removed, owner, 1)
                table.log("cube_returned", player=_actor(scope), crew=table.crew_id(scope.crew), owner=owner, planet=table.planet_id(p), square=square, to=self.to)

    def to_data(self) -> dict[str, Any]:
        return _without_rearmost(super().to_data())


def _actor(scope: Scope) -> int:
    """The seat whose skill moves a cube (its crew's holder), -1 where no crew acts (a planet
    ability, a round-end rule): the game log names who moved it (cube_moved, cube_returned)."""
    return scope.me if scope.crew >= 0 else -1


@attrs.frozen(kw_only=True)
class MoveCube(_Immediate):
    """An owner's cube on each Planet of a set (the one furthest back on the track, or the one
    placed last on the special square) moves to the rearmost square of the first Planet of
    ``to`` with room (the one it left excepted), read before it moves."""

    name: ClassVar[str] = "move_cube"
    summary: ClassVar[str] = (
        "On each Planet of a set, the owner's cube that stands furthest back (with square "
        "special, the one placed last on the special square) moves to the rearmost square of "
        "the first Planet of to that has room (not the Planet it leaves); the cubes behind it "
        "move up one square (R2). Nothing moves without such a Planet."
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
        _SQUARE_TAKEN,
    )
    MOVES_CUBES: ClassVar[bool] = True

    planet: SetNode
    owner: SetNode | str
    to: SetNode
    square: str = "rearmost"

    def __attrs_post_init__(self) -> None:
        _refuse_free_on_special(self, self.owner, self.square)

    def _move(self, scope: Scope, p: int, owners: Any, shielded: Any) -> tuple[int, int] | None:
        """The index of the cube that leaves Planet ``p`` and the Planet it goes to, if any;
        ``owners`` and ``shielded`` are read once, as the effect starts (a protection a landing
        sets off mid-effect holds from the next effect on, in both engines)."""
        table = scope.table
        index = _rearmost(_square_cubes(table, p, self.square), owners, shielded)
        if index < 0:
            return None
        target = next((q for q in self.to.members(scope.bind(PLANETS, p)) if q != p and table.room(q) > 0), -1)
        return None if target < 0 else (index, target)

    def can_perform(self, scope: Scope) -> bool:
        owners, shielded = _owners(self.owner, scope), scope.table.shielded(scope.me)
        return any(self._move(scope, p, owners, shielded) is not None for p in self.planet.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        owners, shielded = _owners(self.owner, scope), table.shielded(scope.me)
        for p in self.planet.members(scope):
            move = self._move(scope, p, owners, shielded)
            if move is None:
                continue
            index, target = move
            owner, square = _take_cube(table, p, index, self.square)
            table.log("cube_moved", player=_actor(scope), crew=table.crew_id(scope.crew), owner=owner, planet=table.planet_id(p), square=square)
            table.place_on_track(target, owner)

    def most_landings(self, limits: Limits) -> int:
        return self.planet.most(limits)

    def to_data(self) -> dict[str, Any]:
        return _without_rearmost(super().to_data())


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
    MOVES_CUBES: ClassVar[bool] = True

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
    MOVES_CUBES: ClassVar[bool] = True
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

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
class DiscardCubes(_Immediate):
    """Cubes from the hand of each seat of ``from`` straight out of play: the amount is read
    once; each seat, in turn order from the chooser, discards that many or what its hand holds.
    They join the seat's removed cubes (R6), so a seat's cubes stay conserved (R13); a seat
    protected from other players' skills (``protect_cubes``) keeps its hand, as under
    ``place_cube``."""

    name: ClassVar[str] = "discard_cubes"
    summary: ClassVar[str] = (
        "Each seat of from (default you) discards cubes from hand out of play, the amount each "
        "(at most what the hand holds); they are removed, as a motivation bonus's player cubes are."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param("count", AMOUNT, "Cubes each seat discards (an amount; below 1 discards nothing).", minimum=1, default=1),
        Param("from", SEATS, "The seats that discard, in turn order from the chooser (default you).", default="me"),
    )

    count: Amount = 1
    from_: SetNode = ME

    def _seats(self, scope: Scope) -> tuple[int, ...]:
        shielded = scope.table.shielded(scope.me)
        return tuple(seat for seat in self.from_.members(scope) if seat not in shielded)

    def can_perform(self, scope: Scope) -> bool:
        hands = scope.table.hands
        return any(hands[seat] > 0 for seat in self._seats(scope)) and amount_value(self.count, scope) > 0

    def perform(self, scope: Scope) -> None:
        table = scope.table
        amount = max(0, amount_value(self.count, scope))
        for seat in self._seats(scope):
            discarded = min(amount, table.hands[seat])
            if discarded:
                table.hands = _bump(table.hands, seat, -discarded)
                table.removed = _bump(table.removed, seat, discarded)
                table.log("cubes_discarded", player=seat, crew=table.crew_id(scope.crew), cubes=discarded)
