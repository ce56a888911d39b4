"""Worked examples of the rulings R1-R14 and R19 of RULES.md, played through ``Game.apply``.

Scoring (R15-R18) is in test_scoring.py and the skill vocabulary in test_effects.py. Each test
plays a small ruleset (tests/builders.py) with an explicit deal: Planets a, b, c, ... in ring
order, Armstrong in slot 0 of the crew area, then the dealt crew in file order.
"""

from __future__ import annotations

import copy

import pytest
from builders import (
    Script,
    armstrong,
    crew,
    effect,
    game,
    keys,
    of,
    planet,
    player_count,
    ruleset,
    unpicked_crews,
)

from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.errors import IllegalActionError, SetupError
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action

CW, CCW = A.CLOCKWISE, A.COUNTER_CLOCKWISE
PLANETS = ["a", "b", "c", "d", "e"]


def bundled(name: str) -> Game:
    from stargazer_rules.rulesets.loader import load_ruleset

    return Game(load_ruleset(name))


def ring(*tracks: list[int], colours: str = "rbygk", special_capacity: int | None = None) -> list[dict]:
    """Planets a, b, c, ... with the given track values, colours from ``colours`` (one letter each)."""
    names = {"r": "red", "b": "blue", "y": "yellow", "g": "green", "k": "black"}
    return [planet(chr(ord("a") + i), names[colours[i]], values, special_capacity) for i, values in enumerate(tracks)]


def placed(events) -> list[tuple[int, str, int]]:
    """The cube_placed events as (owner, planet, square)."""
    return [(e["owner"], e["planet"], e["square"]) for e in of(events, "cube_placed")]


# -- R1, R2: the track ----------------------------------------------------------------------


def test_r1_track_length_and_values_come_from_the_planet_card():
    """R1: a card's track values (0 an accident) and its length L are planet data."""
    rules = ruleset(planets=ring([1, 2, 0, 4], [3], [5, 0], [1, 1, 1, 1, 1, 1, 1], [2, 2]))
    assert [card.track for card in rules.planets] == [(1, 2, 0, 4), (3,), (5, 0), (1,) * 7, (2, 2)]
    assert [card.length for card in rules.planets] == [4, 1, 2, 7, 2]


def test_r2_cubes_fill_square_one_first_one_cube_per_square():
    """R2: each cube goes on the lowest-numbered empty square, just behind the rearmost cube."""
    s = Script(game())
    first = s.turn("w", "a", 1)
    second = s.turn("x", "a", 1)
    third = s.turn("y", "a", 1)
    assert placed(first + second + third) == [(0, "a", 1), (1, "a", 2), (2, "a", 3)]
    assert s.track("a") == (0, 1, 2)
    assert s.state.hands == (11, 11, 11)


def test_r2_planet_is_full_when_every_normal_square_holds_a_cube():
    """R2: a Planet with all L squares filled is full and no survey can start on it."""
    s = Script(game(planets=ring([1, 2], [1, 2, 3], [1, 2, 3])))
    s.turn("w", "a", 1)
    s.pick("x")
    assert ("a", 1, CW) in s.survey_options()
    s.survey("a", 1)
    assert s.track("a") == (0, 1)
    s.pick("y")
    assert [start for start, _, _ in s.survey_options()] == [None, "b", "b", "c", "c"]


# -- R3: the special square -----------------------------------------------------------------


def test_r3_special_square_holds_special_capacity_cubes():
    """R3: a special square takes at most special_capacity cubes (default 1; 2 and 0 from data)."""
    planets = [
        planet("a", "red", [1, 2]),
        planet("b", "blue", [1, 2], special_capacity=2),
        planet("c", "green", [1, 2], special_capacity=0),
    ]
    g = game(planets=planets, crew=[armstrong(), crew("g", 2, [effect("place_on_special")]), crew("x"), crew("y")])
    s = Script(g)
    offered = []
    for _ in range(3):
        s.pick("g")
        offered.append(s.targets(A.TARGET_PLANET))
        s.target_planet(offered[-1][-1])
        s.survey_none()
        s.turn("x")
        s.turn("y")
    assert offered == [["a", "b"], ["a", "b"], ["a"]]
    assert (s.special("a"), s.special("b"), s.special("c")) == ((0,), (0, 0), ())
    events = s.pick("g")
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "g", "effect": "place_on_special", "remaining": 1}]
    assert s.state.stage == "survey"


