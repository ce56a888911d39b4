"""The end of a turn and of a round (R10-R12): the round-end triggers and effects, the end
check, free cubes onto the crews nobody picked, the crews replaced at the cap, and the next
round's start. ``Game`` inherits ``RoundRules`` and keeps the tables these read."""

from __future__ import annotations

from stargazer_rules.engine import abilities
from stargazer_rules.vocabulary.abilities import GAME_END, NOBODY, ROUND_END_EVENT
from stargazer_rules.vocabulary.expressions import Scope, amount_value
from stargazer_rules.vocabulary.table import (
    NO_WORKER,
    OVER,
    PICK_CREW,
    PROTECTED_TURN,
    ROUND_END_STAGE,
    ROUND_LIMIT,
    Pending,
    Table,
)


class RoundRules:
    """The turn's and the round's end, part of ``Game``: mixed into it, reading its tables."""

    def _end_turn(self, table: Table) -> None:
        seat = (table.start_player + table.turn) % table.players
        if table.events is not None:
            table.log("turn_ended", player=seat)
        table.turn += 1
        if PROTECTED_TURN in table.protected:  # protect_cubes until the turn ends
            table.protected = tuple(0 if until == PROTECTED_TURN else until for until in table.protected)
        if table.turn < table.players:
            table.stage = PICK_CREW
        else:
            self._end_round(table)

    def _end_round(self, table: Table) -> None:
        """Every round's end: the Planets' and the held crews' ``round_end`` triggers and
        rules.yaml's ``round_end.effects``; then the R10 end check (rules.yaml's ``end``
        conditions in their order, read with nobody as "you", then the round limit); if the game
        goes on, R11 free cubes and the skills' round-end effects (R12)."""
        if table.events is not None:
            table.log("round_ended", round=table.round)
        if self._round_end_abilities:  # every round's end, before the end check (R10)
            abilities.table_event(self.planet_rules, table, ROUND_END_EVENT)
        if self._crew_round_end:  # the held crews' after the Planets', before the end check
            abilities.held_event(self.crew_rules, table, ROUND_END_EVENT)
        if self.ruleset.round_end_effects:  # rules.yaml's round_end.effects (idea R7), after the crews'
            abilities.round_end_effects(self.ruleset.round_end_effects, table)
        nobody = Scope(table, NOBODY, -1)
        triggers = [trigger.id for trigger in self.ruleset.end if trigger.condition.holds(nobody)]
        if table.round >= self.ruleset.max_rounds:
            triggers.append(ROUND_LIMIT)
        if triggers:
            table.triggers = tuple(triggers)
            table.stage = OVER
            table.pending = ()
            table.log("game_over", round=table.round, triggers=list(triggers))
            if self._game_end_abilities:  # before the winner is decided (R18)
                abilities.table_event(self.planet_rules, table, GAME_END)
            if self._crew_game_end:  # the crews of the last round, still held, after the Planets'
                abilities.held_event(self.crew_rules, table, GAME_END)
            return
        self._unpicked_crews_receive(table)
        if self.replaces_crews:
            self._replace_crews_at_cap(table)
        pending: tuple[Pending, ...] = ()
        for slot in table.chosen:
            seat = table.workers[slot]
            pending += self.pending_of(table.crew[slot], ROUND_END_STAGE, slot, seat)
            if table.borrowed[slot] >= 0:  # the round-end effects of a skill applied with use_skill
                pending += self.pending_of(table.borrowed[slot], ROUND_END_STAGE, slot, seat, borrowed=True)
        table.pending = pending
        table.stage = ROUND_END_STAGE

    def _unpicked_crews_receive(self, table: Table) -> None:
        """R11: each crew with no worker receives its free cubes, in crew-area order: the amount
        of rules.yaml's ``round_end.unpicked_crews.free_cubes`` (read with this_crew bound to the
        crew and nobody as "you", just before the crew receives), at least 0, at most what the
        stock holds and what the cap leaves."""
        amount = self.ruleset.unpicked_crews.free_cubes
        cap = self.ruleset.max_free_cubes_per_crew
        for slot, worker in enumerate(table.workers):
            if worker != NO_WORKER:
                continue
            wanted = amount if type(amount) is int else amount_value(amount, Scope(table, NOBODY, -1, bound_crew=slot))
            for _ in range(min(wanted, table.stock, cap - table.crew_free[slot])):
                table.stock_to_crew(slot)

    def _replace_crews_at_cap(self, table: Table) -> None:
        """R11, ``at_cap: replaced``: once every crew nobody picked has received, each of them
        holding the cap's number of free cubes, in crew-area order, leaves the crew area and the
        first card of the queue takes its slot (``Table.replace_crew``). A crew always in play
        stays (it was not dealt, so no card of the deck stands in for it); once the queue is
        empty every crew stays."""
        cap = self.ruleset.max_free_cubes_per_crew
        always = self._always_cards
        for slot, worker in enumerate(table.workers):
            if not table.queue:
                return
            if worker == NO_WORKER and table.crew_free[slot] >= cap and table.crew[slot] not in always:
                table.replace_crew(slot)

    def _start_round(self, table: Table) -> None:
        table.round += 1
        table.turn = 0
        table.chosen = ()
        table.workers = (NO_WORKER,) * len(table.crew)
        # The lasting effects that last until the round ends end with it.
        table.closed = frozenset()
        if any(table.protected):
            table.protected = (0,) * table.players
        if table.borrowed.count(-1) != len(table.borrowed):
            table.borrowed = (-1,) * len(table.crew)
        table.stage = PICK_CREW
        if table.events is not None:
            table.log("round_started", round=table.round, start_player=table.start_player)
