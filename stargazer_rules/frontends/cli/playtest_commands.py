"""``stargazer playtest add|list|report`` (the playtest logs beside a draft, ``playtests``) and
``stargazer calibrate`` (the logs against each rung of the ladder, ``analysis.calibrate``)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

import attrs

from stargazer_rules.errors import BotSpecError, DraftError, PlaytestError, ReplayError, SimulationError, counted
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
from stargazer_rules.frontends.cli.run_options import worker_count
from stargazer_rules.playtests import folder as playtests
from stargazer_rules.playtests.figures import playtest_report, report_lines
from stargazer_rules.playtests.log import PlaytestLog, log_from_yaml_text, log_to_yaml
from stargazer_rules.rulesets import boundedfiles, outputfiles
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.printable import printable
from stargazer_rules.rulesets.resources import DEFAULT_RULESET, shown_path

#: The rungs ``calibrate`` sets the logs beside when no ladder of the draft is in the cache:
#: the two bots that do not search, then the default ladder's budgets (``ladder_command``).
BASE_RUNGS = ("random", "greedy")
#: Deals per rung: each rung's games within a few points of their figures, and the default
#: rungs on draft7 (4 players) in about three minutes on two cores (docs/simulation.md).
DEFAULT_DEALS = 200
#: How the problems of a log made from the flags name it.
FLAGS_FILE = "(the flags)"
#: The largest hand-written log read: a game's log is a few hundred bytes.
MAX_LOG_BYTES = 1024 * 1024
PLAYTEST = "playtest"
#: A figure of --score: ASCII digits (``str.isdigit`` takes '²', which ``int`` refuses).
_DIGITS = re.compile("[0-9]+")
CALIBRATE = "calibrate"


def add_playtest(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        PLAYTEST,
        help="keep the games played at the table beside the draft (add, list, report)",
        description=wrapped(
            "Playtest logs are YAML files in the draft's playtests/ folder, one a game: the date, "
            "the seats in turn order, the rounds, the crews taken each round when noted and the final "
            "score sheet (docs/play.md, \"Playtests at the table\"). Each is checked against the "
            "ruleset, every problem at file:line:column."
        ),
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    adding = actions.add_parser(
        "add", help="add a log: from a game record, a hand-written file, or the flags below; never overwrites",
        description=wrapped(
            "Add one game's log to DRAFT/playtests/: the game of a record saved by 'stargazer play', "
            "the browser table or --record (--record FILE); a hand-written log, checked and copied with "
            "its comments (--file FILE); or the flags --seats, --rounds, --score (and --picks). A file "
            "already there is never replaced."
        ),
    )
    add_ruleset_argument(adding, positional=False)
    source = adding.add_mutually_exclusive_group()
    source.add_argument("--record", metavar="FILE", help="a game record (JSON) of a finished game")
    source.add_argument("--file", metavar="FILE", help="a hand-written log (YAML) to check and copy in")
    adding.add_argument("--date", metavar="YYYY-MM-DD", help="the day of the game (default: today, or the record's)")
    adding.add_argument("--seats", metavar="A,B,C", help="the players' names in turn order, the start player first")
    adding.add_argument("--rounds", type=positive_int, metavar="N", help="the round the game ended in")
    adding.add_argument("--score", action="append", default=[], metavar="NAME=MAJ,BONUS,PLAY,TOTAL[,HAND]",
                        help="one seat's line of the final score sheet (R18); once per seat")
    adding.add_argument("--picks", action="append", default=[], metavar="CREW,CREW,...",
                        help="the crews taken in a round, in the order taken; once per round noted, from round 1")
    adding.add_argument("--notes", metavar="TEXT", help="notes on the game")
    adding.add_argument("--name", metavar="NAME", help="the log's file name (default DATE-N.yaml, the first N free)")
    adding.add_argument("--to", metavar="DIR", help="the folder to add to (default: the draft's playtests/)")
    adding.set_defaults(run=run_playtest_add)
    listing = actions.add_parser("list", help="the logs beside the draft, one line each")
    add_ruleset_argument(listing, positional=False)
    listing.add_argument("--from", dest="logs", metavar="DIR", help="the folder of logs (default: the draft's playtests/)")
    listing.set_defaults(run=run_playtest_list)
    reporting = actions.add_parser("report", help="the figures of the logs: scores, margin, bonus, rounds, crews, start player")
    add_ruleset_argument(reporting, positional=False)
    reporting.add_argument("--from", dest="logs", metavar="DIR", help="the folder of logs (default: the draft's playtests/)")
    reporting.add_argument("--json", action="store_true", help="print the figures as JSON")
    reporting.set_defaults(run=run_playtest_report)


def run_playtest_add(args: argparse.Namespace) -> int:
    command = f"{PLAYTEST} add"
    ruleset = ruleset_or_stop(args.ruleset, command)
    try:
        destination = Path(args.to) if args.to else playtests.home_folder(ruleset)
        text = flags_text = None
        if args.record:
            log = _log_of_record(args, ruleset)
        elif args.file:
            text = boundedfiles.read_text(args.file, MAX_LOG_BYTES, "playtest log")
            log = log_from_yaml_text(text, args.file, ruleset)
        else:
            flags_text = _flags_text(args, ruleset)
            log = log_from_yaml_text(flags_text, FLAGS_FILE, ruleset)
        path = playtests.add_log(ruleset, log, args.name, destination, text)
    except PlaytestError as error:
        print(str(error), file=sys.stderr)
        if flags_text is not None:
            print(f"{FLAGS_FILE} is the log the flags make:", file=sys.stderr)
            for number, line in enumerate(flags_text.splitlines(), start=1):
                print(f"  {number:>3}  {printable(line)}", file=sys.stderr)
        return EXIT_INVALID
    except (DraftError, ReplayError, OSError, ValueError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    print(f"added {printable(str(path))}: {_one_line(log)}")
    return 0


def _log_of_record(args: argparse.Namespace, ruleset: Ruleset) -> PlaytestLog:
    from stargazer_rules.frontends.terminal.replay import load_record
    from stargazer_rules.playtests.sources import log_from_record

    game, record = load_record(args.record, ruleset.source or ruleset.name)
    log = log_from_record(game, record, source=f"game record {os.path.basename(args.record)}")
    if args.date or args.notes:
        log = attrs.evolve(log, date=args.date or log.date, notes=args.notes)
    return log_from_yaml_text(log_to_yaml(log), args.record, ruleset)  # checked like any log


def _flags_text(args: argparse.Namespace, ruleset: Ruleset) -> str:
    """The log the flags describe, as YAML: it is read back through the log's checks, so that
    a mistake is named as in a file (``FLAGS_FILE``, printed with its lines)."""
    missing = [flag for flag, value in (("--seats", args.seats), ("--rounds", args.rounds), ("--score", args.score)) if not value]
    if missing:
        raise ValueError(f"give {', '.join(missing)} (or --record FILE, or --file FILE)")
    seats = [name.strip() for name in args.seats.split(",")]
    scores = {}
    for entry in args.score:
        name, equals, numbers = entry.partition("=")
        parts = [part.strip() for part in numbers.split(",")]
        if not equals or len(parts) not in (4, 5) or not all(_DIGITS.fullmatch(part) for part in parts):
            raise ValueError(f"--score {entry!r}: write NAME=MAJORITY,BONUS,PLAY,TOTAL or NAME=MAJORITY,BONUS,PLAY,TOTAL,HAND")
        if name.strip() in scores:
            raise ValueError(f"--score {printable(name.strip())!r} is given twice: one --score a seat")
        scores[name.strip()] = [int(part) for part in parts]
    lines = [f"date: {args.date or datetime.date.today().isoformat()}", f"ruleset: {json.dumps(ruleset.name)}",
             f"fingerprint: {ruleset.fingerprint}", f"seats: {json.dumps(seats, ensure_ascii=False)}", f"rounds: {args.rounds}"]
    if args.picks:
        lines.append("picks:")
        lines += [f"  - {json.dumps([crew.strip() for crew in crews.split(',')])}" for crews in args.picks]
    lines.append("scores:")
    for name, numbers in scores.items():
        keys = ("majority", "bonus", "play", "total", "hand")
        lines.append(f"  {json.dumps(name, ensure_ascii=False)}: {{{', '.join(f'{k}: {v}' for k, v in zip(keys, numbers))}}}")
    if args.notes:
        lines.append(f"notes: {json.dumps(args.notes, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _one_line(log: PlaytestLog) -> str:
    winners = " and ".join(printable(log.seats[position]) for position in log.winners)
    best = log.scores[log.winners[0]].total
    picks = f", crews noted for {counted(len(log.picks), 'round|rounds')}" if log.picks else ""
    return f"{log.date}, {len(log.seats)} players, {counted(log.rounds, 'round|rounds')}, won by {winners} with {best}{picks}"


def _read(args: argparse.Namespace, ruleset: Ruleset, command: str) -> playtests.ReadLogs | None:
    where = Path(args.logs) if args.logs else playtests.playtests_folder(ruleset)
    files = playtests.log_files(where) if where is not None else []
    if not files:
        say_error(command, f"no playtest logs in {where}: add one with stargazer playtest add")
        return None
    try:
        found = playtests.read_logs(files, ruleset)
    except DraftError as error:
        say_error(command, f"{where}: {error}")
        return None
    for problem in found.problems:
        print(problem, file=sys.stderr)
    return found


def _logs_or_stop(args: argparse.Namespace, ruleset: Ruleset, command: str, what: str) -> playtests.ReadLogs | None:
    """Every log read, or None once it has said why ``command`` stops: there are none, or one
    has problems (printed above), which ``what`` ("a report") cannot leave out."""
    found = _read(args, ruleset, command)
    if found is None:
        return None
    if found.problems:
        say_error(command, f"fix the logs above first: {what} counts every log")
        return None
    return found


def run_playtest_list(args: argparse.Namespace) -> int:
    command = f"{PLAYTEST} list"
    ruleset = ruleset_or_stop(args.ruleset, command)
    found = _read(args, ruleset, command)
    if found is None:
        return EXIT_INVALID
    for path, log in zip(found.files, found.logs, strict=True):
        earlier = " (an earlier version of the draft)" if log.fingerprint not in (None, ruleset.fingerprint) else ""
        print(f"{printable(path.name)}: {_one_line(log)}{earlier}")
    bad = len({problem.file for problem in found.problems})
    print(f"{counted(len(found.logs), 'log|logs')}" + (f"; {bad} with problems (above), not counted" if bad else ""))
    return EXIT_INVALID if bad else 0


def run_playtest_report(args: argparse.Namespace) -> int:
    command = f"{PLAYTEST} report"
    ruleset = ruleset_or_stop(args.ruleset, command)
    found = _logs_or_stop(args, ruleset, command, "a report")
    if found is None:
        return EXIT_INVALID
    report = playtest_report(found.logs)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else "\n".join(report_lines(report)))
    return 0


def add_calibrate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        CALIBRATE,
        help="which strength of bots do the people at the table play like?",
        description=wrapped(
            "Play each level of bots, from random and greedy to MCTS bots that search longer (every "
            "seat played by that bot), and set its games beside the playtest logs on final scores, "
            "winning margin, major-planet bonus, rounds, crew pick shares and the start player's win "
            "share; name the fastest level the people play like, or say that none does and where the "
            "closest differs, and how many more logs would tell the levels apart. Each level's games "
            "are simulate's, reused from the cache when there. Writes OUT/calibration.json and "
            "OUT/calibration.html."
        ),
    )
    add_ruleset_argument(parser, positional=False)
    parser.add_argument("--from", dest="logs", metavar="DIR", help="the folder of logs (default: the draft's playtests/)")
    parser.add_argument("--players", type=positive_int, default=None, metavar="N",
                        help="the player count compared (default: the one most logs have); other logs are left out")
    parser.add_argument("--rungs", default=None, metavar="BOT,BOT,...",
                        help="the levels of bots to play, weakest first, as bot specs (random, greedy, mcts:100: an "
                             "MCTS bot's number is how long it searches); default: random, greedy, and the MCTS "
                             "budgets of the draft's ladder in the cache, else of the default ladder")
    parser.add_argument("--deals", type=positive_int, default=DEFAULT_DEALS, metavar="N",
                        help=f"deals each level plays (default {DEFAULT_DEALS:,}); each is played in every rotation, "
                             "one game a deal compared")
    parser.add_argument("--seed", action=SeedAction, default=0, metavar="S", help="the first deal seed (default 0, as simulate's)")
    parser.add_argument("--workers", type=worker_count, default=None, metavar="W", help="worker processes (default: one per core)")
    parser.add_argument("--out", default=None, metavar="DIR", help="the output folder (default calibration-RULES-Np)")
    parser.add_argument("--cache", default=None, metavar="DIR", help="the cache folder of runs (default: as simulate's)")
    parser.add_argument("--no-cache", action="store_true", help="play every level's games again")
    parser.set_defaults(run=run_calibrate)


def _rungs(args: argparse.Namespace, ruleset: Ruleset, players: int) -> list[str]:
    if args.rungs is not None:
        return [rung.strip() for rung in args.rungs.split(",") if rung.strip()]
    from stargazer_rules.frontends.cli.ladder_command import DEFAULT_BUDGETS
    from stargazer_rules.simulation import cache, ladder

    found = ladder.find_ladder(ruleset.fingerprint, players, cache.cache_folder(args.cache))
    budgets = found["budgets"] if found is not None else DEFAULT_BUDGETS
    return [*BASE_RUNGS, *ladder.budget_tiers(budgets)]


def run_calibrate(args: argparse.Namespace) -> int:
    from stargazer_rules.analysis.calibrate import CALIBRATION_FORMAT, calibrate
    from stargazer_rules.analysis.calibration_report import calibration_brief, write_calibration_page
    from stargazer_rules.playtests.sources import log_from_game_line
    from stargazer_rules.simulation import cache
    from stargazer_rules.simulation.estimate import format_duration
    from stargazer_rules.simulation.rung_runs import checked_rungs, one_per_deal, rung_run, rungs_estimate

    ruleset = ruleset_or_stop(args.ruleset, CALIBRATE)
    found = _logs_or_stop(args, ruleset, CALIBRATE, "a calibration")
    if found is None:
        return EXIT_INVALID
    counts = Counter(log.players for log in found.logs)
    players = args.players or counts.most_common(1)[0][0]
    logs = [log for log in found.logs if log.players == players]
    if not logs:
        say_error(CALIBRATE, f"no log of {players} players (the logs have {', '.join(map(str, sorted(counts)))})")
        return EXIT_USAGE
    if len(logs) < len(found.logs):
        say_error(CALIBRATE, f"comparing the {len(logs)} logs of {players} players; {len(found.logs) - len(logs)} of other counts left out")
    out = Path(args.out or f"calibration-{ruleset.name}-{players}p")
    try:  # every rung checked, and the time said, before any plays
        rungs = checked_rungs(_rungs(args, ruleset, players), players)
        seconds = rungs_estimate(ruleset, rungs, players=players, deals=args.deals, seed=args.seed, workers=args.workers)
    except (SimulationError, BotSpecError) as error:
        say_error(CALIBRATE, str(error))
        return EXIT_USAGE
    report_engine(ruleset, CALIBRATE)
    say_error(CALIBRATE, f"{counted(len(rungs), 'level|levels')} of bots ({', '.join(rungs)}), {args.deals * players:,} games each: "
                         f"at most about {format_duration(seconds)} in all (timed on one game a level; runs in the cache are reused)")
    games = {}
    try:
        for rung in rungs:
            outcome = rung_run(
                ruleset, rung, players=players, deals=args.deals, out=out, seed=args.seed, workers=args.workers,
                cache=cache.cache_folder(args.cache), reuse=not args.no_cache,
                say=lambda text: print(text, file=sys.stderr),
            )
            if outcome.played:
                print(f"{rung}: played {counted(outcome.played, 'game|games')} in {outcome.seconds:.1f} s", file=sys.stderr)
            games[rung] = [log_from_game_line(line) for line in one_per_deal(outcome.games)]
    except (SimulationError, BotSpecError, ValueError, OSError) as error:
        say_error(CALIBRATE, str(error))
        return EXIT_INVALID
    result = {
        "format": CALIBRATION_FORMAT,
        "ruleset": {"name": ruleset.name, "fingerprint": ruleset.fingerprint},
        "players": players, "deals": args.deals, "seed": args.seed,
        **calibrate(logs, games, seed=args.seed),
    }
    named = result["verdict"]["fastest"] or result["verdict"]["closest"]
    if named is not None:
        bundled = not ruleset.source or shown_path(ruleset.source).startswith("bundled ")
        given = ruleset.name if bundled else ruleset.source
        rules = "" if bundled and ruleset.name == DEFAULT_RULESET else f" --rules {given}"
        result["report_command"] = f"stargazer simulate{rules} --players {players} --bots {named}"
    path = out / "calibration.json"
    outputfiles.output_folder(out)
    outputfiles.write_json(path, result, indent=2)
    written = write_calibration_page(result, out)
    print(calibration_brief(result).text())
    print(f"\nEvery figure: {written} and {path}")
    return 0

