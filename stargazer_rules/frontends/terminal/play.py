"""The input loop of ``stargazer play``: numbered choices, ``u`` undo, ``s`` save, ``h`` help,
``q`` quit, on streams passed in."""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from stargazer_rules.bots import make_bot
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.errors import SeatsError, counted
from stargazer_rules.formats import actions_json, records
from stargazer_rules.frontends.terminal.replay import record_seats
from stargazer_rules.frontends.terminal.screen import (
    DEFAULT_WIDTH,
    INDENT,
    is_a_terminal,
    menu_lines,
    ruleset_screen_title,
    screen_lines,
    sheet_lines,
)
from stargazer_rules.frontends.terminal.seats import HUMAN, bot_seed, default_record_name, seat_names
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.text.messages import (
    join,
    label,
)
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

#: Seconds a bot may think before the terminal says so (greedy bots never take that long).
THINKING_AFTER = 0.4


_YES = frozenset({"y", "yes", "はい"})
#: The key that quits the game, and at the save prompt saves nothing.
QUIT_KEY = "q"


class _Quit(Exception):
    """The person quit, or the input ended: leave the loop (never escapes this module)."""


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
            raise SeatsError(f"{counted(len(self.seats), 'seat|seats')} for a setup of {self.setup.players} players")
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

    @classmethod
    def from_record(
        cls, game: Game, record: records.GameRecord, stdin: TextIO, stdout: TextIO, **options: object
    ) -> PlaySession:
        """The saved game of ``record`` going on (``stargazer play --load``): its setup, seats
        (``record_seats``: people where it names none) and seed (0 for the bots of a record
        without one), its moves played again, so that undo reaches back into them too; the
        first screen says at which move and round the game goes on. ``options`` as for the
        constructor."""
        session = cls(
            game, record_seats(record), record.seed if record.seed is not None else 0, stdin, stdout,
            setup=record.setup, **options,  # type: ignore[arg-type]
        )
        replayed = records.replay_events(game, record)  # the one checker of a record's moves
        for data, (after, events) in zip(record.actions, replayed, strict=True):
            session.actions.append(actions_json.action_from_json(game, session.states[-1], data))
            session.states.append(after)
            session.events.append(events)
        session._shown = len(session.actions)
        session._notes.append(
            label("play_continued", session.lang, moves=len(session.actions), round=session.states[-1].round)
        )
        return session

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or a person quits; the exit status."""
        game = self.game
        self._write(
            ruleset_screen_title(game, "play_title", len(self.seats), self.seed, self.lang),
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
        if not is_a_terminal(self.stdout):
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
            elif key == QUIT_KEY:
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
        if not is_a_terminal(self.stdin):
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
        """Ask for a file name (Enter keeps the default, a name no file has) and write the
        record there; a file already there is replaced only when the player says so, else
        another name is asked for."""
        default = default_record_name(self.seed, self.today, taken=os.path.lexists)
        while True:
            path = self._ask(label("play_save_prompt", self.lang, default=default)).strip() or default
            if path.lower() == QUIT_KEY:  # the key that quits everywhere else: no file named q
                self._write(label("play_save_cancelled", self.lang))
                return
            replace = os.path.lexists(path)
            if not replace or self._ask_yes(label("play_save_replace", self.lang, path=path)):
                break
        try:
            write_record(self.record(), path, replace=replace)
        except OSError as error:
            self._write(label("play_save_failed", self.lang, path=path, reason=error.strerror or error))
            return
        self._write(label("record_written", self.lang, path=path))


def write_record(record: records.GameRecord, path: str | Path, replace: bool = True) -> None:
    """Write ``record`` as an indented JSON document (UTF-8, names kept readable); with
    ``replace`` False, a file already at ``path`` is an error (``FileExistsError``), never
    overwritten."""
    text = json.dumps(records.record_to_json(record), ensure_ascii=False, indent=2)
    if replace:
        outputfiles.write_text(path, text + "\n")
    else:
        outputfiles.create_new(path, (text + "\n").encode("utf-8"))
