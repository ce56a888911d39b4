"""What the fast API takes: ids, seats and game counts as integers, and batches within memory.

An id, a seat or a count is a Python ``int`` or a numpy integer: a ``bool`` is an int to
Python, but ``True`` names no action; a float or a text is refused rather than rounded or
parsed. A batch's memory is estimated from the ruleset before anything is allocated
(``batch_bytes``) and refused past ``MAX_BATCH_BYTES``, so that a mistyped ``n`` is a
ValueError and never an interpreter aborted by a failed allocation.
"""

from __future__ import annotations

import operator
from typing import Any

#: The most memory a batch may need (its games, and the arrays its methods return): 2 GiB.
MAX_BATCH_BYTES = 2 * 1024**3
#: An upper estimate of one kernel game state with its inline buffers (``crates/kernel/src/state.rs``).
STATE_BYTES = 2048
#: The bytes of one listed action when a state's list outgrows its inline buffer.
ACTION_BYTES = 8


def integer(value: object, what: str) -> int:
    """``value`` as an int when it is an integer (an int or a numpy integer, not a bool);
    TypeError naming ``what`` otherwise."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{what} must be an integer, not {value!r} ({type(value).__name__})")
    return operator.index(value)


def batch_bytes(fast: Any, n: int) -> int:
    """The memory ``n`` games of ``fast`` (a ``FastGame``) need at most: per game, its state (legal actions
    spilled included), its row of legal ids, its returns, and one row of each array the batch
    returns (observations, legal mask)."""
    per_game = (
        STATE_BYTES
        + ACTION_BYTES * fast.max_legal
        + 4 * (fast.max_legal + 1)
        + 4 * 2 * fast.max_players
        + 4 * fast.observation_size
        + fast.num_actions
    )
    return n * per_game


def check_batch_size(fast: Any, n: object) -> int:
    """``n`` when it is a game count whose batch fits ``MAX_BATCH_BYTES``; else TypeError or
    ValueError saying the most games this ruleset's batch may hold."""
    n = integer(n, "a batch's game count n")
    most = MAX_BATCH_BYTES // batch_bytes(fast, 1)
    if not 1 <= n <= most:
        raise ValueError(
            f"a batch of {n:,} games is outside 1 to {most:,}: ruleset {fast.ruleset.name}'s batch needs about "
            f"{batch_bytes(fast, 1):,} bytes a game, and a batch may use at most {MAX_BATCH_BYTES // 1024**3} GiB"
        )
    return n
