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
from stargazer_rules.text.catalogue import catalogue, check_lang, join, label
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
    each: Any = None  # the seats a "for each player" of one effect gives to, said for this_seat
    every: bool = False  # a predicate of a Planet said of every Planet ("you have a cube on every Planet")
    member: tuple[str, str] | None = None  # (kind, words) the member of a most_of/least_of is said by ("any crew")

    def binding(self, *kinds: str) -> Reading:
        member = None if self.member and self.member[0] in kinds else self.member
        return attrs.evolve(self, bound=self.bound | frozenset(kinds), member=member)

    def filtering(self, kind: str) -> Reading:
        member = None if self.member and self.member[0] == kind else self.member
        return attrs.evolve(self, bound=self.bound | {kind}, it=kind, member=member)


#: A skill's own reading: nothing bound, "you" the chooser.
PLAIN = Reading()

#: The forms a set is said in: ``all`` its members ("Planets with room"), ``one`` of them
#: to choose ("a Planet with room", "another crew"), ``each`` of them in turn ("each other
#: player"), ``any`` one of them ("the most free cubes on any crew"). A set word without a
#: form of its own says "one of ...", "each of ..." or "any of ...".
FORMS = ("all", "one", "each", "any")

#: A comparison said the other way round, for a negated condition ("not at least" is "less than").
OPPOSITE = {
    "at_least": "less_than", "less_than": "at_least", "at_most": "more_than", "more_than": "at_most",
    "equal": "not_equal", "not_equal": "equal",
}


def _render(section: str, key: str, lang: str, values: dict[str, Any], params: dict[str, Any] | None = None) -> str:
    template = catalogue().section(section)[key]
    return template.render(lang, params or {}, values)


def _has_form(section: str, key: str, form: str) -> bool:
    return any(case.when.get("form") == form for case in catalogue().section(section)[key].cases)


def colour_name(ruleset: Ruleset, colour_id: str, lang: str) -> str:
    try:
        return ruleset.colour(colour_id).name.in_lang(lang)
    except KeyError:
        return colour_id


def _conjunction(key: str, lang: str) -> str:
    return _render("conditions", key, lang, {})


def either_of(phrases: Any, lang: str) -> str:
    """Clauses joined by "or" (``any``'s conjunction): R10's end conditions, one of which ends
    the game ("a, b, or c")."""
    return _listed(list(phrases), "or", lang)


def _listed(items: list[str], conjunction: str, lang: str) -> str:
    """Items as people list them: "a and b", "a, b, and c" (Japanese: 「a、かつb」)."""
    if len(items) < 3 or conjunction in ("plus", "times"):  # "a plus b plus c"
        return _conjunction(conjunction, lang).join(items)
    return join(items[:-1], lang) + _conjunction(f"last_{conjunction}", lang) + items[-1]


#: The amounts that count things, said without "the number of" where a most_of or least_of
#: counts them ("the most free cubes on any crew").
_COUNTS = (X.CountOf, X.Colours, X.Cubes, X.CrewCubes, X.HandOf, X.VPOf, X.Room)


def amount_phrase(amount: X.Amount, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN, bare: bool = False) -> str:
    """An amount as a noun phrase: a number as written, an expression as words; ``bare``, a
    count as the things counted ("free cubes on any crew", not "the number of ...")."""
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
        return _render("amounts", "cubes", lang, values, {"bare": bare, "seat": not isinstance(node.owner, str)})
    if isinstance(node, X.Arithmetic):
        items = node.items
        if word in ("min", "max") and len(items) == 2 and type(items[1]) is int:
            key = "at_most" if word == "min" else "at_least"
            return _render("amounts", key, lang, {"first": amount_phrase(items[0], ruleset, lang, ctx), "limit": items[1]})
        phrases = [amount_phrase(item, ruleset, lang, ctx) for item in items]
        if word == "difference":
            fewer = len(items) == 2 and type(items[1]) is int and type(items[0]) is not int
            values = {"first": phrases[0], "rest": _listed(phrases[1:], "and_items", lang)}
            return _render("amounts", word, lang, values, {"fewer": fewer})
        joiner = {"sum": "plus", "product": "times"}.get(word, "and_items")
        return _render("amounts", word, lang, {"items": _listed(phrases, joiner, lang)}, {"two": len(items) == 2})
    if isinstance(node, X.Extreme):
        values = {
            "of": set_phrase(node.of, ruleset, lang, ctx),
            "amount": amount_phrase(node.amount, ruleset, lang, ctx.binding(node.of.kind)),
        }
        counted = ""
        if isinstance(node.amount, _COUNTS):  # "the most free cubes on any crew"
            member = set_phrase(node.of, ruleset, lang, ctx, "any")
            counted = amount_phrase(node.amount, ruleset, lang, attrs.evolve(ctx.binding(node.of.kind), member=(node.of.kind, member)), bare=True)
            counted = counted if member in counted else ""  # an amount not of the member: said in full
        return _render("amounts", word, lang, {**values, "counted": counted}, {"bare": bool(counted)})
    params = {"you": _plural_subject(node.of, ctx), "all": node.of.to_data() == "all", "bare": bare}
    return _render("amounts", word, lang, {"of": set_phrase(node.of, ruleset, lang, ctx)}, params)


