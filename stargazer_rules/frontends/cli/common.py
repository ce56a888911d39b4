"""What every command of the ``stargazer`` command line shares: exit statuses, one-line errors,
the extra a command needs beyond the core install (checked before it runs), the ruleset and
language options, and loading a ruleset or saying why not."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import textwrap
from collections.abc import Mapping, Sequence

import attrs

from stargazer_rules.engine.seeds import seed_problem
from stargazer_rules.errors import CommandStopped, RulesetError, install_line
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import load_ruleset, short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import DEFAULT_RULESET, bundled_ruleset_names
from stargazer_rules.rulesets.yamlsource import number_from_text
from stargazer_rules.simulation.runner import game_of
from stargazer_rules.text.messages import LANGS

#: Exit status of a command whose input is wrong (an invalid ruleset); argparse uses 2.
EXIT_INVALID = 1


#: Exit status of a usage error: argparse's, and a player count the ruleset does not support.
EXIT_USAGE = 2


#: Exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
EXIT_INTERRUPTED = 130


#: The language of the reports when ``--lang`` is not given.
DEFAULT_LANG = "en"


@attrs.frozen
class Extra:
    """An optional dependency group of pyproject.toml (``pip install 'stargazer-rules[NAME]'``)
    and the top-level modules whose presence proves it installed."""

    name: str
    modules: tuple[str, ...]

    def missing(self) -> tuple[str, ...]:
        """The modules that cannot be found, in the order listed."""
        return tuple(module for module in self.modules if not _importable(module))


_SIM = Extra("sim", ("numpy", "scipy", "tqdm", "filelock", "platformdirs"))

#: The extra each command needs beyond the core install; the commands not listed need none.
COMMAND_EXTRAS: Mapping[str, Extra] = {
    "cache": _SIM,
    "calibrate": _SIM,
    "compare": _SIM,
    "explain": _SIM,
    "ladder": _SIM,
    "print": Extra("print", ("reportlab", "pypdfium2", "japanize_matplotlib")),
    "report": _SIM,
    "serve": Extra("serve", ("starlette", "uvicorn", "httptools")),
    "simulate": _SIM,
    "tune": Extra("tune", (*_SIM.modules, "optuna")),
}


def _importable(module: str) -> bool:
    # Found, not imported: importing scipy only to check costs half a second, and
    # importing japanize_matplotlib changes matplotlib's settings (printing/fonts.py).
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require_extra(command: str) -> None:
    """``CommandStopped(EXIT_INVALID)`` after one line naming the extra to install when
    ``command`` needs one that is missing."""
    extra = COMMAND_EXTRAS.get(command)
    missing = extra.missing() if extra is not None else ()
    if missing:
        say_error(
            command,
            f"needs the {extra.name} extra ({', '.join(missing)}: not installed): "
            f"{install_line(extra.name)}",
        )
        raise CommandStopped(EXIT_INVALID)


def wrapped(text: str) -> str:
    """A description for a parser whose epilog keeps its own line breaks."""
    return textwrap.fill(text, width=78)


def positive_int(text: str) -> int:
    try:
        value = number_from_text(text, whole=True)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number in ASCII digits") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


class SeedAction(argparse.Action):
    """``--seed S``: an integer from 0 to 2**64 - 1 (``engine.seeds``); anything else is one
    line saying the range, exit 2."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        try:
            seed: object = number_from_text(values, whole=True)
        except ValueError:
            seed = values
        problem = seed_problem(seed)
        if problem is not None:
            parser.exit(EXIT_USAGE, f"{parser.prog}: {option_string} {problem}\n")
        setattr(namespace, self.dest, seed)


def add_ruleset_argument(parser: argparse.ArgumentParser, positional: bool) -> None:
    names = ", ".join(bundled_ruleset_names())
    help_text = f"a ruleset folder, or a bundled ruleset name ({names}); default {DEFAULT_RULESET}"
    if positional:
        parser.add_argument("ruleset", nargs="?", default=None, metavar="DIR", help=help_text)
    else:
        parser.add_argument("--rules", dest="ruleset", default=None, metavar="DIR", help=help_text)


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=DEFAULT_LANG,
        help=f"the language of the output: ja (Japanese) or en (English); default {DEFAULT_LANG}",
    )


