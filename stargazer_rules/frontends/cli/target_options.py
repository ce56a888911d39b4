"""The design targets on the command line: ``--targets FILE`` and ``--bound NAME=VALUE``.

The targets a run is judged by are ``--targets FILE``, else the targets.yaml beside the ruleset's
files, else the defaults (``analysis.targets_file.targets_for``); each ``--bound`` then changes one
setting or one target's goal (``Targets.with_settings``). A targets file with problems stops the
command before any game is played, every problem on its own line with file:line (exit 1); a
``--bound`` that names nothing is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import sys

import attrs

from stargazer_rules.analysis.targets import LEGACY_BOUNDS, Settings, Targets, parse_setting
from stargazer_rules.errors import CommandStopped, TargetsError
from stargazer_rules.frontends.cli.common import EXIT_INVALID, EXIT_USAGE, say_error
from stargazer_rules.rulesets.model import Ruleset

__all__ = ["add_target_options", "targets_or_stop"]


def add_target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--targets",
        default=None,
        metavar="FILE",
        help=(
            "the design targets to judge the run by (default: the targets.yaml beside the ruleset's "
            "files, else the defaults; docs/simulation.md, \"Design targets\")"
        ),
    )
    settings = ", ".join(field.name for field in attrs.fields(Settings))
    parser.add_argument(
        "--bound",
        dest="bound_settings",
        action=_BoundAction,
        default=[],
        metavar="NAME=VALUE",
        help=(
            "change one setting or the goal of one measure's targets, e.g. tie_rate=0.15 or "
            "game_rounds=6..9 (repeatable). Settings: "
            f"{settings}; the bounds' former names ({', '.join(LEGACY_BOUNDS)}) set their default target"
        ),
    )


class _BoundAction(argparse.Action):
    """Each ``--bound NAME=VALUE`` is checked at once (a bad one is a usage error) and kept in order."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        try:
            parse_setting(values)
        except ValueError as error:
            raise argparse.ArgumentError(self, str(error)) from None
        setattr(namespace, self.dest, [*getattr(namespace, self.dest), values])


def targets_or_stop(ruleset: Ruleset | None, args: argparse.Namespace, command: str) -> Targets:
    """The run's targets (see the module docstring); ``CommandStopped`` after saying why not."""
    from stargazer_rules.analysis.targets_file import targets_for

    try:
        targets = targets_for(ruleset, getattr(args, "targets", None))
    except TargetsError as error:
        for problem in error.problems:
            say_error(command, str(problem))
        count = len(error.problems)
        print(f"{command}: {count} problem{'s' if count != 1 else ''} in the targets; no game was played", file=sys.stderr)
        raise CommandStopped(EXIT_INVALID) from None
    try:
        return targets.with_settings(getattr(args, "bound_settings", []))
    except ValueError as error:
        say_error(command, f"--bound {error}")
        raise CommandStopped(EXIT_USAGE) from None


def external_figures(fingerprint: str, players: int, args: argparse.Namespace) -> dict[str, float]:
    """Figures a target can name that no game counts: ``skill_depth`` from the latest
    ``stargazer ladder`` of this ruleset and player count in the cache (none: not yet known)."""
    from stargazer_rules.simulation.ladder import find_ladder

    ladder = find_ladder(fingerprint, players, getattr(args, "cache", None))
    return {} if ladder is None else {"skill_depth": float(ladder["skill_depth"])}
