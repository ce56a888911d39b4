"""What differs between two rulesets, card by card and knob by knob.

``diff_rulesets(a, b)`` compares the plain data of two rulesets (``loader.ruleset_to_data``,
defaults filled, so a value written out and the same value left to its default are equal) and
returns one ``Change`` per difference: a card or colour added or removed, a field of a card
changed (old -> new), a knob of rules.yaml changed, a player count's setup added, removed or
changed. Cards and colours are matched by id, setups by player count. Two rulesets with the
same fingerprint have no change; ``stargazer diff A B`` prints ``format_changes``, and the
comparison of two runs puts the same list on top (docs/simulation.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.rulesets.model import Ruleset

__all__ = ["Change", "changed_subjects", "diff_data", "diff_rulesets", "format_change", "format_changes"]

#: The kinds of thing a change is about, in the order they are listed.
KINDS = ("ruleset", "knob", "setup", "colour", "planet", "crew")
#: Fields of rules.yaml that name the ruleset rather than set a rule.
_IDENTITY = ("name", "title")


@attrs.frozen
class Change:
    """One difference between ruleset A and ruleset B.

    ``kind`` is one of ``KINDS``; ``subject`` the card or colour id, the knob's name, the
    player count of a setup, or ``name``/``title``; ``action`` is ``added``, ``removed`` or
    ``changed``; ``field`` the changed field of a card or setup (None for a whole card added or
    removed, and for a knob); ``old`` and ``new`` the plain values (None on the side that has
    none); ``label`` the English name of the card, when it has one.
    """

    kind: str
    subject: str
    action: str
    field: str | None = None
    old: Any = None
    new: Any = None
    label: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**attrs.asdict(self), "text": format_change(self)}


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[Change]:
    """Every difference between ruleset ``a`` and ruleset ``b`` (empty when they are equal)."""
    if a.fingerprint and a.fingerprint == b.fingerprint:
        return []
    return diff_data(ruleset_to_data(a), ruleset_to_data(b))


def diff_data(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Change]:
    """``diff_rulesets`` on the plain data of ``ruleset_to_data``."""
    rules_a, rules_b = a["rules"], b["rules"]
    changes: list[Change] = []
    for key in _IDENTITY:
        if rules_a.get(key) != rules_b.get(key):
            changes.append(Change("ruleset", key, "changed", None, rules_a.get(key), rules_b.get(key)))
    for key in _knob_names(rules_a, rules_b):
        changes += _knob(key, rules_a.get(key), rules_b.get(key))
    changes += _keyed(
        "setup",
        {str(entry["players"]): entry for entry in rules_a["player_counts"]},
        {str(entry["players"]): entry for entry in rules_b["player_counts"]},
    )
    changes += _keyed("colour", _by_id(rules_a["colours"]), _by_id(rules_b["colours"]))
    changes += _keyed("planet", _by_id(a["planets"]["planets"]), _by_id(b["planets"]["planets"]))
    changes += _keyed("crew", _by_id(a["crew"]["crew"]), _by_id(b["crew"]["crew"]))
    return changes


def changed_subjects(changes: Sequence[Change]) -> dict[str, set[str]]:
    """The ids touched by the changes, by kind (``{"planet": {"lava-1"}, "crew": {...}, ...}``)."""
    touched: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for change in changes:
        touched[change.kind].add(change.subject)
    return touched


def _knob_names(rules_a: Mapping[str, Any], rules_b: Mapping[str, Any]) -> list[str]:
    skip = {*_IDENTITY, "colours", "player_counts"}
    return [key for key in dict.fromkeys([*rules_a, *rules_b]) if key not in skip]


def _knob(key: str, old: Any, new: Any) -> list[Change]:
    """A knob, or each entry of a group of knobs (``motivation.player_cube_vp``)."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        found = []
        for part in dict.fromkeys([*old, *new]):
            found += _knob(f"{key}.{part}", old.get(part), new.get(part))
        return found
    if old == new:
        return []
    return [Change("knob", key, "changed", None, old, new)]


def _by_id(entries: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {entry["id"]: entry for entry in entries}


def _label(entry: Mapping[str, Any]) -> str | None:
    shown = entry.get("name")
    return shown.get("en") if isinstance(shown, Mapping) else None


def _keyed(kind: str, old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]) -> list[Change]:
    changes = []
    for key in dict.fromkeys([*old, *new]):
        before, after = old.get(key), new.get(key)
        if before is None:
            changes.append(Change(kind, key, "added", None, None, dict(after), _label(after)))
        elif after is None:
            changes.append(Change(kind, key, "removed", None, dict(before), None, _label(before)))
        else:
            for field in dict.fromkeys([*before, *after]):
                if field in ("id", "players"):
                    continue
                if before.get(field) != after.get(field):
                    changes.append(
                        Change(kind, key, "changed", field, before.get(field), after.get(field), _label(after))
                    )
    return changes


# -- words ----------------------------------------------------------------------------------


def format_changes(changes: Sequence[Change]) -> list[str]:
    """One line per change, ruleset identity first; ``["no difference in the rules"]`` for none."""
    if not changes:
        return ["no difference in the rules"]
    order = {kind: index for index, kind in enumerate(KINDS)}
    return [format_change(change) for change in sorted(changes, key=lambda c: order[c.kind])]


def format_change(change: Change) -> str:
    """``planet lava-1 (Lava 1): track [1, 3, 0, 5, 7, 0] -> [1, 3, 4, 5, 7, 0]``."""
    if change.kind == "ruleset":
        return f"{change.subject}: {_value(change.old)} -> {_value(change.new)}"
    if change.kind == "knob":
        return f"knob {change.subject}: {_value(change.old)} -> {_value(change.new)}"
    subject = f"setup for {change.subject} players" if change.kind == "setup" else f"{change.kind} {change.subject}"
    if change.label and change.label != change.subject:
        subject += f" ({change.label})"
    if change.action == "added":
        return f"{subject}: added ({_card(change.new)})"
    if change.action == "removed":
        return f"{subject}: removed (was {_card(change.old)})"
    return f"{subject}: {change.field} {_value(change.old, change.field)} -> {_value(change.new, change.field)}"


def _card(data: Mapping[str, Any]) -> str:
    parts = []
    for key, value in data.items():
        if key in ("id", "name", "players"):
            continue
        parts.append(f"{key} {_value(value, key)}")
    return ", ".join(parts)


def _value(value: Any, field: str | None = None) -> str:
    if value is None:
        return "none"
    if field == "skill":
        return "; ".join(_effect(effect) for effect in value) if value else "no skill"
    if isinstance(value, Mapping):
        if set(value) == {"ja", "en"}:
            return f"{value['en']!r} / {value['ja']!r}"
        return "{" + ", ".join(f"{key}: {_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def _effect(effect: Mapping[str, Any]) -> str:
    """``place_on_crew(count=1, when=after_survey)``; choose_one's options as nested lists."""
    params = []
    for key, value in effect.items():
        if key == "effect":
            continue
        if key == "options":
            value = " | ".join("; ".join(_effect(inner) for inner in option) for option in value)
            params.append(f"options=[{value}]")
        else:
            params.append(f"{key}={_value(value)}")
    return f"{effect['effect']}({', '.join(params)})"
