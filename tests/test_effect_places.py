"""Every built-in effect type has all its places (docs/skills.md, "Where an effect type lives").

A type in the registry (``EFFECT_TYPES``, its class in ``vocabulary/effects/``) also needs its
row in the kernel's table of effect types (``crates/kernel/src/rules/effects.rs`` ``EFFECT_TYPES``, read
through the binding ``Kernel.effect_names``), its short name and sentence in both languages in
``text/messages.yaml`` (and the action sentence its ``target_message`` names), its section in
docs/skills.md and its name in the generated crew schema. ``missing_places`` names what is
missing, so a new type that lacks one fails here with the file to write.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
import yaml

from stargazer_rules import Game, _kernel, load_ruleset
from stargazer_rules.kernel.compiled import compile_ruleset
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, Effect

REPO = Path(__file__).resolve().parent.parent
MESSAGES = REPO / "stargazer_rules" / "text" / "messages.yaml"
SKILLS_DOC = REPO / "docs" / "skills.md"
CREW_SCHEMA = REPO / "schemas" / "crew.schema.json"


def _has_both_languages(entry: object) -> bool:
    """A text in ja and en, or cases that each have both (``place_on_special``'s cover every value)."""
    if not isinstance(entry, dict):
        return False
    cases = entry.get("cases", [])
    return ({"ja", "en"} <= set(entry) or bool(cases)) and all({"ja", "en"} <= set(case) for case in cases)


def missing_places(name: str, target_message: str = "") -> list[str]:
    """The places effect type ``name`` lacks, each as the file and what to write there."""
    messages = yaml.safe_load(MESSAGES.read_text(encoding="utf-8"))
    headings = re.findall(r"^## `([a-z_]+)`$", SKILLS_DOC.read_text(encoding="utf-8"), re.MULTILINE)
    schema = json.loads(CREW_SCHEMA.read_text(encoding="utf-8"))
    missing = []
    if name not in _kernel.Kernel.effect_names():
        missing.append(f"crates/kernel/src/rules/effects.rs: a row for {name!r} in EFFECT_TYPES (its Op and parser)")
    if not _has_both_languages(messages["effect_names"].get(name)):
        missing.append(f"stargazer_rules/text/messages.yaml: effect_names.{name} in ja and en")
    if not _has_both_languages(messages["effects"].get(name)):
        missing.append(f"stargazer_rules/text/messages.yaml: effects.{name} in ja and en")
    if target_message and not _has_both_languages(messages["actions"].get(target_message)):
        missing.append(f"stargazer_rules/text/messages.yaml: actions.{target_message} in ja and en")
    if name not in headings:
        missing.append(f"docs/skills.md: a section headed ## `{name}`")
    if name not in schema["$defs"]["effect"]["properties"]["effect"]["enum"]:
        missing.append("schemas/crew.schema.json: regenerate it (python -m stargazer_rules.rulesets.schemas --write)")
    return missing


@pytest.mark.slow
def test_every_built_in_effect_type_has_every_place():
    """The kernel's table, the catalogue's sentences, the doc's section and the schema: none missing."""
    lacking = {name: missing_places(name, cls.target_message) for name, cls in EFFECT_TYPES.items()}
    assert {name: places for name, places in lacking.items() if places} == {}


def test_the_kernel_knows_no_effect_type_the_registry_lacks():
    """The kernel's table of effect types is the registry's, in its alphabetical order."""
    assert list(_kernel.Kernel.effect_names()) == list(EFFECT_TYPES)


def test_a_type_with_no_place_but_its_class_is_told_every_file_to_write():
    """A class registered in Python alone lacks all six places, each named with what to write."""

    class TakeCubesBack(Effect):
        name = "take_cubes_back"
        target_message = "target_crew_take_back"

    assert missing_places(TakeCubesBack.name, TakeCubesBack.target_message) == [
        "crates/kernel/src/rules/effects.rs: a row for 'take_cubes_back' in EFFECT_TYPES (its Op and parser)",
        "stargazer_rules/text/messages.yaml: effect_names.take_cubes_back in ja and en",
        "stargazer_rules/text/messages.yaml: effects.take_cubes_back in ja and en",
        "stargazer_rules/text/messages.yaml: actions.target_crew_take_back in ja and en",
        "docs/skills.md: a section headed ## `take_cubes_back`",
        "schemas/crew.schema.json: regenerate it (python -m stargazer_rules.rulesets.schemas --write)",
    ]


def test_the_kernel_takes_every_parameter_and_its_default_from_python():
    """The compiled ruleset carries each declared parameter by name, defaults included; a
    parameter left out is refused by the kernel, never filled in with a default of its own."""
    compiled = compile_ruleset(Game(load_ruleset("draft7")))
    effects = [effect for card in compiled.crew for effect in card.skill]
    assert all([p.name for p in effect.parameters] == [p.name for p in EFFECT_TYPES[effect.name].params] for effect in effects)
    index, card = next((i, card) for i, card in enumerate(compiled.crew) if any(p.name == "count" for p in card.skill[0].parameters))
    counted = card.skill[0]
    without = attrs.evolve(counted, parameters=tuple(p for p in counted.parameters if p.name != "count"))
    crew = list(compiled.crew)
    crew[index] = attrs.evolve(card, skill=(without, *card.skill[1:]))
    with pytest.raises(ValueError, match=rf'^effect "{counted.name}": parameter "count" is missing$'):
        _kernel.Kernel(attrs.evolve(compiled, crew=tuple(crew)))
