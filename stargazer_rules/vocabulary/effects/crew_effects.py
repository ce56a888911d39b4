"""The effects on the crews and the turn order: naming or setting the next start player (R12),
closing a crew to picks, protecting the chooser's cubes, and applying another crew's skill."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from stargazer_rules.vocabulary.actions import NAME_START_PLAYER, TARGET_CREW, Action, action
from stargazer_rules.vocabulary.expressions import CREWS, SEATS, Scope, SetNode
from stargazer_rules.vocabulary.table import PROTECTION_UNTIL, SETUP_STAGE
from stargazer_rules.vocabulary.effects.base import (
    AFTER_SURVEY,
    ON_CHOOSE,
    ROUND_END,
    _NO_FOLLOW_UP,
    _PLAY_TIMINGS,
    Effect,
    Param,
    _Immediate,
)

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


@attrs.frozen(kw_only=True)
class NameStartPlayer(Effect):
    """At round end the chooser names the next start player, any seat (R12, R19)."""

    name: ClassVar[str] = "name_start_player"
    summary: ClassVar[str] = (
        "At the end of the round, if the game goes on, the chooser names the next start "
        "player (any seat, their own included)."
    )
    timings: ClassVar[tuple[str, ...]] = (ROUND_END,)
    CHOICES_FROM: ClassVar[str | None] = "seats"
    MOVES_CUBES: ClassVar[bool] = False
    VP_PER_STEP: ClassVar[int | None] = 0
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0
    LANDINGS_PER_STEP: ClassVar[int | None] = 0

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        return tuple(action(NAME_START_PLAYER, other) for other in range(table.players))

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.start_player = choice.target
        table.log("start_player_named", player=seat, start_player=choice.target)
        return _NO_FOLLOW_UP


@attrs.frozen(kw_only=True)
class CloseCrew(_Immediate):
    """Each crew of a set that nobody has picked this round is closed until the round ends:
    the pick decision does not offer it (R5). A crew is closed only while enough crews stay
    open for the turns left in the round, so every later player can still pick (R9)."""

    name: ClassVar[str] = "close_crew"
    summary: ClassVar[str] = (
        "Each crew of a set that nobody has picked this round is closed: nobody may pick it "
        "until the round ends (it still gets its free cube at the round's end, being unpicked). "
        "A crew is closed only while enough crews stay open for the turns left in the round."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (Param("crew", CREWS, "The crews.", default="this_crew"),)

    crew: SetNode

    def _closing(self, table: Table, slots: tuple[int, ...]) -> list[int]:
        """The crews of ``slots`` that close, in crew-area order: open ones, while the open
        crews left would still outnumber the turns left after this one (R5, R9); before the
        first round (setup steps) every player's pick is still to come."""
        turns_left = table.players if table.stage == SETUP_STAGE else table.players - table.turn - 1
        open_now = table.open_crews()
        left = len(open_now)
        closing = []
        for slot in slots:
            if slot in open_now and slot not in closing and left - 1 >= turns_left >= 0:
                closing.append(slot)
                left -= 1
        return closing

    def can_perform(self, scope: Scope) -> bool:
        return bool(self._closing(scope.table, self.crew.members(scope)))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        for slot in self._closing(table, self.crew.members(scope)):
            table.closed = table.closed | {slot}
            table.log("crew_closed", player=scope.me, crew=table.crew_id(slot))


#: How long ``protect_cubes`` lasts, in the order of ``table.PROTECTION_UNTIL``.
PROTECTION_UNTIL_WORDS = tuple(PROTECTION_UNTIL)


