"""Lines of their own on the score sheet: rules.yaml's ``end_scoring`` (docs/rules.md,
"End-of-game scoring lines"; issue 27, item 3).

Each line's ``vp`` is an amount of the rules language read for each seat with this_seat bound
to it and nobody as "you", from the position as it stands (the final score, and the provisional
sheet mid-game, as the majority R16 and the bonus R17 are), never added to the VP of play; R18's
total adds it, below 0 when the amount is. The worked examples score hand-built positions on the
Python engine and on the native kernel, which must agree; then the loader's checks (located,
with a did-you-mean), the schema's bounds, the fingerprint, the bounds, the JSON form, the
tune paths and the text.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml
from builders import DEFAULT_PLANETS, Script, armstrong, crew, effect, game, ruleset
from strategies import MOST_SPECIAL
from test_end import _problems

from stargazer_rules import load_ruleset
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.formats.values_json import score_sheet_from_json, score_sheet_to_json
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.rulesets.loader import fingerprinted_data, ruleset_to_data
from stargazer_rules.text.tables import counts_table, score_table
from stargazer_rules.tuning.edits import apply_edits
from stargazer_rules.tuning.paths import locate
from stargazer_rules.engine.bounds import limits_of
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary import expressions as X
from stargazer_rules.vocabulary.actions import action

NAME = {"ja": "特務マス", "en": "special squares"}
#: "3 VP to each player with at least one cube on a special square".
SPECIAL_3 = {"name": NAME, "vp": {"product": [3, {"min": [1, {"cubes": {"owner": "this_seat", "squares": "special"}}]}]}}
#: "-1 VP per cube left in hand": a penalty, below 0.
HAND_PENALTY = {"name": {"ja": "手元のキューブ", "en": "cubes in hand"}, "vp": {"difference": [0, {"hand": "this_seat"}]}}
LINES = {"special": SPECIAL_3, "hand": HAND_PENALTY}
RING = "abcde"


def scored(lines, tracks, specials, vp=(0, 0, 0)):
    """The Python sheet of a 3-player position (owners by Planet, in ring order), after checking
    the kernel's sheet, lines and totals and the bots' totals are the same."""
    g = game(end_scoring=lines)
    start = Script(g).state
    board = tuple(tuple(tracks.get(p, ())) for p in RING)
    special = tuple(tuple(specials.get(p, ())) for p in RING)
    placed = Counter(owner for squares in board + special for owner in squares)
    state = start._replace(tracks=board, specials=special, vp=vp, hands=tuple(hand - placed[seat] for seat, hand in enumerate(start.hands)))
    sheet = g.score(state)
    kernel = native.to_kernel(g, state)
    assert kernel.seat_totals() == [(s.majority_vp, s.bonus_vp, s.play_vp, s.total, s.hand) for s in sheet.seats]
    assert kernel.scoring_lines() == [[vp for _, vp in s.lines] for s in sheet.seats]
    assert tuple(kernel.totals()) == provisional_totals(g, state) == tuple(s.total for s in sheet.seats)
    assert list(sheet.winners) == kernel.winners()
    return g, state, sheet


def test_a_line_scores_each_seat_from_the_position_on_both_engines():
    """Seat 0 has 2 cubes on special squares, seat 1 one, seat 2 none: 3, 3 and 0 VP; each
    loses a VP per cube left in hand (12 cubes a hand). The total (R18) adds both lines to the
    majority, the bonus and the VP of play, which the lines never change."""
    tracks = {"a": [0, 1], "b": [2]}
    specials = {"a": [0], "b": [0], "c": [1]}
    g, state, sheet = scored(LINES, tracks, specials, vp=(1, 0, 4))
    assert [dict(seat.lines) for seat in sheet.seats] == [{"special": 3, "hand": -9}, {"special": 3, "hand": -10}, {"special": 0, "hand": -11}]
    for seat in sheet.seats:
        assert seat.total == seat.majority_vp + seat.bonus_vp + seat.play_vp + seat.lines_vp
    assert tuple(seat.play_vp for seat in sheet.seats) == state.vp == (1, 0, 4)
    assert not sheet.final  # mid-game: the provisional sheet shows the lines too


def test_the_lines_decide_the_winner_by_r18():
    """Equal boards but for the special squares: the line's 3 VP wins it."""
    _, _, sheet = scored({"special": SPECIAL_3}, {"a": [0], "b": [1]}, {"c": [1]})
    assert [seat.lines for seat in sheet.seats] == [(("special", 0),), (("special", 3),), (("special", 0),)]
    assert sheet.winners == (1,)


