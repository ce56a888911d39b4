"""Play Stargazer in a terminal, and play a game record back.

``stargazer play`` and ``stargazer replay`` (``cli.py``) only parse their options; the work is
here, with the input and output streams passed in, so that tests drive a whole game through
``io.StringIO`` as well as through a real pseudo-terminal.

- ``parse_seats``: the ``--seats`` text as one entry per seat, ``None`` for a person and a
  canonical bot spec otherwise.
- ``screen_lines``: what a state looks like: the ring with each square's VP and the cubes on it,
  the crew area, the players with their provisional scores, and what happened since the last
  screen. Colours (ANSI) are an extra: every cube is also a digit (its seat) or ``F`` (a free
  cube), so the screen reads the same without them.
- ``PlaySession``: the input loop of ``stargazer play``: numbered choices, ``u`` undo, ``s``
  save, ``h`` help, ``q`` quit. Bots are seeded per decision (``bot_seed``), so a game is a
  function of its seed and the people's choices: undoing and choosing the same again replays
  the same bot moves.
- ``load_record`` and ``replay_game``: ``stargazer replay``.

Every word comes from the message catalogue (``labels`` section), in Japanese or English.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from stargazer_rules.bots import make_bot
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.errors import RecordError, ReplayError, RulesetError, SeatsError
from stargazer_rules.formats import actions_json, records
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.printable import printable
from stargazer_rules.rulesets.resources import bundled_ruleset_names
from stargazer_rules.text import reports
from stargazer_rules.text.messages import (
    crew_name,
    describe_action,
    join,
    label,
    player_name,
    render_event,
    skill_sentences,
)
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import OVER, PICK_CREW, SURVEYING, State

__all__ = [
    "HUMAN_WORDS",
    "PlaySession",
    "ReplayError",
    "SeatsError",
    "bot_seed",
    "default_record_name",
    "load_record",
    "one_line",
    "parse_seats",
    "replay_game",
    "screen_lines",
    "seat_names",
    "sheet_lines",
    "use_colour",
]

#: Words of ``--seats`` that seat a person rather than a bot.
HUMAN_WORDS = ("you", "human")
#: How a person's seat is written in a record's ``metadata.seats``.
HUMAN = "human"
#: ``--seats`` entries may be separated by this instead of commas (as in simulate's lineups).
SEAT_SEPARATOR = "/"

INDENT = "  "
#: Seconds a bot may think before the terminal says so (greedy bots never take that long).
THINKING_AFTER = 0.4
#: Screen width when the caller does not know the terminal's.
DEFAULT_WIDTH = 80
#: Owner marks on the board: seat digits, and this for a free cube (the virtual player).
FREE_MARK = "F"
EMPTY_MARK = "."
ACCIDENT_MARK = "✗"
CURRENT_MARK = ">"

# ANSI colours (SGR codes): the workers' colours for seats 0-3 as in the box (red, blue, yellow,
# green), then two more for rulesets with more seats; planet colours by id.
_SEAT_CODES = ("1;31", "1;34", "1;33", "1;32", "1;35", "1;36")
_FREE_CODE = "1;37"
_PLANET_CODES = {
    "red": "31",
    "blue": "34",
    "yellow": "33",
    "green": "32",
    "black": "90",
    "white": "97",
}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_YES = frozenset({"y", "yes", "はい"})


class _Quit(Exception):
    """The person quit, or the input ended: leave the loop (never escapes this module)."""


# -- seats ----------------------------------------------------------------------------------


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
        raise SeatsError(f"--seats lists {len(seats)} seats for {players} players")
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


def default_record_name(seed: int, today: datetime.date | None = None) -> str:
    """``stargazer-2025-01-31-seed3.json``."""
    day = today or datetime.date.today()
    return f"stargazer-{day.isoformat()}-seed{seed}.json"


def use_colour(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """ANSI colours when ``stream`` is a terminal and ``NO_COLOR`` is unset or empty."""
    environ = os.environ if environ is None else environ
    return _isatty(stream) and not environ.get("NO_COLOR")


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


# -- the screen -----------------------------------------------------------------------------


def _paint(text: str, code: str | None, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour and code and text else text


def visible_width(text: str) -> int:
    """Terminal columns of ``text``, ANSI colour codes excluded."""
    return reports.display_width(_ANSI.sub("", text))


def _align(rows: Sequence[Sequence[str]], right: Iterable[int] = (), indent: str = INDENT) -> list[str]:
    """Rows of one-line cells as aligned lines (colour codes take no room); no trailing spaces."""
    right = frozenset(right)
    columns = max(len(row) for row in rows)
    widths = [
        max((visible_width(row[c]) for row in rows if c < len(row)), default=0)
        for c in range(columns)
    ]
    lines = []
    for row in rows:
        parts = []
        for c in range(columns):
            text = row[c] if c < len(row) else ""
            pad = " " * (widths[c] - visible_width(text))
            parts.append(pad + text if c in right else text + pad)
        lines.append((indent + "  ".join(parts)).rstrip())
    return lines


def owner_mark(owner: int, colour: bool = False) -> str:
    """A cube as one character: its seat's digit (seat 0 is ``1``), ``F`` for a free cube."""
    if owner == FREE_CUBE_OWNER:
        return _paint(FREE_MARK, _FREE_CODE, colour)
    return _paint(str(owner + 1), _SEAT_CODES[owner % len(_SEAT_CODES)], colour)


