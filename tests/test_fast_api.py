"""The fast API (stargazer_rules.fast) held to the Python engine, the oracle.

Random games are played on a ``FastState`` and on the Python engine in lockstep: at every
decision the legal ids are the engine's legal actions through the action index, in the same
order, and ``to_state`` is the engine's state; at the end the returns share one win (R18).
The action index round-trips every action of those games, over bundled and generated
rulesets; a batch plays game for game as single states do.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import attrs
import pytest
from differential import canonical
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruleset_edits import CUSTOM_EFFECT_TYPES, copy_ruleset, replace
from strategies import BUNDLED, Playout, bundled_game, choose, generated_game, language_rulesets, playouts, seeds

from stargazer_rules import IllegalActionError, Setup, SetupError, load_ruleset
from stargazer_rules.engine.observation_layout import ObservationField
from stargazer_rules.errors import SeedError
from stargazer_rules.fast import FastGame
from stargazer_rules.fast.action_index import ActionIndex
from stargazer_rules.fast.observation import observe
from stargazer_rules.kernel import native
from stargazer_rules.kernel.compiled import compile_ruleset
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.effects import COUNTER, NO_SKIP_LIMIT, START
from stargazer_rules.vocabulary.table import State

_FAST: dict[str, FastGame] = {}


def fast_of(name: str) -> FastGame:
    """The FastGame of a bundled ruleset, over the session's shared Game."""
    if name not in _FAST:
        _FAST[name] = FastGame(bundled_game(name))
    return _FAST[name]


def play_lockstep(fast: FastGame, players: int, deal_seed: int, rng: random.Random, policy=None) -> int:
    """Play one random game on both engines; assert they agree at every decision. Returns
    the decisions played."""
    game = fast.game
    theirs = game.new_state(players=players, seed=deal_seed)
    ours = fast.new_state(players, deal_seed)
    decisions = 0
    while True:
        legal = game.legal_actions(theirs)
        ids = ours.legal_ids()
        assert type(ids) is tuple and ids == tuple(fast.action_id(act) for act in legal)
        assert len(ids) <= fast.max_legal
        assert [fast.action_of(i) for i in ids] == list(legal)
        assert canonical(ours.to_state()) == canonical(theirs)  # cubes on a crew by owner (R6)
        assert ours.current_player() == (-1 if theirs.stage == "over" else game.current_player(theirs))
        viewer = max(ours.current_player(), 0)
        assert ours.observation(viewer) == observe(game, fast.layout, theirs, viewer)
        assert_no_block_left_out_is_set(fast, theirs)
        if not legal:
            break
        act = policy(theirs) if policy else legal[rng.randrange(len(legal))]
        theirs = game.step(theirs, act)
        ours.step(fast.action_id(act))
        decisions += 1
    assert ours.is_over()
    assert sum(ours.returns()) == pytest.approx(1.0)
    winners = set(game.score(theirs).winners)
    assert [seat for seat, share in enumerate(ours.returns()) if share] == sorted(winners)
    assert ours.scores() == [seat.total for seat in game.score(theirs).seats]
    return decisions


def assert_no_block_left_out_is_set(fast: FastGame, state: State) -> None:
    """A block the layout leaves out (the ruleset cannot set it) holds nothing in the state:
    the observation loses nothing by leaving it out."""
    names = {name for name, _, _ in fast.observation_fields}
    held = {
        "survey_counter_clockwise": bool(state.survey_rules & COUNTER),
        "survey_start": bool(state.survey_rules & START),
        "survey_skips": state.survey_skips != NO_SKIP_LIMIT,
        "crew_closed": bool(state.closed),
        "protected": any(state.protected),
        "crew_borrowed": any(card >= 0 for card in state.borrowed),
    }
    assert not [name for name, set_ in held.items() if set_ and name not in names]


@pytest.mark.parametrize("name", BUNDLED)
def test_fast_states_play_every_random_decision_as_the_python_engine(name: str) -> None:
    """20 random games per player count: equal legal ids, states, scores and returns."""
    fast = fast_of(name)
    decisions = 0
    for players in fast.ruleset.player_counts:
        for seed in range(20):
            decisions += play_lockstep(fast, players, seed, random.Random(seed))
    assert decisions > 20 * len(fast.ruleset.player_counts) * 30


