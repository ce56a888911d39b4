"""The library's JSON Schemas, and the wording of what a document breaks of them.

One registry holds the schemas under ``schemas/`` by their URNs (``<kind>.schema.json``), so
that every validator, the server's request validators included, resolves the same
``$ref``s. A schema error is worded here once, as ``"$.path: message"`` in plain words
(``problem_lines``), and a document's problems are raised together as one ``RecordError``
(``raise_problems``): every reader of a JSON form speaks with this voice.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from stargazer_rules.errors import RecordError
from stargazer_rules.rulesets import validation
from stargazer_rules.rulesets.resources import schemas_dir

__all__ = [
    "MAX_CHECKED",
    "FILE_SCHEMA_KINDS",
    "SCHEMA_KINDS",
    "StrictValidator",
    "bound_message",
    "problem_lines",
    "raise_problems",
    "schema",
    "schema_problems",
    "schema_registry",
    "short_message",
    "validate",
]

#: The JSON forms with a schema: ``schemas/<kind>.schema.json``.
SCHEMA_KINDS = ("action", "event", "record", "score_sheet", "setup", "state")
#: The files a simulation writes, with their schemas beside the forms' (they refer to them):
#: a games.jsonl line, summary.json, ladder.json, explain.json, variants.json and calibration.json. Not forms a
#: front end exchanges.
FILE_SCHEMA_KINDS = ("game_line", "summary", "ladder", "explain", "variants", "calibration")

_SCHEMA_URN = "urn:stargazer-rules:schemas:{}.schema.json"
#: A document's problems listed in its error; past them they are counted.
_MAX_REPORTED = 20
#: Schema checks stop after this many errors: enough to report, never all of a huge document.
MAX_CHECKED = 50


@functools.cache
def _registry() -> referencing.Registry:
    resources = []
    for kind in (*SCHEMA_KINDS, *FILE_SCHEMA_KINDS):
        path = schemas_dir() / f"{kind}.schema.json"
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append(
            (_SCHEMA_URN.format(kind), referencing.jsonschema.DRAFT202012.create_resource(contents))
        )
    return referencing.Registry().with_resources(resources)


def schema_registry(state_schema: dict[str, Any] | None = None) -> referencing.Registry:
    """The library's schemas by their URNs, for validators of documents that refer to them;
    with ``state_schema`` (``state_schema_for``) in place of the state's. The narrowed schema
    keeps the library's $id, so it must replace the library's here too: its own
    "#/$defs/..." references have to find the narrowed definitions."""
    if state_schema is None:
        return _registry()
    resource = referencing.jsonschema.DRAFT202012.create_resource(state_schema)
    return _registry().with_resource(_SCHEMA_URN.format("state"), resource)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one JSON form or file (``kind`` is one of ``SCHEMA_KINDS`` or
    ``FILE_SCHEMA_KINDS``)."""
    if kind not in SCHEMA_KINDS and kind not in FILE_SCHEMA_KINDS:
        kinds = ", ".join((*SCHEMA_KINDS, *FILE_SCHEMA_KINDS))
        raise ValueError(f"no schema for {kind!r}; the kinds are {kinds}")
    contents = _registry()[_SCHEMA_URN.format(kind)].contents
    assert isinstance(contents, dict)
    return contents



#: JSON Schema's integer without 1.0 and true (``rulesets.validation.StrictValidator``): the
#: server checks request bodies with it too.
StrictValidator = validation.StrictValidator


@functools.cache
def _validator(kind: str) -> Any:
    return StrictValidator(schema(kind), registry=_registry())


def schema_problems(kind: str, data: Any, at: str = "$", limit: int | None = None) -> list[str]:
    """Every way ``data`` breaks the schema of ``kind``, as ``"$.path: message"``, sorted by path.

    ``at`` is the JSON path of ``data`` in a larger document, put in front of each path.
    ``limit`` stops the check after that many errors (a document with 30,000 bad items costs
    no more than one with 30); ``validate`` stops after ``MAX_CHECKED``.
    """
    return problem_lines(itertools.islice(_validator(kind).iter_errors(data), limit), at)


def problem_lines(errors: Iterable[jsonschema.ValidationError], at: str = "$") -> list[str]:
    """Schema errors as ``"$.path: message"`` lines, sorted by path (list indexes as numbers),
    each once, in plain words (unexpected properties named, bounds stated, long values cut).

    ``at`` is the JSON path of the checked data in a larger document, put in front of each path.
    """
    ordered = sorted(errors, key=lambda error: (_sort_key(error.absolute_path), error.message))
    return list(dict.fromkeys(f"{at}{error.json_path[1:]}: {_plain_message(error)}" for error in ordered))


def validate(kind: str, data: Any, what: str | None = None, at: str = "$") -> None:
    """Raise ``RecordError`` listing the schema problems of ``data`` as a ``kind`` document
    (the first ``MAX_CHECKED`` found)."""
    raise_problems(schema_problems(kind, data, at, MAX_CHECKED), what or f"{kind.replace('_', ' ')} document")


def _sort_key(path: Iterable[Any]) -> list[tuple[int, Any]]:
    return [(0, part) if isinstance(part, int) else (1, str(part)) for part in path]


def _plain_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = sorted(key for key in error.instance if key not in allowed)
        expected = ", ".join(sorted(allowed))
        noun = "property" if len(extra) == 1 else "properties"
        return short_message(f"unexpected {noun} {', '.join(map(repr, extra))} (expected: {expected})")
    return short_message(bound_message(error) or error.message)


#: The longest schema message kept; past it a message is cut (a 30,000-item list is not quoted).
_MAX_MESSAGE = 300


def short_message(message: str) -> str:
    """``message``, cut to ``_MAX_MESSAGE`` characters with an ellipsis."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"


def bound_message(error: jsonschema.ValidationError) -> str | None:
    """A short message for a value past a schema bound, naming the bound; None for other errors."""
    bound, value = error.validator_value, error.instance
    if error.validator == "maxItems":
        return f"has {len(value)} items, more than the {bound} allowed (maxItems)"
    if error.validator == "maxLength":
        return f"has {len(value)} characters, more than the {bound} allowed (maxLength)"
    if error.validator == "maximum":
        shown = str(value) if len(str(value)) <= 30 else f"a {len(str(value))}-digit number"
        return f"{shown} is over the maximum of {bound}"
    if error.validator == "minimum" and len(str(value)) > 30:
        return f"a {len(str(value))}-digit negative number is under the minimum of {bound}"
    return None


def raise_problems(problems: Sequence[str], what: str) -> None:
    """Raise ``RecordError`` listing ``problems`` (the first ``_MAX_REPORTED``) under one line
    naming the ``what`` they are in; nothing when there are none."""
    if not problems:
        return
    count = len(problems)
    lines = [f"{count} problem{'s' if count != 1 else ''} in the {what}:"]
    lines += [f"  {problem}" for problem in problems[:_MAX_REPORTED]]
    if count > _MAX_REPORTED:
        lines.append(f"  ... and {count - _MAX_REPORTED} more")
    if count >= MAX_CHECKED:
        lines.append(f"  (the check stops after {MAX_CHECKED} problems)")
    raise RecordError("\n".join(lines))
