"""The JSON Schemas of the ruleset files, and the generator of the crew schema.

``rules.schema.json`` is written by hand. The crew schema embeds one effect schema per effect
type (and the planets schema, for the effects of planet abilities), generated here (``effect_schema``) from each effect class's
declarations (parameters, timings, summary), so it is built in Python: the loader builds it in
memory from the effect registry it is given (custom effect types validate too), and
``schemas/crew.schema.json`` is this module's output for the built-in registry, for editors.
Regenerate or verify the file with::

    python -m stargazer_rules.rulesets.schemas --write
    python -m stargazer_rules.rulesets.schemas --check
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.printable import NAME_PATTERN
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary import expressions as X
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, EXPRESSION_KINDS, OWNER, REQUIRED, Effect, Param

DIALECT = "https://json-schema.org/draft/2020-12/schema"
CREW_SCHEMA_FILE = "crew.schema.json"
PLANETS_SCHEMA_FILE = "planets.schema.json"

#: Card ids and colour ids: they go into game records and command lines.
ID_PATTERN = "^[a-z0-9][a-z0-9_-]*$"

#: Bounds of every effect parameter, far past any card: an integer parameter (VP, cubes, a
#: survey delta) within -100..100, a choice of at most 10 options of at most 20 effects each.
MAX_PARAM_VALUE = X.VALUE_LIMIT
MAX_OPTIONS = 10
MAX_OPTION_EFFECTS = 20

_NAME = {
    "description": "A name in Japanese and in English.",
    "type": "object",
    "properties": {
        "ja": {"description": "The Japanese name.", "type": "string", "minLength": 1, "maxLength": 200, "pattern": NAME_PATTERN},
        "en": {"description": "The English name.", "type": "string", "minLength": 1, "maxLength": 200, "pattern": NAME_PATTERN},
    },
    "required": ["ja", "en"],
    "additionalProperties": False,
}

_CREW_CARD = {
    "description": "One crew card: a survey count and a skill.",
    "type": "object",
    "properties": {
        "id": {
            "description": (
                "The card's id (lowercase letters, digits, '-' and '_'), unique among the crew; "
                "game records name cards by id."
            ),
            "type": "string",
            "maxLength": 64,
            "pattern": ID_PATTERN,
        },
        "name": {
            "$ref": "#/$defs/name",
            "description": "The card's name, in Japanese and English.",
        },
        "survey_count": {
            "description": "Up to how many cubes the chooser places in the survey step (R7).",
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
        },
        "always_in_play": {
            "description": (
                "True for a crew laid out at every setup instead of dealt, like Captain "
                "Armstrong (R19); default false."
            ),
            "type": "boolean",
            "default": False,
        },
        "skill": {
            "description": (
                "The skill: effects applied when the crew is chosen, each at its timing (R5, R9). "
                "An empty list is a crew without a skill. See docs/skills.md."
            ),
            "type": "array",
            "maxItems": 20,
            "items": {"$ref": "#/$defs/effect"},
        },
        "placeholder": {
            "description": (
                "True when the card's values are a reconstruction for the designer to overwrite "
                "(R20); default false."
            ),
            "type": "boolean",
            "default": False,
        },
    },
    "required": ["id", "name", "survey_count", "skill"],
    "additionalProperties": False,
}


_PLANET_CARD: dict[str, Any] = {
    "description": "One planet card (R1).",
    "type": "object",
    "properties": {
        "id": {
            "description": "The card's id (lowercase letters, digits, '-' and '_'), unique among the planets; game records name cards by id.",
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9_-]*$",
            "maxLength": 64
        },
        "name": {
            "$ref": "#/$defs/name",
            "description": "The card's name, in Japanese and English."
        },
        "colour": {
            "description": "The card's colour: a colour id from rules.yaml. The major-planet bonus counts cubes per colour (R17).",
            "type": "string",
            "maxLength": 64
        },
        "track": {
            "description": "The VP value of normal squares 1, 2, 3, ... in order (R1); the track length is the number of values. 0 is an accident. Cubes fill square 1 first (R2).",
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "type": "integer",
                "minimum": 0,
                "maximum": 100
            }
        },
        "special_capacity": {
            "description": "How many cubes the special square '0' holds (R3; default 1).",
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "default": 1
        },
        "placeholder": {
            "description": "True when the card's values are a reconstruction for the designer to overwrite (R20); default False.",
            "type": "boolean",
            "default": False
        }
    },
    "required": [
        "id",
        "name",
        "colour",
        "track"
    ],
    "additionalProperties": False
}
_PLANET_CARD["properties"]["abilities"] = {
    "description": (
        "The card's abilities while it is in play: triggers ({on: <event>, do: [<effects>]}) and "
        "lasting effects ({lasting: <word>}). See docs/skills.md, \"Planet abilities\"."
    ),
    "type": "array",
    "maxItems": 10,
    "items": {"$ref": "#/$defs/ability"},
}

_ABILITY = {
    "description": "One ability: a trigger (on, do) or a lasting effect (lasting).",
    "type": "object",
    "properties": {
        "on": {
            "description": "The event: " + ", ".join(AB.EVENTS) + "; cube_placed may name a square: {cube_placed: {square: 3}} or {cube_placed: {square: special}}.",
            "anyOf": [
                {"enum": list(AB.EVENTS)},
                {
                    "type": "object",
                    "properties": {
                        AB.CUBE_PLACED: {
                            "description": "A cube placed on the square given.",
                            "type": "object",
                            "properties": {
                                "square": {
                                    "description": "The normal square (1, 2, ...) or special; default any normal square.",
                                    "anyOf": [{"type": "integer", "minimum": 1, "maximum": 100}, {"const": AB.SPECIAL}],
                                }
                            },
                            "additionalProperties": False,
                        }
                    },
                    "additionalProperties": False,
                },
            ],
        },
        "do": {
            "description": "Effects that ask no decision, performed at once when the event happens, with this_planet bound to this Planet.",
            "type": "array",
            "minItems": 1,
            "maxItems": 20,
            "items": {"$ref": "#/$defs/effect"},
        },
        AB.LASTING_KEY: {
            "description": "A lasting effect while the Planet is in play: no_survey_start, {counts_toward: every_colour | none | <colour id> | [colour ids]} or {majority_factor: n}.",
            "anyOf": [
                {"const": AB.NO_SURVEY_START},
                {
                    "type": "object",
                    "properties": {
                        AB.COUNTS_TOWARD: {
                            "description": "The colours its cubes count toward for the major-planet bonus (R17), instead of its own: every_colour (P1), none, a colour id of rules.yaml, or a list of them (each once).",
                            "anyOf": [
                                {"type": "string", "pattern": ID_PATTERN},
                                {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": ID_PATTERN}},
                            ],
                        },
                        AB.MAJORITY_FACTOR: {"type": "integer", "minimum": 1, "maximum": AB.MOST_MAJORITY_FACTOR, "description": "What the VP its majority scores are multiplied by (R15, R16)."},
                    },
                    "additionalProperties": False,
                },
            ],
        },
    },
    "additionalProperties": False,
}


_CREW_CARD["properties"][AB.CREW_TRIGGERS_KEY] = {
    "description": (
        "What the crew sets off while a player holds it (their worker is on it this round, R5): "
        "triggers {on: <event>, do: [<effects>]}, with you the holder. See docs/skills.md, \"Crew triggers\"."
    ),
    "type": "array",
    "maxItems": 10,
    "items": {"$ref": "#/$defs/crew_trigger"},
}

_CREW_TRIGGER = {
    "description": "One crew trigger: the event it waits for and the effects it performs at once.",
    "type": "object",
    "properties": {
        "on": {
            "description": (
                "The event: " + ", ".join(AB.CREW_EVENTS) + "; cube_placed may name a square: "
                "{cube_placed: {square: 3}} or {cube_placed: {square: special}}; another_pick the crews "
                "whose pick sets it off: {another_pick: {crew: [pirate, steward]}}."
            ),
            "anyOf": [
                {"enum": list(AB.CREW_EVENTS)},
                _ABILITY["properties"]["on"]["anyOf"][1],  # type: ignore[index]
                {
                    "type": "object",
                    "properties": {
                        AB.ANOTHER_PICK: {
                            "description": "Another player picks one of the crews given.",
                            "type": "object",
                            "properties": {
                                AB.PICKED_CREW: {
                                    "description": "The ids of the crews (of crew.yaml) whose pick sets it off; default any crew.",
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {"type": "string"},
                                }
                            },
                            "additionalProperties": False,
                        }
                    },
                    "additionalProperties": False,
                },
            ],
        },
        "do": {
            "description": (
                "Effects that ask no decision, performed at once when the event happens, with you the holder, "
                "this_crew this crew and, at cube_placed and becomes_full, this_planet the Planet the cube landed on."
            ),
            "type": "array",
            "minItems": 1,
            "maxItems": 20,
            "items": {"$ref": "#/$defs/effect"},
        },
    },
    "additionalProperties": False,
}


def planets_schema(effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES) -> dict[str, Any]:
    """The JSON Schema of planets.yaml for the effect registry ``effect_types``: the abilities'
    effects are checked as a skill's are."""
    return {
        "$schema": DIALECT,
        "$id": "urn:stargazer-rules:schemas:planets.schema.json",
        "title": "Stargazer ruleset: planets.yaml",
        "description": (
            "Every planet card of one Stargazer ruleset (R1). A game deals some of them into the "
            "ring (R14); see docs/ruleset-format.md. Generated by `python -m "
            "stargazer_rules.rulesets.schemas --write`: do not edit by hand."
        ),
        "type": "object",
        "properties": {
            "planets": {
                "description": "The planet cards, in file order.",
                "type": "array",
                "minItems": 1,
                "maxItems": 200,
                "items": {"$ref": "#/$defs/planet"},
            }
        },
        "required": ["planets"],
        "additionalProperties": False,
        "$defs": {
            "name": _copy(_NAME),
            "planet": _copy(_PLANET_CARD),
            "ability": _copy(_ABILITY),
            "effect": _described_effect_schema(effect_types),
            **expression_defs(),
        },
    }


