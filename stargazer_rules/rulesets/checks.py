"""The checks a JSON Schema cannot express: across entries, across files, and of skill timing.

They run after the schema checks, on whatever parts of the documents have the right shape, so
that one ruleset with several mistakes reports them all at once. Each check skips an entry it
cannot read (a wrong type there is already a schema problem) and a file that failed to load.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.model import AT_CAP_REPLACED, DRAFT7_END, Ruleset
from stargazer_rules.rulesets.validation import close_match, describe_value
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument, format_path
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, ON_CHOOSE, OWNER, REQUIRED, ROUND_END, SURVEY, Effect
from stargazer_rules.vocabulary.expressions import AMOUNT, CONDITION, CREWS, PLANETS, SEATS, CrewsNamed, Limits, Node, Parser, SeatsNamed, amount_bounds, walk
from stargazer_rules.vocabulary.table import ROUND_LIMIT

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


def semantic_problems(
    documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]]
) -> list[Problem]:
    """Every cross-entry and cross-file problem found in the readable parts of the documents."""
    sites = list(effect_sites(documents.crew, effect_types))
    return [
        *_duplicate_ids(documents.rules, "colours", "colour"),
        *_duplicate_ids(documents.planets, "planets", "planet"),
        *_duplicate_ids(documents.crew, "crew", "crew"),
        *_planet_colours(documents),
        *_effect_colours(documents, sites),
        *_player_counts(documents),
        *_turn_order_vp(documents.rules),
        *_option_timings(documents.crew, sites),
        *_timing_requirements(documents.crew, sites),
        *_unused_params(documents.crew, sites),
        *_expressions(documents, sites),
        *_bodies(documents.crew, sites),
        *ability_problems(documents, effect_types),
        *crew_trigger_problems(documents, effect_types),
        *_survey_starts(documents.crew, sites),
        *round_end_problems(documents),
        *round_end_effect_problems(documents, effect_types),
        *bonus_problems(documents),
        *setup_problems(documents, effect_types),
        *end_problems(documents),
        *end_scoring_problems(documents),
    ]


def expression_paths(document: YamlDocument, effect_types: Mapping[str, type[Effect]]) -> list[DocPath]:
    """Where crew.yaml (or planets.yaml's abilities) holds an expression of the rules language:
    the schema's errors there are left to ``_expressions``, which words them for the language
    (with "did you mean")."""
    crew = _count(document, "crew") is not None
    sites = [*effect_sites(document, effect_types), *crew_trigger_sites(document, effect_types)] if crew else ability_sites(document, effect_types)
    paths = _expression_params(sites)
    if not crew:  # an ability's event and lasting word: ``ability_problems`` words them
        for path, card in entries(document, "planets"):
            for number, ability in _ability_items(card):
                paths += [(*path, "abilities", number, key) for key in ("on", AB.LASTING_KEY) if key in ability]
    else:  # a crew trigger's event: ``crew_trigger_problems`` words it
        for path, card in entries(document, "crew"):
            for number, trigger in _ability_items(card, AB.CREW_TRIGGERS_KEY):
                paths += [(*path, AB.CREW_TRIGGERS_KEY, number, "on")] if "on" in trigger else []
    return paths


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


def _survey_starts(crew: YamlDocument, sites: list[EffectSite]) -> Iterator[Problem]:
    """A skill holds at most one ``survey_start``: the survey reads the one in force (R7)."""
    first: dict[DocPath, DocPath] = {}
    for site in sites:
        if site.cls.name != "survey_start":
            continue
        card = site.path[:2]
        if card not in first:
            first[card] = site.path
            continue
        line = crew.position(first[card])[0]
        yield crew.problem(
            (*site.path, "effect"),
            f"a skill holds at most one survey_start; {format_path(first[card])} at line {line} is this "
            f"skill's: give one survey_start its planet, cubes and before_walk",
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


def _integer(entry: Mapping[str, Any], key: str) -> int | None:
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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


def _duplicate_ids(document: YamlDocument, key: str, kind: str) -> Iterator[Problem]:
    first: dict[str, DocPath] = {}
    for path, item in entries(document, key):
        ident = item.get("id")
        if not isinstance(ident, str):
            continue
        if ident not in first:
            first[ident] = path
            continue
        earlier = first[ident]
        message = (
            f"duplicate {kind} id {ident!r}; {format_path(earlier)} at line "
            f"{document.position(earlier)[0]} already has it"
        )
        yield document.problem((*path, "id"), message)


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


def _planet_colours(documents: RulesetDocuments) -> Iterator[Problem]:
    known = _colour_ids(documents)
    if known is None:
        return
    for path, planet in entries(documents.planets, "planets"):
        colour = planet.get("colour")
        if isinstance(colour, str) and colour not in known:
            yield _unknown_colour(documents.planets, (*path, "colour"), colour, known)


def _effect_colours(documents: RulesetDocuments, sites: list[EffectSite], document: YamlDocument | None = None) -> Iterator[Problem]:
    known = _colour_ids(documents)
    if known is None:
        return
    for site in sites:
        for param in site.cls.params:
            value = site.data.get(param.name)
            if param.kind == "colour" and isinstance(value, str) and value not in known:
                yield _unknown_colour(document or documents.crew, (*site.path, param.name), value, known)


@attrs.frozen
class _CardCounts:
    """How many cards the files hold; None where a file cannot be read."""

    planets: int | None
    always_in_play: int | None
    dealable: int | None


def _card_counts(documents: RulesetDocuments) -> _CardCounts:
    planets = _count(documents.planets, "planets")
    if _count(documents.crew, "crew") is None:
        return _CardCounts(planets, None, None)
    crew = entries(documents.crew, "crew")
    always = sum(1 for _, card in crew if card.get("always_in_play") is True)
    return _CardCounts(planets, always, len(crew) - always)


def _player_counts(documents: RulesetDocuments) -> Iterator[Problem]:
    """R14 setups must be dealable from the cards there are, and R10's end reachable."""
    rules = documents.rules
    counts = _card_counts(documents)
    seen: dict[int, DocPath] = {}
    for path, entry in entries(rules, "player_counts"):
        yield from _repeated_player_count(rules, path, entry, seen)
        yield from _dealable(rules, path, entry, counts)
        yield from _end_condition(rules, path, entry)


def _repeated_player_count(
    rules: YamlDocument, path: DocPath, entry: Mapping[str, Any], seen: dict[int, DocPath]
) -> Iterator[Problem]:
    players = _integer(entry, "players")
    if players is None:
        return
    if players in seen:
        message = f"{players} players are listed twice; the first is {format_path(seen[players])}"
        yield rules.problem((*path, "players"), message)
    else:
        seen[players] = path


def _dealable(
    rules: YamlDocument, path: DocPath, entry: Mapping[str, Any], counts: _CardCounts
) -> Iterator[Problem]:
    """Enough planet and crew cards to deal (R14), and a crew for every player to choose (R5)."""
    players, planets, dealt = (_integer(entry, key) for key in ("players", "planets", "crew"))
    label = f"{players} players" if players is not None else "this player count"
    if planets is not None and counts.planets is not None and planets > counts.planets:
        message = (
            f"{label} deal {planets} planets, but planets.yaml has only {counts.planets} "
            "planet cards"
        )
        yield rules.problem((*path, "planets"), message)
    if dealt is None or counts.dealable is None or counts.always_in_play is None:
        return
    if dealt > counts.dealable:
        message = (
            f"{label} deal {dealt} crew, but crew.yaml has only {counts.dealable} crew that are "
            "not always_in_play"
        )
        yield rules.problem((*path, "crew"), message)
    area = counts.always_in_play + dealt
    if players is not None and area < players:
        message = (
            f"{players} players each choose a different crew every round, but the crew area "
            f"holds only {counts.always_in_play} always_in_play + {dealt} dealt = {area}"
        )
        yield rules.problem((*path, "crew"), message)


def _end_condition(
    rules: YamlDocument, path: DocPath, entry: Mapping[str, Any]
) -> Iterator[Problem]:
    """R10: the filled-planet end must be reachable with the Planets dealt."""
    players, planets = _integer(entry, "players"), _integer(entry, "planets")
    if "full_planets_to_end" in entry:
        full = _integer(entry, "full_planets_to_end")
        where, what = (*path, "full_planets_to_end"), "full_planets_to_end"
    else:
        full, where, what = players, path, "full_planets_to_end (by default the number of players)"
    if full is None or planets is None or full <= planets:
        return
    message = (
        f"{what} is {full}, but only {planets} Planets are dealt for "
        f"{players if players is not None else 'these'} players; expected at most {planets}"
    )
    yield rules.problem(where, message)


def _turn_order_vp(rules: YamlDocument) -> Iterator[Problem]:
    """Starting VP for every turn position of the largest table (docs/rules.md, "Turn-order VP")."""
    setup = rules.data.get("setup") if rules.loaded and isinstance(rules.data, dict) else None
    values = setup.get("turn_order_vp") if isinstance(setup, dict) else None
    if not isinstance(values, list):
        return
    counts = [(_integer(entry, "players") or 0, path) for path, entry in entries(rules, "player_counts")]
    if not counts:
        return
    players, path = max(counts)
    if len(values) >= players:
        return
    message = (
        f"expected a VP value for each of the {players} turn positions of {format_path(path)} "
        f"({players} players), found {len(values)}; add {players - len(values)} more (0 for no VP)"
    )
    yield rules.problem(("setup", "turn_order_vp"), message)


def _timing_phrase(site: EffectSite) -> str:
    return f"{site.cls.name!r} resolves at {site.when}"


def _timing_location(site: EffectSite) -> DocPath:
    return (*site.path, "when") if "when" in site.data else (*site.path, "effect")


def round_end_only(cls: type[Effect]) -> bool:
    """Whether an effect type resolves at a round's end only (``set_start_player``: during a
    round the seat to act is read from the start player, R4), so never during a turn."""
    return cls.timings == (ROUND_END,)


def _option_timings(crew: YamlDocument, sites: list[EffectSite]) -> Iterator[Problem]:
    """An option's effects resolve when the choice is made: at its parent's timing, or at
    ``survey`` under an ``on_choose`` parent (survey changes are made with ``on_choose``). A
    ``before_walk`` is performed when the survey starts, not at a timing: its effects keep
    theirs, but one that resolves at a round's end only cannot stand there."""
    for site in sites:
        parent = site.parent
        if parent is not None and site.path[-2] == "before_walk" and round_end_only(site.cls) and site.cls.immediate:
            yield crew.problem(
                (*site.path, "effect"),
                f"{site.cls.name!r} resolves at round_end only, so it cannot stand in the before_walk of "
                f"{parent.cls.name}, performed during the turn: put it in a round_end effect of the skill",
            )
            continue
        if parent is None or parent.when is None or site.when is None or site.path[-2] == "before_walk":
            continue
        if site.when == parent.when or (parent.when == ON_CHOOSE and site.when == SURVEY):
            continue
        allowed = parent.when if parent.when != ON_CHOOSE else f"{ON_CHOOSE} or {SURVEY}"
        inside = ("option effect", "an option's effects") if parent.cls.name == "choose_one" else ("nested effect", "the effects inside it")
        message = (
            f"{inside[0]} {_timing_phrase(site)}, but its {parent.cls.name} resolves at "
            f"{parent.when}; {inside[1]} must resolve at {allowed}"
        )
        yield crew.problem(_timing_location(site), message)


def _timing_requirements(crew: YamlDocument, sites: list[EffectSite]) -> Iterator[Problem]:
    """A parameter value its type declares for one timing only (``Effect.timing_requirements``)."""
    for site in sites:
        for need in site.cls.timing_requirements:
            if site.data.get(need.param) != need.value or site.when in (None, need.timing):
                continue
            message = (
                f"{need.param}: {need.value} needs when: {need.timing}, but this "
                f"{_timing_phrase(site)}"
            )
            yield crew.problem(_timing_location(site), message)


def _unused_params(crew: YamlDocument, sites: list[EffectSite]) -> Iterator[Problem]:
    """A parameter that only applies with another's value (``colour`` with ``planets: colour``)
    must not be set without it: the designer would expect it to do something."""
    for site in sites:
        for param in site.cls.params:
            if param.required_when is None or param.name not in site.data:
                continue
            other, value = param.required_when
            actual = site.data.get(other, _default(site.cls, other))
            if actual != value:
                message = (
                    f"{param.name!r} is only used when {other} is {value!r}; found {other} "
                    f"{describe_value(actual)}"
                )
                yield crew.problem((*site.path, param.name), message, key=True)


def _default(cls: type[Effect], name: str) -> Any:
    for param in cls.params:
        if param.name == name and param.default is not REQUIRED:
            return param.default
    return None


# -- planet abilities (vocabulary.abilities) -------------------------------------------------

#: The words that name "you" or read from "you": refused where nobody is "you".
_YOU_WORDS = ("me", "left", "others")
#: Every set kind bound: a parse that only looks for words, never for what is bound.
_EVERY_KIND = frozenset({PLANETS, SEATS, CREWS})


def ability_sites(planets: YamlDocument, effect_types: Mapping[str, type[Effect]]) -> Iterator[EffectSite]:
    """Every effect of a known type in the ``do`` of planets.yaml's triggers, nested ones
    included, with ``this_planet`` bound and the abilities' timing (``AB.ABILITY_WHEN``)."""
    for path, card in entries(planets, "planets"):
        for number, ability in _ability_items(card):
            do = ability.get("do")
            if isinstance(do, list):
                at = (*path, "abilities", number, "do")
                yield from _sites(do, at, None, effect_types, frozenset({PLANETS}))


def crew_trigger_sites(crew: YamlDocument, effect_types: Mapping[str, type[Effect]]) -> Iterator[EffectSite]:
    """Every effect of a known type in the ``do`` of crew.yaml's triggers, nested ones included,
    with ``this_planet`` bound at the landing events (the Planet the cube landed on)."""
    for path, card in entries(crew, "crew"):
        for number, trigger in _ability_items(card, AB.CREW_TRIGGERS_KEY):
            do = trigger.get("do")
            if isinstance(do, list):
                on = trigger.get("on")
                event = next(iter(on)) if isinstance(on, dict) and len(on) == 1 else on
                bound = frozenset({PLANETS}) if event in AB.LANDING_EVENTS else frozenset()
                yield from _sites(do, (*path, AB.CREW_TRIGGERS_KEY, number, "do"), None, effect_types, bound)


def crew_trigger_problems(documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]]) -> Iterator[Problem]:
    """Every problem of crew.yaml's triggers: their keys and events (with "did you mean"), and
    their effects checked as a planet ability's are (no decision, no survey change); "you" is
    the holder, so ``me`` is refused nowhere."""
    crew = documents.crew
    crew_ids = [card["id"] for _, card in entries(crew, "crew") if isinstance(card.get("id"), str)]
    for path, card in entries(crew, "crew"):
        for number, trigger in _ability_items(card, AB.CREW_TRIGGERS_KEY):
            yield from _trigger_shape(crew, (*path, AB.CREW_TRIGGERS_KEY, number), trigger, None, AB.CREW_EVENTS, crew_ids)
    sites = list(crew_trigger_sites(crew, effect_types))
    yield from _expressions(documents, sites, crew)
    yield from _effect_colours(documents, sites, crew)
    yield from _bodies(crew, sites)
    for site in sites:
        yield from _ability_effect(crew, site, None, occasion=_site_event(crew, site.path))