def test_r3_special_cubes_never_count_for_majority_fullness_or_the_end():
    """R3: cubes on a special square leave the track, its fullness and the R10 end check alone."""
    planets = [planet("a", "red", [5], special_capacity=2), planet("b", "blue", [1, 2, 3])]
    g = game(
        planets=planets,
        crew=[armstrong(), crew("g", 2, [effect("place_on_special", count=2)]), crew("x"), crew("y")],
        full_planets_to_end=1,
    )
    s = Script(g)
    s.pick("g")
    s.target_planet("a")
    s.target_planet("a")
    assert s.special("a") == (0, 0)
    assert s.track("a") == ()
    assert ("a", 1, CW) in s.survey_options()  # a is not full: its one normal square is empty
    s.survey_none()
    s.turn("x")
    s.turn("y")
    assert s.state.stage == "pick_crew"
    assert s.state.round == 2
    assert s.state.triggers == ()
    sheet = g.score(s.state)
    assert sheet.planets[0].standings == ()
    assert sheet.planets[0].full is False
    assert sheet.seats[0].majority_vp == 0
    assert sheet.seats[0].bonus_vp == 2  # ...but they count for the major-planet bonus (R17)
    assert sheet.seats[0].colour_counts == (("red", 2),)


# -- R4: the ring and the seats -------------------------------------------------------------


def test_r4_walk_goes_clockwise_in_deal_order_and_wraps():
    """R4: clockwise is increasing ring index, wrapping from the last Planet to the first."""
    s = Script(game(crew=[armstrong(), crew("w", 3), crew("x"), crew("y"), crew("z")]))
    s.pick("w")
    events = s.survey("e", 3)
    assert placed(events) == [(0, "e", 1), (0, "a", 1), (0, "b", 1)]


def test_r4_ring_order_is_the_deal_order():
    """R4: the ring is the order of the setup's planets, not the order of the planet file."""
    g = game()
    s = Script(g, g.new_state(setup=Setup(3, ("c", "e", "a", "b", "d"), ("w", "x", "y", "z"))))
    s.pick("w")
    assert placed(s.survey("a", 2)) == [(0, "a", 1), (0, "b", 1)]
    s.pick("x")
    assert placed(s.survey("e", 2)) == [(1, "e", 1), (1, "a", 2)]


def test_r4_turns_pass_to_the_next_seat_and_wrap():
    """R4: from the start player, each next turn is the next seat, wrapping to seat 0."""
    s = Script(game(), start_player=2)
    seats = []
    for crew_id in ("w", "x", "y"):
        seats.append(s.player)
        s.turn(crew_id)
    assert seats == [2, 0, 1]
    assert [e["player"] for e in of(s.events, "crew_chosen")] == [2, 0, 1]
    assert [e["player"] for e in of(s.events, "turn_ended")] == [2, 0, 1]


# -- R5, R6: choosing a crew and the motivation bonus ---------------------------------------


def test_r5_worker_then_motivation_bonus_then_skill():
    """R5: choosing a crew places the worker, then takes the motivation bonus, then runs the skill."""
    g = game(crew=[armstrong(), crew("h", 2, [effect("gain_vp", vp=2)]), crew("x"), crew("y"), crew("z")])
    s = Script(g)
    for crew_id in ("x", "y", "z"):
        s.turn(crew_id)
    assert s.free_on("h") == 1
    events = s.pick("h")
    assert [(e.key, dict(e.params)) for e in events] == [
        ("crew_chosen", {"player": 0, "crew": "h"}),
        ("motivation_bonus", {"player": 0, "crew": "h", "free_cubes": 1, "player_cubes": 0, "vp": 1}),
        ("vp_gained", {"player": 0, "crew": "h", "vp": 2}),
    ]
    assert s.state.workers[s.slot("h")] == 0
    assert s.state.vp == (3, 0, 0)
    assert s.state.stage == "survey"


def test_r5_only_crews_without_a_worker_can_be_chosen():
    """R5: a crew is available while no worker is on it this round."""
    s = Script(game())
    assert s.legal == tuple(action(A.PICK_CREW, slot) for slot in range(5))
    s.turn("x")
    assert s.legal == tuple(action(A.PICK_CREW, slot) for slot in (0, 1, 3, 4))
    s.turn("armstrong")
    assert s.legal == tuple(action(A.PICK_CREW, slot) for slot in (1, 3, 4))


