"""How long a run will take, from a short calibration on the same machine, ruleset and bots.

Before a long run (more than ``LONG_RUN`` games to play), ``simulate`` and ``compare`` first play
the run's first ``CALIBRATION`` games, the start of the same plan, so nothing is played twice,
time them, and print the estimate for the rest before playing it:

    draft7: estimate: about 48 s for the remaining 1,736 games (calibrated on 64 games at 36.2 games/s)

The rate includes starting the worker processes, so the estimate errs on the long side.
"""

from __future__ import annotations

__all__ = ["CALIBRATION", "LONG_RUN", "estimate_text", "format_duration"]

#: Runs with more games than this to play are calibrated first.
LONG_RUN = 400
#: The games of the calibration (rounded up to whole blocks by the plan).
CALIBRATION = 64


def format_duration(seconds: float) -> str:
    """``48 s``, ``3 min 20 s``, ``2 h 05 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def estimate_text(played: int, seconds: float, remaining: int) -> str:
    """The estimate line for ``remaining`` games after ``played`` games took ``seconds``."""
    rate = played / seconds if seconds > 0 else float("inf")
    return (
        f"estimate: about {format_duration(remaining / rate)} for the remaining {remaining:,} games "
        f"(calibrated on {played:,} games at {rate:,.1f} games/s)"
    )
