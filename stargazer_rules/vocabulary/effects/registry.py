"""The built-in vocabulary, in one list: the registry ``EFFECT_TYPES`` (name -> class,
alphabetised) built from it, and the survey rules by name (``SURVEY_RULE_FLAGS``), read from
the survey-rule types' flags."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from stargazer_rules.vocabulary.effects.base import COUNTER, Effect, extend_effect_types
from stargazer_rules.vocabulary.effects.control import Choose, ChooseOne, ForEach, If
from stargazer_rules.vocabulary.effects.crew_effects import (
    CloseCrew,
    NameStartPlayer,
    ProtectCubes,
    SetStartPlayer,
    UseSkill,
)
from stargazer_rules.vocabulary.effects.cube_effects import (
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
from stargazer_rules.vocabulary.effects.scoring_effects import GainVP, LoseVP, TakeVP
from stargazer_rules.vocabulary.effects.survey_effects import (
    AllowRepeatPlanet,
    ChangeSurveyCount,
    ChooseDirection,
    MaySkipPlanets,
    SetSurveyCount,
    SetSurveyDirection,
    SurveyStart,
    _SurveyRule,
)


_BUILT_IN: tuple[type[Effect], ...] = (
    AddFreeCubes,
    AllowRepeatPlanet,
    ChangeSurveyCount,
    ChooseDirection,
    ChooseOne,
    GainVP,
    MaySkipPlanets,
    NameStartPlayer,
    PlaceFreeCubes,
    PlaceOnCrew,
    PlaceOnSpecial,
    # the rules language's actions and control
    Choose,
    CloseCrew,
    CollectFreeCubes,
    ForEach,
    If,
    LoseVP,
    MoveCube,
    PlaceCube,
    PlaceCubeOnCrew,
    ProtectCubes,
    ReturnCube,
    SetStartPlayer,
    SetSurveyCount,
    TakeFreeCubes,
    DiscardCubes,
    TakeVP,
    # this turn's survey: its direction and its start
    SetSurveyDirection,
    SurveyStart,
    # another crew's skill
    UseSkill,
)


#: The built-in vocabulary, alphabetised: effect name -> effect class.
EFFECT_TYPES: Mapping[str, type[Effect]] = extend_effect_types({}, *_BUILT_IN)

#: The survey rules by name: name -> its flag (R8). A state's ``survey_rules`` holds their
#: flags; its JSON names them so. A lifted limit and the survey's start are named by the effect
#: that sets them; a forced counter-clockwise walk (``set_survey_direction``) by its direction.
SURVEY_RULE_FLAGS: Mapping[str, int] = MappingProxyType(
    dict(
        sorted(
            {
                **{name: cls.flag for name, cls in EFFECT_TYPES.items() if issubclass(cls, _SurveyRule) and cls.flag},
                "counter_clockwise": COUNTER,
            }.items(),
            key=lambda item: item[1],
        )
    )
)
