"""What every cross-file check of a ruleset reads: the three documents, each effect of a
program with its resolved timing (``EffectSite``), the entries of a top-level list, and the
checks that every program shares (its expressions, bodies and colours). Kept below the checks
of crew.yaml, planets.yaml and rules.yaml so that none of them imports another in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.validation import close_match, describe_value
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument
from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, OWNER, REQUIRED, ROUND_END, Effect
from stargazer_rules.vocabulary.expressions import AMOUNT, Limits, Parser, amount_bounds


@attrs.frozen
class RulesetDocuments:
    """The three files of a ruleset folder, as read."""

    rules: YamlDocument
    planets: YamlDocument
    crew: YamlDocument


@attrs.frozen
class EffectSite:
    """One effect mapping of a known type in crew.yaml, with its resolved timing.

    ``when`` is None when the YAML names a timing the type does not have (a schema problem).
    ``parent`` is the effect whose option, branch or body holds this one (``choose_one``,
    ``if``, ``choose``, ``for_each``), if any.
    """

    path: DocPath
    data: Mapping[str, Any]
    cls: type[Effect]
    when: str | None
    parent: EffectSite | None = None
    #: The set kinds bound where it stands (``this_planet`` inside a ``for_each`` over Planets).
    bound: frozenset[str] = frozenset()


def resolve_when(data: Mapping[str, Any], cls: type[Effect], parent_when: str | None) -> str | None:
    """The timing of an effect: as written; else its parent's if its type allows it; else its
    type's first timing."""
    when = data.get("when")
    if when is not None:
        return when if isinstance(when, str) and when in cls.timings else None
    if parent_when in cls.timings:
        return parent_when
    return cls.timings[0]


def effect_sites(
    crew: YamlDocument, effect_types: Mapping[str, type[Effect]]
) -> Iterator[EffectSite]:
    """Every effect of a known type in crew.yaml, options included, in file order."""
    for path, card in entries(crew, "crew"):
        skill = card.get("skill")
        if isinstance(skill, list):
            yield from _sites(skill, (*path, "skill"), None, effect_types)


def _expression_params(sites: Iterable[EffectSite]) -> list[DocPath]:
    """Where the effects of ``sites`` hold an expression, as written."""
    return [
        (*site.path, param.name)
        for site in sites
        for param in site.cls.params
        if (param.kind in EXPRESSION_KINDS or param.kind == OWNER) and param.name in site.data
    ]


#: Limits of any size: whether an amount has a bound does not depend on them.
_ANY_LIMITS = Limits(*(1,) * len(attrs.fields(Limits)))


def _expressions(documents: RulesetDocuments, sites: list[EffectSite], document: YamlDocument | None = None) -> Iterator[Problem]:
    """Every expression parsed (each problem at its place, with "did you mean"), and every
    amount that gives VP or changes a survey bounded: one that reads VP could grow for ever.
    ``document`` holds the sites: crew.yaml unless told (planets.yaml for abilities)."""
    colours = _colour_ids(documents) or []
    crew = document or documents.crew
    for site in sites:
        for param in site.cls.params:
            if not (param.kind in EXPRESSION_KINDS or param.kind == OWNER):
                continue
            parser = Parser(colours)
            at = (*site.path, param.name)
            bound = site.bound | site.cls.binds(param, site.data)
            if param.name not in site.data:
                # A default names the bound member (this_planet): it must be bound here too.
                if param.default in (REQUIRED, None):
                    continue
                node = parser.owner(param.default, at, bound) if param.kind == OWNER else parser.parse(param.kind, param.default, at, bound)
                for _path, message in parser.problems:
                    yield crew.problem(
                        (*site.path, "effect"),
                        f"{site.cls.name}'s {param.name} is left out, so it is {describe_value(param.default)}, and {message}: give {param.name}",
                    )
                continue
            value = site.data[param.name]
            node = parser.owner(value, at, bound) if param.kind == OWNER else parser.parse(param.kind, value, at, bound)
            for path, message in parser.problems:
                yield crew.problem(path, message)
            if type(node) is int and param.minimum is not None and node < param.minimum:
                yield crew.problem(at, f"expected at least {param.minimum}, found {node}")
            if node is not None and param.kind == AMOUNT and None in amount_bounds(node, _ANY_LIMITS):
                yield crew.problem(
                    at,
                    f"{site.cls.name}'s {param.name} reads VP, so it has no bound: a skill's VP or "
                    f"survey count may depend on counts of the board, hands and crews, but not on VP",
                )


