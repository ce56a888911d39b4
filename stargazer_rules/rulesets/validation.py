"""Validate a YAML document against its JSON Schema and say what is wrong in a designer's words.

jsonschema's own messages are written for programmers ("'three' is not of type 'integer'");
each error is translated here into what was expected and what was found, located at the line
of the offending value (or, for an unexpected key, of that key), with a "did you mean" for a
misspelt name. Every error is reported (``iter_errors``), not only the first.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import jsonschema
import yaml

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.boundedfiles import excerpt
from stargazer_rules.rulesets.printable import NAME_PATTERN, forbidden_character
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument

_TYPE_NAMES = {
    "array": "a list",
    "boolean": "true or false",
    "integer": "an integer",
    "null": "nothing",
    "number": "a number",
    "object": "a mapping",
    "string": "a string",
}

_PATTERN_HINTS = {
    "^[a-z0-9][a-z0-9_-]*$": "an id of lowercase letters, digits, '-' and '_'",
}


def _is_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


#: JSON Schema counts 3.0 (and, in Python, true) as an integer; a count, a VP value or an index
#: in our documents must be written 3. The ruleset files, the JSON documents (``formats``) and
#: the server's request bodies are all checked with this validator.
StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def schema_problems(
    document: YamlDocument, schema: Mapping[str, Any], left_to: Iterable[DocPath] = ()
) -> list[Problem]:
    """Every way ``document`` breaks ``schema``, as located problems, without duplicates.

    Errors at or under a path of ``left_to`` are left out: another check words them better
    (the rules language's expressions, ``check_sites._expressions``).
    """
    validator = StrictValidator(schema)
    skipped = [tuple(path) for path in left_to]
    problems: list[Problem] = []
    for error in validator.iter_errors(document.data):
        at = tuple(error.absolute_path)
        if any(at[: len(path)] == path for path in skipped):
            continue
        problems.extend(_translate(document, error))
    return list(dict.fromkeys(problems))


def close_match(word: Any, candidates: Iterable[str]) -> str | None:
    """The candidate closest to a misspelt ``word``, if any is close enough."""
    if not isinstance(word, str):
        return None
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def describe_value(value: Any) -> str:
    """A found value in words: ``'three' (a string)``, ``a list``, ``nothing (null)``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, int):
        return f"{value} (an integer)"
    if isinstance(value, float):
        return f"{value} (a number)"
    if isinstance(value, str):
        return f"{excerpt(value)!r} (a string)"  # a file read as one string is not quoted whole
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"{value} (a {type(value).__name__})"


def _short(value: Any) -> Any:
    """A found value as a message may quote it: a long string cut to an excerpt."""
    return excerpt(value) if isinstance(value, str) else value


def expected_values(values: Iterable[Any]) -> str:
    """``'a', 'b' or 'c'`` style: what a designer may write instead."""
    items = [repr(value) for value in values]
    return items[0] if len(items) == 1 else f"one of {', '.join(items)}"


