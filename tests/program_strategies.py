"""Hypothesis strategies for random valid programs of the rules language (docs/skills.md).

``skills(colours)`` draws a crew skill of nested effects, each element of the language present:
amounts (every counting word, arithmetic), conditions (comparisons, all/any/not, every
predicate, in the context where its bound member exists), sets of Planets, seats and crews
(words and filters), owners, and the effects ``if``, ``choose``, ``for_each`` with bodies of
immediate effects. Amounts that give VP or change a survey never read VP (the loader refuses
them: they have no bound). ``language_ruleset_folder`` writes a copy of draft 7 whose dealt
crews carry drawn skills, for the properties and the lockstep test to load.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from stargazer_rules.vocabulary.expressions import ARITHMETIC, COMPARISONS, CREWS, PLANETS, SEATS

PLANET_WORDS = ("all", "with_room", "full", "surveyed")
SEAT_WORDS = ("me", "others", "everyone", "start_player", "left")
CREW_WORDS = ("all", "others", "unpicked", "this_crew")
QUANTITIES = ("round", "players", "stock")


@functools.cache
def planet_sets(bound: frozenset[str], depth: int, colours: tuple[str, ...]) -> st.SearchStrategy[Any]:
    words = list(PLANET_WORDS) + (["this_planet"] if PLANETS in bound else [])
    leaf = st.one_of(st.sampled_from(words), st.sampled_from(colours).map(lambda c: {"colour": c}))
    if depth <= 0:
        return leaf
    return st.one_of(
        leaf,
        planet_sets(bound, depth - 1, colours).map(lambda s: {"next_with_room": s}),
        st.builds(
            lambda cond, frm: {"where": cond, "from": frm},
            conditions(bound | {PLANETS}, depth - 1, colours),
            planet_sets(bound, depth - 1, colours),
        ),
    )


@functools.cache
def seat_sets(bound: frozenset[str], depth: int, colours: tuple[str, ...]) -> st.SearchStrategy[Any]:
    words = list(SEAT_WORDS) + (["this_seat"] if SEATS in bound else [])
    leaf = st.sampled_from(words)
    if depth <= 0:
        return leaf
    return st.one_of(
        leaf,
        st.builds(lambda w, s: {w: s}, st.sampled_from(["most_vp", "fewest_vp"]), seat_sets(bound, depth - 1, colours)),
        st.builds(lambda cond: {"where": cond}, conditions(bound | {SEATS}, depth - 1, colours)),
    )


@functools.cache
def crew_sets(bound: frozenset[str], depth: int, colours: tuple[str, ...]) -> st.SearchStrategy[Any]:
    leaf = st.sampled_from(CREW_WORDS)
    if depth <= 0:
        return leaf
    return st.one_of(
        leaf,
        st.builds(
            lambda cond, frm: {"where": cond, "from": frm},
            conditions(bound | {CREWS}, depth - 1, colours),
            crew_sets(bound, depth - 1, colours),
        ),
    )


@functools.cache
def owners(bound: frozenset[str], depth: int, colours: tuple[str, ...], anyone: bool = True) -> st.SearchStrategy[Any]:
    fixed = ["free", "anyone"] if anyone else ["free"]
    return st.one_of(st.sampled_from(fixed), seat_sets(bound, depth, colours))


@functools.cache
def amounts(bound: frozenset[str], depth: int, colours: tuple[str, ...], reads_vp: bool = False) -> st.SearchStrategy[Any]:
    leaves = [st.integers(-3, 4), st.sampled_from(QUANTITIES)]
    if depth <= 0:
        return st.one_of(*leaves)
    sub = depth - 1
    counted = [
        planet_sets(bound, sub, colours).map(lambda s: {"planets": s}),
        seat_sets(bound, sub, colours).map(lambda s: {"seats": s}),
        crew_sets(bound, sub, colours).map(lambda s: {"crews": s}),
        planet_sets(bound, sub, colours).map(lambda s: {"colours": s}),
        planet_sets(bound, sub, colours).map(lambda s: {"room": s}),
        crew_sets(bound, sub, colours).map(lambda s: {"free_cubes": s}),
        crew_sets(bound, sub, colours).map(lambda s: {"player_cubes": s}),
        seat_sets(bound, sub, colours).map(lambda s: {"hand": s}),
        st.builds(
            lambda owner, squares, planets: {"cubes": {"owner": owner, "squares": squares, "planets": planets}},
            owners(bound, sub, colours),
            st.sampled_from(["normal", "special", "both"]),
            planet_sets(bound, sub, colours),
        ),
        st.builds(
            lambda word, items: {word: items},
            st.sampled_from(ARITHMETIC),
            st.lists(amounts(bound, sub, colours, reads_vp), min_size=2, max_size=3),
        ),
    ]
    if reads_vp:
        counted.append(seat_sets(bound, sub, colours).map(lambda s: {"vp": s}))
    return st.one_of(*leaves, *counted)


@functools.cache
def conditions(bound: frozenset[str], depth: int, colours: tuple[str, ...]) -> st.SearchStrategy[Any]:
    sub = max(depth - 1, 0)
    options = [
        st.builds(
            lambda op, a, b: {op: [a, b]},
            st.sampled_from(COMPARISONS),
            amounts(bound, sub, colours, reads_vp=True),
            amounts(bound, sub, colours, reads_vp=True),
        ),
        st.builds(lambda w, s: {w: s}, st.sampled_from(["is_start_player", "has_most_vp", "has_fewest_vp"]), seat_sets(bound, sub, colours)),
    ]
    if PLANETS in bound:
        options += [
            st.sampled_from(["full", "has_room", "special_has_room", "surveyed"]),
            st.builds(lambda w, o: {w: o}, st.sampled_from(["ranks_first", "has_cube"]), owners(bound, sub, colours)),
            st.sampled_from(colours).map(lambda c: {"is_colour": c}),
        ]
    if CREWS in bound:
        options.append(st.just("unpicked"))
    if depth > 0:
        options += [
            st.builds(lambda w, items: {w: items}, st.sampled_from(["all", "any"]), st.lists(conditions(bound, sub, colours), min_size=1, max_size=3)),
            conditions(bound, sub, colours).map(lambda c: {"not": c}),
        ]
    return st.one_of(*options)


IMMEDIATE_PLAY = ("gain_vp", "lose_vp", "take_vp", "return_cube", "move_cube", "place_cube", "place_cube_on_crew", "collect_free_cubes")


@functools.cache
def immediate_effects(bound: frozenset[str], depth: int, colours: tuple[str, ...], timing: str) -> st.SearchStrategy[dict]:
    """One effect that asks no decision, fit for ``timing`` (a survey timing: survey changes)."""
    sub = max(depth - 1, 0)
    value = amounts(bound, sub, colours)
    vp = value.filter(lambda a: type(a) is not int or a >= 1)  # a number of VP is at least 1
    if timing == "survey":
        base = [
            value.map(lambda a: {"effect": "change_survey_count", "delta": a}),
            value.map(lambda a: {"effect": "set_survey_count", "count": a}),
            st.sampled_from(["allow_repeat_planet", "may_skip_planets", "choose_direction"]).map(lambda n: {"effect": n}),
        ]
    else:
        planets = planet_sets(bound, sub, colours)
        base = [
            vp.map(lambda a: {"effect": "gain_vp", "vp": a}),
            vp.map(lambda a: {"effect": "lose_vp", "vp": a}),
            st.builds(lambda a, s: {"effect": "take_vp", "vp": a, "from": s}, vp, seat_sets(bound, sub, colours)),
            st.builds(lambda p, o, to: {"effect": "return_cube", "planet": p, "owner": o, "to": to}, planets, owners(bound, sub, colours), st.sampled_from(["hand", "stock"])),
            st.builds(lambda p, o, to: {"effect": "move_cube", "planet": p, "owner": o, "to": to}, planets, owners(bound, sub, colours), planet_sets(bound | {PLANETS}, sub, colours)),
            st.builds(lambda p, o: {"effect": "place_cube", "planet": p, "owner": o, "square": "rearmost"}, planets, owners(bound, sub, colours, anyone=False)),
            st.builds(lambda p, o: {"effect": "place_cube", "planet": p, "owner": o, "square": "special"}, planets, seat_sets(bound, sub, colours)),
            st.builds(lambda c, o: {"effect": "place_cube_on_crew", "crew": c, "owner": o}, crew_sets(bound, sub, colours), owners(bound, sub, colours, anyone=False)),
            crew_sets(bound, sub, colours).map(lambda c: {"effect": "collect_free_cubes", "crew": c}),
        ]
    if depth <= 0:
        return st.one_of(*base)
    return st.one_of(
        *base,
        st.builds(
            lambda cond, then, other: {"effect": "if", "condition": cond, "then": then, "else": other},
            conditions(bound, sub, colours),
            st.lists(immediate_effects(bound, sub, colours, timing), max_size=2),
            st.lists(immediate_effects(bound, sub, colours, timing), max_size=2),
        ),
        _over_set("for_each", bound, sub, colours, timing),
    )


@functools.cache
def _over_set(name: str, bound: frozenset[str], depth: int, colours: tuple[str, ...], timing: str) -> st.SearchStrategy[dict]:
    def build(key: str) -> st.SearchStrategy[dict]:
        kind = {"planet": PLANETS, "seat": SEATS, "crew": CREWS}[key]
        sets = {"planet": planet_sets, "seat": seat_sets, "crew": crew_sets}[key](bound, depth, colours)
        body = st.lists(immediate_effects(bound | {kind}, depth, colours, timing), min_size=1, max_size=2)
        return st.builds(lambda s, do: {"effect": name, key: s, "do": do}, sets, body)

    return st.one_of(build("planet"), build("seat"), build("crew"))


@functools.cache
def effects(depth: int, colours: tuple[str, ...], timing: str) -> st.SearchStrategy[dict]:
    """A top-level effect at ``timing``: an immediate one, or a decision (``choose``), or an
    ``if`` whose branches hold either."""
    options = [immediate_effects(frozenset(), depth, colours, timing), _over_set("choose", frozenset(), depth, colours, timing)]
    if depth > 0:
        options.append(
            st.builds(
                lambda cond, then, other: {"effect": "if", "condition": cond, "then": then, "else": other},
                conditions(frozenset(), depth - 1, colours),
                st.lists(effects(depth - 1, colours, timing), max_size=2),
                st.lists(effects(depth - 1, colours, timing), max_size=2),
            )
        )
    return st.one_of(*options).map(lambda effect: {**effect, "when": timing})


@functools.cache
def skills(colours: tuple[str, ...], depth: int = 2) -> st.SearchStrategy[list[dict]]:
    """A skill of one to three effects, each at a timing of its own."""
    timed = st.sampled_from(["on_choose", "survey", "after_survey", "round_end"]).flatmap(lambda t: effects(depth, colours, t))
    return st.lists(timed, min_size=1, max_size=3)


def language_ruleset_folder(base: Path, folder: Path, drawn: list[list[dict]], max_rounds: int = 8) -> Path:
    """A copy of the ruleset at ``base`` whose dealt crews get the drawn skills in turn, each
    card keeping its survey count; its round limit at most ``max_rounds``, so that a game whose
    programs take cubes back still ends within a bounded count of decisions."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "planets.yaml").write_text((base / "planets.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    rules = yaml.safe_load((base / "rules.yaml").read_text(encoding="utf-8"))
    rules["max_rounds"] = min(rules.get("max_rounds", 30), max_rounds)
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules, allow_unicode=True, sort_keys=False), encoding="utf-8")
    crew = yaml.safe_load((base / "crew.yaml").read_text(encoding="utf-8"))
    dealt = [card for card in crew["crew"] if not card.get("always_in_play")]
    for index, card in enumerate(dealt):
        card["skill"] = drawn[index % len(drawn)]
    (folder / "crew.yaml").write_text(yaml.safe_dump(crew, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


@functools.cache
def effect_named(name: str, colours: tuple[str, ...], timing: str, depth: int = 1) -> st.SearchStrategy[dict]:
    """An effect of type ``name`` at ``timing`` (tests/strategies.py draws the language's types
    from here): drawn until one of that type comes."""
    if name == "choose":
        drawn = _over_set("choose", frozenset(), depth, colours, timing)
    elif name in ("if",):
        drawn = effects(depth, colours, timing).filter(lambda e: e["effect"] == "if")
    else:
        drawn = immediate_effects(frozenset(), depth, colours, timing).filter(lambda e: e["effect"] == name)
    return drawn.map(lambda effect: {**effect, "when": timing})
