"""Child processes seen through /proc, for the tests that kill a command and look for orphans."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

#: Seconds after which a wait for a process, a server or a thread gives up. Not a bound on how
#: fast anything is (the tests bound work by counts): only so that a hung child fails its test
#: instead of holding the suite, however loaded the machine.
HANG_GUARD = 600.0


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    """The children of ``pid``, theirs, and so on."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def left_running(pids: list[int], seconds: float = HANG_GUARD) -> list[int]:
    """Those of ``pids`` still running after up to ``seconds``; they are then killed, so that a
    failing test leaves no orphan of its own behind."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in pids if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left
