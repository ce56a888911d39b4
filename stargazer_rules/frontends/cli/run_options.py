"""The options every command that plays runs shares (simulate, compare, report, ladder, tune):
their defaults, the lineup syntax, and the checks of --games, --workers, --scheduler, --out, the
cache's bound and the lineups and player counts (variants), each a usage error of one line; and
the command that finishes an interrupted run."""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Collection, Sequence

from stargazer_rules import simulation
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, SetupError, SimulationError
from stargazer_rules.frontends.cli.common import positive_int, say_error
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.boundedfiles import excerpt
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.printable import forbidden_character, printable
from stargazer_rules.simulation import cache, locks, run_folder
from stargazer_rules.simulation.scheduler import port_number
from stargazer_rules.simulation.variants import VARIANT_SEPARATOR, Variant, parse_player_counts, parse_variants

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
    "one_variant",
    "player_counts",
    "variants_or_report",
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

variants:
  Several lineups, separated by '{VARIANT_SEPARATOR}' (quote them for the shell), and several player counts,
  separated by ',', play one run per lineup and player count in the same command:
    --bots 'greedy{VARIANT_SEPARATOR}mcts:200' --players 3,4    four runs: 3p greedy, 3p mcts:200, 4p greedy, 4p mcts:200
  Each run goes to OUT/<variant> (e.g. OUT/3p-greedy), is judged by the targets that apply to
  it (targets.yaml's players and lineups), and OUT/variants.json and variants.html say whether
  the verdict holds at all of them. The runs at one player count play the same deals.
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


def player_counts(text: str) -> tuple[int, ...]:
    """A ``--players`` value: one player count (``4``) or several (``3,4``)."""
    try:
        return parse_player_counts(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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


def variants_or_report(
    rulesets: Sequence[Ruleset], args: argparse.Namespace, command: str
) -> tuple[Variant, ...] | None:
    """The variants of ``--bots`` and ``--players`` (``simulation.variants``), or None after a
    one-line error (a player count the rulesets do not support, an unknown bot, more bots than
    players, a lineup given twice)."""
    counts = args.players if isinstance(args.players, tuple) else (args.players,)
    for ruleset in rulesets:
        for players in counts:
            try:
                Game(ruleset).deal(players, seed=0)
            except SetupError as error:
                say_error(command, f"{ruleset.name}: {error}")
                return None
    try:
        return parse_variants(args.bots or [DEFAULT_SIM_BOTS], counts)
    except (BotSpecError, SimulationError) as error:
        say_error(command, str(error))
        return None


def one_variant(args: argparse.Namespace, variant: Variant) -> argparse.Namespace:
    """The options of one variant's run: ``args`` with its one player count and lineup."""
    return argparse.Namespace(**{**vars(args), "players": variant.players, "bots": ["/".join(variant.lineup)]})


def out_is_a_file(out: str, command: str) -> bool:
    """True, after a one-line say_error, when ``--out`` names a file (a run needs a folder), or
    a name the system cannot use (too long, a symlink loop, through a file)."""
    try:
        os.stat(out)
    except FileNotFoundError:
        pass
    except OSError as error:
        refused = outputfiles.path_problem(error, out)
        if refused is None:
            raise
        say_error(command, f"--out {refused}")
        return True
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
    inside = RUN_FOLDER_FILES | COMPARISON_FOLDER_FILES | set(own) if runs_inside else None
    found = run_folder.foreign_names(out, own, inside=inside, most=SHOWN_NAMES + 1)
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
    """Why ``address`` is not a scheduler address (``tcp://HOST:PORT``), or None; the command
    line checks it before a command starts (``cli.main``), so nothing is made for a run that
    cannot connect."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    shown = printable(excerpt(address))
    if not sep or scheme not in ("tcp", "tls") or not colon or not host or forbidden_character(host):
        return f"--scheduler {shown} is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"
    if port_number(port) is None:
        return f"--scheduler {shown}: {excerpt(port, 20)!r} is not a port of 1 to 65535 (in digits 0-9)"
    return None
