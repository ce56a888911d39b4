"""Paths to one value of a ruleset: ``crew.<id>.<key>...``, ``planets.<id>.<key>[index]``, ``rules.<key>...``.

A path names a number or a true/false of the ruleset's documents as ``loader.ruleset_to_data``
writes them (defaults filled): crew and planet cards by id, since a card's place in its file is
not part of what it is, then keys (``.survey_count``) and list indices (``[2]``) down to the
value. ``locate`` finds where a path points, in the file and in the document, or says in one
sentence why it names nothing; ``tune.yaml`` (``space``) and the edits of a proposal
(``edits``) both read paths through it.

>>> from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
>>> locate(ruleset_to_data(load_ruleset("draft7")), "planets.lava-1.track[2]")
Place(path='planets.lava-1.track[2]', file='planets.yaml', doc_path=('planets', 0, 'track', 2), value=0)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

import attrs

from stargazer_rules.rulesets.validation import close_match
from stargazer_rules.rulesets.yamlsource import DocPath

#: A value a parameter may take: a number or true/false, as the ruleset's files hold them.
Value = int | float | bool

#: The grammar of a path, for the schema of tune.yaml and for ``locate``.
PATH_PATTERN = r"^(?:(?:crew|planets)\.[a-z0-9][a-z0-9_-]*|rules)(?:\.[a-z_][a-z0-9_]*|\[[0-9]+\])+$"
_PATH = re.compile(PATH_PATTERN)
_HEAD = re.compile(r"^(?:(crew|planets)\.([a-z0-9][a-z0-9_-]*)|rules)")
_SEGMENT = re.compile(r"\.([a-z_][a-z0-9_]*)|\[([0-9]+)\]")

#: The head of a path -> the file it points into and that file's list of cards.
_CARD_LISTS = {"crew": ("crew.yaml", "crew"), "planets": ("planets.yaml", "planets")}
_CARD_WORDS = {"crew": "crew card", "planets": "planet card"}

#: What to write, said when a path does not follow the grammar.
PATH_FORMS = "crew.<id>.<key>, planets.<id>.<key>[index] or rules.<key>.<key>, e.g. crew.engineer.survey_count"


@attrs.frozen
class Place:
    """Where ``path`` points: ``file`` (``crew.yaml``, ...), ``doc_path`` inside that file's
    document (cards by their index in the file) and the ruleset's ``value`` there."""

    path: str
    file: str
    doc_path: DocPath
    value: Value


@attrs.frozen
class Miss:
    """Why a path names no value: ``message`` says what it found and what to write instead;
    ``suggestion`` is the closest card id or key to a misspelt one."""

    message: str
    suggestion: str | None = None


def locate(data: Mapping[str, Any], path: str) -> Place | Miss:
    """The value ``path`` names in ``data`` (``ruleset_to_data``), or why it names none."""
    if not isinstance(path, str) or not _PATH.match(path):
        return Miss(f"{path!r} is not a path to a value; write {PATH_FORMS}")
    head = _HEAD.match(path)
    assert head is not None  # the whole path matched
    kind, card = head.group(1), head.group(2)
    if kind is None:
        file, node, doc_path, shown = "rules.yaml", data["rules"], (), "rules"
    else:
        file, key = _CARD_LISTS[kind]
        cards = data[key][key]
        ids = [entry["id"] for entry in cards]
        if card not in ids:
            name = data["rules"]["name"]
            return Miss(f"no {_CARD_WORDS[kind]} {card!r} in ruleset {name}", close_match(card, ids))
        index = ids.index(card)
        node, doc_path, shown = cards[index], (key, index), f"{kind}.{card}"
    for segment in _SEGMENT.finditer(path, head.end()):
        key, number = segment.group(1), segment.group(2)
        if isinstance(node, Mapping):
            if key is None:
                return Miss(f"{shown} is a mapping; write .<key> ({', '.join(node)}), not [{number}]")
            if key not in node:
                return Miss(f"{shown} has no key {key!r}; keys: {', '.join(node)}", close_match(key, list(node)))
            node, doc_path = node[key], (*doc_path, key)
        elif isinstance(node, list):
            if number is None:
                return Miss(f"{shown} is a list; write [index] ({_indices(node)}), not .{key}")
            index = int(number)
            if index >= len(node):
                return Miss(f"{shown} has {_entries(node)}; [{index}] names none ({_indices(node)})")
            node, doc_path = node[index], (*doc_path, index)
        else:
            return Miss(f"{shown} is already a value ({_shown(node)}); end the path there")
        shown += segment.group(0)
    if isinstance(node, Mapping):
        keys = ", ".join(f"{shown}.{key}" for key in node)
        return Miss(f"{shown} is a mapping, not a value; name one of its keys: {keys}")
    if isinstance(node, list):
        return Miss(f"{shown} is a list, not a value; name one entry: {_indices(node, shown)}")
    if not isinstance(node, (int, float)):  # bool is an int
        return Miss(f"{shown} is {_shown(node)}, not a number or true/false; only those are tuned")
    if file == "rules.yaml" and doc_path[0] == "player_counts" and doc_path[-1] == "players":
        # The setup's key (diff matches setups by it), and full_planets_to_end's default (R10).
        return Miss(f"{shown} is the player count the setup is for, not a value to tune; tune its planets, crew or full_planets_to_end")
    return Place(path, file, doc_path, node)


def with_values(data: Mapping[str, Any], places: Mapping[Place, Value]) -> dict[str, Any]:
    """A deep copy of ``data`` with each place set to its new value."""
    edited = copy.deepcopy(dict(data))
    for place, value in places.items():
        node = edited[place.file.removesuffix(".yaml")]
        for part in place.doc_path[:-1]:
            node = node[part]
        node[place.doc_path[-1]] = value
    return edited


def value_text(value: Value) -> str:
    """A value as YAML 1.2 writes it (and as a designer reads it): ``true``, ``3``, ``0.5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value != value:  # NaN: never accepted as a choice
        return ".nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    return repr(value) if isinstance(value, float) else str(value)


def _entries(items: list[Any]) -> str:
    return "no entries" if not items else f"{len(items)} entr{'y' if len(items) == 1 else 'ies'}"


def _indices(items: list[Any], shown: str = "") -> str:
    if not items:
        return "it has no entries"
    if len(items) == 1:
        return f"{shown}[0]"
    return f"{shown}[0] to {shown}[{len(items) - 1}]"


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"the text {value!r}"
    if value is None:
        return "nothing"
    return value_text(value) if isinstance(value, (int, float)) else repr(value)