def test_r6_free_cubes_score_one_vp_each_and_go_back_to_the_stock():
    """R6: free cubes on the chosen crew score free_cube_vp each and return to the stock."""
    s = Script(game())
    for _ in range(2):
        for crew_id in ("w", "y", "z"):
            s.turn(crew_id)
    assert (s.free_on("x"), s.free_on("armstrong"), s.state.stock) == (2, 2, 8)
    events = s.pick("x")
    assert of(events, "motivation_bonus") == [{"player": 0, "crew": "x", "free_cubes": 2, "player_cubes": 0, "vp": 2}]
    assert (s.free_on("x"), s.state.stock, s.state.vp) == (0, 10, (2, 0, 0))


def test_r6_free_cube_vp_is_a_knob():
    """R6: motivation.free_cube_vp comes from rules.yaml."""
    s = Script(game(motivation={"free_cube_vp": 3, "player_cube_vp": 2}))
    for crew_id in ("w", "y", "z"):
        s.turn(crew_id)
    s.pick("x")
    assert s.state.vp == (3, 0, 0)


def test_r6_player_cubes_score_two_vp_for_the_chooser_and_leave_the_game():
    """R6: player cubes on the chosen crew score player_cube_vp each for the chooser, own cubes
    included, and are kept as removed: never back to hand, never free cubes."""
    g = game(crew=[armstrong(), crew("q", 2, [effect("place_on_crew", count=2)]), crew("w"), crew("x"), crew("y")])
    s = Script(g)
    s.pick("q")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x", "y"]
    s.target_crew("x")
    s.target_crew("y")
    s.survey_none()
    s.turn("w")
    s.turn("armstrong")
    s.name_start(0)
    assert (s.cubes_on("x"), s.cubes_on("y"), s.free_on("x"), s.free_on("y")) == ((0,), (0,), 1, 1)
    assert (s.state.hands, s.state.stock) == ((10, 12, 12), 10)
    own = s.pick("y")  # seat 0 takes back its own cube: 2 VP, and the cube is gone
    s.survey_none()
    other = s.pick("x")  # seat 1 takes seat 0's cube: 2 VP for seat 1
    assert of(own, "motivation_bonus") == [{"player": 0, "crew": "y", "free_cubes": 1, "player_cubes": 1, "vp": 3}]
    assert of(other, "motivation_bonus") == [{"player": 1, "crew": "x", "free_cubes": 1, "player_cubes": 1, "vp": 3}]
    assert s.state.vp == (3, 3, 0)
    assert s.state.removed == (2, 0, 0)
    assert s.state.hands == (10, 12, 12)
    assert s.state.stock == 12  # only the two wooden cubes came back
    assert (s.cubes_on("x"), s.cubes_on("y")) == ((), ())


def test_r6_removed_cubes_are_never_handed_out_as_free_cubes():
    """R6, R11: removed player cubes do not join the stock of free cubes handed to crews."""
    g = game(
        crew=[armstrong(), crew("q", 2, [effect("place_on_crew")]), crew("w"), crew("x"), crew("y")],
        free_cubes=0,
    )
    s = Script(g)
    s.pick("q")
    s.target_crew("x")
    s.survey_none()
    s.turn("w")
    s.turn("y")
    s.pick("x")
    s.survey_none()
    assert s.state.removed == (1, 0, 0)
    s.turn("w")
    s.turn("y")
    assert of(s.last, "free_cube_to_crew") == []
    assert s.state.stock == 0
    assert s.state.crew_free == (0, 0, 0, 0, 0)


# -- R7, R8: the survey ---------------------------------------------------------------------


def test_r7_survey_places_up_to_the_count_fewer_or_none_allowed():
    """R7: with survey.minimum 0 a player places 0..survey count cubes from any start with room."""
    s = Script(game())
    s.pick("w")
    assert s.survey_options() == [(None, 0, CW)] + [(p, n, CW) for p in PLANETS for n in (1, 2)]
    events = s.survey_none()
    assert of(events, "survey_done") == [{"player": 0, "cubes": 0}]
    assert s.state.hands == (12, 12, 12)


def test_r7_survey_never_places_more_cubes_than_the_hand():
    """R7: the count is capped by the cubes the player holds."""
    s = Script(game(cubes_per_player=1))
    s.pick("w")
    assert s.survey_options() == [(None, 0, CW)] + [(p, 1, CW) for p in PLANETS]


def test_r7_survey_minimum_is_a_knob():
    """R7: survey.minimum removes placing nothing and the smaller counts."""
    s = Script(game(survey={"minimum": 1}))
    s.pick("w")
    assert s.survey_options() == [(p, n, CW) for p in PLANETS for n in (1, 2)]
    s = Script(game(survey={"minimum": 2}))
    s.pick("w")
    assert s.survey_options() == [(p, 2, CW) for p in PLANETS]


