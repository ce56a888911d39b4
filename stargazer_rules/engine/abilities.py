"""Planet abilities and crew triggers in play: triggers resolved when their event happens,
lasting effects read where the rule they change is played (docs/skills.md, "Planet abilities",
"Crew triggers").

A crew's triggers are in force while a player holds it (a worker on it, R5): "you" is the
holder, the scope's crew slot the held crew (``this_crew``). At a landing, the held crews fire
after the Planet's own triggers; at a round's end and at the game's end, after every Planet's;
each in crew-area order (slot order).

A trigger's ``do`` effects are performed at once on a ``Scope`` with ``this_planet`` bound to
its Planet and no crew (slot -1), after an ``ability_triggered`` event. While they resolve the
table is ``firing``: a cube they land sets off no ability (no chains), so every program ends.
The kernel fires the same triggers at the same points in the same order
(``crates/kernel/src/game/abilities.rs``).
"""

from __future__ import annotations

from stargazer_rules.vocabulary.abilities import GAME_END, NOBODY, ROUND_END_EVENT, CrewRules, PlanetRules, Trigger
from stargazer_rules.vocabulary.effects import Effect
from stargazer_rules.vocabulary.expressions import Scope
from stargazer_rules.vocabulary.table import NO_WORKER, Table


def turn_seat(table: Table) -> int:
    """The player whose turn it is; nobody at a round's end (R12 effects, round_end abilities)."""
    if table.turn >= table.players:
        return NOBODY
    return (table.start_player + table.turn) % table.players


def cube_landed(rules: PlanetRules, crew_rules: tuple[CrewRules, ...], table: Table, p: int, square: int, owner: int) -> None:
    """A cube of ``owner`` landed on ``square`` (0: the special square) of Planet ``p``: its
    ``cube_placed`` triggers that match the square, in card order ("you": the cube's owner, a
    free cube's nobody), then, if the cube filled the last normal square, its ``becomes_full``
    triggers ("you": the player whose turn it is); then each held crew's (``crew_rules`` per
    crew card) ``cube_placed`` and, if filled, ``becomes_full`` triggers ("you": its holder).
    Whether it filled the Planet is read as the cube lands, before any trigger resolves."""
    filled = square > 0 and table.room(p) == 0
    table.firing = True
    for trigger in rules.cube_placed:
        if trigger.matches(square):
            _fire(table, trigger, p, owner if owner >= 0 else NOBODY)
    if filled:
        me = turn_seat(table)
        for trigger in rules.becomes_full:
            _fire(table, trigger, p, me)
    for slot, holder in enumerate(table.workers):
        if holder == NO_WORKER:
            continue
        held = crew_rules[table.crew[slot]]
        for trigger in held.cube_placed:
            if trigger.matches(square):
                _fire_crew(table, trigger, slot, holder, p)
        if filled:
            for trigger in held.becomes_full:
                _fire_crew(table, trigger, slot, holder, p)
    table.firing = False


def another_pick(crew_rules: tuple[CrewRules, ...], table: Table, picker: int, picked: str) -> None:
    """``picker`` has picked the crew ``picked`` (its id) and taken its motivation bonus (R6):
    every crew another player holds fires its ``another_pick`` triggers that wait for that crew
    ("you": its holder), in crew-area order."""
    table.firing = True
    for slot, holder in enumerate(table.workers):
        if holder not in (NO_WORKER, picker):
            for trigger in crew_rules[table.crew[slot]].another_pick:
                if trigger.picks(picked):
                    _fire_crew(table, trigger, slot, holder, -1)
    table.firing = False


def held_event(crew_rules: tuple[CrewRules, ...], table: Table, event: str) -> None:
    """A whole-table event (``round_end``, ``game_end``): every held crew's triggers of it
    ("you": its holder), in crew-area order, after the Planets' (``table_event``)."""
    assert event in (ROUND_END_EVENT, GAME_END)
    table.firing = True
    for slot, holder in enumerate(table.workers):
        if holder != NO_WORKER:
            rules = crew_rules[table.crew[slot]]
            for trigger in rules.round_end if event == ROUND_END_EVENT else rules.game_end:
                _fire_crew(table, trigger, slot, holder, -1)
    table.firing = False


def table_event(planet_rules: tuple[PlanetRules, ...], table: Table, event: str) -> None:
    """Every dealt Planet's triggers of a whole-table event (``round_end``, ``game_end``), in
    ring order (R4) and card order; nobody is "you"."""
    assert event in (ROUND_END_EVENT, GAME_END)
    table.firing = True
    for p, card in enumerate(table.planets):
        rules = planet_rules[card]
        for trigger in rules.round_end if event == ROUND_END_EVENT else rules.game_end:
            _fire(table, trigger, p, NOBODY)
    table.firing = False


def round_end_effects(effects: tuple[Effect, ...], table: Table) -> None:
    """rules.yaml's ``round_end.effects`` (idea R7), at every round's end after the held crews'
    ``round_end`` triggers, before the end check: performed at once in list order, each if it
    can be, on a scope where nobody is "you" and nothing is bound (no Planet, no crew)."""
    table.firing = True
    _perform(Scope(table, NOBODY, -1), effects)
    table.firing = False


def _fire(table: Table, trigger: Trigger, p: int, me: int) -> None:
    table.log("ability_triggered", planet=table.planet_id(p), event=trigger.event)
    _perform(Scope(table, me, -1, planet=p), trigger.do)


def _fire_crew(table: Table, trigger: Trigger, slot: int, holder: int, p: int) -> None:
    """A held crew's trigger: ``this_crew`` is the crew (slot), "you" its holder, ``this_planet``
    the Planet a cube landed on (-1 at the other events)."""
    table.log("crew_triggered", player=holder, crew=table.crew_id(slot), event=trigger.event)
    _perform(Scope(table, holder, slot, planet=p), trigger.do)


def _perform(scope: Scope, effects: tuple[Effect, ...]) -> None:
    """Each effect in turn, if it can be performed (R9: skipped if not)."""
    for effect in effects:
        if effect.can_perform(scope):
            effect.perform(scope)
