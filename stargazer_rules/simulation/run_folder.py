"""The files of a run folder, and the one way a line leaves ``games.jsonl``: set aside, never lost.

A run folder (``simulate --out``, or an entry of the cache) holds ``run.json``, the identity of
the run (``cache.run_identity``), and ``games.jsonl``, its games (``formats.game_lines``).
Games are only ever appended. When a line must leave the games file (it was edited or garbled,
it belongs to another run, or the folder is given to another run), it is first written to
``set-aside/`` in the same folder with a note of why, and the games file is replaced in one
rename, so that a crash at any moment leaves either the old file or the new one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.formats.game_lines import GAMES_FILE, lines_of
from stargazer_rules.rulesets import boundedfiles

__all__ = [
    "GAMES_FILE",
    "IDENTITY_FILE",
    "SET_ASIDE_FOLDER",
    "lines_of",
    "read_identity",
    "replace_games",
    "replace_lines",
    "set_aside",
    "write_identity",
]

#: The identity of the run in a folder, beside games.jsonl.
IDENTITY_FILE = "run.json"
#: The largest run.json read: an identity is a few hundred bytes.
MAX_IDENTITY_BYTES = 64 * 1024
#: Where lines taken out of games.jsonl are kept.
SET_ASIDE_FOLDER = "set-aside"


def read_identity(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """``folder/run.json``, or None when it is missing or not a JSON object."""
    try:
        found = boundedfiles.read_json(Path(folder) / IDENTITY_FILE, MAX_IDENTITY_BYTES, "run identity")
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def write_identity(folder: str | os.PathLike[str], identity: Mapping[str, Any]) -> None:
    """Write ``folder/run.json`` (the folder made if missing), in one rename."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _replace(folder / IDENTITY_FILE, json.dumps(dict(identity), indent=2) + "\n")


def set_aside(folder: str | os.PathLike[str], texts: Iterable[str], why: str) -> Path:
    """Keep the lines ``texts`` (each ending in a newline) in ``folder/set-aside/``, with a note
    of ``why`` beside them; the path of the new file."""
    aside = Path(folder) / SET_ASIDE_FOLDER
    aside.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    for attempt in range(1000):
        path = aside / f"games-{stamp}-{attempt}.jsonl"
        try:
            with path.open("x", encoding="utf-8") as file:
                file.writelines(texts)
        except FileExistsError:
            continue
        path.with_suffix(".why.txt").write_text(why + "\n", encoding="utf-8")
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
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)
