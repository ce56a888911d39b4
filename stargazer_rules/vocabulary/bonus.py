"""The major-planet bonus (R17): which cubes count per colour, and what the counts score.

Scoring counts each seat's cubes per planet colour (``engine.scoring``), and the ruleset's
``bonus`` section (docs/rules.md, "The major-planet bonus as data") says which squares count
and the formula that turns the counts into VP; ``Bonus()`` is draft 7's R17.

>>> R17.vp([3, 3, 3, 3])
12
>>> Bonus(formula=DISTINCT_COLOUR_SETS, set_size=4, set_vp=3).vp([3, 3, 2, 2, 1])
6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

#: Which cubes count: on normal and special squares alike (R17), on normal squares only, or on
#: special squares only.
ALL = "all"
NORMAL = "normal"
SPECIAL = "special"
SQUARES = (ALL, NORMAL, SPECIAL)

#: R17: the largest count m times the number of colours whose count is m.
LARGEST_GROUPS = "largest_groups"
#: ``vp`` for each complete set of one cube of each of ``size`` different colours (ideas R4).
DISTINCT_COLOUR_SETS = "distinct_colour_sets"
#: The VP of a table read at the largest count (entry i for a largest count of i + 1).
VP_BY_COUNT = "vp_by_count"
#: The formulas a ruleset may name, in the order the kernel numbers them.
FORMULAS = (LARGEST_GROUPS, DISTINCT_COLOUR_SETS, VP_BY_COUNT)


@attrs.frozen
class Bonus:
    """The major-planet bonus of a ruleset (R17).

    ``squares``: one of ``SQUARES``. ``formula``: one of ``FORMULAS``; ``set_size`` and
    ``set_vp`` are read by ``distinct_colour_sets`` only (0 otherwise), ``vp_by_count`` by
    ``vp_by_count`` only (empty otherwise).
    """

    squares: str = ALL
    formula: str = LARGEST_GROUPS
    set_size: int = 0
    set_vp: int = 0
    vp_by_count: tuple[int, ...] = ()

    @property
    def counts_normal(self) -> bool:
        """Whether cubes on normal squares count."""
        return self.squares != SPECIAL

    @property
    def counts_special(self) -> bool:
        """Whether cubes on special squares count."""
        return self.squares != NORMAL

    def vp(self, counts: Iterable[int], several: Sequence[tuple[Sequence[int], int]] = ()) -> int:
        """The bonus of one seat's cube counts, one per colour (colours without cubes may be left
        out when ``several`` is empty). A cube on a Planet that counts toward several colours
        (``counts_toward``, P1) is in each of their counts, and ``several`` lists those cubes as
        (positions in ``counts`` of its colours, cubes): the largest count and its table read
        it in every colour's group, but a set holds it once, as one of its colours (R4: each
        cube in one set at most)."""
        counts = list(counts)
        most = max(counts, default=0)
        if most == 0:
            return 0
        if self.formula == DISTINCT_COLOUR_SETS:
            return self.set_vp * complete_sets(counts, self.set_size, several)
        if self.formula == VP_BY_COUNT:
            return self.vp_by_count[min(most, len(self.vp_by_count)) - 1]
        return most * counts.count(most)

    def most_vp(self, cubes: int, counted: int) -> int:
        """The most VP the bonus gives one seat that owns at most ``cubes`` cubes, ``counted``
        of them counted over all colours at most (a cube counting toward every colour, P1,
        counts once per colour); each colour's count is at most ``cubes``."""
        if self.formula == DISTINCT_COLOUR_SETS:
            return self.set_vp * min(cubes, counted // self.set_size)
        if self.formula == VP_BY_COUNT:
            return max(self.vp_by_count[:cubes], default=0)
        return counted  # m x (colours at m) is at most the sum of the counts

    def to_data(self) -> dict[str, object]:
        """The ``bonus`` section as rules.yaml writes it."""
        formula: object = self.formula
        if self.formula == DISTINCT_COLOUR_SETS:
            formula = {DISTINCT_COLOUR_SETS: {"size": self.set_size, "vp": self.set_vp}}
        elif self.formula == VP_BY_COUNT:
            formula = {VP_BY_COUNT: list(self.vp_by_count)}
        return {"squares": self.squares, "formula": formula}

    @classmethod
    def from_data(cls, section: dict[str, object]) -> Bonus:
        """The bonus of a checked ``bonus`` section; a key left out keeps R17's value."""
        squares = str(section.get("squares", ALL))
        formula = section.get("formula", LARGEST_GROUPS)
        if isinstance(formula, dict):
            ((name, value),) = formula.items()
            if name == DISTINCT_COLOUR_SETS:
                return cls(squares, name, set_size=int(value["size"]), set_vp=int(value["vp"]))
            return cls(squares, name, vp_by_count=tuple(int(vp) for vp in value))
        return cls(squares, str(formula))


def complete_sets(counts: Iterable[int], size: int, several: Sequence[tuple[Sequence[int], int]] = ()) -> int:
    """How many sets of one cube of each of ``size`` different colours the counts make, each
    cube in one set at most: the largest k for which the cubes can stand as colours with at most
    k of each colour and size x k in all. ``several`` (``Bonus.vp``) are cubes that may stand as
    any one of their colours; the rest stand as their own, min(count, k) of them.

    The most that can stand, less size x k, is concave in k (a maximum flow whose capacities
    grow with k) and 0 at k = 0, so the k that fit are 0, 1, ..., the answer: counting up
    stops at the first k that fails.

    >>> complete_sets([5, 1, 1, 1], 4), complete_sets([2, 2, 2, 1, 1], 4), complete_sets([9, 9, 9], 4)
    (1, 2, 0)
    >>> complete_sets([1, 1, 1, 1, 1, 1], 4, [(range(6), 1)])  # one cube of every colour, alone
    0
    >>> complete_sets([2, 2, 2, 1, 1, 1], 4, [(range(6), 1)])  # it and a red, a blue, a yellow cube
    1
    """
    counts = list(counts)
    own = list(counts)
    for colours, cubes in several:
        for colour in colours:
            own[colour] -= cubes
    sets = 0
    while _standing(own, several, sets + 1) >= size * (sets + 1):
        sets += 1
    return sets


def _standing(own: Sequence[int], several: Sequence[tuple[Sequence[int], int]], k: int) -> int:
    """How many cubes can stand as colours, at most ``k`` of each: every colour's own cubes up
    to k, then the cubes of several colours in the room left (a bipartite matching, each cube
    taking a colour with room or moving another cube of several colours to one)."""
    room = [k - min(count, k) for count in own]
    standing = sum(min(count, k) for count in own)
    groups = [(tuple(colours), cubes) for colours, cubes in several if cubes]
    if all(len(colours) == len(room) for colours, _ in groups):  # P1: every colour, no choice to make
        return standing + min(sum(cubes for _, cubes in groups), sum(room))
    taken = [[0] * len(room) for _ in groups]
    for g, (_, cubes) in enumerate(groups):
        for _ in range(cubes):
            if not _seat_one(g, groups, taken, room, set()):
                break
            standing += 1
    return standing


def _seat_one(g: int, groups: list[tuple[tuple[int, ...], int]], taken: list[list[int]], room: list[int], seen: set[int]) -> bool:
    """One more cube of group ``g`` stands as a colour: one with room, or one whose cube of
    another group moves on to a colour of its own with room (an augmenting path)."""
    for colour in groups[g][0]:
        if colour in seen:
            continue
        seen.add(colour)
        if room[colour] > 0:
            room[colour] -= 1
            taken[g][colour] += 1
            return True
        for h in range(len(groups)):
            if taken[h][colour] and _seat_one(h, groups, taken, room, seen):
                taken[h][colour] -= 1
                taken[g][colour] += 1
                return True
    return False


#: Draft 7's bonus, and the rule of a rules.yaml without a ``bonus`` section.
R17 = Bonus()
