"""The checks of rules.yaml's programs: what an unpicked crew receives and the effects of
a round's end (R11), the major-planet bonus's formula (R17), the setup steps, the conditions
that end the game (R10) and the score sheet's lines of their own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.ability_checks import _YOU_WORDS, _ability_effect, _read_params
from stargazer_rules.rulesets.check_sites import (
    EffectSite,
    RulesetDocuments,
    _bodies,
    _colour_ids,
    _effect_colours,
    _expression_params,
    _expressions,
    _sites,
)
from stargazer_rules.rulesets.model import AT_CAP_REPLACED
from stargazer_rules.rulesets.validation import close_match, describe_value
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, ON_CHOOSE, OWNER, SURVEY, Effect
from stargazer_rules.vocabulary.expressions import AMOUNT, CONDITION, CREWS, SEATS, CrewsNamed, Node, Parser, SeatsNamed, walk
from stargazer_rules.vocabulary.table import ROUND_LIMIT


# -- the round's end (R11): rules.yaml round_end ------------------------------------------------

#: Where rules.yaml holds what a crew nobody picked receives at a round's end (R11).
UNPICKED_CREWS_PATH: DocPath = ("round_end", "unpicked_crews")
#: Its amount of the rules language; the schema leaves its errors to ``round_end_problems``.
FREE_CUBES_PATH: DocPath = (*UNPICKED_CREWS_PATH, "free_cubes")
#: The older knob of R11's cap, read as ``round_end.unpicked_crews.cap`` with 1 free cube.
OLDER_CAP_KEY = "max_free_cubes_per_crew"


def round_end_problems(documents: RulesetDocuments) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``round_end``: the section or the older
    ``max_free_cubes_per_crew`` given (not both, not neither), and its amount parsed with
    ``this_crew`` bound to the crew and nobody as "you" (``me`` refused, as at a planet
    ability's ``round_end``)."""
    rules = documents.rules
    data = rules.data
    if not isinstance(data, Mapping):
        return
    if OLDER_CAP_KEY in data and "round_end" in data:
        yield rules.problem(
            (OLDER_CAP_KEY,),
            f"{OLDER_CAP_KEY} is the older form of round_end.unpicked_crews.cap: with round_end given, leave it out",
            key=True,
        )
    elif OLDER_CAP_KEY not in data and "round_end" not in data:
        yield rules.problem(
            (),
            "round_end is missing: write what a crew nobody picked receives at a round's end (R11), "
            "e.g. round_end: {unpicked_crews: {free_cubes: 1, cap: 3}}",
        )
    section = data.get("round_end")
    crews = section.get("unpicked_crews") if isinstance(section, Mapping) else None
    if not isinstance(crews, Mapping) or "free_cubes" not in crews:
        return
    parser = Parser(_colour_ids(documents) or [])
    node = parser.parse(AMOUNT, crews["free_cubes"], FREE_CUBES_PATH, frozenset({CREWS}))
    for path, message in parser.problems:
        yield rules.problem(path, message)
    yield from _nobody_is_you(rules, FREE_CUBES_PATH, node, "read the crew as this_crew (e.g. {free_cubes: this_crew})")
    if crews.get("at_cap") == AT_CAP_REPLACED and "cap" in crews and crews["cap"] is None:
        yield rules.problem(
            (*UNPICKED_CREWS_PATH, "at_cap"),
            "at_cap: replaced replaces a crew when it reaches the cap, but cap is null (no cap): "
            "give a cap (e.g. cap: 3) or leave at_cap out (R11)",
        )



#: Where rules.yaml holds the effects performed at every round's end (idea R7).
ROUND_END_EFFECTS_PATH: DocPath = ("round_end", "effects")
#: What they stand in, for messages.
ROUND_END_EFFECTS_HOLDER = "round_end.effects"


def round_end_effect_sites(rules: YamlDocument, effect_types: Mapping[str, type[Effect]]) -> list[EffectSite]:
    """Every effect of a known type in rules.yaml's ``round_end.effects``, nested ones included:
    nothing is bound (no Planet, no crew) and nobody is "you"."""
    data = rules.data if rules.loaded else None
    section = data.get("round_end") if isinstance(data, Mapping) else None
    effects = section.get("effects") if isinstance(section, Mapping) else None
    return list(_sites(effects, ROUND_END_EFFECTS_PATH, None, effect_types)) if isinstance(effects, list) else []