#: "The most cubes on special squares: 3 VP" (docs/rules.md, "End-of-game scoring lines").
MOST_3 = {"name": NAME, "vp": MOST_SPECIAL}


def test_the_most_cubes_on_special_squares_scores_3_vp_to_every_seat_tied_for_it():
    """most_of compares this_seat's amount with every seat's: seats 0 and 1 tie with 2 cubes
    on special squares and both score 3 VP; seat 2 has none and scores nothing, on both engines."""
    specials = {"a": [0], "b": [0], "c": [1], "d": [1]}
    _, _, sheet = scored({"most": MOST_3}, {"a": [2]}, specials)
    assert [dict(seat.lines) for seat in sheet.seats] == [{"most": 3}, {"most": 3}, {"most": 0}]
    _, _, sheet = scored({"most": MOST_3}, {}, {"a": [0], "b": [2], "c": [2]})
    assert [dict(seat.lines) for seat in sheet.seats] == [{"most": 0}, {"most": 0}, {"most": 3}]


def test_most_of_is_within_its_amounts_bounds_and_0():
    """The line's bounds close (0..3 VP), so its ruleset runs on the kernel; most_of and
    least_of keep the inner amount's bounds, widened to 0 (an empty set's value)."""
    g = game(end_scoring={"most": MOST_3})
    assert (g.bounds.least_line_vp, g.bounds.most_line_vp) == (0, 3) and native.kernel_for(g) is not None
    limits = limits_of(g.ruleset, 0)
    parser = X.Parser(colours=())

    def bounds(data):
        return X.amount_bounds(parser.parse(X.AMOUNT, data, (), frozenset({X.SEATS})), limits)

    hand = {"hand": "this_seat"}
    assert bounds({"most_of": {"seats": "everyone", "amount": hand}}) == bounds(hand) == (0, limits.cubes_per_player)
    assert bounds({"least_of": {"seats": "everyone", "amount": 5}}) == (0, 5)
    assert bounds({"most_of": {"planets": "all", "amount": -5}}) == (-5, 0)
    assert bounds({"most_of": {"seats": "everyone", "amount": {"vp": "this_seat"}}}) == (0, None)
    assert not parser.problems


def test_the_docs_write_the_line_the_worked_example_scores():
    """docs/rules.md's "most cubes on special squares" line is the one scored above."""
    text = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if "most_of" in row and row.strip().startswith("vp:"))
    assert yaml.safe_load(line.strip())["vp"] == MOST_SPECIAL


def test_with_no_cube_on_a_special_square_nobody_has_the_most():
    """Every seat ties at 0 cubes there: the line's "at least one" keeps them all at 0 VP."""
    _, _, sheet = scored({"most": MOST_3}, {"a": [0, 1, 2]}, {})
    assert [dict(seat.lines) for seat in sheet.seats] == [{"most": 0}] * 3


def test_least_of_and_most_of_keep_the_outer_bindings_and_are_0_over_an_empty_set():
    """A line reading the fewest cubes any seat has on a Planet this_seat has a cube on: the
    Planet is bound inside the seats' set, this_seat the line's seat throughout; a seat with no
    cube on a Planet reads an empty set, 0."""
    fewest = {"least_of": {"seats": "everyone", "amount": {"cubes": {"owner": "this_seat", "planets": "this_planet"}}}}
    over = {"most_of": {"planets": {"where": {"has_cube": "this_seat"}}, "amount": {"sum": [fewest, {"cubes": {"owner": "this_seat", "planets": "this_planet"}}]}}}
    tracks = {"a": [0, 0, 1], "b": [1, 1, 1, 2]}
    _, _, sheet = scored({"over": {"name": NAME, "vp": over}}, tracks, {})
    # seat 0: a (0 fewest + 2 own) = 2; seat 1: a (0 + 1), b (0 + 3) = 3; seat 2: b (0 + 1) = 1
    assert [dict(seat.lines) for seat in sheet.seats] == [{"over": 2}, {"over": 3}, {"over": 1}]
    # seats 0 and 1: a (0 fewest, seat 2 has none there, + 1 own); seat 2: no Planet, 0
    _, _, sheet = scored({"over": {"name": NAME, "vp": over}}, {"a": [0, 1]}, {})
    assert [dict(seat.lines) for seat in sheet.seats] == [{"over": 1}, {"over": 1}, {"over": 0}]


