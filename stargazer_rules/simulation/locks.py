"""One writer per run folder: an operating-system file lock, and who holds it.

Two commands writing one ``games.jsonl`` at once would interleave their games (the same game
twice, or a line cut by another). ``holding(folder, command)`` takes the folder's lock for as
long as the command writes there: a second writer is refused at once with a ``FolderBusy`` that
names the holder (process, command, since when), read from the small file the holder wrote
beside the lock. The lock is the kernel's (``filelock``: ``flock`` on POSIX, ``LockFileEx`` on
Windows), so it goes with its process: after a ``kill -9`` the next run takes it.

The lock is re-entrant in one process, so a command holding a folder may call library code
that takes the same lock.

A lock file or holder file that is a symbolic link or a special file is refused before
anything is opened: taking the lock opens its file for writing, which would reach through a
link to a file outside the folder.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from stargazer_rules.errors import FolderBusy
from stargazer_rules.rulesets import boundedfiles, outputfiles

__all__ = ["FolderBusy", "HOLDER_FILE", "LOCK_FILE", "holding"]

#: The lock file inside a run or cache folder.
LOCK_FILE = ".lock"
#: Who holds the lock, written by the holder once it has it.
HOLDER_FILE = ".lock-holder.json"


@contextlib.contextmanager
def holding(folder: str | os.PathLike[str], command: str, *, wait: float = 0.0) -> Iterator[None]:
    """Hold ``folder``'s lock for the ``with`` block (the folder is made if missing).

    ``wait`` seconds are spent waiting for another holder (0: refuse at once); then
    ``FolderBusy`` says who holds it.
    """
    import filelock  # the sim extra's: the command line imports this module without it

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in (LOCK_FILE, HOLDER_FILE):
        try:
            mode = os.lstat(folder / name).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise OSError(f"{folder / name} is not a plain file (a link or a special file): the lock is kept in a "
                          "plain file of the folder; remove it")
    lock = filelock.FileLock(folder / LOCK_FILE, timeout=wait, is_singleton=True)
    outermost = not lock.is_locked
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FolderBusy(folder, _holder(folder)) from None
    try:
        if outermost:
            _write_holder(folder, command)
        yield
    finally:
        lock.release()
        if not lock.is_locked:
            with contextlib.suppress(OSError):
                (folder / HOLDER_FILE).unlink()


def _write_holder(folder: Path, command: str) -> None:
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": command,
        "argv": sys.argv[1:],
        "since": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime()),
    }
    with contextlib.suppress(OSError):
        outputfiles.write_json(folder / HOLDER_FILE, holder, indent=None, ensure_ascii=True)


#: A holder writes who it is just after it takes the lock: a process refused in between looks
#: again this many times, this many seconds apart, before it says it does not know.
HOLDER_LOOKS = 40
HOLDER_PAUSE = 0.025


def _holder(folder: Path) -> str:
    """``process 1234 on host (stargazer simulate --games 80, since ...)``, or what is known."""
    for _look in range(HOLDER_LOOKS):
        try:
            holder = boundedfiles.read_json(folder / HOLDER_FILE, _HOLDER_BYTES, "lock holder")
            argv = [str(word) for word in holder.get("argv", [])]
            words = " ".join(["stargazer", *argv]) if argv[:1] == [holder["command"]] else f"stargazer {holder['command']}"
            return f"process {holder['pid']} on {holder['host']} ({words}, since {holder['since']})"
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            time.sleep(HOLDER_PAUSE)
    return "another process (it has not said which)"


#: The most bytes of a holder file read: it is one short line.
_HOLDER_BYTES = 4096
