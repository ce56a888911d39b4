"""``take_free_cubes`` (docs/skills.md; idea R8): free cubes from the stock into a seat's hand,
as cubes of that seat's own.

Captain Armstrong's holder names the start player, and that player takes 1 free cube from the
stock (idea R8, written in the bundled ``ideas`` ruleset). Each worked example plays on the
Python engine and on the native kernel from the same position, and both must reach the same
state; the state counts, per seat, the cubes it took (``State.taken``), so that cube
conservation (R6, R13) still holds: a seat owns ``cubes_per_player`` plus those it took, the
free cubes in play are ``free_cubes`` less all those taken. Then the checkers of both engines,
the state JSON, the bounds, the text, and a property over generated rulesets.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from builders import armstrong, crew, deal_all, effect, game, keys, of, round_end
from verdicts import on_both
from differential import play_lockstep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_cubes
from strategies import choose, effect_of_type, generated_game, ruleset_documents, seeds

from stargazer_rules.engine import state_checks
from stargazer_rules.engine.game import Game
from stargazer_rules.formats.states_json import state_from_json, state_to_json, unproven_values
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.text.messages import describe_skill
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

#: Idea R8 as the ideas ruleset writes it: the naming first, then the cube to the start player.
R8_SKILL = [effect("name_start_player"), effect("take_free_cubes", to="start_player", when="round_end")]

#: The builders' crew area: Armstrong (slot 0), then w, x, y, z. A round of three players
#: picking Armstrong, w and y leaves x and z unpicked.
ARMSTRONG, W, X, Y, Z = range(5)


def r8_game(**rules) -> Game:
    """The builders' ruleset with Armstrong's skill of idea R8."""
    hero = crew("armstrong", 2, R8_SKILL, always_in_play=True)
    return game(crew=(hero, crew("w"), crew("x"), crew("y"), crew("z")), **rules)




def armstrong_round(named: int) -> list:
    """Seat 0 picks Armstrong, seats 1 and 2 pick w and y, nobody surveys; Armstrong's holder
    names seat ``named`` at the round's end."""
    picks = [act for slot in (ARMSTRONG, W, Y) for act in (action(A.PICK_CREW, slot), action(A.SURVEY, -1, 0))]
    return [*picks, action(A.NAME_START_PLAYER, named)]


# -- worked examples on both engines -----------------------------------------------------------


@pytest.mark.parametrize("named", [0, 1, 2])
def test_r8_the_named_start_player_takes_one_free_cube_as_its_own(named):
    """Idea R8: after R11's free cubes (x and z get one each, the stock 12 -> 10), Armstrong's
    holder names seat ``named``, which then takes 1 free cube: its hand is 13, the stock 9."""
    g = r8_game()
    state, events = on_both(g, g.new_state(setup=deal_all(g)), armstrong_round(named))
    assert state.start_player == named
    assert state.hands == tuple(13 if seat == named else 12 for seat in range(3))
    assert state.taken == tuple(1 if seat == named else 0 for seat in range(3))
    assert state.stock == 9
    assert sum(state.crew_free) == 2
    check_cubes(g, state)
    assert of(events, "free_cubes_taken") == [{"player": named, "crew": "armstrong", "free_cubes": 1}]
    # The naming resolves first, the cube after it: the effect reads the start player just named.
    assert keys(events).index("start_player_named") < keys(events).index("free_cubes_taken")


def test_r8_with_the_stock_empty_nothing_is_taken_and_the_effect_is_skipped():
    """Idea R8, R9: six free cubes in all, three on each of x and z: the stock is empty, so the
    start player takes none and the effect is skipped with an event."""
    g = r8_game(free_cubes=6)
    state = g.new_state(setup=deal_all(g))
    state = state._replace(crew_free=(0, 0, 3, 0, 3), stock=0)
    state = state._replace(legal=g.derive_legal(state))
    state, events = on_both(g, state, armstrong_round(1))
    assert (state.hands, state.taken, state.stock) == ((12, 12, 12), (0, 0, 0), 0)
    assert "free_cubes_taken" not in keys(events)
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "armstrong", "effect": "take_free_cubes", "remaining": 1}]


