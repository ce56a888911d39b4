"""Work measured in counts, not seconds: the tests bound what a hostile input costs by the
function calls it takes, which the machine's load does not change.

``calls(function)`` runs ``function()`` with a profiler that counts every Python and C function
call (``sys.setprofile``) in this thread; a refusal that stops at a bound makes a number of
calls set by the bound, and one that reads the whole input makes many times more.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Counted:
    """What ``calls`` saw: the function's ``result`` or the ``error`` it raised, and ``calls``."""

    result: Any
    error: BaseException | None
    calls: int


def calls(function: Callable[[], Any]) -> Counted:
    """Run ``function()`` counting the function calls it makes in this thread."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result, error = function(), None
    except Exception as raised:  # returned to the test, which asserts on it
        result, error = None, raised
    finally:
        sys.setprofile(previous)
    return Counted(result, error, count)
