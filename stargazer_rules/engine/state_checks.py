"""The checker of what a state may hold: every bound and consistency rule, with located reasons.

``state_problems`` lists every way a ``State`` could not have been reached under its ruleset,
each as ``"$.path: reason"`` at the path of the same value in the state's JSON form
(``$.seats[2].hand``, ``$.pending[0].remaining``), so that a JSON reader and a caller holding a
``State`` read the same words. Bounds come from ``Game.bounds`` (``bounds.StateBounds``).

The native kernel checks the states it is given with its own copy of these rules
(``crates/kernel/src/check/``): the same checks in the same order with the same reasons, held
to this module by tests/test_state_checks.py, which feeds both the same corrupt and extreme
states. This one also serves plugin rulesets, which the kernel never plays.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Sequence

from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER, NO_SKIP_LIMIT, SURVEY_RULE_FLAGS, Effect
from stargazer_rules.engine.game import Game
from stargazer_rules.vocabulary.table import (
    BEFORE_SURVEY,
    NO_WORKER,
    OVER,
    PICK_CREW,
    PROTECTED_ROUND,
    ROUND_END_STAGE,
    SETUP_CARD,
    SETUP_STAGE,
    Pending,
    SURVEYING,
    AFTER_SURVEY_STAGE,
    State,
)
from stargazer_rules.errors import RecordError, counted

__all__ = ["checked_state", "state_problems"]

#: The stages in which the head of ``pending`` is the decision the state waits for.
EFFECT_STAGES = (BEFORE_SURVEY, AFTER_SURVEY_STAGE, ROUND_END_STAGE, SETUP_STAGE)
STAGES = (PICK_CREW, BEFORE_SURVEY, SURVEYING, AFTER_SURVEY_STAGE, ROUND_END_STAGE, OVER, SETUP_STAGE)
#: The stages of a turn in progress, from its pick to its end: its crew is chosen.
_TURN_STAGES = (BEFORE_SURVEY, SURVEYING, AFTER_SURVEY_STAGE)
#: Why a crew's own card is never named as the skill it applies: that skill is its own (-1).
_BORROWS = "a crew applies another crew's skill (use_skill), never its own"
#: Every survey-rule flag set at once: the most a state's ``survey_rules`` can be.
_ALL_SURVEY_RULES = functools.reduce(operator.or_, SURVEY_RULE_FLAGS.values(), 0)


def state_problems(game: Game, state: State) -> list[str]:
    """Every way ``state`` breaks what a state of ``game``'s ruleset may hold, as ``"$.path: reason"``."""
    return check(game, state)[0]


def check(game: Game, state: State) -> tuple[list[str], tuple[Action, ...] | None]:
    """The problems of ``state`` (``state_problems``), and the legal actions the rules derive
    for it when there are none."""
    return _Checker(game, state).run()


def checked_state(game: Game, state: State) -> State:
    """``state`` with its legal actions derived by the rules; ``RecordError`` naming every
    problem (``state_problems``) when it is not a state of ``game``'s ruleset."""
    problems, legal = check(game, state)
    if problems:
        raise RecordError("not a state of this ruleset: " + "; ".join(problems))
    assert legal is not None
    return state._replace(legal=legal)


def _outside(value: int, low: int, high: int | None) -> bool:
    return value < low or (high is not None and value > high)


def _range(low: int, high: int | None) -> str:
    return f"{low}..{'' if high is None else high}"


