"""targets.yaml: the designer's targets, beside a ruleset's files, read and checked like them.

The file is optional. ``targets_for(ruleset)`` reads the one beside the ruleset's YAML files (the
bundled drafts ship one), or the file given with ``--targets``, or returns ``Targets.default()``.
Reading gathers every problem with its file:line and raises them together (``TargetsError``), as
the ruleset loader does: the schema (``targets_schema()``, generated from the measures and
settings and written to ``schemas/targets.schema.json``), then what a schema cannot say (one
goal per target, a ``card`` the ruleset has, a share written as a share).

    python -m stargazer_rules.analysis.targets_file --write | --check
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.targets import GOALS, MAX_GOAL, SETTING_RANGES, Settings, Target, Targets, goal_problem
from stargazer_rules.errors import Problem, TargetsError
from stargazer_rules.rulesets.resources import TARGETS_FILE, shown_path
from stargazer_rules.rulesets.schemas import generated_schema_command
from stargazer_rules.rulesets.validation import close_match, schema_problems
from stargazer_rules.rulesets.yamlsource import YamlDocument, load_yaml

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = ["TARGETS_FILE", "read_targets", "targets_beside", "targets_for", "targets_schema"]

SCHEMA_FILE = "targets.schema.json"
#: The most targets a file may hold, and the largest weight.
MAX_TARGETS = 200
MAX_WEIGHT = 1000
#: The most player counts and lineups a target may name (a game seats at most a few players).
MAX_PLAYERS = 8
MAX_LINEUPS = 20

_SETTING_WORDS = {
    "confidence": "The level of every interval and test (0.95).",
    "seat_advantage": "The seat advantage the games-needed figure is for (0.02: 2 points).",
    "power": "The power of the games-needed figure (0.8).",
    "min_card_games": "A card in play in fewer games is not judged (30).",
    "equivalence_margin": "A comparison calls a share's change inside ±this equivalent (0.02).",
    "near_miss": "A target met within this of its goal is a near miss in a comparison (0.03).",
}


def _setting_schema(name: str) -> dict[str, Any]:
    low, high = SETTING_RANGES[name]
    kind = "integer" if isinstance(low, int) and isinstance(high, int) else "number"
    return {"type": kind, "minimum": low, "maximum": high, "description": _SETTING_WORDS[name]}


def targets_schema() -> dict[str, Any]:
    """The JSON Schema of targets.yaml, from the measures and the settings (one place for each)."""
    number = {"type": "number", "minimum": -MAX_GOAL, "maximum": MAX_GOAL}
    assert set(SETTING_RANGES) == set(_SETTING_WORDS) == {field.name for field in attrs.fields(Settings)}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:stargazer-rules:schemas:targets.schema.json",
        "title": "Stargazer design targets",
        "description": "What the designer says the game should be (targets.yaml beside a ruleset's files; "
        "docs/simulation.md, \"Design targets\"): each target a measure, one goal and a weight.",
        "type": "object",
        "additionalProperties": False,
        "required": ["targets"],
        "properties": {
            "settings": {
                "description": "How every target is answered; each setting left out keeps its default.",
                "type": "object",
                "additionalProperties": False,
                "properties": {name: _setting_schema(name) for name in SETTING_RANGES},
            },
            "targets": {
                "description": "The targets, in the order the report lists them.",
                "type": "array",
                "maxItems": MAX_TARGETS,
                "items": {"$ref": "#/$defs/target"},
            },
        },
        "$defs": {
            "target": {
                "description": "One target: a measure and one goal (at_most, at_least, within or between).",
                "type": "object",
                "additionalProperties": False,
                "required": ["measure"],
                "properties": {
                    "measure": {
                        "description": "What is measured: " + "; ".join(f"{m.name}: {m.description}" for m in MEASURES.values()),
                        "enum": list(MEASURES),
                    },
                    "at_most": {**number, "description": "The goal: the figure is at most this."},
                    "at_least": {**number, "description": "The goal: the figure is at least this."},
                    "within": {"type": "number", "minimum": 0, "maximum": MAX_GOAL,
                               "description": "The goal: the figure is within ±this of its centre (a seat's fair share; 0 for a difference)."},
                    "between": {"description": "The goal: the figure lies between these two values.",
                                "type": "array", "minItems": 2, "maxItems": 2, "items": number},
                    "weight": {"type": "number", "minimum": 0, "maximum": MAX_WEIGHT,
                               "description": "How much the target counts (1; 0: shown, never counted in a headline or a stopping rule)."},
                    "card": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z0-9][a-z0-9_-]*$",
                             "description": "One crew or planet card (its id) the goal applies to, instead of every card."},
                    "margin": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_GOAL,
                               "description": "The change a comparison calls equivalent, in the measure's unit."},
                    "players": {"type": "array", "minItems": 1, "maxItems": MAX_PLAYERS,
                                "items": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                                "description": "The player counts of the runs the target applies to (default: every run's)."},
                    "lineups": {"type": "array", "minItems": 1, "maxItems": MAX_LINEUPS,
                                "items": {"type": "string", "minLength": 1, "maxLength": 200},
                                "description": "The lineups of the runs the target applies to, each as --bots writes one "
                                               "(greedy, mcts:200, mcts:400/greedy); default: every run's."},
                    "note": {"type": "string", "maxLength": 500, "description": "Why the target is there, for the reader."},
                },
            }
        },
    }


def targets_beside(ruleset: Ruleset) -> Path | None:
    """The targets.yaml beside a ruleset's files, when it has one."""
    if not ruleset.source:
        return None
    path = Path(ruleset.source) / TARGETS_FILE
    return path if os.path.lexists(path) else None  # a FIFO or a dangling link is read, and refused, not skipped


