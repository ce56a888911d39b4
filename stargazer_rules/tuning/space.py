"""tune.yaml: the values ``stargazer tune`` may change, beside a draft's files, read and checked like them.

Each entry of ``space`` names one value of the ruleset by its path (``tuning.paths``) and the
values it may take: a list (``[2, 3]``) or an inclusive integer range (``{from: 0, to: 7}``);
``max_edits`` bounds how many of them one proposal changes (default: all). Reading gathers
every problem with its file:line and raises them together (``SpaceError``), as the ruleset
loader does: the schema (``space_schema()``, written to ``schemas/tune.schema.json``), then what
a schema cannot say: a path that names nothing (with a did-you-mean on the card id or key), a
value of another type than the ruleset's, a value that is not written in the ruleset's files
(a default, which a proposal could not edit in place), and each listed value and both ends of
each range tried on the ruleset (``edits.apply_edits``): each one the ruleset's schemas or
checks refuse is a problem at its own line.

    python -m stargazer_rules.tuning.space --write | --check
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.errors import Problem, RulesetError, SpaceError
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import BESIDE_FILES, TUNE_FILE, shown_path
from stargazer_rules.rulesets.schemas import generated_schema_command
from stargazer_rules.rulesets.validation import describe_value, schema_problems
from stargazer_rules.rulesets.yamlsource import YamlDocument, load_yaml
from stargazer_rules.tuning.edits import apply_edits, source_documents, unwritten
from stargazer_rules.tuning.paths import PATH_PATTERN, Miss, Place, Value, locate, value_text

__all__ = ["TUNE_FILE", "Parameter", "Space", "read_space", "space_beside", "space_for", "space_schema"]

SCHEMA_FILE = BESIDE_FILES[TUNE_FILE]
#: The most parameters a space may hold, and the most choices one parameter may have (a range
#: expanded): each listed value is tried on the ruleset when the file is read.
MAX_PARAMETERS = 32
MAX_CHOICES = 100
#: A listed value or a range's end: any count of a ruleset is far inside this.
MAX_VALUE = 1_000_000
#: A path's length.
MAX_PATH = 200


@attrs.frozen
class Parameter:
    """One value the search may change: its ``path``, the ``choices`` it may take (a range
    expanded, in order) and ``base``, its value in the base ruleset."""

    path: str
    choices: tuple[Value, ...]
    base: Value


@attrs.frozen
class Space:
    """A tuning space: ``parameters`` by path, in the file's order; ``max_edits``, the most
    parameters one proposal changes; ``source``, the file it was read from."""

    parameters: dict[str, Parameter]
    max_edits: int
    source: str


def space_schema() -> dict[str, Any]:
    """The JSON Schema of tune.yaml (the path grammar is ``tuning.paths``'s)."""
    integer = {"type": "integer", "minimum": -MAX_VALUE, "maximum": MAX_VALUE}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:stargazer-rules:schemas:{SCHEMA_FILE}",
        "title": "Stargazer tuning space",
        "description": "The values stargazer tune may change in a ruleset (tune.yaml beside its files; "
        "docs/ruleset-format.md, \"tune.yaml\"): each a path to one value and the values it may take.",
        "type": "object",
        "additionalProperties": False,
        "required": ["space"],
        "properties": {
            "space": {
                "description": "Path -> choices. A path is crew.<id>.<key>..., planets.<id>.<key>[index] or "
                "rules.<key>.<key>..., into the ruleset's files with cards named by id.",
                "type": "object",
                "minProperties": 1,
                "maxProperties": MAX_PARAMETERS,
                "propertyNames": {"pattern": PATH_PATTERN, "maxLength": MAX_PATH},
                "additionalProperties": {"$ref": "#/$defs/choices"},
            },
            "max_edits": {
                "description": "The most parameters one proposal changes (default: every parameter).",
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_PARAMETERS,
            },
        },
        "$defs": {
            "choices": {
                "description": "The values a parameter may take: a list ([2, 3]), or an inclusive integer range ({from: 0, to: 7}).",
                "type": ["array", "object"],
                "minItems": 1,
                "maxItems": MAX_CHOICES,
                "items": {"type": ["number", "boolean"], "minimum": -MAX_VALUE, "maximum": MAX_VALUE},
                "additionalProperties": False,
                "required": ["from", "to"],
                "properties": {
                    "from": {**integer, "description": "The range's first value."},
                    "to": {**integer, "description": "The range's last value (included)."},
                },
            }
        },
    }


