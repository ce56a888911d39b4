"""One home for what a ruleset's play derives from it: its ``Game`` (docs/architecture.md).

The engine's own tables are public fields built once in ``Game.__init__`` (what ``Table`` and
the scoring read); what the layers above derive (the compiled kernel, the narrowed state
schema's validator) is built on first use through ``Game.derived`` and lives as long as the
game, never in a module-level cache keyed by ``id()``.
"""

from __future__ import annotations

import gc
import random
import weakref
from typing import ClassVar

import attrs

from stargazer_rules import EFFECT_TYPES, Game, extend_effect_types, jsonio, load_ruleset
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.formats import states_json
from stargazer_rules.kernel import native
from stargazer_rules.simulation import runner
from stargazer_rules.vocabulary.effects import GainVP
from stargazer_rules.vocabulary.table import Rules


def test_derived_builds_once_per_game_and_function():
    """Two asks, one build; another function or another game builds its own."""
    calls: list[Game] = []

    def build(game: Game) -> tuple[str, int]:
        calls.append(game)
        return game.ruleset.name, len(calls)

    first, second = Game(load_ruleset("draft7")), Game(load_ruleset("draft7"))
    assert first.derived(build) == first.derived(build) == ("draft7", 1)
    assert second.derived(build) == ("draft7", 2)
    assert first.derived(lambda game: "other") == "other"
    assert calls == [first, second]


def test_the_kernel_is_compiled_once_per_game_and_kept_by_it():
    """``kernel_for`` asks the game, so a Game's kernel is the same object every time."""
    game = Game(load_ruleset("draft7"))
    kernel = native.kernel_for(game)
    assert kernel is not None
    assert native.kernel_for(game) is kernel
    assert game.derived(native._compile) == (kernel, None)


def test_the_narrowed_validator_lives_and_dies_with_its_game():
    """No cache outside the game keeps it (or the game) alive once the game is dropped."""
    game = Game(load_ruleset("draft7"))
    state = game.new_state(players=3, seed=1)
    assert jsonio.state_schema_problems(game, jsonio.state_to_json(game, state)) == []
    validator = weakref.ref(game.derived(states_json._narrowed_validator))
    dropped = weakref.ref(game)
    del game
    gc.collect()
    assert (dropped(), validator()) == (None, None)


def test_table_and_scoring_read_only_public_fields_of_the_game():
    """The ``Rules`` protocol they read names public fields, each one a Game builds."""
    game = Game(load_ruleset("base"))
    read = list(Rules.__annotations__)
    assert [name for name in read if name.startswith("_")] == []
    assert [name for name in read if not hasattr(game, name)] == []


def test_provisional_totals_fill_the_games_own_memo_of_planet_parts():
    """The bots' evaluation memoises each Planet's part on the game's ``totals_tables``."""
    game = Game(load_ruleset("draft7"))
    state, rng = game.new_state(players=4, seed=3), random.Random(3)
    for _ in range(40):
        state = game.step(state, rng.choice(state.legal))
    assert provisional_totals(game, state) == tuple(seat.total for seat in game.score(state).seats)
    parts = game.totals_tables.planet_parts
    assert 0 < len(parts) <= len(state.planets)
    assert Game(load_ruleset("draft7")).totals_tables.planet_parts == {}


@attrs.frozen(kw_only=True)
class _PluginGainVP(GainVP):
    """``gain_vp`` by another class: the same YAML, so the same fingerprint, but not built in."""

    name: ClassVar[str] = "gain_vp"


def test_a_simulation_gets_a_game_of_its_own_ruleset_even_when_fingerprints_agree():
    """``runner.game_of`` never hands a ruleset the Game of an equal-looking one of other classes."""
    plain = load_ruleset("draft7")
    types = extend_effect_types({k: v for k, v in EFFECT_TYPES.items() if k != "gain_vp"}, _PluginGainVP)
    plugin = load_ruleset("draft7", effect_types=types)
    assert plugin.fingerprint == plain.fingerprint
    assert runner.game_of(plain).ruleset == plain
    assert runner.game_of(plugin).ruleset is plugin
    assert native.engine_for(runner.game_of(plugin), "native") == "python"
    assert native.engine_for(runner.game_of(plain), "native") == "native"
    assert runner.game_of(load_ruleset("draft7")) is runner.game_of(plain)
