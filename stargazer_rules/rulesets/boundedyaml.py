"""Bounds on a YAML document, checked before it is built: a file a designer wrote passes them
with room to spare, and a file built to exhaust the reader fails them at once, located.

PyYAML reads what it is given: a "billion laughs" of nested aliases expands to more values than
memory holds, a document nested thousands deep overflows Python's stack, and a NUL character
stops the reader with a traceback. Each check here returns a ``Problem`` naming the file, the
line and column, and the limit, or None:

- ``text_problem``: the file's size (``MAX_BYTES``), characters YAML does not allow (NUL and
  other control characters), nesting deeper than ``MAX_DEPTH`` and more than ``MAX_VALUES``
  values, found by the parser's events without building anything;
- ``expansion_problem``: a composed document that holds more than ``MAX_VALUES`` values once
  its aliases are expanded, counted without expanding them.
"""

from __future__ import annotations

import re
import unicodedata

import yaml

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.boundedfiles import over_limit

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_VALUES", "expansion_problem", "text_problem"]

#: The largest YAML file read: the bundled rulesets' largest file is about 3 KB.
MAX_BYTES = 1024 * 1024
#: The deepest nesting of mappings and lists: a skill with a choice in it is 8 deep in crew.yaml.
MAX_DEPTH = 64
#: The most values (mappings, lists, scalars) a document may hold, its aliases expanded: the
#: bundled files hold about 300 each.
MAX_VALUES = 50_000

#: The characters PyYAML's reader refuses (yaml.reader.Reader.NON_PRINTABLE).
_NOT_ALLOWED = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def text_problem(text: str, file: str) -> Problem | None:
    """The first bound the YAML ``text`` breaks (size, a character, depth), or None."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return Problem(file, 0, 0, "", f"the file is {over_limit(size, MAX_BYTES, 'YAML file')}")
    found = _NOT_ALLOWED.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        char = found.group()
        name = unicodedata.name(char, "") or {"\0": "NUL"}.get(char, "a control character")
        return Problem(
            file,
            line,
            column,
            "",
            f"the character U+{ord(char):04X} ({name}) is not allowed in YAML; "
            "delete it (it is often left by a copy from a binary file or a word processor)",
        )
    return _depth_problem(text, file)


#: The event parser: libyaml's when PyYAML has it (the pre-check then costs little next to the
#: pure-Python parse that locates everything), else PyYAML's own.
_EventLoader = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader


def _depth_problem(text: str, file: str) -> Problem | None:
    """Nesting past ``MAX_DEPTH``, or more than ``MAX_VALUES`` values, from the parser's events.

    libyaml stops at its own depth limit (1000) with an error, and refuses some text PyYAML
    reads; then PyYAML's parser (iterative too) walks the events instead.
    """
    try:
        return _event_problem(_EventLoader(text), file)
    except yaml.YAMLError:
        if _EventLoader is yaml.SafeLoader:
            return None  # a syntax error: the parse that follows reports it, located
    try:
        return _event_problem(yaml.SafeLoader(text), file)
    except yaml.YAMLError:
        return None


def _event_problem(loader: yaml.SafeLoader, file: str) -> Problem | None:
    depth = values = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                values += 1
                if values > MAX_VALUES:
                    return _at(file, event, f"the file holds more than {MAX_VALUES:,} values by here (the limit is {MAX_VALUES:,})")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return _at(file, event, f"nested more than {MAX_DEPTH} levels deep here (the limit is {MAX_DEPTH})")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    finally:
        loader.dispose()
    return None


def _at(file: str, event: yaml.Event, message: str) -> Problem:
    mark = event.start_mark
    return Problem(file, mark.line + 1, mark.column + 1, "", message)


def expansion_problem(node: yaml.Node, file: str) -> Problem | None:
    """A problem at the smallest value whose aliases expand past ``MAX_VALUES``, or None.

    Each distinct node is counted once with the size of what it expands to, so a document of
    a few lines whose aliases would expand to billions costs a few lines' work.
    """
    sizes: dict[int, int] = {}
    over: list[yaml.Node] = []
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    on_branch: set[int] = set()
    while stack:
        current, done = stack.pop()
        key = id(current)
        if done:
            on_branch.discard(key)
            total = 1 + sum(sizes.get(id(child), 0) for child in _children(current))
            sizes[key] = min(total, MAX_VALUES + 1)
            if total > MAX_VALUES and not over:
                over.append(current)
            continue
        if key in sizes or key in on_branch:
            continue  # counted already, or a recursive alias (the parse refuses those)
        on_branch.add(key)
        stack.append((current, True))
        stack.extend((child, False) for child in _children(current))
    if not over:
        return None
    mark = over[0].start_mark
    return Problem(
        file,
        mark.line + 1,
        mark.column + 1,
        "",
        f"this value holds more than {MAX_VALUES:,} values, its aliases (*name) expanded "
        f"(the limit is {MAX_VALUES:,} values in a file)",
    )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
