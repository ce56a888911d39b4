"""``stargazer explain``: what each crew and Planet card is worth by counterfactual play.

A run is made as ``simulate`` makes it (``simulation.runs``: reused from the folder or the
cache); ``analysis.explain_run`` then plays and reads its arms into explain.json, which this
command checks, prints and writes with explain.html (docs/simulation.md, "stargazer explain").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from stargazer_rules.errors import SimulationError
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
from stargazer_rules.frontends.cli.run_options import (
    RUN_FOLDER_FILES,
    game_count,
    out_is_a_file,
    out_refused,
    variants_or_report,
    worker_count,
)
from stargazer_rules.frontends.cli.target_options import add_target_options, targets_or_stop
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import cache, locks, runs
from stargazer_rules.rulesets.printable import printable

COMMAND = "explain"
#: The bots of the default run: greedy, as a forced arm is played a decision at a time; an MCTS
#: lineup costs its search in every arm (docs/simulation.md, "stargazer explain").
DEFAULT_EXPLAIN_BOTS = "greedy"
#: Games of the default run, and of each arm: a forced effect within about ±2 to ±3 points
#: (95%) on draft7, whose 38 arms (31,200 games) take some five minutes of one core's time
#: (docs/simulation.md, "stargazer explain").
DEFAULT_EXPLAIN_GAMES = 800


def lead_defaults() -> dict[str, str]:
    """The lineup each command a brief suggests plays by default, so that a suggested command
    names ``--bots`` only when the run's lineup is another."""
    from stargazer_rules.frontends.cli.run_options import DEFAULT_SIM_BOTS

    return {"explain": DEFAULT_EXPLAIN_BOTS, "tune": DEFAULT_SIM_BOTS}


#: The file of the figures in the output folder.
EXPLAIN_FILE = "explain.json"


def add_explain(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        COMMAND,
        help="what each crew and Planet card is worth: a seat made to take it, or the card left out, "
             "beside how often its pickers win",
        description=wrapped(
            "Make a run as simulate does (reused from OUT or the cache), then replay its games with "
            "one seat made to take each crew whenever it is free, and with each card left out of the "
            "deal, on the same deals and bot seeds. Prints a brief and writes to OUT/explain.json and "
            "OUT/explain.html what taking each crew does to a seat's wins beside how often the "
            "players who pick it win (and why, where the two differ), and what leaving each card out "
            "does to every seat's wins and to the design targets, with 95% intervals and the games "
            "needed to decide."
        ),
    )
    add_ruleset_argument(parser, positional=False)
    parser.add_argument("--players", type=positive_int, default=4, metavar="N", help="the number of players (default 4)")
    parser.add_argument(
        "--games", type=game_count, default=DEFAULT_EXPLAIN_GAMES, metavar="N",
        help=f"games of the run (default {DEFAULT_EXPLAIN_GAMES:,}); rounded up to whole rotations",
    )
    parser.add_argument(
        "--arm-games", type=game_count, default=None, metavar="N",
        help="games of each replay (a crew taken, a card left out): the run's first N (default: all the run's games)",
    )
    parser.add_argument(
        "--bots", action="append", default=None, metavar="LINEUP",
        help=f"the bots, as for simulate (default {DEFAULT_EXPLAIN_BOTS})",
    )
    parser.add_argument("--seed", action=SeedAction, default=0, metavar="S", help="the first deal seed (default 0)")
    parser.add_argument(
        "--cards", default=None, metavar="ID,ID",
        help="only these crew and Planet cards (default: every card of the ruleset)",
    )
    parser.add_argument(
        "--workers", type=worker_count, default=None, metavar="W",
        help="worker processes for the run and the replays (default: one per core); 1 plays in this process",
    )
    parser.add_argument("--out", default=None, metavar="DIR", help="the output folder (default explain-RULES-Np)")
    parser.add_argument("--cache", default=None, metavar="DIR", help="the cache folder (default as for simulate)")
    parser.add_argument("--no-cache", action="store_true", help="neither reuse nor keep the run in the cache")
    add_target_options(parser)
    parser.set_defaults(run=run_explain)