def _ability_items(card: Mapping[str, Any], key: str = "abilities") -> list[tuple[int, Mapping[str, Any]]]:
    items = card.get(key)
    if not isinstance(items, list):
        return []
    return [(number, item) for number, item in enumerate(items) if isinstance(item, dict)]


def ability_problems(documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]]) -> Iterator[Problem]:
    """Every problem of planets.yaml's abilities: their keys, events and lasting words (each
    with "did you mean"), and their effects checked as a skill's are, plus what an ability
    may not do: ask a decision, change a survey, or read "you" where nobody is."""
    planets = documents.planets
    colours = _colour_ids(documents)
    for path, card in entries(planets, "planets"):
        track = card.get("track")
        length = len(track) if isinstance(track, list) else None
        lasting_seen: dict[str, DocPath] = {}
        for number, ability in _ability_items(card):
            at = (*path, "abilities", number)
            yield from _ability_shape(planets, at, ability, length, lasting_seen, colours)
    sites = list(ability_sites(planets, effect_types))
    yield from _expressions(documents, sites, planets)
    yield from _effect_colours(documents, sites, planets)
    yield from _bodies(planets, sites)
    for site in sites:
        yield from _ability_effect(planets, site, _site_event(planets, site.path))


def _ability_shape(
    planets: YamlDocument,
    at: DocPath,
    ability: Mapping[str, Any],
    length: int | None,
    lasting_seen: dict[str, DocPath],
    colours: list[str] | None,
) -> Iterator[Problem]:
    if AB.LASTING_KEY in ability:
        if any(key in ability for key in AB.TRIGGER_KEYS):
            yield planets.problem(at, "an ability is either a trigger (on, do) or a lasting effect (lasting), not both")
        yield from _lasting(planets, (*at, AB.LASTING_KEY), ability[AB.LASTING_KEY], lasting_seen, colours)
        return
    yield from _trigger_shape(planets, at, ability, length, AB.EVENTS)


