"""``stargazer ladder``: does thinking pay? Each MCTS budget against the next, on paired deals;
the ladder is played by ``simulation.ladder`` and read by ``analysis.ladder_report``."""

from __future__ import annotations

import argparse
import os
import sys

from stargazer_rules.bots import MAX_ITERATIONS
from stargazer_rules.errors import BotSpecError, SetupError, SimulationError, counted
from stargazer_rules.frontends.cli.common import (
    EXIT_INVALID,
    EXIT_USAGE,
    SeedAction,
    add_ruleset_argument,
    positive_int,
    report_engine,
    ruleset_or_stop,
    say_error,
    wrapped,
)
from stargazer_rules.frontends.cli.run_options import game_count, out_is_a_file, out_refused, worker_count
from stargazer_rules.kernel import native
from stargazer_rules.simulation import cache, ladder, locks
from stargazer_rules.simulation.runner import MAX_WORKERS, game_of

#: The budgets of the default ladder: each twice the one before, from a bot that barely looks
#: ahead to one that searches for under a tenth of a second a decision in the kernel.
DEFAULT_BUDGETS = (25, 50, 100, 200, 400, 800)


#: Games per step of the default ladder: the stronger bot's win share within about ±2 points
#: (95%), and the default ladder on draft7 (4 players) in about three minutes on two cores
#: (docs/simulation.md, "stargazer ladder").
DEFAULT_LADDER_GAMES = 2400


#: Players of the default ladder: two against two.
DEFAULT_LADDER_PLAYERS = 4


COMMAND = "ladder"


def add_ladder(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        COMMAND,
        help="play each MCTS budget against the next: does thinking pay in this game?",
        description=wrapped(
            "Play each MCTS budget against the next (mcts:25 against mcts:50, mcts:50 against "
            "mcts:100, ...) on the same deals, each deal in every seating, then print the "
            "stronger bot's win share per step and the skill depth: how many steps it wins "
            "significantly more than fair. Writes OUT/ladder.json and OUT/ladder.html and keeps "
            "the ladder in the cache folder. The same options give the same ladder on any number "
            "of workers."
        ),
    )
    add_ruleset_argument(parser, positional=False)
    parser.add_argument(
        "--players",
        type=positive_int,
        default=DEFAULT_LADDER_PLAYERS,
        metavar="N",
        help=(
            f"the number of players (default {DEFAULT_LADDER_PLAYERS}: two seats each; with an odd "
            "number the stronger bot takes one seat)"
        ),
    )
    parser.add_argument(
        "--budgets",
        action=_BudgetsAction,
        default=DEFAULT_BUDGETS,
        metavar="B1,B2,...",
        help=(
            f"MCTS iterations a decision, smallest first (default {','.join(map(str, DEFAULT_BUDGETS))}; "
            f"each from 1 to {MAX_ITERATIONS:,})"
        ),
    )
    parser.add_argument(
        "--games",
        type=game_count,
        default=DEFAULT_LADDER_GAMES,
        metavar="N",
        help=(
            f"games per step (default {DEFAULT_LADDER_GAMES:,}: win shares within about ±2 points "
            "with 95%% confidence); rounded up to whole deals, each played in every seating"
        ),
    )
    parser.add_argument(
        "--seed",
        action=SeedAction,
        default=0,
        metavar="S",
        help="the first deal seed, 0 to 2**64 - 1 (default 0); every step plays the deals S, S + 1, ...",
    )
    parser.add_argument(
        "--workers",
        type=worker_count,
        default=None,
        metavar="W",
        help=f"worker processes (default: one per core; at most {MAX_WORKERS}); 1 plays in this process",
    )
    parser.add_argument(
        "--out", default=None, metavar="DIR", help="the output folder (default ladder-RULES-Np in the current folder)"
    )
    parser.add_argument(
        "--cache",
        default=None,
        metavar="DIR",
        help=(
            f"the cache folder to keep the ladder in, under {ladder.LADDERS_FOLDER}/ (default: "
            f"${cache.CACHE_VARIABLE}, else the user's cache folder)"
        ),
    )
    parser.set_defaults(run=run_ladder)


class _BudgetsAction(argparse.Action):
    """``--budgets 25,50,100`` (``ladder.parse_budgets``); a bad list is one line, exit 2."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        try:
            budgets = ladder.parse_budgets(values)
        except SimulationError as error:
            parser.exit(EXIT_USAGE, f"{parser.prog}: {option_string} {values}: {error}\n")
        setattr(namespace, self.dest, budgets)


def run_ladder(args: argparse.Namespace) -> int:
    """Play the ladder, print its table and skill depth, write its files; one-line errors."""
    from stargazer_rules.analysis import ladder_report

    ruleset = ruleset_or_stop(args.ruleset, COMMAND)
    default = f"ladder-{ruleset.name}-{args.players}p"
    out = args.out or default
    own = {ladder.LADDER_FILE, ladder_report.LADDER_PAGE, locks.LOCK_FILE, locks.HOLDER_FILE}
    if out_is_a_file(out, COMMAND) or out_refused(out, COMMAND, own, default):
        return EXIT_USAGE
    tiers = ladder.budget_tiers(args.budgets)
    options = {"players": args.players, "games": args.games, "seed": args.seed, "workers": args.workers}
    try:
        ladder.check_ladder(ruleset, tiers, **options)
    except SetupError as error:
        say_error(COMMAND, f"{ruleset.name}: {error}")
        return EXIT_USAGE
    except (SimulationError, BotSpecError) as error:
        say_error(COMMAND, str(error))
        return EXIT_USAGE
    try:
        store = cache.cache_folder(args.cache)  # refused before the ladder is played or its folder made
        with locks.holding(out, COMMAND):
            report_engine(ruleset, COMMAND)
            steps = ladder.play_ladder(ruleset, tiers, **options, on_step=_progress(len(tiers) - 1, args.workers))
            figures = ladder_report.ladder_figures(
                ruleset={"name": ruleset.name, "fingerprint": ruleset.fingerprint}, players=args.players,
                budgets=args.budgets, seed=args.seed, engine=native.engine_for(game_of(ruleset)),
                deals=ladder.deals_for(args.games, args.players), seatings=len(ladder.seatings(args.players)),
                steps=steps,
            )
            written, kept = ladder.write_ladder(figures, out, store)
            page = ladder_report.write_ladder_page(figures, out)
    except OSError as error:
        say_error(COMMAND, str(error))
        return EXIT_INVALID
    print(ladder_report.terminal_ladder(figures))
    print(f"\nwritten: {written}, {page}; kept in the cache as {kept}")
    return 0


def _progress(steps: int, workers: int | None):  # type: ignore[no-untyped-def]
    """The ``on_step`` of the command: one line on stderr per step played."""
    where = counted(workers or os.cpu_count() or 1, "worker|workers")

    def said(number: int, step: ladder.StepResult, seconds: float) -> None:
        print(
            f"stargazer {COMMAND}: step {number} of {steps}, {step.weaker} vs {step.stronger}: "
            f"{step.games:,} games in {seconds:.1f} s on {where}",
            file=sys.stderr,
            flush=True,
        )

    return said
