"""The identity of a run, and the cache of finished runs kept by it.

A game is a pure function of the ruleset, its deal seed, its rotation, the lineup and the
engine whose bots played (docs/simulation.md, "The plan of a run"), and the library that
played it. ``run_identity`` is that identity without the number of games: two runs with the
same identity hold the same game at every index, so a run of 1,800 games *is* the first 1,800
games of a run of 3,600.

The cache (``cache_folder``: ``--cache``, ``$STARGAZER_CACHE``, else the user's cache folder)
keeps finished runs under ``CACHE/<key>/`` (``key`` a hash of the identity), each a run folder
(``run_folder``) that only grows; its size is bounded (``cache_bound``), the runs used least
recently leaving first.

The cache owns only what it made. An entry is a plain folder named by a key and holding the
mark the cache writes when it makes it (``MARK_FILE``, naming that key; the folder is made
under another name and renamed into place with its mark, so no entry is ever without one).
Listing, eviction and ``clear`` see entries only: a run folder of a user's (``--out``), or
anything else found under the cache folder, is never counted, listed or removed. An entry
whose files are links or special files (``run_folder.not_plain``) is neither read nor written. ``checked_run`` reads a folder's games as a run of one identity:
every line's digest checked, every line held to the identity (``simulation.runs`` decides
what is reused).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.errors import FileRefused, FolderBusy, SimulationError
from stargazer_rules.formats.game_lines import (
    GAMES_FILE,
    RefusedLine,
    copy_lines,
    indices_in,
    line_spans,
    read_games_file,
)
from stargazer_rules.rulesets import boundedfiles, outputfiles
from stargazer_rules.simulation import locks, run_folder
from stargazer_rules.simulation.planning import line_mismatch

__all__ = [
    "CACHE_VARIABLE",
    "CheckedRun",
    "Entry",
    "LADDERS_FOLDER",
    "MARK_FILE",
    "MAX_BOUND",
    "SIZE_VARIABLE",
    "cache_bound",
    "cache_folder",
    "checked_run",
    "clear",
    "code_digest",
    "entries",
    "entry_folder",
    "entry_problem",
    "foreign_folders",
    "identity_key",
    "keep",
    "library_version",
    "run_identity",
    "same_identity",
    "set_aside_lines_not_in",
    "touch",
    "usable_entry",
]

#: The ``format`` of run.json.
RUN_FORMAT = "stargazer-run/1"
#: The environment variable naming the cache folder.
CACHE_VARIABLE = "STARGAZER_CACHE"
#: The environment variable bounding the cache's size: bytes, or a number with KB, MB or GB.
SIZE_VARIABLE = "STARGAZER_CACHE_SIZE"
#: The cache's size bound when ``$STARGAZER_CACHE_SIZE`` is unset: about a hundred default runs.
DEFAULT_BOUND = 5 * 1000**3
#: The largest bound ``$STARGAZER_CACHE_SIZE`` may set: 1 PB, more than any disk the cache is on.
MAX_BOUND = 1000**5
#: The units of ``$STARGAZER_CACHE_SIZE`` (decimal, as disks count), upper or lower case.
SIZE_UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4}
#: Where the cache keeps ladders (``simulation.ladder``): ``CACHE/ladders/<fingerprint>-<players>p.json``.
LADDERS_FOLDER = "ladders"
#: The mark the cache writes in each entry it makes: the entry's key, in this format.
MARK_FILE = "cache-entry.json"
MARK_FORMAT = "stargazer-cache-entry/1"
#: The files the cache writes in an entry: a run folder's and the mark.
ENTRY_FILES = run_folder.RUN_FILES | {MARK_FILE}
#: A key: the first 20 hex digits of the identity's hash (``identity_key``).
_KEY = re.compile(r"[0-9a-f]{20}")
#: The prefix of an entry being made, before its rename to its key.
_NEW_PREFIX = ".new-"


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
    cache folder (``platformdirs``: ``~/.cache/stargazer-rules/runs`` on Linux). ``FileRefused``
    naming the option or variable when something other than a folder is there (a file,
    ``/dev/null``, a symlink loop); a symlink to a folder is the user's choice and is used."""
    chosen = str(given) if given is not None else os.environ.get(CACHE_VARIABLE, "")
    if chosen:
        named = "--cache" if given is not None else f"${CACHE_VARIABLE}"
        return _usable_cache(Path(chosen).expanduser(), named)
    import platformdirs  # the sim extra's: the command line imports this module without it

    return _usable_cache(Path(platformdirs.user_cache_dir("stargazer-rules", appauthor=False)) / "runs", "the cache folder")


