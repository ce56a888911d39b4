"""The games file of a run as the runner reads and appends it: read checked, cut back to whole
lines before appending, started afresh without losing a line.

The line's format and the checked reader are ``formats.game_lines``; what a folder holds and
how a line leaves it is ``run_folder``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.errors import SimulationError
from stargazer_rules.formats.game_lines import read_games_file
from stargazer_rules.rulesets import boundedfiles, outputfiles
from stargazer_rules.simulation import run_folder

__all__ = ["placing", "read_games", "start_afresh", "trim_to_whole_lines"]

#: Bytes read at a time from a file's end to find its last newline.
_TAIL_BLOCK = 1 << 16


def read_games(path: str | os.PathLike[str], reduce: Callable[[dict[str, Any]], Any] | None = None) -> list[Any]:
    """The games of a games.jsonl file, sorted by ``index``, every line checked
    (``formats.game_lines``); ``reduce`` maps each to what is kept of it.

    A last line without its newline is a game whose writing was interrupted: it is ignored.
    Any other line that is not a game a run wrote (garbled, edited, a second copy of a game)
    raises ``SimulationError`` naming the line; ``read_games_file`` reads past such lines.
    """
    read = read_games_file(path, reduce)
    if read.refused:
        first = read.refused[0]
        more = f" (and {len(read.refused) - 1} more such lines)" if len(read.refused) > 1 else ""
        raise SimulationError(f"{read.path}:{first.number}: {first.reason}{more}")
    return list(read.games)


def trim_to_whole_lines(path: Path) -> None:
    """Cut a last line whose writing was interrupted, so that appending starts a new line.
    Only the file's end is read, a block at a time back to its last newline."""
    if not os.path.lexists(path):
        return
    with outputfiles.open_for_append(path, readable=True) as file:
        size = file.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - _TAIL_BLOCK)
            file.seek(start)
            newline = file.read(end - start).rfind(b"\n")
            if newline >= 0:
                end = start + newline + 1
                break
            end = start
        if end != size:
            file.truncate(end)


#: What resuming reads of a game already in the file: what places it in its run
#: (``planning.line_mismatch``).
_PLACING_KEYS = ("index", "block", "rotation", "players", "deal_seed", "seating", "engine", "ruleset")


def placing(game: Mapping[str, Any]) -> dict[str, Any]:
    """What places ``game`` in its run, and nothing more (a long run is not held whole)."""
    return {key: game[key] for key in _PLACING_KEYS if key in game}


def start_afresh(path: Path) -> None:
    """An empty games file; the lines of one already there are set aside first, never lost."""
    outputfiles.refuse_special(path)  # neither read through a link nor waited on
    if path.exists() and path.stat().st_size:
        with boundedfiles.open_plain(path) as file:  # nor swapped for a link since
            text = file.read().decode("utf-8", errors="replace")
        run_folder.set_aside(path.parent, text.splitlines(keepends=True), "the games file of a run started afresh")
    outputfiles.write_bytes(path, b"")
