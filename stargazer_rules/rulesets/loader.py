"""Load a ruleset folder (rules.yaml, planets.yaml, crew.yaml) into an immutable ``Ruleset``.

Loading is where every mistake in the data is caught, never during play: the three files are
read (syntax, duplicate keys), checked against their JSON Schemas, then against each other
(``checks``). All problems of all files are gathered and raised as one ``RulesetError``, so a
designer fixes a whole draft in one pass. Only a clean ruleset is built.

>>> ruleset = load_ruleset("draft7")
>>> ruleset.player_counts, len(ruleset.planets), len(ruleset.crew)
((3, 4), 14, 12)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.contract.knobs import KNOB, KNOBS
from stargazer_rules.errors import Problem, RulesetError
from stargazer_rules.rulesets.checks import (
    BONUS_FORMULA_PATH,
    EACH_PLAYER_PATH,
    END_KEY,
    END_SCORING_KEY,
    FREE_CUBES_PATH,
    OLDER_CAP_KEY,
    ROUND_END_EFFECTS_HOLDER,
    ROUND_END_EFFECTS_PATH,
    RulesetDocuments,
    end_paths,
    end_scoring_paths,
    expression_paths,
    resolve_when,
    round_end_effect_paths,
    semantic_problems,
)
from stargazer_rules.rulesets.model import (
    AT_CAP_STAYS,
    DRAFT7_END,
    Colour,
    CrewCard,
    EndTrigger,
    ScoringLine,
    Name,
    PlanetCard,
    PlayerCountSetup,
    Ruleset,
    UnpickedCrews,
)
from stargazer_rules.rulesets.resources import (
    DEFAULT_RULESET,
    RULESET_FILES,
    bundled_ruleset_names,
    cards_dir,
)
from stargazer_rules.rulesets.validation import close_match, schema_problems
from stargazer_rules.rulesets.work_checks import work_problems
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument, load_yaml
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary.bonus import R17, Bonus
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, EXPRESSION_KINDS, ON_CHOOSE, OWNER, REQUIRED, Effect
from stargazer_rules.vocabulary.expressions import CREWS, PLANETS, SEATS, Parser, amount_data
from stargazer_rules.vocabulary.majority import R15_R16, Majority

PathLike = str | os.PathLike[str]


#: The round limit when rules.yaml leaves ``max_rounds`` out (docs/rules.md, "Round limit").
DEFAULT_MAX_ROUNDS = KNOB["max_rounds"].default


def load_ruleset(
    path: PathLike | None = None, *, effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES
) -> Ruleset:
    """Load and check the ruleset folder ``path``; raise ``RulesetError`` listing every problem.

    ``path`` None loads the bundled draft 7; a bare name such as ``"base"`` that is not an
    existing folder loads the bundled ruleset of that name. ``effect_types`` is the effect
    registry skills are read with (see ``extend_effect_types``).
    """
    folder, shown = resolve_ruleset_dir(path)
    documents = read_documents(folder, shown)
    problems = check_documents(documents, effect_types)
    if problems:
        raise RulesetError(problems)
    return build_ruleset(documents, effect_types, source=shown)


def resolve_ruleset_dir(path: PathLike | None) -> tuple[Path, str]:
    """The folder to read and how to show it: as given, or the bundled folder of a bare name."""
    if path is None:
        folder = cards_dir() / DEFAULT_RULESET
        return folder, str(folder)
    given = os.fspath(path)
    if given and Path(given).is_dir():  # Path("") would be the current folder
        return Path(given), given
    names = bundled_ruleset_names()
    if _is_bare_name(given) and given in names:
        folder = cards_dir() / given
        return folder, str(folder)
    raise RulesetError([_no_folder_problem(given, names)])


def read_documents(folder: Path, shown: str) -> RulesetDocuments:
    """Read the three files of ``folder``; problems of each are kept in its document."""
    rules, planets, crew = (
        load_yaml(folder / name, os.path.join(shown, name)) for name in RULESET_FILES
    )
    return RulesetDocuments(rules=rules, planets=planets, crew=crew)


def check_documents(
    documents: RulesetDocuments, effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES
) -> list[Problem]:
    """Every problem of the three documents: reading, schema, then cross-checks; sorted by place."""
    # Imported here, not at the top: the package imports this module, and a module that the
    # package has already imported warns when run as ``python -m stargazer_rules.rulesets.schemas``.
    from stargazer_rules.rulesets.schemas import crew_schema, planets_schema, rules_schema

    schemas = (rules_schema(effect_types), planets_schema(effect_types), crew_schema(effect_types))
    problems: list[Problem] = []
    for document, schema in zip(_in_order(documents), schemas, strict=True):
        problems.extend(document.problems)
        if document.loaded:
            if document is documents.rules:
                left_to = [FREE_CUBES_PATH, BONUS_FORMULA_PATH, EACH_PLAYER_PATH, *round_end_effect_paths(document, effect_types), *end_paths(document), *end_scoring_paths(document)]
            else:
                left_to = expression_paths(document, effect_types)
            problems.extend(schema_problems(document, schema, left_to))
    problems.extend(semantic_problems(documents, effect_types))
    order = {document.file: index for index, document in enumerate(_in_order(documents))}
    unique = dict.fromkeys(problems)
    return sorted(unique, key=lambda p: (order.get(p.file, -1), p.line, p.column))


def build_ruleset(
    documents: RulesetDocuments,
    effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES,
    *,
    source: str = "",
) -> Ruleset:
    """The ``Ruleset`` of checked documents, defaults filled and fingerprint computed."""
    rules = documents.rules.data
    colours = [item["id"] for item in rules["colours"]]
    crew, problems = _build_crew(documents.crew, effect_types, colours)
    planets = tuple(
        _planet(documents.planets, index, item, effect_types, problems, Parser(colours))
        for index, item in enumerate(documents.planets.data["planets"])
    )
    round_end_effects = _round_end_effects(documents.rules, effect_types, problems, Parser(colours))
    steps = _setup_steps(documents.rules, effect_types, problems, Parser(colours))
    if problems:
        raise RulesetError(problems)
    ruleset = Ruleset(
        name=rules["name"],
        title=_name(rules["title"]),
        colours=tuple(Colour(item["id"], _name(item["name"])) for item in rules["colours"]),
        planets=planets,
        crew=crew,
        setups=_setups(rules["player_counts"]),
        **{knob.name: knob.read(rules) for knob in KNOBS},
        unpicked_crews=_unpicked_crews(rules, colours),
        turn_order_vp=_turn_order_vp(rules),
        fingerprint="",
        source=source,
        majority=_majority(rules.get("majority", {})),
        round_end_effects=round_end_effects,
        bonus=Bonus.from_data(rules.get("bonus", {})),
        setup_steps=steps,  # type: ignore[arg-type]
        end=_end(rules, colours),
        end_scoring=_end_scoring(rules, colours),
    )
    work = work_problems(documents, ruleset)  # a valid program may still ask too much of a decision
    if work:
        raise RulesetError(work)
    return attrs.evolve(ruleset, fingerprint=fingerprint(fingerprinted_data(ruleset)))


def ruleset_to_data(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset as plain data, defaults filled: ``{"rules": ..., "planets": ..., "crew": ...}``,
    each the document its YAML file would hold. Loading these documents gives back an equal
    ruleset; the fingerprint is the hash of this data (``fingerprinted_data``)."""
    rules: dict[str, Any] = {
        "name": ruleset.name,
        "title": _name_data(ruleset.title),
        "colours": [{"id": c.id, "name": _name_data(c.name)} for c in ruleset.colours],
        "player_counts": [attrs.asdict(ruleset.setups[n]) for n in ruleset.player_counts],
    }
    for knob in KNOBS:  # each at its place in rules.yaml, defaults written out
        section = rules
        for key in knob.path[:-1]:
            section = section.setdefault(key, {})
        section[knob.path[-1]] = getattr(ruleset, knob.name)
    rules["round_end"] = _round_end_data(ruleset)
    return {
        "rules": {
            **rules,
            "setup": _setup_data(ruleset),
            "majority": ruleset.majority.to_data(),
            "bonus": ruleset.bonus.to_data(),
            END_KEY: {trigger.id: trigger.condition.to_data() for trigger in ruleset.end},
            END_SCORING_KEY: {line.id: {"name": _name_data(line.name), "vp": amount_data(line.vp)} for line in ruleset.end_scoring},
        },
        "planets": {"planets": [_planet_data(card) for card in ruleset.planets]},
        "crew": {"crew": [_crew_data(card) for card in ruleset.crew]},
    }


