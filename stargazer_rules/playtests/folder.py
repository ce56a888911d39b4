"""The playtests folder beside a draft: ``<draft folder>/playtests/*.yaml``, one log a game.

``add_log`` writes a new log there and never replaces a file (``open`` in exclusive mode: two
adds at once take two names); ``read_logs`` reads every log of a folder, sorted by file name,
each checked against the ruleset, and returns the problems of those that cannot be read
beside the ones that can. A bundled ruleset's folder belongs to the installation: logs are
added to a draft made with ``stargazer new-draft``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from stargazer_rules.errors import DraftError, PlaytestError, Problem
from stargazer_rules.playtests.log import PlaytestLog, log_to_yaml, read_log
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.printable import forbidden_character, printable
from stargazer_rules.rulesets.resources import shown_path

__all__ = [
    "PLAYTESTS_FOLDER", "ReadLogs", "add_log", "home_folder", "log_files", "log_name_problem", "playtests_folder", "read_logs",
]

#: The folder of logs inside a draft folder.
PLAYTESTS_FOLDER = "playtests"
#: The most logs a folder's reading takes: far more games than a designer plays at the table.
MAX_LOGS = 10_000
#: The longest name of a log (before ``.yaml``): well inside every file system's limit.
MAX_LOG_NAME = 100


def playtests_folder(ruleset: Ruleset) -> Path | None:
    """The playtests folder of ``ruleset``'s draft (None for a ruleset not read from a folder)."""
    return Path(ruleset.source) / PLAYTESTS_FOLDER if ruleset.source else None


def log_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The logs of ``folder`` (``*.yaml`` and ``*.yml``), sorted by name; none when it is missing;
    ``FileRefused`` for a symlink loop or a name too long (not taken for a missing folder)."""
    folder = Path(folder)
    try:
        os.stat(folder)
    except FileNotFoundError:
        return []
    except OSError as error:
        raise (outputfiles.path_problem(error, folder) or error) from None
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if path.suffix in (".yaml", ".yml") and not path.name.startswith("."))


@attrs.frozen
class ReadLogs:
    """What ``read_logs`` found: the ``logs`` read with their ``files``, and the ``problems`` of
    the files that could not be read."""

    logs: tuple[PlaytestLog, ...]
    files: tuple[Path, ...]
    problems: tuple[Problem, ...]


def read_logs(paths: Sequence[str | os.PathLike[str]], ruleset: Ruleset | None) -> ReadLogs:
    """Read every log of ``paths`` (files), checked against ``ruleset``."""
    if len(paths) > MAX_LOGS:
        raise DraftError(f"{len(paths):,} playtest logs: at most {MAX_LOGS:,} are read at once")
    logs, files, problems = [], [], []
    for path in paths:
        try:
            logs.append(read_log(path, ruleset))
            files.append(Path(path))
        except PlaytestError as error:
            problems += error.problems
    return ReadLogs(tuple(logs), tuple(files), tuple(problems))


def add_log(ruleset: Ruleset, log: PlaytestLog, name: str | None = None, folder: str | os.PathLike[str] | None = None,
            text: str | None = None) -> Path:
    """Write ``log`` (or ``text``, a checked log's own text with its comments) into the
    draft's playtests folder (or ``folder``) as ``name`` (default ``<date>-<n>.yaml``, the
    first number free) and return its path; ``FileExistsError`` when ``name`` is taken,
    ``DraftError`` for a bundled ruleset without ``folder``."""
    if name is not None and (problem := log_name_problem(name)) is not None:
        raise ValueError(problem)
    folder = outputfiles.output_folder(folder if folder is not None else home_folder(ruleset))
    text = log_to_yaml(log) if text is None else text
    if name is not None:
        path = folder / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
        _write_new(path, text)
        return path
    for number in range(1, MAX_LOGS + 1):
        path = folder / f"{log.date}-{number}.yaml"
        try:
            _write_new(path, text)
        except FileExistsError:
            continue
        return path
    raise DraftError(f"{folder}: {MAX_LOGS:,} logs of {log.date} already: name the new one")


def log_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a log in its folder (None when it can): a name is one file's
    name, so that a log is written in the folder it is added to and nowhere else (no path
    separator, no ``..``, no hidden file, no control character, one line)."""
    shown = f"the log name {printable(name)!r}"
    if not name or name.isspace():
        return f"{shown} is empty: name the file, e.g. friday"
    if "/" in name or "\\" in name or (os.altsep and os.altsep in name):
        return f"{shown} holds a path separator: a log is added to its folder (--to) by a file name alone"
    if name.startswith("."):
        return f"{shown} starts with '.': a hidden file (or '..', the folder above) is not a log's name"
    if (found := forbidden_character(name)) is not None:
        return f"{shown} holds {found[1]} at character {found[0]}: {found[2]}"
    if len(name) > MAX_LOG_NAME:
        return f"the log name is {len(name)} characters long: at most {MAX_LOG_NAME}"
    return None


def home_folder(ruleset: Ruleset) -> Path:
    """The playtests folder logs are added to: the draft's; ``DraftError`` for a bundled ruleset."""
    home = playtests_folder(ruleset)
    if home is None or shown_path(home).startswith("bundled "):
        raise DraftError(
            f"{ruleset.name} is a bundled ruleset: its folder belongs to the installation; make a draft of it "
            f"(stargazer new-draft DIR --from {ruleset.name}) and add playtests to the draft"
        )
    return home


def _write_new(path: Path, text: str) -> None:
    outputfiles.create_new(path, text.encode("utf-8"))