@pytest.mark.slow
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(playouts("generated"))
def test_generated_rulesets_play_alike_through_the_action_index(playout: Playout) -> None:
    """Every effect type and knob the generator draws: every legal action has an id that maps
    back to it, and the fast state follows the Python engine."""
    fast = FastGame(playout.game)
    assert_both_indexes_agree(fast)
    rng = playout.policy()
    play_lockstep(fast, playout.players, playout.deal_seed, rng, policy=lambda state: choose(playout.game, state, rng))


def assert_both_indexes_agree(fast: FastGame) -> None:
    """The kernel's action index and observation layout are the Python ones."""
    assert fast.core.blocks() == list(fast.index.blocks)
    assert fast.core.most_legal() == fast.max_legal
    assert fast.core.observation_fields() == fast.observation_fields
    for i in range(fast.num_actions):
        act = fast.action_of(i)
        assert fast.core.action_of(i) == tuple(act) and fast.core.action_id(act) == i
    assert fast.core.action_of(fast.num_actions) is None and fast.core.action_of(-1) is None


@pytest.mark.slow
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(playouts("generated"))
def test_the_kernel_deals_as_the_python_engine(playout: Playout) -> None:
    """``Game.deal`` (CPython's random.Random) redone by the kernel, seed for seed."""
    fast = FastGame(playout.game)
    game = fast.game
    for seed in (playout.deal_seed, 0, 1, 2**32 - 1, 2**32, 2**64 - 1):
        setup = game.deal(playout.players, seed)
        planets, crew, start = fast.core.deal(playout.players, seed)
        assert [game.planet_ids[i] for i in planets] == list(setup.planets)
        assert [game.crew_ids[i] for i in crew] == list(setup.crew + setup.queue)  # then R11's queue
        assert start == setup.start_player


@pytest.mark.parametrize("name", BUNDLED)
def test_the_kernel_deals_every_seed_as_the_python_engine(name: str) -> None:
    fast = fast_of(name)
    for players in fast.ruleset.player_counts:
        for seed in range(300):
            assert fast.new_state(players, seed).to_state() == fast.game.new_state(players=players, seed=seed)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_kernels_index_and_layout_are_the_python_ones(name: str) -> None:
    assert_both_indexes_agree(fast_of(name))


@pytest.mark.parametrize("name", BUNDLED)
def test_the_action_index_is_a_bijection_onto_its_range(name: str) -> None:
    fast = fast_of(name)
    actions = [fast.action_of(i) for i in range(fast.num_actions)]
    assert len(set(actions)) == fast.num_actions
    assert [fast.action_id(act) for act in actions] == list(range(fast.num_actions))


def test_draft7s_action_index_is_read_from_its_bounds() -> None:
    """7 Planets, 6 crew slots, 4 seats, surveys of up to 3 cubes in both directions
    (choose_direction), choose_one of 2 options."""
    fast = fast_of("draft7")
    assert fast.index.blocks == (
        ("pick_crew", 0, 6),
        ("survey", 6, 1 + 2 * 7 * 3),
        ("survey_step", 49, 7),
        ("survey_stop", 56, 1),
        ("target_planet", 57, 7),
        ("target_crew", 64, 6),
        ("choose_option", 70, 2),
        ("name_start_player", 72, 4),
        ("target_seat", 76, 0),  # no choose asks for a seat
    )
    assert fast.num_actions == 76
    assert fast.max_legal == 43  # the survey block
    assert fast.action_of(6) == action("survey", -1, 0)
    assert fast.action_of(7) == action("survey", 0, 1)
    assert fast.action_of(6 + 1 + 7 * 3) == action("survey", 0, 1, -1)


def test_the_action_index_is_the_same_for_an_equal_ruleset() -> None:
    """Ids are a function of the ruleset alone: a fresh load gives the same index."""
    assert ActionIndex.of(bundled_game("draft7")) == FastGame().index