def fingerprinted_data(ruleset: Ruleset) -> dict[str, Any]:
    """What the fingerprint hashes: ``ruleset_to_data`` with the sections a ruleset written before
    them would not have held, when they say what it said, in its older form: no ``majority``
    when it is R15/R16's, no ``bonus`` when it is R17's, no ``end`` when it is draft 7's R10
    (else its conditions as [id, condition] pairs, so that their order counts), no
    ``round_end.unpicked_crews.at_cap`` when it is draft 7's ``stays`` (R11), no
    ``round_end.effects`` when there are none and no crew is replaced, no ``end_scoring`` when
    it has no line, and then a ``round_end`` of 1 free cube and a cap as the older
    ``max_free_cubes_per_crew``. So such rulesets keep their fingerprints (their records and
    cached runs stay theirs) while any other rule has its own."""
    data = ruleset_to_data(ruleset)
    rules = data["rules"]
    if ruleset.majority == R15_R16:
        del rules["majority"]
    if ruleset.bonus == R17:
        del rules["bonus"]
    if not ruleset.end_scoring:
        del rules[END_SCORING_KEY]
    if ruleset.end == DRAFT7_END:
        del rules[END_KEY]
    else:  # as pairs: the order of the conditions is the log's order of the triggers (R10)
        rules[END_KEY] = [[trigger.id, condition] for trigger, condition in zip(ruleset.end, rules[END_KEY].values(), strict=True)]
    crews = ruleset.unpicked_crews
    if not crews.replaced:  # draft 7's at_cap (R11): left out, as rulesets before it wrote
        del rules["round_end"]["unpicked_crews"]["at_cap"]
    if ruleset.round_end_effects or crews.replaced:
        return data
    del rules["round_end"]["effects"]
    if type(crews.free_cubes) is int and crews.free_cubes == 1 and crews.cap is not None:
        rules[OLDER_CAP_KEY] = rules.pop("round_end")["unpicked_crews"]["cap"]
    return data