#: The parameters that hold a body, performed at once: ``choose``'s and ``for_each``'s ``do``,
#: ``survey_start``'s ``before_walk``.
_BODY_PARAMS = ("do", "before_walk")


def _bodies(crew: YamlDocument, sites: list[EffectSite]) -> Iterator[Problem]:
    """A body (``do``, ``before_walk``) performs at once: no effect in it may ask a decision."""
    for site in sites:
        parent = site.parent
        if parent is None or site.path[-2] not in _BODY_PARAMS or site.cls.immediate or site.cls.name == "if":
            continue
        if site.cls.name == "survey_start":
            yield crew.problem(
                (*site.path, "effect"),
                f"survey_start names where this turn's survey starts, read when the survey is made, so it "
                f"cannot stand in the {site.path[-2]} of {parent.cls.name}: put it at the top of the skill or in a branch",
            )
            continue
        yield crew.problem(
            (*site.path, "effect"),
            f"{site.cls.name!r} asks a decision, so it cannot stand in the do of {parent.cls.name}, "
            f"which is performed at once; use an effect that asks none (docs/skills.md)",
        )


def entries(document: YamlDocument, key: str) -> list[tuple[DocPath, Mapping[str, Any]]]:
    """The mappings in the top-level list ``key`` of a loaded document, with their paths."""
    data = document.data if document.loaded else None
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [((key, index), item) for index, item in enumerate(items) if isinstance(item, dict)]


def _count(document: YamlDocument, key: str) -> int | None:
    """How many items the top-level list ``key`` holds; None when it cannot be read."""
    data = document.data if document.loaded else None
    items = data.get(key) if isinstance(data, dict) else None
    return len(items) if isinstance(items, list) else None


def _sites(
    effects: list[Any],
    path: DocPath,
    parent: EffectSite | None,
    effect_types: Mapping[str, type[Effect]],
    bound: frozenset[str] = frozenset(),
) -> Iterator[EffectSite]:
    for index, data in enumerate(effects):
        name = data.get("effect") if isinstance(data, dict) else None
        cls = effect_types.get(name) if isinstance(name, str) else None
        if cls is None:
            continue
        parent_when = parent.when if parent is not None else None
        site = EffectSite((*path, index), data, cls, resolve_when(data, cls, parent_when), parent, bound)
        yield site
        for param in cls.params:
            nested = data.get(param.name)
            if not isinstance(nested, list):
                continue
            inner = bound | cls.binds(param, data)
            if param.kind == "effects":
                yield from _sites(nested, (*site.path, param.name), site, effect_types, inner)
            elif param.kind == "options":
                for number, option in enumerate(nested):
                    if isinstance(option, list):
                        yield from _sites(option, (*site.path, param.name, number), site, effect_types, inner)


def _colour_ids(documents: RulesetDocuments) -> list[str] | None:
    """The colour ids of rules.yaml; None when rules.yaml has no readable colour list."""
    if _count(documents.rules, "colours") is None:
        return None
    return [
        item["id"]
        for _, item in entries(documents.rules, "colours")
        if isinstance(item.get("id"), str)
    ]


def _unknown_colour(document: YamlDocument, path: DocPath, value: str, known: list[str]) -> Problem:
    message = (
        f"unknown colour {value!r}; expected one of the colours of rules.yaml: {', '.join(known)}"
    )
    return document.problem(path, message, close_match(value, known))


def _effect_colours(documents: RulesetDocuments, sites: list[EffectSite], document: YamlDocument | None = None) -> Iterator[Problem]:
    known = _colour_ids(documents)
    if known is None:
        return
    for site in sites:
        for param in site.cls.params:
            value = site.data.get(param.name)
            if param.kind == "colour" and isinstance(value, str) and value not in known:
                yield _unknown_colour(document or documents.crew, (*site.path, param.name), value, known)


def round_end_only(cls: type[Effect]) -> bool:
    """Whether an effect type resolves at a round's end only (``set_start_player``: during a
    round the seat to act is read from the start player, R4), so never during a turn."""
    return cls.timings == (ROUND_END,)