def test_an_action_outside_the_index_is_refused_with_its_range() -> None:
    fast = fast_of("draft7")
    message = r"^Action\(kind='pick_crew', target=9, count=0, direction=1\) is no action of this ruleset's index: pick_crew takes a crew slot 0\.\.5, and no count or direction$"
    with pytest.raises(ValueError, match=message):
        fast.action_id(action("pick_crew", 9))
    with pytest.raises(ValueError, match=r"survey takes target -1 with count 0, or a start 0\.\.6 with count 1\.\.3 and direction 1 or -1$"):
        fast.action_id(action("survey", 0, 4))
    with pytest.raises(ValueError, match=r"^action id 76 is outside 0\.\.75$"):
        fast.action_of(76)


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    fast = fast_of("draft7")
    state = fast.new_state(4, 3)
    before = state.to_state()
    with pytest.raises(IllegalActionError, match=r"^the state waits for pick_crew, not survey \(stage pick_crew\)$"):
        state.step(fast.action_id(action("survey", 0, 1)))
    with pytest.raises(IllegalActionError, match=r"^action id 76 is outside 0\.\.75$"):
        state.step(76)
    with pytest.raises(IllegalActionError, match=r"^action id -1 is outside 0\.\.75$"):
        state.step(-1)
    assert state.to_state() == before


def test_a_game_over_refuses_every_id() -> None:
    fast = fast_of("draft7")
    state = fast.new_state(3, 1)
    rng = random.Random(1)
    while not state.is_over():
        state.step(rng.choice(state.legal_ids()))
    assert state.legal_ids() == () and state.current_player() == -1
    with pytest.raises(IllegalActionError, match="^the game is over: no action is legal$"):
        state.step(0)


def test_new_state_is_the_python_engines_deal() -> None:
    fast = fast_of("draft7")
    assert fast.new_state(4, 7).to_state() == fast.game.new_state(players=4, seed=7)
    with pytest.raises(SetupError, match=r"^5 players are not supported by this ruleset \(supported: 3, 4\)$"):
        fast.new_state(5, 7)
    with pytest.raises(SeedError, match=r"^-1 is not a seed: give an integer from 0 to 18446744073709551615 \(2\*\*64 - 1\)$"):
        fast.new_state(4, -1)


