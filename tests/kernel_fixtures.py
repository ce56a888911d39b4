"""The kernel's Rust-only fixtures, generated from the bundled rulesets as Python compiles them.

The kernel derives no bound, no action-index size and no observation layout: it receives them
in the compiled ruleset (``stargazer_rules.kernel.compiled``). Its own tests build rulesets
without Python, so the bundled draft 7 and base reach them as Rust source written here, from
``compile_ruleset``, the bounds, action-index sizes and observation fields included (the
fields as a function of their own, ``<name>_observation``, since the layout crosses beside the
kernel's ``RulesSpec``): ``crates/kernel/src/fixtures/compiled.rs``.
The numbers live once, in Python's derivation; tests/test_compiled.py regenerates the file and
compares, and ``python tests/kernel_fixtures.py --write`` rewrites it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import attrs

from stargazer_rules import Game, load_ruleset
from stargazer_rules.contract.knobs import KNOBS
from stargazer_rules.kernel.compiled import CompiledEffect, CompiledRuleset, CompiledTrigger, compile_ruleset
from stargazer_rules.rulesets.model import DRAFT7_END
from stargazer_rules.vocabulary.expressions import SeatsNamed

#: The generated file, and the bundled rulesets it holds (a function of the same name returns each).
FIXTURE = Path(__file__).resolve().parents[1] / "crates" / "kernel" / "src" / "fixtures" / "compiled.rs"
RULESETS = ("draft7", "base")


def _text(value: str) -> str:
    return json.dumps(value) + ".into()"  # a JSON string is a Rust string literal for these ids


def _value(value: object) -> str:
    """One effect parameter as the kernel's ``ParamValue``; the bundled rulesets use one
    expression only, ``gain_vp``'s default ``to: me``."""
    if value is None:
        return "ParamValue::None"
    if value == SeatsNamed("me"):
        return "ParamValue::Set(Set::Me)"
    if isinstance(value, bool) or not isinstance(value, (int, str, tuple)):
        raise ValueError(f"the kernel's fixtures hold integers, texts and effect lists, not {value!r}")
    if isinstance(value, int):
        return f"ParamValue::Int({value})"
    if isinstance(value, str):
        return f"ParamValue::Text({_text(value)})"
    if value and isinstance(value[0], tuple):
        return "ParamValue::Options(vec![" + ", ".join(_effects(option) for option in value) + "])"
    return f"ParamValue::Effects({_effects(value)})"


def _effect(effect: CompiledEffect) -> str:
    text = f"EffectSpec::new({json.dumps(effect.name)}, {json.dumps(effect.when)})"
    for parameter in effect.parameters:
        text += f".with({json.dumps(parameter.name)}, {_value(parameter.value)})"
    return text


def _effects(effects: tuple[CompiledEffect, ...]) -> str:
    return "vec![" + ", ".join(_effect(effect) for effect in effects) + "]"


def _fields(name: str, instance: object) -> str:
    """An attrs instance of plain integers as the Rust struct literal of the same name and fields."""
    values = ", ".join(f"{field}: {_rust_value(value)}" for field, value in attrs.asdict(instance).items())
    return f"{name} {{ {values} }}"


def _rust_value(value: object) -> str:
    """An integer, or a tuple of them as a Rust array."""
    return f"[{', '.join(str(item) for item in value)}]" if isinstance(value, tuple) else str(value)


def _triggers(triggers: tuple[CompiledTrigger, ...]) -> str:
    """A card's triggers (a planet's or a crew's) as the items of a Rust vec of ``TriggerSpec``."""
    return ", ".join(
        f"TriggerSpec {{ event: {_text(trigger.event)}, square: {trigger.square}, body: {_effects(trigger.do)}, "
        f"crew: vec![{', '.join(_text(crew_id) for crew_id in trigger.crew)}] }}"
        for trigger in triggers
    )


