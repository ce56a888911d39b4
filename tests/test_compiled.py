"""Python derives, Rust receives: the compiled ruleset (``kernel.compiled``) is the one form a
ruleset crosses into the kernel in, read by field name, and the kernel keeps the bounds and
action-index sizes it carries instead of deriving its own.

The kernel gives back what it received (``Kernel.bounds``, ``Kernel.action_sizes``), held here
to ``Game.bounds`` and ``Game.action_sizes`` for the bundled rulesets and generated programs of
the rules language; a compiled ruleset with a field missing or of the wrong type is refused
with the field's path; the Rust-only fixtures are this module's compile of the bundled rulesets.
"""

from __future__ import annotations

import types

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from kernel_fixtures import FIXTURE, fixture_source
from strategies import generated_game, language_rulesets

from stargazer_rules import Game, _kernel, load_ruleset
from stargazer_rules.contract.enums import ACTION_KINDS
from stargazer_rules.fast import FastGame
from stargazer_rules.kernel import native
from stargazer_rules.kernel.compiled import CompiledRuleset, compile_ruleset


def assert_the_kernel_keeps_what_python_derived(game: Game) -> None:
    kernel = native.kernel_for(game)
    assert kernel is not None, native.fallback_reason(game)
    assert kernel.bounds() == attrs.asdict(game.bounds)
    assert kernel.action_sizes() == attrs.asdict(game.action_sizes)
    # The kernel lays out its action index from the sizes received: the blocks are Python's.
    fast = FastGame(game)
    assert fast.core.blocks() == list(fast.index.blocks)


@pytest.mark.parametrize("name", ["draft7", "base", "ideas", "corpus"])
def test_the_kernel_keeps_the_bounds_and_action_sizes_of_each_bundled_ruleset(name: str) -> None:
    assert_the_kernel_keeps_what_python_derived(Game(load_ruleset(name)))


@pytest.mark.slow
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(documents=language_rulesets())
def test_the_kernel_keeps_the_bounds_and_action_sizes_of_generated_programs(documents) -> None:
    assert_the_kernel_keeps_what_python_derived(generated_game(documents))


def draft7() -> CompiledRuleset:
    return compile_ruleset(Game(load_ruleset("draft7")))


def test_the_kernel_derives_no_bound_of_its_own() -> None:
    """Numbers other than Python's, within what the kernel's types hold, come back as sent."""
    compiled = draft7()
    bounds = attrs.evolve(compiled.bounds, most_vp=4321, most_turn_decisions=99, most_pending=40)
    sizes = attrs.evolve(compiled.action_sizes, options=5, seat_targets=4)
    kernel = _kernel.Kernel(attrs.evolve(compiled, bounds=bounds, action_sizes=sizes))
    assert kernel.bounds() == attrs.asdict(bounds)
    assert kernel.action_sizes() == attrs.asdict(sizes)


def test_the_kernel_lays_out_the_action_index_as_python_sends_it() -> None:
    """The blocks and the survey's strides are Python's (``Game.action_layout``): a layout whose
    blocks do not tile the index is refused, and the fast API's ids follow the layout sent."""
    compiled = draft7()
    layout = compiled.action_layout
    assert layout.offsets[0] == 0 and layout.size == layout.offsets[-1] + layout.sizes[-1]
    gap = attrs.evolve(layout, offsets=(0, *[offset + 1 for offset in layout.offsets[1:]]))
    with pytest.raises(ValueError, match=r"^action layout ActionLayout \{.*\}: its blocks do not tile the index$"):
        _kernel.Kernel(attrs.evolve(compiled, action_layout=gap))
    core = FastGame(Game(load_ruleset("draft7"))).core
    assert core.blocks() == [(kind, offset, size) for kind, offset, size in zip(ACTION_KINDS.names, layout.offsets, layout.sizes, strict=True)]
    assert core.action_id(("survey", 2, 3, -1)) == layout.offsets[1] + 1 + layout.direction_stride + 2 * layout.start_stride + 2
    assert core.action_of(layout.offsets[1] + 1 + layout.direction_stride + 2 * layout.start_stride + 2) == ("survey", 2, 3, -1)


