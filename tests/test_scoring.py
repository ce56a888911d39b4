"""Worked examples of scoring, R15-R18: the ranking, the majority VP, the major-planet bonus, the winner.

Boards are set up by writing the tracks of a fresh state directly (a track lists the owners of
squares 1, 2, ...; -1 is a free cube); the last test plays a game to its end instead.
"""

from __future__ import annotations

import itertools
from collections import Counter

from builders import Script, game, planet

from stargazer_rules.engine.scoring import Standing, major_planet_bonus, rank_planet, winners

PLANETS = [
    planet("a", "red", [1, 2, 0, 4]),
    planet("b", "blue", [5, 2, 3, 4]),
    planet("c", "yellow", [1, 2, 3, 4]),
    planet("d", "green", [1, 2, 3, 4]),
    planet("e", "red", [2, 4, 6, 8]),
]
RING = ["a", "b", "c", "d", "e"]


def sheet(tracks=None, specials=None, vp=(0, 0, 0), hands=(12, 12, 12)):
    """The score sheet of a 3-player board with the given tracks and special squares by Planet id."""
    g = game(planets=PLANETS)
    state = Script(g).state._replace(
        tracks=tuple(tuple((tracks or {}).get(p, ())) for p in RING),
        specials=tuple(tuple((specials or {}).get(p, ())) for p in RING),
        vp=tuple(vp),
        hands=tuple(hands),
    )
    return g.score(state)


def planet_result(result_sheet, planet_id):
    (result,) = [r for r in result_sheet.planets if r.planet == planet_id]
    return result


def vp_by_owner(result_sheet, planet_id):
    """(owner, rank, row, vp) of each standing on ``planet_id``, best first."""
    return [(s.owner, s.rank, s.row, s.vp) for s in planet_result(result_sheet, planet_id).standings]


# -- R15: ranking ---------------------------------------------------------------------------


def test_r15_more_cubes_rank_higher():
    """R15: owners rank by cube count, most first."""
    result = sheet({"c": [0, 1, 1]})
    assert planet_result(result, "c").standings == (
        Standing(owner=1, cubes=2, first_square=2, rank=1, row=3, vp=3),
        Standing(owner=0, cubes=1, first_square=1, rank=2, row=2, vp=2),
    )


def test_r15_tie_goes_to_later_first_cube():
    """R15: on equal counts, the owner whose lowest-numbered cube stands further back ranks higher."""
    result = sheet({"c": [0, 1, 1, 0]})
    assert vp_by_owner(result, "c") == [(1, 1, 4, 4), (0, 2, 3, 3)]
    assert [s.majority_vp for s in result.seats] == [3, 4, 0]


def test_r15_virtual_player_takes_a_rank():
    """R15: free cubes rank together as one virtual player, by the same rules as the players."""
    result = sheet({"c": [-1, 0, -1], "d": [0, -1]})
    assert vp_by_owner(result, "c") == [(-1, 1, 3, 3), (0, 2, 2, 2)]
    assert vp_by_owner(result, "d") == [(-1, 1, 2, 2), (0, 2, 1, 1)]


# -- R16: majority VP -----------------------------------------------------------------------


def test_r16_rank_r_scores_the_row_r_minus_one_steps_up_from_the_top_cube():
    """R16: with the rearmost cube on square k, rank r scores V[k - r + 1]."""
    result = sheet({"a": [0, 1, 1, 2]})  # V = 1, 2, 0, 4 and k = 4
    assert vp_by_owner(result, "a") == [(1, 1, 4, 4), (2, 2, 3, 0), (0, 3, 2, 2)]
    assert [s.majority_vp for s in result.seats] == [2, 4, 0]


def test_r16_lowest_rank_can_score_row_one():
    """R16: with k owners on k squares the last rank scores row 1, whatever its value."""
    result = sheet({"b": [0, 1, 2]})  # V = 5, 2, 3, 4 and k = 3
    assert vp_by_owner(result, "b") == [(2, 1, 3, 3), (1, 2, 2, 2), (0, 3, 1, 5)]


def test_r16_no_rank_falls_below_row_one():
    """R16: the "0 when k - r + 1 < 1" case never arises, since each ranked owner holds one of the k squares."""
    values = (1, 2, 3, 4)
    for k in range(1, 5):
        for track in itertools.product((-1, 0, 1, 2), repeat=k):
            standings = rank_planet(track, values)
            assert [s.rank for s in standings] == list(range(1, len(standings) + 1))
            assert all(s.row is not None and s.row >= 1 for s in standings)
            assert [s.row for s in standings] == list(range(k, k - len(standings), -1))


def test_r16_accident_row_scores_zero_for_first_place():
    """R16, R1: first place on a rearmost square worth 0 scores nothing: an accident."""
    result = sheet({"a": [0, 0, 1], "c": [1]})
    assert vp_by_owner(result, "a") == [(0, 1, 3, 0), (1, 2, 2, 2)]
    assert planet_result(result, "a").accident is True
    assert planet_result(result, "c").accident is False
    assert [s.majority_vp for s in result.seats] == [0, 3, 0]


