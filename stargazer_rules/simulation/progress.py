"""The progress bar of a run on stderr: games, rate and time left (tqdm), or nothing."""

from __future__ import annotations

import sys
from typing import IO, Any

__all__ = ["progress_bar"]


class _NoBar:
    def update(self, count: int) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int, initial: int, progress: bool | None, label: str | None) -> Any:
    """A tqdm bar with rate and ETA on stderr; None shows it only on a terminal."""
    if progress is False:
        return _NoBar()
    from tqdm import tqdm

    stream: IO[str] = sys.stderr
    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        desc=label,
        file=stream,
        disable=None if progress is None else False,
        smoothing=0.1,
        dynamic_ncols=True,
    )