def fingerprint(data: Any) -> str:
    """sha256 of the canonical JSON of ``data`` (sorted keys, no whitespace): comments, layout
    and key order of the YAML do not change it; any value does."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def short_fingerprint(fingerprint: str) -> str:
    """The first 12 hex digits of a fingerprint, as git shortens commit hashes: what every
    title, footer and message shows."""
    return fingerprint[:12]


def _in_order(documents: RulesetDocuments) -> tuple[YamlDocument, YamlDocument, YamlDocument]:
    return (documents.rules, documents.planets, documents.crew)


def _is_bare_name(text: str) -> bool:
    return bool(text) and os.sep not in text and "/" not in text and text not in (".", "..")


def _no_folder_problem(given: str, names: tuple[str, ...]) -> Problem:
    files = ", ".join(RULESET_FILES)
    if given and Path(given).exists():
        message = f"expected a ruleset folder with {files}, found a file"
        return Problem(given, 0, 0, "", message)
    message = (
        f"no such folder; expected a ruleset folder with {files}, or the name of a bundled "
        f"ruleset ({', '.join(names)})"
    )
    suggestion = close_match(given, names) if _is_bare_name(given) else None
    return Problem(given, 0, 0, "", message, suggestion)


def _unpicked_crews(rules: Mapping[str, Any], colours: list[str]) -> UnpickedCrews:
    """R11 of checked rules.yaml: its ``round_end.unpicked_crews``, or the older
    ``max_free_cubes_per_crew`` read as the cap with 1 free cube (docs/rules.md, R11)."""
    if "round_end" not in rules:
        return UnpickedCrews(free_cubes=1, cap=int(rules[OLDER_CAP_KEY]))
    section = rules["round_end"]["unpicked_crews"]
    free_cubes = Parser(colours).amount(section["free_cubes"], FREE_CUBES_PATH, frozenset({CREWS}))
    assert free_cubes is not None  # rules_checks.round_end_problems found no problem in it
    cap = section["cap"]
    return UnpickedCrews(free_cubes=free_cubes, cap=None if cap is None else int(cap), at_cap=section.get("at_cap", AT_CAP_STAYS))


def _round_end_data(ruleset: Ruleset) -> dict[str, Any]:
    crews = ruleset.unpicked_crews
    return {
        "unpicked_crews": {"free_cubes": amount_data(crews.free_cubes), "cap": crews.cap, "at_cap": crews.at_cap},
        "effects": AB.effects_data(ruleset.round_end_effects),
    }


def _round_end_effects(
    document: YamlDocument, effect_types: Mapping[str, type[Effect]], problems: list[Problem], parser: Parser
) -> tuple[Effect, ...]:
    """The effects of checked rules.yaml's ``round_end.effects`` (none when left out), built as a
    planet ability's do with nothing bound (``rules_checks.round_end_effect_problems``)."""
    items = document.data.get("round_end", {}).get("effects", ())
    path = ROUND_END_EFFECTS_PATH
    effects = tuple(
        _effect(document, (*path, number), item, AB.ABILITY_WHEN, effect_types, problems, parser, frozenset())
        for number, item in enumerate(items)
    )
    _refuse_decisions(document, path, effects, ROUND_END_EFFECTS_HOLDER, problems)
    return effects  # type: ignore[return-value]  # None only with a problem added


