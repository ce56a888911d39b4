"""The majority of one Planet (R15, R16): the one ranking that scoring and the skills read.

A skill may ask who ranks first on a Planet "right now" (the rules language's ``ranks_first``),
and scoring ranks every Planet at the end (``engine.scoring``): both call ``rank_order``, so the
tie rule lives here once. How the ranking and the rows are read is the ruleset's ``majority``
section (docs/rules.md, "The majority as data"); ``Majority()`` is draft 7's R15 and R16.
"""

from __future__ import annotations

from collections import Counter

import attrs

#: R15: on equal counts the owner whose lowest-numbered cube stands further back ranks higher.
FURTHER_BACK = "first_cube_further_back"
#: The reverse: the owner whose lowest-numbered cube stands further forward ranks higher.
FURTHER_FORWARD = "first_cube_further_forward"
#: Owners with equal counts share the better rank; the next rank skips (1, 1, 3).
SHARED = "shared"
#: The tie rules a ruleset may name, in the order the schema and the kernel number them.
TIE_RULES = (FURTHER_BACK, FURTHER_FORWARD, SHARED)


@attrs.frozen
class Majority:
    """How a Planet's majority ranks its owners and which row each rank reads (R15, R16).

    ``ties``: one of ``TIE_RULES``. Rank r reads row k - (r - 1) x ``row_step`` (k: the
    highest occupied square) and scores its VP x ``rank_percent[r - 1]`` / 100 rounded down,
    ranks past the list as its last entry; a row whose printed VP is 0 (an accident, R1)
    scores ``accident_vp`` instead, and a rank whose row falls below square 1 scores 0.
    ``free_cubes_take_a_row``: free cubes rank as one virtual player whose VP is lost (R16);
    False leaves them out of the ranking (they still count for k).
    """

    ties: str = FURTHER_BACK
    row_step: int = 1
    rank_percent: tuple[int, ...] = (100,)
    accident_vp: int = 0
    free_cubes_take_a_row: bool = True

    def percent(self, rank: int) -> int:
        """The share of its row that rank ``rank`` (1-based) scores, in percent."""
        return self.rank_percent[min(rank, len(self.rank_percent)) - 1]

    def row(self, top: int, rank: int) -> int | None:
        """The row rank ``rank`` reads with the rearmost cube on square ``top``; None below square 1."""
        row = top - (rank - 1) * self.row_step
        return row if row >= 1 else None

    def vp(self, value: int | None, rank: int) -> int:
        """What rank ``rank`` scores reading a row of printed VP ``value`` (None: no row)."""
        if value is None:
            return 0
        if value == 0:
            return self.accident_vp
        return value * self.percent(rank) // 100

    def to_data(self) -> dict[str, object]:
        return {
            "ties": self.ties,
            "row_step": self.row_step,
            "rank_percent": list(self.rank_percent),
            "accident_vp": self.accident_vp,
            "free_cubes_take_a_row": self.free_cubes_take_a_row,
        }


#: Draft 7's majority, and the rule of a rules.yaml without a ``majority`` section.
R15_R16 = Majority()


def rank_order(
    track: tuple[int, ...], majority: Majority = R15_R16
) -> tuple[list[tuple[int, int]], Counter[int], dict[int, int]]:
    """The owners on a track (squares 1, 2, ... in order) with their ranks, best first: most
    cubes first, equal counts by ``majority.ties`` (R15); with each owner's cube count and
    first square. The virtual player (-1) is left out when free cubes take no row."""
    counts: Counter[int] = Counter(track)
    if not majority.free_cubes_take_a_row:
        counts.pop(-1, None)
    first: dict[int, int] = {}
    for square, owner in enumerate(track, start=1):
        first.setdefault(owner, square)
    if majority.ties == FURTHER_FORWARD:
        order = sorted(counts, key=lambda owner: (-counts[owner], first[owner]))
    else:  # a shared rank lists its owners further back first, as R15 would
        order = sorted(counts, key=lambda owner: (-counts[owner], -first[owner]))
    ranked = []
    for place, owner in enumerate(order):
        tied = place and majority.ties == SHARED and counts[order[place - 1]] == counts[owner]
        ranked.append((owner, ranked[-1][1] if tied else place + 1))
    return ranked, counts, first


def first_places(track: tuple[int, ...], majority: Majority = R15_R16) -> tuple[int, ...]:
    """The owners ranked first on a track (R15): one, or with shared ranks every owner sharing
    rank 1; none when it holds no ranked cube. -1 is the virtual player."""
    return tuple(owner for owner, rank in rank_order(track, majority)[0] if rank == 1)
