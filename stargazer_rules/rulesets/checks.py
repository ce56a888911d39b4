"""The checks a JSON Schema cannot express: across entries, across files, and of skill timing.

They run after the schema checks, on whatever parts of the documents have the right shape, so
that one ruleset with several mistakes reports them all at once. Each check skips an entry it
cannot read (a wrong type there is already a schema problem) and a file that failed to load.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.ability_checks import (
    _ability_items,
    ability_problems,
    ability_sites,
    crew_trigger_problems,
    crew_trigger_sites,
)
from stargazer_rules.rulesets.check_sites import (
    EffectSite,
    RulesetDocuments,
    _bodies,
    _colour_ids,
    _count,
    _effect_colours,
    _expression_params,
    _expressions,
    _unknown_colour,
    effect_sites,
    entries,
    resolve_when,
    round_end_only,
)
from stargazer_rules.rulesets.model import DRAFT7_END, Ruleset
from stargazer_rules.rulesets.rules_checks import (
    BONUS_FORMULA_PATH,
    EACH_PLAYER_PATH,
    END_KEY,
    END_SCORING_KEY,
    FREE_CUBES_PATH,
    OLDER_CAP_KEY,
    ROUND_END_EFFECTS_HOLDER,
    ROUND_END_EFFECTS_PATH,
    bonus_problems,
    end_paths,
    end_problems,
    end_scoring_paths,
    end_scoring_problems,
    round_end_effect_paths,
    round_end_effect_problems,
    round_end_problems,
    setup_problems,
)
from stargazer_rules.rulesets.validation import describe_value
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument, format_path
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary.effects import ON_CHOOSE, REQUIRED, SURVEY, Effect

#: What the loader and the checks' other readers import from here; the names defined in
#: ``check_sites`` and ``rules_checks`` are re-exported so their imports stay as they were.
__all__ = [
    "BONUS_FORMULA_PATH",
    "EACH_PLAYER_PATH",
    "END_KEY",
    "END_SCORING_KEY",
    "FREE_CUBES_PATH",
    "OLDER_CAP_KEY",
    "ROUND_END_EFFECTS_HOLDER",
    "ROUND_END_EFFECTS_PATH",
    "RulesetDocuments",
    "end_paths",
    "end_scoring_paths",
    "expression_paths",
    "resolve_when",
    "round_end_effect_paths",
    "ruleset_warnings",
    "semantic_problems",
]


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


def _integer(entry: Mapping[str, Any], key: str) -> int | None:
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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


def _planet_colours(documents: RulesetDocuments) -> Iterator[Problem]:
    known = _colour_ids(documents)
    if known is None:
        return
    for path, planet in entries(documents.planets, "planets"):
        colour = planet.get("colour")
        if isinstance(colour, str) and colour not in known:
            yield _unknown_colour(documents.planets, (*path, "colour"), colour, known)


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
