"""The commands of balance runs: ``simulate``, ``compare`` and ``report`` (``cache`` is
``cache_command``); the runs themselves are made by ``simulation.runs``, these only parse, call and print."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stargazer_rules import simulation
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.bots import bot_names
from stargazer_rules.errors import SimulationError, counted, install_line
from stargazer_rules.formats.game_lines import read_games_file
from stargazer_rules.frontends.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_USAGE,
    SeedAction,
    add_ruleset_argument,
    report_engine,
    ruleset_or_stop,
    say_error,
    wrapped,
)
from stargazer_rules.frontends.cli.run_options import (
    COMPARISON_FOLDER_FILES,
    DEFAULT_SIM_BOTS,
    DEFAULT_SIM_GAMES,
    DEFAULT_SIM_PLAYERS,
    LINEUP_HELP,
    RUN_FOLDER_FILES,
    cache_bound_refused,
    finishing_command,
    game_count,
    one_variant,
    out_is_a_file,
    out_refused,
    player_counts,
    scheduler_problem,
    variants_or_report,
    worker_count,
)
from stargazer_rules.frontends.cli.target_options import add_target_options, external_figures, targets_or_stop
from stargazer_rules.kernel import native
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import bundled_ruleset_names
from stargazer_rules.simulation import cache, locks, runs
from stargazer_rules.simulation.variants import VARIANT_SEPARATOR, Variant

if TYPE_CHECKING:
    from stargazer_rules.analysis.game_figures import GameFigures
    from stargazer_rules.analysis.measures import MeasureContext


def add_simulate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many games with bots and report seat, crew and planet balance",
        description=wrapped(
            "Play many games with bots on every core, stream them to OUT/games.jsonl, then "
            "write OUT/summary.json and OUT/report.html and print the summary. Games come in "
            "blocks of one game per seat rotation on the same deal, so every bot sits in every "
            "seat equally often. The same options give the same games on any number of workers."
        ),
        epilog=LINEUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_ruleset_argument(parser, positional=False)
    add_simulation_options(parser, default_out="simulation-RULES-Np")
    parser.set_defaults(run=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Run the simulation and print the analysis's summary; a one-line error for bad input."""
    command = "simulate"
    ruleset = ruleset_or_stop(args.ruleset, command)
    variants = variants_or_report([ruleset], args, command)
    if variants is None:
        return EXIT_USAGE
    targets = targets_or_stop(ruleset, args, command)
    if len(variants) > 1:
        return _simulate_variants(ruleset, variants, targets, args, command)
    args, lineup = one_variant(args, variants[0]), variants[0].lineup
    targets = targets.for_variant(args.players, lineup)
    default = f"simulation-{ruleset.name}-{args.players}p"
    out = args.out or default
    if out_is_a_file(out, command) or out_refused(out, command, RUN_FOLDER_FILES, default) or cache_bound_refused(command):
        return EXIT_USAGE
    try:
        with runs.holding_run_folder(out, command, cache.cache_folder(args.cache)) as held:  # the report too is this run's
            from stargazer_rules.analysis.games import Analysed

            outcome = _simulate_or_report(ruleset, held, lineup, args, command, label=None, reduce=Analysed())
            if isinstance(outcome, int):
                return outcome
            _write_and_print_report(outcome.games, ruleset, out, targets, args)
    except (SimulationError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    return 0


def _write_and_print_report(games: Sequence[dict], ruleset: Ruleset | None, out: str, targets: Targets,
                            args: argparse.Namespace) -> None:
    from stargazer_rules import analysis

    summary = _write_report(games, ruleset, out, targets, args)
    print(analysis.terminal_summary(summary))
    print(f"\nwritten: {os.path.join(out, 'summary.json')}, {os.path.join(out, 'report.html')}")


def _write_report(games: Sequence[dict], ruleset: Ruleset | None, out: str, targets: Targets,
                  args: argparse.Namespace) -> dict:
    """The run's summary, written with its report in ``out``."""
    from stargazer_rules import analysis

    first = games[0] if games else None
    external = external_figures(first["ruleset"]["fingerprint"], first["players"], args) if first else {}
    summary = analysis.summarize(games, ruleset=ruleset, targets=targets, external=external)
    analysis.write_report(summary, Path(out))
    return summary


def _variants_out(out: str | None, default: str, command: str) -> str | None:
    """The output folder of a command of several variants, or None after a one-line error:
    it holds a folder per variant, variants.json and variants.html."""
    from stargazer_rules.analysis.variant_verdict import VARIANTS_JSON, VARIANTS_PAGE

    folder = out or default
    own = frozenset({VARIANTS_JSON, VARIANTS_PAGE, locks.LOCK_FILE, locks.HOLDER_FILE})
    if out_is_a_file(folder, command) or out_refused(folder, command, own, default, runs_inside=True) or cache_bound_refused(command):
        return None
    return folder


def _counts_text(variants: Sequence[Variant]) -> str:
    """``3-4p``: the player counts of the variants, for a default folder name."""
    return "-".join(dict.fromkeys(str(variant.players) for variant in variants)) + "p"


def _simulate_variants(ruleset: Ruleset, variants: Sequence[Variant], targets: Targets, args: argparse.Namespace,
                       command: str) -> int:
    """simulate with several lineups or player counts: a run per variant in OUT/<variant>, each
    judged by the targets that apply to it, then variants.json and the verdict across them."""
    from stargazer_rules.analysis import variant_verdict
    from stargazer_rules.analysis.games import Analysed

    out = _variants_out(args.out, f"simulation-{ruleset.name}-{_counts_text(variants)}", command)
    if out is None:
        return EXIT_USAGE
    summaries = []
    try:
        with contextlib.ExitStack() as held:
            store = cache.cache_folder(args.cache)
            runs.check_outside_cache(Path(out), store)  # before its lock makes a file there
            held.enter_context(locks.holding(out, command))
            for variant in variants:
                folder = os.path.join(out, variant.folder)
                with runs.holding_run_folder(folder, command, store) as run_held:
                    variant_args = one_variant(args, variant)
                    outcome = _simulate_or_report(ruleset, run_held, variant.lineup, variant_args, command,
                                                  label=variant.label, reduce=Analysed())
                    if isinstance(outcome, int):
                        return outcome
                    summaries.append(_write_report(outcome.games, ruleset, folder,
                                                   targets.for_variant(variant.players, variant.lineup), variant_args))
            overview = variant_verdict.across_runs([variant.to_json() for variant in variants], summaries, targets.source)
            written = variant_verdict.write_variants(overview, out)
    except (SimulationError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    print(variant_verdict.terminal_variants(overview))
    print(f"\nwritten: {written[0]}, {written[1]}; each variant's summary.json and report.html in its folder")
    return 0


def add_compare(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "compare",
        help="simulate two rulesets with the same deals and bots and compare them",
        description=wrapped(
            "Simulate ruleset A and ruleset B with the same seeds and lineup (as "
            "'stargazer simulate' does, into OUT/<A's name> and OUT/<B's name>), then compare "
            "the two summaries: the comparison files are written to OUT and a brief of the answer printed."
        ),
        epilog=LINEUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar="A", help=f"the first ruleset: a folder or a bundled name ({names})")
    parser.add_argument("b", metavar="B", help="the second ruleset, the one compared with A")
    add_simulation_options(parser, default_out="comparison-A-B-Np")
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
        type=game_count,
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
    first = ruleset_or_stop(args.a, command)
    second = ruleset_or_stop(args.b, command)
    variants = variants_or_report([first, second], args, command)
    if variants is None:
        return EXIT_USAGE
    targets = _comparison_targets(first, second, args, command)
    if len(variants) > 1:
        return _compare_variants(first, second, variants, targets, args, command)
    args, lineup = one_variant(args, variants[0]), variants[0].lineup
    args.judged_by = targets.for_variant(args.players, lineup)
    out = args.out or f"comparison-{first.name}-{second.name}-{args.players}p"
    comparison = _compare_one(first, second, lineup, out, args, command)
    if isinstance(comparison, int):
        return comparison
    from stargazer_rules.analysis.brief import comparison_brief
    from stargazer_rules.frontends.cli.explain_command import lead_defaults

    print(comparison_brief(comparison, rules_b=args.b, lineup=lineup, defaults=lead_defaults()).text())
    print(
        f"\nEvery figure: {os.path.join(out, 'comparison.html')} and {os.path.join(out, 'comparison.json')}; "
        f"each ruleset's report in {' and '.join(os.path.join(out, name) for name in _run_names(first, second))}"
    )
    return 0


def _compare_one(first: Ruleset, second: Ruleset, lineup: Sequence[str], out: str, args: argparse.Namespace,
                 command: str) -> dict | int:
    """One comparison (one player count and lineup: ``args.players``, judged by
    ``args.judged_by``) into ``out``: both runs, comparison.json and comparison.html; the
    comparison, or the exit status after a one-line error."""
    default = f"comparison-{first.name}-{second.name}-{args.players}p"
    names = _run_names(first, second)
    folders = [os.path.join(out, name) for name in names]
    looks: list[dict] = []
    max_games = args.max_games or min(4 * args.games, simulation.runner.MAX_GAMES)
    if (
        out_is_a_file(out, command)
        or out_refused(out, command, COMPARISON_FOLDER_FILES, default, runs_inside=True)
        or cache_bound_refused(command)
    ):
        return EXIT_USAGE
    from stargazer_rules.analysis.game_figures import FiguresOf
    from stargazer_rules.analysis.measures import MEASURES, MeasureContext

    # each game is kept as the figures the comparison reads (analysis.game_figures), never whole
    measures = [MEASURES[target.measure] for target in args.judged_by.targets]
    contexts = tuple(MeasureContext.of((), ruleset, external_figures(ruleset.fingerprint, args.players, args),
                                       players=args.players) for ruleset in (first, second))
    try:
        with contextlib.ExitStack() as held:
            store = cache.cache_folder(args.cache)
            runs.check_outside_cache(Path(out), store)  # before its lock makes a file there
            held.enter_context(locks.holding(out, command))
            run_folders = [held.enter_context(runs.holding_run_folder(folder, command, store)) for folder in folders]
            batches = _batches(args.games, max_games, args.players) if args.until_decided else [args.games]
            pair: list[tuple[dict, ...]] = []
            for games in batches:
                pair = []
                for ruleset, folder, name, context in zip((first, second), run_folders, names, contexts, strict=True):
                    outcome = _simulate_or_report(ruleset, folder, lineup, args, command, label=name, games=games,
                                                  reduce=FiguresOf(measures, context))
                    if isinstance(outcome, int):
                        return outcome
                    pair.append(outcome.games)
                if args.until_decided and _look_and_stop(pair, contexts, looks, max_games, args):
                    break
            comparison = _compare_and_write(pair, (first, second), folders, names, contexts, args)
    except (SimulationError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    if looks:
        from stargazer_rules.analysis import sequential

        sequential.apply_looks(comparison, looks, looks[-1]["max_games"])
    from stargazer_rules import analysis

    analysis.write_comparison(comparison, Path(out))
    return comparison


def _run_names(first: Ruleset, second: Ruleset) -> tuple[str, str]:
    """The folders of a comparison's two runs: the rulesets' names, ``-a`` and ``-b`` when they are one."""
    if first.name == second.name:
        return f"{first.name}-a", f"{second.name}-b"
    return first.name, second.name


def _compare_variants(first: Ruleset, second: Ruleset, variants: Sequence[Variant], targets: Targets,
                      args: argparse.Namespace, command: str) -> int:
    """compare with several lineups or player counts: a comparison per variant in
    OUT/<variant>, each judged by the targets that apply to it, then the verdict across them."""
    from stargazer_rules.analysis import variant_verdict

    out = _variants_out(args.out, f"comparison-{first.name}-{second.name}-{_counts_text(variants)}", command)
    if out is None:
        return EXIT_USAGE
    verdicts, labels = [], ("A", "B")
    try:
        with locks.holding(out, command):
            for variant in variants:
                variant_args = one_variant(args, variant)
                variant_args.judged_by = targets.for_variant(variant.players, variant.lineup)
                print(f"{command}: variant {variant.label}", file=sys.stderr)
                comparison = _compare_one(first, second, variant.lineup, os.path.join(out, variant.folder), variant_args, command)
                if isinstance(comparison, int):
                    return comparison
                verdicts.append(comparison["verdict"])
                labels = (comparison["a"]["label"], comparison["b"]["label"])
            overview = variant_verdict.across_comparisons([variant.to_json() for variant in variants], verdicts,
                                                          labels[0], labels[1], targets.source)
            written = variant_verdict.write_variants(overview, out)
    except (SimulationError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    print(variant_verdict.terminal_variants(overview))
    print(f"\nwritten: {written[0]}, {written[1]}; each variant's comparison.json and comparison.html in its folder")
    return 0


def _compare_and_write(
    pair: Sequence[Sequence[GameFigures]], rulesets: Sequence[Ruleset], folders: Sequence[str], names: Sequence[str],
    contexts: Sequence[MeasureContext], args: argparse.Namespace,
) -> dict:
    """Each run's report written in its folder, and the comparison of the two (each run
    summarised once, for its report and the comparison). The runs' games are read again for
    their summaries, one run at a time; the comparison reads their figures (``pair``)."""
    from stargazer_rules import analysis
    from stargazer_rules.analysis.games import Analysed

    runs = []
    for figures, ruleset, folder, context in zip(pair, rulesets, folders, contexts, strict=True):
        indices, shrink = {game.index for game in figures}, Analysed()
        read = read_games_file(os.path.join(folder, simulation.GAMES_FILE),
                               lambda game, indices=indices, shrink=shrink: shrink(game) if game["index"] in indices else None)
        games = [game for game in read.games if game is not None]
        summary = analysis.summarize(games, ruleset=ruleset, targets=args.judged_by, external=context.external)
        del games, read  # one run's games at a time
        analysis.write_report(summary, Path(folder))
        runs.append(analysis.Run(figures, summary, ruleset, dict(context.external), context))
    return analysis.compare_summaries(
        runs[0], runs[1], label_a=names[0], label_b=names[1], targets=args.judged_by,
        ruleset_a=rulesets[0], ruleset_b=rulesets[1],
    )


def _batches(games: int, max_games: int, players: int) -> list[int]:
    """The games per ruleset at each look of --until-decided: games, 2 x games, ... up to max."""
    step = -(-games // players) * players
    most = -(-max_games // players) * players
    return [min(step * k, most) for k in range(1, -(-most // step) + 1)]


def _comparison_targets(first: Ruleset, second: Ruleset, args: argparse.Namespace, command: str) -> Targets:
    """The one set of targets both runs are judged by: ``--targets``, else B's (the draft the
    designer is making), else A's, else the defaults; a line says which when A and B differ."""
    from stargazer_rules.analysis.targets_file import targets_beside

    if args.targets is None and targets_beside(second) is None and targets_beside(first) is not None:
        chosen = first
    else:
        chosen = second
    targets = targets_or_stop(chosen, args, command)
    if args.targets is None:
        other = targets_or_stop(first if chosen is second else second, args, command)
        if other.to_json() != targets.to_json():
            print(f"{command}: both drafts are judged by the targets of {chosen.name} ({targets.source}); "
                  f"{(first if chosen is second else second).name}'s differ", file=sys.stderr)
    return targets


def _look_and_stop(pair: Sequence[Sequence[GameFigures]], contexts: Sequence[MeasureContext], looks: list[dict],
                   max_games: int, args: argparse.Namespace) -> bool:
    """One look of --until-decided (printed on stderr); True when every target with weight is decided."""
    from stargazer_rules.analysis import sequential

    pairs = sequential.paired_games(pair[0], pair[1])
    most = -(-max_games // args.players) * args.players
    result = sequential.look(
        pairs, args.judged_by, (contexts[0], contexts[1]), max_games=most,
        previous_games=looks[-1]["games"] if looks else 0, decided=looks[-1]["decided"] if looks else None,
    )
    result["max_games"] = most
    looks.append(result)
    print(sequential.look_text(len(looks), result), file=sys.stderr)
    return result["decision"] != "continue"


def add_report(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "report",
        help="rebuild a simulation's summary and report from its games.jsonl",
        description=wrapped(
            "Read DIR/games.jsonl (a finished run, or the games an interrupted one kept) and "
            "write DIR/summary.json and DIR/report.html again, then print the summary. Use it "
            "to read an interrupted run without finishing it, or to judge it by other targets (--targets, --bound) "
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
    add_target_options(parser)
    parser.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Summarise an existing games.jsonl; one-line errors for a missing or foreign file."""
    from stargazer_rules.analysis.games import Analysed

    command = "report"
    path = os.path.join(args.folder, simulation.GAMES_FILE)
    ruleset = None
    if args.ruleset is not None:
        ruleset = ruleset_or_stop(args.ruleset, command)
    try:
        read = read_games_file(path, Analysed())  # what a summary reads of each line, not the line
    except FileNotFoundError:
        runs_here = sorted(str(found.parent) for found in Path(args.folder).glob(f"*/{simulation.GAMES_FILE}"))
        hint = (
            f"; it holds the runs of a comparison: give one of {', '.join(runs_here)}"
            if runs_here
            else "; give the folder a 'stargazer simulate' run wrote to"
        )
        say_error(command, f"{path}: no such file{hint}")
        return EXIT_INVALID
    except OSError as error:
        say_error(command, str(outputfiles.path_problem(error, args.folder) or error))
        return EXIT_INVALID
    for problem in read.problems():
        say_error(command, f"warning: {problem}; not counted")
    if read.refused:
        say_error(command, f"warning: {path}: {counted(len(read.refused), 'line|lines')} not counted: the report is of the other "
                  f"{counted(len(read.games), 'game|games', ',')}")
    if read.unchecked:
        say_error(command, f"warning: {path}: {counted(read.unchecked, 'line|lines')} of format 1 "
                  f"{'carries' if read.unchecked == 1 else 'carry'} no digest and could not be checked")
    games = list(read.games)
    if not games:
        say_error(command, f"{path}: no finished game yet")
        return EXIT_INVALID
    played_with = games[0]["ruleset"]
    if ruleset is not None and ruleset.fingerprint != played_with["fingerprint"]:
        say_error(
            command,
            f"{path}: the games were played with {played_with['name']} (fingerprint "
            f"{short_fingerprint(played_with['fingerprint'])}), not with {args.ruleset} ({short_fingerprint(ruleset.fingerprint)})",
        )
        return EXIT_INVALID
    from stargazer_rules.analysis.summary import ruleset_of_lines

    judged_with = ruleset_of_lines(played_with, ruleset)  # the targets.yaml beside it
    first = games[0]
    lineup = [first["seating"][(seat - first["rotation"]) % first["players"]] for seat in range(first["players"])]
    targets = targets_or_stop(judged_with, args, command).for_variant(first["players"], lineup)  # as simulate judged it
    try:
        _write_and_print_report(games, ruleset, args.folder, targets, args)
    except ValueError as error:
        say_error(command, f"{path}: {error}")
        return EXIT_INVALID
    return 0


def add_simulation_options(parser: argparse.ArgumentParser, default_out: str) -> None:
    parser.epilog = (parser.epilog or "").format(bots=", ".join(bot_names()))
    parser.add_argument(
        "--players",
        type=player_counts,
        default=(DEFAULT_SIM_PLAYERS,),
        metavar="N",
        help=f"the number of players (default {DEFAULT_SIM_PLAYERS}); several, comma-separated (3,4), play a run at each (see below)",
    )
    parser.add_argument(
        "--games",
        type=game_count,
        default=DEFAULT_SIM_GAMES,
        metavar="N",
        help=(
            f"how many games (default {DEFAULT_SIM_GAMES:,}: seat win rates within about ±2 "
            f"points with 95%% confidence, at most {simulation.runner.MAX_GAMES:,}); rounded up "
            "to a whole number of rotations"
        ),
    )
    parser.add_argument(
        "--bots",
        action="append",
        default=None,
        metavar="LINEUP",
        help=(f"the bots, '{simulation.LINEUP_SEPARATOR}'-separated (see below); default {DEFAULT_SIM_BOTS}; several "
              f"lineups, '{VARIANT_SEPARATOR}'-separated, play a run each"),
    )
    parser.add_argument(
        "--seed",
        action=SeedAction,
        default=0,
        metavar="S",
        help="the first deal seed, 0 to 2**64 - 1 (default 0); block b of games is dealt from S + b",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=worker_count,
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
            f"processes; needs {install_line('dask')}"
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
    add_target_options(parser)


def _simulate_or_report(
    ruleset: Ruleset,
    held: runs.HeldFolder,
    lineup: Sequence[str],
    args: argparse.Namespace,
    command: str,
    label: str | None,
    games: int | None = None,
    reduce: Callable[[dict], Any] | None = None,
) -> runs.RunOutcome | int:
    """Run one simulation (``simulation.runs``) in the held folder and say how it went on
    stderr; its outcome (its games as ``reduce`` keeps them), or the exit status after a
    one-line error."""
    if args.scheduler is not None:
        problem = scheduler_problem(args.scheduler)
        if problem is not None:
            say_error(command, problem)
            return EXIT_USAGE
        say_error(
            command,
            f"connecting to the Dask scheduler at {args.scheduler} "
            f"(waiting up to {simulation.dask_cluster.SCHEDULER_TIMEOUT:g} s)",
        )
    report_engine(ruleset, command, args.engine)
    request = runs.RunRequest(
        ruleset, held.path, tuple(lineup), players=args.players, games=args.games if games is None else games,
        seed=args.seed, workers=args.workers, scheduler=args.scheduler, engine=args.engine, resume=args.resume,
        reuse=not args.no_cache, cache=cache.cache_folder(args.cache), label=label, reduce=reduce,
    )
    try:
        outcome = runs.play_run(request, lambda text: print(text, file=sys.stderr), held)
    except (SimulationError, ValueError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    except KeyboardInterrupt:
        path = held.path / simulation.GAMES_FILE
        say_error(command, f"interrupted; the games played so far are kept in {path}: "
                           f"{finishing_command(args.argv)} plays only the rest")
        return EXIT_INTERRUPTED
    if outcome.played:
        where = f"the Dask cluster at {args.scheduler}" if args.scheduler else _workers_text(args.workers)
        skipped = f" ({outcome.kept} {'was' if outcome.kept == 1 else 'were'} already there)" if outcome.kept else ""
        print(
            f"{ruleset.name}: played {counted(outcome.played, 'game|games')}{skipped} in {outcome.seconds:.1f} s "
            f"({outcome.games_per_second:,.1f} games/s, {outcome.engine} engine) on {where} -> {outcome.games_file}",
            file=sys.stderr,
        )
    return outcome


def _workers_text(workers: int | None) -> str:
    return counted(workers or os.cpu_count() or 1, "worker|workers")
