"""Planet abilities: what a planet card does while it is in play (docs/skills.md, "Planet abilities").

An ability is either

- a **trigger**, ``{on: <event>, do: [<effects>]}``: when the event happens to the Planet, its
  ``do`` effects (the language's effects that ask no decision) are performed at once, with
  ``this_planet`` bound to the Planet. Events: ``cube_placed`` (a cube lands on one of its
  normal squares, or only square n: ``{cube_placed: {square: 3}}``, or its special square:
  ``{cube_placed: {square: special}}``), ``becomes_full`` (its last normal square is filled),
  ``round_end`` (every round's end, the last included, before the end check of R10) and
  ``game_end`` (when the game ends, before the winner is decided);
- a **lasting effect**, ``{lasting: <word>}`` or ``{lasting: {<word>: <value>}}``, in force
  while the Planet is dealt: ``counts_toward`` (``every_colour``, ``none``, or the colours
  named: its cubes count toward the major-planet bonus of R17 for every colour, for none, or for
  those colours instead of the Planet's own), ``majority_factor`` (the
  VP its majority scores, R15/R16, are multiplied by it), ``no_survey_start`` (a survey may not
  start on it, R7).

Who "you" (``me``) is: for ``cube_placed``, the owner of the placed cube (a free cube: nobody);
for ``becomes_full``, the player whose turn it is (nobody at a round's end); for ``round_end``
and ``game_end`` nobody, and the loader refuses ``me`` there. When nobody is "you", ``me`` is
the empty set, seats are listed from the start player, and an effect that gives to "you"
(``take_vp``, ``collect_free_cubes``) does nothing.

A crew card's ``triggers`` (``CrewRules``) are triggers of the same form, in force while a
player holds the crew (their worker is on it, R5): "you" is the holder and ``this_crew`` the
card. Their events: ``another_pick`` (another player picks a crew, after that pick's
motivation bonus, R6; ``{another_pick: {crew: [<crew ids>]}}`` only when the crew picked is one
of those), ``cube_placed`` and ``becomes_full`` (a cube lands on any Planet, which is bound as
``this_planet``; after that Planet's own triggers), ``round_end`` (after the Planets'
``round_end`` triggers) and ``game_end`` (after the Planets' ``game_end`` triggers, before the
winner is decided: the crews picked in the last round are still held), in crew-area order.

Effects performed by an ability or a crew trigger never set off one (no chains): every
program ends and the bounds stay finite.

This module is the bottom of the package with ``effects``: it imports nothing of the rules.
"""

from __future__ import annotations

from typing import Any

import attrs

from stargazer_rules.vocabulary.effects import Effect

CUBE_PLACED = "cube_placed"
BECOMES_FULL = "becomes_full"
ROUND_END_EVENT = "round_end"
GAME_END = "game_end"
#: The events a trigger waits for, in the order the docs list them.
EVENTS = (CUBE_PLACED, BECOMES_FULL, ROUND_END_EVENT, GAME_END)
#: The events at which nobody is "you": ``me`` is refused in their effects (planets only).
WITHOUT_YOU = (ROUND_END_EVENT, GAME_END)
ANOTHER_PICK = "another_pick"
#: The events a crew's trigger waits for, in the order the docs list them; ``this_planet`` is
#: bound at the landing ones.
CREW_EVENTS = (ANOTHER_PICK, CUBE_PLACED, BECOMES_FULL, ROUND_END_EVENT, GAME_END)
LANDING_EVENTS = (CUBE_PLACED, BECOMES_FULL)
#: The key of a crew card's triggers (crew.yaml).
CREW_TRIGGERS_KEY = "triggers"
#: The keys of an ability mapping.
TRIGGER_KEYS = ("on", "do")
LASTING_KEY = "lasting"
ABILITY_KEYS = (*TRIGGER_KEYS, LASTING_KEY)

COUNTS_TOWARD = "counts_toward"
MAJORITY_FACTOR = "majority_factor"
NO_SURVEY_START = "no_survey_start"
#: The lasting words: a bare word, or a word that takes a value.
LASTING_WORDS = (COUNTS_TOWARD, MAJORITY_FACTOR, NO_SURVEY_START)
EVERY_COLOUR = "every_colour"
NO_COLOUR = "none"
COUNTS_TOWARD_VALUES = (EVERY_COLOUR, NO_COLOUR)
#: The largest majority factor: far past any card, small enough for the kernel's counters.
MOST_MAJORITY_FACTOR = 10

#: The option of ``another_pick`` naming the crews whose pick sets it off (a list of crew ids).
PICKED_CREW = "crew"
#: The option of ``cube_placed`` naming the square a cube lands on.
SQUARE = "square"

#: The square of a ``cube_placed`` trigger: None for any normal square, a square number, or
#: ``special`` (square 0 in events).
SPECIAL = "special"