def test_removed_cubes_are_never_handed_out():
    """R6, R13: a seat's cubes removed by a motivation bonus stay out of play; only the stock's
    wooden free cubes are taken (here none are left)."""
    g = r8_game(free_cubes=6)
    state = g.new_state(setup=deal_all(g))
    state = state._replace(crew_free=(0, 0, 3, 0, 3), stock=0, hands=(10, 12, 12), removed=(2, 0, 0))
    state = state._replace(legal=g.derive_legal(state))
    state, _ = on_both(g, state, armstrong_round(0))
    assert (state.hands, state.removed, state.taken) == ((10, 12, 12), (2, 0, 0), (0, 0, 0))


def test_an_amount_for_each_seat_stops_when_the_stock_runs_out():
    """The amount is read once; seats take it in turn order from the chooser, each at most
    what the stock still holds: with 3 in the stock and 2 each, seat 1 takes 2, seat 2 one."""
    taker = crew("w", 2, [effect("take_free_cubes", count=2, to="everyone")])
    g = game(crew=(armstrong(), taker, crew("x"), crew("y"), crew("z")), free_cubes=3, round_end=round_end(cap=3))
    state = g.new_state(setup=deal_all(g))
    state, _ = on_both(g, state, [action(A.PICK_CREW, ARMSTRONG), action(A.SURVEY, -1, 0), action(A.PICK_CREW, W)])
    assert (state.hands, state.taken, state.stock) == ((12, 14, 13), (0, 2, 1), 0)


def test_taken_cubes_are_the_seats_own_on_the_board():
    """A taken cube is placed like any of the seat's own (R7): seat 0 takes 2 at its pick and
    surveys 14 cubes' worth of hand; conservation counts cubes_per_player + taken."""
    taker = crew("w", 3, [effect("take_free_cubes", count=2)])
    g = game(crew=(armstrong(), taker, crew("x"), crew("y"), crew("z")))
    state = g.new_state(setup=deal_all(g))
    state, _ = on_both(g, state, [action(A.PICK_CREW, W)])
    assert (state.hands[0], state.taken[0]) == (14, 2)
    survey = next(act for act in state.legal if act.kind == A.SURVEY and act.count == 3)
    state, _ = on_both(g, state, [survey])
    assert sum(track.count(0) for track in state.tracks) == 3 and state.hands[0] == 11
    check_cubes(g, state)


# -- the checkers, the state JSON and the bounds -------------------------------------------------


def test_both_checkers_count_taken_cubes_in_conservation():
    """A state whose seat holds a cube more than it owns is refused alike; counting the cube as
    taken (and the stock one fewer) makes it a state."""
    g = r8_game()
    state = g.new_state(setup=deal_all(g))
    extra = state._replace(hands=(13, 12, 12))
    problems = state_checks.state_problems(g, extra)
    assert problems == native.kernel_for(g).state_problems(extra)
    assert problems == ["$.seats[0]: seat 0 has 13 cubes (hand 13 + on the board 0 + removed 0), but each player has 12"]
    short = extra._replace(taken=(1, 0, 0))
    problems = state_checks.state_problems(g, short)
    assert problems == native.kernel_for(g).state_problems(short)
    assert problems == ["$.stock: 13 free cubes (stock 12 + on tracks 0 + on crew 0 + taken by seats 1), but the game has 12"]
    taken = short._replace(stock=11)
    assert state_checks.state_problems(g, taken) == native.kernel_for(g).state_problems(taken) == []


def test_a_ruleset_without_the_effect_takes_nothing():
    """Draft 7's states hold no taken cube: both checkers refuse one (its bound is 0)."""
    g = Game(load_ruleset("draft7"))
    state = g.new_state(setup=g.deal(3, 0))
    claimed = state._replace(hands=(13, *state.hands[1:]), stock=state.stock - 1, taken=(1, 0, 0))
    problems = state_checks.state_problems(g, claimed)
    assert problems == native.kernel_for(g).state_problems(claimed)
    assert problems == ["$.seats[0].hand: 13 is outside 0..12", "$.seats[0].taken: 1 is outside 0..0"]


