"""Setup steps as data (rules.yaml ``setup.each_player``): ideas R6, "before the first round,
each player in turn order places one cube on the rearmost square of a Planet of their choice".

Worked examples on both engines, the loader's located errors, the bounds that count the steps,
and the fingerprints of draft 7 and base kept.
"""

from __future__ import annotations

import random

import pytest
from builders import ruleset
from differential import play_lockstep

from stargazer_rules.engine.game import Game
from stargazer_rules.engine.state_checks import state_problems
from stargazer_rules.errors import RulesetError
from stargazer_rules.formats.states_json import state_from_json, state_to_json
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.table import PICK_CREW, SETUP_STAGE

R6 = {"effect": "choose", "planet": "with_room", "do": [{"effect": "place_cube"}]}


def _cubes(g: Game, state) -> int:
    on_tracks = sum(len(track) for track in state.tracks) + sum(len(cubes) for cubes in state.specials)
    on_crew = sum(len(cubes) for cubes in state.crew_cubes) + sum(state.crew_free)
    return on_tracks + on_crew + sum(state.hands) + sum(state.removed) + state.stock


def test_r6_each_seat_from_the_start_player_places_one_cube_then_round_one_starts():
    g = Game(load_ruleset("ideas"))
    state = g.new_state(players=4, seed=7, start_player=2)
    total = _cubes(g, state)
    assert state.stage == SETUP_STAGE and state.round == 1
    seen = []
    for k in range(4):
        seat = g.current_player(state)
        seen.append(seat)
        assert all(act.kind == A.TARGET_PLANET for act in state.legal)
        target = state.legal[k % len(state.legal)].target
        before = state.tracks[target]
        state, events = g.apply(state, state.legal[k % len(state.legal)])
        assert state.tracks[target] == before + (seat,)  # the rearmost square (R2)
        assert state.hands[seat] == g.ruleset.cubes_per_player - 1
        assert _cubes(g, state) == total
        assert state_problems(g, state) == []
        assert state_from_json(g, state_to_json(g, state)) == state
    assert seen == [2, 3, 0, 1]
    assert state.stage == PICK_CREW and state.round == 1 and state.turn == 0
    assert g.current_player(state) == 2


def test_without_setup_steps_the_first_decision_is_the_first_pick():
    g = Game(load_ruleset("draft7"))
    state = g.new_state(players=3, seed=1)
    assert state.stage == PICK_CREW and not state.pending


def test_r6_plays_alike_on_both_engines():
    g = Game(load_ruleset("ideas"))
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    for seed in range(6):
        play_lockstep(g, g.deal(3 + seed % 2, seed, start_player=seed % 3), random.Random(seed))
    state = g.new_state(players=4, seed=1, start_player=3)
    assert native.from_kernel(native.to_kernel(g, state)) == state  # a setup step crosses both ways


def test_a_crew_closed_before_the_first_round_leaves_a_crew_for_every_players_pick():
    """close_crew in a setup step (R9): every player's pick of round 1 is still to come, so with
    3 players and 5 crews it closes 2, not the 3 a turn's close would, and each pick of round 1
    has a crew to take, on both engines."""
    g = Game(ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [{"effect": "close_crew", "crew": "all"}]}))
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    for seed in range(4):
        state = g.new_state(players=3, seed=seed)
        crews = len(state.crew)
        while state.stage == SETUP_STAGE:
            state, _ = g.apply(state, state.legal[0])
        assert len(state.closed) == crews - 3
        for _ in range(3):
            assert [act.kind for act in state.legal] == [A.PICK_CREW] * len(state.legal) and state.legal
            state, _ = g.apply(state, state.legal[-1])
            while state.stage != PICK_CREW and state.round == 1 and state.legal:
                state, _ = g.apply(state, state.legal[0])
        play_lockstep(g, g.deal(3, seed), random.Random(seed))


