"""The options every command that plays runs shares (simulate, compare, report, ladder, tune):
their defaults, the lineup syntax, and the checks of --games, --workers, --scheduler, --out, the
cache's bound and the lineup, each a usage error of one line; and the command that finishes an
interrupted run."""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Collection, Sequence

from stargazer_rules import simulation
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, SetupError, SimulationError
from stargazer_rules.frontends.cli.common import positive_int, say_error
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import cache, locks, run_folder

__all__ = [
    "COMPARISON_FOLDER_FILES",
    "DEFAULT_SIM_BOTS",
    "DEFAULT_SIM_GAMES",
    "DEFAULT_SIM_PLAYERS",
    "LINEUP_HELP",
    "RUN_FOLDER_FILES",
    "cache_bound_refused",
    "finishing_command",
    "game_count",
    "lineup_or_report",
    "out_is_a_file",
    "out_refused",
    "scheduler_problem",
    "worker_count",
]

#: ``simulate`` and ``compare`` defaults: equal competent bots in every seat, and enough
#: 4-player games for each seat's win rate within about ±2 points (95%), which two cores play
#: in about a minute (docs/simulation.md, "Defaults").
DEFAULT_SIM_PLAYERS = 4
DEFAULT_SIM_GAMES = 1800

#: The default lineup of simulate and compare: the strongest bots that keep the default run
#: (1,800 four-player draft-7 games) near a minute on two cores (docs/simulation.md, "Defaults").
DEFAULT_SIM_BOTS = "mcts:200"

#: The lineup syntax, shown under the options of simulate and compare.
LINEUP_HELP = f"""\
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


def game_count(text: str) -> int:
    """A ``--games`` value: 1 to the most games a run plays (``runner.MAX_GAMES``)."""
    value = positive_int(text)
    most = simulation.runner.MAX_GAMES
    if value > most:
        raise argparse.ArgumentTypeError(
            f"{value:,} games is more than a run may play ({most:,}): give at most {most}, "
            "or split the work into runs with other --seed values"
        )
    return value


def worker_count(text: str) -> int:
    """A ``--workers`` value: 1 to the most worker processes a run starts (``runner.MAX_WORKERS``)."""
    value = positive_int(text)
    most = simulation.runner.MAX_WORKERS
    if value > most:
        raise argparse.ArgumentTypeError(
            f"{value:,} workers is more than a run starts ({most}): give at most {most}; "
            f"the default, one per core, is {os.cpu_count() or 1} here"
        )
    return value


def lineup_or_report(
    rulesets: Sequence[Ruleset], args: argparse.Namespace, command: str
) -> tuple[str, ...] | None:
    """The lineup for ``args.players`` seats, or None after a one-line error (players the
    rulesets do not support, an unknown bot, more bots than players)."""
    for ruleset in rulesets:
        try:
            Game(ruleset).deal(args.players, seed=0)
        except SetupError as error:
            say_error(command, f"{ruleset.name}: {error}")
            return None
    try:
        return simulation.parse_lineup(args.bots or [DEFAULT_SIM_BOTS], args.players)
    except (BotSpecError, SimulationError) as error:
        say_error(command, str(error))
        return None


def out_is_a_file(out: str, command: str) -> bool:
    """True, after a one-line say_error, when ``--out`` names a file (a run needs a folder)."""
    if os.path.exists(out) and not os.path.isdir(out):
        say_error(command, f"--out {out} is a file, not a folder: name a folder for the run's files")
        return True
    return False


#: What a simulate run writes in its folder: the runner's files and the report's.
RUN_FOLDER_FILES = run_folder.RUN_FILES | {"summary.json", "report.html"}
#: What a comparison writes in its folder, beside the folders of its two runs.
COMPARISON_FOLDER_FILES = frozenset({"comparison.json", "comparison.html", locks.LOCK_FILE, locks.HOLDER_FILE})
#: At most this many names of what is not a run's are shown; the rest are counted.
SHOWN_NAMES = 3


def out_refused(out: str, command: str, own: Collection[str], default: str, *, runs_inside: bool = False) -> bool:
    """True, after a one-line say_error, when the folder ``out`` holds what the command did
    not write (``own``, and with ``runs_inside`` the folders of runs): a run writes only into
    a new or empty folder or one of its own, never among a user's files (``--out /``, a home
    folder, a folder of other runs). The line names a few of them and another folder to give."""
    found = run_folder.foreign_names(out, own, runs_inside=runs_inside, most=SHOWN_NAMES + 1)
    if not found:
        return False
    shown = ", ".join(found[:SHOWN_NAMES]) + (" and more" if len(found) > SHOWN_NAMES else "")
    other = default if os.path.realpath(default) != os.path.realpath(out) else f"{default}-2"
    say_error(
        command,
        f"--out {out} holds what this command did not write ({shown}): it writes only into a new or empty folder "
        f"or one of its own; choose another, e.g. --out {other}",
    )
    return True


def cache_bound_refused(command: str) -> bool:
    """True, after a one-line say_error, when ``$STARGAZER_CACHE_SIZE`` is not a size: said
    before anything is played, not after the run when it is kept."""
    try:
        cache.cache_bound()
    except ValueError as error:
        say_error(command, str(error))
        return True
    return False


def finishing_command(argv: Sequence[str]) -> str:
    """The command line that finishes an interrupted run, keeping every game it played:
    the same options with ``--resume`` (which keeps the folder's games even with
    ``--no-cache``)."""
    words = list(argv)
    if "--resume" not in words:
        words.append("--resume")
    return shlex.join(["stargazer", *words])


def scheduler_problem(address: str) -> str | None:
    """Why ``address`` is not a scheduler address (``tcp://HOST:PORT``), or None."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in ("tcp", "tls") or not colon or not host:
        return f"--scheduler {address} is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"--scheduler {address}: {port!r} is not a port of 1 to 65535"
    return None
