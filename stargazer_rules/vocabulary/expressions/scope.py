"""What an expression is evaluated on and bounded by: the kinds of expression, the ``Scope``
(table, chooser, bound members) and the ruleset's ``Limits``.

The bottom of the rules language: every node module reads these, and this one reads none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from stargazer_rules.vocabulary.table import Table


#: The kinds of expression, as the loader's problems and the docs name them.
AMOUNT = "amount"
CONDITION = "condition"
PLANETS = "planets"
SEATS = "seats"
CREWS = "crews"
KINDS = (AMOUNT, CONDITION, PLANETS, SEATS, CREWS)

#: What a set's filter binds, by the set's kind: the word its condition reads the member by.
BOUND_WORD = {PLANETS: "this_planet", SEATS: "this_seat", CREWS: "this_crew"}

#: Owner of a free cube (the virtual player, R15): the same number as ``effects.FREE_CUBE_OWNER``.
FREE = -1

#: The largest number (either sign) an effect parameter or an amount may be written with: far
#: past any card, and small enough that no product of a program leaves the kernel's 32 bits
#: unnoticed (the crew schema's bound too).
VALUE_LIMIT = 100


# -- the scope an expression is evaluated in ----------------------------------------------


@attrs.frozen
class Scope:
    """Where an expression is evaluated: the table, the chooser (``me``), the crew slot whose
    skill resolves, and the Planet, seat and crew bound by the innermost ``for_each``,
    ``choose`` or filter (-1 when none)."""

    table: Table
    me: int
    crew: int
    planet: int = -1
    seat: int = -1
    bound_crew: int = -1

    def bind(self, kind: str, member: int) -> Scope:
        if kind == PLANETS:
            return attrs.evolve(self, planet=member)
        if kind == SEATS:
            return attrs.evolve(self, seat=member)
        return attrs.evolve(self, bound_crew=member)


@attrs.frozen
class Limits:
    """The ruleset's numbers an amount's bounds are made of (``Game.bounds`` gives them)."""

    players: int
    least_players: int
    planets: int
    crews: int
    #: The most cubes one seat owns: the ruleset's, and the stock's when a seat may take
    #: free cubes as its own (``bounds.most_owned``, idea R8).
    cubes_per_player: int
    free_cubes: int
    free_on_crew: int
    rounds: int
    longest_track: int
    special_capacity: int
    colours: int
    least_survey_count: int
    most_survey_count: int
    free_cube_vp: int


Interval = tuple[int | None, int | None]
