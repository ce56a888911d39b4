"""The rules language read back as words: amounts, sets and conditions as phrases in Japanese
and English, built from each expression's structure.

Every word of the grammar (``vocabulary.expressions.GRAMMAR``) has a phrase in the catalogue
(``messages.yaml``: ``amounts``, ``planet_sets``, ``seat_sets``, ``crew_sets``,
``conditions``, ``owners``, ``squares``), filled with the phrases of its children, so that any
program reads as sentences with no class name and no placeholder (tests/test_language_text.py
holds this over the corpus and over generated programs). ``messages.describe_effect`` puts the
phrases into the sentences of the effects.
"""

from __future__ import annotations

from typing import Any

import attrs

from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.text.catalogue import catalogue, check_lang, join
from stargazer_rules.vocabulary import expressions as X

_SET_SECTIONS = {X.PLANETS: "planet_sets", X.SEATS: "seat_sets", X.CREWS: "crew_sets"}

#: Who "you" (``me``) is where a phrase is read: the chooser of a skill, or at a planet
#: ability the owner of the placed cube (``cube_placed``) or the player whose turn it is
#: (``becomes_full``), docs/skills.md, "Planet abilities".
YOU_ROLES = ("me", "cube_owner", "turn_player")


@attrs.frozen
class Reading:
    """Where a phrase is read, so that the words name what the data names: the kinds of set
    bound there (``this_crew`` bound is "that crew", unbound it is the card itself, "this
    crew"), the kind of the innermost filter (what "it" is), and who "you" is."""

    bound: frozenset[str] = frozenset()
    it: str | None = None
    you: str = "me"

    def binding(self, *kinds: str) -> Reading:
        return attrs.evolve(self, bound=self.bound | frozenset(kinds))

    def filtering(self, kind: str) -> Reading:
        return attrs.evolve(self, bound=self.bound | {kind}, it=kind)


#: A skill's own reading: nothing bound, "you" the chooser.
PLAIN = Reading()


def _render(section: str, key: str, lang: str, values: dict[str, Any], params: dict[str, Any] | None = None) -> str:
    template = catalogue().section(section)[key]
    return template.render(lang, params or {}, values)


def colour_name(ruleset: Ruleset, colour_id: str, lang: str) -> str:
    try:
        return ruleset.colour(colour_id).name.in_lang(lang)
    except KeyError:
        return colour_id


def _conjunction(key: str, lang: str) -> str:
    return _render("conditions", key, lang, {})


def either_of(phrases: Any, lang: str) -> str:
    """Clauses joined by "or" (``any``'s conjunction): R10's end conditions, one of which ends the game."""
    return _conjunction("or", lang).join(phrases)


def amount_phrase(amount: X.Amount, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN) -> str:
    """An amount as a noun phrase: a number as written, an expression as words."""
    check_lang(lang)
    if type(amount) is int:
        return str(amount)
    node: Any = amount
    word = node.word
    if isinstance(node, X.Quantity):
        return _render("amounts", word, lang, {})
    if isinstance(node, X.Cubes):
        values = {
            "owner": owner_phrase(node.owner, ruleset, lang, plural=True, ctx=ctx),
            "squares": _render("squares", node.squares, lang, {}),
            "planets": set_phrase(node.planets, ruleset, lang, ctx),
        }
        return _render("amounts", "cubes", lang, values)
    if isinstance(node, X.Arithmetic):
        items = node.items
        if word in ("min", "max") and len(items) == 2 and type(items[1]) is int:
            key = "at_most" if word == "min" else "at_least"
            return _render("amounts", key, lang, {"first": amount_phrase(items[0], ruleset, lang, ctx), "limit": items[1]})
        phrases = [amount_phrase(item, ruleset, lang, ctx) for item in items]
        if word == "difference":
            return _render("amounts", word, lang, {"first": phrases[0], "rest": join(phrases[1:], lang)})
        return _render("amounts", word, lang, {"items": join(phrases, lang)})
    if isinstance(node, X.Extreme):
        values = {
            "of": set_phrase(node.of, ruleset, lang, ctx),
            "amount": amount_phrase(node.amount, ruleset, lang, ctx.binding(node.of.kind)),
        }
        return _render("amounts", word, lang, values)
    return _render("amounts", word, lang, {"of": set_phrase(node.of, ruleset, lang, ctx)}, {"you": _is_you(node.of, ctx)})


