"""What a seed may be: an integer from 0 to 2**64 - 1.

Every seed taken from outside (a deal's or a bot's: ``--seed`` on the command line, ``seed`` in
a request body, ``make_bot``, ``Game.deal``) is checked against this one range. It is what the
native kernel holds (a 64-bit unsigned integer), and it gives each game one spelling: Python's
``random.Random(-5)`` is ``random.Random(5)``, so a negative seed would replay another seed's game.
"""

from __future__ import annotations

from stargazer_rules.errors import SeedError

__all__ = ["MAX_SEED", "MIN_SEED", "SEED_RANGE", "check_seed", "seed_problem"]

MIN_SEED = 0
MAX_SEED = 2**64 - 1
#: The range as an error message says it.
SEED_RANGE = f"an integer from {MIN_SEED} to {MAX_SEED} (2**64 - 1)"


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` is not a seed (``"-1 is not ..."``), or None when it is one."""
    if isinstance(seed, int) and not isinstance(seed, bool) and MIN_SEED <= seed <= MAX_SEED:
        return None
    shown = f"a {len(str(abs(seed)))}-digit number" if isinstance(seed, int) and abs(seed) > 10**30 else repr(seed)
    return f"{shown} is not a seed: give {SEED_RANGE}"


def check_seed(seed: object) -> int:
    """``seed`` when it is a seed; else ``SeedError`` saying the range."""
    problem = seed_problem(seed)
    if problem is not None:
        raise SeedError(problem)
    assert isinstance(seed, int)
    return seed