def round_end_effect_paths(rules: YamlDocument, effect_types: Mapping[str, type[Effect]]) -> list[DocPath]:
    """Where ``round_end.effects`` holds an expression: the schema leaves them to
    ``round_end_effect_problems``, which words them for the language (with "did you mean")."""
    return _expression_params(round_end_effect_sites(rules, effect_types))


def round_end_effect_problems(documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]]) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``round_end.effects``, checked as a planet ability's
    ``round_end`` do: its expressions (``this_planet`` and ``this_crew`` bound nowhere), its
    colours, no decision (nested bodies included), no survey change, no ``when``, and no word of
    "you" (nobody is "you" at a round's end)."""
    rules = documents.rules
    sites = round_end_effect_sites(rules, effect_types)
    yield from _expressions(documents, sites, rules)
    yield from _effect_colours(documents, sites, rules)
    yield from _bodies(rules, sites)
    for site in sites:
        yield from _ability_effect(rules, site, AB.ROUND_END_EVENT, ROUND_END_EFFECTS_HOLDER)


#: rules.yaml's ``bonus.formula`` (R17): the schema leaves its errors to ``bonus_problems``,
#: which checks it against the one branch of the schema its shape names.
BONUS_FORMULA_PATH: DocPath = ("bonus", "formula")


def bonus_problems(documents: RulesetDocuments) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``bonus.formula``: a formula's name (with a did-you-mean),
    then its numbers against that formula's schema (so a mistake is placed at its own key, not
    reported as matching none of the formulas), and a set of more colours than the ruleset has."""
    from stargazer_rules.rulesets.schemas import load_schema  # see check_documents
    from stargazer_rules.rulesets.validation import schema_problems
    from stargazer_rules.vocabulary.bonus import DISTINCT_COLOUR_SETS, FORMULAS, LARGEST_GROUPS

    rules = documents.rules
    section = rules.data.get("bonus") if isinstance(rules.data, Mapping) else None
    if not isinstance(section, Mapping) or "formula" not in section:
        return
    formula = section["formula"]
    branches = load_schema("rules")["properties"]["bonus"]["properties"]["formula"]["anyOf"]
    if isinstance(formula, Mapping):
        names = list(formula)
        if len(names) != 1 or names[0] not in FORMULAS or names[0] == LARGEST_GROUPS:
            word = names[0] if len(names) == 1 else None
            yield rules.problem(
                BONUS_FORMULA_PATH if word is None else (*BONUS_FORMULA_PATH, word),
                f"a formula is {LARGEST_GROUPS}, {{{DISTINCT_COLOUR_SETS}: {{size: n, vp: n}}}} or "
                f"{{vp_by_count: [...]}}, found " + (f"the key {word!r}" if word is not None else describe_value(dict(formula))),
                close_match(word, FORMULAS[1:]) if word is not None else None,
                key=word is not None,
            )
            return
        branch = next(b for b in branches if names[0] in b.get("properties", {}))
    else:
        branch = branches[0]
    schema = {"properties": {"bonus": {"properties": {"formula": branch}}}}
    found = schema_problems(rules, schema)
    yield from found
    colours = _colour_ids(documents)
    if not found and isinstance(formula, Mapping) and DISTINCT_COLOUR_SETS in formula and colours:
        size = formula[DISTINCT_COLOUR_SETS]["size"]
        if size > len(colours):
            yield rules.problem(
                (*BONUS_FORMULA_PATH, DISTINCT_COLOUR_SETS, "size"),
                f"a set of {size} different colours, but the ruleset has {len(colours)} colours: no set could be complete",
            )


# -- the setup (R6 of the draft-8 ideas): rules.yaml setup.each_player ---------------------------

#: Where rules.yaml holds the effects each player performs before the first round; the schema
#: leaves its errors to ``setup_problems``, which checks them against the effect schema.
EACH_PLAYER_PATH: DocPath = ("setup", "each_player")
#: The most setup steps rules.yaml holds (as schemas/rules.schema.json says).
MOST_SETUP_STEPS = 20
#: Effect types of the on_choose timing a setup step may not use: ``use_skill`` applies another
#: crew's skill as the crew's own, and a setup step has no crew of its own.
_NOT_AT_SETUP = ("use_skill",)


def setup_steps_allow(cls: type[Effect]) -> bool:
    """Whether an effect type may stand in ``setup.each_player``: what a skill may do at
    ``on_choose`` but change the survey (no survey is made) or need a crew of its own."""
    return ON_CHOOSE in cls.timings and cls.name not in _NOT_AT_SETUP


def setup_problems(documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]]) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``setup.each_player``: each effect checked against the
    effect schema and as a skill's ``on_choose`` effect is (expressions with "did you mean",
    colours, bodies), then what a setup step may not do: carry another timing, change a survey,
    use another crew's skill, or read ``this_crew`` where no crew is bound (nobody picked one)."""
    from stargazer_rules.rulesets.schemas import effect_schema, expression_defs
    from stargazer_rules.rulesets.validation import schema_problems

    rules = documents.rules
    setup = rules.data.get("setup") if rules.loaded and isinstance(rules.data, Mapping) else None
    steps = setup.get("each_player") if isinstance(setup, Mapping) else None
    if steps is None:
        return
    if not isinstance(steps, list):  # the schema's words for it, at its line: nothing below reads it
        shape = {"type": "object", "properties": {"setup": {"type": "object", "properties": {"each_player": {"type": "array"}}}}}
        yield from schema_problems(rules, shape, [])
        return
    sites = list(_sites(steps, EACH_PLAYER_PATH, None, effect_types))
    schema = {
        "type": "object",
        "properties": {"setup": {"type": "object", "properties": {"each_player": {"type": "array", "maxItems": MOST_SETUP_STEPS, "items": {"$ref": "#/$defs/effect"}}}}},
        "$defs": {"effect": effect_schema(effect_types), **expression_defs()},
    }
    left_to = [
        (*site.path, param.name)
        for site in sites
        for param in site.cls.params
        if (param.kind in EXPRESSION_KINDS or param.kind == OWNER) and param.name in site.data
    ]
    yield from schema_problems(rules, schema, left_to)
    yield from _expressions(documents, sites, rules)
    yield from _effect_colours(documents, sites, rules)
    yield from _bodies(rules, sites)
    allowed = sorted(name for name, cls in effect_types.items() if setup_steps_allow(cls))
    for site in sites:
        yield from _setup_effect(rules, site, allowed)


