"""The rules language's expressions: amounts, conditions and the sets of Planets, seats and crews.

Every place where a skill took a constant can take an expression, computed from the position
when the effect resolves (docs/skills.md, "The rules language"):

- an **amount** is an integer: a number, a count (``planets: full``, ``cubes: {owner: me}``),
  a seat's VP or hand, the round, ``sum``/``difference``/``product``/``min``/``max`` of
  amounts, or ``most_of``/``least_of`` an amount over a set's members, each bound in turn;
- a **condition** is true or false: a comparison of two amounts (``at_least: [a, b]``),
  ``all``/``any``/``not``, or a predicate (``has_fewest_vp: me``, ``ranks_first: me``);
- a **set** lists Planets (ring order), seats (turn order from the chooser) or crews
  (crew-area order): a word (``with_room``, ``others``, ``unpicked``) or a filter
  (``{where: <condition>, from: <set>}``) whose condition reads the member as ``this_planet``,
  ``this_seat`` or ``this_crew``.

An expression is parsed once by the loader (``parse``: every problem at its path, with "did
you mean"), evaluated by the Python engine on a ``Scope`` and compiled node for node into the
kernel, which reads each node's ``word`` and named fields. ``bounds`` gives an amount's least
and most from the ruleset's limits, so that the VP a seat may hold and the survey count stay
bounded for any program: an amount that reads VP has no bound and may not give VP.

The package is split by job: ``scope`` (the kinds, ``Scope`` and ``Limits``), ``nodes`` (the
base classes), ``sets``, ``amounts`` and ``conditions`` (each node's evaluation and bounds),
``parser`` (located problems, did-you-mean) and ``grammar`` (the table of words). Every name is
re-exported here, so ``from stargazer_rules.vocabulary.expressions import X`` reads any of them.
The package is the bottom of the rules: it imports nothing of them.
"""

from __future__ import annotations

from stargazer_rules.vocabulary.expressions.scope import (
    AMOUNT,
    BOUND_WORD,
    CONDITION,
    CREWS,
    FREE,
    KINDS,
    PLANETS,
    SEATS,
    VALUE_LIMIT,
    Interval,
    Limits,
    Scope,
)
from stargazer_rules.vocabulary.expressions.nodes import (
    Amount,
    AmountNode,
    ConditionNode,
    Node,
    SetNode,
    amount_bounds,
    amount_data,
    amount_value,
    walk,
)
from stargazer_rules.vocabulary.expressions.sets import (
    CrewsNamed,
    LeftOf,
    NextWithRoom,
    PlanetsNamed,
    PlanetsOfColour,
    SeatsByVP,
    SeatsNamed,
    Where,
)
from stargazer_rules.vocabulary.expressions.amounts import (
    ARITHMETIC,
    EXTREMES,
    OWNER_WORDS,
    SQUARES,
    Arithmetic,
    Colours,
    CountOf,
    CrewCubes,
    Cubes,
    Extreme,
    HandOf,
    Quantity,
    Room,
    VPOf,
    reads_vp,
)
from stargazer_rules.vocabulary.expressions.conditions import COMPARISONS, SEAT_PREDICATES, Compare, Logic, OnCrew, OnPlanet, SeatPredicate
from stargazer_rules.vocabulary.expressions.parser import Parser, Path
from stargazer_rules.vocabulary.expressions.grammar import (
    COLOUR,
    CUBES_VALUE,
    EXTREME_VALUE,
    GRAMMAR,
    LIST,
    OWNER_VALUE,
    PAIR,
    WHERE_VALUE,
    words_of,
)

__all__ = [
    "AMOUNT",
    "BOUND_WORD",
    "CONDITION",
    "CREWS",
    "FREE",
    "KINDS",
    "PLANETS",
    "SEATS",
    "VALUE_LIMIT",
    "Interval",
    "Limits",
    "Scope",
    "Amount",
    "AmountNode",
    "ConditionNode",
    "Node",
    "SetNode",
    "amount_bounds",
    "amount_data",
    "amount_value",
    "walk",
    "CrewsNamed",
    "LeftOf",
    "NextWithRoom",
    "PlanetsNamed",
    "PlanetsOfColour",
    "SeatsByVP",
    "SeatsNamed",
    "Where",
    "ARITHMETIC",
    "EXTREMES",
    "OWNER_WORDS",
    "SQUARES",
    "Arithmetic",
    "Colours",
    "CountOf",
    "CrewCubes",
    "Cubes",
    "Extreme",
    "HandOf",
    "Quantity",
    "Room",
    "VPOf",
    "reads_vp",
    "COMPARISONS",
    "SEAT_PREDICATES",
    "Compare",
    "Logic",
    "OnCrew",
    "OnPlanet",
    "SeatPredicate",
    "Parser",
    "Path",
    "COLOUR",
    "CUBES_VALUE",
    "EXTREME_VALUE",
    "GRAMMAR",
    "LIST",
    "OWNER_VALUE",
    "PAIR",
    "WHERE_VALUE",
    "words_of",
]
