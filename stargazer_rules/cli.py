"""The ``stargazer`` command line: one sub-command per job, each a pair of functions.

``_add_NAME(commands)`` declares a sub-command's arguments and help; ``run_NAME(args)`` does the
work and returns the exit status. ``main`` only parses and dispatches, so adding a command is
adding one such pair and one line in ``build_parser``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from stargazer_rules.errors import RulesetError
from stargazer_rules.loader import load_ruleset
from stargazer_rules.resources import DEFAULT_RULESET, bundled_ruleset_names
from stargazer_rules.ruleset import Ruleset

#: Exit status of a command whose input is wrong (an invalid ruleset); argparse uses 2.
EXIT_INVALID = 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stargazer`` command with ``argv`` (default: the process arguments)."""
    args = build_parser().parse_args(argv)
    return args.run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stargazer",
        description="The rules of the board game Stargazer as validated data.",
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _add_validate(commands)
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
        for problem in error.problems:
            print(problem)
        count = len(error.problems)
        print(f"{shown}: {count} problem{'s' if count != 1 else ''}", file=sys.stderr)
        return EXIT_INVALID
    print(f"{shown}: valid — {summary(ruleset)}")
    return 0


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
