"""The majority order of one Planet (R15): the one ranking that scoring and the skills read.

A skill may ask who ranks first on a Planet "right now" (the rules language's ``ranks_first``),
and scoring ranks every Planet at the end (``engine.scoring``): both call ``rank_order``, so the
tie rule lives here once.
"""

from __future__ import annotations

from collections import Counter


def rank_order(track: tuple[int, ...]) -> tuple[list[int], Counter[int], dict[int, int]]:
    """R15: the owners on a track (squares 1, 2, ... in order), most cubes first, ties to the
    owner whose lowest-numbered cube stands further back; with each owner's cube count and
    first square."""
    counts: Counter[int] = Counter(track)
    first: dict[int, int] = {}
    for square, owner in enumerate(track, start=1):
        first.setdefault(owner, square)
    order = sorted(counts, key=lambda owner: (-counts[owner], -first[owner]))
    return order, counts, first


def first_place(track: tuple[int, ...]) -> int | None:
    """The owner ranked first on a track (R15), None when it holds no cube; -1 is the virtual player."""
    if not track:
        return None
    return rank_order(track)[0][0]
