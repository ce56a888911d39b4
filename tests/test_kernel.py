"""The native kernel proven against the Python engine (the oracle), and its boundary.

The differential tests play both engines in lockstep (tests/differential.py): at every
decision the current player, the legal actions (in the same order) and the whole state must be
equal, at the end the score sheets (R15-R18) and the winners; over draft7, base and generated
rulesets (every effect type, odd knobs, one-square and very long tracks).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from differential import kernel_state, play_lockstep
from ruleset_edits import CUSTOM_EFFECT_TYPES, copy_ruleset, replace
from strategies import BUNDLED, Playout, bundled_game, choose, generated_game, ruleset_documents, seeds
from stargazer_rules import EFFECT_TYPES, Game, IllegalActionError, RecordError, SetupError, _kernel, load_ruleset
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary.actions import action


@pytest.mark.slow
@pytest.mark.parametrize("name", BUNDLED)
def test_kernel_plays_every_random_decision_as_the_python_engine(name: str) -> None:
    """150 random games per player count: equal states, legal actions, sheets and winners."""
    game = bundled_game(name)
    decisions = 0
    for players in game.ruleset.player_counts:
        for seed in range(150):
            decisions += play_lockstep(game, game.deal(players, seed), random.Random(seed))
    assert decisions > 150 * len(game.ruleset.player_counts) * 30


def _lockstep_with_progress(playout: Playout) -> int:
    """Lockstep with the progress policy of tests/strategies.py, so generated games end."""
    game = playout.game
    rng = playout.policy()
    return play_lockstep(game, game.deal(playout.players, playout.deal_seed), rng, choose=lambda state: choose(game, state, rng))


@st.composite
def generated_playouts(draw: st.DrawFn, huge: bool = False) -> Playout:
    documents = draw(ruleset_documents())
    if huge:
        # Very long tracks (R1: any length is a knob) and hands to fill them.
        for card in documents["planets.yaml"]["planets"]:
            length = draw(st.integers(1, 100))  # the schema allows 100 squares (R1)
            card["track"] = draw(st.lists(st.integers(0, 30), min_size=length, max_size=length))
        documents["rules.yaml"]["cubes_per_player"] = draw(st.integers(20, 200))
        documents["rules.yaml"]["max_rounds"] = draw(st.integers(1, 60))
    counts = sorted(entry["players"] for entry in documents["rules.yaml"]["player_counts"])
    return Playout(players=draw(st.sampled_from(counts)), deal_seed=draw(seeds), play_seed=draw(seeds), documents=documents)


@pytest.mark.slow
@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(generated_playouts())
def test_generated_rulesets_play_alike_on_both_engines(playout: Playout) -> None:
    """Every effect type and knob the generator draws: the kernel agrees at every decision."""
    assert native.kernel_for(playout.game) is not None, native.fallback_reason(playout.game)
    _lockstep_with_progress(playout)


@pytest.mark.slow
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated_playouts(huge=True))
def test_huge_tracks_play_alike_on_both_engines(playout: Playout) -> None:
    """Tracks of up to 100 squares (the most the schema allows) and hands of up to 200 cubes."""
    _lockstep_with_progress(playout)


def test_the_kernel_knows_every_built_in_effect_type() -> None:
    """One enum arm per effect type: the kernel's vocabulary is the Python registry's."""
    assert sorted(_kernel.Kernel.effect_names()) == sorted(EFFECT_TYPES)


def test_a_plugin_effect_type_runs_on_the_python_engine(tmp_path) -> None:
    """A ruleset using an effect type the kernel does not know is never compiled for it."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "      - effect: gain_vp\n        vp: 2\n        when: after_survey", "      - effect: take_cubes_back")
    ruleset = load_ruleset(folder, effect_types=CUSTOM_EFFECT_TYPES)
    assert native.kernel_for(ruleset) is None
    assert "take_cubes_back" in native.fallback_reason(ruleset)
    assert native.engine_for(ruleset, "native") == "python"
    assert native.engine_for(load_ruleset(), "native") == "native"
    assert native.engine_for(load_ruleset(), "python") == "python"
    with pytest.raises(ValueError, match="unknown engine 'rust'"):
        native.engine_for(ruleset, "rust")