def _usable_cache(folder: Path, named: str) -> Path:
    """``folder`` when it is a folder or missing; ``FileRefused`` naming ``named`` otherwise."""
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        return folder
    except OSError as error:
        refused = outputfiles.path_problem(error, folder)
        if refused is None:
            raise
        raise FileRefused(f"{named} {refused}") from None
    if not stat.S_ISDIR(mode):
        kind = "a file" if stat.S_ISREG(mode) else outputfiles.kind_of(mode)
        raise FileRefused(f"{named} {folder} is {kind}, not a folder: the cache keeps its runs in a folder; "
                          f"name a folder (missing, it is made)")
    return folder


#: A size as ``$STARGAZER_CACHE_SIZE`` is written: ASCII digits, perhaps a decimal part, a unit.
_SIZE = re.compile(r"([0-9]{1,20})(?:\.([0-9]{1,6}))? ?([A-Za-z]{0,2})", re.ASCII)
#: How a size is written, for the messages.
SIZE_FORMS = "bytes, or a number with KB, MB, GB or TB (e.g. 2GB)"


def cache_bound() -> int:
    """The most bytes the cache keeps (``$STARGAZER_CACHE_SIZE``, default 5 GB): ASCII digits
    with an optional decimal part and unit (``SIZE_UNITS``), at most ``MAX_BOUND``;
    ``ValueError`` saying what to write for any other value."""
    text = os.environ.get(SIZE_VARIABLE, "")
    if not text:
        return DEFAULT_BOUND
    shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text):,} characters)"
    match = _SIZE.fullmatch(text.strip())
    unit = match.group(3).upper() if match is not None else ""
    if match is None or unit not in SIZE_UNITS:
        raise ValueError(
            f"${SIZE_VARIABLE}={shown} is not a size: write {SIZE_FORMS}, from 0 to {MAX_BOUND // 1000**5} PB"
        )
    whole, fraction = match.group(1), match.group(2) or ""
    scale = SIZE_UNITS[unit]
    bound = int(whole) * scale + int(fraction or "0") * scale // 10 ** len(fraction)
    if bound > MAX_BOUND:
        raise ValueError(f"${SIZE_VARIABLE}={shown} is more than the cache may hold: give at most {MAX_BOUND // 1000**5} PB")
    return bound


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


def entry_problem(folder: Path) -> str | None:
    """Why ``folder`` is not an entry this cache made (None when it is one): a link or not a
    folder, a name that is not a key, no mark or a mark that does not name its key."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return "not a plain folder"
    except FileNotFoundError:
        return "missing"
    if _KEY.fullmatch(folder.name) is None:
        return "its name is not a run's key"
    try:
        with boundedfiles.open_plain(folder / MARK_FILE) as file:
            mark = json.loads(file.read(4096).decode("utf-8"))
    except (OSError, ValueError):
        return f"it has no {MARK_FILE}, the mark of a run the cache made"
    if not isinstance(mark, dict) or mark.get("format") != MARK_FORMAT or mark.get("key") != folder.name:
        return f"its {MARK_FILE} does not name it"
    return None


def _usable(folder: Path) -> str | None:
    """Why the entry ``folder`` may be neither read nor written (None: it may): not an entry
    of the cache's, or holding links or special files where it keeps its files."""
    problem = entry_problem(folder)
    if problem is None:
        strange = run_folder.not_plain(folder, ENTRY_FILES)
        if strange:
            problem = f"{', '.join(strange)} {'is' if len(strange) == 1 else 'are'} not a plain file"
    return problem