def targets_for(ruleset: Ruleset | None, given: str | os.PathLike[str] | None = None) -> Targets:
    """The targets a run of ``ruleset`` is judged by: ``given`` (``--targets FILE``), else the
    file beside the ruleset, else the defaults. Raises ``TargetsError`` for a file with problems."""
    if given is not None:
        return read_targets(given, ruleset)
    beside = targets_beside(ruleset) if ruleset is not None else None
    return read_targets(beside, ruleset) if beside is not None else Targets.default()


def read_targets(path: str | os.PathLike[str], ruleset: Ruleset | None = None) -> Targets:
    """Read and check one targets file; ``ruleset`` (when given) checks each ``card``."""
    shown = shown_path(path)
    document = load_yaml(Path(path), shown)
    problems = list(document.problems)
    if document.loaded:
        problems += schema_problems(document, targets_schema())
    if not problems:
        problems += _meaning_problems(document, ruleset)
    if problems:
        raise TargetsError(problems)
    data = document.data
    targets = [Target.from_json(item, line=document.position(("targets", i))[0]) for i, item in enumerate(data["targets"])]
    return Targets(targets=targets, settings=Settings(**(data.get("settings") or {})), source=shown)


def _meaning_problems(document: YamlDocument, ruleset: Ruleset | None) -> list[Problem]:
    problems = []
    cards = None
    if ruleset is not None:
        cards = {"crew": [c.id for c in ruleset.crew], "planet": [p.id for p in ruleset.planets]}
        cards["accident_row"] = cards["planet"]
    for index, item in enumerate(document.data["targets"]):
        at = ("targets", index)
        measure = MEASURES[item["measure"]]
        goals = [name for name in GOALS if name in item]
        if len(goals) != 1:
            found = ", ".join(goals) if goals else "none"
            problems.append(document.problem(at, f"a target has exactly one goal of at_most, at_least, within or between (found: {found})"))
            continue
        goal = goals[0]
        value = item[goal]
        if goal == "within" and measure.centre is None:
            problems.append(document.problem((*at, goal), f"{measure.name} has no centre to be within a distance of; use at_most, at_least or between"))
        problem = goal_problem(measure.name, goal, value)
        if problem is not None:
            problems.append(document.problem((*at, goal), problem))
        for place, lineup in enumerate(item.get("lineups", [])):
            problem = _lineup_problem(lineup)
            if problem is not None:
                problems.append(document.problem((*at, "lineups", place), problem))
        if "card" in item:
            if not measure.per_card:
                problems.append(document.problem((*at, "card"), f"{measure.name} is not counted per card; leave card out"))
            elif cards is not None and item["card"] not in cards[measure.per]:
                close = close_match(item["card"], cards[measure.per])
                kind = "crew" if measure.per == "crew" else "planet"
                problems.append(document.problem((*at, "card"), f"no {kind} card {item['card']!r} in ruleset {ruleset.name}", close))
    return problems


def _lineup_problem(text: str) -> str | None:
    """Why ``text`` is not a lineup as ``--bots`` writes one (the bot's error, with its
    did-you-mean), or None."""
    from stargazer_rules.bots import make_bot
    from stargazer_rules.errors import BotSpecError
    from stargazer_rules.simulation.planning import LINEUP_SEPARATOR

    for spec in text.split(LINEUP_SEPARATOR):
        try:
            make_bot(spec.strip(), 0)
        except BotSpecError as error:
            return f"{text!r} is not a lineup as --bots writes one: {error}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check ``schemas/targets.schema.json`` against ``targets_schema()``."""
    return generated_schema_command("stargazer_rules.analysis.targets_file", SCHEMA_FILE, targets_schema, "the measures and settings", argv)


if __name__ == "__main__":
    raise SystemExit(main())