def set_phrase(node: X.SetNode, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN, form: str = "all") -> str:
    """A set of Planets, seats or crews as a noun phrase in ``form`` (``FORMS``: all of it, one
    of it to choose, each of it in turn); ``this_planet`` and ``this_crew`` are "it" for the
    member of a filter, "that" where a member is bound and "this" (the card itself) where none
    is; ``this_seat`` is "they" for the member of a filter of seats."""
    check_lang(lang)
    if ctx.member and ctx.member[0] == node.kind and node.word in _MEMBER_WORDS and ctx.it != node.kind:
        return ctx.member[1]
    section = _SET_SECTIONS[node.kind]
    key, values = _set_key(node, ruleset, lang, ctx, form)
    if key in _ONE_MEMBER or (key == "next_with_room" and values.get("several") is False):
        form = "all"  # one member: "that Planet", whatever the form
    if form != "all" and not _has_form(section, key, form):
        return label(f"{form}_of", lang, of=_render(section, key, lang, values, {"form": "all", "several": values.get("several")}))
    return _render(section, key, lang, values, {"form": form, "several": values.get("several")})


#: The words that name the member bound by a filter, for_each, choose, most_of or least_of.
_MEMBER_WORDS = frozenset({"this_planet", "this_seat", "this_crew"})

#: The set words of one member at most, said alike in every form.
_ONE_MEMBER = frozenset({
    "this_planet", "this_planet_itself", "it", "me", "me_cube_owner", "me_turn_player", "start_player",
    "left", "this_seat", "they", "left_of", "this_crew", "this_crew_itself",
})


def _set_key(node: X.SetNode, ruleset: Ruleset, lang: str, ctx: Reading, form: str) -> tuple[str, dict[str, Any]]:
    """The catalogue key of a set's phrase and the phrases of its parts."""
    if isinstance(node, X.Where):
        if _is_seats_with_their_cube(node):  # players with a cube on the Planet read
            return "with_cube_on", {"planet": _planet_noun(ctx, lang)}
        default = "everyone" if node.kind == X.SEATS else "all"
        relative = _relative_clause(node.condition, ruleset, lang, ctx.filtering(node.kind), plural=form == "all")
        if relative is not None:  # "a Planet with a cube on it", "another crew nobody picked this round"
            if node.of.to_data() == default:
                return "with", {"relative": relative}
            inner = form if form in ("one", "each", "any") else "all"
            return "with_from", {"relative": relative, "from": set_phrase(node.of, ruleset, lang, ctx, inner)}
        condition = condition_phrase(node.condition, ruleset, lang, ctx.filtering(node.kind))
        if node.of.to_data() == default:
            return "where", {"condition": condition}
        inner = form if form in ("one", "each", "any") else "all"
        return "where_from", {"condition": condition, "from": set_phrase(node.of, ruleset, lang, ctx, inner)}
    if isinstance(node, X.PlanetsOfColour):
        return "colour", {"colour": colour_name(ruleset, node.colour, lang)}
    if isinstance(node, X.SeatsByVP) and node.of.to_data() == "everyone":  # not "among every player"
        return f"{node.word}_of_everyone", {}
    if isinstance(node, X.NextWithRoom):  # of several Planets: the next after each of them
        several = _set_key(node.of, ruleset, lang, ctx, "all")[0] not in _ONE_MEMBER
        return node.word, {"of": set_phrase(node.of, ruleset, lang, ctx), "several": several}
    if isinstance(node, (X.SeatsByVP, X.LeftOf)):
        return node.word, {"of": set_phrase(node.of, ruleset, lang, ctx)}
    if node.word in ("this_planet", "this_crew") and ctx.it == node.kind:
        return "it", {}
    if node.word == "this_seat" and ctx.it == X.SEATS:
        return "they", {}
    if node.word in ("this_planet", "this_crew") and node.kind not in ctx.bound:
        return f"{node.word}_itself", {}
    if node.word == "me" and ctx.you != "me":
        return f"me_{ctx.you}", {}
    return node.word, {}


