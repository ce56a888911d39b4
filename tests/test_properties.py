"""Properties of random games, checked after every decision, on the bundled rulesets and on
generated valid rulesets (tests/strategies.py).

Every property runs on three sources: the bundled ``draft7`` and ``base``, and rulesets drawn by
``ruleset_documents`` (other track lengths and values, capacities, colours, player counts, rule
counts, and skills from every effect type). A game is played by the seeded ``choose`` policy;
see tests/strategies.py for why that policy, random as it is, always finishes a game.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from invariants import check_cubes, check_legal, play
from stargazer_rules import actions as A
from stargazer_rules.actions import Action
from stargazer_rules.effects import EFFECT_TYPES
from stargazer_rules.engine import HAND_EMPTY, OVER, PICK_CREW, PLANETS_FULL, ROUND_END_STAGE, Game, State
from stargazer_rules.errors import IllegalActionError
from strategies import (
    SOURCES,
    Playout,
    bundled_game,
    effect_of_type,
    load_documents,
    playouts,
    round_bound,
    ruleset_documents,
)

by_source = pytest.mark.parametrize("source", SOURCES)


def draw_playout(data: st.DataObject, source: str) -> Playout:
    return data.draw(playouts(source), label="playout")


# -- cube conservation and legal actions ----------------------------------------------------


@by_source
@given(data=st.data())
def test_cubes_are_conserved_after_every_action(source: str, data: st.DataObject) -> None:
    """R6, R11, R13: every player cube and every free cube is in exactly one place, always."""
    playout = draw_playout(data, source)
    for state in play(playout).states:
        check_cubes(playout.game, state)


@by_source
@given(data=st.data())
def test_legal_actions_are_listed_until_the_game_is_over_and_none_after(source: str, data: st.DataObject) -> None:
    """Illegal moves are data: a state lists its options until the game is over, then none."""
    playout = draw_playout(data, source)
    trajectory = play(playout)
    for state in trajectory.states:
        check_legal(playout.game, state)
    assert playout.game.is_over(trajectory.final)
    assert playout.game.legal_actions(trajectory.final) == ()


@by_source
@given(data=st.data())
def test_every_listed_action_applies(source: str, data: st.DataObject) -> None:
    """Every legal action of every state on the way applies, to a state that keeps the invariants."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        for act in game.legal_actions(state):
            after = game.step(state, act)
            check_cubes(game, after)
            check_legal(game, after)


@by_source
@given(data=st.data())
def test_an_unlisted_action_raises_and_changes_nothing(source: str, data: st.DataObject) -> None:
    """An action that is not legal raises IllegalActionError, with a reason, before doing anything."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        saved = pickle.loads(pickle.dumps(state))
        unlisted = Action(A.PICK_CREW, len(state.crew))  # no such crew slot: never legal
        with pytest.raises(IllegalActionError) as caught:
            game.apply(state, unlisted)
        assert str(caught.value)
        assert state == saved


@by_source
@given(data=st.data())
def test_apply_leaves_its_input_state_unchanged(source: str, data: st.DataObject) -> None:
    """A rule returns a new state and never edits one: the input equals a copy taken before."""
    playout = draw_playout(data, source)
    game = playout.game
    for before, act, after in play(playout).steps():
        saved = pickle.loads(pickle.dumps(before))
        assert game.apply(before, act)[0] == after
        assert game.step(before, act) == after
        assert before == saved
        hash(before)  # immutable all the way down: every field is hashable


# -- termination and the end of the game (R10) -----------------------------------------------


@by_source
@given(data=st.data())
def test_a_progressing_game_ends_within_the_derived_bound(source: str, data: st.DataObject) -> None:
    """R10: once every round places a cube, the game ends before the ring's squares run out."""
    playout = draw_playout(data, source)
    trajectory = play(playout)  # fails as soon as a round passes the bound
    final = trajectory.final
    assert final.stage == OVER
    assert final.round <= round_bound(playout.game, trajectory.states[0])


@by_source
@given(data=st.data())
def test_the_game_ends_exactly_when_an_end_condition_holds_at_round_end(source: str, data: st.DataObject) -> None:
    """R10: checked only at the end of a round; it ends then if a hand is empty or enough Planets are full."""
    playout = draw_playout(data, source)
    game = playout.game
    trajectory = play(playout)
    for state in trajectory.states:
        triggers = _end_triggers(game, state)
        at_round_end = state.stage == ROUND_END_STAGE or (state.stage == PICK_CREW and state.turn == 0 and state.round > 1)
        if at_round_end:
            assert triggers == (), f"round {state.round - (state.stage == PICK_CREW)} went on despite {triggers}"
        elif state.stage == OVER:
            assert state.turn == state.players, "the game ended mid-round"
            assert state.triggers == triggers and triggers, (state.triggers, triggers)
    assert sum(state.stage == OVER for state in trajectory.states) == 1


def _end_triggers(game: Game, state: State) -> tuple[str, ...]:
    """The R10 end conditions that hold on the board of ``state``, in the engine's order."""
    triggers = []
    if 0 in state.hands:
        triggers.append(HAND_EMPTY)
    full = sum(len(track) == game.ruleset.planets[card].length for track, card in zip(state.tracks, state.planets))
    if full >= game.ruleset.setups[state.players].full_planets_to_end:
        triggers.append(PLANETS_FULL)
    return tuple(triggers)


