"""The one way the library writes a file: a new file beside the name, renamed over it.

A run folder, a draft, a report's folder are places people share, copy and sync, so a name
the library writes may already hold something planted there: a symlink to a file elsewhere, a
FIFO that blocks whoever opens it, a folder. Opening such a name for writing would write
through the link or hang. So every file the library writes goes through this module (a test
over the source holds it, ``tests/test_one_writer.py``):

- ``write_text``, ``write_bytes``, ``write_json`` and ``write_with`` (for a writer that wants a
  binary file object: a PDF, a PNG) write a temporary file made in the target's own folder
  with exclusive creation and no link followed, flush and sync it, then rename it over the
  name. A rename replaces the name, never what a link points at.
- ``create_new`` does the same for a file that must not replace one (a playtest log, a saved
  game): it fails with ``FileExistsError`` when the name is taken.
- ``open_for_append`` (a run's games file while it is played) opens with no link followed and
  without blocking, then checks that the handle is a regular file of the current user.
- ``output_folder`` makes a folder the library writes into, and refuses a symlink or a file
  at its name: the folder must be a real folder, so that what is written lands where it is
  named (a link to a folder is refused even for ``--out``: name the folder itself).

Whatever is found at a name that is not a regular file (a symlink, a FIFO, a socket, a device,
a folder) is looked at with ``lstat`` only, never opened: ``FileRefused`` says in one line what
it is. A name longer than the system allows, a symlink loop and a path through a file are one
line too. ``refuse_special`` is the check alone, for a file a library writes itself (SQLite's
study).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from stargazer_rules.errors import FileRefused
from stargazer_rules.rulesets.boundedfiles import KINDS

__all__ = [
    "FileRefused",
    "create_new",
    "is_temporary",
    "kind_of",
    "open_for_append",
    "output_folder",
    "path_problem",
    "refuse_special",
    "write_bytes",
    "write_json",
    "write_text",
    "write_with",
]

#: The advice after a refusal: the caller's words may name the option to change.
_ADVICE = "stargazer writes only plain files; remove it or write elsewhere"

#: The longest part of a name kept in a temporary file's name (the rest is a random tag).
_TEMPORARY_STEM = 120

#: A temporary file's name: ``.NAME.TAG.partial``, TAG 12 hex digits.
_TEMPORARY_NAME = re.compile(r"\..+\.[0-9a-f]{12}\.partial", re.DOTALL)

_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NO_BLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOSE_ON_EXEC = getattr(os, "O_CLOEXEC", 0)


def kind_of(mode: int) -> str:
    """What a ``stat`` mode is, in words: ``a symbolic link``, ``a FIFO (named pipe)``..."""
    return _kind(mode)


def _kind(mode: int) -> str:
    for test, kind in KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def path_problem(error: OSError, path: str | os.PathLike[str]) -> FileRefused | None:
    """The one-line refusal for an ``OSError`` met at ``path`` that says something about the
    name itself (too long, a symlink loop, a file where a folder should be); None for others."""
    shown = os.fspath(path)
    if error.errno == errno.ENAMETOOLONG:
        longest = max((len(part) for part in Path(shown).parts), default=0)
        return FileRefused(
            f"{shown[:80]}{'…' if len(shown) > 80 else ''} is a name too long for this system "
            f"({len(shown)} characters, its longest part {longest}): choose a shorter one"
        )
    if error.errno == errno.ELOOP:
        return FileRefused(f"{shown} is a symlink loop: it leads back to itself, never to a file or folder")
    if error.errno == errno.ENOTDIR:
        return FileRefused(f"{shown}: a part of it is a file, not a folder")
    return None


def _checked(action: Callable[[], Any], path: str | os.PathLike[str]) -> Any:
    try:
        return action()
    except FileRefused:
        raise
    except OSError as error:
        refused = path_problem(error, path)
        if refused is None:
            raise
        raise refused from None


def refuse_special(path: str | os.PathLike[str], advice: str = _ADVICE) -> None:
    """``FileRefused`` when something other than a regular file is at ``path`` (looked at, not
    opened, not followed); nothing when there is a regular file or nothing."""
    try:
        mode = _checked(lambda: os.lstat(path).st_mode, path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise FileRefused(f"{os.fspath(path)} is {_kind(mode)}: {advice}")


def output_folder(path: str | os.PathLike[str]) -> Path:
    """``path`` as a folder to write into, made (with its parents) if missing; ``FileRefused``
    when a symlink, a file or a special file is at its name."""
    path = Path(path)
    try:
        mode = _checked(lambda: os.lstat(path).st_mode, path)
    except FileNotFoundError:
        _checked(lambda: path.mkdir(parents=True, exist_ok=True), path)
        mode = _checked(lambda: os.lstat(path).st_mode, path)
    if not stat.S_ISDIR(mode):
        kind = _kind(mode) if not stat.S_ISREG(mode) else "a file"
        raise FileRefused(f"{path} is {kind}, not a folder: stargazer writes only into a real folder; "
                          "remove it or write elsewhere")
    return path


def is_temporary(name: str) -> bool:
    """Whether ``name`` is a temporary file's of this writer (left by a crash): a folder's
    own file, never a user's."""
    return _TEMPORARY_NAME.fullmatch(name) is not None


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file in ``path``'s folder, opened for writing: exclusive, no link followed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | _CLOSE_ON_EXEC
    stem = path.name[:_TEMPORARY_STEM]
    for _attempt in range(100):
        temporary = path.with_name(f".{stem}.{secrets.token_hex(6)}.partial")
        try:
            return _checked(lambda: os.open(temporary, flags, 0o666), path), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "cannot name a temporary file (100 names taken)", os.fspath(path.parent))


