"""The commands that play one game: ``play-random``, ``play`` (at the terminal) and ``replay``."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys

from stargazer_rules.bots import bot_names
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, RecordError, ReplayError, SeatsError, SetupError
from stargazer_rules.formats import records
from stargazer_rules.frontends import terminal
from stargazer_rules.frontends.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_USAGE,
    Prefixed,
    SeedAction,
    add_lang,
    add_ruleset_argument,
    positive_int,
    report_engine,
    report_warnings,
    ruleset_or_stop,
    say_error,
    wrapped,
)
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.text import reports
from stargazer_rules.text.messages import label


def add_play_random(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play-random",
        help="play one game with random moves and print its log and score sheet",
        description=(
            "Play one complete game choosing uniformly at random among the legal actions, "
            "dealt and played from one seed, and print the setup, the event log by round and "
            "turn, and the final score sheet with the winners."
        ),
    )
    parser.add_argument(
        "--players", type=int, required=True, metavar="N", help="the number of players"
    )
    parser.add_argument(
        "--seed",
        action=SeedAction,
        default=0,
        metavar="S",
        help="the seed of the deal and of the random moves, 0 to 2**64 - 1 (default 0): the same seed plays the same game",
    )
    add_ruleset_argument(parser, positional=False)
    add_lang(parser)
    parser.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="also write the game record (JSON, replayable with stargazer_rules.formats.records) to FILE",
    )
    parser.set_defaults(run=run_play_random)


def run_play_random(args: argparse.Namespace) -> int:
    """Play and print one random game (exit 0); a one-line error for bad input (exit 1 or 2)."""
    ruleset = ruleset_or_stop(args.ruleset, "play-random")
    game = Game(ruleset)
    try:
        setup = game.deal(args.players, seed=args.seed)
    except SetupError as error:
        say_error("play-random", str(error))
        return EXIT_USAGE
    # The same deal as game.new_state(players=N, seed=S), kept explicit for the record.
    state = game.new_state(setup=setup)
    rng = random.Random(args.seed)
    lang = args.lang
    lines = [reports.game_title(ruleset, args.players, args.seed, lang), ""]
    lines += reports.setup_report(game, state, lang)
    actions = []
    events = []
    while not game.is_over(state):
        act = rng.choice(game.legal_actions(state))
        actions.append(act)
        state, new_events = game.apply(state, act)
        events += new_events
    lines.append("")
    lines += reports.log_lines(events, ruleset, lang)
    lines.append("")
    lines += reports.score_report(game, game.score(state), lang)
    print("\n".join(lines))
    if args.record is not None:
        record = records.record_game(
            game, setup, actions, seed=args.seed, metadata={"generator": "stargazer play-random"}
        )
        text = json.dumps(records.record_to_json(record), ensure_ascii=False, indent=2)
        try:
            outputfiles.write_text(args.record, text + "\n")
        except OSError as error:
            say_error("play-random", f"cannot write the record: {error}")
            return EXIT_INVALID
        print(label("record_written", lang, path=args.record))
    return 0


def add_play(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal, against bots or hot seat",
        description=wrapped(
            "Play one game in the terminal. Each seat is a person ('you' or 'human'; several "
            "people share the keyboard, hot seat) or a bot. After every move of the bots the "
            "screen shows the ring, the crew area, the players' cubes and provisional scores "
            "and what happened; choose by number, or type u (undo), s (save the game record), "
            "h (help), q (quit). --load FILE goes on with a saved game. See docs/play.md."
        ),
        epilog=f"bots: {', '.join(bot_names())}",
    )
    add_ruleset_argument(parser, positional=False)
    parser.add_argument(
        "--players",
        type=positive_int,
        default=None,
        metavar="N",
        help="the number of players (default: as many as --seats lists, else the ruleset's smallest count)",
    )
    parser.add_argument(
        "--seats",
        default=None,
        metavar="SEATS",
        help=(
            "who sits where, in seat order, separated by commas (or '/'): 'you' or 'human' for a "
            "person, else a bot spec; the last fills the seats left over (default: you,greedy)"
        ),
    )
    parser.add_argument(
        "--seed",
        action=SeedAction,
        default=None,
        metavar="S",
        help="the seed of the deal and of the bots, 0 to 2**64 - 1 (default: a random one, shown at the start)",
    )
    parser.add_argument(
        "--load",
        default=None,
        metavar="FILE",
        help=(
            "go on with a game saved with s (a game record): its ruleset (by name when bundled, else "
            "give its folder with --rules), seats and seed, at the position it was saved in"
        ),
    )
    add_lang(parser)
    parser.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Play one game at the terminal (exit 0); a one-line error for bad options (exit 1 or 2)."""
    command = "play"
    if args.load is not None:
        return _play_on(args, command)
    ruleset = ruleset_or_stop(args.ruleset, command)
    report_engine(ruleset, command)
    try:
        listed = terminal.parse_seats(args.seats or "you,greedy")
        players = args.players or (len(listed) if args.seats else min(ruleset.player_counts))
        seats = terminal.parse_seats(args.seats or "you,greedy", players)
    except (BotSpecError, SeatsError) as error:
        say_error(command, str(error))
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    game = Game(ruleset)
    try:
        session = terminal.PlaySession(game, seats, seed, sys.stdin, sys.stdout, **_screen_options(args))
    except SetupError as error:
        say_error(command, str(error))
        return EXIT_USAGE
    return _run_session(session)