def _trigger_shape(
    document: YamlDocument,
    at: DocPath,
    trigger: Mapping[str, Any],
    length: int | None,
    known: tuple[str, ...],
    crew_ids: list[str] | None = None,
) -> Iterator[Problem]:
    """A trigger's keys, its event among ``known`` and its do list (a planet's or a crew's;
    ``crew_ids``: the ruleset's crews, which a crew's ``another_pick`` may name)."""
    missing = [key for key in AB.TRIGGER_KEYS if key not in trigger]
    if missing:
        lasting = " (or write {lasting: <word>})" if known == AB.EVENTS else ""
        yield document.problem(at, f"a trigger needs {' and '.join(missing)}: {{on: <event>, do: [<effects>]}}{lasting}")
    if "on" in trigger:
        yield from _event(document, (*at, "on"), trigger["on"], length, known, crew_ids)
    do = trigger.get("do")
    if "do" in trigger and (not isinstance(do, list) or not do):
        yield document.problem((*at, "do"), "a trigger's do is a list of at least one effect")


#: The events that take options, with the one option each takes and how it is written.
_EVENT_OPTIONS = {AB.CUBE_PLACED: (AB.SQUARE, "<n or special>"), AB.ANOTHER_PICK: (AB.PICKED_CREW, "[<crew ids>]")}


