"""The skill vocabulary: one class per effect, named exactly as in the crew YAML.

A crew's skill is a list of effects. The loader builds each from its YAML mapping through a
registry (``EFFECT_TYPES``, name -> class); the engine runs them and never looks at crew ids.
Each effect type declares, once and on its class, everything the other layers read of it: its
parameters (``params``), timings, the parameter values that need one timing
(``timing_requirements``, refused elsewhere by ``rulesets.checks``) and the sentence of the
target decision it asks for (``target_message``, read by ``text.messages``). The loader's
checks and the crew schema's effect section (``rulesets.schemas.effect_schema``) are both
generated from these declarations.

Timing (``when``) says at which point of the turn an effect resolves:

- ``on_choose``: right after the worker is placed and the motivation bonus taken (R5);
- ``survey``: changes this turn's survey (count, walk limits); resolved with ``on_choose``;
- ``after_survey``: after the survey's cubes are placed;
- ``round_end``: at the end of the round, after free cubes are added (R11, R12), and only if
  the game goes on.

An effect that needs a decision returns its options from ``choices``; the engine turns them
into a pending decision for the chooser. Options that cannot be applied are never offered, and
an effect with no option left is skipped with an event (R9).

New effect types for ideas the vocabulary lacks: subclass ``Effect``, declare ``name``,
``timings``, ``params`` and the two methods, and pass ``extend_effect_types(EFFECT_TYPES, New)``
to ``load_ruleset``. See docs/skills.md.

The package keeps each effect's declaration and behaviour in its class, in one module per
family: ``base`` (``Effect``, ``Param``, timings, flags, ``extend_effect_types``),
``scoring_effects``, ``survey_effects``, ``cube_effects``, ``crew_effects`` (crews and the start
player), ``control`` (``choose_one``, ``if``, ``choose``, ``for_each``), ``facts`` (the bound
facts of an effect list) and ``registry`` (``EFFECT_TYPES``). Every public name is re-exported
here, so ``from stargazer_rules.vocabulary.effects import X`` is the one import.

The package is the bottom of the library with ``actions``, ``events`` and ``table``: it imports
nothing of the rulesets or the engine, which both import it.
"""

from stargazer_rules.vocabulary.effects.base import (
    AFTER_SURVEY,
    COUNTER,
    DIRECTION,
    EXPRESSION_KINDS,
    FREE_CUBE_OWNER,
    NO_SKIP_LIMIT,
    ON_CHOOSE,
    OWNER,
    REPEAT,
    REQUIRED,
    ROUND_END,
    SKIP,
    START,
    STEP_RULES,
    SURVEY,
    TIMINGS,
    Effect,
    Param,
    TimingRequirement,
    extend_effect_types,
)
from stargazer_rules.vocabulary.effects.facts import (
    derivation,
    list_landings,
    list_most_vp,
)
from stargazer_rules.vocabulary.effects.scoring_effects import (
    ME,
    GainVP,
    LoseVP,
    TakeVP,
)
from stargazer_rules.vocabulary.effects.survey_effects import (
    SURVEY_DIRECTIONS,
    AllowRepeatPlanet,
    ChangeSurveyCount,
    ChooseDirection,
    MaySkipPlanets,
    SetSurveyCount,
    SetSurveyDirection,
    SurveyStart,
    most_skips,
    skip_limit,
)
from stargazer_rules.vocabulary.effects.cube_effects import (
    RETURN_TO,
    SPECIAL_TARGETS,
    SQUARE_KINDS,
    AddFreeCubes,
    CollectFreeCubes,
    DiscardCubes,
    MoveCube,
    PlaceCube,
    PlaceCubeOnCrew,
    PlaceFreeCubes,
    PlaceOnCrew,
    PlaceOnSpecial,
    ReturnCube,
    TakeFreeCubes,
)
from stargazer_rules.vocabulary.effects.crew_effects import (
    PROTECTION_UNTIL_WORDS,
    CloseCrew,
    NameStartPlayer,
    ProtectCubes,
    SetStartPlayer,
    UseSkill,
)
from stargazer_rules.vocabulary.effects.control import (
    CHOICE_ACTIONS,
    SET_KEYS,
    Choose,
    ChooseOne,
    ForEach,
    If,
)
from stargazer_rules.vocabulary.effects.registry import (
    EFFECT_TYPES,
    SURVEY_RULE_FLAGS,
)

__all__ = [
    "AFTER_SURVEY",
    "CHOICE_ACTIONS",
    "COUNTER",
    "DIRECTION",
    "EFFECT_TYPES",
    "EXPRESSION_KINDS",
    "FREE_CUBE_OWNER",
    "ME",
    "NO_SKIP_LIMIT",
    "ON_CHOOSE",
    "OWNER",
    "PROTECTION_UNTIL_WORDS",
    "REPEAT",
    "REQUIRED",
    "RETURN_TO",
    "ROUND_END",
    "SET_KEYS",
    "SKIP",
    "SPECIAL_TARGETS",
    "SQUARE_KINDS",
    "START",
    "STEP_RULES",
    "SURVEY",
    "SURVEY_DIRECTIONS",
    "SURVEY_RULE_FLAGS",
    "TIMINGS",
    "AddFreeCubes",
    "AllowRepeatPlanet",
    "ChangeSurveyCount",
    "Choose",
    "ChooseDirection",
    "ChooseOne",
    "CloseCrew",
    "CollectFreeCubes",
    "DiscardCubes",
    "Effect",
    "ForEach",
    "GainVP",
    "If",
    "LoseVP",
    "MaySkipPlanets",
    "MoveCube",
    "NameStartPlayer",
    "Param",
    "PlaceCube",
    "PlaceCubeOnCrew",
    "PlaceFreeCubes",
    "PlaceOnCrew",
    "PlaceOnSpecial",
    "ProtectCubes",
    "ReturnCube",
    "SetStartPlayer",
    "SetSurveyCount",
    "SetSurveyDirection",
    "SurveyStart",
    "TakeFreeCubes",
    "TakeVP",
    "TimingRequirement",
    "UseSkill",
    "derivation",
    "extend_effect_types",
    "list_landings",
    "list_most_vp",
    "most_skips",
    "skip_limit",
]