def test_r7_r10_a_game_where_nobody_places_a_cube_never_ends() -> None:
    """R7 allows placing no cube and R10 ends a game only by cubes: passing forever is a legal game.

    A rules issue, not an engine bug: nothing in the rules ends such a game. The properties
    above therefore play with a policy that progresses after a few random rounds.
    """
    game = bundled_game("base")
    state = game.new_state(players=3, seed=1)
    for _ in range(1000):
        if state.stage == "survey":
            act = Action(A.SURVEY, -1, 0)
        else:
            act = game.legal_actions(state)[0]
        state = game.step(state, act)
    assert not game.is_over(state)
    assert state.round > 100
    assert state.hands == (12, 12, 12)
    assert state.tracks == ((),) * 5


# -- determinism ----------------------------------------------------------------------------


@by_source
@given(data=st.data())
def test_the_same_seed_and_actions_give_equal_states(source: str, data: st.DataObject) -> None:
    """The deal depends only on the seed, and every state only on the deal and the actions."""
    playout = draw_playout(data, source)
    game = playout.game
    trajectory = play(playout)
    state = playout.new_state()
    assert state == trajectory.states[0]
    assert game.deal(playout.players, playout.deal_seed) == game.deal(playout.players, playout.deal_seed)
    for act, expected in zip(trajectory.actions, trajectory.states[1:]):
        state, events = game.apply(state, act)
        assert state == expected
    assert play(playout) == trajectory


# -- scores (R15-R18) -----------------------------------------------------------------------


@by_source
@given(data=st.data())
def test_scores_add_up_at_every_step(source: str, data: st.DataObject) -> None:
    """R16-R18: total = majority + major-planet bonus + VP from play; there is always a winner."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        sheet = game.score(state)  # provisional mid-game, final at the end
        assert sheet.final == game.is_over(state)
        assert len(sheet.seats) == state.players
        for seat in sheet.seats:
            assert seat.total == seat.majority_vp + seat.bonus_vp + seat.play_vp, seat
            assert seat.play_vp == state.vp[seat.seat]
            assert seat.bonus_vp == seat.bonus_count * len(seat.bonus_colours), seat
            assert seat.majority_vp == sum(
                standing.vp for planet in sheet.planets for standing in planet.standings if standing.owner == seat.seat
            )
        for planet, track in zip(sheet.planets, state.tracks):
            assert sum(standing.cubes for standing in planet.standings) == len(track)
            assert [standing.rank for standing in planet.standings] == list(range(1, len(planet.standings) + 1))
        assert sheet.winners, "no winner"
        best = max((seat.total, seat.hand) for seat in sheet.seats)
        assert sheet.winners == tuple(s.seat for s in sheet.seats if (s.total, s.hand) == best)


# -- the generated rulesets themselves ------------------------------------------------------


@given(documents=ruleset_documents())
def test_generated_rulesets_load_with_their_knobs(documents: dict) -> None:
    """The strategy draws only valid rulesets, and the loader keeps every knob it drew."""
    ruleset = load_documents(documents)
    rules = documents["rules.yaml"]
    assert [card.track for card in ruleset.planets] == [
        tuple(card["track"]) for card in documents["planets.yaml"]["planets"]
    ]
    assert [card.special_capacity for card in ruleset.planets] == [
        card.get("special_capacity", 1) for card in documents["planets.yaml"]["planets"]
    ]
    assert ruleset.player_counts == tuple(sorted(entry["players"] for entry in rules["player_counts"]))
    assert ruleset.cubes_per_player == rules["cubes_per_player"]
    assert ruleset.free_cubes == rules["free_cubes"]
    assert ruleset.survey_minimum == rules.get("survey", {}).get("minimum", 0)
    assert [len(card.skill) for card in ruleset.crew] == [len(card["skill"]) for card in documents["crew.yaml"]["crew"]]


@pytest.mark.parametrize("effect_name", sorted(EFFECT_TYPES))
@given(data=st.data())
def test_every_effect_type_is_generated_and_loads(effect_name: str, data: st.DataObject) -> None:
    """The skill strategy covers every effect type of the registry, built from its declarations."""
    colours = ["k0", "k1"]
    item = data.draw(effect_of_type(effect_name, colours), label="effect")
    documents = data.draw(ruleset_documents(), label="documents")
    documents["rules.yaml"]["colours"] = [{"id": c, "name": {"ja": c, "en": c}} for c in colours]
    for card in documents["planets.yaml"]["planets"]:
        card["colour"] = "k0"
    for card in documents["crew.yaml"]["crew"]:
        card["skill"] = []
    documents["crew.yaml"]["crew"][0]["skill"] = [item]
    ruleset = load_documents(documents)
    assert ruleset.crew[0].skill[0].name == effect_name


CHOICES = [
    (effect_name, param.name, value)
    for effect_name, cls in sorted(EFFECT_TYPES.items())
    for param in cls.params
    if param.kind == "choice"
    for value in param.choices
]


@pytest.mark.parametrize(("effect_name", "param", "value"), CHOICES)
@given(data=st.data())
def test_every_choice_of_every_effect_is_generated_and_loads(
    effect_name: str, param: str, value: str, data: st.DataObject
) -> None:
    """Each value of each choice parameter (place_on_special's any, colour, surveyed) is drawn
    with a timing it allows, and loads."""
    item = data.draw(effect_of_type(effect_name, ["k0"], fixed={param: value}), label="effect")
    documents = data.draw(ruleset_documents(), label="documents")
    documents["crew.yaml"]["crew"][0]["skill"] = [_recoloured(item)]
    ruleset = load_documents(documents)
    assert getattr(ruleset.crew[0].skill[0], param) == value


def _recoloured(item: dict) -> dict:
    """``item`` with colour k0, which every generated ruleset has."""
    return {key: ("k0" if key == "colour" else value) for key, value in item.items()}