@attrs.frozen(kw_only=True)
class ProtectCubes(_Immediate):
    """A lasting effect: until the turn (or the round) ends, no other player's skill may move
    the chooser's cubes, on a Planet or in hand (``return_cube``, ``move_cube``, ``place_cube``
    and ``place_cube_on_crew`` pass them over)."""

    name: ClassVar[str] = "protect_cubes"
    summary: ClassVar[str] = (
        "Until the turn or the round ends, no other player's skill may return or move the "
        "chooser's cubes, on a Planet or from hand: those effects pass them over."
    )
    timings: ClassVar[tuple[str, ...]] = _PLAY_TIMINGS
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "until",
            "choice",
            "turn_end: until this turn ends; round_end: until the round ends (its round-end effects included).",
            choices=PROTECTION_UNTIL_WORDS,
            default="round_end",
        ),
    )

    until: str = "round_end"

    def can_perform(self, scope: Scope) -> bool:
        if scope.me < 0:  # nobody is "you" (a planet ability): nobody's cubes to protect
            return False
        return scope.table.protected[scope.me] < PROTECTION_UNTIL[self.until]

    def perform(self, scope: Scope) -> None:
        table = scope.table
        table.protected = _set_at(table.protected, scope.me, PROTECTION_UNTIL[self.until])
        table.log("cubes_protected", player=scope.me, crew=table.crew_id(scope.crew), until=self.until)


@attrs.frozen(kw_only=True)
class SetStartPlayer(_Immediate):
    """The start player of the next round becomes a seat of a set, with no decision: the first
    of its seats in turn order from the current start player, so a start player among them
    stays; an empty set changes nothing (R9). Only at a round's end: the seat to act is read
    from the start player during a round (R4), and the naming of R12 comes after it, so a
    naming overrides it (docs/rules.md, "Start player")."""

    name: ClassVar[str] = "set_start_player"
    summary: ClassVar[str] = (
        "At a round's end the start player passes, with no decision, to a seat of a set: the "
        "first of them in turn order from the current start player (who stays when among them); "
        "an empty set changes nothing."
    )
    timings: ClassVar[tuple[str, ...]] = (ROUND_END,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("seat", SEATS, "The seats the start player passes to; of several, the first in turn order from the current start player."),
    )

    seat: SetNode

    def next_start(self, scope: Scope) -> int | None:
        """The seat that becomes the start player; None for an empty set."""
        seats = self.seat.members(scope)
        if not seats:
            return None
        table = scope.table
        players = table.players
        return next(seat for k in range(players) if (seat := (table.start_player + k) % players) in seats)

    def can_perform(self, scope: Scope) -> bool:
        return bool(self.seat.members(scope))

    def perform(self, scope: Scope) -> None:
        table = scope.table
        seat = self.next_start(scope)
        if seat is None:
            return
        table.start_player = seat
        table.log("start_player_set", crew=table.crew_id(scope.crew), start_player=seat)


@attrs.frozen(kw_only=True)
class UseSkill(Effect):
    """The chooser picks a crew of a set and its skill resolves as this crew's (S10): its pick
    effects at once, its later ones at their stage, ``this_crew`` meaning this crew."""

    name: ClassVar[str] = "use_skill"
    summary: ClassVar[str] = (
        "The chooser picks another crew of a set and applies its skill as if it were this "
        "crew's: its on_choose and survey effects resolve at once, its after_survey and "
        "round_end effects at their stage. Always-in-play crews, crews whose skill applies "
        "another's and crews without a skill are never offered."
    )
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("crew", CREWS, "The crews whose skill may be applied (this crew never is).", default="others"),
    )
    target_message: ClassVar[str] = "target_crew_skill"
    CHOICES_FROM: ClassVar[str | None] = "other_crews"
    VP_PER_STEP: ClassVar[int | None] = 0  # what the skill applied scores is bounded by engine/bounds.py (borrowed_bounds)
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0

    crew: SetNode

    def choices(self, table: Table, seat: int, slot: int) -> tuple[Action, ...]:
        borrowable = table.game.borrowable
        crew = table.crew
        members = self.crew.members(Scope(table, seat, slot))
        return tuple(action(TARGET_CREW, m) for m in members if m != slot and crew[m] in borrowable)

    def apply(self, table: Table, seat: int, slot: int, choice: Action | None):
        assert choice is not None
        table.log("skill_applied", player=seat, crew=table.crew_id(slot), skill_of=table.crew_id(choice.target))
        table.apply_skill_of(slot, table.crew[choice.target], seat)
        return _NO_FOLLOW_UP


def _set_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] = value
    return tuple(changed)
