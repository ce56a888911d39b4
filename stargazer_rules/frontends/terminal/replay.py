"""``stargazer replay``: a game record loaded (by its ruleset's name when bundled) and played back."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from stargazer_rules.bots import make_bot
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, FileRefused, RecordError, ReplayError, RulesetError, counted
from stargazer_rules.formats import actions_json, records
from stargazer_rules.frontends.terminal.screen import (
    DEFAULT_WIDTH,
    heading,
    is_a_terminal,
    ruleset_screen_title,
    screen_lines,
    sheet_lines,
)
from stargazer_rules.frontends.terminal.seats import HUMAN, HUMAN_WORDS, seat_names
from stargazer_rules.rulesets import boundedfiles
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.printable import printable
from stargazer_rules.rulesets.resources import bundled_ruleset_names
from stargazer_rules.text import reports
from stargazer_rules.text.messages import (
    describe_action,
    join,
    label,
)
from stargazer_rules.vocabulary.events import Event


#: The largest record file read: a record of the longest game the schema allows (100,000
#: moves of about 80 bytes each) with room to spare.
MAX_RECORD_BYTES = 16 * 1024 * 1024


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
        data = boundedfiles.read_json(path, MAX_RECORD_BYTES, "game record")
    except FileRefused as error:
        raise ReplayError(str(error)) from None
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror or error}") from None
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
        records.final_state(game, record)  # every move legal, and the game ended if it says so
    except RecordError as error:
        raise ReplayError(f"{path}: {one_line(error)}") from None
    missing = records.missing_moves(data)
    if missing and notes is not None:
        notes.write(
            f"{path} lists {len(record.actions)} of its {counted(data['moves'], 'move|moves')} "
            f"({missing} missing): replayed as an unfinished game\n"
        )
    unchecked = records.unchecked(data)
    if unchecked and notes is not None:
        notes.write(f"{path} is {unchecked}\n")
    return game, record


def load_record_to_play(
    path: str | Path, rules: str | None = None, *, notes: TextIO | None = None
) -> tuple[Game, records.GameRecord]:
    """The game and record of a saved game to go on with (``stargazer play --load``): read and
    checked as ``load_record`` reads a record to replay, the same refusals in the same words;
    then ``ReplayError`` for a finished game (there is no move left to make: replay it) and
    for a seat whose bot ``make_bot`` refuses, before any move is played."""
    game, record = load_record(path, rules, notes=notes)
    if record.finished or game.is_over(records.final_state(game, record)):
        raise ReplayError(
            f"{path}: its game is over (after {len(record.actions)} moves): there is no move left "
            f"to play; see it with stargazer replay {path}"
        )
    for seat, spec in enumerate(record_seats(record), start=1):
        if spec is None:
            continue
        try:
            make_bot(spec, 0)
        except BotSpecError as error:
            raise ReplayError(f"{path}: seat {seat} of the record is the bot {spec!r}, which cannot play: {error}") from None
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

    write(ruleset_screen_title(game, "replay_title", record.setup.players, record.seed, lang, moves=total))
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
        if stdin is not None and answer and not is_a_terminal(stdin):
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
