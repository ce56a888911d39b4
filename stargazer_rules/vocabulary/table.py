"""The state of a game: the immutable ``State`` it moves through and the mutable ``Table``.

``State`` is one moment of a game, a named tuple that front ends, bots and records pass around.
``Game.apply`` copies it into a ``Table``, the working copy that the rules and the skill effects
change, and freezes the result into a new ``State``. This module knows nothing of the rules
themselves: the effects (``vocabulary.effects``) and the game (``engine.game``) import it, never
the reverse, so the effect classes can name the ``Table`` they act on without an import circle.
"""

from __future__ import annotations

from operator import attrgetter
from collections import namedtuple
from typing import Any, NamedTuple, Protocol

from stargazer_rules.contract.state import STATE_FIELD_NAMES, STATE_FIELDS
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.events import Event

# Stages of play. A state waits for a decision in every stage but OVER.
PICK_CREW = "pick_crew"
BEFORE_SURVEY = "before_survey"
SURVEYING = "survey"
AFTER_SURVEY_STAGE = "after_survey"
ROUND_END_STAGE = "round_end"
#: Before the first round: the setup steps (rules.yaml ``setup.each_player``) resolve.
SETUP_STAGE = "setup"
OVER = "over"

# Why the game ended (R10): draft 7's end conditions (rules.yaml ``end``; a ruleset names its
# own, ``Ruleset.trigger_names``) and the round limit, always the last.
HAND_EMPTY = "hand_empty"
PLANETS_FULL = "planets_full"
ROUND_LIMIT = "round_limit"  # not in the draft: see docs/rules.md, "Round limit"
TRIGGERS = (HAND_EMPTY, PLANETS_FULL, ROUND_LIMIT)

NO_WORKER = -1

#: How long a seat's cubes are protected (``State.protected``): until the turn ends, or until
#: the round ends; 0 is unprotected. The names are ``protect_cubes``'s ``until`` values.
PROTECTED_TURN = 1
PROTECTED_ROUND = 2
PROTECTION_UNTIL = {"turn_end": PROTECTED_TURN, "round_end": PROTECTED_ROUND}


#: ``Pending.card`` of a setup step (rules.yaml ``setup.each_player``): no crew holds it.
SETUP_CARD = -2


class Pending(NamedTuple):
    """An effect waiting to resolve: crew ``slot``, its ``path`` in the skill, steps left, chooser;
    ``card``, the crew card whose skill holds it when that is not the slot's own (an effect of a
    skill the slot applies with ``use_skill``, on its behalf), else -1; a setup step is
    ``SETUP_CARD`` with slot -1, its path in ``setup.each_player``."""

    slot: int
    path: tuple[int, ...]
    remaining: int
    seat: int
    card: int = -1

    def skill_card(self, crew: tuple[int, ...]) -> int:
        """The crew card whose skill holds the effect, ``crew`` being the state's crew area."""
        return self.card if self.card != -1 else crew[self.slot]


#: The state's fields as the contract declares them (``contract.state``), the tuple ``State`` is.
_StateTuple = namedtuple(  # type: ignore[misc]
    "State",
    STATE_FIELD_NAMES,
    defaults=[field.default for field in STATE_FIELDS if field.default is not None],
)


class State(_StateTuple):
    """One moment of a game. Immutable; positions index the ring and the crew area.

    Its fields, their order, shapes and meanings are declared once, in ``contract.state``
    (``STATE_FIELDS``): this class is the named tuple of that list, so bots and records pass a
    state around at a tuple's cost, and the kernel's bindings read and write the same fields
    by the same names. ``legal`` is derived (kept so that asking is free); the lasting effects
    of skills (``closed``, ``protected``, ``borrowed``; docs/skills.md) and R11's ``queue``
    come last.
    """

    __slots__ = ()
    __annotations__ = {field.name: field.python_type for field in STATE_FIELDS}  # noqa: RUF012


_FIELDS = State._fields
_new_state = tuple.__new__
_state_fields = attrgetter(*_FIELDS)


