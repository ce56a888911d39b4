"""The games.jsonl line: its format, how a line is written and how a file of them is read.

A simulation streams one line per finished game (docs/simulation.md, "games.jsonl"). The line
ends with ``digest``, a hash of everything before it, so that a line edited by hand or garbled
on disk is told from a game a run played: readers check it and name the line (file:line)
instead of counting it. The digest detects edits and damage; it is not a signature (a person who
recomputes it can forge a line), which is why run reuse also checks each line against the
identity of the run it claims to belong to.

Reading never stops at a bad line: ``read_games_file`` returns the good games, one per index
(a second copy of an index is named, never counted twice), and every line it refused, with why.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.rulesets import boundedfiles, outputfiles

__all__ = [
    "DIGEST_FIELD",
    "GAMES_FILE",
    "GAME_FORMAT",
    "GamesFile",
    "READABLE_FORMATS",
    "RefusedLine",
    "VALUE_DECIMALS",
    "game_line",
    "copy_lines",
    "indices_in",
    "line_digest",
    "line_spans",
    "lines_of",
    "read_games_file",
]

#: The ``format`` of a games.jsonl line: its kind and version. Version 2 added ``digest``.
GAME_FORMAT = "stargazer-game/2"
#: Lines of version 1 have no digest: read, but they cannot be checked (``GamesFile.unchecked``).
UNCHECKED_FORMATS = ("stargazer-game/1",)
#: Every format a reader of games takes.
READABLE_FORMATS = (*UNCHECKED_FORMATS, GAME_FORMAT)
#: The field holding the hash of the rest of the line; always the line's last field.
DIGEST_FIELD = "digest"
#: The file a run streams its games to, inside its output folder.
GAMES_FILE = "games.jsonl"
#: The decimals a line keeps of a search's root values (``value_by_round``): a millionth of the
#: reward's 0-to-1 scale is far below what a few hundred simulations can tell apart.
VALUE_DECIMALS = 6


#: Compact JSON, the same bytes on any machine. A line is plain data built by the runner, never
#: a cycle, so the encoder keeps no record of the containers it is inside (``check_circular``):
#: a tenth of the time of encoding a line.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def _compact(content: Mapping[str, Any]) -> str:
    """Compact JSON, the same bytes on any machine."""
    return _COMPACT.encode(content)


def line_digest(content: Mapping[str, Any]) -> str:
    """The digest of a game's line without its ``digest`` field (32 hex digits of SHA-256)."""
    return _digest_of(_compact(content))


def _digest_of(compact: str) -> str:
    return hashlib.sha256(compact.encode("utf-8")).hexdigest()[:32]


#: The end of every line a run writes: its digest, the line's last field.
_DIGEST_END = re.compile(r',"digest":"([0-9a-f]{32})"\}\n?$')


def game_line(game: Mapping[str, Any]) -> str:
    """One games.jsonl line (without its newline), its ``digest`` last.

    ``game`` is the line's content; a ``digest`` already in it is computed again. The content is
    written once: the digest is that text's, appended as the last field.
    """
    content = {key: value for key, value in game.items() if key != DIGEST_FIELD}
    if not content:
        return _compact({DIGEST_FIELD: line_digest(content)})
    text = _compact(content)
    return f'{text[:-1]},"{DIGEST_FIELD}":"{_digest_of(text)}"}}'


@attrs.frozen
class RefusedLine:
    """A line of a games file that is not counted: its 1-based ``number``, ``reason`` and ``text``."""

    number: int
    reason: str
    text: str


@attrs.frozen
class GamesFile:
    """What ``read_games_file`` found in ``path``: the ``games`` (dicts without their checked
    ``digest``, sorted by ``index``, one per index; or what the reader's ``reduce`` kept of
    each), the ``line`` number of each game by index, the ``refused`` lines, ``unchecked`` lines of a format without a digest, and
    whether the last line was ``cut_short`` (an interrupted write: not a problem)."""

    path: Path
    games: tuple[Any, ...]
    line: Mapping[int, int]
    refused: tuple[RefusedLine, ...]
    unchecked: int
    cut_short: bool

    def problems(self) -> list[str]:
        """One located sentence per refused line: ``OUT/games.jsonl:7: ...``."""
        return [f"{self.path}:{line.number}: {line.reason}" for line in self.refused]


#: The largest games file read: the longest run (100,000 games) of the largest table (8
#: players on 16 Planets, about 20 KB a line) with room to spare.
MAX_GAMES_FILE_BYTES = 16 * 1024**3