def _play_on(args: argparse.Namespace, command: str) -> int:
    """``play --load FILE``: the saved game goes on; one line and exit 1 for a record that
    cannot be read or belongs to another ruleset than ``--rules``, exit 2 for the options
    the record decides."""
    decided = [option for option, value in (("--players", args.players), ("--seats", args.seats),
                                            ("--seed", args.seed)) if value is not None]
    if decided:
        say_error(command, f"--load goes on with the record's seats and seed: leave out {' and '.join(decided)}")
        return EXIT_USAGE
    try:
        game, record = terminal.load_record_to_play(args.load, args.ruleset, notes=Prefixed(command, sys.stderr))
    except (ReplayError, RecordError) as error:
        say_error(command, terminal.one_line(error))
        return EXIT_INVALID
    report_warnings(game.ruleset, command)
    report_engine(game.ruleset, command)
    session = terminal.PlaySession.from_record(game, record, sys.stdin, sys.stdout, **_screen_options(args))
    return _run_session(session)


def _screen_options(args: argparse.Namespace) -> dict[str, object]:
    return {"lang": args.lang, "colour": terminal.use_colour(sys.stdout), "width": shutil.get_terminal_size().columns}


def _run_session(session: terminal.PlaySession) -> int:
    try:
        return session.run()
    except KeyboardInterrupt:
        print()
        return EXIT_INTERRUPTED


def add_replay(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "replay",
        help="play a saved game record back",
        description=wrapped(
            "Play a game record (written by 'stargazer play' or 'play-random --record') back. "
            "Without --step: the setup, the event log, the last screen and the score sheet. "
            "With --step: the screen after every move, waiting for Enter (q stops). The "
            "record's ruleset is loaded by the name it carries when it is bundled; otherwise "
            "give its folder with --rules."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the game record (JSON)")
    parser.add_argument(
        "--step", action="store_true", help="show every move's screen, waiting for Enter between moves"
    )
    parser.add_argument(
        "--rules",
        dest="ruleset",
        default=None,
        metavar="DIR",
        help="the ruleset folder (or bundled name) the record was made with (default: the one it names)",
    )
    parser.add_argument(
        "--unfinished",
        action="store_true",
        help="replay a record whose last moves are missing as the unfinished game it lists (it is refused without)",
    )
    add_lang(parser)
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """Play a record back (exit 0), or a one-line error (exit 1)."""
    try:
        game, record = terminal.load_record(
            args.file, args.ruleset, unfinished=args.unfinished, notes=Prefixed("replay", sys.stderr)
        )
        return terminal.replay_game(
            game,
            record,
            sys.stdout,
            sys.stdin,
            lang=args.lang,
            step=args.step,
            colour=terminal.use_colour(sys.stdout),
            width=shutil.get_terminal_size().columns,
        )
    except (ReplayError, RecordError) as error:
        say_error("replay", terminal.one_line(error))
        return EXIT_INVALID
    except KeyboardInterrupt:
        print()
        return EXIT_INTERRUPTED