def test_an_illegal_action_raises_illegal_action_error_and_changes_nothing() -> None:
    game = bundled_game("draft7")
    theirs = kernel_state(game, game.deal(4, 3))
    before = theirs.fields()
    with pytest.raises(IllegalActionError, match="waits for pick_crew, not survey"):
        theirs.step(action("survey", 0, 1))
    with pytest.raises(IllegalActionError, match="not among the 6 legal options"):
        theirs.step(action("pick_crew", 6))
    assert theirs.fields() == before


def test_a_bad_setup_raises_setup_error() -> None:
    kernel = native.kernel_for(bundled_game("draft7"))
    with pytest.raises(SetupError, match="7 planets are dealt for 4 players, not 2"):
        kernel.new_state(4, [0, 1], [1, 2, 3, 4, 5], 0)
    with pytest.raises(SetupError, match="always in play and is not dealt"):
        kernel.new_state(4, list(range(7)), [0, 2, 3, 4, 5], 0)
    with pytest.raises(SetupError, match="5 players are not supported by this ruleset"):
        kernel.new_state(5, list(range(7)), [1, 2, 3, 4, 5], 0)


def test_a_state_of_another_ruleset_is_refused_with_record_error() -> None:
    """A draft-7 state waiting on the Quartermaster's place_on_crew: base has no such effect."""
    game = bundled_game("draft7")
    for seed in range(50):
        state = game.new_state(players=4, seed=seed)
        ids = [game.ruleset.crew[card].id for card in state.crew]
        if "quartermaster" in ids:
            slot = ids.index("quartermaster")
            break
    state = game.step(state, action("pick_crew", slot))
    assert state.pending, "the Quartermaster's place_on_crew waits for a target"
    native.to_kernel(game, state)  # fits draft 7
    with pytest.raises(RecordError) as caught:
        native.to_kernel(bundled_game("base"), state)
    assert str(caught.value) == (
        "not a state of this ruleset: $.pending[0].path: [1] is not the path of an effect in the "
        "skill of crew 'quartermaster'"
    )


FIELDS = st.sampled_from(range(26))
JUNK = st.one_of(
    st.integers(-(2**70), 2**70),
    st.text(max_size=5),
    st.none(),
    st.lists(st.integers(-3, 20), max_size=12).map(tuple),
    st.lists(st.lists(st.integers(-3, 9), max_size=9).map(tuple), max_size=9).map(tuple),
)


@settings(max_examples=300)
@given(seed=seeds, steps=st.integers(0, 40), field=FIELDS, junk=JUNK)
@example(seed=0, steps=31, field=14, junk=0)  # turn 0 with 3 crews chosen: once read, then stuck
def test_a_corrupt_state_is_refused_with_record_error_and_never_panics(seed, steps, field, junk) -> None:
    """Any one field replaced by junk: the kernel reads it (a state it can play) or raises
    RecordError; no other exception, and no panic, crosses into Python."""
    game = bundled_game("draft7")
    rng = random.Random(seed)
    state = game.new_state(players=4, seed=seed)
    for _ in range(steps):
        if not state.legal:
            break
        state = game.step(state, rng.choice(state.legal))
    fields = list(state)
    fields[field] = junk
    try:
        theirs = native.kernel_for(game).read_state(tuple(fields))
    except RecordError as error:
        assert str(error).startswith("not a state of this ruleset:") or "beyond the kernel's limits" in str(error)
        return
    # Whatever it read, the kernel can play it to the end without failing.
    rng = random.Random(seed)
    while not theirs.is_over():
        theirs.step(rng.choice(theirs.legal()))