def test_a_single_state_needs_no_numpy() -> None:
    """numpy is the batch's alone: playing, observing and reading one state never imports it."""
    script = (
        "import sys\n"
        "from stargazer_rules.fast import FastGame\n"
        "state = FastGame().new_state(4, 1)\n"
        "state.step(state.legal_ids()[0]); state.legal_mask(); state.observation(0); state.observation_text(0); state.to_state()\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"


def test_from_state_reads_a_python_state_and_copies_are_independent() -> None:
    fast = fast_of("draft7")
    game = fast.game
    state = game.new_state(players=4, seed=2)
    for _ in range(5):
        state = game.step(state, state.legal[0])
    ours = fast.from_state(state)
    assert ours.to_state() == state
    copy = ours.copy()
    copy.step(copy.legal_ids()[-1])
    assert ours.to_state() == state and copy.to_state() == game.step(state, state.legal[-1])


def test_legal_mask_marks_the_legal_ids() -> None:
    fast = fast_of("draft7")
    state = fast.new_state(4, 5)
    state.step(state.legal_ids()[0])
    mask = state.legal_mask()
    assert len(mask) == fast.num_actions
    assert [i for i in range(fast.num_actions) if mask[i]] == sorted(state.legal_ids())


# -- observations ---------------------------------------------------------------------------


#: Draft 7's observation before the rules language (a8b0189's ``fast/observation.py``), 565
#: floats: the fields and lengths it must keep, since its crews close, protect and borrow
#: nothing, and set no skip limit, counter-clockwise walk nor survey_start.
DRAFT7_FIELDS = (
    ("seats", 4), ("to_move", 4), ("start_player", 4), ("stage", 6), ("round", 1), ("turn", 1), ("stock", 1),
    ("hands", 4), ("vp", 4), ("removed", 4), ("planet_card", 98), ("track", 245), ("special", 35), ("surveyed", 7),
    ("crew_card", 72), ("crew_free", 6), ("crew_cubes", 24), ("worker", 24), ("survey_rules", 3), ("survey_bonus", 1),
    ("survey_placed", 1), ("survey_last", 7), ("survey_direction", 1), ("pending", 1), ("pending_slot", 6),
    ("pending_remaining", 1),
)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bundled_rulesets_observe_the_fields_they_did_before_the_rules_language(name: str) -> None:
    fast = fast_of(name)
    assert tuple((name, length) for name, _, length in fast.observation_fields) == DRAFT7_FIELDS
    assert fast.observation_size == 565 == sum(length for _, length in DRAFT7_FIELDS)
    assert fast.core.observation_fields() == fast.observation_fields


def test_the_kernel_refuses_a_layout_without_a_field_it_fills_or_with_one_it_does_not() -> None:
    """The layout crosses in the compiled ruleset and the kernel fills the fields it received
    by name: one renamed, left out or of another length is refused, naming it."""
    from stargazer_rules._kernel import Kernel

    compiled = compile_ruleset(fast_of("draft7").game)
    fields = list(compiled.observation)

    def refused(altered: list[ObservationField]) -> str:
        with pytest.raises(ValueError) as caught:
            Kernel(attrs.evolve(compiled, observation=tuple(altered)))
        return str(caught.value)

    at = {field.name: i for i, field in enumerate(fields)}
    renamed = fields.copy()
    renamed[at["stock"]] = fields[at["stock"]]._replace(name="stocks")
    assert refused(renamed) == "observation layout: the kernel fills no field `stocks`"
    missing = [field for field in fields if field.name != "worker"]
    assert refused(missing) == "observation layout: no field `worker`, which the kernel fills"
    end = fields[-1].offset + fields[-1].length
    assert refused([*fields, ObservationField("crew_closed", end, 1)]) == (
        "observation layout: field `crew_closed` is 1 long; the kernel writes 6 entries there"
    )
    assert Kernel(attrs.evolve(compiled, observation=tuple(fields))) is not None


def test_a_ruleset_that_can_close_a_crew_observes_the_closed_crews(tmp_path) -> None:
    """Draft 7 with a close_crew in one skill: the crew_closed block appears (one entry per
    crew slot) right after pending_remaining, and both engines agree on it (S9)."""
    folder = copy_ruleset(tmp_path)
    crew_yaml = (folder / "crew.yaml").read_text(encoding="utf-8")
    assert "    skill:\n" in crew_yaml
    (folder / "crew.yaml").write_text(
        crew_yaml.replace("    skill:\n", "    skill:\n      - effect: close_crew\n        when: on_choose\n", 1), encoding="utf-8"
    )
    fast = FastGame(load_ruleset(folder))
    names = [name for name, _, _ in fast.observation_fields]
    assert names[-2:] == ["pending_remaining", "crew_closed"] and fast.observation_fields[-1][2] == fast.game.bounds.most_crew
    assert fast.observation_size == 565 + fast.game.bounds.most_crew
    assert fast.core.observation_fields() == fast.observation_fields
    for seed in range(3):
        play_lockstep(fast, 4, seed, random.Random(seed))


#: Each optional block and the text of the effect that sets it, as the generated documents write it.
BLOCK_WORDS = {
    "crew_closed": '"effect": "close_crew"',
    "protected": '"effect": "protect_cubes"',
    "crew_borrowed": '"effect": "use_skill"',
    "survey_start": '"effect": "survey_start"',
    "survey_counter_clockwise": '"direction": "counter_clockwise"',
}


@pytest.mark.slow
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(documents=language_rulesets(), deal_seed=seeds, play_seed=seeds, data=st.data())
def test_generated_programs_observe_a_block_exactly_when_they_can_set_it(documents, deal_seed, play_seed, data) -> None:
    """A generated program of the rules language: each optional block is in the layout exactly
    when the documents hold the effect that sets it; the kernel fills the layout it received
    as the Python oracle does, and no block left out is ever set in play."""
    game = generated_game(documents)
    assert native.kernel_for(game) is not None, native.fallback_reason(game)
    fast = FastGame(game)
    text = json.dumps(documents)
    names = {name for name, _, _ in fast.observation_fields}
    assert {block for block, word in BLOCK_WORDS.items() if word in text} == names & set(BLOCK_WORDS)
    assert fast.core.observation_fields() == fast.observation_fields
    players = data.draw(st.sampled_from(sorted(game.ruleset.player_counts)), label="players")
    rng = random.Random(play_seed)
    play_lockstep(fast, players, deal_seed, rng, policy=lambda state: choose(game, state, rng))


def test_the_observation_fields_tile_the_vector() -> None:
    fast = fast_of("draft7")
    offset = 0
    for name, start, length in fast.observation_fields:
        assert start == offset, name
        offset += length
    assert offset == fast.observation_size
    state = fast.new_state(4, 1)
    assert len(state.observation(0)) == fast.observation_size


def test_equal_states_give_equal_observations() -> None:
    """The same state read back through from_state, or copied, gives the same vector and
    text for every seat, and the kernel's vector is the Python oracle's (``observe``)."""
    fast = fast_of("draft7")
    rng = random.Random(4)
    state = fast.new_state(4, 4)
    for _ in range(30):
        state.step(rng.choice(state.legal_ids()))
        again = fast.from_state(state.to_state())
        copy = state.copy()
        for seat in range(4):
            assert again.observation(seat) == state.observation(seat) == copy.observation(seat)
            assert again.observation_text(seat) == state.observation_text(seat)
            assert state.observation(seat) == observe(fast.game, fast.layout, state.to_state(), seat)


def test_the_observation_is_seen_from_the_viewer() -> None:
    """At the deal the seats differ only in where they sit: each seat sees itself first, so
    the start player's view says "the start player is me" and the others' views do not."""
    fast = fast_of("draft7")
    state = fast.new_state(4, 7)
    start = state.to_state().start_player
    at = dict((name, (offset, length)) for name, offset, length in fast.observation_fields)
    views = [state.observation(seat) for seat in range(4)]
    offset, length = at["start_player"]
    for seat in range(4):
        assert views[seat][offset : offset + length] == [1.0 if r == (start - seat) % 4 else 0.0 for r in range(4)]
    assert len({tuple(view) for view in views}) == 4
    assert state.observation_text(start).splitlines()[0].startswith(f"seat {start} of 4; to move: you; start player: you;")
    with pytest.raises(ValueError, match=r"^seat 4 is not a seat of this game \(0\.\.3\)$"):
        state.observation(4)


# -- batches --------------------------------------------------------------------------------


def test_a_batch_plays_game_for_game_as_single_states() -> None:
    import numpy as np
    fast = fast_of("draft7")
    n = 16
    batch = fast.batch(n, players=4, seeds=range(100, 100 + n))
    singles = [fast.new_state(4, 100 + i) for i in range(n)]
    rng = np.random.default_rng(0)
    steps = 0
    while not batch.is_over().all():
        ids, counts = batch.legal_ids()
        mask = batch.legal_mask()
        for i, single in enumerate(singles):
            legal = single.legal_ids()
            assert counts[i] == len(legal) and tuple(ids[i, : counts[i]]) == legal
            assert all(ids[i, counts[i] :] == -1)
            assert list(np.flatnonzero(mask[i])) == sorted(legal)
        assert list(batch.current_player()) == [s.current_player() for s in singles]
        assert (batch.observations(1) == np.array([s.observation(1) for s in singles], dtype=np.float32)).all()
        picks = (rng.random(n) * np.maximum(counts, 1)).astype(np.int64)
        chosen = ids[np.arange(n), picks]
        for i, single in enumerate(singles):
            if not single.is_over():
                single.step(int(chosen[i]))
        batch.step(chosen)
        steps += 1
    assert [batch.states[i].to_state() for i in range(n)] == [s.to_state() for s in singles]
    returns = batch.returns()
    assert returns.shape == (n, 4) and (returns.sum(axis=1) == 1).all()
    assert returns.tolist() == [s.returns() for s in singles]
    batch.reset(0, 99)  # the game that ended is scored before it is dealt away
    assert (batch.final_returns() == returns).all()
    assert batch.returns()[0].tolist() == [0.0] * 4
    assert steps > 30


def test_a_batch_with_auto_reset_deals_the_next_seed_and_keeps_the_final_returns() -> None:
    import numpy as np
    fast = fast_of("draft7")
    batch = fast.batch(1, players=3, seeds=[5], auto_reset=True)
    single = fast.new_state(3, 5)
    steps = 0
    while not single.is_over():
        ids, counts = batch.legal_ids()
        ended = batch.step(ids[:, 0])
        single.step(single.legal_ids()[0])
        steps += 1
        assert ended.tolist() == [single.is_over()]
    assert batch.final_returns()[0].tolist()[:3] == single.returns()
    assert batch.states[0].to_state() == fast.new_state(3, 6).to_state()  # the seed after the largest
    assert not batch.is_over().any()
    batch.reset(0, 40)
    assert batch.states[0].to_state() == fast.new_state(3, 40).to_state()
    with pytest.raises(ValueError, match=r"^step takes one id per game: shape \(1,\), not \(3,\)$"):
        batch.step(np.zeros(3, dtype=np.int64))
    assert steps > 30


def test_a_batch_refuses_an_illegal_id_naming_the_game_and_moves_no_game() -> None:
    pytest.importorskip("numpy")
    fast = fast_of("draft7")
    batch = fast.batch(4, players=4)
    before = [batch.states[i].to_state() for i in range(4)]
    ids, _ = batch.legal_ids()
    chosen = ids[:, 0].copy()
    chosen[2] = fast.action_id(action("survey", 0, 1))
    with pytest.raises(IllegalActionError, match=r"^game 2: the state waits for pick_crew, not survey \(stage pick_crew\)$"):
        batch.step(chosen)
    chosen[2] = fast.num_actions
    with pytest.raises(IllegalActionError, match=r"^game 2: action id 76 is outside 0\.\.75$"):
        batch.step(chosen)
    assert [batch.states[i].to_state() for i in range(4)] == before
    with pytest.raises(ValueError, match=r"^seat 4 is not a seat of this game \(0\.\.3\)$"):
        batch.observations(4)


# -- rulesets the kernel cannot play --------------------------------------------------------


def test_a_plugin_ruleset_is_refused_with_the_fallback_reason(tmp_path) -> None:
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "      - effect: gain_vp\n        vp: 2\n        when: after_survey", "      - effect: take_cubes_back")
    ruleset = load_ruleset(folder, effect_types=CUSTOM_EFFECT_TYPES)
    with pytest.raises(ValueError, match=r"^the fast API plays on the native kernel, which cannot play this ruleset: effect type 'take_cubes_back' is not built in"):
        FastGame(ruleset)