#: The timing an ability's effects carry (``Effect.when``): none of a crew's timings applies,
#: and every effect an ability may perform (one that acts on the board, the VP and the cubes,
#: never on a survey) has this one.
ABILITY_WHEN = "after_survey"

#: "You" when nobody is: a free cube's owner, or an event of the whole table.
NOBODY = -1


@attrs.frozen
class Trigger:
    """``on: event`` with ``do`` effects; ``square`` narrows ``cube_placed`` (None: any
    normal square; a number: that normal square; ``special``: the special square) and
    ``crew`` a crew's ``another_pick`` (the ids of the crews whose pick sets it off; empty:
    any crew)."""

    event: str
    do: tuple[Effect, ...]
    square: int | str | None = None
    crew: tuple[str, ...] = ()

    def matches(self, square: int) -> bool:
        """Whether a cube landing on ``square`` (0: the special square) sets off this trigger."""
        if self.square is None:
            return square > 0
        if self.square == SPECIAL:
            return square == 0
        return square == self.square

    def picks(self, crew_id: str) -> bool:
        """Whether another player's pick of the crew ``crew_id`` sets off this trigger."""
        return not self.crew or crew_id in self.crew

    def to_data(self) -> dict[str, Any]:
        on: Any = self.event
        if self.square is not None:
            on = {self.event: {SQUARE: self.square}}
        elif self.crew:
            on = {self.event: {PICKED_CREW: list(self.crew)}}
        return {"on": on, "do": effects_data(self.do)}


def effects_data(effects: tuple[Effect, ...]) -> list[Any]:
    """Effects performed at an event as written: a trigger's do, or rules.yaml's
    ``round_end.effects``."""
    return [_without_when(effect.to_data()) for effect in effects]


def _without_when(data: Any) -> Any:
    """An ability's effect data as written: its effects carry no ``when`` (they resolve at the
    event), nested ones included."""
    if isinstance(data, list):
        return [_without_when(item) for item in data]
    if isinstance(data, dict) and "effect" in data:
        return {key: _without_when(value) for key, value in data.items() if key != "when"}
    return data


@attrs.frozen
class Lasting:
    """A lasting effect: ``word`` and its value (``True`` for the bare ``no_survey_start``)."""

    word: str
    value: Any = True

    def to_data(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {LASTING_KEY: self.word if value is True else {self.word: value}}


Ability = Trigger | Lasting


def _by_event(triggers: tuple[Trigger, ...], events: tuple[str, ...]) -> dict[str, tuple[Trigger, ...]]:
    """A card's triggers sorted once by event, card order kept within each: the engines look
    up an event's triggers when it happens (the ``PlanetRules`` and ``CrewRules`` field named
    for it) instead of filtering the card's triggers each time."""
    return {event: tuple(trigger for trigger in triggers if trigger.event == event) for event in events}


@attrs.frozen
class PlanetRules:
    """What a planet card's abilities change, gathered once per card for the engines: its
    triggers by event and its lasting effects' values (the defaults when it has none)."""

    cube_placed: tuple[Trigger, ...] = ()
    becomes_full: tuple[Trigger, ...] = ()
    round_end: tuple[Trigger, ...] = ()
    game_end: tuple[Trigger, ...] = ()
    #: every_colour, none, or the colour ids its cubes count toward (one or more); None: its own.
    counts_toward: str | tuple[str, ...] | None = None
    majority_factor: int = 1
    no_survey_start: bool = False

    @classmethod
    def of(cls, abilities: tuple[Ability, ...]) -> PlanetRules:
        if not abilities:  # most cards: the defaults, shared
            return _NO_ABILITIES
        triggers = tuple(ability for ability in abilities if isinstance(ability, Trigger))
        lasting = {ability.word: ability.value for ability in abilities if isinstance(ability, Lasting)}
        return cls(
            **_by_event(triggers, EVENTS),
            counts_toward=lasting.get(COUNTS_TOWARD),
            majority_factor=int(lasting.get(MAJORITY_FACTOR, 1)),
            no_survey_start=bool(lasting.get(NO_SURVEY_START, False)),
        )

    @property
    def lands(self) -> bool:
        """Whether a cube landing on the Planet can set anything off."""
        return bool(self.cube_placed or self.becomes_full)


_NO_ABILITIES = PlanetRules()


@attrs.frozen
class CrewRules:
    """A crew card's triggers by event, gathered once per card for the engines."""

    another_pick: tuple[Trigger, ...] = ()
    cube_placed: tuple[Trigger, ...] = ()
    becomes_full: tuple[Trigger, ...] = ()
    round_end: tuple[Trigger, ...] = ()
    game_end: tuple[Trigger, ...] = ()

    @classmethod
    def of(cls, triggers: tuple[Trigger, ...]) -> CrewRules:
        return cls(**_by_event(triggers, CREW_EVENTS))

    @property
    def lands(self) -> bool:
        """Whether a cube landing on any Planet can set one of its triggers off."""
        return bool(self.cube_placed or self.becomes_full)
