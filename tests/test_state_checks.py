"""One checker of what a state may hold, in both engines: the Python ``state_checks`` and the
kernel's ``check.rs`` refuse the same states with the same reasons, and play the states both
accept identically.

The extreme states are the in-range but impossible ones: every hand at 32767, a survey bonus of
+-2**20, 2**20 cubes placed, a pending effect with 2**32-1 steps left, each at a moment of
every stage of draft7 and base games; and each field just past the bound the ruleset derives
(``Game.bounds``), and at it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verdicts import assert_same_verdict
from strategies import BUNDLED, bundled_game, choose, generated_playouts, seeds
from stargazer_rules import Game, State
from stargazer_rules.engine import state_checks
from stargazer_rules.kernel import native

#: The extreme values of the issue, by field.
EXTREMES = (
    ("hands", 2**15 - 1),
    ("survey_bonus", 2**20),
    ("survey_bonus", -(2**20)),
    ("survey_placed", 2**20),
    ("remaining", 2**32 - 1),
)


def _moments(game: Game, games: int = 6) -> Iterator[State]:
    """One state of each stage (and each kind of pending effect) reached in seeded random games."""
    seen = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(players=max(game.ruleset.player_counts), seed=seed)
        while True:
            key = (state.stage, state.pending[0].path if state.pending else None, state.survey_rules)
            if key not in seen:
                seen.add(key)
                yield state
            if not state.legal:
                break
            state = game.step(state, rng.choice(state.legal))


def _with(state: State, field: str, value: int) -> State | None:
    if field == "hands":
        return state._replace(hands=(value,) * state.players)
    if field == "remaining":
        if not state.pending:
            return None
        return state._replace(pending=(state.pending[0]._replace(remaining=value), *state.pending[1:]))
    return state._replace(**{field: value})


def _bounded_values(game: Game) -> list[tuple[str, int]]:
    """Each bounded field at its most and one past it (``Game.bounds``)."""
    b = game.bounds
    values = []
    for field, most in (("hands", b.most_hand), ("survey_placed", b.most_survey_placed), ("remaining", b.most_steps)):
        values += [(field, most), (field, most + 1)]
    values += [("survey_bonus", b.most_survey_bonus), ("survey_bonus", b.most_survey_bonus + 1)]
    values += [("survey_bonus", b.least_survey_bonus), ("survey_bonus", b.least_survey_bonus - 1)]
    values += [("round", b.most_round), ("round", b.most_round + 1), ("stock", b.most_stock + 1)]
    return values


def _extreme_states(game: Game, values) -> list[tuple[str, State]]:
    states = []
    for moment in _moments(game):
        for field, value in values:
            changed = _with(moment, field, value)
            if changed is not None:
                states.append((f"{field}={value} at {moment.stage}", changed))
    return states


def test_the_extreme_states_are_refused_by_both_engines_with_the_same_reasons() -> None:
    """Hands 32767, survey bonus +-2**20, 2**20 placed, 2**32-1 steps left, at every stage of
    draft7 and base games: never a state of either (R7, R13); both checkers name the same
    fields and bounds."""
    checked = 0
    for name in BUNDLED:
        game = bundled_game(name)
        states = _extreme_states(game, EXTREMES)
        refused = [label for label, state in states if assert_same_verdict(game, state, label)]
        assert refused == [label for label, _ in states], name
        checked += len(states)
    assert checked >= 33


def test_an_extreme_hand_is_refused_at_its_seat_with_the_bound() -> None:
    """The reason names the path, the value and the ruleset's bound (R13: 12 cubes a player)."""
    game = bundled_game("draft7")
    state = game.new_state(players=4, seed=1)
    problems = state_checks.state_problems(game, state._replace(hands=(2**15 - 1, 12, 12, 12)))
    assert problems[0] == "$.seats[0].hand: 32767 is outside 0..12"
    assert native.kernel_for(game).state_problems(state._replace(hands=(2**15 - 1, 12, 12, 12)))[0] == problems[0]


