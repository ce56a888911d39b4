"""The files of a run folder, and the one way a line leaves ``games.jsonl``: set aside, never lost.

A run folder (``simulate --out``, or an entry of the cache) holds ``run.json``, the identity of
the run (``cache.run_identity``), and ``games.jsonl``, its games (``formats.game_lines``).
Games are only ever appended. When a line must leave the games file (it was edited or garbled,
it belongs to another run, or the folder is given to another run), it is first written to
``set-aside/`` in the same folder with a note of why, and the games file is replaced in one
rename, so that a crash at any moment leaves either the old file or the new one.

Nothing here follows a symbolic link to write: a file of the folder is written by the one
writer (``rulesets.outputfiles``: a new name opened exclusively, renamed into place), and ``not_plain`` names what in a folder is a link or a special file where a run keeps a plain
file, for the callers to refuse before they write. ``read_identity`` reads only a plain
``run.json`` of a bounded size, and only an identity of the right shape.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.formats.game_lines import GAMES_FILE, lines_of
from stargazer_rules.rulesets import boundedfiles, outputfiles
from stargazer_rules.simulation.locks import HOLDER_FILE, LOCK_FILE

__all__ = [
    "GAMES_FILE",
    "IDENTITY_FILE",
    "MAX_IDENTITY_BYTES",
    "RUN_FILES",
    "SET_ASIDE_FOLDER",
    "foreign_names",
    "identity_problem",
    "lines_of",
    "not_plain",
    "read_identity",
    "replace_games",
    "replace_lines",
    "set_aside",
    "write_identity",
]

#: The identity of the run in a folder, beside games.jsonl.
IDENTITY_FILE = "run.json"
#: Where lines taken out of games.jsonl are kept.
SET_ASIDE_FOLDER = "set-aside"
#: The suffix of a file being written, before its rename into place.
PARTIAL_SUFFIX = ".partial"
#: Every name the runner writes in a run folder (the report's files are the command's).
RUN_FILES = frozenset({
    IDENTITY_FILE, GAMES_FILE, SET_ASIDE_FOLDER, LOCK_FILE, HOLDER_FILE,
    IDENTITY_FILE + PARTIAL_SUFFIX, GAMES_FILE + PARTIAL_SUFFIX,
})
#: The most bytes of a run.json read: an identity is a few hundred.
MAX_IDENTITY_BYTES = 64 * 1024

#: What each field of a run.json holds (``cache.run_identity`` writes them).
_IDENTITY_FIELDS: dict[str, type] = {
    "format": str, "players": int, "seed": int, "engine": str, "version": str, "code": str,
}


def identity_problem(found: object) -> str | None:
    """Why ``found`` (a run.json's content) is not a run's identity, or None."""
    if not isinstance(found, dict):
        return "not a JSON object"
    for key, kind in _IDENTITY_FIELDS.items():
        value = found.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"its {key!r} is not a {'whole number' if kind is int else 'text'}"
    ruleset = found.get("ruleset")
    if not isinstance(ruleset, dict) or not all(isinstance(ruleset.get(key), str) for key in ("name", "fingerprint")):
        return "its 'ruleset' is not a name and a fingerprint"
    lineup = found.get("lineup")
    if not isinstance(lineup, list) or not lineup or not all(isinstance(spec, str) for spec in lineup):
        return "its 'lineup' is not a list of bot specs"
    return None


def read_identity(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """``folder/run.json``, or None when it is missing, not a plain file, larger than
    ``MAX_IDENTITY_BYTES`` or not an identity (``identity_problem``)."""
    path = Path(folder) / IDENTITY_FILE
    try:
        found = boundedfiles.read_json(path, MAX_IDENTITY_BYTES, "run identity")
    except (OSError, ValueError):
        return None
    return found if identity_problem(found) is None else None


def not_plain(folder: str | os.PathLike[str], names: Collection[str] = RUN_FILES) -> list[str]:
    """The entries among ``names`` in ``folder`` that are symbolic links, or special files
    (FIFOs, devices, sockets), or folders where a file is kept (``set-aside`` is a folder):
    nothing may be written there."""
    found = []
    for name in sorted(names):
        try:
            mode = os.lstat(Path(folder) / name).st_mode
        except FileNotFoundError:
            continue
        wanted = stat.S_ISDIR if name == SET_ASIDE_FOLDER else stat.S_ISREG
        if not wanted(mode):
            found.append(name)
    return found


def foreign_names(folder: str | os.PathLike[str], own: Collection[str], *, inside: Collection[str] | None = None,
                  most: int = 1000, depth: int = 2) -> list[str]:
    """The names in ``folder`` (missing: none) that are not among ``own``, sorted, at most
    ``most`` of them; with ``inside``, a folder (not a link) holding only names among
    ``inside`` and such folders, ``depth`` levels down, is one of its own too (the runs of a
    comparison, the comparisons of its variants)."""
    try:
        listing = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    with listing:
        for item in listing:
            if item.name in own or outputfiles.is_temporary(item.name):  # a write cut short is the folder's own
                continue
            if (inside is not None and depth > 0 and item.is_dir(follow_symlinks=False)
                    and not foreign_names(item.path, inside, inside=inside, most=1, depth=depth - 1)):
                continue
            found.append(item.name)
            if len(found) >= most:
                break
    return sorted(found)


def write_identity(folder: str | os.PathLike[str], identity: Mapping[str, Any]) -> None:
    """Write ``folder/run.json`` (the folder made if missing), in one rename."""
    folder = outputfiles.output_folder(folder)
    _replace(folder / IDENTITY_FILE, json.dumps(dict(identity), indent=2) + "\n")


def set_aside(folder: str | os.PathLike[str], texts: Iterable[str], why: str) -> Path:
    """Keep the lines ``texts`` (each ending in a newline) in ``folder/set-aside/``, with a note
    of ``why`` beside them; the path of the new file."""
    aside = outputfiles.output_folder(Path(folder) / SET_ASIDE_FOLDER)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    for attempt in range(1000):
        path = aside / f"games-{stamp}-{attempt}.jsonl"
        if os.path.lexists(path):
            continue
        try:
            outputfiles.create_new(path, "".join(texts).encode("utf-8"))
        except FileExistsError:
            continue
        outputfiles.write_text(path.with_suffix(".why.txt"), why + "\n")
        return path
    raise OSError(f"{aside}: cannot name a new file (1,000 already there)")


def replace_games(folder: str | os.PathLike[str], games: Iterable[Mapping[str, Any]]) -> None:
    """Make ``folder/games.jsonl`` hold exactly ``games``, in one rename. Callers set aside any
    line of the old file that is not among them first."""
    _replace(Path(folder) / GAMES_FILE, lines_of(games))


def replace_lines(folder: str | os.PathLike[str], texts: Iterable[str]) -> None:
    """Make ``folder/games.jsonl`` hold exactly the lines ``texts`` (each ending in a newline),
    in one rename; as ``replace_games``, for lines copied as they were read."""
    _replace(Path(folder) / GAMES_FILE, "".join(texts))


def _replace(path: Path, text: str) -> None:
    outputfiles.write_text(path, text)