def _setup_effect(rules: YamlDocument, site: EffectSite, allowed: list[str]) -> Iterator[Problem]:
    if site.data.get("when", ON_CHOOSE) != ON_CHOOSE:
        yield rules.problem((*site.path, "when"), "a setup step resolves before the first round, not at a timing: leave when out", key=True)
    if not setup_steps_allow(site.cls):
        why = "changes a turn's survey" if ON_CHOOSE not in site.cls.timings and SURVEY in site.cls.timings else (
            "applies another crew's skill as its crew's own" if site.cls.name in _NOT_AT_SETUP else f"resolves at {', '.join(site.cls.timings)} only"
        )
        yield rules.problem(
            (*site.path, "effect"),
            f"{site.cls.name!r} {why}, which a setup step cannot: before the first round nobody holds a crew "
            f"and no survey is made; use one of {', '.join(allowed)}",
            suggestion=close_match(site.cls.name, allowed),
        )
    for param, given, node in _read_params(site):
        if CREWS in site.bound | site.cls.binds(param, site.data):
            continue
        if node is None or not any(isinstance(n, CrewsNamed) and n.name == "this_crew" for n in walk(node)):
            continue
        at = (*site.path, param.name) if given else (*site.path, "effect")
        said = f"{param.name}" if given else f"{site.cls.name}'s {param.name} is left out, so it is {describe_value(param.default)}, and it"
        yield rules.problem(
            at,
            f"{said} reads this_crew, but a setup step has no crew of its own (nobody has picked one); "
            f"name crews with for_each crew: all and this_crew inside it",
        )