def test_a_bundled_ruleset_is_found_by_name() -> None:
    assert FastGame("base").ruleset.name == bundled_game("base").ruleset.name


# -- what the fast API takes: integer ids, bounded batches -----------------------------------


@pytest.mark.parametrize("bad", [True, False, 1.7, 1.0, "0"])
def test_a_state_refuses_an_id_that_is_not_an_integer(bad):
    """step takes an int (or a numpy integer): a bool, a float or a text is refused, never
    converted and played, and the state does not move."""
    state = fast_of("draft7").new_state(4, 1)
    before = state.fields()
    with pytest.raises(TypeError):
        state.step(bad)
    with pytest.raises(TypeError):
        state.observation(bad)
    assert state.fields() == before


def test_a_state_takes_a_numpy_integer_id():
    """numpy's integers are integers: an id read from a batch's arrays plays."""
    import numpy as np
    state = fast_of("draft7").new_state(4, 1)
    state.step(np.int64(state.legal_ids()[0]))
    assert state.copy().fields() == state.fields()


@pytest.mark.parametrize("dtype", ["bool", "float64", "float32", "str", "object"])
def test_a_batch_refuses_ids_of_a_type_that_is_not_an_integer(dtype):
    """batch.step takes an integer array: bool, float, text and object arrays are refused."""
    import numpy as np
    batch = fast_of("draft7").batch(3, players=4)
    ids, _counts = batch.legal_ids()
    with pytest.raises(TypeError, match="integer action ids"):
        batch.step(ids[:, 0].astype(dtype))
    assert not batch.step(ids[:, 0]).any()