#: Where rules.yaml holds the effects performed at every round's end (idea R7).
ROUND_END_EFFECTS_SCHEMA_PATH = ("properties", "round_end", "properties", "effects", "items")


def rules_schema(effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES) -> dict[str, Any]:
    """The JSON Schema of rules.yaml the loader checks against: the hand-written
    ``schemas/rules.schema.json`` whose ``round_end.effects`` items are the effect schema of the
    registry ``effect_types`` (the file, for editors, says only that each is a mapping)."""
    schema = load_schema("rules")
    items: dict[str, Any] = schema
    for key in ROUND_END_EFFECTS_SCHEMA_PATH[:-1]:
        items = items[key]
    items[ROUND_END_EFFECTS_SCHEMA_PATH[-1]] = {"$ref": "#/$defs/effect"}
    schema["$defs"] = {**schema.get("$defs", {}), "effect": _described_effect_schema(effect_types), **expression_defs()}
    return schema


def crew_schema(effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES) -> dict[str, Any]:
    """The JSON Schema of crew.yaml for the effect registry ``effect_types``."""
    return {
        "$schema": DIALECT,
        "$id": "urn:stargazer-rules:schemas:crew.schema.json",
        "title": "Stargazer ruleset: crew.yaml",
        "description": (
            "Every crew card of one Stargazer ruleset. A game lays out the always_in_play crew "
            "and deals some of the others (R14, R19); see docs/ruleset-format.md and "
            "docs/skills.md. Generated by `python -m stargazer_rules.rulesets.schemas --write`: do not "
            "edit by hand."
        ),
        "type": "object",
        "properties": {
            "crew": {
                "description": "The crew cards, in file order.",
                "type": "array",
                "minItems": 1,
                "maxItems": 200,
                "items": {"$ref": "#/$defs/crew_card"},
            }
        },
        "required": ["crew"],
        "additionalProperties": False,
        "$defs": {
            "name": _copy(_NAME),
            "crew_card": _copy(_CREW_CARD),
            "crew_trigger": _copy(_CREW_TRIGGER),
            "effect": _described_effect_schema(effect_types),
            **expression_defs(),
        },
    }