def _refuse_decisions(
    document: YamlDocument, path: DocPath, effects: tuple[Effect | None, ...], holder: str, problems: list[Problem]
) -> None:
    """A problem for each built effect of the list at ``path`` that asks a decision (an ``if``
    whose branches do): ``holder`` is performed at once."""
    for number, effect in enumerate(effects):
        if effect is not None and not effect.immediate:
            problems.append(document.problem((*path, number), f"{effect.name!r} asks a decision here, so it cannot stand in {holder}, which is performed at once"))


def _end(rules: Mapping[str, Any], colours: list[str]) -> tuple[EndTrigger, ...]:
    """R10 of checked rules.yaml: its ``end`` conditions in file order, or draft 7's when the
    section is left out (docs/rules.md, R10)."""
    if END_KEY not in rules:
        return DRAFT7_END
    parser = Parser(colours)
    triggers = tuple(EndTrigger(key, parser.condition(value, (END_KEY, key), frozenset())) for key, value in rules[END_KEY].items())
    assert not parser.problems  # rules_checks.end_problems found no problem in them
    return triggers


def _end_scoring(rules: Mapping[str, Any], colours: list[str]) -> tuple[ScoringLine, ...]:
    """The score sheet's lines of checked rules.yaml's ``end_scoring``, in file order (none when
    left out): each ``vp`` read with this_seat bound to the seat scored (docs/rules.md,
    "End-of-game scoring lines")."""
    parser = Parser(colours)
    lines = tuple(
        ScoringLine(key, _name(value["name"]), parser.amount(value["vp"], (END_SCORING_KEY, key, "vp"), frozenset({SEATS})))  # type: ignore[arg-type]
        for key, value in rules.get(END_SCORING_KEY, {}).items()
    )
    assert not parser.problems  # rules_checks.end_scoring_problems found no problem in them
    return lines


def _name(data: Mapping[str, str]) -> Name:
    return Name(ja=data["ja"], en=data["en"])


def _name_data(name: Name) -> dict[str, str]:
    return {"ja": name.ja, "en": name.en}


def _planet(
    document: YamlDocument,
    index: int,
    data: Mapping[str, Any],
    effect_types: Mapping[str, type[Effect]],
    problems: list[Problem],
    parser: Parser,
) -> PlanetCard:
    optional = {key: data[key] for key in ("special_capacity", "placeholder") if key in data}
    if "special_capacity" in optional:
        optional["special_capacity"] = int(optional["special_capacity"])
    abilities = tuple(
        _ability(document, ("planets", index, "abilities", number), item, effect_types, problems, parser)
        for number, item in enumerate(data.get("abilities", ()))
    )
    return PlanetCard(
        id=data["id"],
        name=_name(data["name"]),
        colour=data["colour"],
        track=tuple(int(value) for value in data["track"]),
        abilities=abilities,
        **optional,
    )