def ruleset_or_stop(path: str | None, command: str) -> Ruleset:
    """The ruleset (``load_or_report``); ``CommandStopped(EXIT_INVALID)`` after its one-line
    error when it does not load."""
    ruleset = load_or_report(path, command)
    if ruleset is None:
        raise CommandStopped(EXIT_INVALID)
    return ruleset


def load_or_report(path: str | None, command: str) -> Ruleset | None:
    """The ruleset, or None after printing a one-line error (the first problem and how many).
    A valid ruleset's warnings (``checks.ruleset_warnings``) go to stderr, one line each."""
    try:
        ruleset = load_ruleset(path)
    except RulesetError as error:
        report_ruleset_error(error, path if path is not None else DEFAULT_RULESET, command)
        return None
    report_warnings(ruleset, command)
    return ruleset


def report_ruleset_error(error: RulesetError, shown: str, command: str) -> None:
    """One line: the problem, or the first of several and how to list them all."""
    first = error.problems[0]
    count = len(error.problems)
    if count == 1:
        say_error(command, str(first))
    else:
        say_error(
            command,
            f"{shown}: {count} problems in the ruleset, the first: {first}; "
            f"'stargazer validate {shown}' lists them all",
        )


def report_warnings(ruleset: Ruleset, command: str) -> None:
    for warning in ruleset_warnings(ruleset):
        say_error(command, f"warning: {warning}")


def report_engine(ruleset: Ruleset, command: str, engine: str = native.DEFAULT_ENGINE) -> None:
    """One warning line when the bots asked to search in the kernel will run on Python."""
    # The process's one Game of the ruleset (``runner.game_of``): its kernel is compiled once
    # for this line and for the games that follow.
    reason = native.fallback_reason(game_of(ruleset)) if engine == "native" else None
    if reason is not None:
        say_error(command, f"warning: {ruleset.name} runs on the Python engine: {reason}")


def say_error(command: str, message: str) -> None:
    print(f"stargazer {command}: {message}", file=sys.stderr)


class Prefixed:
    """A writer that puts ``stargazer COMMAND: `` in front of what is written to ``stream``."""

    def __init__(self, command: str, stream) -> None:
        self.command = command
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(f"stargazer {self.command}: {text}")


def summary(ruleset: Ruleset) -> str:
    """``14 planets, 12 crew, 3-4 players, fingerprint 1a2b3c4d5e6f``."""
    return (
        f"{len(ruleset.planets)} planets, {len(ruleset.crew)} crew, "
        f"{player_ranges(ruleset.player_counts)} players, "
        f"fingerprint {short_fingerprint(ruleset.fingerprint)}"
    )


def player_ranges(counts: Sequence[int]) -> str:
    """Sorted counts as ranges: (3, 4) -> ``3-4``; (2, 4, 5) -> ``2, 4-5``."""
    ranges: list[list[int]] = []
    for count in counts:
        if ranges and count == ranges[-1][-1] + 1:
            ranges[-1].append(count)
        else:
            ranges.append([count])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in ranges)


def ruleset_or_list_problems(path: str | None) -> Ruleset:
    """The ruleset; else every problem listed (``print_problems``) and ``CommandStopped(EXIT_INVALID)``:
    for the commands whose answer to an invalid ruleset is the whole list (validate, print)."""
    shown = path if path is not None else DEFAULT_RULESET
    try:
        return load_ruleset(path)
    except RulesetError as error:
        print_problems(error, shown)
        raise CommandStopped(EXIT_INVALID) from None


def print_problems(error: RulesetError, shown: str) -> None:
    """Every problem on stdout, file:line:column first, and their count on stderr."""
    for problem in error.problems:
        print(problem)
    count = len(error.problems)
    print(f"{shown}: {count} problem{'s' if count != 1 else ''}", file=sys.stderr)