def _made(cache: Path, key: str) -> Path:
    """The entry ``key``, made with its mark if missing: in a new folder renamed into place, so
    that no entry is ever without its mark."""
    folder = cache / key
    if os.path.lexists(folder):
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    new = cache / f"{_NEW_PREFIX}{key}-{os.getpid()}-{time.monotonic_ns()}"
    new.mkdir()
    outputfiles.write_json(new / MARK_FILE, {"format": MARK_FORMAT, "key": key}, indent=None)
    try:
        os.rename(new, folder)
    except OSError:  # another process made it first
        shutil.rmtree(new, ignore_errors=True)
    return folder


@attrs.frozen
class Kept:
    """What ``keep`` did: the cache ``folder`` of the run, the games ``added`` to it, and the
    ``evicted`` runs (the least recently used, to stay within the bound)."""

    folder: Path
    added: int
    evicted: tuple[Entry, ...]


def keep(cache: Path, identity: Mapping[str, Any], source: Path, command: str, *, spare: Path | None = None) -> Kept:
    """Append to the cache's copy of the run ``identity`` the lines of the games file ``source``
    (checked by the caller: lines of that run only) whose games it lacks, in index order (the
    copy only grows; its lines are checked when it is reused, not here), then keep the cache
    within its bound, never removing the run just kept nor ``spare`` (the folder of the run
    being made). Waits for another process storing the same run. ``SimulationError`` when the
    folder at the run's key is not an entry the cache can write (a link, no mark, a link inside)."""
    bound = cache_bound()
    folder = _made(cache, identity_key(identity))
    problem = _usable(folder)
    if problem is not None:
        mend = (f"'stargazer cache clear {folder.name[:12]}' removes it" if entry_problem(folder) is None
                else "move it away, or choose another --cache")
        raise SimulationError(f"{folder} is not a run the cache can write ({problem}): left as it is; {mend}")
    with locks.holding(folder, command, wait=60.0):
        path = folder / GAMES_FILE
        if path.exists() and not same_identity(run_folder.read_identity(folder), identity):
            held = CheckedRun(folder, (), (), RefusedLine(0, "the cache's run.json names another run", ""), 0)
            set_aside_lines_not_in(held, ())
        known = indices_in(path)
        new = sorted(span for span in line_spans(source) if span[0] not in known)
        if new:
            copy_lines(source, new, path)
        run_folder.write_identity(folder, identity)  # also marks the run as used now
    evicted = _evict(cache, bound, keep=(folder, spare), command=command)
    return Kept(folder, len(new), tuple(evicted))


def usable_entry(cache: Path, identity: Mapping[str, Any]) -> tuple[Path, str | None]:
    """The entry of ``identity`` and why it may not be read (None: it holds this run and may
    be; ``"missing"``: there is none)."""
    folder = entry_folder(cache, identity)
    problem = _usable(folder)
    if problem is None and not same_identity(run_folder.read_identity(folder), identity):
        problem = f"its {run_folder.IDENTITY_FILE} names another run"
    return folder, problem


def set_aside_lines_not_in(held: CheckedRun, kept: Collection[int]) -> None:
    """Set aside the lines of ``held``'s file that are not the lines of the games ``kept`` (by
    index), then make the file hold just those, in index order (nothing to do for a file with
    no problem)."""
    if not held.refused and held.foreign is None:
        return
    path = held.folder / GAMES_FILE
    with boundedfiles.open_plain(path) as file:  # the run's own file: no link followed, no FIFO waited on
        texts = file.read().decode("utf-8", errors="replace").splitlines(keepends=True)
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
    if _usable(path.parent) is None and path.exists():
        os.utime(path, follow_symlinks=False)


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
        identity = self.identity  # read_identity: None, or every field of the right type
        if identity is None:
            run = f"(no readable {run_folder.IDENTITY_FILE})"
        else:
            lineup = identity["lineup"]
            bots = f"{lineup[0]} x{len(lineup)}" if len(set(lineup)) == 1 else "/".join(lineup)
            run = (
                f"{identity['ruleset']['name']} {identity['players']}p {bots} "
                f"seed {identity['seed']} {identity['engine']}"
            )
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.used))
        return f"{self.key[:12]}  {run}  {self.games:,} games  {self.size / 1e6:.1f} MB  {when}"