def _nobody_is_you(rules: YamlDocument, path: DocPath, node: Node | None, instead: str, when: str = "at a round's end") -> Iterator[Problem]:
    """A problem at ``path`` when an expression of the game's procedure, read ``when`` (at a
    round's end, on the score sheet) with nobody as "you", names "you" (``me``, ``others``,
    ``left``); ``instead`` says how to read it."""
    words = sorted({n.name for n in walk(node) if isinstance(n, SeatsNamed) and n.name in _YOU_WORDS}) if node is not None else []
    if words:
        yield rules.problem(path, f"{when} nobody is \"you\", so {', '.join(words)} names nobody here; {instead}")


# -- the game's end (R10): rules.yaml end ------------------------------------------------------

#: Where rules.yaml holds the conditions that end the game at a round's end (R10).
END_KEY = "end"


def end_paths(rules: YamlDocument) -> tuple[DocPath, ...]:
    """The path of each condition of rules.yaml's ``end``: the schema leaves their problems to
    ``end_problems``, which words them as the rules language does."""
    section = rules.data.get(END_KEY) if isinstance(rules.data, Mapping) else None
    return tuple((END_KEY, key) for key in section) if isinstance(section, Mapping) else ()


def end_problems(documents: RulesetDocuments) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``end`` the schema leaves: a trigger id that is the round
    limit's own (``round_limit``), and each condition parsed with nothing bound and nobody as
    "you" (``me``, ``left`` and ``others`` refused, as at a planet ability's ``round_end``)."""
    rules = documents.rules
    section = rules.data.get(END_KEY) if isinstance(rules.data, Mapping) else None
    if not isinstance(section, Mapping):
        return
    parser = Parser(_colour_ids(documents) or [])
    for key, value in section.items():
        path = (END_KEY, key)
        if key == ROUND_LIMIT:
            yield rules.problem(
                path,
                f"{ROUND_LIMIT} is the round limit's own trigger (max_rounds), after every condition of end; "
                "name this condition otherwise",
                key=True,
            )
        node = parser.parse(CONDITION, value, path)
        yield from _nobody_is_you(
            rules,
            path,
            node,
            "read the players with {seats: {where: ...}} and this_seat "
            "(e.g. {at_least: [{seats: {where: {equal: [{hand: this_seat}, 0]}}}, 1]})",
        )
    for path, message in parser.problems:
        yield rules.problem(path, message)


# -- the score sheet's lines of their own: rules.yaml end_scoring ---------------------------------

#: Where rules.yaml holds the score sheet's lines of their own (docs/rules.md, "End-of-game scoring lines").
END_SCORING_KEY = "end_scoring"


def end_scoring_paths(rules: YamlDocument) -> tuple[DocPath, ...]:
    """The path of each line's ``vp`` in rules.yaml's ``end_scoring``: the schema leaves their
    problems to ``end_scoring_problems``, which words them as the rules language does."""
    section = rules.data.get(END_SCORING_KEY) if isinstance(rules.data, Mapping) else None
    if not isinstance(section, Mapping):
        return ()
    return tuple((END_SCORING_KEY, key, "vp") for key, line in section.items() if isinstance(line, Mapping) and "vp" in line)


def end_scoring_problems(documents: RulesetDocuments) -> Iterator[Problem]:
    """Every problem of rules.yaml's ``end_scoring`` the schema leaves: each line's ``vp``
    parsed as an amount with this_seat bound to the seat scored and nobody as "you" (``me``,
    ``left`` and ``others`` refused, as in ``end``)."""
    rules = documents.rules
    parser = Parser(_colour_ids(documents) or [])
    for path in end_scoring_paths(rules):
        node = parser.parse(AMOUNT, rules.data[END_SCORING_KEY][path[1]]["vp"], path, frozenset({SEATS}))
        yield from _nobody_is_you(
            rules,
            path,
            node,
            "read the seat scored as this_seat (e.g. {cubes: {owner: this_seat, squares: special}})",
            "on the score sheet",
        )
    for path, message in parser.problems:
        yield rules.problem(path, message)
