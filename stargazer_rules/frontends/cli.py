"""The ``stargazer`` command line: one sub-command per job, each a pair of functions.

``_add_NAME(commands)`` declares a sub-command's arguments and help; ``run_NAME(args)`` does the
work and returns the exit status. ``main`` only parses and dispatches, so adding a command is
adding one such pair and one line in ``build_parser``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import attrs

from stargazer_rules import simulation
from stargazer_rules.analysis.bounds import Bounds
from stargazer_rules.bots import MAX_ITERATIONS, bot_names
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import (
    BotSpecError,
    DraftError,
    RecordError,
    ReplayError,
    RulesetError,
    SeatsError,
    SetupError,
    SimulationError,
)
from stargazer_rules.formats import records
from stargazer_rules.formats.game_lines import read_games_file
from stargazer_rules.formats.signing import SECRET_ENV, StateSigner, chosen_secret
from stargazer_rules.frontends import terminal
from stargazer_rules.kernel import native
from stargazer_rules.printing.layout import PAPERS
from stargazer_rules.printing.words import PRINT_LANGS
from stargazer_rules.rulesets import drafts
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import DEFAULT_RULESET, bundled_ruleset_names
from stargazer_rules.simulation import cache, locks, runs
from stargazer_rules.text import reports
from stargazer_rules.text.messages import LANGS, label

#: Exit status of a command whose input is wrong (an invalid ruleset); argparse uses 2.
EXIT_INVALID = 1
#: Exit status of a usage error: argparse's, and a player count the ruleset does not support.
EXIT_USAGE = 2
#: Exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
EXIT_INTERRUPTED = 130
#: The language of the reports when ``--lang`` is not given.
DEFAULT_LANG = "en"
#: ``simulate`` and ``compare`` defaults: equal competent bots in every seat, and enough
#: 4-player games for each seat's win rate within about ±2 points (95%), which two cores play
#: in about a minute (docs/simulation.md, "Defaults").
DEFAULT_SIM_PLAYERS = 4
DEFAULT_SIM_GAMES = 1800
#: The default lineup of simulate and compare: the strongest bots that keep the default run
#: (1,800 four-player draft-7 games) near a minute on two cores (docs/simulation.md, "Defaults").
DEFAULT_SIM_BOTS = "mcts:200"
#: ``serve`` listens on loopback unless told otherwise.
DEFAULT_SERVE_HOST = "127.0.0.1"
DEFAULT_SERVE_PORT = 8000
#: ``serve --workers``: more processes than this is a mistake on any machine this serves.
MAX_SERVE_WORKERS = 64
#: ``serve``'s bounds on one request's work (stargazer_rules.frontends.server.service, without importing
#: Starlette before it is needed).
DEFAULT_MAX_BOT_ITERATIONS = 1000
DEFAULT_TIME_LIMIT = 10.0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stargazer`` command with ``argv`` (default: the process arguments)."""
    command = ""
    try:
        args = build_parser().parse_args(argv)
        command = f" {args.command}"
        return args.run(args)
    except BrokenPipeError:
        # The reader stopped early (``stargazer play-random | head``): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        # Ctrl-C wherever it comes (loading, planning, writing): one line and the shell's
        # status for SIGINT; the commands that can say more (simulate's --resume) do so first.
        print(f"stargazer{command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


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
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True, dest="command")
    _add_validate(commands)
    _add_rules(commands)
    _add_new_draft(commands)
    _add_play_random(commands)
    _add_simulate(commands)
    _add_compare(commands)
    _add_diff(commands)
    _add_report(commands)
    _add_play(commands)
    _add_replay(commands)
    _add_serve(commands)
    _add_print(commands)
    _add_cache(commands)
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
        _print_problems(error, shown)
        return EXIT_INVALID
    print(f"{shown}: valid — {summary(ruleset)}")
    borrowed = drafts.borrowed_title(ruleset)
    for warning in ruleset_warnings(ruleset) + ([borrowed] if borrowed else []):
        print(f"warning: {warning}")
    return 0


def _print_problems(error: RulesetError, shown: str) -> None:
    """Every problem on stdout, file:line:column first, and their count on stderr."""
    for problem in error.problems:
        print(problem)
    count = len(error.problems)
    print(f"{shown}: {count} problem{'s' if count != 1 else ''}", file=sys.stderr)


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


def _add_new_draft(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "new-draft",
        help="copy a ruleset's YAML and schemas to a new folder to edit (the next draft)",
        description=_wrapped(
            "Copy the three YAML files of a ruleset (a bundled one, or a folder) to the new "
            "folder DEST, set the ruleset's name, and put the JSON Schemas in DEST/schemas with "
            "each file's schema line pointing at them, so an editor with the YAML language "
            "server completes and checks the files wherever DEST is. Comments are kept. The "
            "copy is checked before it takes DEST's place; nothing is overwritten."
        ),
    )
    parser.add_argument("dest", metavar="DEST", help="the new folder (must not exist, or be empty)")
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        metavar="DIR",
        help=f"the ruleset to start from: a folder or a bundled name ({names}); default {DEFAULT_RULESET}",
    )
    parser.add_argument(
        "--name",
        default=None,
        help=(
            "the new ruleset's name in rules.yaml (default: DEST's folder name); the title in both "
            "languages follows it (draft8: 'Stargazer draft 8', 'スターゲイザー 草案８')"
        ),
    )
    parser.set_defaults(run=run_new_draft)


