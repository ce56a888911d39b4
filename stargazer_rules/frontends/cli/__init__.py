"""The ``stargazer`` command line: one module per group of commands, each command a pair of functions.

``add_NAME(commands)`` declares a sub-command's arguments and help; ``run_NAME(args)`` calls the
layers below and prints, returning the exit status; no command holds the logic of what it runs
(a simulation's reuse, estimate and merging live in ``simulation.runs``). The groups:
``ruleset_commands`` (validate, rules, new-draft, diff), ``play_commands`` (play-random, play,
replay), ``playtest_commands`` (playtest, calibrate), ``run_commands`` (simulate, compare, report), ``cache_command``, ``ladder_command``, ``explain_command``,
``tune_command``, ``serve_command``,
``print_command``; ``common`` holds what they share (exit statuses, one-line errors, the extra each
command needs beyond the core install (``COMMAND_EXTRAS``, checked before it runs), the ruleset
and language options, loading a ruleset). ``main`` only parses and dispatches, so adding a
command is adding one such pair and one line in ``build_parser``.
"""


from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from stargazer_rules.errors import CommandStopped, FileRefused
from stargazer_rules.frontends.cli.common import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_USAGE, require_extra, say_error
from stargazer_rules.frontends.cli.explain_command import add_explain
from stargazer_rules.frontends.cli.ladder_command import add_ladder
from stargazer_rules.frontends.cli.play_commands import add_play, add_play_random, add_replay
from stargazer_rules.frontends.cli.playtest_commands import add_calibrate, add_playtest
from stargazer_rules.frontends.cli.print_command import add_print
from stargazer_rules.frontends.cli.ruleset_commands import add_diff, add_new_draft, add_rules, add_validate
from stargazer_rules.frontends.cli.cache_command import add_cache
from stargazer_rules.frontends.cli.run_commands import add_compare, add_report, add_simulate
from stargazer_rules.frontends.cli.run_options import scheduler_problem
from stargazer_rules.frontends.cli.serve_command import add_serve
from stargazer_rules.frontends.cli.tune_command import add_tune

#: The analysis's matrix products are small (a thousand resamples by the games by a few dozen
#: parts): BLAS threads spin on the other cores for them and double the CPU a report takes,
#: for no gain on a machine whose cores the simulation's workers use. A value set is kept.
ONE_THREAD_BLAS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stargazer`` command with ``argv`` (default: the process arguments)."""
    for name in ONE_THREAD_BLAS:  # before numpy is first imported, by the command that needs it
        os.environ.setdefault(name, "1")
    command = ""
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(words)
        args.argv = words  # what the command was given, for a line that says how to go on
        command = f" {args.command}"
        require_extra(args.command)
        scheduler = getattr(args, "scheduler", None)
        if scheduler is not None and (problem := scheduler_problem(scheduler)) is not None:
            say_error(args.command, problem)  # before the command makes any folder
            return EXIT_USAGE
        return args.run(args)
    except CommandStopped as stopped:
        return stopped.status
    except FileRefused as refused:
        # A file refused where a command did not look for it (a link or a FIFO at an output
        # name, rulesets.outputfiles): still one line, never a traceback.
        print(f"stargazer{command}: {refused}", file=sys.stderr)
        return EXIT_INVALID
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
    add_validate(commands)
    add_rules(commands)
    add_new_draft(commands)
    add_play_random(commands)
    add_simulate(commands)
    add_compare(commands)
    add_ladder(commands)
    add_explain(commands)
    add_calibrate(commands)
    add_tune(commands)
    add_diff(commands)
    add_report(commands)
    add_play(commands)
    add_replay(commands)
    add_playtest(commands)
    add_serve(commands)
    add_print(commands)
    add_cache(commands)
    return parser