def _event(
    document: YamlDocument,
    at: DocPath,
    on: Any,
    length: int | None,
    known: tuple[str, ...] = AB.EVENTS,
    crew_ids: list[str] | None = None,
) -> Iterator[Problem]:
    events = ", ".join(known)
    optional = [event for event in _EVENT_OPTIONS if event in known]
    written = " or ".join(f"{{{event}: {{{_EVENT_OPTIONS[event][0]}: {_EVENT_OPTIONS[event][1]}}}}}" for event in optional)
    if isinstance(on, dict) and len(on) == 1:
        (event, options), = on.items()
    elif isinstance(on, str):
        event, options = on, None
    else:
        yield document.problem(at, f"an event is a word ({events}) or {written}")
        return
    if event not in known:
        where = at if isinstance(on, str) else (*at, event)
        yield document.problem(where, f"unknown event {event!r}; the events: {events}", close_match(str(event), known), key=not isinstance(on, str))
        return
    if isinstance(on, str):
        return
    if event not in optional:
        yield document.problem((*at, event), f"only {' and '.join(optional)} take{'s' if len(optional) == 1 else ''} options ({written}), found {describe_value(options)}")
        return
    option = _EVENT_OPTIONS[event][0]
    if not isinstance(options, dict):  # {cube_placed: null} included
        shape = f"{{{event}: {{{option}: {_EVENT_OPTIONS[event][1]}}}}}"
        yield document.problem((*at, event), f"{event}'s options are a mapping, {shape}, or write {event} alone; found {describe_value(options)}")
        return
    for key in options:
        if key != option:
            yield document.problem((*at, event, key), f"unknown {event} option {key!r}; it takes {option}", close_match(str(key), (option,)), key=True)
    if option not in options:
        return
    if event == AB.ANOTHER_PICK:
        yield from _picked_crew(document, (*at, event, option), options[option], crew_ids)
        return
    square = options[option]
    if square == AB.SPECIAL:
        return
    if not isinstance(square, int) or isinstance(square, bool) or square < 1 or (length is not None and square > length):
        most = f"1..{length}" if length is not None else "a normal square number"
        hint = close_match(str(square), (AB.SPECIAL,)) if isinstance(square, str) else None
        yield document.problem((*at, event, "square"), f"square is {most} (a normal square of this Planet's track) or special, found {describe_value(square)}", hint)