def _seat_painted(seat: int, text: str, colour: bool) -> str:
    return _paint(text, _SEAT_CODES[seat % len(_SEAT_CODES)], colour)


def board_lines(game: Game, state: State, lang: str, colour: bool = False) -> list[str]:
    """The ring: per Planet a row of VP per square (accidents ``✗``) and a row of cubes under
    it, the special square and whether the Planet is full; then the legend."""
    ruleset = game.ruleset
    cards = [ruleset.planets[index] for index in state.planets]
    squares = max(card.length for card in cards)
    rows: list[list[str]] = [
        ["#", label("play_column_planet", lang), label("play_column_square", lang)]
        + [str(square) for square in range(1, squares + 1)]
        + [label("play_column_special", lang)]
    ]
    for position, card in enumerate(cards):
        name = label(
            "score_planet",
            lang,
            planet=card.name.in_lang(lang),
            colour=ruleset.colour(card.colour).name.in_lang(lang),
        )
        track = state.tracks[position]
        special = state.specials[position]
        values = [ACCIDENT_MARK + "0" if vp == 0 else str(vp) for vp in card.track]
        cubes = [owner_mark(owner, colour) for owner in track]
        cubes += [EMPTY_MARK] * (card.length - len(track))
        special_cell = "".join(owner_mark(owner, colour) for owner in special)
        special_cell += EMPTY_MARK * (card.special_capacity - len(special))
        full = label("play_full", lang) if len(track) == card.length else ""
        blank = [""] * (squares - card.length)
        rows.append(
            [str(position + 1), _paint(name, _PLANET_CODES.get(card.colour), colour), label("play_row_vp", lang)]
            + values
            + blank
        )
        rows.append(["", "", label("play_row_cubes", lang)] + cubes + blank + [special_cell, full])
    lines = [label("play_planets_title", lang)]
    lines += _align(rows, right=range(3, 3 + squares))
    lines.append(INDENT + label("play_legend", lang, players=state.players))
    return lines


def crew_lines(game: Game, state: State, lang: str, colour: bool = False, width: int = DEFAULT_WIDTH) -> list[str]:
    """The crew area: survey count, worker, free cubes and player cubes on each crew, and its
    skill as sentences under it."""
    ruleset = game.ruleset
    headers = [
        "#",
        label("play_column_crew", lang),
        label("column_survey", lang),
        label("play_column_worker", lang),
        label("play_column_free", lang),
        label("play_column_cubes", lang),
    ]
    rows = [headers]
    for slot, index in enumerate(state.crew):
        card = ruleset.crew[index]
        worker = state.workers[slot]
        cubes = state.crew_cubes[slot]
        rows.append(
            [
                str(slot + 1),
                card.name.in_lang(lang),
                str(card.survey_count),
                "-" if worker < 0 else _seat_painted(worker, player_name(worker, lang), colour),
                str(state.crew_free[slot]),
                " ".join(owner_mark(owner, colour) for owner in cubes) if cubes else "-",
            ]
        )
    aligned = _align(rows, right=(0, 2, 4))
    lines = [label("play_crew_title", lang), aligned[0]]
    skill_indent = INDENT * 3
    for slot, index in enumerate(state.crew):
        lines.append(aligned[slot + 1])
        for sentence in skill_sentences(ruleset.crew[index], ruleset, lang):
            lines += [
                skill_indent + line
                for line in reports.wrap_text(sentence, max(20, width - len(skill_indent)))
            ]
    return lines