def read_games_file(path: str | os.PathLike[str], reduce: Callable[[dict[str, Any]], Any] | None = None) -> GamesFile:
    """Read and check every line of a games file (``OSError`` if it cannot be read).

    A line is refused when it is not a JSON object with an integer ``index``, when its format
    is unknown, when its digest does not match its content, or when it repeats an index an
    earlier good line holds. A last line without its newline was cut short by an interruption
    and is left out without being refused. ``reduce`` maps each good game, as soon as its line
    is checked, to what is kept of it (a reader that needs a few figures of each game of a
    long run holds those, not the games).
    """
    path = boundedfiles.checked_file(path, MAX_GAMES_FILE_BYTES, "games file")  # no FIFO, device, far symlink
    by_index: dict[int, Any] = {}
    seen: dict[int, int] = {}  # the hash of each kept line: a repeat is the same game or another
    numbers: dict[int, int] = {}
    refused: list[RefusedLine] = []
    unchecked = 0
    cut_short = False
    with cycle_collector_paused(), path.open("r", encoding="utf-8", errors="replace") as file:
        for number, text in enumerate(file, start=1):
            if not text.endswith("\n"):
                cut_short = True
                break
            game, reason = _checked_line(text)
            if game is None:
                refused.append(RefusedLine(number, reason, text))
                continue
            if reason == "unchecked":
                unchecked += 1
            index = game["index"]
            content = hash(text)
            if index in by_index:
                same = "the same game" if seen[index] == content else "another game"
                refused.append(RefusedLine(number, f"a second line for game {index} ({same}): not counted twice", text))
                continue
            by_index[index] = game if reduce is None else reduce(game)
            seen[index] = content
            numbers[index] = number
    games = tuple(by_index[index] for index in sorted(by_index))
    return GamesFile(path, games, numbers, tuple(refused), unchecked, cut_short)


@contextlib.contextmanager
def cycle_collector_paused() -> Any:
    """Python's cyclic garbage collector paused while many game lines are made or parsed.

    Game lines, records and parsed JSON are plain data without reference cycles, freed by
    their reference counts; but making so many objects sets the collector off again and again,
    and each full collection walks every long-lived object of the process (the rulesets, the
    schemas, the modules): a fifth of a greedy chunk's time, and as much again while a large
    games.jsonl is parsed. What might be left in a cycle is collected once it runs again.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: The start of every line a run writes: its format, then its index.
_INDEX = re.compile(r'\{"format":"[^"]*","index":(\d+),')
_INDEX_BYTES = re.compile(_INDEX.pattern.encode())


def line_spans(path: str | os.PathLike[str]) -> list[tuple[int, int, int]]:
    """Each whole line of a games file as (the index its start names, its byte offset, its
    length in bytes), read as ``indices_in`` reads: for copying lines a caller has checked
    without holding their text, not for trusting them."""
    found = []
    start = 0
    try:
        with Path(path).open("rb") as file:
            for raw in file:
                match = _INDEX_BYTES.match(raw)
                if match is not None and raw.endswith(b"\n"):
                    found.append((int(match.group(1)), start, len(raw)))
                start += len(raw)
    except FileNotFoundError:
        pass
    return found


def copy_lines(source: str | os.PathLike[str], spans: Iterable[tuple[int, int, int]],
               target: str | os.PathLike[str]) -> None:
    """Append the lines ``spans`` (from ``line_spans``) of ``source`` to ``target``, in the order given."""
    with Path(source).open("rb") as reading, outputfiles.open_for_append(target) as writing:
        for _index, start, length in spans:
            reading.seek(start)
            writing.write(reading.read(length))


def indices_in(path: str | os.PathLike[str]) -> set[int]:
    """The game indices a games file's whole lines name, read from each line's start without
    parsing or checking it: for appending only what a file lacks, not for trusting it."""
    found: set[int] = set()
    try:
        with Path(path).open("r", encoding="utf-8", errors="replace") as file:
            for text in file:
                match = _INDEX.match(text)
                if match is not None and text.endswith("\n"):
                    found.add(int(match.group(1)))
    except FileNotFoundError:
        pass
    return found


def _checked_line(text: str) -> tuple[dict[str, Any] | None, str]:
    """The line's game and ``ok`` or ``unchecked``, or None and why it is refused."""
    try:
        game = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"not a JSON line ({error.msg}): garbled"
    if not isinstance(game, dict) or type(game.get("index")) is not int or game["index"] < 0:
        return None, "not a game line (no whole-number 'index')"
    form = game.get("format")
    if form in UNCHECKED_FORMATS:
        return game, "unchecked"
    if form != GAME_FORMAT:
        return None, f"a line of format {form!r}, not {GAME_FORMAT!r}"
    digest = game.pop(DIGEST_FIELD, None)
    if digest is None:
        return None, f"game {game['index']} has no {DIGEST_FIELD!r}: not a line a run wrote"
    # The digest is of the line's own text before it (as ``game_line`` wrote it), so checking it
    # hashes what was read instead of writing the game out again.
    end = _DIGEST_END.search(text)
    if end is None or end.group(1) != digest or _digest_of(text[: end.start()] + "}") != digest:
        return None, f"game {game['index']} was edited or garbled (its digest does not match its content)"
    return game, "ok"


def lines_of(games: Iterable[Mapping[str, Any]]) -> str:
    """The text of a games file holding ``games``, one line each."""
    return "".join(game_line(game) + "\n" for game in games)