def entries(cache: Path) -> list[Entry]:
    """The runs in the cache (the entries it made, ``entry_problem``), the most recently used
    first. Sizes are of the files in each entry, no link followed; games are counted only in a
    plain games file."""
    found = []
    for folder in _children(cache):
        if entry_problem(folder) is not None:
            continue
        size = _size_of(folder)
        games = 0
        if not run_folder.not_plain(folder, (GAMES_FILE,)):
            with contextlib.suppress(OSError):
                with boundedfiles.open_plain(folder / GAMES_FILE) as file:
                    games = sum(block.count(b"\n") for block in iter(lambda file=file: file.read(1 << 20), b""))
        used = _used(folder)
        found.append(Entry(folder.name, folder, run_folder.read_identity(folder), games, size, used))
    return sorted(found, key=lambda entry: entry.used, reverse=True)


def foreign_folders(cache: Path) -> list[str]:
    """The names under the cache folder that are not entries the cache made, nor its ladders:
    left alone by every command, listed so that nobody wonders."""
    return sorted(child.name for child in _children(cache)
                  if entry_problem(child) is not None and child.name != LADDERS_FOLDER
                  and not child.name.startswith(_NEW_PREFIX))


def _children(cache: Path) -> list[Path]:
    try:
        with os.scandir(cache) as listing:
            return [Path(item.path) for item in listing]
    except (FileNotFoundError, NotADirectoryError):
        return []


def _size_of(folder: Path) -> int:
    """The bytes of the plain files under ``folder``, no link followed."""
    total = 0
    for root, _folders, files in os.walk(folder, followlinks=False):
        for name in files:
            with contextlib.suppress(OSError):
                info = os.lstat(os.path.join(root, name))
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
    return total


def _used(folder: Path) -> float:
    """When the entry was last used: its run.json's time, else its mark's (no link followed)."""
    for name in (run_folder.IDENTITY_FILE, MARK_FILE):
        with contextlib.suppress(OSError):
            return os.lstat(folder / name).st_mtime
    return 0.0


def clear(cache: Path, keys: Sequence[str] = (), command: str = "cache clear") -> tuple[list[Entry], list[Entry]]:
    """Remove the cache's runs whose key starts with one of ``keys`` (every run when empty);
    the runs removed and those left because another process is writing them."""
    removed, busy = [], []
    for entry in entries(cache):
        if keys and not any(entry.key.startswith(key) for key in keys):
            continue
        (removed if _remove(entry, command) else busy).append(entry)
    return removed, busy


def _evict(cache: Path, bound: int, keep: Collection[Path | None], command: str) -> list[Entry]:
    """Remove the least recently used runs (never one of ``keep``, never one in use) until the
    cache holds at most ``bound`` bytes; those removed."""
    found = entries(cache)
    total = sum(entry.size for entry in found)
    spared = {os.path.realpath(folder) for folder in keep if folder is not None}
    evicted = []
    for entry in reversed(found):  # the least recently used first
        if total <= bound:
            break
        if os.path.realpath(entry.folder) in spared:
            continue
        if _remove(entry, command):
            total -= entry.size
            evicted.append(entry)
    return evicted


def _remove(entry: Entry, command: str) -> bool:
    """Remove the entry's folder (True), unless another process holds it or it is no longer an
    entry the cache made (False). ``shutil.rmtree`` removes links, never what they point to."""
    try:
        with locks.holding(entry.folder, command):
            if entry_problem(entry.folder) is not None:
                return False
            shutil.rmtree(entry.folder, ignore_errors=True)
    except (FolderBusy, OSError):
        return False
    return True