def _reading_schema() -> dict[str, Any]:
    """The schema without its path pattern: ``locate`` says what is wrong with a path in words,
    at the path's own line (jsonschema would place it at ``space:``)."""
    schema = space_schema()
    del schema["properties"]["space"]["propertyNames"]["pattern"]
    return schema


def space_beside(ruleset: Ruleset) -> Path | None:
    """The tune.yaml beside a ruleset's files, when it has one."""
    if not ruleset.source:
        return None
    path = Path(ruleset.source) / TUNE_FILE
    return path if os.path.lexists(path) else None  # a FIFO or a dangling link is read, and refused, not skipped


def space_for(ruleset: Ruleset, given: str | os.PathLike[str] | None = None) -> Space:
    """The space a search of ``ruleset`` explores: ``given`` (``--space FILE``), else the file
    beside the ruleset. Raises ``SpaceError`` for a file with problems, or when there is none."""
    if given is not None:
        return read_space(given, ruleset)
    beside = space_beside(ruleset)
    if beside is None:
        where = os.path.join(ruleset.source, TUNE_FILE) if ruleset.source else TUNE_FILE
        message = f"no {TUNE_FILE} beside the ruleset; write one (docs/ruleset-format.md, \"tune.yaml\") or give --space FILE"
        raise SpaceError([Problem(where, 0, 0, "", message)])
    return read_space(beside, ruleset)


def read_space(path: str | os.PathLike[str], ruleset: Ruleset) -> Space:
    """Read and check one tuning space against ``ruleset``; raise ``SpaceError`` listing every problem."""
    shown = shown_path(path)
    document = load_yaml(Path(path), shown)
    problems = list(document.problems)
    if document.loaded:
        problems += schema_problems(document, _reading_schema())
    if problems:
        raise _space_error(problems)
    parameters, problems = _parameters(document, ruleset)
    count = len(document.data["space"])
    max_edits = document.data.get("max_edits", count)
    if max_edits > count:
        problems.append(document.problem(
            ("max_edits",),
            f"max_edits is {max_edits}, but the space has {count} parameter{'s' if count != 1 else ''}; write 1 to {count}",
        ))
    if problems:
        raise _space_error(problems)
    return Space(parameters=parameters, max_edits=max_edits, source=shown)


def _space_error(problems: list[Problem]) -> SpaceError:
    """The problems in the order of the file."""
    return SpaceError(sorted(problems, key=lambda p: (p.line, p.column)))


def _parameters(document: YamlDocument, ruleset: Ruleset) -> tuple[dict[str, Parameter], list[Problem]]:
    data = ruleset_to_data(ruleset)
    documents = source_documents(ruleset)
    parameters: dict[str, Parameter] = {}
    problems: list[Problem] = []
    named: dict[tuple[str, tuple[Any, ...]], str] = {}
    for path, given in document.data["space"].items():
        at = ("space", path)
        found = locate(data, path)
        if isinstance(found, Miss):
            problems.append(document.problem(at, found.message, found.suggestion, key=True))
            continue
        earlier = named.setdefault((found.file, tuple(found.doc_path)), path)
        if earlier != path:
            problems.append(document.problem(
                at, f"names the same value as {earlier}: a value is one parameter; list its values once", key=True))
            continue
        reason = unwritten(documents, found) if documents is not None else None
        if reason is not None:
            problems.append(document.problem(at, reason, key=True))
            continue
        if isinstance(given, list):
            found_problems = _list_problems(document, ruleset, found, given)
            choices = tuple(given)
        else:
            found_problems = _range_problems(document, ruleset, found, given)
            choices = tuple(range(given["from"], given["to"] + 1))
        if not found_problems and not any(_same(found.value, choice) for choice in choices):
            found_problems.append(document.problem(
                at, f"{path} is {value_text(found.value)} in {ruleset.name}, and its values leave that out: a search "
                f"starts from the ruleset as it is, so list {value_text(found.value)} too"))
        problems += found_problems
        if not found_problems:
            parameters[path] = Parameter(path=path, choices=choices, base=found.value)
    return parameters, problems