@contextlib.contextmanager
def _written(path: Path) -> Iterator[tuple[IO[bytes], Path]]:
    """A temporary file beside ``path``, written by the ``with`` block, flushed and synced;
    removed if the block fails."""
    descriptor, temporary = _temporary(path)
    try:
        with os.fdopen(descriptor, "wb") as file:
            yield file, temporary
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_with(path: str | os.PathLike[str], write: Callable[[IO[bytes]], Any]) -> Path:
    """Make ``path`` hold what ``write`` writes into the binary file object it is given, in
    one rename; ``FileRefused`` (nothing changed) when anything but a regular file is there."""
    path = Path(path)
    refuse_special(path)
    with _written(path) as (file, temporary):
        write(file)
    try:
        refuse_special(path)  # again: something may have been put there meanwhile
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Make ``path`` hold ``data`` (``write_with``)."""
    return write_with(path, lambda file: file.write(data))


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Make ``path`` hold ``text`` in UTF-8 (``write_with``)."""
    return write_bytes(path, text.encode("utf-8"))


def write_json(path: str | os.PathLike[str], data: Any, *, indent: int = 2, ensure_ascii: bool = False) -> Path:
    """Make ``path`` hold ``data`` as JSON and a newline (``write_with``)."""
    return write_text(path, json.dumps(data, ensure_ascii=ensure_ascii, indent=indent) + "\n")


def create_new(path: str | os.PathLike[str], data: bytes) -> Path:
    """Make the file ``path`` hold ``data`` when nothing is at that name: ``FileExistsError``
    when a regular file is there, ``FileRefused`` for anything else. The file appears whole
    (written beside it, then linked in place, which never replaces a name)."""
    path = Path(path)
    refuse_special(path)
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "a file is already there", os.fspath(path))
    with _written(path) as (file, temporary):
        file.write(data)
    try:
        try:
            os.link(temporary, path, follow_symlinks=False)
        except FileExistsError:
            refuse_special(path)
            raise
        except OSError as error:  # a file system without hard links: create it exclusively
            if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
                raise
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | _CLOSE_ON_EXEC, 0o666)
            with os.fdopen(descriptor, "wb") as file:
                file.write(data)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return path


def open_for_append(path: str | os.PathLike[str], *, readable: bool = False, encoding: str | None = None) -> IO[Any]:
    """``path`` opened to append bytes (made if missing; with ``readable``, also to read and
    truncate; with ``encoding``, text in that encoding), after checking what was opened: a regular file of the current user
    with no other name (no hard link), reached with no link followed and no wait on a FIFO; ``FileRefused`` otherwise."""
    path = Path(path)
    refuse_special(path)
    access = (os.O_RDWR if readable else os.O_WRONLY) | os.O_APPEND | _NO_FOLLOW | _NO_BLOCK | _CLOSE_ON_EXEC
    try:
        descriptor = _checked(lambda: os.open(path, access | os.O_CREAT | os.O_EXCL, 0o666), path)
    except FileExistsError:
        try:
            descriptor = os.open(path, access)
        except OSError as error:
            refuse_special(path)  # a link, FIFO or socket put there meanwhile: say what it is
            raise (path_problem(error, path) or error) from None
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise FileRefused(f"{os.fspath(path)} is {_kind(found.st_mode)}: {_ADVICE}")
        if hasattr(os, "getuid") and found.st_uid != os.getuid():
            raise FileRefused(f"{os.fspath(path)} belongs to another user: stargazer appends only to its own files; "
                              "remove it or write elsewhere")
        if found.st_nlink > 1:  # a hard link: appending would write into the file behind its other name
            raise FileRefused(f"{os.fspath(path)} is a hard link (the file has {found.st_nlink} names): stargazer "
                              "appends only to a file of its own; remove it or write elsewhere")
        if _NO_BLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    binary = os.fdopen(descriptor, "ab+" if readable else "ab")
    return binary if encoding is None else io.TextIOWrapper(binary, encoding=encoding)
