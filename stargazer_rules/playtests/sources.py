"""Playtest logs made from games the library recorded: a game record saved by ``stargazer
play``, the browser table or ``--record``, and a simulation's games.jsonl line.

Both become the log a person would have written of the same game, so that the figures of
the people's games and of the bots' are counted by one code (``playtests.figures``): the seats
in turn order from the start player of round 1 (R4, R14), every round's crews in the order
taken, and the final score sheet (R18). A seat is named ``seat N`` (its table seat, 1 first),
with the bot that played it when the record says so.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RecordError
from stargazer_rules.formats import records
from stargazer_rules.playtests.log import PlaytestLog, SeatScore

__all__ = ["log_from_game_line", "log_from_record"]

#: How a record's ``metadata.seats`` names a person (``frontends.terminal.seats.HUMAN``).
_HUMAN = "human"


def log_from_game_line(line: Mapping[str, Any], date: str | None = None, source: str | None = None) -> PlaytestLog:
    """The log of one games.jsonl line (docs/simulation.md, "games.jsonl")."""
    players = line["players"]
    start = line["setup"]["start_player"]
    order = [(start + position) % players for position in range(players)]
    sheet = {seat["seat"]: seat for seat in line["score_sheet"]["seats"]}
    rounds: dict[int, list[str]] = {}
    for pick in line["picks"]:
        rounds.setdefault(pick["round"], []).append(pick["crew"])
    seating = line.get("seating") or [None] * players
    return PlaytestLog(
        date=date or datetime.date.today().isoformat(),
        ruleset=line["ruleset"]["name"],
        seats=[_seat_name(seat, seating[seat]) for seat in order],
        rounds=line["rounds"],
        scores=[_seat_score(sheet[seat]) for seat in order],
        picks=[rounds[number] for number in sorted(rounds)],
        fingerprint=line["ruleset"]["fingerprint"],
        source=source,
    )


def log_from_record(game: Game, record: records.GameRecord, source: str | None = None) -> PlaytestLog:
    """The log of a finished game record; ``RecordError`` for one whose game had not ended."""
    state = records.final_state(game, record)  # refuses another ruleset's record, and an illegal move
    if not game.is_over(state):
        raise RecordError(f"the record's game is not over (round {state.round}): a playtest log is of a finished game")
    picks: dict[int, list[str]] = {}
    for after, events in records.replay_events(game, record):
        for event in events:
            if event.key == "crew_chosen":
                picks.setdefault(after.round, []).append(event.params["crew"])
    sheet = game.score(state)
    players = record.setup.players
    start = record.setup.start_player
    order = [(start + position) % players for position in range(players)]
    listed = record.metadata.get("seats")
    specs: Sequence[Any] = listed if isinstance(listed, list) and len(listed) == players else [None] * players
    date = record.metadata.get("date")
    try:
        day = datetime.date.fromisoformat(date).isoformat() if isinstance(date, str) else None
    except ValueError:
        day = None
    return PlaytestLog(
        date=day or datetime.date.today().isoformat(),
        ruleset=record.ruleset,
        seats=[_seat_name(seat, specs[seat]) for seat in order],
        rounds=state.round,
        scores=[_score_of(sheet.seats[seat]) for seat in order],
        picks=[picks[number] for number in sorted(picks)],
        fingerprint=record.fingerprint,
        source=source,
    )


def _seat_name(seat: int, spec: Any) -> str:
    if isinstance(spec, str) and spec != _HUMAN:
        return f"seat {seat + 1} ({spec})"[:40]
    return f"seat {seat + 1}"


def _score_of(seat: Any) -> SeatScore:
    """A score sheet's seat (``engine.scoring.SeatScore``) as a log's line; ``lines`` only when
    the ruleset has end-of-game scoring lines."""
    return SeatScore(seat.majority_vp, seat.bonus_vp, seat.play_vp, seat.total, seat.hand, seat.lines_vp if seat.lines else None)


def _seat_score(seat: Mapping[str, Any]) -> SeatScore:
    lines = seat.get("lines")
    return SeatScore(seat["majority_vp"], seat["bonus_vp"], seat["play_vp"], seat["total"], seat["hand"], sum(lines.values()) if lines else None)
