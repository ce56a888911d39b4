"""The parser of the rules language: YAML data to nodes, every problem at its path with "did
you mean", so the loader reports all of a program's mistakes at once.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

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
)
from stargazer_rules.vocabulary.expressions.conditions import COMPARISONS, SEAT_PREDICATES, Compare, Logic, OnCrew, OnPlanet, SeatPredicate
from stargazer_rules.vocabulary.expressions.nodes import Amount, ConditionNode, SetNode
from stargazer_rules.vocabulary.expressions.scope import AMOUNT, BOUND_WORD, CONDITION, CREWS, PLANETS, SEATS, VALUE_LIMIT
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


# -- parsing --------------------------------------------------------------------------------

Path = tuple[Any, ...]


@attrs.define
class Parser:
    """Parses expressions from YAML data, collecting every problem as (path, message).

    ``colours`` are the ruleset's colour ids (a ``colour`` word names one of them); ``bound``
    the set kinds bound where the expression stands (``this_planet`` needs a Planet bound).
    """

    colours: Sequence[str]
    problems: list[tuple[Path, str]] = attrs.field(factory=list)

    def problem(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def parse(self, kind: str, data: Any, path: Path, bound: frozenset[str] = frozenset()) -> Any:
        """The node of ``kind`` that ``data`` writes, or None with problems recorded."""
        if kind == AMOUNT:
            return self.amount(data, path, bound)
        if kind == CONDITION:
            return self.condition(data, path, bound)
        return self.set_of(kind, data, path, bound)

    # -- helpers --

    def _unknown_colour(self, value: Any, at: Path) -> None:
        hint = _did_you_mean(str(value), self.colours)
        self.problem(at, f"unknown colour {_shown(value)}{hint}; the ruleset's colours: {', '.join(self.colours)}")

    def _word(self, data: Any, path: Path, kind: str, words: Sequence[str], keys: Sequence[str]) -> tuple[str, Any] | None:
        """The word of an expression: a string, or the one key of a mapping."""
        if isinstance(data, str):
            if data in words:
                return data, None
            hint = _did_you_mean(data, [*words, *keys])
            if data in keys:
                self.problem(path, f"{data!r} needs a value here: write it as {{{data}: ...}}")
            else:
                self.problem(path, f"unknown {_KIND_NAMES[kind]} word {data!r}{hint}; expected one of {_listing(words, keys)}")
            return None
        if isinstance(data, Mapping):
            if kind in (PLANETS, SEATS, CREWS) and "where" in data:
                return "where", data
            if len(data) != 1:
                self.problem(path, f"a {_KIND_NAMES[kind]} mapping has exactly one key (its word), not {len(data)}: {_listing((), [str(k) for k in data])}")
                return None
            (key, value), = data.items()
            if key in keys:
                return str(key), value
            hint = _did_you_mean(str(key), [*keys, *words])
            self.problem((*path, key), f"unknown {_KIND_NAMES[kind]} word {key!r}{hint}; expected one of {_listing(words, keys)}")
            return None
        self.problem(path, f"expected {_a(kind)} here, found {_shown(data)}")
        return None

    def _list(self, kind: str, data: Any, path: Path, bound: frozenset[str], least: int) -> tuple | None:
        if not isinstance(data, list) or len(data) < least:
            self.problem(path, f"expected a list of at least {least} {_KIND_NAMES[kind]}{'s' if least != 1 else ''}, found {_shown(data)}")
            return None
        items = tuple(self.parse(kind, item, (*path, i), bound) for i, item in enumerate(data))
        return None if any(item is None for item in items) else items

    # -- amounts --

    def amount(self, data: Any, path: Path, bound: frozenset[str]) -> Amount | None:
        if type(data) is int:
            if abs(data) > VALUE_LIMIT:
                # worded as the schema's bounds are (rulesets.validation)
                found = str(data) if len(str(data)) <= 30 else f"a {len(str(data))}-digit number"
                bound = f"at most {VALUE_LIMIT} (the schema's maximum)" if data > 0 else f"at least {-VALUE_LIMIT} (the schema's minimum)"
                self.problem(path, f"expected {bound}, found {found}")
                return None
            return data
        if isinstance(data, bool) or isinstance(data, float):
            self.problem(path, f"expected an amount (a whole number or an expression), found {_shown(data)}")
            return None
        keys = ("planets", "seats", "crews", "colours", "cubes", "free_cubes", "player_cubes", "hand", "vp", "room", *ARITHMETIC, *EXTREMES)
        found = self._word(data, path, AMOUNT, Quantity.words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word in Quantity.words:
            return Quantity(word)
        if word in ("planets", "seats", "crews"):
            of = self.set_of(word, value, at, bound)
            return None if of is None else CountOf(of)
        if word == "colours":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else Colours(of)
        if word in ("free_cubes", "player_cubes"):
            of = self.set_of(CREWS, value, at, bound)
            return None if of is None else CrewCubes(word == "free_cubes", of)
        if word in ("hand", "vp"):
            of = self.set_of(SEATS, value, at, bound)
            return None if of is None else (HandOf(of) if word == "hand" else VPOf(of))
        if word == "room":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else Room(of)
        if word == "cubes":
            return self._cubes(value, at, bound)
        if word in EXTREMES:
            return self._extreme(word, value, at, bound)
        least = 2 if word in ("difference",) else 1
        items = self._list(AMOUNT, value, at, bound, least)
        return None if items is None else Arithmetic(word, items)

    def _cubes(self, value: Any, at: Path, bound: frozenset[str]) -> Cubes | None:
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            self.problem(at, f"cubes takes a mapping of owner, squares and planets, found {_shown(value)}")
            return None
        ok = True
        for key in value:
            if key not in ("owner", "squares", "planets"):
                self.problem((*at, key), f"unknown key {key!r} of cubes{_did_you_mean(str(key), ['owner', 'squares', 'planets'])}; expected owner, squares or planets")
                ok = False
        owner = self.owner(value.get("owner", "anyone"), (*at, "owner"), bound)
        squares = value.get("squares", "normal")
        if squares not in SQUARES:
            self.problem((*at, "squares"), f"squares is one of {', '.join(SQUARES)}, not {_shown(squares)}{_did_you_mean(str(squares), SQUARES)}")
            ok = False
        planets = self.set_of(PLANETS, value.get("planets", "all"), (*at, "planets"), bound)
        if not ok or owner is None or planets is None:
            return None
        return Cubes(owner, squares, planets)

    def _extreme(self, word: str, value: Any, at: Path, bound: frozenset[str]) -> Extreme | None:
        """``{most_of: {seats: <set>, amount: <amount>}}`` (or planets, crews): the amount is
        read with the set's member bound."""
        keys = ("planets", "seats", "crews", "amount")
        if not isinstance(value, Mapping):
            self.problem(at, f"{word} takes a mapping of a set (planets, seats or crews) and an amount, found {_shown(value)}")
            return None
        ok = True
        for key in value:
            if key not in keys:
                self.problem((*at, key), f"unknown key {key!r} of {word}{_did_you_mean(str(key), keys)}; expected planets, seats or crews, and amount")
                ok = False
        kinds = [key for key in (PLANETS, SEATS, CREWS) if key in value]
        if len(kinds) != 1 and (ok or kinds):  # a misspelt set's key is problem enough
            named = f"found {', '.join(kinds)}" if kinds else "found none"
            self.problem(at, f"{word} reads its amount over one set: write exactly one of planets, seats or crews ({named})")
            ok = False
        if "amount" not in value:
            self.problem(at, f"{word} needs an amount: {{{word}: {{seats: everyone, amount: ...}}}}")
            ok = False
        if not ok:
            return None
        kind = kinds[0]
        of = self.set_of(kind, value[kind], (*at, kind), bound)
        amount = self.amount(value["amount"], (*at, "amount"), bound | {kind})
        if of is None or amount is None:
            return None
        return Extreme(word == "most_of", of, amount)

    def owner(self, data: Any, path: Path, bound: frozenset[str]) -> SetNode | str | None:
        """Whose cubes: ``free``, ``anyone`` or a set of seats."""
        if data in OWNER_WORDS:
            return data
        return self.set_of(SEATS, data, path, bound)

    # -- conditions --

    def condition(self, data: Any, path: Path, bound: frozenset[str]) -> ConditionNode | None:
        words = (*OnPlanet.words, *OnCrew.words)
        keys = (*COMPARISONS, "all", "any", "not", *SEAT_PREDICATES, *OnPlanet.with_seats, "is_colour")
        found = self._word(data, path, CONDITION, words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word in COMPARISONS:
            if not isinstance(value, list) or len(value) != 2:
                self.problem(at, f"{word} compares two amounts: write [a, b], not {_shown(value)}")
                return None
            left = self.amount(value[0], (*at, 0), bound)
            right = self.amount(value[1], (*at, 1), bound)
            return None if left is None or right is None else Compare(word, left, right)
        if word in ("all", "any"):
            items = self._list(CONDITION, value, at, bound, 1)
            return None if items is None else Logic(word, items)
        if word == "not":
            item = self.condition(value, at, bound)
            return None if item is None else Logic("not", (item,))
        if word in SEAT_PREDICATES:
            of = self.set_of(SEATS, value, at, bound)
            return None if of is None else SeatPredicate(word, of)
        if word in OnCrew.words:
            if CREWS not in bound:
                self.problem(path, f"{word!r} reads the crew bound by for_each, choose or a crews' where; none is bound here")
                return None
            return OnCrew(word)
        if PLANETS not in bound:
            self.problem(path, f"{word!r} reads the Planet bound by for_each, choose or a planets' where; none is bound here")
            return None
        if word == "is_colour":
            if value not in self.colours:
                self._unknown_colour(value, at)
                return None
            return OnPlanet(word, value)
        if word in OnPlanet.with_seats:
            owner = self.owner(value, at, bound)
            return None if owner is None else OnPlanet(word, owner)
        return OnPlanet(word)

    # -- sets --

    def set_of(self, kind: str, data: Any, path: Path, bound: frozenset[str]) -> SetNode | None:
        if kind == PLANETS:
            words, keys = PlanetsNamed.words, ("colour", "next_with_room")
        elif kind == SEATS:
            words, keys = SeatsNamed.words, ("most_vp", "fewest_vp", "left_of")
        else:
            words, keys = CrewsNamed.words, ()
        found = self._word(data, path, kind, words, keys)
        if found is None:
            return None
        word, value = found
        at = (*path, word)
        if word == "where":
            return self._where(kind, value, path, bound)
        if word in words:
            needs = BOUND_WORD.get(kind)
            if word == needs and kind not in bound and kind != CREWS:
                self.problem(path, f"{word!r} names the {_KIND_NAMES[kind][:-1] if kind != SEATS else 'seat'} bound by for_each, choose or a where; none is bound here")
                return None
            if kind == PLANETS:
                return PlanetsNamed(word)
            if kind == SEATS:
                return SeatsNamed(word)
            return CrewsNamed(word)
        if word == "colour":
            if value not in self.colours:
                self._unknown_colour(value, at)
                return None
            return PlanetsOfColour(value)
        if word == "next_with_room":
            of = self.set_of(PLANETS, value, at, bound)
            return None if of is None else NextWithRoom(of)
        of = self.set_of(SEATS, value, at, bound)
        if of is None:
            return None
        return LeftOf(of) if word == "left_of" else SeatsByVP(word == "most_vp", of)

    def _where(self, kind: str, data: Mapping[str, Any], path: Path, bound: frozenset[str]) -> SetNode | None:
        extra = [key for key in data if key not in ("where", "from")]
        for key in extra:
            self.problem((*path, key), f"unknown key {key!r} beside where{_did_you_mean(str(key), ['where', 'from'])}; a filter has where and, optionally, from")
        default = "everyone" if kind == SEATS else "all"
        of = self.set_of(kind, data.get("from", default), (*path, "from"), bound)
        condition = self.condition(data["where"], (*path, "where"), bound | {kind})
        if extra or of is None or condition is None:
            return None
        return Where(kind, condition, of)


_KIND_NAMES = {AMOUNT: "amount", CONDITION: "condition", PLANETS: "Planets", SEATS: "seats", CREWS: "crews"}


def _a(kind: str) -> str:
    name = _KIND_NAMES[kind]
    return f"an {name}" if name[0] in "aeiou" else f"a {name}" if kind in (CONDITION,) else f"a set of {name}"


def _listing(words: Sequence[str], keys: Sequence[str]) -> str:
    parts = [*words, *(f"{{{key}: ...}}" for key in keys)]
    return ", ".join(parts)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _did_you_mean(word: str, candidates: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
