"""The options every command that plays runs shares (simulate, compare, report, ladder, tune):
their defaults, the lineup syntax, and the checks of --games, --workers, --scheduler, --out and the
lineup, each a usage error of one line."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from stargazer_rules import simulation
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, SetupError, SimulationError
from stargazer_rules.frontends.cli.common import positive_int, say_error
from stargazer_rules.rulesets.model import Ruleset

__all__ = [
    "DEFAULT_SIM_BOTS",
    "DEFAULT_SIM_GAMES",
    "DEFAULT_SIM_PLAYERS",
    "LINEUP_HELP",
    "game_count",
    "lineup_or_report",
    "out_is_a_file",
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


def scheduler_problem(address: str) -> str | None:
    """Why ``address`` is not a scheduler address (``tcp://HOST:PORT``), or None."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in ("tcp", "tls") or not colon or not host:
        return f"--scheduler {address} is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"--scheduler {address}: {port!r} is not a port of 1 to 65535"
    return None