def _picked_crew(document: YamlDocument, at: DocPath, value: Any, crew_ids: list[str] | None) -> Iterator[Problem]:
    """``{another_pick: {crew: [...]}}``: a list of at least one crew id of crew.yaml, each once."""
    if not isinstance(value, list) or not value:
        yield document.problem(at, f"crew is a list of at least one crew id (the crews whose pick sets it off), found {describe_value(value)}")
        return
    seen: set[Any] = set()
    for number, ident in enumerate(value):
        if not isinstance(ident, str):
            yield document.problem((*at, number), f"a crew id is a word, found {describe_value(ident)}")
        elif ident in seen:
            yield document.problem((*at, number), f"crew {ident!r} is named twice")
        elif crew_ids is not None and ident not in crew_ids:
            message = f"unknown crew {ident!r}; expected one of the crews of crew.yaml: {', '.join(crew_ids)}"
            yield document.problem((*at, number), message, close_match(ident, crew_ids))
        seen.add(ident)


def _lasting(planets: YamlDocument, at: DocPath, value: Any, seen: dict[str, DocPath], colours: list[str] | None) -> Iterator[Problem]:
    words = ", ".join(AB.LASTING_WORDS)
    if isinstance(value, str):
        word, argument, where = value, True, at
    elif isinstance(value, dict) and len(value) == 1:
        (word, argument), = value.items()
        where = (*at, word)
    else:
        yield planets.problem(at, f"a lasting effect is a word or {{word: value}}; the words: {words}")
        return
    if word not in AB.LASTING_WORDS:
        yield planets.problem(where, f"unknown lasting effect {word!r}; the words: {words}", close_match(str(word), AB.LASTING_WORDS), key=where != at)
        return
    if word in seen:
        yield planets.problem(where, f"this Planet already has a lasting {word} (at line {planets.position(seen[word])[0]})")
    seen.setdefault(word, where)
    if word == AB.NO_SURVEY_START:
        if argument is not True:
            yield planets.problem(where, f"no_survey_start takes no value: write lasting: no_survey_start, found {describe_value(argument)}")
    elif word == AB.COUNTS_TOWARD:
        yield from _counts_toward(planets, where, argument, colours)
    elif not isinstance(argument, int) or isinstance(argument, bool) or not 1 <= argument <= AB.MOST_MAJORITY_FACTOR:
        yield planets.problem(where, f"majority_factor is a whole number 1..{AB.MOST_MAJORITY_FACTOR}, found {describe_value(argument)}")