def test_bounds_count_the_setup_steps():
    with_steps = Game(ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [{"effect": "gain_vp", "vp": 3}]}))
    without = Game(ruleset(setup={"turn_order_vp": [0, 0, 0, 0]}))
    seats = max(with_steps.ruleset.player_counts)  # each seat's steps may give every seat VP (to: everyone)
    assert with_steps.bounds.most_vp == without.bounds.most_vp + seats * 3
    r6 = Game(ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [R6]}))
    assert r6.most_moves == without.most_moves + seats
    state = r6.new_state(players=seats, seed=2)
    assert len(state.pending) == seats <= r6.bounds.most_pending


def test_fingerprints_are_kept_without_setup_steps():
    draft7 = load_ruleset("draft7")
    assert draft7.setup_steps == ()
    assert "each_player" not in ruleset_to_data(draft7)["rules"]["setup"]
    plain = ruleset(setup={"turn_order_vp": [0, 0, 0, 0]}).fingerprint
    assert plain == ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": []}).fingerprint
    assert plain != ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [R6]}).fingerprint
    ideas = load_ruleset("ideas")
    assert ruleset_to_data(ideas)["rules"]["setup"]["each_player"][0]["effect"] == "choose"


def _problems(steps) -> list[tuple[str, str, str | None]]:
    with pytest.raises(RulesetError) as caught:
        ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": steps})
    return [(p.path, p.message, p.suggestion) for p in caught.value.problems]


def test_a_survey_change_is_refused_located_with_the_allowed_effects():
    [(path, message, _)] = _problems([{"effect": "change_survey_count", "delta": 1}])
    assert path == "setup.each_player[0].effect" and "changes a turn's survey" in message and "place_cube" in message


def test_use_skill_and_another_timing_are_refused():
    [(path, message, _)] = _problems([{"effect": "use_skill"}])
    assert path == "setup.each_player[0].effect" and "another crew's skill" in message
    problems = _problems([{"effect": "gain_vp", "vp": 1, "when": "after_survey"}])
    assert any(path == "setup.each_player[0].when" for path, _, _ in problems)


def test_this_crew_is_refused_outside_a_for_each_over_crews():
    [(path, message, _)] = _problems([{"effect": "gain_vp", "vp": {"free_cubes": "this_crew"}}])
    assert path == "setup.each_player[0].vp" and "no crew of its own" in message
    # Bound by a choice over crews, it names the chosen crew.
    ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [{"effect": "choose", "crew": "all", "do": [{"effect": "gain_vp", "vp": {"free_cubes": "this_crew"}}]}]})


def test_a_misspelt_effect_is_located_with_a_did_you_mean():
    problems = _problems([{"effect": "place_cub"}])
    assert any(path.startswith("setup.each_player[0]") and suggestion == "place_cube" for path, _, suggestion in problems), problems


def test_at_most_twenty_setup_steps():
    gain = {"effect": "gain_vp", "vp": 1}
    assert len(ruleset(setup={"turn_order_vp": [0, 0, 0, 0], "each_player": [gain] * 20}).setup_steps) == 20
    [(path, message, _)] = _problems([gain] * 21)
    assert path == "setup.each_player" and "20" in message


def test_the_observation_shows_the_setup_and_its_range_bounds_it():
    from stargazer_rules.fast.observation import observation_range, observe

    g = Game(load_ruleset("ideas"))
    layout = g.observation_layout
    at = layout.offsets()
    low, high = observation_range(g, layout)
    state = g.new_state(players=3, seed=4)
    seen = observe(g, layout, state, 0)
    assert seen[at["setup"]] == 1.0 and all(low[i] <= v <= high[i] for i, v in enumerate(seen))
    assert observe(g, layout, g.step(state, state.legal[0]), 1)[at["setup"]] == 1.0
    assert "setup" not in Game(load_ruleset("draft7")).observation_layout.offsets()


@pytest.mark.parametrize(("steps", "found"), [("after_survey", "'after_survey' (a string)"), (7, "7 (an integer)"), ({"effect": "gain_vp"}, "a mapping")])
def test_setup_steps_that_are_not_a_list_are_one_problem_at_their_line(steps, found):
    """A string, a number or a mapping where the list of steps stands: one located problem (it
    was a TypeError traceback from the builder, which read a string's characters as steps)."""
    [(path, message, _)] = _problems(steps)
    assert path == "setup.each_player" and message.startswith("expected a list, found ") and found in message