def effect_schema(effect_types: Mapping[str, type[Effect]] = EFFECT_TYPES) -> dict[str, Any]:
    """The JSON Schema of one effect mapping, generated from the effect types' declarations.

    The crew schema embeds this under ``$defs.effect``; the loader validates against it, so
    the file in ``schemas/`` and the checks at load time cannot drift apart.
    """
    names = list(effect_types)
    rules: list[dict[str, Any]] = []
    for name, cls in effect_types.items():
        properties: dict[str, Any] = {
            "effect": {"const": name},
            "when": {
                "enum": list(cls.timings),
                "default": cls.timings[0],
                "description": "When the effect resolves: " + ", ".join(cls.timings) + ".",
            },
        }
        required = ["effect"]
        conditionals: list[dict[str, Any]] = []
        for param in cls.params:
            properties[param.name] = _param_schema(param)
            if param.required:
                required.append(param.name)
            if param.required_when is not None:
                other, value = param.required_when
                conditionals.append(
                    {
                        "if": {"properties": {other: {"const": value}}, "required": [other]},
                        "then": {"required": [param.name]},
                    }
                )
        then: dict[str, Any] = {
            "description": cls.summary,
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        if conditionals:
            then["allOf"] = conditionals
        rules.append(
            {
                "if": {"properties": {"effect": {"const": name}}, "required": ["effect"]},
                "then": then,
            }
        )
    return {
        "type": "object",
        "description": "One effect of a skill: 'effect' names its type, the other keys are its parameters.",
        "properties": {
            "effect": {
                "enum": names,
                "description": "The effect type; see docs/skills.md.",
            }
        },
        "required": ["effect"],
        "allOf": rules,
    }


def _param_schema(param: Param) -> dict[str, Any]:
    schema: dict[str, Any] = {"description": param.description}
    if param.kind == "integer":
        schema["type"] = "integer"
        schema["minimum"] = param.minimum if param.minimum is not None else -MAX_PARAM_VALUE
        schema["maximum"] = MAX_PARAM_VALUE
    elif param.kind == "choice":
        schema["enum"] = list(param.choices)
    elif param.kind == "colour":
        schema["type"] = "string"
        schema["maxLength"] = 64
    elif param.kind == "effects":
        schema["type"] = "array"
        schema["maxItems"] = MAX_OPTION_EFFECTS
        schema["items"] = {"$ref": "#/$defs/effect"}
    elif param.kind == X.AMOUNT:
        number = {"type": "integer", "minimum": param.minimum if param.minimum is not None else -MAX_PARAM_VALUE, "maximum": MAX_PARAM_VALUE}
        schema["anyOf"] = [number, {"$ref": "#/$defs/amount_expression"}]
    elif param.kind in EXPRESSION_KINDS:
        schema["$ref"] = f"#/$defs/{param.kind}"
    elif param.kind == OWNER:
        schema["$ref"] = "#/$defs/owner"
    elif param.kind == "options":
        schema["type"] = "array"
        schema["minItems"] = param.minimum or 1
        schema["maxItems"] = MAX_OPTIONS
        schema["items"] = {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_OPTION_EFFECTS,
            "items": {"$ref": "#/$defs/effect"},
        }
    else:  # pragma: no cover - guarded by the declaration test
        raise ValueError(f"unknown parameter kind {param.kind!r}")
    if param.default is not REQUIRED:
        schema["default"] = json.loads(json.dumps(param.default))  # as JSON holds it: () is []
    return schema


_KIND_DESCRIPTIONS = {
    X.AMOUNT: "An amount of the rules language: a whole number, or an expression computed when the effect resolves (docs/skills.md).",
    X.CONDITION: "A condition of the rules language: a comparison, all/any/not, or a predicate (docs/skills.md).",
    X.PLANETS: "A set of Planets: a word, or a filter {where: <condition>, from: <set>} (docs/skills.md).",
    X.SEATS: "A set of seats, in turn order from the chooser: a word, or a filter (docs/skills.md).",
    X.CREWS: "A set of crews, in crew-area order: a word, or a filter (docs/skills.md).",
}


#: What each kind of value a word takes is, for the editor's hover.
_VALUE_DESCRIPTIONS = {
    **{kind: f"{_KIND_DESCRIPTIONS[kind].split(':')[0]}." for kind in EXPRESSION_KINDS},
    X.PAIR: "Two amounts, [a, b], compared.",
    X.COLOUR: "A colour id of the ruleset.",
    X.OWNER_VALUE: "Whose cubes: a set of seats, free or anyone.",
    X.CUBES_VALUE: "Whose cubes (owner), on which squares (squares) of which Planets (planets); each may be left out.",
    X.EXTREME_VALUE: "One set (planets, seats or crews) and the amount read for each member, bound as this_planet, this_seat or this_crew.",
}


def _word_schema(word: str, value: Any) -> dict[str, Any]:
    """The schema of one mapping word of the grammar: ``{word: <value>}``."""
    if value in EXPRESSION_KINDS:
        inner: dict[str, Any] = {"$ref": f"#/$defs/{value}"}
    elif value == X.PAIR:
        inner = {"type": "array", "items": {"$ref": "#/$defs/amount"}, "minItems": 2, "maxItems": 2}
    elif value == X.COLOUR:
        inner = {"type": "string", "maxLength": 64}
    elif value == X.OWNER_VALUE:
        inner = {"$ref": "#/$defs/owner"}
    elif value == X.CUBES_VALUE:
        inner = {
            "type": ["object", "null"],
            "properties": {
                "owner": {"$ref": "#/$defs/owner", "description": "Whose cubes; default anyone."},
                "squares": {"enum": list(X.SQUARES), "description": "normal (R2), special (R3) or both; default normal."},
                "planets": {"$ref": "#/$defs/planets", "description": "On which Planets; default all."},
            },
            "additionalProperties": False,
        }
    elif value == X.EXTREME_VALUE:
        inner = {
            "type": "object",
            "properties": {
                **{kind: {"$ref": f"#/$defs/{kind}", "description": "The set the amount is read over."} for kind in (X.PLANETS, X.SEATS, X.CREWS)},
                "amount": {"$ref": "#/$defs/amount", "description": "Read once for each member, with it bound."},
            },
            "required": ["amount"],
            "minProperties": 2,
            "maxProperties": 2,
            "additionalProperties": False,
        }
    else:
        _, kind, least = value
        inner = {"type": "array", "minItems": least, "maxItems": MAX_OPTION_EFFECTS, "items": {"$ref": f"#/$defs/{kind}"}}
    description = _VALUE_DESCRIPTIONS.get(value) if isinstance(value, str) else f"A list of {value[1]}s."
    inner["description"] = f"{word}: {description}"
    return {"type": "object", "properties": {word: inner}, "required": [word], "additionalProperties": False}


def expression_defs() -> dict[str, Any]:
    """The rules language's expressions as schema definitions, generated from its grammar
    (``expressions.GRAMMAR``), so that an editor completes and checks them."""
    defs: dict[str, Any] = {}
    for kind in EXPRESSION_KINDS:
        grammar = X.GRAMMAR[kind]
        bare = [word for word, value in grammar.items() if value is None]
        forms: list[dict[str, Any]] = [{"enum": bare}] if bare else []
        for word, value in grammar.items():
            if value is None:
                continue
            if value == X.WHERE_VALUE:
                forms.append(
                    {
                        "type": "object",
                        "properties": {
                            "where": {"$ref": "#/$defs/condition", "description": "The condition each member must meet, read with it bound."},
                            "from": {"$ref": f"#/$defs/{kind}", "description": "The set filtered; default all (everyone for seats)."},
                        },
                        "required": ["where"],
                        "additionalProperties": False,
                    }
                )
            else:
                forms.append(_word_schema(word, value))
        name = "amount_expression" if kind == X.AMOUNT else kind
        defs[name] = {"description": _KIND_DESCRIPTIONS[kind], "anyOf": forms}
    defs["amount"] = {
        "description": _KIND_DESCRIPTIONS[X.AMOUNT],
        "anyOf": [{"type": "integer", "minimum": -MAX_PARAM_VALUE, "maximum": MAX_PARAM_VALUE}, {"$ref": "#/$defs/amount_expression"}],
    }
    defs["owner"] = {
        "description": "Whose cubes: a set of seats, free (the virtual player's) or anyone.",
        "anyOf": [{"enum": list(X.OWNER_WORDS)}, {"$ref": "#/$defs/seats"}],
    }
    return defs


def _described_effect_schema(effect_types: Mapping[str, type[Effect]]) -> dict[str, Any]:
    """``effect_schema`` with a description on each type's ``effect`` key, for editor hovers."""
    schema = effect_schema(effect_types)
    for rule in schema.get("allOf", ()):
        then = rule.get("then", {})
        effect = then.get("properties", {}).get("effect")
        if effect is not None and "description" not in effect:
            effect["description"] = then.get("description", "The effect type.")
    return schema


def _copy(schema: dict[str, Any]) -> dict[str, Any]:
    """A deep copy, so that a caller editing one schema never changes the next."""
    return json.loads(json.dumps(schema))


def schema_text(schema: Mapping[str, Any]) -> str:
    """A schema as written to ``schemas/``: two-space indent, UTF-8 kept, final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def load_schema(name: str) -> dict[str, Any]:
    """The bundled schema ``name`` (``rules``, ``planets``, ``crew`` or a file name)."""
    file = name if name.endswith(".json") else f"{name}.schema.json"
    return json.loads((schemas_dir() / file).read_text(encoding="utf-8"))


def generated_schema_command(
    module: str, file_name: str, generate: Callable[[], Mapping[str, Any]], source: str, argv: Sequence[str] | None
) -> int:
    """``python -m MODULE --write | --check``: write ``schemas/FILE_NAME`` from ``generate()``, or
    exit 1 when the file differs from it. Every generated schema (crew, targets, tune) has this
    command, so that a test and CI hold the file to the code it comes from."""
    parser = argparse.ArgumentParser(
        prog=f"python -m {module}", description=f"Regenerate or verify schemas/{file_name} from {source}."
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write the generated schemas/{file_name}")
    mode.add_argument("--check", action="store_true", help="exit 1 if the file differs from the generated schema")
    args = parser.parse_args(argv)
    target = schemas_dir() / file_name
    expected = schema_text(generate())
    if args.write:
        outputfiles.write_text(target, expected)
        print(f"wrote {target}")
        return 0
    if target.is_file() and target.read_text(encoding="utf-8") == expected:
        print(f"{target} is up to date")
        return 0
    print(f"{target} is out of date; run: python -m {module} --write", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check ``schemas/crew.schema.json`` and ``schemas/planets.schema.json`` against
    ``crew_schema()`` and ``planets_schema()``."""
    return max(
        generated_schema_command("stargazer_rules.rulesets.schemas", file, generate, "the effect declarations", argv)
        for file, generate in ((CREW_SCHEMA_FILE, crew_schema), (PLANETS_SCHEMA_FILE, planets_schema))
    )


if __name__ == "__main__":
    raise SystemExit(main())
