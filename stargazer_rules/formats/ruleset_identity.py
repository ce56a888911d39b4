"""The ruleset a document belongs to: its name and fingerprint, written into states and records.

A state or record is read only under the ruleset it was made with; the fingerprint says which,
the name is for the person reading the refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RecordError
from stargazer_rules.rulesets.loader import short_fingerprint

__all__ = ["check_ruleset", "ruleset_json"]


def ruleset_json(name: str, fingerprint: str) -> dict[str, Any]:
    """The ``ruleset`` member of a document made under the ruleset ``name`` with ``fingerprint``."""
    return {"name": name, "fingerprint": fingerprint}


def check_ruleset(game: Game, data: Mapping[str, Any], what: str) -> None:
    """Refuse a document's ``ruleset`` unless it names the game's ruleset and its fingerprint."""
    made = data["ruleset"]
    loaded = game.ruleset
    if made["fingerprint"] != loaded.fingerprint:
        raise RecordError(
            f"this {what} was made with ruleset {made['name']} "
            f"(fingerprint {short_fingerprint(made['fingerprint'])}), "
            f"but the loaded ruleset is {loaded.name} (fingerprint {short_fingerprint(loaded.fingerprint)})"
        )
    if made["name"] != loaded.name:
        raise RecordError(
            f"this {what} names ruleset {made['name']}, "
            f"but its fingerprint {short_fingerprint(made['fingerprint'])} "
            f"is that of ruleset {loaded.name}"
        )