#: The comparisons a count said after its noun can take ("with at least 1 free cube on it").
_COUNTED = ("at_least", "at_most", "more_than", "less_than", "equal")


def _relative_clause(node: X.ConditionNode, ruleset: Ruleset, lang: str, ctx: Reading, plural: bool, negated: bool = False) -> str | None:
    """A filter's condition said as a clause right after its noun, where one reads better
    than "where ...": a count on the member against a number ("with at least 1 free cube on
    it"), a cube on the Planet ("with a cube on it"), a crew's pick ("nobody picked this
    round"); None for every other condition."""
    if isinstance(node, X.Logic) and node.word == "not":
        return _relative_clause(node.items[0], ruleset, lang, ctx, plural, not negated)
    on = _render("relatives", "them" if plural else "it", lang, {})
    if isinstance(node, X.Compare) and type(node.right) is int and _counted_on_member(node.left, ctx):
        word = OPPOSITE[node.word] if negated else node.word
        if word not in _COUNTED:
            return None
        than = _render("relatives", word, lang, {"count": node.right})
        return _render("relatives", node.left.word, lang, {"count": node.right, "than": than, "on": on})  # type: ignore[union-attr]
    if isinstance(node, X.OnPlanet) and node.word == "has_cube" and ctx.it == X.PLANETS:
        if _is_you(node.of, ctx) or _is_they(node.of, ctx):
            return None  # "where you have a cube" says it already
        of = owner_phrase(node.of, ruleset, lang, ctx=ctx)  # type: ignore[arg-type]
        return _render("relatives", "has_cube", lang, {"of": of, "on": on}, {"negated": negated})
    if isinstance(node, X.OnCrew) and ctx.it == X.CREWS:
        return _render("relatives", node.word, lang, {}, {"negated": negated})
    return None


def _counted_on_member(amount: X.Amount, ctx: Reading) -> bool:
    """Whether ``amount`` counts things on the member of the filter being read: the free or
    player cubes on "it" (a crew), the empty squares of "it" (a Planet)."""
    if isinstance(amount, X.CrewCubes):
        return ctx.it == X.CREWS and amount.of.to_data() == "this_crew"
    if isinstance(amount, X.Room):
        return ctx.it == X.PLANETS and amount.of.to_data() == "this_planet"
    return False


def _is_seats_with_their_cube(node: X.Where) -> bool:
    """``{where: {has_cube: this_seat}}``: the players with a cube on the Planet read."""
    return node.kind == X.SEATS and node.of.to_data() == "everyone" and node.condition.to_data() == {"has_cube": "this_seat"}


def _every_planet(node: X.Compare) -> X.ConditionNode | None:
    """The predicate of ``{equal: [{planets: {where: P}}, {planets: all}]}`` (either way
    round): the Planets where P holds are all of them, said "P on every Planet"."""
    if node.word != "equal":
        return None
    for counted, whole in ((node.left, node.right), (node.right, node.left)):
        if not (isinstance(counted, X.CountOf) and isinstance(whole, X.CountOf) and whole.of.to_data() == "all"):
            continue
        where = counted.of
        if isinstance(where, X.Where) and where.kind == X.PLANETS and where.of.to_data() == "all" and isinstance(where.condition, X.OnPlanet):
            return where.condition
    return None


def _planet_noun(ctx: Reading, lang: str) -> str:
    """The Planet a predicate of a Planet reads: "it" inside a filter of Planets, else "that
    Planet" when one is bound, "this Planet" (the card's own) when none is, "every Planet"
    where the predicate holds of all of them."""
    if ctx.every:
        return _render("planet_sets", "every", lang, {})
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
    if _is_they(owner, ctx):
        return _render(section, "they", lang, {})
    return _render(section, "seats", lang, {"of": set_phrase(owner, ruleset, lang, ctx)})


