"""A fast check of a document's shape against a JSON Schema: types, enums and bounds.

A state signed by the server proves where it came from, not that it is well formed: a client
holding the secret, or a server of another version, can sign ``"start_player": 1.5``. The full
schema check of a state costs tens of times what reading it does, so a signed state gets this
one instead: the schema compiled once into nested checks of each keyword the state schema uses
(``type``, ``enum``, the bounds, ``pattern``, ``uniqueItems``, the object's properties and
``$ref`` into its ``$defs``). A keyword it does not know is refused when the schema is
compiled, so the check never passes silently what the schema would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ShapeCheck", "compile_shape"]

#: Keywords that describe and never constrain.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "examples", "default"})

#: A check appends ``"$.path: reason"`` lines to its list.
_Check = Callable[[Any, str, list[str]], None]

_TYPES: dict[str, Callable[[Any], bool]] = {
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "array": lambda v: type(v) is list,
    "object": lambda v: isinstance(v, Mapping),
}


class ShapeCheck:
    """A schema compiled once; ``problems(document)`` lists where a document breaks it."""

    def __init__(self, check: _Check) -> None:
        self._check = check

    def problems(self, document: Any, limit: int = 20) -> list[str]:
        """Every way ``document`` breaks the schema, as ``"$.path: reason"``; the first ``limit``."""
        found: list[str] = []
        self._check(document, "$", found)
        return found[:limit]


def compile_shape(schema: Mapping[str, Any], replace: Mapping[str, Mapping[str, Any]] | None = None) -> ShapeCheck:
    """The check of ``schema`` (its ``$defs`` resolved); ``replace`` gives other schemas for some
    top-level properties (e.g. ``{"legal": {"type": "array"}}`` for a list read elsewhere).
    ValueError for a keyword this check does not implement."""
    defs = schema.get("$defs", {})
    compiled: dict[str, _Check] = {}

    def ref(name: str) -> _Check:
        def check(value: Any, at: str, out: list[str]) -> None:
            compiled[name](value, at, out)

        return check

    def build(node: Mapping[str, Any]) -> _Check:
        unknown = set(node) - _ANNOTATIONS - {
            "type", "enum", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength",
            "pattern", "uniqueItems", "items", "properties", "required", "additionalProperties",
            "$ref", "anyOf", "$defs",
        }
        if unknown:
            raise ValueError(f"the shape check does not implement {sorted(unknown)}")
        checks: list[_Check] = []
        if "$ref" in node:
            target = node["$ref"]
            if not target.startswith("#/$defs/"):
                raise ValueError(f"the shape check resolves only local $defs, not {target}")
            checks.append(ref(target.removeprefix("#/$defs/")))
        if "anyOf" in node:
            options = [build(option) for option in node["anyOf"]]

            def any_of(value: Any, at: str, out: list[str]) -> None:
                for option in options:
                    trial: list[str] = []
                    option(value, at, trial)
                    if not trial:
                        return
                out.append(f"{at}: {_short(value)} is none of the allowed forms")

            checks.append(any_of)
        types = node.get("type")
        if types is not None:
            names = [types] if isinstance(types, str) else list(types)
            tests = [_TYPES[name] for name in names]
            wanted = " or ".join(names)
        kinds = _Kinds(node)
        enum = node.get("enum")

        def check(value: Any, at: str, out: list[str]) -> None:
            if types is not None and not any(test(value) for test in tests):
                out.append(f"{at}: {_short(value)} is not of type {wanted}")
                return
            if enum is not None and not any(type(value) is type(member) and value == member for member in enum):
                out.append(f"{at}: {_short(value)} is not one of {enum}")
                return
            kinds.check(value, at, out)
            for extra in checks:
                extra(value, at, out)

        return check

    class _Kinds:
        """The keywords that apply to one kind of value: numbers, strings, arrays, objects."""

        def __init__(self, node: Mapping[str, Any]) -> None:
            self.low, self.high = node.get("minimum"), node.get("maximum")
            self.min_items, self.max_items = node.get("minItems"), node.get("maxItems")
            self.min_length, self.max_length = node.get("minLength"), node.get("maxLength")
            self.pattern = re.compile(node["pattern"]) if "pattern" in node else None
            self.unique = node.get("uniqueItems", False)
            self.items = build(node["items"]) if "items" in node else None
            self.properties = {key: build(replace_of(node, key, sub)) for key, sub in node.get("properties", {}).items()}
            self.required = tuple(node.get("required", ()))
            self.closed = node.get("additionalProperties", True) is False

        def check(self, value: Any, at: str, out: list[str]) -> None:
            if type(value) in (int, float):
                if self.low is not None and value < self.low or self.high is not None and value > self.high:
                    out.append(f"{at}: {value} is outside {self.low}..{self.high}")
            elif type(value) is str:
                if self.min_length is not None and len(value) < self.min_length or self.max_length is not None and len(value) > self.max_length:
                    out.append(f"{at}: a text of {len(value)} characters is outside {self.min_length or 0}..{self.max_length}")
                elif self.pattern is not None and not self.pattern.search(value):
                    out.append(f"{at}: {_short(value)} does not match {self.pattern.pattern}")
            elif type(value) is list:
                if self.min_items is not None and len(value) < self.min_items or self.max_items is not None and len(value) > self.max_items:
                    out.append(f"{at}: {len(value)} items are outside {self.min_items or 0}..{self.max_items}")
                    return
                before = len(out)
                if self.items is not None:
                    for k, item in enumerate(value):
                        self.items(item, f"{at}[{k}]", out)
                if self.unique and len(out) == before and len({repr(item) for item in value}) != len(value):
                    out.append(f"{at}: has repeated items")
            elif isinstance(value, Mapping):
                for key in self.required:
                    if key not in value:
                        out.append(f"{at}: {key!r} is missing")
                for key, item in value.items():
                    sub = self.properties.get(key)
                    if sub is not None:
                        sub(item, f"{at}.{key}", out)
                    elif self.closed:
                        out.append(f"{at}: {_short(key)} is not a field of this form")

    top = schema

    def replace_of(node: Mapping[str, Any], key: str, sub: Mapping[str, Any]) -> Mapping[str, Any]:
        if node is top and replace and key in replace:
            return replace[key]
        return sub

    for name, node in defs.items():
        compiled[name] = build(node)
    return ShapeCheck(build(schema))


def _short(value: Any) -> str:
    """A value as the message quotes it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