def set_phrase(node: X.SetNode, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN) -> str:
    """A set of Planets, seats or crews as a noun phrase; ``this_planet`` and ``this_crew``
    are "that" where a member is bound and "this" (the card itself) where none is."""
    check_lang(lang)
    section = _SET_SECTIONS[node.kind]
    if isinstance(node, X.Where):
        if _is_seats_with_their_cube(node):  # players with a cube on the Planet read
            return _render(section, "with_cube_on", lang, {"planet": _planet_noun(ctx, lang)})
        condition = condition_phrase(node.condition, ruleset, lang, ctx.filtering(node.kind))
        default = "everyone" if node.kind == X.SEATS else "all"
        if node.of.to_data() == default:
            return _render(section, "where", lang, {"condition": condition})
        return _render(section, "where_from", lang, {"condition": condition, "from": set_phrase(node.of, ruleset, lang, ctx)})
    if isinstance(node, X.PlanetsOfColour):
        return _render(section, "colour", lang, {"colour": colour_name(ruleset, node.colour, lang)})
    if isinstance(node, X.SeatsByVP) and node.of.to_data() == "everyone":  # not "among every player"
        return _render(section, f"{node.word}_of_everyone", lang, {})
    if isinstance(node, (X.NextWithRoom, X.SeatsByVP, X.LeftOf)):
        return _render(section, node.word, lang, {"of": set_phrase(node.of, ruleset, lang, ctx)})
    if node.word in ("this_planet", "this_crew") and node.kind not in ctx.bound:
        return _render(section, f"{node.word}_itself", lang, {})
    if node.word == "me" and ctx.you != "me":
        return _render(section, f"me_{ctx.you}", lang, {})
    return _render(section, node.word, lang, {})


def _is_seats_with_their_cube(node: X.Where) -> bool:
    """``{where: {has_cube: this_seat}}``: the players with a cube on the Planet read."""
    return node.kind == X.SEATS and node.of.to_data() == "everyone" and node.condition.to_data() == {"has_cube": "this_seat"}


def _planet_noun(ctx: Reading, lang: str) -> str:
    """The Planet a predicate of a Planet reads: "it" inside a filter of Planets, else "that
    Planet" when one is bound, "this Planet" (the card's own) when none is."""
    if ctx.it == X.PLANETS:
        return _render("planet_sets", "it", lang, {})
    return _render("planet_sets", "this_planet" if X.PLANETS in ctx.bound else "this_planet_itself", lang, {})


def owner_phrase(owner: X.SetNode | str, ruleset: Ruleset, lang: str, plural: bool = False, ctx: Reading = PLAIN) -> str:
    """Whose cube (``plural``: cubes) as a noun phrase: anyone's, a free cube, a seat's."""
    section = "owners_plural" if plural else "owners"
    if isinstance(owner, str):
        return _render(section, owner, lang, {})
    if _is_you(owner, ctx):
        return _render(section, "me", lang, {})
    return _render(section, "seats", lang, {"of": set_phrase(owner, ruleset, lang, ctx)})


def _is_you(node: Any, ctx: Reading = PLAIN) -> bool:
    return isinstance(node, X.SeatsNamed) and node.name == "me" and ctx.you == "me"


def condition_phrase(node: X.ConditionNode, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN) -> str:
    """A condition as a clause (Japanese: in a plain form that can stand before a noun); a
    predicate of a Planet names it ("this Planet") unless it is the member of a Planet filter."""
    check_lang(lang)
    word = node.word
    if isinstance(node, X.Compare):
        values = {"left": amount_phrase(node.left, ruleset, lang, ctx), "right": amount_phrase(node.right, ruleset, lang, ctx)}
        return _render("conditions", word, lang, values)
    if isinstance(node, X.Logic):
        if word == "not":
            return _render("conditions", "not", lang, {"item": condition_phrase(node.items[0], ruleset, lang, ctx)})
        joiner = _conjunction("and" if word == "all" else "or", lang)
        items = joiner.join(condition_phrase(item, ruleset, lang, ctx) for item in node.items)
        return _render("conditions", word, lang, {"items": items})
    if isinstance(node, X.SeatPredicate):
        return _render("conditions", word, lang, {"of": set_phrase(node.of, ruleset, lang, ctx)}, {"you": _is_you(node.of, ctx)})
    if isinstance(node, X.OnPlanet):
        named = {"planet": "it" if ctx.it == X.PLANETS else "named"}
        values = {"planet": _planet_noun(ctx, lang)}
        if word == "is_colour":
            return _render("conditions", word, lang, {"colour": colour_name(ruleset, node.of, lang), **values}, named)  # type: ignore[arg-type]
        if word == "has_cube":
            return _render("conditions", word, lang, {"of": owner_phrase(node.of, ruleset, lang, ctx=ctx), **values}, named)  # type: ignore[arg-type]
        if word == "ranks_first":
            if isinstance(node.of, str):
                of = _render("owners", node.of, lang, {})
            else:
                of = set_phrase(node.of, ruleset, lang, ctx)  # type: ignore[arg-type]
            return _render("conditions", word, lang, {"of": of, **values}, {"you": _is_you(node.of, ctx), **named})
        return _render("conditions", word, lang, values, named)
    return _render("conditions", word, lang, {})


def phrase(kind: str, node: Any, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN) -> str:
    """An expression of ``kind`` (an effect parameter's kind) as words."""
    if kind == X.AMOUNT:
        return amount_phrase(node, ruleset, lang, ctx)
    if kind == X.CONDITION:
        return condition_phrase(node, ruleset, lang, ctx)
    if kind == "owner":
        return owner_phrase(node, ruleset, lang, ctx=ctx)
    return set_phrase(node, ruleset, lang, ctx)