class Rules(Protocol):
    """What a ``Table`` and the scoring read of the game they serve (``game.Game`` is one).

    The ruleset, and the tables the game derived from it once, indexed by planet card and crew
    card. ``ruleset`` is a ``rulesets.model.Ruleset``, not imported here even for type checking:
    the rulesets layer stands above this one (a ruleset's crew cards hold effects, which import
    this module).
    """

    ruleset: Any
    planet_ids: tuple[str, ...]
    planet_lengths: tuple[int, ...]
    special_capacities: tuple[int, ...]
    planet_colours: tuple[str, ...]
    crew_ids: tuple[str, ...]
    totals_tables: Any
    #: Per planet card, whether a cube landing on it can set off one of its abilities.
    planet_lands: tuple[bool, ...]

    def cube_landed(self, table: Table, p: int, square: int, owner: int) -> None:
        """A cube of ``owner`` has just landed on square ``square`` (0: special) of Planet
        ``p``: its abilities' triggers resolve (``engine.abilities``)."""

    #: The crew cards whose skill ``use_skill`` may apply (``bounds.borrowable_cards``).
    borrowable: frozenset[int]

    def pending_of(self, card: int, stage: str, slot: int, seat: int, *, borrowed: bool = False) -> tuple[Pending, ...]:
        """The top-level effects of crew card ``card``'s skill that ``stage`` queues, for crew
        ``slot`` and chooser ``seat`` (``borrowed``: the card's skill applied by the slot)."""
        ...


class _Named(Protocol):
    """What ``Table.log_effect`` reads of an effect: its type's name."""

    @property
    def name(self) -> str: ...