def test_r7_minimum_above_what_can_be_placed_falls_to_the_most_placeable():
    """R7 (docs/architecture.md): the effective minimum is the most cubes any start can place."""
    g = game(planets=ring([1], [1]), crew=[armstrong(), crew("w", 3), crew("x")], survey={"minimum": 3})
    s = Script(g)
    s.pick("w")  # a and b have one square each: the walk a, b (or b, a) places 2 at most
    assert s.survey_options() == [("a", 2, CW), ("b", 2, CW)]


def test_r7_only_placing_nothing_when_no_planet_has_room():
    """R7: with no cube placeable, placing nothing is the only choice."""
    g = game(planets=ring([1], [1], [1]), crew=[armstrong(), crew("w", 3), crew("x")])
    s = Script(g)
    s.turn("w", "a", 3)
    s.pick("x")
    assert s.legal == (action(A.SURVEY, -1, 0),)
    assert s.state.stage == "survey"  # three full Planets, yet the round goes on (R10)


def test_r7_no_two_choices_from_one_start_have_the_same_outcome():
    """R7: a counter-clockwise walk that places the same cubes as a clockwise one is not offered."""
    g = game(crew=[armstrong(), crew("n", 2, [effect("choose_direction")]), crew("x"), crew("y"), crew("z")])
    s = Script(g)
    s.pick("n")
    expected = [(None, 0, CW)]
    for p in PLANETS:
        expected += [(p, 1, CW), (p, 2, CW), (p, 2, CCW)]
    assert s.survey_options() == expected


def test_r8_walk_skips_full_planets():
    """R8: the walk passes over a full Planet to the next one with room."""
    g = game(planets=ring([1, 2, 3], [1], [1, 2, 3]), crew=[armstrong(), crew("w", 3), crew("x")])
    s = Script(g)
    s.turn("x", "b", 1)
    s.pick("w")
    assert placed(s.survey("a", 3)) == [(1, "a", 1), (1, "c", 1), (1, "a", 2)]


def test_r8_walk_laps_the_ring():
    """R8: the walk may go round the ring more than once; a second cube after a lap is fine."""
    g = game(planets=ring([1, 2, 3], [1, 2, 3], [1, 2, 3]), crew=[armstrong(), crew("w", 5), crew("x")])
    s = Script(g)
    s.pick("w")
    assert placed(s.survey("b", 5)) == [(0, "b", 1), (0, "c", 1), (0, "a", 1), (0, "b", 2), (0, "c", 2)]


def test_r8_walk_stops_when_only_the_just_surveyed_planet_has_room():
    """R8: never two cubes in a row on one Planet, so a walk left with one Planet stops and R7
    offers no larger count."""
    g = game(planets=ring([1], [1, 2, 3]), crew=[armstrong(), crew("w", 3), crew("x")])
    s = Script(g)
    s.pick("w")
    assert s.survey_options() == [(None, 0, CW), ("a", 1, CW), ("a", 2, CW), ("b", 1, CW), ("b", 2, CW), ("b", 3, CW)]
    assert placed(s.survey("a", 2)) == [(0, "a", 1), (0, "b", 1)]
    assert s.state.hands == (10, 12, 12)


def test_r8_planets_that_fill_during_the_survey_are_skipped():
    """R8: a Planet filled by this survey is passed over when the walk laps round to it."""
    g = game(planets=ring([1], [1, 2, 3], [1, 2, 3]), crew=[armstrong(), crew("w", 5), crew("x")])
    s = Script(g)
    s.pick("w")
    assert placed(s.survey("a", 5)) == [(0, "a", 1), (0, "b", 1), (0, "c", 1), (0, "b", 2), (0, "c", 2)]


# -- R9: skills are mandatory, skipped when impossible --------------------------------------


def test_r9_place_on_special_is_skipped_when_every_special_square_is_full():
    """R9: a skill that cannot be applied is skipped with an effect_skipped event."""
    planets = [planet("a", "red", [1, 2]), planet("b", "blue", [1, 2])]
    g = game(
        planets=planets,
        crew=[armstrong(), crew("g", 2, [effect("place_on_special"), effect("gain_vp", vp=1)]), crew("x"), crew("y")],
    )
    s = Script(g)
    s.pick("g")
    s.target_planet("a")
    s.survey_none()
    s.turn("x")
    s.turn("y")
    s.pick("g")
    assert s.targets(A.TARGET_PLANET) == ["b"]
    s.target_planet("b")
    s.survey_none()
    s.turn("x")
    s.turn("y")
    events = s.pick("g")
    assert keys(events) == ["crew_chosen", "effect_skipped", "vp_gained"]
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "g", "effect": "place_on_special", "remaining": 1}]
    assert (s.special("a"), s.special("b"), s.state.hands, s.state.vp) == ((0,), (0,), (10, 12, 12), (3, 0, 0))
    assert s.state.stage == "survey"


def test_r9_choices_are_only_among_options_that_can_be_applied():
    """R9: add_free_cubes offers only crews under the cap, and the rest of it is skipped once every other crew is at it."""
    g = game(
        crew=[armstrong(), crew("r", 2, [effect("add_free_cubes", count=2)]), crew("w"), crew("x")],
        players=2,
        round_end=unpicked_crews(cap=1),
    )
    s = Script(g)
    s.pick("r")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x"]
    s.target_crew("w")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "x"]
    s.target_crew("armstrong")
    s.survey_none()
    s.turn("x")
    assert s.state.crew_free == (1, 0, 1, 0)  # Armstrong and w were at the cap: no R11 cube
    s.pick("r")
    assert s.targets(A.TARGET_CREW) == ["x"]
    events = s.target_crew("x")
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "r", "effect": "add_free_cubes", "remaining": 1}]
    assert (s.state.crew_free, s.state.stock) == ((1, 0, 1, 1), 9)
    assert s.state.stage == "survey"


def test_r9_place_free_cubes_is_skipped_when_the_stock_is_empty():
    """R9: with no free cube in the stock, place_free_cubes is skipped, every count of it."""
    g = game(
        crew=[armstrong(), crew("f", 2, [effect("place_free_cubes", count=2)]), crew("x"), crew("y"), crew("z")],
        free_cubes=0,
    )
    s = Script(g)
    events = s.pick("f")
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "f", "effect": "place_free_cubes", "remaining": 2}]
    assert s.state.tracks == ((),) * 5


def test_r9_counted_effect_is_skipped_once_it_runs_out():
    """R9: a counted effect applies while it can and skips the rest with one event."""
    g = game(
        crew=[armstrong(), crew("f", 2, [effect("place_free_cubes", count=3)]), crew("x"), crew("y"), crew("z")],
        free_cubes=1,
    )
    s = Script(g)
    s.pick("f")
    events = s.target_planet("c")
    assert placed(events) == [(-1, "c", 1)]
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "f", "effect": "place_free_cubes", "remaining": 2}]
    assert s.state.stock == 0
    assert s.state.stage == "survey"


# -- R10: the end check ---------------------------------------------------------------------


def test_r10_game_ends_at_the_end_of_the_round_when_a_player_has_no_cubes():
    """R10: a player at 0 cubes ends the game, but only when the round is over."""
    s = Script(game(cubes_per_player=2))
    s.turn("w", "a", 2)
    assert s.state.hands == (0, 2, 2)
    assert (s.state.stage, s.state.triggers, s.player) == ("pick_crew", (), 1)
    s.turn("x", "b", 1)
    assert s.state.stage == "pick_crew"
    events = s.turn("y", "c", 1)
    assert keys(events)[-3:] == ["turn_ended", "round_ended", "game_over"]
    assert of(events, "game_over") == [{"round": 1, "triggers": ["hand_empty"]}]
    assert s.state.triggers == ("hand_empty",)
    assert s.state.stage == "over"
    assert s.legal == ()
    assert s.player is None
    assert s.game.is_over(s.state)


def test_r10_game_ends_at_the_end_of_the_round_when_enough_planets_are_full():
    """R10: full Planets >= end.full_planets ends the game at the end of the round."""
    g = game(planets=ring([1, 2], [1, 2], [1, 2, 3], [1, 2, 3], [1, 2, 3]), full_planets_to_end=2)
    s = Script(g)
    s.turn("w", "a", 2)
    s.turn("x", "a", 2)
    assert s.track("a") == s.track("b") == (0, 1)
    assert s.state.stage == "pick_crew"  # a and b are full, but the round goes on
    s.turn("y", "c", 1)
    assert s.state.stage == "over"
    assert s.state.triggers == ("planets_full",)
    assert of(s.last, "game_over") == [{"round": 1, "triggers": ["planets_full"]}]


def test_r10_fewer_full_planets_than_the_knob_go_on():
    """R10: the full-Planet end needs end.full_planets Planets (default: the number of players)."""
    g = game(planets=ring([1, 2], [1, 2], [1, 2, 3], [1, 2, 3], [1, 2, 3]))
    s = Script(g)
    s.turn("w", "a", 2)
    s.turn("x", "a", 2)
    s.turn("y", "c", 1)
    assert s.state.stage == "pick_crew"
    assert s.state.round == 2
    assert of(s.last, "round_started") == [{"round": 2, "start_player": 0}]


def test_r10_both_end_conditions_are_reported():
    """R10: when both conditions hold, state.triggers names both."""
    g = game(planets=ring([1], [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]), cubes_per_player=2, full_planets_to_end=1)
    s = Script(g)
    s.turn("w", "a", 2)
    s.turn("x")
    s.turn("y")
    assert s.state.triggers == ("hand_empty", "planets_full")
    assert of(s.last, "game_over") == [{"round": 1, "triggers": ["hand_empty", "planets_full"]}]


def test_r10_no_free_cubes_when_the_game_ends():
    """R10, R11: a game that ends hands out no free cubes."""
    s = Script(game(cubes_per_player=1))
    s.turn("w", "a", 1)
    s.turn("x")
    s.turn("y")
    assert s.state.stage == "over"
    assert of(s.last, "free_cube_to_crew") == []
    assert s.state.crew_free == (0, 0, 0, 0, 0)
    assert s.state.stock == 12


# -- R11: free cubes onto crews -------------------------------------------------------------


def test_r11_free_cubes_go_to_unchosen_crews_in_crew_area_order():
    """R11: each crew with no worker, Armstrong included and first, gets one free cube."""
    s = Script(game())
    s.turn("y")
    s.turn("w")
    events = s.turn("z")
    assert keys(events)[-4:] == ["round_ended", "free_cube_to_crew", "free_cube_to_crew", "round_started"]
    assert of(events, "free_cube_to_crew") == [{"crew": "armstrong"}, {"crew": "x"}]
    assert s.state.crew_free == (1, 0, 1, 0, 0)
    assert s.state.stock == 10


def test_r11_a_crew_holds_at_most_three_free_cubes():
    """R11: an unchosen crew stops collecting at round_end.unpicked_crews.cap (3 by default)."""
    s = Script(game())
    seen = []
    for _ in range(4):
        for crew_id in ("w", "y", "z"):
            s.turn(crew_id)
        seen.append((s.free_on("armstrong"), s.free_on("x"), s.state.stock))
    assert seen == [(1, 1, 10), (2, 2, 8), (3, 3, 6), (3, 3, 6)]


def test_r11_the_cap_is_a_knob():
    """R11: the cap comes from rules.yaml's round_end.unpicked_crews."""
    s = Script(game(round_end=unpicked_crews(cap=1)))
    for _ in range(2):
        for crew_id in ("w", "y", "z"):
            s.turn(crew_id)
    assert s.state.crew_free == (1, 0, 1, 0, 0)
    assert s.state.stock == 10


def test_r11_an_empty_stock_stops_the_free_cubes():
    """R11: free cubes are handed out in crew-area order while the stock lasts."""
    s = Script(game(free_cubes=1))
    s.turn("y")
    s.turn("w")
    events = s.turn("z")
    assert of(events, "free_cube_to_crew") == [{"crew": "armstrong"}]
    assert s.state.crew_free == (1, 0, 0, 0, 0)
    assert s.state.stock == 0


# -- R12: the start player ------------------------------------------------------------------


def test_r12_armstrongs_chooser_names_the_start_player_after_the_free_cubes():
    """R12: the Armstrong player names the next start player once the R11 free cubes are out."""
    s = Script(game())
    s.turn("armstrong")
    s.turn("w")
    events = s.turn("x")
    assert keys(events)[-3:] == ["round_ended", "free_cube_to_crew", "free_cube_to_crew"]
    assert s.state.stage == "round_end"
    assert (s.free_on("y"), s.free_on("z")) == (1, 1)
    assert s.player == 0
    assert s.legal == tuple(action(A.NAME_START_PLAYER, seat) for seat in range(3))
    events = s.name_start(2)
    assert [(e.key, dict(e.params)) for e in events] == [
        ("start_player_named", {"player": 0, "start_player": 2}),
        ("round_started", {"round": 2, "start_player": 2}),
    ]
    assert (s.state.start_player, s.state.round, s.player) == (2, 2, 2)
    assert s.state.workers == (-1,) * 5


def test_r12_armstrongs_chooser_may_name_themselves():
    """R12: any seat may be named, the chooser's own included."""
    s = Script(game())
    s.turn("w")
    s.turn("armstrong")
    s.turn("x")
    assert s.player == 1
    s.name_start(1)
    assert (s.state.start_player, s.player) == (1, 1)
    assert [e["player"] for e in of(s.events, "crew_chosen")] == [0, 1, 2]


def test_r12_no_choice_when_the_game_ends():
    """R12: when the round ends the game, Armstrong's chooser names nobody."""
    s = Script(game(cubes_per_player=2))
    s.turn("armstrong", "a", 2)
    s.turn("w")
    events = s.turn("x")
    assert s.state.stage == "over"
    assert "start_player_named" not in keys(events)
    assert s.legal == ()
    assert s.state.start_player == 0


def test_r12_start_player_stays_when_nobody_chose_armstrong():
    """R12: without an Armstrong player the start player is the same next round."""
    s = Script(game(), start_player=1)
    s.turn("w")
    s.turn("x")
    events = s.turn("y")
    assert of(events, "round_started") == [{"round": 2, "start_player": 1}]
    assert (s.state.start_player, s.player) == (1, 1)


# -- R13, R14: supplies and setup -----------------------------------------------------------


def test_r13_cube_supplies_come_from_the_knobs():
    """R13: each hand starts with cubes_per_player cubes and the stock with free_cubes."""
    s = Script(game(cubes_per_player=5, free_cubes=7))
    assert (s.state.hands, s.state.stock, s.state.removed, s.state.vp) == ((5, 5, 5), 7, (0, 0, 0), (0, 0, 0))


def test_r13_draft7_starts_with_twelve_cubes_each_and_twelve_free_cubes():
    """R13: draft 7 gives 12 cubes per player and 12 free cubes."""
    g = bundled("draft7")
    state = g.new_state(players=4, seed=1)
    assert (state.hands, state.stock) == ((12, 12, 12, 12), 12)


@pytest.mark.parametrize(("players", "planets", "dealt"), [(3, 5, 4), (4, 7, 5)])
def test_r14_draft7_setup_counts_by_player_count(players, planets, dealt):
    """R14: 3 players get 5 Planets and 4 crew besides Armstrong; 4 players 7 and 5."""
    g = bundled("draft7")
    setup = g.deal(players, seed=3)
    assert (len(setup.planets), len(setup.crew)) == (planets, dealt)
    assert "armstrong" not in setup.crew
    state = g.new_state(setup=setup)
    assert len(state.planets) == planets
    assert [g.ruleset.crew[i].id for i in state.crew] == ["armstrong", *setup.crew]
    assert state.players == players


def test_r14_unsupported_player_count_raises_setup_error():
    """R14: only the player counts listed in rules.yaml are supported."""
    g = bundled("draft7")
    with pytest.raises(SetupError) as caught:
        g.new_state(players=2, seed=1)
    assert str(caught.value) == "2 players are not supported by this ruleset (supported: 3, 4)"
    with pytest.raises(SetupError, match=r"^5 players are not supported"):
        g.deal(5)


def test_r14_player_counts_are_data():
    """R14: a ruleset adds a player count by data alone."""
    g = game(player_counts=[player_count(2, 3, 2), player_count(3, 5, 4)])
    assert g.ruleset.player_counts == (2, 3)
    state = g.new_state(players=2, seed=5)
    assert (len(state.planets), len(state.crew), state.hands) == (3, 3, (12, 12))


def test_r14_dealing_from_a_seed_is_deterministic():
    """R14: the same seed deals the same setup, start player included."""
    g = bundled("draft7")
    first = g.deal(4, seed=2024)
    assert g.deal(4, seed=2024) == first
    assert g.new_state(players=4, seed=2024) == g.new_state(setup=first)
    assert 0 <= first.start_player < 4
    assert g.deal(4, seed=2024, start_player=3) == Setup(4, first.planets, first.crew, 3)
    deals = {g.deal(4, seed=seed) for seed in range(20)}
    assert len(deals) > 1