def _list_problems(document: YamlDocument, ruleset: Ruleset, place: Place, values: list[Value]) -> list[Problem]:
    problems = []
    seen: list[Value] = []
    for index, value in enumerate(values):
        at = ("space", place.path, index)
        wrong = _type_problem(place, ruleset, value)
        if wrong is not None:
            problems.append(document.problem(at, wrong))
        elif any(_same(value, other) for other in seen):
            problems.append(document.problem(at, f"{value_text(value)} is listed twice; list each value once"))
        else:
            refused = _refusal(ruleset, place, value)
            if refused is not None:
                problems.append(document.problem(at, refused))
        seen.append(value)
    return problems


def _range_problems(document: YamlDocument, ruleset: Ruleset, place: Place, bounds: dict[str, int]) -> list[Problem]:
    at = ("space", place.path)
    if isinstance(place.value, bool):
        message = f"a range {{from, to}} is for an integer, and {place.path} is true or false; list the values: [true, false]"
        return [document.problem(at, message)]
    low, high = bounds["from"], bounds["to"]
    if low > high:
        return [document.problem((*at, "from"), f"from {low} is above to {high}; write the smaller first")]
    if high - low + 1 > MAX_CHOICES:
        return [document.problem(at, f"from {low} to {high} is {high - low + 1} values; a parameter takes at most {MAX_CHOICES}")]
    problems = []
    for end in ("from", "to"):
        wrong = _type_problem(place, ruleset, bounds[end])
        refused = wrong if wrong is not None else _refusal(ruleset, place, bounds[end])
        if refused is not None:
            problems.append(document.problem((*at, end), refused))
    return problems


def _type_problem(place: Place, ruleset: Ruleset, value: Value) -> str | None:
    """Why ``value`` cannot stand where ``place`` is (another type than the ruleset's), or None."""
    base = place.value
    if isinstance(base, bool):
        fits, wanted = isinstance(value, bool), "true or false"
    elif isinstance(base, int):
        fits, wanted = isinstance(value, int) and not isinstance(value, bool), "an integer"
    else:
        fits = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        wanted = "a finite number"
    if fits:
        return None
    hint = f"; write {int(value)}" if wanted == "an integer" and isinstance(value, float) and value.is_integer() else ""
    return f"expected {wanted} ({place.path} is {value_text(base)} in {ruleset.name}), found {describe_value(value)}{hint}"


def _refusal(ruleset: Ruleset, place: Place, value: Value) -> str | None:
    """What the ruleset's schemas and checks say against ``value`` at ``place``, or None."""
    try:
        apply_edits(ruleset, {place.path: value})
    except RulesetError as error:
        reasons = "; ".join(f"{Path(p.file).name}: {p.path}: {p.message}" if p.path else p.message for p in error.problems)
        return f"{ruleset.name} refuses {place.path} = {value_text(value)}: {reasons}"
    return None


def _same(a: Value, b: Value) -> bool:
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check ``schemas/tune.schema.json`` against ``space_schema()``."""
    return generated_schema_command("stargazer_rules.tuning.space", SCHEMA_FILE, space_schema, "the path grammar", argv)


if __name__ == "__main__":
    raise SystemExit(main())