def _counts_toward(planets: YamlDocument, at: DocPath, value: Any, colours: list[str] | None) -> Iterator[Problem]:
    """``every_colour``, ``none``, a colour id of rules.yaml or a list of them, each once."""
    known = f"the colours of rules.yaml: {', '.join(colours)}" if colours else "a colour of rules.yaml"
    if isinstance(value, list) and value:
        seen: set[Any] = set()
        for number, colour in enumerate(value):
            if colour in seen:
                yield planets.problem((*at, number), f"colour {colour!r} is named twice")
            elif not isinstance(colour, str) or (colours is not None and colour not in colours):
                found = repr(colour) if isinstance(colour, str) else describe_value(colour)
                yield planets.problem((*at, number), f"unknown colour {found}; {known}", close_match(str(colour), colours or []))
            if isinstance(colour, str):
                seen.add(colour)
        return
    words = (*AB.COUNTS_TOWARD_VALUES, *(colours or ()))
    if isinstance(value, str) and (colours is None or value in words):
        return
    found = repr(value) if isinstance(value, str) else describe_value(value)
    message = f"counts_toward is {' or '.join(AB.COUNTS_TOWARD_VALUES)}, a colour or a list of colours ({known}), found {found}"
    yield planets.problem(at, message, close_match(value, words) if isinstance(value, str) else None)


#: What a trigger's effects stand in, for messages; the round's end effects of rules.yaml stand in
#: ``ROUND_END_EFFECTS_HOLDER``.
_TRIGGER_HOLDER = "a trigger's do"