def test_numbers_past_the_kernels_types_are_refused_saying_which() -> None:
    compiled = draft7()
    with pytest.raises(ValueError, match=r"^a seat may score 1073741825 VP in play, beyond the kernel's limit of 1073741824$"):
        _kernel.Kernel(attrs.evolve(compiled, bounds=attrs.evolve(compiled.bounds, most_vp=(1 << 30) + 1)))
    small = attrs.evolve(compiled.bounds, most_players=3)
    with pytest.raises(ValueError, match=r"^bounds: the setup of 4 players does not fit the largest table received \(3 players, 7 Planets, 6 crew\)$"):
        _kernel.Kernel(attrs.evolve(compiled, bounds=small))
    with pytest.raises(ValueError, match=r"^action sizes ActionSizes \{.*directions: 3.*\} are beyond the kernel's limits"):
        _kernel.Kernel(attrs.evolve(compiled, action_sizes=attrs.evolve(compiled.action_sizes, directions=3)))


def test_a_field_of_the_wrong_type_is_refused_by_its_path() -> None:
    compiled = draft7()
    cases = [
        (attrs.evolve(compiled, knobs=attrs.evolve(compiled.knobs, max_rounds="30")), r"knobs\.max_rounds: .* \(found a str\)"),
        (attrs.evolve(compiled, bounds=attrs.evolve(compiled.bounds, most_vp=None)), r"bounds\.most_vp: .* \(found a NoneType\)"),
        (attrs.evolve(compiled, action_sizes=attrs.evolve(compiled.action_sizes, options=-1)), r"action_sizes\.options: .* \(found a int\)"),
        (attrs.evolve(compiled, planets=(attrs.evolve(compiled.planets[0], track="123"), *compiled.planets[1:])), r"planets\[0\]\.track: .* \(found a str\)"),
    ]
    card = compiled.crew[3]  # the quartermaster: gain_vp 2, place_on_crew 1
    effect = card.skill[0]
    broken = attrs.evolve(effect, parameters=(attrs.evolve(effect.parameters[0], value=2.5),))
    crew = (*compiled.crew[:3], attrs.evolve(card, skill=(broken, *card.skill[1:])), *compiled.crew[4:])
    cases.append((attrs.evolve(compiled, crew=crew), r"crew\[3\]\.skill\[0\]\.parameters\[0\]\.value: neither an integer"))
    for wrong, message in cases:
        with pytest.raises(ValueError, match=rf"^compiled ruleset: {message}"):
            _kernel.Kernel(wrong)


def test_a_missing_field_is_refused_by_its_path() -> None:
    compiled = draft7()

    def without(instance: object, name: str) -> types.SimpleNamespace:
        return types.SimpleNamespace(**{field: value for field, value in attrs.asdict(instance, recurse=False).items() if field != name})

    with pytest.raises(ValueError, match=r"^compiled ruleset: action_sizes: missing$"):
        _kernel.Kernel(without(compiled, "action_sizes"))
    with pytest.raises(ValueError, match=r"^compiled ruleset: bounds\.most_pending: missing$"):
        _kernel.Kernel(attrs.evolve(compiled, bounds=without(compiled.bounds, "most_pending")))
    setups = (without(compiled.setups[0], "full_planets_to_end"), *compiled.setups[1:])
    with pytest.raises(ValueError, match=r"^compiled ruleset: setups\[0\]\.full_planets_to_end: missing$"):
        _kernel.Kernel(attrs.evolve(compiled, setups=setups))


def test_the_kernels_rust_fixtures_are_pythons_compile_of_the_bundled_rulesets() -> None:
    """``crates/kernel/src/fixtures/compiled.rs`` holds draft 7 and base with the bounds and
    action-index sizes Python derives; regenerate it with ``python tests/kernel_fixtures.py --write``."""
    assert FIXTURE.read_text(encoding="utf-8") == fixture_source(), "run: python tests/kernel_fixtures.py --write"