def players_lines(
    game: Game, state: State, lang: str, names: Sequence[str], colour: bool = False
) -> list[str]:
    """Each seat's cubes in hand, VP scored during play and provisional total
    (``game.score``); the seat to decide marked ``>``, the start player named."""
    sheet = game.score(state)
    current = game.current_player(state)
    rows = [
        [
            "",
            label("play_column_player", lang),
            label("play_column_hand", lang),
            label("play_column_vp", lang),
            label("play_column_score", lang),
        ]
    ]
    for seat_score in sheet.seats:
        seat = seat_score.seat
        rows.append(
            [
                CURRENT_MARK if seat == current else "",
                _seat_painted(seat, names[seat], colour),
                str(state.hands[seat]),
                str(state.vp[seat]),
                str(seat_score.total),
                label("play_start_mark", lang) if seat == state.start_player and state.stage != OVER else "",
            ]
        )
    lines = [label("play_players_title", lang)]
    lines += _align(rows, right=(2, 3, 4))
    lines.append(INDENT + label("play_stock", lang, count=state.stock))
    return lines


def heading(game: Game, state: State, lang: str, names: Sequence[str]) -> str:
    """ "Round 2: Player 1 (you) to decide, choose a crew", or "Game over after round 7"."""
    if game.is_over(state):
        return label("play_heading_over", lang, round=state.round)
    seat = game.current_player(state)
    assert seat is not None
    if state.stage == PICK_CREW:
        decision = label("play_decision_pick_crew", lang)
    elif state.stage == SURVEYING:
        decision = label("play_decision_survey", lang)
    else:
        crew_id = game.ruleset.crew[state.crew[state.pending[0].slot]].id
        decision = label("play_decision_skill", lang, crew=crew_name(game.ruleset, crew_id, lang))
    return label("play_heading", lang, round=state.round, player=names[seat], decision=decision)


def screen_lines(
    game: Game,
    state: State,
    lang: str,
    names: Sequence[str],
    recent: Sequence[Event] = (),
    notes: Sequence[str] = (),
    colour: bool = False,
    width: int = DEFAULT_WIDTH,
    title: str | None = None,
) -> list[str]:
    """One screen: a rule, what happened since the last screen (``recent`` events, then
    ``notes``), the heading (``title``, default: whose decision it is), the ring, the crew area
    and the players."""
    lines = ["=" * min(width, DEFAULT_WIDTH)]
    if recent or notes:
        lines.append(label("play_recent", lang))
        lines += [INDENT + render_event(event, game.ruleset, lang) for event in recent]
        lines += [INDENT + note for note in notes]
        lines.append("")
    lines += [title if title is not None else heading(game, state, lang, names), ""]
    lines += board_lines(game, state, lang, colour)
    lines.append("")
    lines += crew_lines(game, state, lang, colour, width)
    lines.append("")
    lines += players_lines(game, state, lang, names, colour)
    return lines


def menu_lines(game: Game, state: State, lang: str) -> list[str]:
    """The legal actions, numbered from 1, as sentences; then the keys."""
    lines = [label("play_options", lang)]
    legal = game.legal_actions(state)
    digits = len(str(len(legal)))
    lines += [
        f"{INDENT}{number:>{digits}}. {describe_action(game, state, act, lang)}"
        for number, act in enumerate(legal, start=1)
    ]
    lines.append(INDENT + label("play_keys", lang))
    return lines


def sheet_lines(game: Game, state: State, lang: str) -> list[str]:
    """The score sheet (``reports.score_report``) with the winners; a provisional sheet, of a
    game saved before its end, names no winner."""
    sheet = game.score(state)
    lines = reports.score_report(game, sheet, lang)
    if not sheet.final and lines[-1] == reports.winner_line(sheet, lang):
        del lines[-2:]
    return lines


def _title(game: Game, key: str, players: int, seed: int | None, lang: str, **more: Any) -> str:
    seed_shown = "-" if seed is None else seed
    return reports.ruleset_title(game.ruleset, lang, key, players=players, seed=seed_shown, **more)


# -- stargazer play -------------------------------------------------------------------------


