"""A ruleset made from another's data: with some values changed (``tuning.edits``) or with one
card left out (``stargazer explain``), checked as a ruleset folder is.

``ruleset_of_data`` is the one way from edited data back to a ``Ruleset``: the schemas and the
cross-file checks of ``loader.check_documents`` run on it, so a variant the rules refuse is
never played.

>>> from stargazer_rules.rulesets.loader import load_ruleset
>>> base = load_ruleset("draft7")
>>> len(ruleset_without(base, "engineer").crew), len(base.crew)
(11, 12)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from stargazer_rules.errors import RulesetError
from stargazer_rules.rulesets.checks import RulesetDocuments
from stargazer_rules.rulesets.loader import build_ruleset, check_documents, ruleset_to_data
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import RULESET_FILES
from stargazer_rules.rulesets.yamlsource import YamlDocument

__all__ = ["card_kind", "ruleset_of_data", "ruleset_without"]


def ruleset_of_data(ruleset: Ruleset, data: Mapping[str, Any]) -> Ruleset:
    """The ruleset of ``data`` (``loader.ruleset_to_data``'s layout, edited), its files shown
    under ``ruleset``'s folder; raises ``RulesetError`` with every problem when it is invalid."""
    documents = RulesetDocuments(
        *(YamlDocument(_shown(ruleset, file), data[file.removesuffix(".yaml")], True) for file in RULESET_FILES)
    )
    problems = check_documents(documents)
    if problems:
        raise RulesetError(problems)
    return build_ruleset(documents, source=ruleset.source)


def card_kind(ruleset: Ruleset, card: str) -> str:
    """``"crew"`` or ``"planets"``: the file whose list holds the card ``card``; ``KeyError`` for
    a card the ruleset does not have."""
    if any(crew.id == card for crew in ruleset.crew):
        return "crew"
    if any(planet.id == card for planet in ruleset.planets):
        return "planets"
    raise KeyError(f"{ruleset.name} has no crew or Planet card {card!r}")


def ruleset_without(ruleset: Ruleset, card: str) -> Ruleset:
    """``ruleset`` without the crew or Planet card ``card`` (name and everything else kept), as
    the checks accept it: ``RulesetError`` when the rest is not a valid ruleset (a skill that
    names the card, a colour left without Planets). Whether it can still be dealt for a player
    count is the deal's to say (``SetupError``)."""
    kind = card_kind(ruleset, card)
    data = ruleset_to_data(ruleset)
    items = data[kind][kind]
    data[kind][kind] = [item for item in items if item["id"] != card]
    return ruleset_of_data(ruleset, data)


def _shown(ruleset: Ruleset, file: str) -> str:
    return os.path.join(ruleset.source, file) if ruleset.source else file
