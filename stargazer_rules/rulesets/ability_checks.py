"""The checks of the planet abilities of planets.yaml and the triggers of crew.yaml: each
event and its options, the lasting word, and the effects a trigger performs where nobody
is "you" (vocabulary.abilities).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.check_sites import (
    EffectSite,
    RulesetDocuments,
    _bodies,
    _colour_ids,
    _effect_colours,
    _expressions,
    _sites,
    entries,
    round_end_only,
)
from stargazer_rules.rulesets.validation import close_match, describe_value
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, OWNER, REQUIRED, Effect
from stargazer_rules.vocabulary.expressions import CREWS, PLANETS, SEATS, Parser, SeatsNamed, walk


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