class PlaySession:
    """One game at the terminal: people choose by number, bots play in between.

    ``seats`` has one entry per seat: ``None`` for a person, a bot spec otherwise. The game is
    dealt from ``seed`` (or played from an explicit ``setup`` dealt from it). ``stdin`` and
    ``stdout`` are text streams; the session reads whole lines, and the end of the input quits
    like ``q`` without asking. ``run`` returns the exit status (0).

    ``states`` holds every state from the start and ``actions`` every decision: undo cuts both
    back to the last decision of a person, which is exactly what replaying the shortened
    record gives (states are immutable values).
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[str | None],
        seed: int,
        stdin: TextIO,
        stdout: TextIO,
        lang: str = "en",
        colour: bool = False,
        width: int = DEFAULT_WIDTH,
        setup: Setup | None = None,
        today: datetime.date | None = None,
    ) -> None:
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.setup = setup if setup is not None else game.deal(len(self.seats), seed=seed)
        if self.setup.players != len(self.seats):
            raise SeatsError(f"{len(self.seats)} seats for a setup of {self.setup.players} players")
        self.stdin = stdin
        self.stdout = stdout
        self.lang = lang
        self.colour = colour
        self.width = width
        self.today = today
        self.names = seat_names(self.seats, lang)
        self.states: list[State] = [game.new_state(setup=self.setup)]
        self.actions: list[Action] = []
        self.events: list[tuple[Event, ...]] = []
        self._shown = 0  # events of actions from this index on are news for the next screen
        self._notes: list[str] = []

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit status."""
        game = self.game
        self._write(
            _title(game, "play_title", len(self.seats), self.seed, self.lang),
            label("play_seats", self.lang, seats=join(self.names, self.lang)),
        )
        try:
            while not game.is_over(self.states[-1]):
                seat = game.current_player(self.states[-1])
                assert seat is not None
                spec = self.seats[seat]
                if spec is None:
                    self._decide()
                else:
                    bot = make_bot(spec, bot_seed(self.seed, len(self.actions)))
                    with self._thinking(seat):
                        act = bot.choose(game, self.states[-1])
                    self._play(act)
                    if self._no_people and self.events[-1] and self.events[-1][-1].key == "round_started":
                        self._show()  # a table of bots: one screen per round
            self._finish()
        except _Quit:
            self._write("")
        return 0

    @contextlib.contextmanager
    def _thinking(self, seat: int) -> Iterator[None]:
        """On a terminal, "X is thinking…" while a bot takes longer than ``THINKING_AFTER``
        seconds (an MCTS bot with a large budget), erased when it has chosen. Logs and pipes
        get nothing: the line would only be noise there."""
        if not _isatty(self.stdout):
            yield
            return
        shown = threading.Event()
        lock = threading.Lock()

        def show() -> None:
            with lock:
                shown.set()
                self.stdout.write(label("play_thinking", self.lang, player=self.names[seat]))
                self.stdout.flush()

        timer = threading.Timer(THINKING_AFTER, show)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with lock:
                if shown.is_set():
                    self.stdout.write("\r\x1b[K")  # back to the line's start and erase it
                    self.stdout.flush()

    @property
    def _no_people(self) -> bool:
        return all(spec is not None for spec in self.seats)

    def _play(self, act: Action) -> None:
        state, events = self.game.apply(self.states[-1], act)
        self.states.append(state)
        self.actions.append(act)
        self.events.append(events)

    def _decide(self) -> None:
        """One decision of a person: show the screen and the options, read until one is played
        or the game is undone."""
        state = self.states[-1]
        count = len(self.game.legal_actions(state))
        self._show(with_menu=True)
        while True:
            answer = self._ask(label("play_prompt", self.lang, count=count)).strip()
            key = answer.lower()
            if answer.isdecimal() and 1 <= int(answer) <= count:
                self._play(self.game.legal_actions(state)[int(answer) - 1])
                return
            if key == "u":
                if self._undo():
                    return
                self._write(label("play_nothing_to_undo", self.lang))
            elif key == "s":
                self._save()
            elif key == "h":
                self._help(count)
            elif key == "q":
                if self._ask_yes(label("play_quit_save", self.lang)):
                    self._save()
                raise _Quit
            else:
                self._write(label("play_hint", self.lang, count=count))

    def _undo(self) -> bool:
        """Back to the last decision of a person before the current one; False when none."""
        for ply in range(len(self.actions) - 1, -1, -1):
            seat = self.game.current_player(self.states[ply])
            if seat is not None and self.seats[seat] is None:
                del self.states[ply + 1 :]
                del self.actions[ply:]
                del self.events[ply:]
                self._shown = len(self.actions)
                state = self.states[-1]
                self._notes.append(
                    label("play_undone", self.lang, player=self.names[seat], round=state.round)
                )
                return True
        return False

    def _finish(self) -> None:
        """The last screen, the score sheet with the winners, and the offer to save."""
        self._show()
        self._write("", *sheet_lines(self.game, self.states[-1], self.lang))
        if not self._no_people and self._ask_yes(label("play_end_save", self.lang)):
            self._save()

    # -- screens and input ------------------------------------------------------------------

    def _show(self, with_menu: bool = False) -> None:
        state = self.states[-1]
        recent = [event for events in self.events[self._shown :] for event in events]
        lines = screen_lines(
            self.game, state, self.lang, self.names, recent, self._notes, self.colour, self.width
        )
        if with_menu:
            lines += [""] + menu_lines(self.game, state, self.lang)
        self._write(*lines)
        self._shown = len(self.actions)
        self._notes = []

    def _help(self, count: int) -> None:
        lang = self.lang
        self._write(
            INDENT + label("play_help_number", lang, count=count),
            *(INDENT + label(key, lang) for key in ("play_help_undo", "play_help_save", "play_help_help", "play_help_quit")),
        )

    def _write(self, *lines: str) -> None:
        self.stdout.write("".join(line + "\n" for line in lines))
        self.stdout.flush()

    def _ask(self, prompt: str) -> str:
        """One line of input after ``prompt``; the end of the input quits."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise _Quit
        if not _isatty(self.stdin):
            self.stdout.write(line if line.endswith("\n") else line + "\n")  # a log reads like the screen
        return line.rstrip("\r\n")

    def _ask_yes(self, prompt: str) -> bool:
        return self._ask(prompt).strip().lower() in _YES

    # -- saving -----------------------------------------------------------------------------

    def record(self) -> records.GameRecord:
        """The game so far as a record: the setup, the seed, every decision, the seats."""
        return records.record_game(
            self.game,
            self.setup,
            self.actions,
            seed=self.seed,
            metadata={
                "generator": "stargazer play",
                "seats": [HUMAN if spec is None else spec for spec in self.seats],
                "date": (self.today or datetime.date.today()).isoformat(),
            },
        )

    def _save(self) -> None:
        """Ask for a file name (Enter keeps the default) and write the record there."""
        default = default_record_name(self.seed, self.today)
        path = self._ask(label("play_save_prompt", self.lang, default=default)).strip() or default
        try:
            write_record(self.record(), path)
        except OSError as error:
            self._write(label("play_save_failed", self.lang, path=path, reason=error.strerror or error))
            return
        self._write(label("record_written", self.lang, path=path))


def write_record(record: records.GameRecord, path: str | Path) -> None:
    """Write ``record`` as an indented JSON document (UTF-8, names kept readable)."""
    text = json.dumps(records.record_to_json(record), ensure_ascii=False, indent=2)
    Path(path).write_text(text + "\n", encoding="utf-8")


# -- stargazer replay -----------------------------------------------------------------------


def load_record(
    path: str | Path, rules: str | None = None, *, unfinished: bool = False, notes: TextIO | None = None
) -> tuple[Game, records.GameRecord]:
    """The game and record of a record file. The ruleset is ``rules`` (a folder or bundled
    name) when given, else the bundled ruleset the record names. ``ReplayError`` with a
    one-line message when the file cannot be read, its ruleset cannot be found or loaded, or
    the record does not belong to it (another fingerprint), lists more moves than its games
    can have, or fewer than it says it has; with ``unfinished``, such a record is read as an
    unfinished game, and a line on ``notes`` says how many moves it lacks. A line on ``notes``
    also says what cannot be checked of a ``stargazer-record/1`` record that does not say how
    many moves it has or whether its game ended."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path} is not a JSON game record: {error}") from None
    except RecursionError:
        raise ReplayError(f"{path} is not a game record: its JSON is nested too deeply to read") from None
    except ValueError:  # json reads integers of up to 4300 digits
        raise ReplayError(f"{path} is not a game record: it holds a number too long to read (over 4300 digits)") from None
    if rules is None:
        name = data.get("ruleset", {}).get("name") if isinstance(data, dict) and isinstance(data.get("ruleset"), dict) else None
        if not isinstance(name, str):
            raise ReplayError(f"{path} is not a game record: it names no ruleset")
        if name not in bundled_ruleset_names():
            raise ReplayError(
                f"{path} was made with ruleset {name!r}, which is not bundled "
                f"({', '.join(bundled_ruleset_names())}): give its folder with --rules DIR"
            )
        rules = name
    try:
        game = Game(load_ruleset(rules))
    except RulesetError as error:
        raise ReplayError(f"cannot load ruleset {rules}: {error.problems[0]}") from None
    try:
        record = records.record_from_json(data, game, unfinished=unfinished)
    except RecordError as error:
        raise ReplayError(f"{path}: {one_line(error)}") from None
    missing = records.missing_moves(data)
    if missing and notes is not None:
        notes.write(
            f"{path} lists {len(record.actions)} of its {data['moves']} moves "
            f"({missing} missing): replayed as an unfinished game\n"
        )
    unchecked = records.unchecked(data)
    if unchecked and notes is not None:
        notes.write(f"{path} is {unchecked}\n")
    return game, record