def test_r16_virtual_players_vp_is_lost():
    """R16: the virtual player's rank takes a row and its VP go to nobody."""
    result = sheet({"e": [-1, -1, 0, 1]})  # V = 2, 4, 6, 8
    assert vp_by_owner(result, "e") == [(-1, 1, 4, 8), (1, 2, 3, 6), (0, 3, 2, 4)]
    assert [s.majority_vp for s in result.seats] == [4, 6, 0]


def test_r16_planet_without_cubes_scores_nothing():
    """R16: a Planet with no cube on its normal squares ranks nobody."""
    result = sheet({"c": [0]}, specials={"d": [1]})
    d = planet_result(result, "d")
    assert (d.top_square, d.full, d.standings, d.accident) == (0, False, (), False)
    assert planet_result(result, "c").full is False
    assert sheet({"c": [0, 0, 0, 0]}).planets[2].full is True


# -- R17: major-planet bonus ----------------------------------------------------------------


def test_r17_three_cubes_in_each_of_four_colours_score_twelve():
    """R17: bonus = largest colour count x number of colours with that count: 3 x 4 = 12."""
    result = sheet({"a": [0, 0, 0], "b": [0, 0, 0], "c": [0, 0, 0], "d": [0, 0, 0]})
    seat = result.seats[0]
    assert (seat.bonus_vp, seat.bonus_count, seat.bonus_colours) == (12, 3, ("blue", "green", "red", "yellow"))
    assert major_planet_bonus(Counter(red=3, blue=3, yellow=3, green=3)) == (12, 3, ("blue", "green", "red", "yellow"))


def test_r17_special_squares_and_every_planet_of_a_colour_count():
    """R17: a colour's count adds normal and special squares over all Planets of that colour."""
    result = sheet({"a": [0, -1], "e": [0, 1], "b": [0, 0]}, specials={"a": [0], "b": [1]})
    seat = result.seats[0]
    assert seat.colour_counts == (("blue", 2), ("red", 3))
    assert (seat.bonus_vp, seat.bonus_count, seat.bonus_colours) == (3, 3, ("red",))
    assert result.seats[1].colour_counts == (("blue", 1), ("red", 1))
    assert result.seats[1].bonus_vp == 2


def test_r17_no_cubes_no_bonus():
    """R17: with no cube on any Planet the bonus is 0."""
    result = sheet({"c": [-1, -1]})
    assert [(s.bonus_vp, s.bonus_count, s.bonus_colours) for s in result.seats] == [(0, 0, ())] * 3
    assert major_planet_bonus(Counter()) == (0, 0, ())


# -- R18: the winner ------------------------------------------------------------------------


def test_r18_total_is_majority_plus_bonus_plus_play_vp():
    """R18: total = majority VP + major-planet bonus + VP scored during play."""
    result = sheet({"c": [0, 1, 1]}, vp=(4, 1, 0))
    assert [(s.majority_vp, s.bonus_vp, s.play_vp, s.total) for s in result.seats] == [
        (2, 1, 4, 7),
        (3, 2, 1, 6),
        (0, 0, 0, 0),
    ]
    assert result.winners == (0,)
    assert result.final is False


def test_r18_tie_broken_by_cubes_in_hand():
    """R18: on equal totals the player with more cubes in hand wins."""
    result = sheet(vp=(5, 5, 2), hands=(3, 4, 9))
    assert result.winners == (1,)


def test_r18_remaining_ties_share_the_win():
    """R18: equal totals and equal hands share the win."""
    result = sheet(vp=(5, 5, 2), hands=(4, 4, 9))
    assert result.winners == (0, 1)
    assert winners((7, 7, 7), (1, 1, 1)) == (0, 1, 2)


def test_r18_a_played_game_scores_its_final_sheet():
    """R15-R18: the sheet of a finished game, from the board the play left."""
    s = Script(game(planets=PLANETS, cubes_per_player=2))
    s.turn("w", "c", 2)
    s.turn("x", "c", 2)
    s.turn("y", "c", 1)
    assert s.state.stage == "over"
    result = s.game.score(s.state)
    assert vp_by_owner(result, "c") == [(2, 1, 3, 3), (1, 2, 2, 2), (0, 3, 1, 1)]
    assert vp_by_owner(result, "d") == [(1, 1, 2, 2), (0, 2, 1, 1)]
    assert [(s.majority_vp, s.bonus_vp, s.total, s.hand) for s in result.seats] == [
        (2, 2, 4, 0),
        (4, 2, 6, 0),
        (3, 1, 4, 1),
    ]
    assert (result.winners, result.final) == ((1,), True)


def test_r16_each_seat_has_its_line_of_majority_vp_per_planet():
    """R16: a seat's line lists each Planet it has cubes on with the rank and row used."""
    result = sheet(tracks={"a": [0, 1, 0], "e": [1, 1, 0, 2]})
    assert [(planet, s.rank, s.row, s.vp) for planet, s in result.majority_of(0)] == [
        ("a", 1, 3, 0),
        ("e", 3, 2, 4),
    ]
    assert [(planet, s.rank, s.row, s.vp) for planet, s in result.majority_of(1)] == [
        ("a", 2, 2, 2),
        ("e", 1, 4, 8),
    ]
    assert [(planet, s.rank, s.row, s.vp) for planet, s in result.majority_of(2)] == [("e", 2, 3, 6)]
    assert [seat.majority_vp for seat in result.seats] == [4, 10, 6]