def _is_you(node: Any, ctx: Reading = PLAIN) -> bool:
    return isinstance(node, X.SeatsNamed) and node.name == "me" and ctx.you == "me"


def _is_they(node: Any, ctx: Reading = PLAIN) -> bool:
    """``this_seat`` as the member of a filter of seats or of a "for each player": "they"."""
    return isinstance(node, X.SeatsNamed) and node.name == "this_seat" and ctx.it == X.SEATS


def _plural_subject(node: Any, ctx: Reading = PLAIN) -> bool:
    """Whether a seat said as a subject takes a plural verb: "you have", "they have"."""
    return _is_you(node, ctx) or _is_they(node, ctx)


def condition_phrase(node: X.ConditionNode, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN, negated: bool = False) -> str:
    """A condition as a clause (Japanese: in a plain form that can stand before a noun); a
    predicate of a Planet names it ("this Planet") unless it is the member of a Planet filter.
    ``negated`` says its opposite as people do: a comparison turned round ("less than"), each
    predicate in its negative form ("you have no cube"), ``all`` and ``any`` by De Morgan."""
    check_lang(lang)
    word = node.word
    if isinstance(node, X.Compare):
        every = _every_planet(node)
        if every is not None and not negated:  # "you have a cube on every Planet"
            return condition_phrase(every, ruleset, lang, attrs.evolve(ctx, it=None, bound=ctx.bound | {X.PLANETS}, every=True))
        values = {"left": amount_phrase(node.left, ruleset, lang, ctx), "right": amount_phrase(node.right, ruleset, lang, ctx)}
        return _render("conditions", OPPOSITE[word] if negated else word, lang, values)
    if isinstance(node, X.Logic):
        if word == "not":
            return condition_phrase(node.items[0], ruleset, lang, ctx, not negated)
        joined = "and" if (word == "all") != negated else "or"
        items = _listed([condition_phrase(item, ruleset, lang, ctx, negated) for item in node.items], joined, lang)
        return _render("conditions", "any" if joined == "or" else "all", lang, {"items": items})
    sign = {"negated": negated}
    if isinstance(node, X.SeatPredicate):
        params = {"you": _plural_subject(node.of, ctx), **sign}
        return _render("conditions", word, lang, {"of": set_phrase(node.of, ruleset, lang, ctx)}, params)
    if isinstance(node, X.OnPlanet):
        named = {"planet": "it" if ctx.it == X.PLANETS else "named", **sign}
        values = {"planet": _planet_noun(ctx, lang)}
        if word == "is_colour":
            return _render("conditions", word, lang, {"colour": colour_name(ruleset, node.of, lang), **values}, named)  # type: ignore[arg-type]
        if word == "has_cube":
            whose = "me" if _is_you(node.of, ctx) else "they" if _is_they(node.of, ctx) else "other"
            values["of"] = owner_phrase(node.of, ruleset, lang, ctx=ctx)  # type: ignore[arg-type]
            return _render("conditions", word, lang, values, {"whose": whose, **named})
        if word == "ranks_first":
            if isinstance(node.of, str):
                of = _render("owners", node.of, lang, {})
            else:
                of = set_phrase(node.of, ruleset, lang, ctx)  # type: ignore[arg-type]
            return _render("conditions", word, lang, {"of": of, **values}, {"you": _plural_subject(node.of, ctx), **named})
        return _render("conditions", word, lang, values, named)
    return _render("conditions", word, lang, {}, sign)


def phrase(kind: str, node: Any, ruleset: Ruleset, lang: str, ctx: Reading = PLAIN, form: str = "all") -> str:
    """An expression of ``kind`` (an effect parameter's kind) as words; a set in ``form``."""
    if kind == X.AMOUNT:
        return amount_phrase(node, ruleset, lang, ctx)
    if kind == X.CONDITION:
        return condition_phrase(node, ruleset, lang, ctx)
    if kind == "owner":
        return owner_phrase(node, ruleset, lang, ctx=ctx)
    return set_phrase(node, ruleset, lang, ctx, form)