def run_new_draft(args: argparse.Namespace) -> int:
    """Make the copy and say what to do next; one-line errors."""
    command = "new-draft"
    source = args.source if args.source is not None else DEFAULT_RULESET
    try:
        ruleset = drafts.new_draft(args.dest, source, args.name)
    except RulesetError as error:
        _report_ruleset_error(error, source, command)
        return EXIT_INVALID
    except (DraftError, OSError) as error:
        _error(command, str(error))
        return EXIT_INVALID
    _report_warnings(ruleset, command)
    dest = args.dest
    print(f"{dest}: {ruleset.name}, copied from {source} — {summary(ruleset)}")
    print(
        f"title: {ruleset.title.en} / {ruleset.title.ja}\n"
        f"next: edit {os.path.join(dest, 'rules.yaml')}, planets.yaml and crew.yaml; "
        f"'stargazer validate {dest}'; 'stargazer compare {source} {dest}'"
    )
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
        help="also write the game record (JSON, replayable with stargazer_rules.formats.records) to FILE",
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


def _add_simulate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many games with bots and report seat, crew and planet balance",
        description=_wrapped(
            "Play many games with bots on every core, stream them to OUT/games.jsonl, then "
            "write OUT/summary.json and OUT/report.html and print the summary. Games come in "
            "blocks of one game per seat rotation on the same deal, so every bot sits in every "
            "seat equally often. The same options give the same games on any number of workers."
        ),
        epilog=_LINEUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_ruleset_argument(parser, positional=False)
    _add_simulation_options(parser, default_out="simulation-RULES-Np")
    parser.set_defaults(run=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Run the simulation and print the analysis's summary; a one-line error for bad input."""
    command = "simulate"
    ruleset = _load_or_report(args.ruleset, command)
    if ruleset is None:
        return EXIT_INVALID
    lineup = _lineup_or_report([ruleset], args, command)
    if lineup is None:
        return EXIT_USAGE
    out = args.out or f"simulation-{ruleset.name}-{args.players}p"
    if _out_is_a_file(out, command):
        return EXIT_USAGE
    try:
        with locks.holding(out, command):  # the report too is this run's
            outcome = _simulate_or_report(ruleset, out, lineup, args, command, label=None)
            if isinstance(outcome, int):
                return outcome
            _write_and_print_report(outcome.games, ruleset, out, args.bounds)
    except OSError as error:
        _error(command, str(error))
        return EXIT_INVALID
    return 0


def _write_and_print_report(games: Sequence[dict], ruleset: Ruleset | None, out: str, bounds: Bounds) -> None:
    from stargazer_rules import analysis

    summary = analysis.summarize(games, ruleset=ruleset, bounds=bounds)
    analysis.write_report(summary, Path(out))
    print(analysis.terminal_summary(summary))
    print(f"\nwritten: {os.path.join(out, 'summary.json')}, {os.path.join(out, 'report.html')}")


def _add_compare(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "compare",
        help="simulate two rulesets with the same deals and bots and compare them",
        description=_wrapped(
            "Simulate ruleset A and ruleset B with the same seeds and lineup (as "
            "'stargazer simulate' does, into OUT/<A's name> and OUT/<B's name>), then compare "
            "the two summaries: the comparison files are written to OUT and its table printed."
        ),
        epilog=_LINEUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar="A", help=f"the first ruleset: a folder or a bundled name ({names})")
    parser.add_argument("b", metavar="B", help="the second ruleset, the one compared with A")
    _add_simulation_options(parser, default_out="comparison-A-B-Np")
    parser.add_argument(
        "--until-decided",
        action="store_true",
        help=(
            "play in batches of --games per ruleset and stop as soon as the verdict is decided, "
            "spending the error rate over the looks (O'Brien-Fleming alpha spending); prints each look"
        ),
    )
    parser.add_argument(
        "--max-games",
        type=_game_count,
        default=None,
        metavar="N",
        help=(
            "with --until-decided, the most games per ruleset (default 4 x --games, at most "
            f"{simulation.runner.MAX_GAMES:,})"
        ),
    )
    parser.set_defaults(run=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    """Simulate both rulesets, then print the analysis's comparison; one-line errors."""
    command = "compare"
    first = _load_or_report(args.a, command)
    second = _load_or_report(args.b, command) if first is not None else None
    if first is None or second is None:
        return EXIT_INVALID
    lineup = _lineup_or_report([first, second], args, command)
    if lineup is None:
        return EXIT_USAGE
    out = args.out or f"comparison-{first.name}-{second.name}-{args.players}p"
    names = (first.name, second.name)
    if names[0] == names[1]:
        names = (f"{names[0]}-a", f"{names[1]}-b")
    folders = [os.path.join(out, name) for name in names]
    looks: list[dict] = []
    max_games = args.max_games or min(4 * args.games, simulation.runner.MAX_GAMES)
    if _out_is_a_file(out, command):
        return EXIT_USAGE
    try:
        with contextlib.ExitStack() as held:
            held.enter_context(locks.holding(out, command))
            for folder in folders:
                held.enter_context(locks.holding(folder, command))
            batches = _batches(args.games, max_games, args.players) if args.until_decided else [args.games]
            pair: list[tuple[dict, ...]] = []
            for games in batches:
                pair = []
                for ruleset, folder, name in zip((first, second), folders, names, strict=True):
                    outcome = _simulate_or_report(ruleset, folder, lineup, args, command, label=name, games=games)
                    if isinstance(outcome, int):
                        return outcome
                    pair.append(outcome.games)
                if args.until_decided and _look_and_stop(pair, looks, max_games, args):
                    break
            comparison = _compare_and_write(pair, (first, second), folders, names, args)
    except OSError as error:
        _error(command, str(error))
        return EXIT_INVALID
    if looks:
        from stargazer_rules.analysis import sequential

        sequential.apply_looks(comparison, looks, looks[-1]["max_games"])
    from stargazer_rules import analysis

    analysis.write_comparison(comparison, Path(out))
    print(analysis.terminal_comparison(comparison))
    print(
        f"\nwritten: {os.path.join(out, 'comparison.json')}, {os.path.join(out, 'comparison.html')}; "
        f"each ruleset's report in {folders[0]} and {folders[1]}"
    )
    return 0


def _compare_and_write(
    pair: Sequence[Sequence[dict]], rulesets: Sequence[Ruleset], folders: Sequence[str], names: Sequence[str],
    args: argparse.Namespace,
) -> dict:
    """Each run's report written in its folder, and the comparison of the two."""
    from stargazer_rules import analysis

    for games, ruleset, folder in zip(pair, rulesets, folders, strict=True):
        analysis.write_report(analysis.summarize(games, ruleset=ruleset, bounds=args.bounds), Path(folder))
    return analysis.compare_summaries(
        pair[0], pair[1], label_a=names[0], label_b=names[1], bounds=args.bounds,
        ruleset_a=rulesets[0], ruleset_b=rulesets[1],
    )


def _batches(games: int, max_games: int, players: int) -> list[int]:
    """The games per ruleset at each look of --until-decided: games, 2 x games, ... up to max."""
    step = -(-games // players) * players
    most = -(-max_games // players) * players
    return [min(step * k, most) for k in range(1, -(-most // step) + 1)]


def _look_and_stop(pair: Sequence[Sequence[dict]], looks: list[dict], max_games: int, args: argparse.Namespace) -> bool:
    """One look of --until-decided (printed on stderr); True when the verdict is decided."""
    from stargazer_rules.analysis import sequential

    rows_a, rows_b = sequential.paired_rows(pair[0], pair[1])
    most = -(-max_games // args.players) * args.players
    result = sequential.look(
        rows_a, rows_b, max_games=most, previous_games=looks[-1]["games"] if looks else 0,
        confidence=args.bounds.confidence, margin=args.bounds.equivalence_margin,
    )
    result["max_games"] = most
    looks.append(result)
    print(sequential.look_text(len(looks), result), file=sys.stderr)
    return result["decision"] != "continue"


def _add_diff(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "diff",
        help="list what differs between two rulesets, card by card and knob by knob",
        description=(
            "Compare ruleset A with ruleset B without playing: every knob, setup, colour, "
            "planet and crew card added, removed or changed (old -> new)."
        ),
    )
    parser.add_argument("a", metavar="A", help=f"the first ruleset: a folder or a bundled name ({names})")
    parser.add_argument("b", metavar="B", help="the second ruleset")
    parser.add_argument("--json", action="store_true", help="print the changes as a JSON list")
    parser.set_defaults(run=run_diff)



def run_diff(args: argparse.Namespace) -> int:
    """Print the rules diff of A and B; one-line errors for a ruleset that does not load."""
    from stargazer_rules.rulesets.diff import diff_rulesets, format_changes

    first = _load_or_report(args.a, "diff")
    second = _load_or_report(args.b, "diff") if first is not None else None
    if first is None or second is None:
        return EXIT_INVALID
    changes = diff_rulesets(first, second)
    if args.json:
        print(json.dumps([change.to_json() for change in changes], ensure_ascii=False, indent=2))
    else:
        print(f"A = {first.name} ({first.fingerprint[:12]}), B = {second.name} ({second.fingerprint[:12]})")
        print("\n".join(format_changes(changes)))
    return 0


def _add_report(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "report",
        help="rebuild a simulation's summary and report from its games.jsonl",
        description=_wrapped(
            "Read DIR/games.jsonl (a finished run, or the games an interrupted one kept) and "
            "write DIR/summary.json and DIR/report.html again, then print the summary. Use it "
            "to read an interrupted run without finishing it, or to apply other --bound values "
            "without playing the games again."
        ),
    )
    parser.add_argument("folder", metavar="DIR", help="the folder of a simulate run (holds games.jsonl)")
    parser.add_argument(
        "--rules",
        dest="ruleset",
        default=None,
        metavar="DIR",
        help=(
            "the ruleset the games were played with, for the cards' names and tracks (default: "
            "the bundled ruleset the games name, if it is the same); give it for a ruleset folder"
        ),
    )
    _add_bound_option(parser)
    parser.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Summarise an existing games.jsonl; one-line errors for a missing or foreign file."""
    command = "report"
    path = os.path.join(args.folder, simulation.GAMES_FILE)
    ruleset = None
    if args.ruleset is not None:
        ruleset = _load_or_report(args.ruleset, command)
        if ruleset is None:
            return EXIT_INVALID
    try:
        read = read_games_file(path)
    except FileNotFoundError:
        runs_here = sorted(str(found.parent) for found in Path(args.folder).glob(f"*/{simulation.GAMES_FILE}"))
        hint = (
            f"; it holds the runs of a comparison: give one of {', '.join(runs_here)}"
            if runs_here
            else "; give the folder a 'stargazer simulate' run wrote to"
        )
        _error(command, f"{path}: no such file{hint}")
        return EXIT_INVALID
    except OSError as error:
        _error(command, str(error))
        return EXIT_INVALID
    for problem in read.problems():
        _error(command, f"warning: {problem}; not counted")
    if read.refused:
        _error(command, f"warning: {path}: {len(read.refused)} lines not counted: the report is of the other {len(read.games):,} games")
    if read.unchecked:
        _error(command, f"warning: {path}: {read.unchecked} lines of format 1 carry no digest and could not be checked")
    games = list(read.games)
    if not games:
        _error(command, f"{path}: no finished game yet")
        return EXIT_INVALID
    played_with = games[0]["ruleset"]
    if ruleset is not None and ruleset.fingerprint != played_with["fingerprint"]:
        _error(
            command,
            f"{path}: the games were played with {played_with['name']} (fingerprint "
            f"{played_with['fingerprint'][:12]}), not with {args.ruleset} ({ruleset.fingerprint[:12]})",
        )
        return EXIT_INVALID
    try:
        _write_and_print_report(games, ruleset, args.folder, args.bounds)
    except ValueError as error:
        _error(command, f"{path}: {error}")
        return EXIT_INVALID
    return 0


def _add_play(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal, against bots or hot seat",
        description=_wrapped(
            "Play one game in the terminal. Each seat is a person ('you' or 'human'; several "
            "people share the keyboard, hot seat) or a bot. After every move of the bots the "
            "screen shows the ring, the crew area, the players' cubes and provisional scores "
            "and what happened; choose by number, or type u (undo), s (save the game record), "
            "h (help), q (quit). See docs/play.md."
        ),
        epilog=f"bots: {', '.join(bot_names())}",
    )
    _add_ruleset_argument(parser, positional=False)
    parser.add_argument(
        "--players",
        type=_positive_int,
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
        type=int,
        default=None,
        metavar="S",
        help="the seed of the deal and of the bots (default: a random one, shown at the start)",
    )
    _add_lang(parser)
    parser.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Play one game at the terminal (exit 0); a one-line error for bad options (exit 1 or 2)."""
    command = "play"
    ruleset = _load_or_report(args.ruleset, command)
    if ruleset is None:
        return EXIT_INVALID
    _report_engine(ruleset, command)
    try:
        listed = terminal.parse_seats(args.seats or "you,greedy")
        players = args.players or (len(listed) if args.seats else min(ruleset.player_counts))
        seats = terminal.parse_seats(args.seats or "you,greedy", players)
    except (BotSpecError, SeatsError) as error:
        _error(command, str(error))
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    game = Game(ruleset)
    try:
        session = terminal.PlaySession(
            game,
            seats,
            seed,
            sys.stdin,
            sys.stdout,
            lang=args.lang,
            colour=terminal.use_colour(sys.stdout),
            width=shutil.get_terminal_size().columns,
        )
    except SetupError as error:
        _error(command, str(error))
        return EXIT_USAGE
    try:
        return session.run()
    except KeyboardInterrupt:
        print()
        return EXIT_INTERRUPTED


def _add_replay(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "replay",
        help="play a saved game record back",
        description=_wrapped(
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
    _add_lang(parser)
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """Play a record back (exit 0), or a one-line error (exit 1)."""
    try:
        game, record = terminal.load_record(
            args.file, args.ruleset, unfinished=args.unfinished, notes=_Prefixed("replay", sys.stderr)
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
        _error("replay", terminal.one_line(error))
        return EXIT_INVALID
    except KeyboardInterrupt:
        print()
        return EXIT_INTERRUPTED


def _add_serve(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve the JSON API and a page to play in the browser",
        description=(
            "Serve the rules as a stateless JSON API (docs/embedding.md) and a page to play "
            "them against bots, on http://HOST:PORT/. Listens on loopback unless told "
            "otherwise. Needs pip install 'stargazer-rules[serve]'."
        ),
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_SERVE_HOST,
        help=f"the address to listen on (default {DEFAULT_SERVE_HOST}, this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_SERVE_PORT,
        help=f"the port to listen on (default {DEFAULT_SERVE_PORT})",
    )
    parser.add_argument(
        "--secret",
        default=None,
        help=(
            f"the key that signs the states the server answers (default ${SECRET_ENV}, else a "
            "random key for this process); give every process of one site the same"
        ),
    )
    parser.add_argument(
        "--max-bot-iterations",
        type=int,
        default=DEFAULT_MAX_BOT_ITERATIONS,
        metavar="N",
        help=f"the most search iterations a bot may spend on one request (default {DEFAULT_MAX_BOT_ITERATIONS})",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"the most a request may compute before it is answered 503 (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=(
            "server processes sharing the port (default 1); the API is stateless and they share "
            "one secret, so any of them answers any request: one per core"
        ),
    )
    _add_ruleset_argument(parser, positional=False)
    parser.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve the API and the page until interrupted; a one-line error without the extra."""
    if not 0 <= args.port <= 65535:
        _error("serve", f"--port {args.port} is not a port: give one of 1 to 65535 (0: any free port)")
        return EXIT_USAGE
    if not 1 <= args.max_bot_iterations <= MAX_ITERATIONS:
        _error(
            "serve",
            f"--max-bot-iterations {args.max_bot_iterations} is outside 1 to {MAX_ITERATIONS:,} "
            f"(default {DEFAULT_MAX_BOT_ITERATIONS}: at most about a second of mcts a request)",
        )
        return EXIT_USAGE
    if not 0 < args.time_limit <= 3600:
        _error("serve", f"--time-limit {args.time_limit:g} is outside 0 to 3600 seconds (default {DEFAULT_TIME_LIMIT:g})")
        return EXIT_USAGE
    if args.secret == "":
        _error("serve", "--secret is empty: give a secret, or leave the option out for a random one")
        return EXIT_USAGE
    if not 1 <= args.workers <= MAX_SERVE_WORKERS:
        _error(
            "serve",
            f"--workers {args.workers} is outside 1 to {MAX_SERVE_WORKERS} "
            f"(one process per core: this machine has {os.cpu_count() or 1})",
        )
        return EXIT_USAGE
    ruleset = _load_or_report(args.ruleset, "serve")
    if ruleset is None:
        return EXIT_INVALID
    _report_engine(ruleset, "serve")
    try:
        import uvicorn

        from stargazer_rules.frontends.server import create_app
    except ImportError as error:
        _error("serve", f"{error}; install the server with pip install 'stargazer-rules[serve]'")
        return EXIT_INVALID
    # One secret for every process: given, from the environment, or drawn here.
    secret = chosen_secret(args.secret)
    signer = StateSigner(secret)
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    print(f"stargazer serve: {ruleset.name} on http://{args.host}:{args.port}/{processes}", file=sys.stderr)
    if args.workers == 1:
        app = create_app(ruleset, signer=signer, max_bot_iterations=args.max_bot_iterations, time_limit=args.time_limit)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        return 0
    # The worker processes load the ruleset again from what this one found valid, and sign
    # with this one's secret (drawn here when none was given), through their environment.
    from stargazer_rules.frontends.server.app import WORKER_CONFIG_ENV

    os.environ[SECRET_ENV] = secret
    os.environ[WORKER_CONFIG_ENV] = json.dumps(
        {"ruleset": args.ruleset, "max_bot_iterations": args.max_bot_iterations, "time_limit": args.time_limit}
    )
    uvicorn.run(
        "stargazer_rules.frontends.server.app:app_from_environment",
        factory=True,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level="warning",
    )
    return 0


def _add_cache(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "cache",
        help="list or clear the finished runs that simulate and compare reuse",
        description=_wrapped(
            "simulate and compare keep every finished run in a cache folder and reuse it when the "
            "same ruleset, players, lineup, seed, engine and library are asked for again. The "
            f"folder is --cache DIR, else ${cache.CACHE_VARIABLE}, else the user's cache folder "
            f"({cache.cache_folder(None) if not os.environ.get(cache.CACHE_VARIABLE) else 'as set'}); "
            f"its size is bounded by ${cache.SIZE_VARIABLE} (default "
            f"{cache.DEFAULT_BOUND / 1e9:g} GB), the runs used least recently leaving first."
        ),
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the runs in the cache, the most recently used first")
    listing.add_argument("--cache", default=None, metavar="DIR", help="the cache folder (default: as above)")
    listing.set_defaults(run=run_cache_list)
    clearing = actions.add_parser("clear", help="remove runs from the cache (all of them, or those named)")
    clearing.add_argument("keys", nargs="*", metavar="KEY", help="the first digits of the runs' keys, as 'list' shows them")
    clearing.add_argument("--cache", default=None, metavar="DIR", help="the cache folder (default: as above)")
    clearing.set_defaults(run=run_cache_clear)


def run_cache_list(args: argparse.Namespace) -> int:
    """Print the cache folder, its runs and its size against the bound."""
    folder = cache.cache_folder(args.cache)
    try:
        bound = cache.cache_bound()
    except ValueError as error:
        _error("cache", str(error))
        return EXIT_USAGE
    found = cache.entries(folder)
    total = sum(entry.size for entry in found)
    print(f"{folder}: {len(found)} run{'s' if len(found) != 1 else ''}, {total / 1e6:.1f} MB of {bound / 1e6:,.0f} MB")
    for entry in found:
        print(f"  {entry.describe()}")
    return 0


def run_cache_clear(args: argparse.Namespace) -> int:
    """Remove the runs named (or all); one line per run another process is writing."""
    folder = cache.cache_folder(args.cache)
    known = cache.entries(folder)
    unknown = [key for key in args.keys if not any(entry.key.startswith(key) for entry in known)]
    if unknown:
        _error("cache", f"no run in {folder} has a key starting with {', '.join(unknown)}: 'stargazer cache list' shows them")
        return EXIT_USAGE
    removed, busy = cache.clear(folder, args.keys)
    for entry in busy:
        _error("cache", f"left {entry.key[:12]}: another process is writing it")
    freed = sum(entry.size for entry in removed)
    print(f"{folder}: removed {len(removed)} run{'s' if len(removed) != 1 else ''} ({freed / 1e6:.1f} MB)")
    return EXIT_INVALID if busy else 0


def _add_print(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "print",
        help="a printable prototype (PDF), card images and a Tabletop Simulator deck",
        description=_wrapped(
            "Print and play: every planet, crew and player-aid card of the ruleset, poker size "
            "with crop marks and a bleed, backs on alternate pages for duplex printing, and "
            "the rules sheet, as one PDF; with --images one PNG per card face and back, with "
            "--tts a Tabletop Simulator saved object of those images. An invalid ruleset "
            "prints its problems as 'stargazer validate' does and writes nothing. See "
            "docs/print.md."
        ),
    )
    _add_ruleset_argument(parser, positional=True)
    parser.add_argument(
        "--lang", choices=PRINT_LANGS, default=DEFAULT_LANG,
        help=f"the language of the cards: ja, en, or both on one card; default {DEFAULT_LANG}",
    )
    parser.add_argument(
        "--paper", choices=tuple(PAPERS), default="a4", help="the paper size (default a4)"
    )
    parser.add_argument(
        "--out", default=None, metavar="FILE.pdf",
        help="the PDF to write (default stargazer-RULES-LANG.pdf in the current folder)",
    )
    parser.add_argument(
        "--images", default=None, metavar="DIR", help="also write one PNG per card face and back to DIR"
    )
    parser.add_argument(
        "--tts", default=None, metavar="FILE.json",
        help="also write a Tabletop Simulator saved object referencing the images (needs --images)",
    )
    parser.add_argument(
        "--image-url", default=None, metavar="URL",
        help="the web folder the images will be uploaded to, for --tts (default: local file URLs)",
    )
    parser.set_defaults(run=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the PDF (and images, the Tabletop Simulator object); exit 1 for an invalid
    ruleset (its problems printed as by validate, nothing written), 2 for bad options."""
    from stargazer_rules import printing

    command = "print"
    if args.tts is not None and args.images is None:
        _error(command, "--tts needs --images DIR: the saved object references the card images")
        return EXIT_USAGE
    shown = args.ruleset if args.ruleset is not None else DEFAULT_RULESET
    try:
        ruleset = load_ruleset(args.ruleset)
    except RulesetError as error:
        _print_problems(error, shown)
        return EXIT_INVALID
    _report_warnings(ruleset, command)
    out = args.out or f"stargazer-{ruleset.name}-{args.lang}.pdf"
    try:
        written = printing.write_pdf(ruleset, out, lang=args.lang, paper=args.paper)
        print(
            f"{written.path}: {written.pages} pages, {written.cards} cards "
            f"({written.per_page} a sheet, faces and backs on {written.card_pages} pages), "
            f"rules sheet on {written.sheet_pages} — {summary(ruleset)}"
        )
        if args.images is not None:
            images = printing.write_images(ruleset, args.images, lang=args.lang)
            print(f"{args.images}: {len(images.paths)} images")
            if args.tts is not None:
                path = printing.write_tts(ruleset, args.tts, images, lang=args.lang, base_url=args.image_url)
                print(f"{path}: Tabletop Simulator saved object")
    except OSError as error:
        _error(command, str(error))
        return EXIT_INVALID
    return 0


#: The lineup syntax, shown under the options of simulate and compare.
_LINEUP_HELP = f"""\
lineup:
  --bots takes bot specs separated by '{simulation.LINEUP_SEPARATOR}', one per seat of the lineup; the last
  bot fills the seats left over, so one spec plays every seat:
    --bots mcts:200                MCTS with 200 iterations in every seat (the default)
    --bots greedy                  the greedy bot in every seat: faster, weaker
    --bots mcts:400/greedy         one MCTS bot with 400 iterations against three greedy
    --bots mcts:iterations=400,c=1.4/random/greedy
  The lineup rotates through the seats: every bot plays every seat equally often.
  Bots: {{bots}}.
"""


def _wrapped(text: str) -> str:
    """A description for a parser whose epilog keeps its own line breaks."""
    return textwrap.fill(text, width=78)


def _add_simulation_options(parser: argparse.ArgumentParser, default_out: str) -> None:
    parser.epilog = (parser.epilog or "").format(bots=", ".join(bot_names()))
    parser.add_argument(
        "--players",
        type=_positive_int,
        default=DEFAULT_SIM_PLAYERS,
        metavar="N",
        help=f"the number of players (default {DEFAULT_SIM_PLAYERS})",
    )
    parser.add_argument(
        "--games",
        type=_game_count,
        default=DEFAULT_SIM_GAMES,
        metavar="N",
        help=(
            f"how many games (default {DEFAULT_SIM_GAMES}: seat win rates within about ±2 "
            f"points with 95%% confidence, at most {simulation.runner.MAX_GAMES:,}); rounded up "
            "to a whole number of rotations"
        ),
    )
    parser.add_argument(
        "--bots",
        action="append",
        default=None,
        metavar="LINEUP",
        help=f"the bots, '{simulation.LINEUP_SEPARATOR}'-separated (see below); default {DEFAULT_SIM_BOTS}",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="the first deal seed (default 0); block b of games is dealt from S + b",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=_worker_count,
        default=None,
        metavar="W",
        help=f"worker processes (default: one per core; at most {simulation.runner.MAX_WORKERS}); 1 plays in this process",
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help=(
            "play on a Dask cluster through its scheduler (tcp://HOST:PORT) instead of local "
            "processes; needs pip install 'stargazer-rules[dask]'"
        ),
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help=f"the output folder (default {default_out} in the current folder)",
    )
    parser.add_argument(
        "--engine",
        choices=native.ENGINES,
        default=native.DEFAULT_ENGINE,
        help=(
            "where the bots search: 'native' (the Rust kernel, default; a ruleset it cannot "
            "compile runs on Python, with a warning) or 'python' (to check one against the other)"
        ),
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help=(
            "finish the run in OUT: play only the games OUT/games.jsonl lacks, and refuse a folder "
            "holding another run's games (without it such a folder is given to this run, its "
            "games kept in the cache first)"
        ),
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help=(
            "play every game again, even when OUT or the cache holds a finished run with the same "
            "ruleset, players, lineup, seed, engine and library version and code (reused by "
            "default); the games OUT held are kept in the cache first"
        ),
    )
    parser.add_argument(
        "--cache",
        default=None,
        metavar="DIR",
        help=(
            "the folder of finished runs to reuse and to keep this run in (default: $STARGAZER_CACHE, "
            "else the user's cache folder; 'stargazer cache list' shows it)"
        ),
    )
    _add_bound_option(parser)


def _add_bound_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bound",
        dest="bounds",
        action=_BoundAction,
        default=Bounds(),
        metavar="NAME=VALUE",
        help=(
            "change one of the bounds that decide the report's findings, e.g. "
            "max_tie_rate=0.15 (repeatable; the names and defaults are in docs/simulation.md "
            f"and the report): {', '.join(field.name for field in attrs.fields(Bounds))}"
        ),
    )


class _BoundAction(argparse.Action):
    """Each ``--bound NAME=VALUE`` updates the Bounds so far; a bad one is a usage error."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        try:
            setattr(namespace, self.dest, getattr(namespace, self.dest).with_settings([values]))
        except ValueError as error:
            raise argparse.ArgumentError(self, str(error)) from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def _game_count(text: str) -> int:
    """A ``--games`` value: 1 to the most games a run plays (``runner.MAX_GAMES``)."""
    value = _positive_int(text)
    most = simulation.runner.MAX_GAMES
    if value > most:
        raise argparse.ArgumentTypeError(
            f"{value:,} games is more than a run may play ({most:,}): give at most {most}, "
            "or split the work into runs with other --seed values"
        )
    return value


def _worker_count(text: str) -> int:
    """A ``--workers`` value: 1 to the most worker processes a run starts (``runner.MAX_WORKERS``)."""
    value = _positive_int(text)
    most = simulation.runner.MAX_WORKERS
    if value > most:
        raise argparse.ArgumentTypeError(
            f"{value:,} workers is more than a run starts ({most}): give at most {most}; "
            f"the default, one per core, is {os.cpu_count() or 1} here"
        )
    return value


def _lineup_or_report(
    rulesets: Sequence[Ruleset], args: argparse.Namespace, command: str
) -> tuple[str, ...] | None:
    """The lineup for ``args.players`` seats, or None after a one-line error (players the
    rulesets do not support, an unknown bot, more bots than players)."""
    for ruleset in rulesets:
        try:
            Game(ruleset).deal(args.players, seed=0)
        except SetupError as error:
            _error(command, f"{ruleset.name}: {error}")
            return None
    try:
        return simulation.parse_lineup(args.bots or [DEFAULT_SIM_BOTS], args.players)
    except (BotSpecError, SimulationError) as error:
        _error(command, str(error))
        return None


def _simulate_or_report(
    ruleset: Ruleset,
    out: str,
    lineup: Sequence[str],
    args: argparse.Namespace,
    command: str,
    label: str | None,
    games: int | None = None,
) -> runs.RunOutcome | int:
    """Run one simulation (``simulation.runs``) and say how it went on stderr; its outcome,
    or the exit status after a one-line error."""
    if _out_is_a_file(out, command):
        return EXIT_USAGE
    if args.scheduler is not None:
        problem = _scheduler_problem(args.scheduler)
        if problem is not None:
            _error(command, problem)
            return EXIT_USAGE
        _error(
            command,
            f"connecting to the Dask scheduler at {args.scheduler} "
            f"(waiting up to {simulation.runner.SCHEDULER_TIMEOUT:g} s)",
        )
    _report_engine(ruleset, command, args.engine)
    request = runs.RunRequest(
        ruleset, Path(out), tuple(lineup), players=args.players, games=args.games if games is None else games,
        seed=args.seed, workers=args.workers, scheduler=args.scheduler, engine=args.engine, resume=args.resume,
        reuse=not args.no_cache, cache=cache.cache_folder(args.cache), label=label,
    )
    try:
        outcome = runs.simulate_run(request, lambda text: print(text, file=sys.stderr), command)
    except (SimulationError, ValueError, OSError) as error:
        _error(command, str(error))
        return EXIT_INVALID
    except KeyboardInterrupt:
        path = os.path.join(out, simulation.GAMES_FILE)
        _error(command, f"interrupted; the games played so far are in {path}: add --resume to finish the run")
        return EXIT_INTERRUPTED
    if outcome.played:
        where = f"the Dask cluster at {args.scheduler}" if args.scheduler else _workers_text(args.workers)
        skipped = f" ({outcome.kept} were already there)" if outcome.kept else ""
        print(
            f"{ruleset.name}: played {outcome.played} games{skipped} in {outcome.seconds:.1f} s "
            f"({outcome.games_per_second:.1f} games/s, {outcome.engine} engine) on {where} -> {outcome.games_file}",
            file=sys.stderr,
        )
    return outcome


def _out_is_a_file(out: str, command: str) -> bool:
    """True, after a one-line error, when ``--out`` names a file (a run needs a folder)."""
    if os.path.exists(out) and not os.path.isdir(out):
        _error(command, f"--out {out} is a file, not a folder: name a folder for the run's files")
        return True
    return False


def _scheduler_problem(address: str) -> str | None:
    """Why ``address`` is not a scheduler address (``tcp://HOST:PORT``), or None."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in ("tcp", "tls") or not colon or not host:
        return f"--scheduler {address} is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"--scheduler {address}: {port!r} is not a port of 1 to 65535"
    return None


def _workers_text(workers: int | None) -> str:
    count = workers or os.cpu_count() or 1
    return f"{count} worker{'s' if count != 1 else ''}"


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
    """The ruleset, or None after printing a one-line error (the first problem and how many).
    A valid ruleset's warnings (``checks.ruleset_warnings``) go to stderr, one line each."""
    try:
        ruleset = load_ruleset(path)
    except RulesetError as error:
        _report_ruleset_error(error, path if path is not None else DEFAULT_RULESET, command)
        return None
    _report_warnings(ruleset, command)
    return ruleset


def _report_ruleset_error(error: RulesetError, shown: str, command: str) -> None:
    """One line: the problem, or the first of several and how to list them all."""
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


def _report_warnings(ruleset: Ruleset, command: str) -> None:
    for warning in ruleset_warnings(ruleset):
        _error(command, f"warning: {warning}")


def _report_engine(ruleset: Ruleset, command: str, engine: str = native.DEFAULT_ENGINE) -> None:
    """One warning line when the bots asked to search in the kernel will run on Python."""
    reason = native.fallback_reason(ruleset) if engine == "native" else None
    if reason is not None:
        _error(command, f"warning: {ruleset.name} runs on the Python engine: {reason}")


def _error(command: str, message: str) -> None:
    print(f"stargazer {command}: {message}", file=sys.stderr)


class _Prefixed:
    """A writer that puts ``stargazer COMMAND: `` in front of what is written to ``stream``."""

    def __init__(self, command: str, stream) -> None:
        self.command = command
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(f"stargazer {self.command}: {text}")


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