def _ability(
    document: YamlDocument,
    path: DocPath,
    data: Mapping[str, Any],
    effect_types: Mapping[str, type[Effect]],
    problems: list[Problem],
    parser: Parser,
) -> AB.Ability:
    """One ability of checked data (``ability_checks.ability_problems`` found no problem in it)."""
    if AB.LASTING_KEY in data:
        lasting = data[AB.LASTING_KEY]
        if isinstance(lasting, str):
            return AB.Lasting(lasting)
        (word, value), = lasting.items()
        if isinstance(value, list):  # counts_toward's colours: a tuple, as a frozen value holds them
            value = tuple(value)
        return AB.Lasting(word, int(value) if word == AB.MAJORITY_FACTOR else value)
    on = data["on"]
    event, options = (on, {}) if isinstance(on, str) else next(iter(on.items()))
    # this_planet: a planet ability's own Planet, or the Planet a crew trigger's cube landed on.
    bound = frozenset({PLANETS}) if path[0] == "planets" or event in AB.LANDING_EVENTS else frozenset()
    do = tuple(
        _effect(document, (*path, "do", number), item, AB.ABILITY_WHEN, effect_types, problems, parser, bound)
        for number, item in enumerate(data["do"])
    )
    _refuse_decisions(document, (*path, "do"), do, "a trigger's do", problems)  # an ``if`` whose branches ask a decision
    return AB.Trigger(event, do, options.get(AB.SQUARE), tuple(options.get(AB.PICKED_CREW, ())))  # type: ignore[arg-type]


def _planet_data(card: PlanetCard) -> dict[str, Any]:
    data = {
        "id": card.id,
        "name": _name_data(card.name),
        "colour": card.colour,
        "track": list(card.track),
        "special_capacity": card.special_capacity,
        "placeholder": card.placeholder,
    }
    if card.abilities:  # left out when there are none: the data (and fingerprint) of older rulesets
        data["abilities"] = [ability.to_data() for ability in card.abilities]
    return data


def _setups(entries: list[Mapping[str, Any]]) -> dict[int, PlayerCountSetup]:
    """R14 counts by player count, sorted; R10's threshold defaults to the number of players."""
    setups = {
        int(entry["players"]): PlayerCountSetup(
            players=int(entry["players"]),
            planets=int(entry["planets"]),
            crew=int(entry["crew"]),
            full_planets_to_end=int(entry.get("full_planets_to_end", entry["players"])),
        )
        for entry in entries
    }
    return dict(sorted(setups.items()))


def _turn_order_vp(rules: Mapping[str, Any]) -> tuple[int, ...]:
    """Starting VP by turn position; left out, a 0 for each seat of the largest player count."""
    values = rules.get("setup", {}).get("turn_order_vp")
    if values is None:
        values = [0] * max(int(entry["players"]) for entry in rules["player_counts"])
    return tuple(int(value) for value in values)


def _setup_steps(
    document: YamlDocument, effect_types: Mapping[str, type[Effect]], problems: list[Problem], parser: Parser
) -> tuple[Effect | None, ...]:
    """rules.yaml's ``setup.each_player`` of checked data (``rules_checks.setup_problems`` found no
    problem in it): each effect resolves as a skill's ``on_choose`` effect, with no crew bound."""
    steps = document.data.get("setup", {}).get("each_player") or ()
    return tuple(
        _effect(document, (*EACH_PLAYER_PATH, number), item, ON_CHOOSE, effect_types, problems, parser, frozenset())
        for number, item in enumerate(steps)
    )


def _setup_data(ruleset: Ruleset) -> dict[str, Any]:
    """The ``setup`` section; ``each_player`` is left out when empty: the data (and fingerprint)
    of the rulesets written before it."""
    data: dict[str, Any] = {"turn_order_vp": list(ruleset.turn_order_vp)}
    if ruleset.setup_steps:
        data["each_player"] = [effect.to_data() for effect in ruleset.setup_steps]
    return data


def _majority(section: Mapping[str, Any]) -> Majority:
    """The majority rule of a checked ``majority`` section; a key left out keeps R15/R16's value."""
    fields = {key: section[key] for key in attrs.fields_dict(Majority) if key in section}
    if "rank_percent" in fields:
        fields["rank_percent"] = tuple(int(value) for value in fields["rank_percent"])
    return Majority(**fields)


