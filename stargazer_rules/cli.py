"""The ``stargazer`` command line: one sub-command per job, each a pair of functions.

``_add_NAME(commands)`` declares a sub-command's arguments and help; ``run_NAME(args)`` does the
work and returns the exit status. ``main`` only parses and dispatches, so adding a command is
adding one such pair and one line in ``build_parser``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence

from stargazer_rules import records, reports
from stargazer_rules.engine import Game
from stargazer_rules.errors import RulesetError, SetupError
from stargazer_rules.loader import load_ruleset
from stargazer_rules.resources import DEFAULT_RULESET, bundled_ruleset_names
from stargazer_rules.ruleset import Ruleset
from stargazer_rules.text import LANGS, label

#: Exit status of a command whose input is wrong (an invalid ruleset); argparse uses 2.
EXIT_INVALID = 1
#: Exit status of a usage error: argparse's, and a player count the ruleset does not support.
EXIT_USAGE = 2
#: The language of the reports when ``--lang`` is not given.
DEFAULT_LANG = "en"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stargazer`` command with ``argv`` (default: the process arguments)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader stopped early (``stargazer play-random | head``): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


class _CommandListFormatter(argparse.HelpFormatter):
    """Help in a column just after the shorter command names; a longer one (``play-random``)
    gets its own line, so the list keeps its place however long a new command's name is."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=14)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stargazer",
        description="The rules of the board game Stargazer as validated data.",
        formatter_class=_CommandListFormatter,
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _add_validate(commands)
    _add_rules(commands)
    _add_play_random(commands)
    return parser


def _add_validate(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "validate",
        help="check a ruleset folder and report every problem",
        description=(
            "Check a ruleset folder (rules.yaml, planets.yaml, crew.yaml) against the schemas "
            "and the cross-file rules. Prints every problem as file:line:column: path: message "
            "and exits 1, or prints a one-line summary and exits 0."
        ),
    )
    parser.add_argument(
        "ruleset",
        nargs="?",
        default=None,
        metavar="DIR",
        help=f"a ruleset folder, or a bundled ruleset name ({names}); default {DEFAULT_RULESET}",
    )
    parser.set_defaults(run=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    """Print every problem of the ruleset (exit 1), or a summary of a valid one (exit 0)."""
    shown = args.ruleset if args.ruleset is not None else DEFAULT_RULESET
    try:
        ruleset = load_ruleset(args.ruleset)
    except RulesetError as error:
        for problem in error.problems:
            print(problem)
        count = len(error.problems)
        print(f"{shown}: {count} problem{'s' if count != 1 else ''}", file=sys.stderr)
        return EXIT_INVALID
    print(f"{shown}: valid — {summary(ruleset)}")
    return 0


def _add_rules(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rules",
        help="print a ruleset as readable tables, skills as sentences",
        description=(
            "Print a ruleset as tables: its title and fingerprint, the rule counts, the setup "
            "per player count, the colours, every planet with its track and every crew with "
            "its skill as sentences. Placeholder values (R20) are marked with *."
        ),
    )
    _add_ruleset_argument(parser, positional=True)
    _add_lang(parser)
    parser.set_defaults(run=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    """Print the ruleset's tables (exit 0), or a one-line error (exit 1)."""
    ruleset = _load_or_report(args.ruleset, "rules")
    if ruleset is None:
        return EXIT_INVALID
    print(reports.ruleset_report(ruleset, args.lang))
    return 0


def _add_play_random(commands: argparse._SubParsersAction) -> None:
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
        type=int,
        default=0,
        metavar="S",
        help="the seed of the deal and of the random moves (default 0): the same seed plays the same game",
    )
    _add_ruleset_argument(parser, positional=False)
    _add_lang(parser)
    parser.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="also write the game record (JSON, replayable with stargazer_rules.records) to FILE",
    )
    parser.set_defaults(run=run_play_random)


def run_play_random(args: argparse.Namespace) -> int:
    """Play and print one random game (exit 0); a one-line error for bad input (exit 1 or 2)."""
    ruleset = _load_or_report(args.ruleset, "play-random")
    if ruleset is None:
        return EXIT_INVALID
    game = Game(ruleset)
    try:
        setup = game.deal(args.players, seed=args.seed)
    except SetupError as error:
        _error("play-random", str(error))
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
            with open(args.record, "w", encoding="utf-8") as file:
                file.write(text + "\n")
        except OSError as error:
            _error("play-random", f"cannot write the record: {error}")
            return EXIT_INVALID
        print(label("record_written", lang, path=args.record))
    return 0


def _add_ruleset_argument(parser: argparse.ArgumentParser, positional: bool) -> None:
    names = ", ".join(bundled_ruleset_names())
    help_text = f"a ruleset folder, or a bundled ruleset name ({names}); default {DEFAULT_RULESET}"
    if positional:
        parser.add_argument("ruleset", nargs="?", default=None, metavar="DIR", help=help_text)
    else:
        parser.add_argument("--rules", dest="ruleset", default=None, metavar="DIR", help=help_text)


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=DEFAULT_LANG,
        help=f"the language of the output: ja (Japanese) or en (English); default {DEFAULT_LANG}",
    )


def _load_or_report(path: str | None, command: str) -> Ruleset | None:
    """The ruleset, or None after printing a one-line error (the first problem and how many)."""
    try:
        return load_ruleset(path)
    except RulesetError as error:
        shown = path if path is not None else DEFAULT_RULESET
        first = error.problems[0]
        count = len(error.problems)
        if count == 1:
            _error(command, str(first))
        else:
            _error(
                command,
                f"{shown}: {count} problems in the ruleset, the first: {first}; "
                f"'stargazer validate {shown}' lists them all",
            )
        return None


def _error(command: str, message: str) -> None:
    print(f"stargazer {command}: {message}", file=sys.stderr)


def summary(ruleset: Ruleset) -> str:
    """``14 planets, 12 crew, 3-4 players, fingerprint 1a2b3c4d5e6f``."""
    return (
        f"{len(ruleset.planets)} planets, {len(ruleset.crew)} crew, "
        f"{_player_ranges(ruleset.player_counts)} players, "
        f"fingerprint {ruleset.fingerprint[:12]}"
    )


def _player_ranges(counts: Sequence[int]) -> str:
    """Sorted counts as ranges: (3, 4) -> ``3-4``; (2, 4, 5) -> ``2, 4-5``."""
    ranges: list[list[int]] = []
    for count in counts:
        if ranges and count == ranges[-1][-1] + 1:
            ranges[-1].append(count)
        else:
            ranges.append([count])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in ranges)