def test_a_skill_gains_the_most_of_an_amount_on_both_engines():
    """A skill's gain_vp of most_of: "1 VP per cube of yours on the Planet where you have the
    most", me kept inside the Planets' binding. Seat 0 has 2 cubes on a, 1 on b: picking the
    leader gains 2 VP, on the Python engine and on the kernel alike."""
    most = {"most_of": {"planets": "all", "amount": {"cubes": {"owner": "me", "planets": "this_planet"}}}}
    g = game(crew=[armstrong(), crew("leader", 2, [effect("gain_vp", vp=most)]), crew("x"), crew("y"), crew("z")])
    state = Script(g).state
    tracks = ((0, 0, 1), (0,), (), (), ())
    state = state._replace(tracks=tracks, hands=(state.hands[0] - 3, state.hands[1] - 1, state.hands[2]))
    state = state._replace(legal=g.derive_legal(state))
    slot = next(slot for slot, card in enumerate(state.crew) if g.ruleset.crew[card].id == "leader")
    after, _ = g.apply(state, action(A.PICK_CREW, slot))
    kernel = native.to_kernel(g, state)
    kernel.step(action(A.PICK_CREW, slot))
    assert native.from_kernel(kernel).vp == after.vp
    assert after.vp[0] - state.vp[0] == 2


def test_no_line_is_draft7s_sheet_and_keeps_the_fingerprints():
    draft7 = load_ruleset("draft7")
    assert draft7.end_scoring == () and "end_scoring" not in fingerprinted_data(draft7)["rules"]
    assert ruleset().fingerprint == ruleset(end_scoring={}).fingerprint != ruleset(end_scoring=LINES).fingerprint
    sheet = game().score(Script(game()).state)
    assert all(seat.lines == () for seat in sheet.seats) and "lines" not in score_sheet_to_json(sheet)["seats"][0]


def test_the_json_sheet_gives_each_seat_its_lines_by_id():
    g, state, sheet = scored(LINES, {"a": [0]}, {"a": [0]})
    data = score_sheet_to_json(sheet)
    assert data["seats"][0]["lines"] == {"hand": -10, "special": 3}
    assert score_sheet_from_json(data) == sheet


def test_the_bounds_hold_the_lines_extremes_and_cross_to_the_kernel():
    """3 VP at most for the special line; the penalty down to a whole hand (12)."""
    g = game(end_scoring=LINES)
    assert (g.bounds.least_line_vp, g.bounds.most_line_vp) == (-12, 3)
    received = native.kernel_for(g).bounds()
    assert (received["least_line_vp"], received["most_line_vp"]) == (-12, 3)
    assert (game().bounds.least_line_vp, game().bounds.most_line_vp) == (0, 0)


def test_a_line_reading_vp_has_no_bound_and_plays_on_the_python_engine():
    g = game(end_scoring={"lead": {"name": NAME, "vp": {"vp": "this_seat"}}})
    assert g.bounds.most_line_vp is None and native.kernel_for(g) is None
    assert "most_line_vp" in native.fallback_reason(g)


# -- the loader's checks --------------------------------------------------------------------


def test_a_misspelt_key_is_located_with_a_did_you_mean():
    [(path, message)] = _problems(end_scoring={"special": {"name": NAME, "vp": {"cubes": {"owner": "this_seat", "squares": "specal"}}}})
    assert path.startswith("end_scoring.special.vp.cubes") and "did you mean 'special'" in message
    problems = _problems(end_scoring={"special": {"nme": NAME, "vp": 1}})
    assert ("end_scoring.special.nme", "unexpected key 'nme'; allowed keys: name, vp (did you mean 'name'?)") in problems
    [(path, message)] = _problems(end_scorng={})
    assert path == "end_scorng" and "did you mean 'end_scoring'" in message


