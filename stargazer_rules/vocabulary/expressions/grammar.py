"""The rules language's grammar: every word of each kind with what it takes, the one table the
crew schema and docs/skills.md are generated from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stargazer_rules.vocabulary.expressions.amounts import ARITHMETIC, EXTREMES, Quantity
from stargazer_rules.vocabulary.expressions.conditions import COMPARISONS, SEAT_PREDICATES, OnCrew, OnPlanet
from stargazer_rules.vocabulary.expressions.scope import AMOUNT, CONDITION, CREWS, PLANETS, SEATS
from stargazer_rules.vocabulary.expressions.sets import CrewsNamed, PlanetsNamed, SeatsNamed


#: The grammar: every word of each kind with what it takes. ``None``: a bare word; a kind:
#: one expression of it; ``(LIST, kind, least)``: a list of at least ``least``; ``PAIR``: two
#: amounts; ``COLOUR``: a colour id; ``OWNER_VALUE``: a set of seats, ``free`` or ``anyone``;
#: ``CUBES_VALUE``: the mapping of ``cubes``; ``WHERE_VALUE``: a filter; ``EXTREME_VALUE``:
#: a set (by its kind's key) and an amount. The parser reads
#: these words, the crew schema (``rulesets.schemas``) and docs/skills.md are generated from
#: this table, and a test holds the three together.
LIST, PAIR, COLOUR, OWNER_VALUE, CUBES_VALUE, WHERE_VALUE = "list", "pair", "colour", "owner", "cubes", "where"
EXTREME_VALUE = "extreme"
GRAMMAR: Mapping[str, Mapping[str, Any]] = {
    AMOUNT: {
        **{word: None for word in Quantity.words},
        "planets": PLANETS,
        "seats": SEATS,
        "crews": CREWS,
        "colours": PLANETS,
        "cubes": CUBES_VALUE,
        "free_cubes": CREWS,
        "player_cubes": CREWS,
        "hand": SEATS,
        "vp": SEATS,
        "room": PLANETS,
        **{word: (LIST, AMOUNT, 2 if word == "difference" else 1) for word in ARITHMETIC},
        **{word: EXTREME_VALUE for word in EXTREMES},
    },
    CONDITION: {
        **{word: PAIR for word in COMPARISONS},
        "all": (LIST, CONDITION, 1),
        "any": (LIST, CONDITION, 1),
        "not": CONDITION,
        **{word: SEATS for word in SEAT_PREDICATES},
        **{word: OWNER_VALUE for word in OnPlanet.with_seats},
        "is_colour": COLOUR,
        **{word: None for word in (*OnPlanet.words, *OnCrew.words)},
    },
    PLANETS: {**{word: None for word in PlanetsNamed.words}, "colour": COLOUR, "next_with_room": PLANETS, "where": WHERE_VALUE},
    SEATS: {**{word: None for word in SeatsNamed.words}, "most_vp": SEATS, "fewest_vp": SEATS, "left_of": SEATS, "where": WHERE_VALUE},
    CREWS: {**{word: None for word in CrewsNamed.words}, "where": WHERE_VALUE},
}


def words_of(kind: str) -> tuple[str, ...]:
    """Every word of the expressions of ``kind``, for the docs and the schema."""
    return tuple(GRAMMAR[kind])