def test_a_batch_too_large_for_memory_is_refused_before_any_allocation():
    """FastGame().batch(10**7, players=4) is a ValueError naming the most games (it aborted
    the interpreter when the kernel's allocation failed)."""
    from stargazer_rules.fast.limits import MAX_BATCH_BYTES, batch_bytes

    fast = fast_of("draft7")
    most = MAX_BATCH_BYTES // batch_bytes(fast, 1)
    with pytest.raises(ValueError, match=f"a batch of 10,000,000 games is outside 1 to {most:,}"):
        fast.batch(10**7, players=4)
    assert 1_000 < most < 10**7


@pytest.mark.parametrize("n", [0, -1, True, 2.0, "4"])
def test_a_batch_size_is_a_positive_integer(n):
    """n is a count of games: 0, negatives, bools, floats and texts are refused."""
    with pytest.raises((TypeError, ValueError)):
        fast_of("draft7").batch(n, players=4)


def test_endless_seeds_are_not_read_whole():
    """A batch reads one seed past n to tell that too many came: an endless iterable ends."""
    import itertools

    with pytest.raises(ValueError, match="a batch of 3 games needs 3 seeds, not more"):
        fast_of("draft7").batch(3, players=4, seeds=itertools.count())


def test_batch_indices_and_seats_are_integers():
    """reset, states[i] and observations(seat) refuse a bool, and reset a game outside the batch."""
    batch = fast_of("draft7").batch(2, players=4)
    with pytest.raises(TypeError):
        batch.reset(True, 3)
    with pytest.raises(IndexError, match="game 2 is not in a batch of 2"):
        batch.reset(2, 3)
    with pytest.raises(TypeError):
        batch.states[True]
    with pytest.raises(TypeError):
        batch.observations(seat=True)
    with pytest.raises(TypeError):
        fast_of("draft7").action_of(True)


