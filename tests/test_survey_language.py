"""This turn's survey in the rules language (docs/skills.md, "This turn's survey"): its
direction, skips with a limit, and its start (where, how many cubes first, what is done there
before the walk), checked at load, and played alike by the Python engine and the kernel with
exact options (R7, R8, R9). S6, S7 and S14 themselves are in tests/test_ideas.py.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings

from differential import canonical, kernel_state, play_lockstep
from invariants import check_cubes
from test_language import _problems, _with_skill
from strategies import choose, language_rulesets, load_documents, seeds
from stargazer_rules import Game, Setup, load_ruleset
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.effects import NO_SKIP_LIMIT
from stargazer_rules.vocabulary.table import SURVEYING, State

#: Draft 7's ring for four players: lava-1 (6 squares), ocean-1 (5), gas-1 (7), primordial-1
#: (7), dark (6), diamond (7), ocean-2 (6).
RING = ("lava-1", "ocean-1", "gas-1", "primordial-1", "dark", "diamond", "ocean-2")
DEALT = ("navigator", "geologist", "pilot", "engineer", "historian")


def _game(tmp_path, skill: str) -> Game:
    """Draft 7 whose Navigator (survey count 3) has ``skill``."""
    return Game(load_ruleset(_with_skill(tmp_path, skill)))


def _picked(game: Game, tracks: dict[int, tuple[int, ...]] | None = None) -> State:
    """Seat 0 picks the Navigator, the board as given (cubes of seats 1-3 taken from their hands)."""
    state = game.new_state(setup=Setup(4, RING, DEALT, 0))
    tracks_all = tuple((tracks or {}).get(p, ()) for p in range(len(RING)))
    hands = tuple(state.hands[seat] - sum(t.count(seat) for t in tracks_all) for seat in range(4))
    state = state._replace(tracks=tracks_all, hands=hands)
    state = state._replace(legal=game.derive_legal(state))
    return _both(game, state, action(A.PICK_CREW, 1))


def _both(game: Game, state: State, act) -> State:
    """``act`` on both engines from ``state``: the same state, the same options in the same order."""
    after = game.step(state, act)
    kernel = native.to_kernel(game, state)
    kernel.step(act)
    theirs = native.from_kernel(kernel)
    assert canonical(theirs) == canonical(after) and theirs.legal == after.legal
    return after


def _steps(*planets: int) -> tuple:
    return (*(action(A.SURVEY_STEP, p) for p in planets), action(A.SURVEY_STOP))


# -- checked at load ------------------------------------------------------------------------


def test_a_misspelt_direction_is_located_with_did_you_mean(tmp_path):
    problems = _problems(tmp_path, "- {effect: set_survey_direction, direction: counterclockwise}")
    assert len(problems) == 1 and re.search(r"crew\.yaml:\d+:\d+: .*did you mean 'counter_clockwise'", problems[0]), problems


def test_a_misspelt_survey_start_key_is_located_with_did_you_mean(tmp_path):
    problems = _problems(tmp_path, "- {effect: survey_start, befor_walk: []}")
    assert len(problems) == 1 and re.search(r"crew\.yaml:\d+:\d+: .*befor_walk.*did you mean 'before_walk'", problems[0]), problems


def test_a_skill_holds_at_most_one_survey_start(tmp_path):
    skill = "- {effect: survey_start, cubes: 2}\n- {effect: choose_one, options: [[{effect: survey_start}], [{effect: gain_vp, vp: 1}]]}"
    problems = _problems(tmp_path, skill)
    assert len(problems) == 1 and "a skill holds at most one survey_start" in problems[0], problems
    assert re.search(r"crew\.yaml:\d+:\d+: crew\.navigator\.skill\[1\]\.options\[0\]\[0\]\.effect", problems[0]), problems


def test_survey_start_stands_nowhere_a_member_is_bound(tmp_path):
    problems = _problems(tmp_path, "- {effect: for_each, planet: all, do: [{effect: survey_start}]}")
    assert any("survey_start names where this turn's survey starts" in p and "the do of for_each" in p for p in problems), problems


def test_the_before_walk_asks_no_decision(tmp_path):
    problems = _problems(tmp_path, "- {effect: survey_start, before_walk: [{effect: place_free_cubes}]}")
    assert any("'place_free_cubes' asks a decision, so it cannot stand in the do of survey_start" in p for p in problems), problems


def test_a_skip_limit_below_zero_is_refused(tmp_path):
    problems = _problems(tmp_path, "- {effect: may_skip_planets, at_most: -1}")
    assert len(problems) == 1 and "expected at least 0, found -1" in problems[0], problems


def test_a_skip_limit_that_reads_vp_is_refused_as_unbounded(tmp_path):
    problems = _problems(tmp_path, "- {effect: may_skip_planets, at_most: {vp: me}}")
    assert any("reads VP, so it has no bound" in p for p in problems), problems


# -- played -------------------------------------------------------------------------------


def test_r7_the_survey_starts_only_on_a_planet_of_its_set(tmp_path):
    """``planet: {where: {has_cube: me}}``: seat 0 has cubes on ocean-1 and dark only, so the
    survey may start there (or place nothing, R7), and walks on clockwise from it (R8)."""
    game = _game(tmp_path, "- {effect: survey_start, planet: {where: {has_cube: me}}}")
    chosen = _picked(game, {1: (0,), 4: (1, 0)})
    assert chosen.legal == _steps(1, 4)
    first = _both(game, chosen, action(A.SURVEY_STEP, 4))
    assert first.legal == _steps(5)


def test_r7_without_a_planet_of_its_set_the_survey_places_nothing(tmp_path):
    game = _game(tmp_path, "- {effect: survey_start, planet: {where: {has_cube: me}}}")
    chosen = _picked(game)
    assert chosen.legal == (action(A.SURVEY_STOP),)
    assert _both(game, chosen, action(A.SURVEY_STOP)).stage != SURVEYING


def test_before_walk_reads_the_start_planet_and_changes_the_room_the_walk_sees(tmp_path):
    """The before_walk returns the rearmost cube of the start Planet to its owner's hand: full
    ocean-1 becomes a start (its first cube has room after), and the seat whose cube it was
    gets it back; the survey then puts its own cube there (R2, R8)."""
    game = _game(tmp_path, "- {effect: survey_start, planet: full, before_walk: [{effect: return_cube}]}")
    chosen = _picked(game, {1: (1, 2, 3, 1, 2), 3: (1,)})
    assert chosen.legal == _steps(1)
    first = _both(game, chosen, action(A.SURVEY_STEP, 1))
    assert first.tracks[1] == (1, 2, 3, 1, 0) and first.hands[2] == chosen.hands[2] + 1


def test_a_start_cube_count_past_the_room_goes_on_from_the_filled_start(tmp_path):
    """Three cubes on the start Planet, which has two empty squares: two go there, and the walk
    goes on from it at once with the third (R8 skips the full Planet)."""
    game = _game(tmp_path, "- {effect: survey_start, cubes: 3}")
    chosen = _picked(game, {1: (1, 2, 3)})
    first = _both(game, chosen, action(A.SURVEY_STEP, 1))
    assert first.legal == _steps(1)
    second = _both(game, first, action(A.SURVEY_STEP, 1))
    assert second.legal == _steps(2)


def test_either_direction_with_one_skip_takes_the_way_that_skips_fewer(tmp_path):
    """From primordial-1, gas-1 and dark are next either way; diamond is dark's neighbour
    clockwise (one skip) and ocean-1 gas-1's counter-clockwise (one skip). The step names the
    direction and uses the skip (R8 changed)."""
    game = _game(tmp_path, "- {effect: choose_direction}\n- {effect: may_skip_planets, at_most: 1}")
    first = _both(game, _picked(game), action(A.SURVEY_STEP, 3))
    assert first.legal == _steps(1, 2, 4, 5)
    skipped = _both(game, first, action(A.SURVEY_STEP, 1))
    assert (skipped.survey_direction, skipped.survey_skips) == (A.COUNTER_CLOCKWISE, 0)
    assert skipped.legal == _steps(0)
    walked = _both(game, first, action(A.SURVEY_STEP, 4))
    assert (walked.survey_direction, walked.survey_skips) == (A.CLOCKWISE, 1)
    assert walked.legal == _steps(5, 6)


def test_the_latest_direction_holds(tmp_path):
    """counter_clockwise then either: the survey is one whole-walk decision both ways again."""
    game = _game(tmp_path, "- {effect: set_survey_direction, direction: counter_clockwise}\n- {effect: choose_direction}")
    chosen = _picked(game)
    assert {a.kind for a in chosen.legal} == {A.SURVEY}
    assert {a.direction for a in chosen.legal} == {A.CLOCKWISE, A.COUNTER_CLOCKWISE}
    forced = _picked(_game(tmp_path, "- {effect: choose_direction}\n- {effect: set_survey_direction, direction: counter_clockwise}"))
    assert {a.kind for a in forced.legal} == {A.SURVEY_STEP, A.SURVEY_STOP}


def test_an_unlimited_skip_after_a_limited_one_lifts_the_limit(tmp_path):
    game = _game(tmp_path, "- {effect: may_skip_planets, at_most: 1}\n- {effect: may_skip_planets}")
    assert _picked(game).survey_skips == NO_SKIP_LIMIT
    limited = _picked(_game(tmp_path, "- {effect: may_skip_planets}\n- {effect: may_skip_planets, at_most: {planets: full}}"))
    assert limited.survey_skips == 0


@pytest.mark.slow
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(documents=language_rulesets(), deal_seed=seeds, play_seed=seeds)
def test_every_survey_step_offered_puts_its_cube_there_once(documents, deal_seed, play_seed):
    """Over generated programs: a cube-by-cube survey's options are distinct, each step puts the
    surveyor's cube on the Planet it names (R7, R9), and both engines agree throughout."""
    game = Game(load_documents(documents))
    players = random.Random(deal_seed).choice(game.ruleset.player_counts)
    setup = game.deal(players, seed=deal_seed)
    if native.kernel_for(game) is not None:
        play_lockstep(game, setup, random.Random(play_seed))
    rng = random.Random(play_seed)
    state = game.new_state(setup=setup)
    theirs = kernel_state(game, setup) if native.kernel_for(game) is not None else None
    decisions = 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        assert len(set(legal)) == len(legal)
        if theirs is not None:  # the kernel lists the same options in the same order
            assert tuple(native.to_action(a) for a in theirs.legal()) == legal
        act = choose(game, state, rng)
        after, events = game.apply(state, act)
        if theirs is not None:
            theirs.step(act)
        if act.kind == A.SURVEY_STEP:
            seat = game.current_player(state)
            placed = [dict(event.params) for event in events if event.key == "cube_placed"]
            planet = game.ruleset.planets[state.planets[act.target]].id
            # (a survey start's before-walk effects, performed in the same step, may place or
            # return cubes there first: the cube lands on the rearmost square they leave)
            assert any(cube["owner"] == seat and cube["planet"] == planet for cube in placed)
            # What follows in the same step (a planet ability the cube sets off, an after-survey
            # skill once the survey ends) may move cubes on that track again.
            if len(placed) == 1 and not {event.key for event in events} & {"ability_triggered", "cube_returned", "cube_moved"}:
                assert after.tracks[act.target] == (*state.tracks[act.target], seat)
        # The bounds stay exact: the cubes a survey places and the skips it keeps (Game.bounds),
        # the options of a decision, and the decisions of a game (Game.most_moves).
        bounds = game.bounds
        assert after.survey_placed <= bounds.most_survey_placed and NO_SKIP_LIMIT <= after.survey_skips <= bounds.most_survey_skips
        assert len(after.legal) <= game.most_legal_actions
        decisions += 1
        check_cubes(game, after)
        state = after
    assert decisions <= game.most_moves


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_the_older_rulesets_never_keep_a_skip_limit(name):
    """Draft 7 and base know no skip limit: their states keep none (their games unchanged)."""
    game = Game(load_ruleset(name))
    rng = random.Random(3)
    state = game.new_state(players=4, seed=3)
    while not game.is_over(state):
        assert state.survey_skips == NO_SKIP_LIMIT
        state = game.step(state, rng.choice(game.legal_actions(state)))