def _translate(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    translate = _TRANSLATORS.get(str(error.validator), _generic)
    return translate(document, error)


def _path(error: jsonschema.ValidationError) -> DocPath:
    return tuple(error.absolute_path)


def _enum(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    path, value, allowed = _path(error), error.instance, list(error.validator_value)
    suggestion = close_match(value, [str(item) for item in allowed])
    if _is_effect_key(path, "effect"):
        message = f"unknown effect {_short(value)!r}"
        if suggestion is None:
            message += f"; expected one of {', '.join(allowed)}"
        return [document.problem(path, message, suggestion)]
    if _is_effect_key(path, "when"):
        effect = _value_at(document.data, (*path[:-1], "effect"))
        message = (
            f"effect {effect!r} cannot resolve at {value!r}; expected {expected_values(allowed)}"
        )
        return [document.problem(path, message, suggestion)]
    message = f"unknown value {value!r}; expected {expected_values(allowed)}"
    return [document.problem(path, message, suggestion)]


def _additional_properties(
    document: YamlDocument, error: jsonschema.ValidationError
) -> list[Problem]:
    """One problem per unexpected key, at that key's line, suggesting an allowed name."""
    allowed = list(error.schema.get("properties", {}))
    problems = []
    for key in error.instance:
        if key in allowed:
            continue
        path = (*_path(error), key)
        message = f"unexpected key {_short(key)!r}; allowed keys: {', '.join(allowed)}"
        problems.append(document.problem(path, message, close_match(key, allowed), key=True))
    return problems


def _required(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    path = _path(error)
    return [
        document.problem(path, f"missing required key {key!r}")
        for key in error.validator_value
        if key not in error.instance
    ]


def _type(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    path, value = _path(error), error.instance
    if not path and value is None:
        return [document.problem(path, "the file is empty; expected a mapping")]
    expected = error.validator_value
    names = [expected] if isinstance(expected, str) else list(expected)
    wanted = " or ".join(_TYPE_NAMES.get(name, name) for name in names)
    hint = _integer_hint(names, value) or _boolean_hint(names, value)
    return [document.problem(path, f"expected {wanted}, found {describe_value(value)}{hint}")]


def _integer_hint(expected: list[str], value: Any) -> str:
    """What to write for an integer given as a float (``3.0``) or in a form YAML 1.2 reads as
    text (``0x1``, ``1_000``): the same number in decimal digits, when there is one."""
    if "integer" not in expected:
        return ""
    if isinstance(value, float) and value.is_integer():
        return f"; write {int(value)}"
    if isinstance(value, str) and len(value) <= 40:
        number = _yaml11_integer(value)
        if number is not None:
            return f": YAML 1.1 reads it as the integer {number}, YAML 1.2 (how this file is read) as text; write {number}"
    return ""


#: The words YAML 1.1 read as booleans and YAML 1.2 (how ruleset files are read) as text.
_YAML11_BOOLEANS = {word: True for word in ("yes", "on", "y")} | {word: False for word in ("no", "off", "n")}


def _boolean_hint(expected: list[str], value: Any) -> str:
    """What to write for a boolean given as a YAML 1.1 word (``yes``, ``off``)."""
    if "boolean" not in expected or not isinstance(value, str):
        return ""
    reading = _YAML11_BOOLEANS.get(value.lower())
    if reading is None:
        return ""
    word = "true" if reading else "false"
    return f": YAML 1.1 reads it as {word}, YAML 1.2 (how this file is read) as text; write {word}"


def _yaml11_integer(text: str) -> int | None:
    """The integer YAML 1.1 reads ``text`` as (hexadecimal, octal, binary, with underscores or
    base 60), or None."""
    for tag, pattern in yaml.SafeLoader.yaml_implicit_resolvers.get(text[:1], []):
        if tag == "tag:yaml.org,2002:int" and pattern.match(text):
            return yaml.SafeLoader("").construct_yaml_int(yaml.ScalarNode(tag, text))
    return None


def _minimum(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    message = f"expected at least {error.validator_value}, found {error.instance}"
    return [document.problem(_path(error), message)]


def _min_items(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    wanted = error.validator_value
    found = len(error.instance)
    message = (
        f"expected at least {wanted} item{'s' if wanted != 1 else ''}, "
        f"found {found if found else 'none'}"
    )
    return [document.problem(_path(error), message)]


def _min_length(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    return [document.problem(_path(error), "expected a non-empty string, found an empty one")]


def _pattern(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    if error.validator_value == NAME_PATTERN and isinstance(error.instance, str):
        found = forbidden_character(error.instance)
        if found is not None:
            place, what, fix = found
            message = (
                f"a name cannot hold {what}: found {describe_value(error.instance)}, character {place}; "
                f"{fix} (names are printed to terminals, cards and pages)"
            )
            return [document.problem(_path(error), message)]
    wanted = _PATTERN_HINTS.get(error.validator_value, f"text matching {error.validator_value}")
    message = f"expected {wanted}, found {describe_value(error.instance)}"
    return [document.problem(_path(error), message)]


def _maximum(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    found = str(error.instance)
    shown = found if len(found) <= 30 else f"a {len(found)}-digit number"
    message = f"expected at most {error.validator_value} (the schema's maximum), found {shown}"
    return [document.problem(_path(error), message)]


def _max_items(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    message = (
        f"expected at most {error.validator_value} items (the schema's maxItems), "
        f"found {len(error.instance):,}"
    )
    return [document.problem(_path(error), message)]


def _max_length(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    message = (
        f"expected at most {error.validator_value} characters (the schema's maxLength), "
        f"found {len(error.instance):,}"
    )
    return [document.problem(_path(error), message)]


def _generic(document: YamlDocument, error: jsonschema.ValidationError) -> list[Problem]:
    return [document.problem(_path(error), error.message)]


_Translator = Callable[[YamlDocument, jsonschema.ValidationError], list[Problem]]

_TRANSLATORS: Mapping[str, _Translator] = {
    "additionalProperties": _additional_properties,
    "enum": _enum,
    "maxItems": _max_items,
    "maxLength": _max_length,
    "maximum": _maximum,
    "minItems": _min_items,
    "minLength": _min_length,
    "minimum": _minimum,
    "pattern": _pattern,
    "required": _required,
    "type": _type,
}


def _is_effect_key(path: DocPath, key: str) -> bool:
    """Whether ``path`` ends in ``key`` of an effect mapping: only effects have keys named
    ``effect`` and ``when`` in the ruleset schemas."""
    return bool(path) and path[-1] == key


def _value_at(data: Any, path: DocPath) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
