"""Worker processes that end with their parent.

``kill -9`` of ``stargazer simulate`` gives its process pool no chance to stop its workers: each
would play its chunk of games to the end, at full speed, for nobody. ``exit_with_parent`` (run
in each worker when it starts) watches the parent from a daemon thread and ends the worker at
once when the parent is gone (the worker is then adopted: its parent id changes).
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["CHECK_INTERVAL", "exit_with_parent"]

#: Seconds between two looks at the parent.
CHECK_INTERVAL = 0.25


def exit_with_parent(interval: float = CHECK_INTERVAL) -> threading.Thread:
    """Start the watch in this process; it ends the process (``os._exit``) when its parent dies."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread
