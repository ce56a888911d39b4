"""``return_cube`` and ``move_cube`` with ``square: special`` (docs/skills.md): a cube taken off a
Planet's special square (R3) rather than its track (R2).

On a special square the cube taken is the one placed last of the owners named (the track's
"furthest back" read along the order the cubes were placed); the cubes placed before it keep
their places, and the events name square 0, as ``cube_placed`` does. Each worked example plays
on the Python engine and on the native kernel from the same position, and both must reach the
same state; then the loader's located errors, the read-back and whole games in lockstep.
"""

from __future__ import annotations

import random

import pytest
from builders import armstrong, crew, deal_all, effect, game, keys, of, planet, ruleset_data
from differential import play_lockstep
from invariants import check_cubes
from strategies import choose
from verdicts import on_both

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.text.messages import describe_skill
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

#: Five Planets a..e whose special squares hold two cubes each (R3's knob).
ROOMY = tuple(planet(pid, colour, [1, 2, 3, 4], special_capacity=2) for pid, colour in zip("abcde", ("red", "blue", "yellow", "green", "red")))

#: The builders' crew area: Armstrong (slot 0), then w, x, y, z.
ARMSTRONG, W = 0, 1


def special_game(skill) -> Game:
    """Crew w holds ``skill``; the others have none."""
    return game(planets=ROOMY, crew=(armstrong(), crew("w", 2, skill), crew("x"), crew("y"), crew("z")))




def with_specials(g: Game, specials: tuple[tuple[int, ...], ...]) -> State:
    """The dealt start with ``specials`` on the special squares (placed first first), the cubes
    taken from their owners' hands."""
    state = g.new_state(setup=deal_all(g))
    hands = list(state.hands)
    for owners in specials:
        for owner in owners:
            hands[owner] -= 1
    state = state._replace(specials=specials, hands=tuple(hands))
    return state._replace(legal=g.derive_legal(state))


PICK_W = [action(A.PICK_CREW, W)]


def test_return_cube__the_cube_placed_last_on_the_special_square_goes_back_to_its_owner():
    """R3: a has seat 0's cube, then seat 1's, on its special square; the one placed last
    (seat 1's) goes back to seat 1's hand, seat 0's stays; the event names square 0."""
    g = special_game([effect("return_cube", planet="all", square="special")])
    state, events = on_both(g, with_specials(g, ((0, 1), (), (), (), ())), PICK_W)
    assert state.specials == ((0,), (), (), (), ())
    assert state.hands == (11, 12, 12)
    check_cubes(g, state)
    assert of(events, "cube_returned") == [{"player": 0, "crew": "w", "owner": 1, "planet": "a", "square": 0, "to": "hand"}]


def test_return_cube__an_owners_cube_to_the_stock_leaves_play_and_the_track_is_untouched():
    """owner me, to stock: seat 0's cube on b's special square is removed (R6's removed count,
    so R13's conservation holds); seat 2's placed after it and b's track stay as they are."""
    g = special_game([effect("return_cube", planet="all", owner="me", to="stock", square="special")])
    state = with_specials(g, ((), (0, 2), (), (), ()))
    state = state._replace(tracks=((), (0,), (), (), ()), hands=(10, 12, 11))
    state = state._replace(legal=g.derive_legal(state))
    state, events = on_both(g, state, PICK_W)
    assert (state.specials[1], state.tracks[1]) == ((2,), (0,))
    assert (state.hands, state.removed) == ((10, 12, 11), (1, 0, 0))
    check_cubes(g, state)
    assert of(events, "cube_returned") == [{"player": 0, "crew": "w", "owner": 0, "planet": "b", "square": 0, "to": "stock"}]


def test_return_cube__an_empty_special_square_skips_the_effect():
    """R9: no cube on any special square, so nothing is returned and the effect is skipped,
    though the tracks hold cubes."""
    g = special_game([effect("return_cube", planet="all", square="special")])
    state = with_specials(g, ((), (), (), (), ()))
    state = state._replace(tracks=((1,), (), (), (), ()), hands=(12, 11, 12))
    state = state._replace(legal=g.derive_legal(state))
    state, events = on_both(g, state, PICK_W)
    assert state.tracks[0] == (1,)
    assert "cube_returned" not in keys(events)
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "w", "effect": "return_cube", "remaining": 1}]


def test_move_cube__from_the_special_square_to_the_next_planets_rearmost_square():
    """move_cube with square special: seat 1's cube on a's special square moves to b's square 1
    (the next Planet with room, R2); it leaves square 0."""
    g = special_game([effect("move_cube", planet="all", owner="anyone", square="special")])
    state, events = on_both(g, with_specials(g, ((1,), (), (), (), ())), PICK_W)
    assert (state.specials[0], state.tracks[1]) == ((), (1,))
    check_cubes(g, state)
    assert of(events, "cube_moved") == [{"player": 0, "crew": "w", "owner": 1, "planet": "a", "square": 0}]
    assert {"owner": 1, "planet": "b", "square": 1} in of(events, "cube_placed")


def test_a_protected_seats_cube_is_passed_over_on_the_special_square_too():
    """protect_cubes: seat 1's cube (placed last) is out of reach, so seat 0's is returned."""
    g = special_game([effect("return_cube", planet="all", square="special")])
    state = with_specials(g, ((0, 1), (), (), (), ()))
    state = state._replace(protected=(0, 2, 0))
    state = state._replace(legal=g.derive_legal(state))
    state, _ = on_both(g, state, PICK_W)
    assert (state.specials[0], state.hands) == ((1,), (12, 11, 12))


def test_the_returned_cube_no_longer_scores_the_major_planet_bonus():
    """R17 counts special squares: after seat 1's cube leaves a's special square the score
    sheets of both engines count one cube fewer for seat 1."""
    g = special_game([effect("return_cube", planet="all", square="special")])
    state = with_specials(g, ((1, 1), (), (), (), ()))
    before = g.score(state).seats[1].bonus_vp
    state, _ = on_both(g, state, PICK_W)
    kernel = native.to_kernel(g, state)
    sheet = g.score(state)
    assert (before, sheet.seats[1].bonus_vp) == (2, 1)
    assert [line[1] for line in kernel.seat_totals()] == [seat.bonus_vp for seat in sheet.seats]


def test_a_ruleset_written_before_square_keeps_its_data():
    """The default square (rearmost) is left out of the effect's data, so a ruleset written
    before the parameter keeps its fingerprint."""
    g = special_game([effect("return_cube", planet="all"), effect("move_cube", planet="all", square="special")])
    returning, moving = g.ruleset.crew[W].skill
    assert "square" not in returning.to_data()
    assert moving.to_data()["square"] == "special"


# -- located errors --------------------------------------------------------------------------


def load_problem(tmp_path, skill) -> str:
    """The loader's message for a ruleset whose crew w holds ``skill``."""
    import yaml

    from stargazer_rules.rulesets.loader import load_ruleset

    for file_name, document in ruleset_data(planets=ROOMY, crew=(armstrong(), crew("w", 2, skill), crew("x"), crew("y"), crew("z"))).items():
        (tmp_path / file_name).write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path)
    return str(caught.value)


@pytest.mark.parametrize("effect_name", ["return_cube", "move_cube"])
def test_a_misspelt_square_is_named_with_a_suggestion(tmp_path, effect_name):
    message = load_problem(tmp_path, [effect(effect_name, planet="all", owner="anyone", square="specal")])
    assert "crew.yaml" in message and "square" in message
    assert "did you mean 'special'" in message


@pytest.mark.parametrize("effect_name", ["return_cube", "move_cube"])
def test_a_free_cube_is_never_taken_off_a_special_square(tmp_path, effect_name):
    message = load_problem(tmp_path, [effect(effect_name, planet="all", owner="free", square="special")])
    assert "crew.yaml" in message
    assert f"{effect_name} with square special needs an owner other than free" in message


# -- read-back -------------------------------------------------------------------------------


def test_the_read_back_says_the_special_square_in_both_languages():
    g = special_game([effect("return_cube", planet="all", owner="me", square="special")])
    card = g.ruleset.crew[W]
    en = describe_skill(card, g.ruleset, "en")
    ja = describe_skill(card, g.ruleset, "ja")
    assert "Your cube placed last on the special square of" in en and "returns to your hand" in en
    assert "特務マスに最後に置かれた自分のキューブを手元に戻す" in ja


# -- whole games in lockstep -----------------------------------------------------------------


def test_games_that_fill_and_empty_special_squares_play_alike_on_both_engines():
    """A crew puts the chooser's cube on every special square, others take cubes off them (to
    hand, to the stock, onto a track): both engines agree at every decision and on the score
    sheet (R17 counts special squares), every cube kept (R13)."""
    skills = (
        [effect("place_cube", planet="all", square="special")],
        [effect("return_cube", planet="all", square="special", when="after_survey")],
        [effect("return_cube", planet="all", owner="others", to="stock", square="special")],
        [effect("move_cube", planet="all", owner="anyone", square="special", when="after_survey")],
    )
    g = game(planets=ROOMY, crew=(armstrong(), *(crew(cid, 2, skill) for cid, skill in zip("wxyz", skills))))
    taken_off = 0
    for seed in range(6):
        rng = random.Random(seed)
        last: list[int] = [0]

        def policy(state, rng=rng, last=last):
            nonlocal taken_off
            check_cubes(g, state)
            on_specials = sum(map(len, state.specials))
            taken_off += on_specials < last[0]
            last[0] = on_specials
            return choose(g, state, rng)

        play_lockstep(g, deal_all(g), rng, choose=policy)
    assert taken_off > 0, "no cube ever left a special square"
