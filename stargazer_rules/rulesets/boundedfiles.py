"""The one way the library reads a file a person handed it: checked, then bounded, then read.

A ruleset, a targets or tune file, a game record, a cached run or ladder, a study: each is
named by a person, and a name can point at something that is not a file of that kind. Reading
it as it comes would hang on a FIFO (``open`` waits for a writer), run out of memory on
``/dev/zero``, follow a symlink out of the folder it sits in, or quote a whole unrelated file
in an error. So every reader goes through ``checked_file`` first, which refuses at once, with
one line that says why:

- a folder, a FIFO, a device or a socket (anything but a regular file), found by ``stat``
  without opening it;
- a symlink whose target lies outside the symlink's own folder, and a symlink loop;
- a file larger than the reader's bound (each reader states its own, next to its format).

``read_bytes``, ``read_text`` and ``read_json`` then open the file without blocking, check
again what they opened (it may have been swapped since), and read at most the bound plus one
byte, so a file that grows while it is read is refused too. JSON is read strictly: ``NaN`` and
``Infinity`` are not JSON numbers, and nesting or a number too long to read is one line.
``open_plain`` is the streaming form for files the library itself made (a cache entry's mark
and games): a regular file or nothing, with no link followed at all. ``FileRefused`` (an
``OSError``) carries the line; a file that does not exist raises the usual
``FileNotFoundError``. No message quotes more of a file than ``excerpt`` keeps.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from stargazer_rules.errors import FileRefused

__all__ = ["EXCERPT_CHARS", "KINDS", "FileRefused", "checked_file", "excerpt", "open_plain", "over_limit", "read_bytes", "read_json", "read_text", "reason"]

#: The most characters of a file's content an error message quotes.
EXCERPT_CHARS = 60

#: What a ``stat`` mode that is not a regular file is, in words: the one list of the reader and
#: the writer (``outputfiles``, which looks with ``lstat`` and so also meets links).
KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` as an error message may quote it: at most ``limit`` characters, on one line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def reason(error: OSError, path: str | os.PathLike[str]) -> str:
    """Why ``path`` was refused, without the path (for a message that names the file first):
    ``/x/crew.yaml is a FIFO ...`` -> ``it is a FIFO ...``; an ``OSError`` by its words."""
    message = str(error) if isinstance(error, FileRefused) else (error.strerror or str(error))
    shown = os.fspath(path)
    return "it " + message[len(shown) + 1 :] if message.startswith(shown + " ") else message


def over_limit(size: int, max_bytes: int, what: str) -> str:
    """The one wording of a file too large: ``3,002,268 bytes, over the limit of 1,048,576 for
    a YAML file``."""
    return f"{size:,} bytes, over the limit of {max_bytes:,} for a {what}"


def checked_file(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> Path:
    """``path`` when it names a regular file of at most ``max_bytes`` that is not a symlink
    leading out of its folder; ``FileRefused`` saying why not (``what`` names the file's kind:
    "YAML file", "game record"), ``FileNotFoundError`` when there is nothing there."""
    path = Path(path)
    shown = os.fspath(path)
    try:
        link = os.lstat(path)
        if stat.S_ISLNK(link.st_mode):
            target = Path(os.path.realpath(path, strict=True))
            home = Path(os.path.realpath(path.parent, strict=True))
            if home not in target.parents:
                raise FileRefused(
                    f"{shown} is a symlink to {target}, outside its folder {home}: "
                    f"copy the {what} there instead of linking to it"
                )
        found = os.stat(path)
    except OSError as error:
        if isinstance(error, FileRefused):
            raise
        if error.errno == errno.ELOOP:
            raise FileRefused(f"{shown} is a symlink loop: it leads back to itself, never to a {what}") from None
        if isinstance(error, FileNotFoundError) and os.path.islink(path):
            raise FileRefused(f"{shown} is a symlink to nothing (its target does not exist)") from None
        raise
    _check_kind(found, shown, max_bytes, what)
    return path


def _check_kind(found: os.stat_result, shown: str, max_bytes: int, what: str) -> None:
    for test, kind in KINDS:
        if test(found.st_mode):
            raise FileRefused(f"{shown} is {kind}, not a {what}")
    if not stat.S_ISREG(found.st_mode):
        raise FileRefused(f"{shown} is not a regular file, so not a {what}")
    if found.st_size > max_bytes:
        raise FileRefused(f"{shown} is {over_limit(found.st_size, max_bytes, what)}")


def read_bytes(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> bytes:
    """The content of the file ``path``, checked (``checked_file``) and at most ``max_bytes``."""
    path = checked_file(path, max_bytes, what)
    shown = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        handle = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise FileRefused(f"{shown} is a symlink loop: it leads back to itself, never to a {what}") from None
        if error.errno == errno.ENXIO:
            raise FileRefused(f"{shown} is a socket, not a {what}") from None
        raise
    with os.fdopen(handle, "rb") as file:
        _check_kind(os.fstat(file.fileno()), shown, max_bytes, what)  # what was opened, not what was named
        content = file.read(max_bytes + 1)
    if len(content) > max_bytes:
        raise FileRefused(f"{shown} holds more than {max_bytes:,} bytes, the limit for a {what}")
    return content


def open_plain(path: str | os.PathLike[str]) -> Any:
    """``path`` opened for reading, in binary, if it is a regular file itself: no symlink
    followed (not even one inside its folder), no FIFO waited on. For the files the library
    made and streams (a cache entry's mark and games), where a link or a special file means the
    file is not the library's own; the caller bounds what it reads."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise FileRefused(f"{os.fspath(path)} is not a regular file")
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")


def read_text(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> str:
    """The UTF-8 text of the file ``path`` (``read_bytes``); ``FileRefused`` naming the byte
    where it is not UTF-8."""
    content = read_bytes(path, max_bytes, what)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileRefused(
            f"{os.fspath(path)} is not UTF-8 text ({error.reason} at byte {error.start}), so not a {what}"
        ) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> Any:
    """The JSON document in the file ``path`` (``read_text``), read strictly: ``FileRefused``
    for text that is not JSON, ``NaN`` or ``Infinity``, nesting too deep, or a number too long."""
    text = read_text(path, max_bytes, what)
    shown = os.fspath(path)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise FileRefused(
            f"{shown} is not a JSON {what}: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise FileRefused(f"{shown} is not a {what}: its JSON is nested too deeply to read") from None
    except ValueError as error:  # NaN, Infinity, or an integer past the 4300 digits Python reads
        reason = str(error) if "JSON number" in str(error) else "it holds a number too long to read (over 4300 digits)"
        raise FileRefused(f"{shown} is not a {what}: {reason}") from None