def test_the_state_json_writes_taken_only_when_not_zero():
    """A seat that took cubes writes ``taken`` (and reads back equal, as an unproven value);
    a seat that took none, and so every state of draft 7, writes nothing new."""
    g = r8_game()
    state, _ = on_both(g, g.new_state(setup=deal_all(g)), armstrong_round(2))
    data = state_to_json(g, state)
    assert [seat.get("taken") for seat in data["seats"]] == [None, None, 1]
    assert state_from_json(g, data) == state
    assert "$.seats[2].taken = 1" in unproven_values(data)
    draft7 = Game(load_ruleset("draft7"))
    assert all(set(seat) == {"hand", "vp", "removed"} for seat in state_to_json(draft7, draft7.new_state(setup=draft7.deal(3, 0)))["seats"])


def test_the_bounds_widen_by_the_stock_only_with_the_effect():
    """A hand, a seat's cubes and the major-planet bonus may pass cubes_per_player by the
    stock's free cubes where the effect exists; the kernel receives the same bounds."""
    plain = game()
    with_r8 = r8_game()
    assert (plain.bounds.most_hand, plain.bounds.most_bonus_vp) == (12, 12)
    assert (with_r8.bounds.most_hand, with_r8.bounds.most_bonus_vp) == (24, 24)
    assert native.kernel_for(with_r8).bounds() == attrs.asdict(with_r8.bounds)
    ideas = Game(load_ruleset("ideas"))
    assert ideas.bounds.most_hand == ideas.ruleset.cubes_per_player + ideas.ruleset.free_cubes


def test_the_ideas_ruleset_writes_r8():
    """Idea R8 in the bundled ideas ruleset: Armstrong names the start player, who takes a free cube."""
    ideas = load_ruleset("ideas")
    card = ideas.crew_card("armstrong")
    assert [e.to_data() for e in card.skill] == [
        {"effect": "name_start_player", "when": "round_end"},
        {"effect": "take_free_cubes", "count": 1, "to": "start_player", "when": "round_end"},
    ]
    assert describe_skill(card, ideas, "en") == (
        "At the end of the round, unless it ends the game, name the next start player, yourself included. The start player takes 1 free "
        "cube from the stock into hand as a cube of their own (at the end of the round, unless it ends the game), if the stock has one."
    )
    assert "スタートプレイヤーが、ストックのフリーキューブ1個を自分のキューブとして手元に加える" in describe_skill(card, ideas, "ja")


def test_the_ideas_ruleset_plays_alike_on_both_engines():
    """Ideas' Armstrong (R8) in whole games: equal at every decision, every cube kept."""
    g = Game(load_ruleset("ideas"))
    took = 0
    for seed in range(6):
        rng = random.Random(seed)

        def policy(state, rng=rng):
            nonlocal took
            check_cubes(g, state)
            took = max(took, sum(state.taken))
            return choose(g, state, rng)

        play_lockstep(g, g.deal(3 + seed % 2, seed), rng, choose=policy)
    assert took > 0, "no start player ever took a free cube"


# -- a property over generated rulesets ----------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(documents=ruleset_documents(), deal_seed=seeds, play_seed=seeds, data=st.data())
def test_cubes_are_conserved_with_taken_cubes_on_both_engines(documents, deal_seed, play_seed, data) -> None:
    """R6, R11, R13 with idea R8: a generated ruleset whose first crew also takes free cubes (any
    count, seats and timing) keeps every cube, each seat owning cubes_per_player plus those it
    took, and plays alike on both engines."""
    documents = json.loads(json.dumps(documents))  # a copy: the drawn documents stay as drawn
    colours = [colour["id"] for colour in documents["rules.yaml"]["colours"]]
    card = documents["crew.yaml"]["crew"][0]
    card["skill"] = [*card["skill"], data.draw(effect_of_type("take_free_cubes", colours), label="take")]
    g = generated_game(documents)
    assert g.bounds.most_hand == g.ruleset.cubes_per_player + g.ruleset.free_cubes
    players = data.draw(st.sampled_from(sorted(g.ruleset.player_counts)), label="players")
    rng = random.Random(play_seed)

    def policy(state):
        check_cubes(g, state)
        assert sum(state.taken) <= g.ruleset.free_cubes
        return choose(g, state, rng)

    play_lockstep(g, g.deal(players, deal_seed), rng, choose=policy)