def test_a_seat_list_of_the_wrong_length_is_counted_in_words_by_both_engines() -> None:
    """One hand listed for four players reads "1 seat", two read "2 seats" (the one plural rule)."""
    game = bundled_game("draft7")
    state = game.new_state(players=4, seed=1)
    for hands, words in (((12,), "lists 1 seat for 4 players"), ((12, 12), "lists 2 seats for 4 players")):
        broken = state._replace(hands=hands)
        assert state_checks.state_problems(game, broken) == [f"$.seats: {words}"]
        assert native.kernel_for(game).state_problems(broken) == [f"$.seats: {words}"]


def test_a_pending_effect_with_more_steps_than_its_count_is_refused() -> None:
    """Armstrong's name_start_player resolves once (R12): 2**32-1 steps left is refused by both."""
    game = bundled_game("draft7")
    state = next(s for s in _moments(game) if s.stage == "round_end")
    state = state._replace(pending=(state.pending[0]._replace(remaining=2**32 - 1),))
    expected = ["$.pending[0].remaining: 4294967295 steps left of 'name_start_player', which has 1"]
    assert state_checks.state_problems(game, state) == expected
    assert native.kernel_for(game).state_problems(state) == expected


@pytest.mark.parametrize("name", BUNDLED)
def test_each_bound_is_the_same_in_both_engines_at_it_and_past_it(name: str) -> None:
    """At its bound a field is accepted (if the rest is a state) and one past it refused, by both."""
    game = bundled_game(name)
    for label, state in _extreme_states(game, _bounded_values(game)):
        assert_same_verdict(game, state, label)


def test_the_kernel_derives_the_python_bounds_of_the_bundled_rulesets() -> None:
    for name in BUNDLED:
        game = bundled_game(name)
        assert native.kernel_for(game).bounds() == attrs.asdict(game.bounds), name


FIELD_VALUES = st.integers(-3, 40) | st.sampled_from([2**15 - 1, 2**20, -(2**20), 2**31, 2**32 - 1])
INT_FIELDS = ("stock", "round", "start_player", "turn", "survey_rules", "survey_bonus", "survey_placed", "survey_last", "survey_direction")
SEAT_FIELDS = ("hands", "vp", "removed")
CREW_FIELDS = ("crew_free", "workers")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, steps=st.integers(0, 60), field=st.sampled_from(INT_FIELDS + SEAT_FIELDS + CREW_FIELDS + ("remaining", "stage")), index=st.integers(0, 6), value=FIELD_VALUES)
def test_a_corrupted_field_gets_the_same_verdict_from_both_checkers(seed, steps, field, index, value) -> None:
    """One number of a reached draft7 state changed: the same problems from both checkers, or
    the same play."""
    game = bundled_game("draft7")
    rng = random.Random(seed)
    state = game.new_state(players=4, seed=seed)
    for _ in range(steps):
        if not state.legal:
            break
        state = game.step(state, rng.choice(state.legal))
    if field in SEAT_FIELDS or field in CREW_FIELDS:
        values = list(getattr(state, field))
        values[index % len(values)] = value
        changed = state._replace(**{field: tuple(values)})
    elif field == "stage":
        changed = state._replace(stage=(*state_checks.STAGES, "lunch")[index])
    else:
        changed = _with(state, field, value)
        if changed is None:
            return
    assert_same_verdict(game, changed, f"{field}={value}")


@pytest.mark.slow
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated_playouts())
def test_every_state_of_a_random_game_of_a_generated_ruleset_passes_both_checkers(playout) -> None:
    """The bounds hold over random valid rulesets: no state the Python engine reaches is refused."""
    game = playout.game
    kernel = native.kernel_for(game)
    assert kernel is not None, native.fallback_reason(game)
    assert kernel.bounds() == attrs.asdict(game.bounds)
    rng = playout.policy()
    state = playout.new_state()
    while True:
        assert state_checks.state_problems(game, state) == []
        assert kernel.state_problems(state) == []
        if not state.legal:
            break
        state = game.step(state, choose(game, state, rng))
