"""``stargazer tune``: these targets are missed: which smallest edit of the YAML meets them? The
search is ``tuning.tune_run`` (over ``tuning.search``); this only parses, calls and prints."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from stargazer_rules.bots import bot_names
from stargazer_rules.errors import RulesetError, SimulationError, install_line
from stargazer_rules.frontends.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_USAGE,
    SeedAction,
    positive_int,
    report_engine,
    ruleset_or_stop,
    say_error,
    wrapped,
)
from stargazer_rules.frontends.cli.run_options import (
    DEFAULT_SIM_BOTS,
    DEFAULT_SIM_PLAYERS,
    LINEUP_HELP,
    cache_bound_refused,
    game_count,
    one_variant,
    out_is_a_file,
    out_refused,
    player_counts,
    scheduler_problem,
    variants_or_report,
    worker_count,
)
from stargazer_rules.frontends.cli.target_options import (
    add_target_options,
    targets_or_stop,
)
from stargazer_rules.kernel import native
from stargazer_rules.simulation import cache, locks
from stargazer_rules.simulation.runner import LINEUP_SEPARATOR, MAX_WORKERS
from stargazer_rules.simulation.variants import VARIANT_SEPARATOR

COMMAND = "tune"

#: The defaults answer draft 7 (4 players) in about 15 minutes on two cores (docs/simulation.md,
#: "stargazer tune"): 60 candidates of 480 games (mcts:200, 12.5 s each measured), some pruned
#: early, then the best 2 candidates and the base on 2,400 fresh games each. On 1,200 the best
#: candidate's seat-share gain (+3.2 points, se 1.3) stays inside the boundary a target gets among
#: eleven (Bonferroni), so nothing could be proposed; 2,400 halves the variance.
DEFAULT_TRIALS = 60
DEFAULT_GAMES_PER_TRIAL = 480
DEFAULT_RECHECK = 2
DEFAULT_RECHECK_GAMES = 2400

_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(s|m|min|h)?\s*$")  # ASCII digits (\d takes any script's)
_SECONDS = {None: 1, "s": 1, "m": 60, "min": 60, "h": 3600}


def duration(text: str) -> float:
    """A ``--time`` value in seconds: ``900``, ``90s``, ``15m``, ``1.5h``."""
    match = _DURATION.match(text)
    if match is None or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration: write seconds (900), or 90s, 15m, 1.5h")
    return float(match.group(1)) * _SECONDS[match.group(2)]


def add_tune(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        COMMAND,
        help="search the values tune.yaml allows for the smallest edit that meets the missed targets",
        description=wrapped(
            "Search the values the space (tune.yaml beside BASE, or --space) lets change for the "
            "smallest edit of BASE that meets its design targets: each candidate plays --games-per-trial "
            "games on the baseline's deals, in blocks (a candidate clearly worse than the best is "
            "stopped early), judged by the weighted shortfall of the targets. The best few are played "
            "again on fresh deals and compared with BASE; one better on some target and worse on none "
            "is written as a new draft to OUT/proposal. Writes OUT/tune.json and OUT/tune.html; the "
            "study in OUT/study.db resumes when the same command runs again."
        ),
        epilog=LINEUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("ruleset", metavar="BASE", help="the ruleset to tune: a folder or a bundled name")
    parser.add_argument("--space", default=None, metavar="FILE",
                        help="the values to search (default: the tune.yaml beside BASE's files)")
    parser.add_argument("--trials", type=positive_int, default=DEFAULT_TRIALS, metavar="N",
                        help=f"candidates to play (default {DEFAULT_TRIALS:,}); samples of too many edits are not counted")
    parser.add_argument("--games-per-trial", type=game_count, default=DEFAULT_GAMES_PER_TRIAL, metavar="N",
                        help=f"games a candidate plays (default {DEFAULT_GAMES_PER_TRIAL:,}); rounded up to whole blocks of deals")
    parser.add_argument("--recheck-games", type=game_count, default=DEFAULT_RECHECK_GAMES, metavar="N",
                        help=f"fresh games of the base and of each re-checked candidate (default {DEFAULT_RECHECK_GAMES:,})")
    parser.add_argument("--time", type=duration, default=None, metavar="LIMIT",
                        help="stop starting candidates after this long (900, 90s, 15m, 1.5h); the re-check follows")
    parser.add_argument("--players", type=player_counts, default=(DEFAULT_SIM_PLAYERS,), metavar="N",
                        help=f"the number of players (default {DEFAULT_SIM_PLAYERS}); several, comma-separated (3,4): "
                             "every candidate plays at each, and the objective sums theirs")
    parser.add_argument("--bots", action="append", default=None, metavar="LINEUP",
                        help=f"the bots, '{LINEUP_SEPARATOR}'-separated (see below); default {DEFAULT_SIM_BOTS}; several "
                             f"lineups, '{VARIANT_SEPARATOR}'-separated: every candidate plays each")
    parser.add_argument("--seed", action=SeedAction, default=0, metavar="S",
                        help="the first deal seed of every candidate, 0 to 2**64 - 1 (default 0); the re-check "
                             "plays other deals, from a seed far past these")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=worker_count, default=None, metavar="W",
                       help=f"worker processes (default: one per core; at most {MAX_WORKERS}); 1 plays in this process")
    where.add_argument("--scheduler", default=None, metavar="ADDR",
                       help=f"play on a Dask cluster through its scheduler (tcp://HOST:PORT); needs {install_line('dask')}")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="the output folder (default tune-RULES-Np in the current folder)")
    parser.add_argument("--engine", choices=native.ENGINES, default=native.DEFAULT_ENGINE,
                        help="where the bots search: 'native' (the Rust kernel, default) or 'python'")
    parser.add_argument("--cache", default=None, metavar="DIR",
                        help="the folder of finished runs to reuse and keep the candidates' runs in (default: "
                             f"${cache.CACHE_VARIABLE}, else the user's cache folder)")
    add_target_options(parser)
    parser.epilog = (parser.epilog or "").format(bots=", ".join(bot_names()))
    parser.set_defaults(run=run_tune)


def _tune_files() -> frozenset[str]:
    """What a tune writes in its folder: the study (with SQLite's files beside it), the
    candidates' and re-check's runs, the proposal, the report and the lock."""
    from stargazer_rules.tuning import tune_report, tune_run

    study = tune_run.STUDY_FILE
    proposal = tune_run.PROPOSAL_FOLDER
    return frozenset({
        study, f"{study}-journal", f"{study}-wal", f"{study}-shm", tune_run.RUNS_FOLDER, tune_run.RECHECK_FOLDER,
        proposal, f"{proposal}.previous", tune_report.TUNE_JSON, tune_report.TUNE_PAGE, locks.LOCK_FILE, locks.HOLDER_FILE,
    })


def run_tune(args: argparse.Namespace) -> int:
    """Search, re-check, write the files and print the best candidates; one-line errors."""
    # optuna (the tune extra) is checked by main before this runs (common.COMMAND_EXTRAS).
    from stargazer_rules.tuning import tune_report, tune_run
    from stargazer_rules.tuning.space import space_for

    ruleset = ruleset_or_stop(args.ruleset, COMMAND)
    variants = variants_or_report([ruleset], args, COMMAND)
    if variants is None:
        return EXIT_USAGE
    counts = "-".join(dict.fromkeys(str(variant.players) for variant in variants))
    args, lineup = one_variant(args, variants[0]), variants[0].lineup
    targets = targets_or_stop(ruleset, args, COMMAND)
    try:
        space = space_for(ruleset, args.space)
    except RulesetError as error:
        for problem in error.problems:
            say_error(COMMAND, str(problem))
        return EXIT_INVALID
    except OSError as error:
        say_error(COMMAND, str(error))
        return EXIT_INVALID
    if args.scheduler is not None and (problem := scheduler_problem(args.scheduler)) is not None:
        say_error(COMMAND, problem)
        return EXIT_USAGE
    default = f"tune-{ruleset.name}-{counts}p" + ("-variants" if len(variants) > 1 else "")
    out = args.out or default
    if out_is_a_file(out, COMMAND) or out_refused(out, COMMAND, _tune_files(), default) or cache_bound_refused(COMMAND):
        return EXIT_USAGE
    report_engine(ruleset, COMMAND, args.engine)
    try:
        with locks.holding(out, COMMAND):
            result = tune_run.tune(
                ruleset, space, targets, out=Path(out), trials=args.trials, games_per_trial=args.games_per_trial,
                lineup=lineup, players=args.players, seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                time_limit=args.time, recheck=DEFAULT_RECHECK, recheck_games=args.recheck_games,
                progress=lambda text: print(f"stargazer {COMMAND}: {text}", file=sys.stderr, flush=True),
                cache_dir=cache.cache_folder(args.cache), engine=args.engine, variants=variants,
            )
            written = tune_report.write_tune(result.facts, Path(out))
    except (SimulationError, ValueError, OSError) as error:
        say_error(COMMAND, str(error))
        return EXIT_INVALID
    except KeyboardInterrupt:
        say_error(COMMAND, f"interrupted; the study is kept in {os.path.join(out, tune_run.STUDY_FILE)}: "
                           "the same command resumes it")
        return EXIT_INTERRUPTED
    print(tune_report.tune_brief(result.facts, rules=args.ruleset).text())
    print(f"\nEvery figure: {written[1]} and {written[0]}")
    return 0