def rules_spec(compiled: CompiledRuleset) -> str:
    """The body of a function returning ``compiled`` as the kernel's ``RulesSpec``."""
    lines = [
        "    RulesSpec {",
        f"        name: {_text(compiled.name)},",
        "        colours: vec![" + ", ".join(_text(colour) for colour in compiled.colours) + "],",
        "        planets: vec![",
    ]
    for planet in compiled.planets:
        track = ", ".join(str(value) for value in planet.track)
        triggers = _triggers(planet.triggers)
        counted = ", ".join(_text(colour) for colour in planet.counted_colours)
        lines.append(
            f"            PlanetSpec {{ id: {_text(planet.id)}, colour: {_text(planet.colour)}, track: vec![{track}], "
            f"special_capacity: {planet.special_capacity}, triggers: vec![{triggers}], counted_colours: vec![{counted}], "
            f"majority_factor: {planet.majority_factor}, no_survey_start: {str(planet.no_survey_start).lower()} }},"
        )
    lines.append("        ],")
    lines.append("        crew: vec![")
    for crew in compiled.crew:
        lines.append(
            f"            CrewSpec {{ id: {_text(crew.id)}, survey_count: {crew.survey_count}, always_in_play: {str(crew.always_in_play).lower()}, skill: {_effects(crew.skill)}, triggers: vec![{_triggers(crew.triggers)}] }},"
        )
    lines.append("        ],")
    lines.append("        setups: vec![" + ", ".join(_fields("SetupSpec", setup) for setup in compiled.setups) + "],")
    knobs = ", ".join(f"{knob.name}: {getattr(compiled.knobs, knob.name)}" for knob in KNOBS)
    lines.append(f"        knobs: KnobSpecs {{ {knobs} }},")
    lines.append(f"        max_free_cubes_per_crew: {compiled.max_free_cubes_per_crew},")
    free_cubes = compiled.unpicked_crews.free_cubes
    if type(free_cubes) is not int:
        raise ValueError(f"the kernel's fixtures hold a number of free cubes at a round's end (R11), not {free_cubes!r}")
    replaced = "true" if compiled.unpicked_crews.replaced else "false"
    lines.append(f"        unpicked_crews: UnpickedCrews {{ free_cubes: Amount::Number({free_cubes}), replaced: {replaced} }},")
    lines.append(f"        round_end_effects: {_effects(compiled.round_end_effects)},")
    if [(t.id, t.condition) for t in compiled.end] != [(t.id, t.condition) for t in DRAFT7_END]:
        raise ValueError("the kernel's fixtures hold draft 7's end of the game (R10, End::default()), not another")
    lines.append("        end: End::default(),")
    if compiled.end_scoring:
        raise ValueError("the kernel's fixtures hold no line of end_scoring, as draft 7's")
    lines.append("        end_scoring: Vec::new(),")
    lines.append("        turn_order_vp: vec![" + ", ".join(str(vp) for vp in compiled.turn_order_vp) + "],")
    majority = compiled.majority
    lines.append(
        f"        majority: MajoritySpec {{ ties: {_text(majority.ties)}, row_step: {majority.row_step}, "
        f"rank_percent: vec![{', '.join(str(p) for p in majority.rank_percent)}], accident_vp: {majority.accident_vp}, "
        f"free_cubes_take_a_row: {str(majority.free_cubes_take_a_row).lower()} }},"
    )
    bonus = compiled.bonus
    lines.append(
        f"        bonus: BonusSpec {{ squares: {_text(bonus.squares)}, formula: {_text(bonus.formula)}, set_size: {bonus.set_size}, "
        f"set_vp: {bonus.set_vp}, vp_by_count: vec![{', '.join(str(vp) for vp in bonus.vp_by_count)}] }},"
    )
    lines.append(f"        setup_steps: {_effects(compiled.setup_steps)},")
    lines.append(f"        bounds: {_fields('Bounds', compiled.bounds)},")
    lines.append(f"        action_sizes: {_fields('ActionSizes', compiled.action_sizes)},")
    lines.append(f"        action_layout: {_fields('ActionLayout', compiled.action_layout)},")
    lines.append("    }")
    return "\n".join(lines)


def observation_fields(compiled: CompiledRuleset) -> str:
    """The body of a function returning ``compiled``'s observation fields as the kernel's ``FieldSpec``s."""
    fields = ", ".join(f"({_text(field.name)}, {field.offset}, {field.length})" for field in compiled.observation)
    return f"    vec![{fields}]"


def fixture_source() -> str:
    """The whole generated file."""
    parts = [
        "//! The bundled rulesets as Python compiles them, with the bounds and action-index sizes Python",
        "//! derived: generated by `python tests/kernel_fixtures.py --write`, never edited",
        "//! (tests/test_compiled.py regenerates and compares).",
        "",
        "use crate::expr::{Amount, Set};",
        "use crate::observation::FieldSpec;",
    ]
    compiled_rulesets = {name: compile_ruleset(Game(load_ruleset(name))) for name in RULESETS}
    triggers = any(card.triggers for compiled in compiled_rulesets.values() for card in (*compiled.planets, *compiled.crew))
    parts.append(
        "use crate::rules::{ActionLayout, ActionSizes, BonusSpec, Bounds, CrewSpec, EffectSpec, End, KnobSpecs, MajoritySpec, ParamValue, PlanetSpec, RulesSpec, SetupSpec"
        + (", TriggerSpec" if triggers else "")
        + ", UnpickedCrews};"
    )
    for name, compiled in compiled_rulesets.items():
        parts += ["", f"/// The bundled `{name}`.", f"pub fn {name}() -> RulesSpec {{", rules_spec(compiled), "}"]
        parts += [
            "",
            f"/// The observation fields of the bundled `{name}`, as Python derived them.",
            f"pub fn {name}_observation() -> Vec<FieldSpec> {{",
            observation_fields(compiled),
            "}",
        ]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/kernel_fixtures.py --write")
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(fixture_source(), encoding="utf-8")
    print(f"wrote {FIXTURE}")