@pytest.mark.parametrize("huge", [2**63, -(2**63) - 1, 10**30])
def test_a_state_refuses_an_id_past_every_range_with_a_value_error(huge):
    """An int too large for the kernel is a ValueError saying so (it was an OverflowError
    worded by the bindings)."""
    state = fast_of("draft7").new_state(4, 1)
    with pytest.raises(ValueError, match="is outside every range this game has"):
        state.step(huge)
    with pytest.raises(ValueError, match="is outside every range this game has"):
        state.observation(huge)


@pytest.mark.parametrize("players", [-1, 0, 5, 10**30])
def test_a_player_count_outside_the_rulesets_is_the_engines_setup_error(players):
    """new_state and batch refuse a table size the ruleset has not with the engine's
    SetupError (a negative or huge one was an OverflowError of the bindings)."""
    fast = fast_of("draft7")
    with pytest.raises(SetupError, match="players are not supported by this ruleset"):
        fast.new_state(players, 1)
    with pytest.raises(SetupError, match="players are not supported by this ruleset"):
        fast.batch(2, players=players)


def test_a_batchs_seat_past_every_range_is_a_value_error():
    """observations(seat) of a huge seat is a ValueError (it was an OverflowError)."""
    batch = fast_of("draft7").batch(2, players=4)
    with pytest.raises(ValueError, match="is outside every range this game has"):
        batch.observations(seat=10**30)


def test_the_observation_shows_the_lasting_effects_alike_in_both_engines(tmp_path) -> None:
    """A crew closed (S9, close_crew), a crew applying another's skill (S10, use_skill) and a
    protected seat are seen in the kernel's vector as in the Python oracle's (the ideas
    ruleset, its Analyst given protect_cubes so that the ruleset can protect cubes)."""
    folder = copy_ruleset(tmp_path, "ideas")
    replace(
        folder, "crew.yaml", "        vp: {planets: {from: surveyed, where: {ranks_first: me}}}\n",
        "        vp: {planets: {from: surveyed, where: {ranks_first: me}}}\n      - effect: protect_cubes\n        when: after_survey\n",
    )
    fast = FastGame(load_ruleset(folder))
    game = fast.game
    crew = game.ruleset.crew
    ring = tuple(card.id for card in game.ruleset.planets[:7])
    state = game.new_state(setup=Setup(4, ring, ("gatekeeper", "understudy", "diplomat", "surveyor", "analyst"), 0))
    while state.stage == "setup":  # ideas R6: each seat's cube before the first round
        state = game.step(state, state.legal[0])
    state = game.step(state, action("pick_crew", 1))  # the Gatekeeper
    state = game.step(state, action("target_crew", 3))  # closes the Diplomat
    state = game.step(state, action("survey", -1, 0))
    state = game.step(state, action("pick_crew", 2))  # the Understudy applies the Surveyor's skill
    state = game.step(state, action("target_crew", 4))
    state = state._replace(protected=(2, 0, 0, 1))
    assert state.closed == frozenset({3}) and state.borrowed[2] == crew.index(game.ruleset.crew_card("surveyor"))
    at = dict((name, offset) for name, offset, _ in fast.observation_fields)
    kernel = fast.from_state(state)
    for seat in range(4):
        vector = kernel.observation(seat)
        assert vector == observe(game, fast.layout, state, seat)
        assert vector[at["crew_closed"] + 3] == 1.0 and vector[at["protected"] + (0 - seat) % 4] == 2.0