@pytest.mark.parametrize(
    ("planets", "crew_ids", "start", "message"),
    [
        (
            ("lava-1", "lava-2", "ocean-1", "gas-1"),
            ("navigator", "pilot", "engineer", "historian"),
            0,
            "invalid setup: 5 planets are dealt for 3 players, not 4",
        ),
        (
            ("lava-1", "lava-2", "ocean-1", "gas-1", "pluto"),
            ("navigator", "pilot", "engineer", "historian"),
            0,
            "invalid setup: unknown planet 'pluto'",
        ),
        (
            ("lava-1", "lava-2", "ocean-1", "gas-1", "lava-1"),
            ("navigator", "pilot", "engineer", "engineer"),
            0,
            "invalid setup: planet 'lava-1' is dealt twice; crew 'engineer' is dealt twice",
        ),
        (
            ("lava-1", "lava-2", "ocean-1", "gas-1", "dark"),
            ("navigator", "pilot", "engineer", "armstrong"),
            0,
            "invalid setup: crew 'armstrong' is always in play and is not dealt",
        ),
        (
            ("lava-1", "lava-2", "ocean-1", "gas-1", "dark"),
            ("navigator", "pilot", "engineer", "historian"),
            3,
            "invalid setup: start player 3 is not a seat of 0..2",
        ),
    ],
)
def test_r14_explicit_setups_are_validated(planets, crew_ids, start, message):
    """R14: an explicit setup must fit the counts and name each known card once."""
    g = bundled("draft7")
    with pytest.raises(SetupError) as caught:
        g.new_state(setup=Setup(3, planets, crew_ids, start))
    assert str(caught.value) == message


def test_r14_new_state_needs_a_player_count_that_fits_the_setup():
    """R14: a state is dealt for a player count or set up explicitly, never both in conflict."""
    g = bundled("draft7")
    setup = g.deal(3, seed=1)
    with pytest.raises(SetupError) as caught:
        g.new_state(players=4, setup=setup)
    assert str(caught.value) == "players=4 but the setup is for 3 players"
    with pytest.raises(SetupError) as caught:
        g.new_state()
    assert str(caught.value) == "new_state needs players (and a seed) or an explicit setup"


# -- R19: Captain Armstrong -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_r19_armstrong_is_always_in_play_with_survey_count_2(name):
    """R19: the bundled Armstrong is never dealt, always in slot 0, surveys up to 2 and names the start player."""
    g = bundled(name)
    card = g.ruleset.crew_card("armstrong")
    assert (card.always_in_play, card.survey_count) == (True, 2)
    assert [(e.name, e.when) for e in card.skill] == [("name_start_player", "round_end")]
    assert [c.id for c in g.ruleset.crew if c.always_in_play] == ["armstrong"]
    for seed in range(5):
        state = g.new_state(players=3, seed=seed)
        assert g.ruleset.crew[state.crew[0]].id == "armstrong"
    s = Script(g, g.new_state(players=3, seed=0, start_player=0))
    s.pick("armstrong")
    assert max(count for _, count, _ in s.survey_options()) == 2


# -- misuse ---------------------------------------------------------------------------------


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    """An action that is not legal raises IllegalActionError saying why; the input state is kept."""
    g = game()
    s = Script(g)
    s.turn("w")
    before = s.state
    kept = copy.deepcopy(before)
    with pytest.raises(IllegalActionError) as caught:
        g.apply(before, action(A.PICK_CREW, 1))
    assert str(caught.value) == (
        "Action(kind='pick_crew', target=1, count=0, direction=1) is not among the 4 legal options: "
        "Action(kind='pick_crew', target=0, count=0, direction=1), "
        "Action(kind='pick_crew', target=2, count=0, direction=1), "
        "Action(kind='pick_crew', target=3, count=0, direction=1), "
        "Action(kind='pick_crew', target=4, count=0, direction=1)"
    )
    assert before == kept
    with pytest.raises(IllegalActionError) as caught:
        g.apply(before, action(A.SURVEY, 0, 1))
    assert str(caught.value) == "the state waits for pick_crew, not survey (stage pick_crew)"
    with pytest.raises(IllegalActionError) as caught:
        g.step(before, "pick_crew")
    assert str(caught.value) == "not an action: 'pick_crew'"
    assert before == kept


def test_illegal_action_a_plain_tuple_equal_to_a_legal_action_is_refused():
    """A tuple that merely equals a legal Action is not an action: IllegalActionError, state kept."""
    g = game()
    state = g.new_state(setup=Setup(3, ("a", "b", "c", "d", "e"), ("w", "x", "y", "z")))
    kept = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as caught:
        g.apply(state, ("pick_crew", 0, 0, 1))
    assert str(caught.value) == "not an action: ('pick_crew', 0, 0, 1)"
    assert state == kept


def test_no_action_is_legal_once_the_game_is_over():
    """R10: an over game has no legal action and says so."""
    s = Script(game(cubes_per_player=1))
    s.turn("w", "a", 1)
    s.turn("x")
    s.turn("y")
    with pytest.raises(IllegalActionError) as caught:
        s.pick("z")
    assert str(caught.value) == "the game is over: no action is legal"
