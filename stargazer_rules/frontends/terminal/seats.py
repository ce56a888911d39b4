"""Who sits where in a terminal game: ``--seats`` parsed to a person or a canonical bot spec per
seat, the seats' names, the seed of each bot decision and the default record name."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Sequence

from stargazer_rules.bots import make_bot
from stargazer_rules.errors import SeatsError, counted
from stargazer_rules.text.messages import (
    label,
    player_name,
)

#: Words of ``--seats`` that seat a person rather than a bot.
HUMAN_WORDS = ("you", "human")


#: How a person's seat is written in a record's ``metadata.seats``.
HUMAN = "human"


#: ``--seats`` entries may be separated by this instead of commas (as in simulate's lineups).
SEAT_SEPARATOR = "/"


def parse_seats(text: str, players: int | None = None) -> tuple[str | None, ...]:
    """The seats ``text`` lists: ``None`` for a person (``you``, ``human``), else a bot spec as
    written (checked by ``make_bot``).

    Entries are separated by commas, or by ``/`` as in simulate's lineups; a comma-separated
    part that only sets a parameter (``c=1.4``) continues the bot spec before it, so
    ``you,mcts:iterations=400,c=1.4`` is two seats. With ``players``, the last entry fills the
    seats left over. Raises ``BotSpecError`` for an unknown bot, ``SeatsError`` otherwise.
    """
    entries: list[str] = []
    if SEAT_SEPARATOR in text:
        entries = [part.strip() for part in text.split(SEAT_SEPARATOR)]
    else:
        for part in (part.strip() for part in text.split(",")):
            if entries and "=" in part and ":" not in part and ":" in entries[-1]:
                entries[-1] += "," + part
            else:
                entries.append(part)
    if any(not entry for entry in entries):
        raise SeatsError(f"--seats {text!r} has an empty entry; give one person or bot per seat")
    for entry in entries:
        if entry.lower() not in HUMAN_WORDS:
            make_bot(entry, 0)  # raises BotSpecError, naming the closest bot
    seats = tuple(None if entry.lower() in HUMAN_WORDS else entry for entry in entries)
    if players is None:
        return seats
    if len(seats) > players:
        raise SeatsError(f"--seats lists {counted(len(seats), 'seat|seats')} for {players} players")
    return seats + (seats[-1],) * (players - len(seats))


def seat_names(seats: Sequence[str | None], lang: str) -> tuple[str, ...]:
    """ "Player 1 (you)", "Player 2 (greedy)": several people are each "(human)"."""
    people = sum(1 for seat in seats if seat is None)
    person = label("play_you" if people == 1 else "play_human", lang)
    return tuple(
        label("play_seat_name", lang, player=player_name(seat, lang), kind=person if spec is None else spec)
        for seat, spec in enumerate(seats)
    )


def bot_seed(seed: int, ply: int) -> int:
    """The seed of the bot deciding at ``ply`` (decisions so far) of the game dealt from ``seed``.

    A fresh bot per decision, seeded from the game's seed and the ply, chooses the same for the
    same history: after an undo, the same choice brings back the same bot moves.
    """
    digest = hashlib.sha256(f"stargazer-play/{seed}/{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def default_record_name(seed: int, today: datetime.date | None = None, taken: Callable[[str], bool] | None = None) -> str:
    """``stargazer-2025-01-31-seed3.json``; when ``taken`` says that name is used (a save of
    the same seed that day), the first of ``stargazer-2025-01-31-seed3-2.json``, ``-3``, ...
    that is not, so that the default never names an earlier save."""
    day = today or datetime.date.today()
    stem = f"stargazer-{day.isoformat()}-seed{seed}"
    name = f"{stem}.json"
    number = 1
    while taken is not None and taken(name):
        number += 1
        name = f"{stem}-{number}.json"
    return name