def one_line(error: Exception) -> str:
    return " ".join(line.strip() for line in str(error).splitlines() if line.strip())


def record_seats(record: records.GameRecord) -> tuple[str | None, ...]:
    """The seats of a record's ``metadata.seats`` (``stargazer play`` writes them); people for
    seats it does not describe."""
    listed = record.metadata.get("seats")
    players = record.setup.players
    if not isinstance(listed, list) or len(listed) != players:
        return (None,) * players
    return tuple(
        None if not isinstance(spec, str) or spec in (HUMAN, *HUMAN_WORDS) else printable(spec) for spec in listed
    )


def replay_game(
    game: Game,
    record: records.GameRecord,
    stdout: TextIO,
    stdin: TextIO | None = None,
    lang: str = "en",
    step: bool = False,
    colour: bool = False,
    width: int = DEFAULT_WIDTH,
) -> int:
    """Play ``record`` back. Without ``step``: the setup, the event log and the last screen
    with the score sheet (final, or provisional for a record saved mid-game). With ``step``:
    the start screen, then one screen per move (who played what, its events), waiting for
    Enter between moves (``q`` or the end of ``stdin`` stops), then the score sheet.
    ``RecordError`` if an action of the record is not legal. Returns the exit status (0)."""
    names = seat_names(record_seats(record), lang)
    total = len(record.actions)

    def write(*lines: str) -> None:
        stdout.write("".join(line + "\n" for line in lines))
        stdout.flush()

    write(_title(game, "replay_title", record.setup.players, record.seed, lang, moves=total))
    write(label("play_seats", lang, seats=join(names, lang)))
    if not step:
        state = game.new_state(setup=record.setup)
        write("", *reports.setup_report(game, state, lang), "")
        events: list[Event] = []
        for state, new_events in records.replay_events(game, record):
            events += new_events
        write(*reports.log_lines(events, game.ruleset, lang))
        write(*screen_lines(game, state, lang, names, colour=colour, width=width, title=heading(game, state, lang, names)))
        write("", *sheet_lines(game, state, lang))
        return 0
    state = game.new_state(setup=record.setup)
    write(*screen_lines(game, state, lang, names, colour=colour, width=width, title=label("replay_start", lang)))
    for number, (data, (after, new_events)) in enumerate(
        zip(record.actions, records.replay_events(game, record), strict=True), start=1
    ):
        stdout.write(label("replay_prompt", lang))
        stdout.flush()
        answer = stdin.readline() if stdin is not None else ""
        if stdin is not None and answer and not _isatty(stdin):
            stdout.write(answer if answer.endswith("\n") else answer + "\n")
        if not answer or answer.strip().lower() == "q":
            write("")
            return 0
        seat = game.current_player(state)
        act = actions_json.action_from_json(game, state, data)
        move = label(
            "replay_move",
            lang,
            number=number,
            total=total,
            player=names[seat] if seat is not None else "-",
            action=describe_action(game, state, act, lang),
        )
        write(*screen_lines(game, after, lang, names, new_events, colour=colour, width=width, title=move))
        state = after
    write("", *sheet_lines(game, state, lang))
    return 0