class _Checker:
    """One pass over one state, collecting problems in the order the kernel's checker does."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.rules = game.ruleset
        self.bounds = game.bounds
        self.state = state
        self.problems: list[str] = []

    def problem(self, at: str, message: str) -> None:
        self.problems.append(f"{at}: {message}")

    def bound(self, at: str, value: int, low: int, high: int | None) -> None:
        if _outside(value, low, high):
            self.problem(at, f"{value} is outside {_range(low, high)}")

    def seat(self, at: str, value: int, expected: str = "a seat") -> None:
        players = self.state.players
        if not 0 <= value < players:
            self.problem(at, f"{value} is not {expected} (seats are 0..{players - 1})")

    def run(self) -> tuple[list[str], tuple[Action, ...] | None]:
        if not self._table():
            return self.problems, None
        self._board()
        self._crew_area()
        self._supplies()
        if not self.problems:
            self._conservation()
        self._pending()
        self._survey()
        self._lasting()
        self._stage()
        if self.problems:
            return self.problems, None
        legal = self.game.derive_legal(self.state)
        if legal is None:
            if self.state.stage in EFFECT_STAGES:
                self.problem("$.pending[0]", "the first pending effect needs no decision, so no state waits on it")
            else:
                self.problem("$.stage", f"the rules offer no decision in stage {self.state.stage} here")
        return self.problems, legal

    # -- the table: seats, ring and crew area (nothing else is read without them) ----------

    def _table(self) -> bool:
        state, rules = self.state, self.rules
        players = state.players
        if players not in rules.setups:
            supported = ", ".join(map(str, rules.player_counts))
            self.problem("$.players", f"{players} players are not supported by ruleset {rules.name} (supported: {supported})")
            return False
        for values in (state.hands, state.vp, state.removed, state.protected, state.taken):
            if len(values) != players:
                self.problem("$.seats", f"lists {counted(len(values), 'seat|seats')} for {players} players")
                return False
        counts = rules.setups[players]
        self._cards("planet", "$.planets", state.planets, [card.id for card in rules.planets])
        self._cards("crew", "$.crew", state.crew, [card.id for card in rules.crew])
        if self.problems:
            return False
        for name, values, size in (
            ("tracks", state.tracks, len(state.planets)),
            ("specials", state.specials, len(state.planets)),
            ("crew_free", state.crew_free, len(state.crew)),
            ("crew_cubes", state.crew_cubes, len(state.crew)),
            ("workers", state.workers, len(state.crew)),
            ("borrowed", state.borrowed, len(state.crew)),
        ):
            if len(values) != size:
                where = "$.planets" if name in ("tracks", "specials") else "$.crew"
                self.problem(where, f"{name} has {len(values)} entries, not {size}")
                return False
        if len(state.planets) != counts.planets:
            self.problem("$.planets", f"{counts.planets} planets are dealt for {players} players, not {len(state.planets)}")
        always = tuple(i for i, card in enumerate(rules.crew) if card.always_in_play)
        crew = state.crew
        if len(crew) != len(always) + counts.crew:
            self.problem(
                "$.crew",
                f"{len(always)} always-in-play and {counts.crew} dealt crew make the area for {players} players, not {len(crew)}",
            )
        elif crew[: len(always)] != always or set(crew[len(always) :]) & set(always):
            expected = ", ".join(rules.crew[i].id for i in always) or "none"
            self.problem("$.crew", f"the crew area must start with the always-in-play crew ({expected}), and only them")
        self._queue(always)
        self.seat("$.start_player", state.start_player)
        if _outside(state.turn, 0, players) or (state.turn == players and state.stage not in (ROUND_END_STAGE, OVER)):
            self.problem("$.turn", f"{state.turn} turns taken in a round of {players}")
        return True

    def _queue(self, always: tuple[int, ...]) -> None:
        """The crew cards not dealt (R11, ``at_cap: replaced``): none in a ruleset that replaces
        no crew; else crew cards that are not always in play, none in the crew area and none
        twice (a crew that left the crew area is out of the game: in neither)."""
        state, rules = self.state, self.rules
        if not self.game.replaces_crews:
            if state.queue:
                self.problem("$.crew_queue", "this ruleset replaces no crew (R11): the queue must be empty")
            return
        ids = [card.id for card in rules.crew]
        self._cards("crew", "$.crew_queue", state.queue, ids)
        area = set(state.crew)
        for k, card in enumerate(state.queue):
            if not 0 <= card < len(ids):
                continue
            if card in always:
                self.problem(f"$.crew_queue[{k}].id", f"crew {ids[card]!r} is always in play and is not queued")
            elif card in area:
                self.problem(f"$.crew_queue[{k}].id", f"crew {ids[card]!r} is in the crew area and in the queue")

    def _cards(self, kind: str, at: str, cards: Sequence[int], ids: Sequence[str]) -> None:
        seen: set[int] = set()
        for k, card in enumerate(cards):
            if not 0 <= card < len(ids):
                self.problem(f"{at}[{k}].id", f"no {kind} card {card} in ruleset {self.rules.name}")
            elif card in seen:
                self.problem(f"{at}[{k}].id", f"{kind} {ids[card]!r} appears twice")
            else:
                seen.add(card)

    # -- the board and the crew area ---------------------------------------------------

    def _board(self) -> None:
        state, rules = self.state, self.rules
        for p, (index, track, special) in enumerate(zip(state.planets, state.tracks, state.specials)):
            card = rules.planets[index]
            at = f"$.planets[{p}]"
            if len(track) > card.length:
                self.problem(f"{at}.track", f"{len(track)} cubes on planet {card.id!r}, whose track has {card.length} squares")
            if len(special) > card.special_capacity:
                self.problem(
                    f"{at}.special",
                    f"{len(special)} cubes on the special square of planet {card.id!r}, which holds {card.special_capacity}",
                )
            for k, owner in enumerate(track):
                if owner != FREE_CUBE_OWNER:
                    self.seat(f"{at}.track[{k}]", owner, "an owner: -1 (free cube) or a seat")
            for k, owner in enumerate(special):
                self.seat(f"{at}.special[{k}]", owner)

    def _crew_area(self) -> None:
        state, rules = self.state, self.rules
        cap = rules.max_free_cubes_per_crew
        for slot, (card, free, cubes, worker) in enumerate(zip(state.crew, state.crew_free, state.crew_cubes, state.workers)):
            at = f"$.crew[{slot}]"
            crew_id = rules.crew[card].id
            if free < 0:
                self.problem(f"{at}.free_cubes", f"{free} is outside {_range(0, cap)}")
            elif free > cap:
                self.problem(f"{at}.free_cubes", f"{free} free cubes on crew {crew_id!r}, over the cap of {cap} (R11)")
            for k, owner in enumerate(cubes):
                self.seat(f"{at}.cubes[{k}]", owner)
            if worker != NO_WORKER:
                self.seat(f"{at}.worker", worker)
        chosen_ok = True
        for k, slot in enumerate(state.chosen):
            if not 0 <= slot < len(state.crew):
                self.problem(f"$.chosen[{k}]", f"crew slot {slot} is not in the crew area (slots 0..{len(state.crew) - 1})")
                chosen_ok = False
            elif slot in state.chosen[:k]:
                self.problem(f"$.chosen[{k}]", f"crew {rules.crew[state.crew[slot]].id!r} is chosen twice")
                chosen_ok = False
        with_worker = {slot for slot, worker in enumerate(state.workers) if worker != NO_WORKER}
        if chosen_ok and set(state.chosen) != with_worker:
            self.problem("$.chosen", "the crew chosen this round must be exactly the crew with a worker on them")
        # One crew is chosen per turn: before turn t's pick, t crews; from its pick to its end, t + 1.
        if state.stage in (PICK_CREW, *_TURN_STAGES):
            picked = state.turn + (state.stage != PICK_CREW)
            if len(state.chosen) != picked:
                self.problem("$.chosen", f"{len(state.chosen)} crews chosen this round, but turn {state.turn} has {picked}")

    def _supplies(self) -> None:
        state, bounds = self.state, self.bounds
        for seat, (hand, vp, removed) in enumerate(zip(state.hands, state.vp, state.removed)):
            self.bound(f"$.seats[{seat}].hand", hand, 0, bounds.most_hand)
            self.bound(f"$.seats[{seat}].vp", vp, 0, bounds.most_vp)
            self.bound(f"$.seats[{seat}].removed", removed, 0, bounds.most_hand)
            # Free cubes taken as a seat's own (take_free_cubes, idea R8): a hand holds at
            # most its cubes and those, so none where the ruleset cannot take any.
            self.bound(f"$.seats[{seat}].taken", state.taken[seat], 0, bounds.most_hand - self.rules.cubes_per_player)
        self.bound("$.stock", state.stock, 0, bounds.most_stock)
        self.bound("$.round", state.round, 1, bounds.most_round)

    def _conservation(self) -> None:
        state, rules = self.state, self.rules
        on_board: Counter[int] = Counter()
        for owners in (*state.tracks, *state.specials, *state.crew_cubes):
            on_board.update(owners)
        for seat, (hand, out, taken) in enumerate(zip(state.hands, state.removed, state.taken)):
            total = hand + on_board[seat] + out
            if total != rules.cubes_per_player + taken:
                took = f" and took {taken} free cubes" if taken else ""
                self.problem(
                    f"$.seats[{seat}]",
                    f"seat {seat} has {total} cubes (hand {hand} + on the board {on_board[seat]} + removed {out}), "
                    f"but each player has {rules.cubes_per_player}{took}",
                )
        on_tracks = on_board[FREE_CUBE_OWNER]
        on_crew = sum(state.crew_free)
        # Free cubes a seat took (take_free_cubes, idea R8) are its own now, counted above.
        taken = sum(state.taken)
        if state.stock + on_tracks + on_crew + taken != rules.free_cubes:
            by_seats = f" + taken by seats {taken}" if taken else ""
            self.problem(
                "$.stock",
                f"{state.stock + on_tracks + on_crew + taken} free cubes (stock {state.stock} + on tracks {on_tracks} "
                f"+ on crew {on_crew}{by_seats}), but the game has {rules.free_cubes}",
            )

    # -- the turn in progress ----------------------------------------------------------

    def _pending(self) -> None:
        state, rules = self.state, self.rules
        if len(state.pending) > self.bounds.most_pending:
            self.problem(
                "$.pending", f"lists {len(state.pending)} effects, but this ruleset has {self.bounds.most_pending}"
            )
            return
        for k, item in enumerate(state.pending):
            at = f"$.pending[{k}]"
            if (item.card == SETUP_CARD) != (state.stage == SETUP_STAGE):
                self.problem(at, "setup steps are pending exactly in stage setup, before the first round")
                continue
            if item.card == SETUP_CARD and item.slot != -1:
                self.problem(f"{at}.crew", f"a setup step is held by no crew (slot -1), not by crew slot {item.slot}")
                continue
            if item.card == SETUP_CARD:
                self._pending_effect(at, item, self.game.effect_at(SETUP_CARD, tuple(item.path)), "setup.each_player")
                continue
            if not 0 <= item.slot < len(state.crew):
                self.problem(f"{at}.crew", f"crew slot {item.slot} is not in the crew area (slots 0..{len(state.crew) - 1})")
                continue
            if not -1 <= item.card < len(rules.crew):
                self.problem(f"{at}.skill_of", f"no crew card {item.card} in ruleset {rules.name}")
                continue
            if item.card == state.crew[item.slot]:  # one form for one state: the own skill is -1
                self.problem(f"{at}.skill_of", f"crew {rules.crew[item.card].id!r} is the crew's own card: {_BORROWS}")
                continue
            card = rules.crew[item.skill_card(state.crew)]
            effect = self.game.effect_at(item.skill_card(state.crew), tuple(item.path))
            self._pending_effect(at, item, effect, f"the skill of crew {card.id!r}")

    def _pending_effect(self, at: str, item: Pending, effect: Effect | None, held_by: str) -> None:
        if effect is None:
            self.problem(f"{at}.path", f"{list(item.path)} is not the path of an effect in {held_by}")
            return
        if item.remaining > effect.steps:
            self.problem(f"{at}.remaining", f"{item.remaining} steps left of {effect.name!r}, which has {effect.steps}")
        elif item.remaining < 1:
            self.problem(f"{at}.remaining", f"{item.remaining} is outside {_range(1, effect.steps)}")
        self.seat(f"{at}.seat", item.seat)

    def _survey(self) -> None:
        state, bounds = self.state, self.bounds
        self.bound("$.survey.rules", state.survey_rules, 0, _ALL_SURVEY_RULES)
        if bounds.least_survey_bonus is not None:
            self.bound("$.survey.bonus", state.survey_bonus, bounds.least_survey_bonus, bounds.most_survey_bonus)
        self.bound("$.survey.placed", state.survey_placed, 0, bounds.most_survey_placed)
        self.bound("$.survey.last", state.survey_last, -1, len(state.planets) - 1)
        self.bound("$.survey.direction", state.survey_direction, -1, 1)
        # A skip limit is kept within what a survey could pass over (effects.skip_limit).
        self.bound("$.survey.skips", state.survey_skips, NO_SKIP_LIMIT, bounds.most_survey_skips)
        for p in sorted(state.surveyed):
            if not 0 <= p < len(state.planets):
                self.problem("$.survey.surveyed", f"{p} is not a ring position (0..{len(state.planets) - 1})")
        # A survey's Planets are gathered from its first cube on: none before it (the pick clears them).
        if state.surveyed and (state.stage == BEFORE_SURVEY or (state.stage == SURVEYING and not state.survey_placed)):
            self.problem("$.survey.surveyed", "no Planet is surveyed before the survey's first cube")

    # -- lasting effects of skills ---------------------------------------------------------

    def _lasting(self) -> None:
        state = self.state
        for slot in sorted(state.closed):
            if not 0 <= slot < len(state.crew):
                self.problem("$.crew", f"closed crew slot {slot} is not in the crew area (slots 0..{len(state.crew) - 1})")
            elif state.workers[slot] != NO_WORKER:
                self.problem(f"$.crew[{slot}].closed", "a crew with a worker on it cannot be closed (close_crew closes unpicked crews)")
        for seat, until in enumerate(state.protected):
            self.bound(f"$.seats[{seat}].protected", until, 0, PROTECTED_ROUND)
        for slot, card in enumerate(state.borrowed):
            self.bound(f"$.crew[{slot}].borrowed", card, -1, len(self.rules.crew) - 1)
            if card == state.crew[slot]:
                self.problem(f"$.crew[{slot}].borrowed", f"crew {self.rules.crew[card].id!r} is the crew's own card: {_BORROWS}")

    def _stage(self) -> None:
        state = self.state
        stage = state.stage
        if stage not in STAGES:
            self.problem("$.stage", f"{stage!r} is not a stage ({', '.join(STAGES)})")
            return
        names = self.rules.trigger_names  # the ruleset's end conditions (R10), then round_limit
        for trigger in state.triggers:
            if trigger not in names:
                self.problem("$.triggers", f"{trigger!r} is not a trigger ({', '.join(names)})")
        if len(set(state.triggers)) != len(state.triggers):
            self.problem("$.triggers", "names a trigger twice")
        elif set(state.triggers) <= set(names) and list(state.triggers) != sorted(state.triggers, key=names.index):
            self.problem("$.triggers", f"lists the triggers out of the ruleset's order ({', '.join(names)})")
        if (stage == OVER) != bool(state.triggers):
            self.problem("$.triggers", "the game is over exactly when there are triggers (R10)")
        if stage == SETUP_STAGE and (state.round != 1 or state.turn or state.chosen):
            self.problem("$.stage", "the setup steps resolve before the first round: round 1, no turn taken, no crew chosen")
        if stage in EFFECT_STAGES and not state.pending:
            self.problem("$.pending", f"stage {stage} waits for a skill's decision, but no effect is pending")
        elif stage not in EFFECT_STAGES and state.pending:
            self.problem("$.pending", f"stage {stage} has no effects pending; they resolve before it")
