"""Stargazer's rules as validated data plus a small interpreter.

The public surface: load a ruleset, make a ``Game`` of it, and play immutable states through
``legal_actions`` and ``apply``. Everything else lives in one subpackage per layer, from
``vocabulary``, ``rulesets`` and ``engine`` up to the ``frontends`` (docs/architecture.md).
"""

from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.engine.scoring import ScoreSheet
from stargazer_rules.errors import (
    IllegalActionError,
    Problem,
    RecordError,
    RulesetError,
    SetupError,
)

# Used as ``from stargazer_rules import jsonio, records`` (docs/api.md, docs/skills.md): the
# package keeps the two modules of the formats layer at hand.
from stargazer_rules.formats import jsonio, records  # noqa: F401
from stargazer_rules.formats.records import GameRecord
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import (
    EFFECT_TYPES,
    Effect,
    Param,
    TimingRequirement,
    extend_effect_types,
)
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

__all__ = [
    "Action",
    "EFFECT_TYPES",
    "Effect",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "Param",
    "Problem",
    "RecordError",
    "Ruleset",
    "RulesetError",
    "ScoreSheet",
    "Setup",
    "SetupError",
    "State",
    "TimingRequirement",
    "extend_effect_types",
    "load_ruleset",
]