class Table:
    """The mutable working copy of a ``State`` inside one ``apply``; effects act on it.

    Tuples stay tuples: a change builds a new tuple for the field it touches, so freezing back
    into a ``State`` is cheap and the input state is never touched.
    """

    __slots__ = (*_FIELDS, "game", "events", "firing")

    def __init__(self, game: Rules, state: State, events: list[Event] | None) -> None:
        (
            self.players,
            self.planets,
            self.crew,
            self.tracks,
            self.specials,
            self.crew_free,
            self.crew_cubes,
            self.workers,
            self.hands,
            self.vp,
            self.removed,
            self.stock,
            self.round,
            self.start_player,
            self.turn,
            self.stage,
            self.chosen,
            self.pending,
            self.survey_rules,
            self.survey_bonus,
            self.survey_placed,
            self.survey_last,
            self.survey_direction,
            self.survey_skips,
            self.surveyed,
            self.triggers,
            self.legal,
            # lasting effects of skills
            self.closed,
            self.protected,
            self.borrowed,
            self.taken,
            self.queue,
        ) = state
        self.game = game
        self.events = events
        #: True while a planet ability resolves: its effects set off no ability (no chains).
        self.firing = False

    def freeze(self) -> State:
        # One C-level attribute fetch and tuple.__new__, skipping NamedTuple's Python-level
        # __new__: this runs once per decision.
        return _new_state(State, _state_fields(self))

    # -- reading, for effects -------------------------------------------------------------

    @property
    def planet_count(self) -> int:
        return len(self.planets)

    @property
    def crew_count(self) -> int:
        return len(self.crew)

    def room(self, p: int) -> int:
        """Empty normal squares on Planet ``p``."""
        return self.game.planet_lengths[self.planets[p]] - len(self.tracks[p])

    def planets_with_room(self) -> list[int]:
        lengths = self.game.planet_lengths
        planets = self.planets
        return [p for p, track in enumerate(self.tracks) if len(track) < lengths[planets[p]]]

    def special_room(self, p: int) -> int:
        return self.game.special_capacities[self.planets[p]] - len(self.specials[p])

    def colour_of(self, p: int) -> str:
        return self.game.planet_colours[self.planets[p]]

    def planet_id(self, p: int) -> str:
        return self.game.planet_ids[self.planets[p]]

    def crew_id(self, slot: int) -> str:
        """The id of the crew in ``slot``; "" for a planet ability's effects (no crew, slot -1)."""
        return self.game.crew_ids[self.crew[slot]] if slot >= 0 else ""

    # -- changing, for effects ------------------------------------------------------------

    def log(self, key: str, **params: Any) -> None:
        if self.events is not None:
            self.events.append(Event(key, params))

    def log_effect(self, seat: int, slot: int, effect: _Named) -> None:
        if self.events is not None:
            self.events.append(
                Event("effect_applied", {"player": seat, "crew": self.crew_id(slot), "effect": effect.name})
            )

    def shielded(self, me: int) -> frozenset[int]:
        """The seats whose cubes a skill resolving for ``me`` may not move (``protect_cubes``):
        every protected seat but ``me``."""
        return frozenset(seat for seat, until in enumerate(self.protected) if until and seat != me)

    def open_crews(self) -> list[int]:
        """The crew slots a player may still pick this round: no worker on it, not closed (R5)."""
        closed = self.closed
        return [slot for slot, worker in enumerate(self.workers) if worker == NO_WORKER and slot not in closed]

    def apply_skill_of(self, slot: int, card: int, seat: int) -> None:
        """``use_skill``: crew ``slot`` applies crew card ``card``'s skill this round as its own.
        Its pick-time effects resolve next, right after the effect at the head of ``pending``
        (the one applying it); its later effects queue with the slot's own (``borrowed``)."""
        borrowed = list(self.borrowed)
        borrowed[slot] = card
        self.borrowed = tuple(borrowed)
        self.pending = self.pending[:1] + self.game.pending_of(card, BEFORE_SURVEY, slot, seat, borrowed=True) + self.pending[1:]

    def add_vp(self, seat: int, vp: int) -> None:
        self.vp = _bump(self.vp, seat, vp)

    def place_on_track(self, p: int, owner: int) -> None:
        """Put a cube of ``owner`` on the next square of Planet ``p`` (R2)."""
        tracks = list(self.tracks)
        tracks[p] = tracks[p] + (owner,)
        self.tracks = tuple(tracks)
        if self.events is not None:
            self.log("cube_placed", owner=owner, planet=self.planet_id(p), square=len(tracks[p]))
        if self.game.planet_lands[self.planets[p]] and not self.firing:
            self.game.cube_landed(self, p, len(tracks[p]), owner)

    def take_from_track(self, p: int, index: int) -> int:
        """Take the cube at ``index`` (square ``index + 1``) off Planet ``p``'s track and return
        its owner; the cubes behind it move up one square each, so squares fill in order (R2)."""
        tracks = list(self.tracks)
        track = tracks[p]
        owner = track[index]
        tracks[p] = track[:index] + track[index + 1 :]
        self.tracks = tuple(tracks)
        return owner

    def take_from_special(self, p: int, index: int) -> int:
        """Take the cube at ``index`` (0 placed first) off Planet ``p``'s special square (R3) and
        return its owner."""
        specials = list(self.specials)
        special = specials[p]
        owner = special[index]
        specials[p] = special[:index] + special[index + 1 :]
        self.specials = tuple(specials)
        return owner

    def hand_to_special(self, seat: int, p: int) -> None:
        """Move a cube of ``seat`` from hand onto Planet ``p``'s special square (R3)."""
        self.hands = _bump(self.hands, seat, -1)
        specials = list(self.specials)
        specials[p] = specials[p] + (seat,)
        self.specials = tuple(specials)
        self.log("cube_placed", owner=seat, planet=self.planet_id(p), square=0)
        if self.game.planet_lands[self.planets[p]] and not self.firing:
            self.game.cube_landed(self, p, 0, seat)

    def hand_to_crew(self, seat: int, slot: int) -> None:
        self.hands = _bump(self.hands, seat, -1)
        cubes = list(self.crew_cubes)
        cubes[slot] = cubes[slot] + (seat,)
        self.crew_cubes = tuple(cubes)
        self.log("cube_to_crew", owner=seat, crew=self.crew_id(slot))

    def take_free_cubes(self, seat: int, count: int) -> None:
        """``count`` free cubes from the stock into ``seat``'s hand, as cubes of its own (idea R8)."""
        self.stock -= count
        self.hands = _bump(self.hands, seat, count)
        self.taken = _bump(self.taken, seat, count)

    def replace_crew(self, slot: int) -> None:
        """R11 (``at_cap: replaced``): the crew in ``slot`` leaves the crew area: its free cubes
        go back to the stock, the player cubes on it to their owners' hands, and the first card
        of the queue takes the slot, empty."""
        left = self.crew_id(slot)
        self.stock += self.crew_free[slot]
        hands = list(self.hands)
        for owner in self.crew_cubes[slot]:
            hands[owner] += 1
        self.hands = tuple(hands)
        self.crew = _set(self.crew, slot, self.queue[0])
        self.queue = self.queue[1:]
        self.crew_free = _set(self.crew_free, slot, 0)
        self.crew_cubes = _set(self.crew_cubes, slot, ())
        self.log("crew_replaced", crew=left, by=self.crew_id(slot))

    def stock_to_crew(self, slot: int) -> None:
        self.stock -= 1
        self.crew_free = _bump(self.crew_free, slot, 1)
        self.log("free_cube_to_crew", crew=self.crew_id(slot))


def _set(values: tuple, index: int, value: Any) -> tuple:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _bump(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] += delta
    return tuple(changed)