def _ability_effect(
    planets: YamlDocument, site: EffectSite, event: str | None, holder: str = _TRIGGER_HOLDER, occasion: str | None = None
) -> Iterator[Problem]:
    """What an effect performed at an event (an ability's, a crew trigger's or the round's end
    effects of rules.yaml, standing in ``holder``) may not do: carry a when, change a survey,
    resolve at a round's end only at an event other than ``round_end`` (``occasion``, the
    event; by default ``event``), ask a decision at the top of its list, or read "you" at an
    ``event`` where nobody is "you" (None: "you" is always someone, a crew trigger's holder)."""
    occasion = occasion or event
    if "when" in site.data:
        yield planets.problem((*site.path, "when"), f"the effects of {holder} resolve at its event: leave when out", key=True)
    if round_end_only(site.cls):
        if occasion != AB.ROUND_END_EVENT:
            yield planets.problem(
                (*site.path, "effect"),
                f"{site.cls.name!r} resolves at a round's end only, so it cannot stand in {holder} set off by "
                f"{occasion}: use a trigger on round_end (or rules.yaml's round_end.effects; docs/rules.md, \"Start player\")",
            )
    elif AB.ABILITY_WHEN not in site.cls.timings:
        yield planets.problem(
            (*site.path, "effect"),
            f"{site.cls.name!r} changes this turn's survey, which {holder} cannot: its effects act on the board, the VP and the cubes",
        )
    if site.parent is None and not site.cls.immediate and site.cls.name != "if":
        yield planets.problem(
            (*site.path, "effect"),
            f"{site.cls.name!r} asks a decision, so it cannot stand in {holder}, which is performed at once; use an effect that asks none (docs/skills.md)",
        )
    if event not in AB.WITHOUT_YOU:
        return
    for param, given, node in _read_params(site):
        words = sorted({n.name for n in walk(node) if isinstance(n, SeatsNamed) and n.name in _YOU_WORDS})
        if not words:
            continue
        said = ", ".join(words)
        if given:
            message = f"at {event} nobody is \"you\", so {said} names nobody here; use for_each seat: everyone with this_seat"
            yield planets.problem((*site.path, param.name), message)
        else:
            message = (
                f"{site.cls.name}'s {param.name} is left out, so it is {describe_value(param.default)}, but at {event} nobody is "
                f"\"you\": give {param.name} (for_each seat: everyone with this_seat)"
            )
            yield planets.problem((*site.path, "effect"), message)


def _read_params(site: EffectSite) -> Iterator[tuple[Any, bool, Any]]:
    """Each expression or owner parameter of an effect with a value, given or by default: the
    parameter, whether it is given, and its node read with every kind bound."""
    for param in site.cls.params:
        if not (param.kind in EXPRESSION_KINDS or param.kind == OWNER):
            continue
        given = param.name in site.data
        value = site.data[param.name] if given else param.default
        if value in (REQUIRED, None):
            continue
        parser = Parser([])
        yield param, given, parser.owner(value, (), _EVERY_KIND) if param.kind == OWNER else parser.parse(param.kind, value, (), _EVERY_KIND)


def _site_event(planets: YamlDocument, path: DocPath) -> str | None:
    """The event of the trigger an ability effect stands in (path planets.i.abilities.j.do...)."""
    data: Any = planets.data
    for key in path[:4]:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    on = data.get("on") if isinstance(data, dict) else None
    if isinstance(on, dict) and len(on) == 1:
        on = next(iter(on))
    return on if isinstance(on, str) else None


# -- warnings: valid, but probably not what the designer meant -------------------------------


def ruleset_warnings(ruleset: Ruleset) -> list[str]:
    """What a loaded ruleset allows but a designer almost surely did not mean, one line each.

    A game of draft 7's end (R10) ends when a hand is empty or enough Planets are full. If its
    ``end`` holds no other condition, no crew surveys a cube and no skill moves one
    (``Effect.moves_cubes``), neither can happen and every game runs to the round limit, a
    safety net that is not a rule of the game (docs/rules.md).

    A crew's ``another_pick`` that names the crew itself never fires for that name: while the
    crew is held, nobody else can pick it (R5).
    """
    warnings = []
    crew_file = f"{ruleset.source}/crew.yaml" if ruleset.source else "crew.yaml"
    surveys = any(card.survey_count > 0 for card in ruleset.crew)
    skills_move = any(effect.moves_cubes for card in ruleset.crew for effect in card.skill)
    if not surveys and not skills_move and all(trigger in DRAFT7_END for trigger in ruleset.end):
        warnings.append(
            f"{crew_file}: every survey_count is 0 and no skill takes a cube from a hand or puts "
            "one on a Planet, so no hand empties and no Planet fills (R10): every game would end "
            f"at the round limit (max_rounds: {ruleset.max_rounds})"
        )
    for card in ruleset.crew:
        if any(card.id in trigger.crew for trigger in card.triggers):
            warnings.append(
                f"{crew_file}: {card.id}'s another_pick names {card.id} itself, which nobody else can pick "
                "while it is held (R5): that name never sets it off"
            )
    return warnings


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
    if not isinstance(steps, list):
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