def test_a_line_without_a_name_or_vp_is_located():
    assert _problems(end_scoring={"special": {"vp": 1}}) == [("end_scoring.special", "missing required key 'name'")]
    assert _problems(end_scoring={"special": {"name": NAME}}) == [("end_scoring.special", "missing required key 'vp'")]


@pytest.mark.parametrize("word", ["me", "others", "left"])
def test_you_is_refused_where_nobody_is_you(word):
    [(path, message)] = _problems(end_scoring={"mine": {"name": NAME, "vp": {"hand": word}}})
    assert path == "end_scoring.mine.vp" and message.startswith(f'on the score sheet nobody is "you", so {word} names nobody here')


@pytest.mark.parametrize(("count", "refused"), [(0, False), (8, False), (9, True)])
def test_schema_bounds_at_and_one_past(count, refused):
    section = {f"l{i}": {"name": NAME, "vp": i} for i in range(count)}
    if refused:
        assert [path for path, _ in _problems(end_scoring=section)] == ["end_scoring"]
    else:
        assert len(ruleset(end_scoring=section).end_scoring) == count


def test_a_misspelt_most_of_is_located_with_a_did_you_mean():
    special = {"cubes": {"owner": "this_seat", "squares": "special"}}
    [(path, message)] = _problems(end_scoring={"most": {"name": NAME, "vp": {"most_of": {"seat": "everyone", "amount": special}}}})
    assert path.startswith("end_scoring.most.vp.most_of") and "did you mean 'seats'" in message
    [(path, message)] = _problems(end_scoring={"most": {"name": NAME, "vp": {"most_off": {"seats": "everyone", "amount": special}}}})
    assert path.startswith("end_scoring.most.vp.most_off") and "did you mean 'most_of'" in message
    [(path, message)] = _problems(end_scoring={"most": {"name": NAME, "vp": {"least_of": {"seats": "everyone", "planets": "all", "amount": 1}}}})
    assert path.startswith("end_scoring.most.vp.least_of") and "exactly one of planets, seats or crews (found planets, seats)" in message
    [(path, message)] = _problems(end_scoring={"most": {"name": NAME, "vp": {"most_of": {"seats": "everyone"}}}})
    assert path.startswith("end_scoring.most.vp.most_of") and "most_of needs an amount" in message
    [(path, message)] = _problems(end_scoring={"most": {"name": NAME, "vp": {"most_of": {"seats": "everyone", "amount": {"room": "this_planet"}}}}})
    assert path.startswith("end_scoring.most.vp.most_of.amount") and "'this_planet' names the" in message


@pytest.mark.parametrize("line_id", ["Special", "special squares", "-special", "s" * 41])
def test_a_line_id_is_an_id(line_id):
    assert [path for path, _ in _problems(end_scoring={line_id: SPECIAL_3})] == ["end_scoring"]


# -- tuning and text ------------------------------------------------------------------------


def test_every_number_of_a_line_is_a_tune_path():
    lined = ruleset(end_scoring=LINES)
    path = "rules.end_scoring.special.vp.product[0]"
    assert locate(ruleset_to_data(lined), path).value == 3
    edited = apply_edits(lined, {path: 5})
    assert edited.end_scoring[1].vp.to_data()["product"][0] == 5 and edited.fingerprint != lined.fingerprint


def test_the_rules_and_the_score_sheet_read_each_line_in_both_languages():
    g = game(end_scoring=LINES)
    for lang, name, words in (("en", "special squares", "VP equal to"), ("ja", "特務マス", "に等しいVP")):
        counts = dict(tuple(row) for row in counts_table(g.ruleset, lang).rows)
        said = next(value for key, value in counts.items() if name in value)
        assert words in said and ("cubes in hand" if lang == "en" else "手元のキューブ") in said
        assert any(name in text for _, text in sheet_items(g.ruleset, lang))
        rows = score_table(g, g.score(Script(g).state), lang).rows
        assert [row[0] for row in rows if row[0] == name] == [name]
    assert DEFAULT_PLANETS  # the builders' five Planets, ring "abcde"
