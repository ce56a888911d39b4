"""The identity of a run, and the cache of finished runs kept by it.

A game is a pure function of the ruleset, its deal seed, its rotation, the lineup and the
engine whose bots played (docs/simulation.md, "The plan of a run"), and the library that
played it. ``run_identity`` is that identity without the number of games: two runs with the
same identity hold the same game at every index, so a run of 1,800 games *is* the first 1,800
games of a run of 3,600.

The cache (``cache_folder``: ``--cache``, ``$STARGAZER_CACHE``, else the user's cache folder)
keeps finished runs under ``CACHE/<key>/`` (``key`` a hash of the identity), each a run folder
(``run_folder``) that only grows; its size is bounded (``cache_bound``), the runs used least
recently leaving first. ``checked_run`` reads a folder's games as a run of one identity:
every line's digest checked, every line held to the identity (``simulation.runs`` decides
what is reused).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.errors import FolderBusy
from stargazer_rules.formats.game_lines import (
    GAMES_FILE,
    RefusedLine,
    copy_lines,
    indices_in,
    line_spans,
    read_games_file,
)
from stargazer_rules.simulation import locks, run_folder
from stargazer_rules.simulation.runner import line_mismatch

__all__ = [
    "CACHE_VARIABLE",
    "CheckedRun",
    "Entry",
    "SIZE_VARIABLE",
    "cache_bound",
    "cache_folder",
    "checked_run",
    "clear",
    "code_digest",
    "entries",
    "entry_folder",
    "identity_key",
    "keep",
    "library_version",
    "run_identity",
    "same_identity",
    "set_aside_lines_not_in",
    "touch",
]

#: The ``format`` of run.json.
RUN_FORMAT = "stargazer-run/1"
#: The environment variable naming the cache folder.
CACHE_VARIABLE = "STARGAZER_CACHE"
#: The environment variable bounding the cache's size: bytes, or a number with KB, MB or GB.
SIZE_VARIABLE = "STARGAZER_CACHE_SIZE"
#: The cache's size bound when ``$STARGAZER_CACHE_SIZE`` is unset: about a hundred default runs.
DEFAULT_BOUND = 5 * 1000**3


def library_version() -> str:
    """The installed version of stargazer-rules (part of a run's identity)."""
    try:
        return metadata.version("stargazer-rules")
    except metadata.PackageNotFoundError:
        return "unknown"


#: The parts of the package whose code decides what a game's line holds: the rules, the
#: formats, the kernel and its Python side, the bots and the runner. Text, analysis and front
#: ends only read the lines, so editing them keeps the runs.
_PLAYING_CODE = ("engine", "rulesets", "formats", "kernel", "bots", "simulation")


@functools.cache
def code_digest() -> str:
    """A hash of the code that plays the games: the Python files of ``_PLAYING_CODE``, the
    compiled kernel and the bundled schemas (16 hex digits).

    Part of a run's identity beside the version: an editable install (a checkout being worked
    on) keeps its version while its rules change, and a run of the old code must not be
    taken for one of the new.
    """
    return digest_of_code(Path(__file__).resolve().parent.parent)


def digest_of_code(package: Path) -> str:
    """``code_digest`` of the package folder ``package``."""
    files = [path for part in _PLAYING_CODE for path in sorted((package / part).rglob("*.py"))]
    files += sorted(package.glob("_kernel*.so")) + sorted(package.glob("_kernel*.pyd"))
    files += sorted((package / "_bundled" / "schemas").glob("*.json"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def run_identity(ruleset_name: str, fingerprint: str, players: int, lineup: Sequence[str], seed: int, engine: str) -> dict[str, Any]:
    """What makes a run's games: ruleset fingerprint, players, lineup, seed, engine, and the
    library (its version and ``code_digest``)."""
    return {
        "format": RUN_FORMAT,
        "ruleset": {"name": ruleset_name, "fingerprint": fingerprint},
        "players": players,
        "lineup": list(lineup),
        "seed": seed,
        "engine": engine,
        "version": library_version(),
        "code": code_digest(),
    }


def identity_key(identity: Mapping[str, Any]) -> str:
    """A short hash of the identity (the ruleset's name left out: only its content counts)."""
    content = {key: value for key, value in identity.items() if key != "ruleset"}
    content["fingerprint"] = identity["ruleset"]["fingerprint"]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def cache_folder(given: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder: ``given`` (``--cache``), else ``$STARGAZER_CACHE``, else the user's
    cache folder (``platformdirs``: ``~/.cache/stargazer-rules/runs`` on Linux)."""
    chosen = str(given) if given is not None else os.environ.get(CACHE_VARIABLE, "")
    if chosen:
        return Path(chosen).expanduser()
    import platformdirs  # the sim extra's: the command line imports this module without it

    return Path(platformdirs.user_cache_dir("stargazer-rules", appauthor=False)) / "runs"


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(|B|KB|MB|GB|TB)\s*", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "tb": 1000**4}


def cache_bound() -> int:
    """The most bytes the cache keeps (``$STARGAZER_CACHE_SIZE``, default 5 GB); ``ValueError``
    saying what to write for a value that is not a size."""
    text = os.environ.get(SIZE_VARIABLE, "")
    if not text:
        return DEFAULT_BOUND
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"${SIZE_VARIABLE}={text!r} is not a size: write bytes or a number with KB, MB or GB (e.g. 2GB)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def entry_folder(cache: Path, identity: Mapping[str, Any]) -> Path:
    """The cache's folder for the run of ``identity``."""
    return cache / identity_key(identity)


def same_identity(found: Mapping[str, Any] | None, identity: Mapping[str, Any]) -> bool:
    """Whether a folder's ``run.json`` names the run of ``identity`` (the name left out)."""
    if found is None:
        return False
    keys = ("players", "lineup", "seed", "engine", "version", "code")
    ruleset = found.get("ruleset")
    return isinstance(ruleset, dict) and ruleset.get("fingerprint") == identity["ruleset"]["fingerprint"] and all(
        found.get(key) == identity[key] for key in keys
    )


@attrs.frozen
class CheckedRun:
    """A folder's games read as the run of one identity: ``games``, the good lines of it
    (sorted by index; what the reader's ``reduce`` kept of each), and ``line``, the line number
    of each by index; ``refused``, lines edited, garbled or repeated; ``foreign``, the first
    line (by index) of another run with why (such a folder is not reused at all)."""

    folder: Path
    games: tuple[Any, ...]
    refused: tuple[RefusedLine, ...]
    foreign: RefusedLine | None
    unchecked: int
    line: Mapping[int, int] = attrs.field(factory=dict)

    def problems(self) -> list[str]:
        path = self.folder / GAMES_FILE
        found = [f"{path}:{line.number}: {line.reason}" for line in self.refused]
        if self.foreign is not None:
            found.append(f"{path}:{self.foreign.number}: {self.foreign.reason}")
        return found

    @property
    def indices(self) -> list[int]:
        """The indices of the good games, in order."""
        return sorted(self.line)


def checked_run(folder: str | os.PathLike[str], identity: Mapping[str, Any],
                reduce: Callable[[dict[str, Any]], Any] | None = None) -> CheckedRun:
    """Read ``folder/games.jsonl`` as a run of ``identity`` (an empty run when it is missing);
    ``reduce`` as ``read_games_file``'s, applied once a game is held to the identity."""
    folder = Path(folder)
    mismatches: list[tuple[int, str]] = []

    def held(game: dict[str, Any]) -> Any:
        mismatch = line_mismatch(game, identity)
        if mismatch is not None:
            mismatches.append((game["index"], f"game {game['index']} is not a game of this run: {mismatch}"))
        return game if reduce is None else reduce(game)

    try:
        read = read_games_file(folder / GAMES_FILE, held)
    except FileNotFoundError:
        return CheckedRun(folder, (), (), None, 0)
    foreign = None
    if read.unchecked:
        foreign = RefusedLine(0, f"{read.unchecked} lines of format 1 carry no digest: they cannot be checked", "")
    elif mismatches:
        index, reason = min(mismatches)
        foreign = RefusedLine(read.line[index], reason, "")
    return CheckedRun(folder, read.games, read.refused, foreign, read.unchecked, read.line)


@attrs.frozen
class Kept:
    """What ``keep`` did: the cache ``folder`` of the run, the games ``added`` to it, and the
    ``evicted`` runs (the least recently used, to stay within the bound)."""

    folder: Path
    added: int
    evicted: tuple[Entry, ...]


def keep(cache: Path, identity: Mapping[str, Any], source: Path, command: str) -> Kept:
    """Append to the cache's copy of the run ``identity`` the lines of the games file ``source``
    (checked by the caller: lines of that run only) whose games it lacks, in index order (the
    copy only grows; its lines are checked when it is reused, not here), then keep the cache
    within its bound. Waits for another process storing the same run."""
    folder = entry_folder(cache, identity)
    with locks.holding(folder, command, wait=60.0):
        path = folder / GAMES_FILE
        if path.exists() and not same_identity(run_folder.read_identity(folder), identity):
            held = CheckedRun(folder, (), (), RefusedLine(0, "the cache's run.json names another run", ""), 0)
            set_aside_lines_not_in(held, ())
        known = indices_in(path)
        new = sorted(span for span in line_spans(source) if span[0] not in known)
        if new:
            folder.mkdir(parents=True, exist_ok=True)
            copy_lines(source, new, path)
        run_folder.write_identity(folder, identity)  # also marks the run as used now
    evicted = _evict(cache, cache_bound(), keep_key=folder.name, command=command)
    return Kept(folder, len(new), tuple(evicted))


def set_aside_lines_not_in(held: CheckedRun, kept: Collection[int]) -> None:
    """Set aside the lines of ``held``'s file that are not the lines of the games ``kept`` (by
    index), then make the file hold just those, in index order (nothing to do for a file with
    no problem)."""
    if not held.refused and held.foreign is None:
        return
    path = held.folder / GAMES_FILE
    texts = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    good = {held.line[index]: index for index in kept}
    kept_texts = {texts[number - 1].rstrip("\n") for number in good}
    aside = [text for text in texts if text.rstrip("\n") not in kept_texts]
    if aside:
        run_folder.set_aside(held.folder, aside, "\n".join(held.problems()))
    ordered = sorted((index, texts[number - 1]) for number, index in good.items())
    run_folder.replace_lines(held.folder, [text if text.endswith("\n") else text + "\n" for _, text in ordered])


def touch(cache: Path, identity: Mapping[str, Any]) -> None:
    """Mark the cache's run of ``identity`` as used now (eviction takes the least recent)."""
    path = entry_folder(cache, identity) / run_folder.IDENTITY_FILE
    if path.exists():
        os.utime(path)


@attrs.frozen
class Entry:
    """One run in the cache: its ``key``, ``folder``, ``identity`` (None if unreadable),
    ``games`` (whole lines), ``size`` in bytes and when it was last ``used`` (seconds)."""

    key: str
    folder: Path
    identity: dict[str, Any] | None
    games: int
    size: int
    used: float

    def describe(self) -> str:
        """``a1b2c3d4e5f6  draft7 4p mcts:200 x4 seed 0 native  1,800 games  31.2 MB  2026-12-01 10:02``."""
        identity = self.identity or {}
        lineup = identity.get("lineup") or []
        bots = f"{lineup[0]} x{len(lineup)}" if lineup and len(set(lineup)) == 1 else "/".join(map(str, lineup)) or "?"
        run = (
            f"{identity.get('ruleset', {}).get('name', '?')} {identity.get('players', '?')}p {bots} "
            f"seed {identity.get('seed', '?')} {identity.get('engine', '?')}"
        )
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.used))
        return f"{self.key[:12]}  {run}  {self.games:,} games  {self.size / 1e6:.1f} MB  {when}"


def entries(cache: Path) -> list[Entry]:
    """The runs in the cache, the most recently used first."""
    if not cache.is_dir():
        return []
    found = []
    for folder in cache.iterdir():
        if not folder.is_dir() or not (folder / run_folder.IDENTITY_FILE).exists():
            continue
        size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
        try:
            with (folder / GAMES_FILE).open("rb") as file:
                games = sum(1 for _ in file)
        except OSError:
            games = 0
        used = (folder / run_folder.IDENTITY_FILE).stat().st_mtime
        found.append(Entry(folder.name, folder, run_folder.read_identity(folder), games, size, used))
    return sorted(found, key=lambda entry: entry.used, reverse=True)


def clear(cache: Path, keys: Sequence[str] = (), command: str = "cache clear") -> tuple[list[Entry], list[Entry]]:
    """Remove the cache's runs whose key starts with one of ``keys`` (every run when empty);
    the runs removed and those left because another process is writing them."""
    removed, busy = [], []
    for entry in entries(cache):
        if keys and not any(entry.key.startswith(key) for key in keys):
            continue
        try:
            with locks.holding(entry.folder, command):
                shutil.rmtree(entry.folder, ignore_errors=True)
        except FolderBusy:
            busy.append(entry)
            continue
        removed.append(entry)
    return removed, busy


def _evict(cache: Path, bound: int, keep_key: str, command: str) -> list[Entry]:
    """Remove the least recently used runs (never ``keep_key``, never one in use) until the
    cache holds at most ``bound`` bytes; those removed."""
    found = entries(cache)
    total = sum(entry.size for entry in found)
    evicted = []
    for entry in reversed(found):  # the least recently used first
        if total <= bound:
            break
        if entry.key == keep_key:
            continue
        try:
            with locks.holding(entry.folder, command):
                shutil.rmtree(entry.folder, ignore_errors=True)
        except FolderBusy:
            continue
        total -= entry.size
        evicted.append(entry)
    return evicted