def _build_crew(
    document: YamlDocument, effect_types: Mapping[str, type[Effect]], colours: list[str]
) -> tuple[tuple[CrewCard, ...], list[Problem]]:
    cards: list[CrewCard] = []
    problems: list[Problem] = []
    parser = Parser(colours)
    for index, data in enumerate(document.data["crew"]):
        path = ("crew", index, "skill")
        skill = tuple(  # None only with a problem recorded, and then nothing is returned
            _effect(document, (*path, number), item, None, effect_types, problems, parser, frozenset())
            for number, item in enumerate(data["skill"])
        )
        optional = {key: data[key] for key in ("always_in_play", "placeholder") if key in data}
        triggers = tuple(
            _ability(document, ("crew", index, AB.CREW_TRIGGERS_KEY, number), item, effect_types, problems, parser)
            for number, item in enumerate(data.get(AB.CREW_TRIGGERS_KEY, ()))
        )
        cards.append(
            CrewCard(
                id=data["id"],
                name=_name(data["name"]),
                survey_count=int(data["survey_count"]),
                skill=skill,
                triggers=triggers,  # type: ignore[arg-type]
                **optional,
            )
        )
    return tuple(cards), problems


def _effect(
    document: YamlDocument,
    path: DocPath,
    data: Mapping[str, Any],
    parent_when: str | None,
    effect_types: Mapping[str, type[Effect]],
    problems: list[Problem],
    parser: Parser,
    bound: frozenset[str],
) -> Effect | None:
    """One effect object: declared defaults filled, options, branches and bodies built
    recursively, expressions parsed (checked data: ``checks`` found no problem in them).

    None, with a problem added, when the effect class refuses the parameters.
    """
    cls = effect_types[data["effect"]]
    when = resolve_when(data, cls, parent_when)
    arguments: dict[str, Any] = {}
    for param in cls.params:
        if param.name in data:
            value = data[param.name]
        elif param.default is not REQUIRED:
            value = param.default
        else:
            continue
        inner = bound | cls.binds(param, data)
        if param.kind == "options":
            value = tuple(
                tuple(
                    _effect(document, (*path, param.name, o, e), item, when, effect_types, problems, parser, inner)
                    for e, item in enumerate(option)
                )
                for o, option in enumerate(value)
            )
        elif param.kind == "effects":
            value = tuple(
                _effect(document, (*path, param.name, e), item, when, effect_types, problems, parser, inner)
                for e, item in enumerate(value)
            )
        elif param.kind == "integer":
            value = int(value)
        elif value is not None and (param.kind in EXPRESSION_KINDS or param.kind == OWNER):
            value = parser.owner(value, (), inner) if param.kind == OWNER else parser.parse(param.kind, value, (), inner)
        arguments[param.attribute] = value
    inner_effects = [e for key in ("options", "effects") for e in _nested(cls, arguments, key)]
    if any(effect is None for effect in inner_effects):
        return None  # an inner effect was refused, its problem added: this one is not built
    try:
        return cls(when=when, **arguments)
    except (TypeError, ValueError) as error:  # a custom type stricter than its declaration
        message = f"effect {cls.name!r} could not be built from these parameters: {error}"
        problems.append(document.problem(path, message))
        return None


def _nested(cls: type[Effect], arguments: Mapping[str, Any], kind: str) -> list[Effect | None]:
    """The effects built for ``cls``'s parameters of ``kind`` (``options`` or ``effects``)."""
    found: list[Effect | None] = []
    for param in cls.params:
        if param.kind == kind and param.attribute in arguments:
            value = arguments[param.attribute]
            found += [e for option in value for e in option] if kind == "options" else list(value)
    return found


def _crew_data(card: CrewCard) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": card.id,
        "name": _name_data(card.name),
        "survey_count": card.survey_count,
        "always_in_play": card.always_in_play,
        "skill": [effect.to_data() for effect in card.skill],
        "placeholder": card.placeholder,
    }
    if card.triggers:  # left out when there are none: the data (and fingerprint) of older rulesets
        data[AB.CREW_TRIGGERS_KEY] = [trigger.to_data() for trigger in card.triggers]
    return data