def _cards(ruleset: Ruleset, text: str | None) -> tuple[list[str], list[str]] | str:
    """(crew ids, planet ids) to explain, or why ``--cards`` names no card."""
    crews = [card.id for card in ruleset.crew]
    planets = [card.id for card in ruleset.planets]
    if text is None:
        return crews, planets
    asked = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [card for card in asked if card not in crews and card not in planets]
    if unknown or not asked:
        return printable(f"--cards {text}: {', '.join(unknown) or 'nothing'} is not a crew or Planet card of {ruleset.name}")
    return [card for card in crews if card in asked], [card for card in planets if card in asked]


def run_explain(args: argparse.Namespace) -> int:
    """Make the run, play the arms, print and write the figures; one-line errors."""
    from stargazer_rules.analysis.explain_report import EXPLAIN_PAGE
    from stargazer_rules.analysis.explain_run import explain_run

    ruleset = ruleset_or_stop(args.ruleset, COMMAND)
    args.bots = args.bots or [DEFAULT_EXPLAIN_BOTS]
    variants = variants_or_report([ruleset], args, COMMAND)
    if variants is None:
        return EXIT_USAGE
    if len(variants) > 1:  # each arm is paired with the run's games: one lineup at one player count
        say_error(COMMAND, f"plays one lineup at one player count; --bots gives {len(variants)} variants (';' separates lineups)")
        return EXIT_USAGE
    lineup = variants[0].lineup
    cards = _cards(ruleset, args.cards)
    if isinstance(cards, str):
        say_error(COMMAND, cards)
        return EXIT_USAGE
    arm_games = args.arm_games or args.games
    if arm_games > args.games:
        say_error(COMMAND, f"--arm-games {arm_games} is more than the run's --games {args.games}")
        return EXIT_USAGE
    targets = targets_or_stop(ruleset, args, COMMAND)
    default = f"explain-{ruleset.name}-{args.players}p"
    out = args.out or default
    own = RUN_FOLDER_FILES | {EXPLAIN_FILE, EXPLAIN_PAGE, locks.LOCK_FILE, locks.HOLDER_FILE}
    if out_is_a_file(out, COMMAND) or out_refused(out, COMMAND, own, default):
        return EXIT_USAGE
    try:
        with runs.holding_run_folder(out, COMMAND, cache.cache_folder(args.cache)) as held:
            report_engine(ruleset, COMMAND)
            request = runs.RunRequest(
                ruleset, held.path, lineup, players=args.players, games=args.games, seed=args.seed,
                workers=args.workers, reuse=not args.no_cache, cache=cache.cache_folder(args.cache),
            )
            outcome = runs.play_run(request, lambda text: print(text, file=sys.stderr), held)
            doc = explain_run(ruleset, list(outcome.games), lineup, targets, seed=args.seed, arm_games=arm_games,
                              crews=cards[0], planets=cards[1], engine=outcome.engine, workers=args.workers,
                              progress=_progress)
            written = _write(doc, Path(out))
    except (SimulationError, ValueError, OSError) as error:
        say_error(COMMAND, str(error))
        return EXIT_INVALID
    from stargazer_rules.analysis.explain_report import explain_brief
    from stargazer_rules.frontends.cli.run_options import DEFAULT_SIM_BOTS

    print(explain_brief(doc, rules=args.ruleset or None, compared_lineup=DEFAULT_SIM_BOTS).text())
    print(f"\nEvery figure: {written[1]} and {written[0]}")
    return 0


def _progress(done: int, replays: int, kind: str, card: str, games: int, seconds: float) -> None:
    print(f"stargazer {COMMAND}: {done} of {replays} replays done, {card} {kind}: {games:,} games in {seconds:.1f} s",
          file=sys.stderr, flush=True)


def _write(doc: dict[str, Any], out: Path) -> list[Path]:
    """explain.json, checked against its schema, and explain.html; their paths."""
    from stargazer_rules.analysis.explain_report import write_explain_page
    from stargazer_rules.formats.schema_checks import schema_problems

    problems = schema_problems("explain", doc, limit=1)
    if problems:
        raise ValueError(f"explain.json breaks its schema: {problems[0]}")
    path = out / EXPLAIN_FILE
    outputfiles.write_json(path, doc, indent=1)
    return [path, write_explain_page(doc, out)]
