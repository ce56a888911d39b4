"""The commands about a ruleset itself: ``validate``, ``rules``, ``new-draft``, ``diff``."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from stargazer_rules.errors import DraftError, RulesetError, counted
from stargazer_rules.frontends.cli.common import (
    EXIT_INVALID,
    add_lang,
    add_ruleset_argument,
    report_ruleset_error,
    report_warnings,
    ruleset_or_list_problems,
    ruleset_or_stop,
    say_error,
    summary,
    wrapped,
)
from stargazer_rules.rulesets import drafts
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import DEFAULT_RULESET, TARGETS_FILE, TUNE_FILE, bundled_ruleset_names
from stargazer_rules.text import reports


def add_validate(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "validate",
        help="check a ruleset folder and report every problem",
        description=(
            "Check a ruleset folder (rules.yaml, planets.yaml, crew.yaml) against the schemas "
            "and the cross-file rules, and the targets.yaml and tune.yaml beside them when there "
            "are, as simulate and tune read them. Prints every problem as file:line:column: path: message "
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
    ruleset = ruleset_or_list_problems(args.ruleset)
    beside = _beside_problems(ruleset)
    if beside:
        for _, problems in beside:
            for problem in problems:
                print(problem)
        files = " and ".join(f"{counted(len(problems), 'problem|problems')} in its {name}" for name, problems in beside)
        print(f"{shown}: the ruleset is valid; {files}", file=sys.stderr)
        return EXIT_INVALID
    print(f"{shown}: valid — {summary(ruleset)}")
    borrowed = drafts.borrowed_title(ruleset)
    for warning in ruleset_warnings(ruleset) + ([borrowed] if borrowed else []):
        print(f"warning: {warning}")
    return 0


def _beside_problems(ruleset: Ruleset) -> list[tuple[str, list]]:
    """The problems of the files read beside the ruleset (targets.yaml, tune.yaml), by file:
    each is checked against the ruleset as ``simulate`` and ``tune`` read it, so a draft that
    validates runs them without a surprise. A ruleset without such a file has none."""
    from stargazer_rules.analysis.targets_file import read_targets, targets_beside
    from stargazer_rules.errors import SpaceError, TargetsError
    from stargazer_rules.tuning.space import read_space, space_beside

    found = []
    for name, beside, read, error in (
        (TARGETS_FILE, targets_beside, read_targets, TargetsError),
        (TUNE_FILE, space_beside, read_space, SpaceError),
    ):
        path = beside(ruleset)
        if path is None:
            continue
        try:
            read(path, ruleset)
        except error as refused:
            found.append((name, list(refused.problems)))
    return found


def add_rules(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rules",
        help="print a ruleset as readable tables, skills as sentences",
        description=(
            "Print a ruleset as tables: its title and fingerprint, the rule counts, the setup "
            "per player count, the colours, every planet with its track and every crew with "
            "its skill as sentences. Placeholder values (R20) are marked with *."
        ),
    )
    add_ruleset_argument(parser, positional=True)
    add_lang(parser)
    parser.set_defaults(run=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    """Print the ruleset's tables (exit 0), or a one-line error (exit 1)."""
    ruleset = ruleset_or_stop(args.ruleset, "rules")
    # On a terminal the tables fit its width; piped or saved, each cell stays on its own line.
    fit = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    print(reports.ruleset_report(ruleset, args.lang, fit=fit))
    return 0


def add_new_draft(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "new-draft",
        help="copy a ruleset's YAML and schemas to a new folder to edit (the next draft)",
        description=wrapped(
            "Copy the three YAML files of a ruleset (a bundled one, or a folder) to the new "
            "folder DEST, set the ruleset's name, and put the JSON Schemas in DEST/schemas with "
            "each file's schema line pointing at them, so an editor with the YAML language "
            "server completes and checks the files wherever DEST is. Comments are kept. The "
            "copy is checked before it takes DEST's place; nothing is overwritten."
        ),
    )
    parser.add_argument("dest", metavar="DEST", help="the new folder (must not exist, or be empty)")
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        metavar="DIR",
        help=f"the ruleset to start from: a folder or a bundled name ({names}); default {DEFAULT_RULESET}",
    )
    parser.add_argument(
        "--name",
        default=None,
        help=(
            "the new ruleset's name in rules.yaml (default: DEST's folder name); the title in both "
            "languages follows it (draft8: 'Stargazer draft 8', 'スターゲイザー 草案８')"
        ),
    )
    parser.set_defaults(run=run_new_draft)


def run_new_draft(args: argparse.Namespace) -> int:
    """Make the copy and say what to do next; one-line errors."""
    command = "new-draft"
    source = args.source if args.source is not None else DEFAULT_RULESET
    try:
        ruleset = drafts.new_draft(args.dest, source, args.name)
    except RulesetError as error:
        report_ruleset_error(error, source, command)
        return EXIT_INVALID
    except (DraftError, OSError) as error:
        say_error(command, str(error))
        return EXIT_INVALID
    report_warnings(ruleset, command)
    dest = args.dest
    print(f"{dest}: {ruleset.name}, copied from {source} — {summary(ruleset)}")
    print(
        f"title: {ruleset.title.en} / {ruleset.title.ja}\n"
        f"next: edit {os.path.join(dest, 'rules.yaml')}, planets.yaml and crew.yaml; "
        f"'stargazer validate {dest}'; 'stargazer compare {source} {dest}'"
    )
    return 0


def add_diff(commands: argparse._SubParsersAction) -> None:
    names = ", ".join(bundled_ruleset_names())
    parser = commands.add_parser(
        "diff",
        help="list what differs between two rulesets, card by card and knob by knob",
        description=(
            "Compare ruleset A with ruleset B without playing: every knob, setup, colour, "
            "planet and crew card added, removed or changed (old -> new)."
        ),
    )
    parser.add_argument("a", metavar="A", help=f"the first ruleset: a folder or a bundled name ({names})")
    parser.add_argument("b", metavar="B", help="the second ruleset")
    parser.add_argument("--json", action="store_true", help="print the changes as a JSON list")
    parser.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    """Print the rules diff of A and B; one-line errors for a ruleset that does not load."""
    from stargazer_rules.rulesets.diff import diff_rulesets, format_changes

    first = ruleset_or_stop(args.a, "diff")
    second = ruleset_or_stop(args.b, "diff")
    changes = diff_rulesets(first, second)
    if args.json:
        print(json.dumps([change.to_json() for change in changes], ensure_ascii=False, indent=2))
    else:
        a, b = short_fingerprint(first.fingerprint), short_fingerprint(second.fingerprint)
        print(f"A = {first.name} ({a}), B = {second.name} ({b})")
        print("\n".join(format_changes(changes)))
    return 0
