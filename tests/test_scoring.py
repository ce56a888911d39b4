"""Worked examples of scoring, R15-R18: the ranking, the majority VP, the major-planet bonus, the winner.

Boards are set up by writing the tracks of a fresh state directly (a track lists the owners of
squares 1, 2, ...; -1 is a free cube); the last test plays a game to its end instead.
"""

from __future__ import annotations

import itertools
from collections import Counter

from builders import Script, game, planet

from stargazer_rules.engine.scoring import Standing, major_planet_bonus, provisional_totals, rank_planet, winners
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary.majority import Majority

PLANETS = [
    planet("a", "red", [1, 2, 0, 4]),
    planet("b", "blue", [5, 2, 3, 4]),
    planet("c", "yellow", [1, 2, 3, 4]),
    planet("d", "green", [1, 2, 3, 4]),
    planet("e", "red", [2, 4, 6, 8]),
]
RING = ["a", "b", "c", "d", "e"]


def board(tracks=None, specials=None, vp=(0, 0, 0), hands=None, majority=None):
    """A 3-player game (with rules.yaml's ``majority`` section when given) and a state of it with
    the given tracks and special squares by Planet id; left out, the hands and the stock hold
    the cubes not on the board (R13), as a state the kernel reads must."""
    g = game(planets=PLANETS) if majority is None else game(planets=PLANETS, majority=majority)
    start = Script(g).state
    board_tracks = tuple(tuple((tracks or {}).get(p, ())) for p in RING)
    board_specials = tuple(tuple((specials or {}).get(p, ())) for p in RING)
    placed = Counter(owner for squares in board_tracks + board_specials for owner in squares)
    state = start._replace(
        tracks=board_tracks,
        specials=board_specials,
        vp=tuple(vp),
        hands=tuple(hands) if hands is not None else tuple(hand - placed[seat] for seat, hand in enumerate(start.hands)),
        stock=start.stock - placed[-1],
    )
    return g, state


def sheet(tracks=None, specials=None, vp=(0, 0, 0), hands=(12, 12, 12), majority=None):
    """The score sheet of a 3-player board with the given tracks and special squares by Planet id."""
    g, state = board(tracks, specials, vp, hands, majority)
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


# -- the majority as data (rules.yaml ``majority``; docs/rules.md, "The majority as data") ------


def majority_vp(tracks, majority=None):
    """Each seat's majority VP on ``tracks`` in the Python engine, after checking that the
    kernel's totals of the same state (kept scores and from the board) are the Python engine's."""
    g, state = board(tracks, majority=majority)
    theirs = native.to_kernel(g, state)
    assert tuple(theirs.totals()) == provisional_totals(g, state) == tuple(seat.total for seat in g.score(state).seats)
    return [seat.majority_vp for seat in g.score(state).seats]


def test_majority_ties_first_cube_further_forward_reverses_r15():
    """ties: first_cube_further_forward: on equal counts the owner whose first cube stands
    nearer square 1 ranks higher; R15 gave seat 1 the 4 and seat 0 the 3, now the reverse."""
    tracks = {"c": [0, 1, 1, 0]}  # V = 1, 2, 3, 4; two cubes each, seat 0's first on square 1
    assert majority_vp(tracks) == [3, 4, 0]
    assert majority_vp(tracks, {"ties": "first_cube_further_forward"}) == [4, 3, 0]
    assert vp_by_owner(sheet(tracks, majority={"ties": "first_cube_further_forward"}), "c") == [(0, 1, 4, 4), (1, 2, 3, 3)]


def test_majority_shared_ranks_read_the_better_row_and_the_next_rank_skips():
    """ties: shared (ideas R1): seats 1 and 2 tie on one cube and both read rank 2's row (6 VP
    each, where R15 gave the later first cube 6 and the other 4); after two owners tied at rank 1
    the next is rank 3 (1, 1, 3) and reads row k - 2."""
    tracks = {"e": [0, 0, 1, 2]}  # V = 2, 4, 6, 8; k = 4
    assert majority_vp(tracks) == [8, 4, 6]
    assert majority_vp(tracks, {"ties": "shared"}) == [8, 6, 6]
    assert vp_by_owner(sheet(tracks, majority={"ties": "shared"}), "e") == [(0, 1, 4, 8), (2, 2, 3, 6), (1, 2, 3, 6)]
    skipped = {"c": [-1, 0, 1, -1]}  # V = 1, 2, 3, 4: the virtual player 2 cubes, seats 0 and 1 one each
    assert vp_by_owner(sheet(skipped, majority={"ties": "shared"}), "c") == [(-1, 1, 4, 4), (1, 2, 3, 3), (0, 2, 3, 3)]
    assert majority_vp(skipped, {"ties": "shared"}) == [3, 3, 0]
    standings = rank_planet((0, 0, 1, 1, 2), (1, 2, 3, 4, 5), Majority(ties="shared"))
    assert [(s.owner, s.rank, s.row, s.vp) for s in standings] == [(1, 1, 5, 5), (0, 1, 5, 5), (2, 3, 3, 3)]


def test_majority_row_step_two_reads_every_other_row_and_a_row_below_square_one_scores_nothing():
    """row_step: 2: rank r reads row k - 2(r - 1); with k = 4 rank 3 would read row 0 and scores 0."""
    tracks = {"c": [0, 0, 1, 2]}  # V = 1, 2, 3, 4
    assert majority_vp(tracks) == [4, 2, 3]
    assert majority_vp(tracks, {"row_step": 2}) == [4, 0, 2]
    assert vp_by_owner(sheet(tracks, majority={"row_step": 2}), "c") == [(0, 1, 4, 4), (2, 2, 2, 2), (1, 3, None, 0)]


def test_majority_rank_percent_halves_second_place_rounded_down_and_third_scores_nothing():
    """rank_percent: [100, 50, 0] (ideas R2): second place reads 3 and scores 1; third nothing."""
    tracks = {"c": [0, 0, 1, 2]}  # V = 1, 2, 3, 4
    assert majority_vp(tracks, {"rank_percent": [100, 50, 0]}) == [4, 0, 1]
    # Ranks past the list score like its last entry: [100, 50] halves third place too (2 // 2).
    assert majority_vp(tracks, {"rank_percent": [100, 50]}) == [4, 1, 1]


def test_majority_accident_vp_costs_whoever_reads_an_accident_row():
    """accident_vp: -2 (ideas R3): first place on a's square 3 (VP 0) loses 2 instead of scoring 0."""
    tracks = {"a": [0, 0, 1]}  # V = 1, 2, 0, 4
    assert majority_vp(tracks) == [0, 2, 0]
    assert majority_vp(tracks, {"accident_vp": -2}) == [-2, 2, 0]
    result = sheet(tracks, majority={"accident_vp": -2})
    assert planet_result(result, "a").accident is True
    assert [seat.total for seat in result.seats] == [-2 + 2, 2 + 1, 0]  # the bonus: one colour group each


def test_majority_free_cubes_left_out_take_no_row():
    """free_cubes_take_a_row: false: the virtual player is not ranked, so the players move up a row."""
    tracks = {"e": [-1, -1, 0, 1]}  # V = 2, 4, 6, 8
    assert majority_vp(tracks) == [4, 6, 0]
    assert majority_vp(tracks, {"free_cubes_take_a_row": False}) == [6, 8, 0]
    assert vp_by_owner(sheet(tracks, majority={"free_cubes_take_a_row": False}), "e") == [(1, 1, 4, 8), (0, 2, 3, 6)]
