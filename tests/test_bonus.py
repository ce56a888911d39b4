"""R17 as data: rules.yaml's ``bonus`` section (docs/rules.md, "The major-planet bonus as data").

Each seat's cubes are counted per planet colour on the squares ``squares`` names; ``formula``
scores the counts: R17's largest groups, ideas R4's complete sets of different colours, or a
VP table read at the largest count. The worked examples score hand-built positions on the
Python engine and on the native kernel, which must agree; then the loader's checks (located,
with a did-you-mean), the fingerprint, the bounds, the tune paths and the rules text.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import Script, game, planet
from ruleset_edits import copy_ruleset, line_of, only_problem, replace

from stargazer_rules import Game, load_ruleset
from stargazer_rules.engine.bounds import most_bonus_vp
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.errors import Problem
from stargazer_rules.frontends.cli import main
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.text.language import colour_name
from stargazer_rules.text.messages import describe_ability
from stargazer_rules.text.tables import bonus_paragraph
from stargazer_rules.rulesets.loader import fingerprinted_data, ruleset_to_data
from stargazer_rules.rulesets.resources import cards_dir
from stargazer_rules.rulesets.schemas import load_schema
from stargazer_rules.tuning.edits import apply_edits
from stargazer_rules.tuning.paths import locate
from stargazer_rules.vocabulary.bonus import R17, Bonus, complete_sets

#: Ideas R4: 3 VP for each complete set of four different colours.
R4 = {"distinct_colour_sets": {"size": 4, "vp": 3}}

#: Five colours, one Planet each, with room for every cube of the examples.
PLANETS = [planet(pid, colour, list(range(1, 11))) for pid, colour in zip("abcde", ("red", "blue", "yellow", "green", "black"))]
RING = "abcde"


def bonuses(tracks: dict[str, list[int]], specials: dict[str, list[int]] | None = None, planets=PLANETS, **bonus) -> list[int]:
    """Each seat's major-planet bonus on a 3-player board of ``tracks`` and ``specials`` (owners
    by Planet id) under rules.yaml's ``bonus`` section ``bonus`` (left out when empty), after
    checking that the kernel's sheet and totals of the same state are the Python engine's."""
    g = game(planets=planets, bonus=bonus or None)
    start = Script(g).state
    board = tuple(tuple(tracks.get(p, ())) for p in RING)
    special = tuple(tuple((specials or {}).get(p, ())) for p in RING)
    placed = Counter(owner for squares in board + special for owner in squares)
    state = start._replace(tracks=board, specials=special, hands=tuple(hand - placed[seat] for seat, hand in enumerate(start.hands)))
    sheet = g.score(state)
    kernel = native.to_kernel(g, state)
    assert [line[1] for line in kernel.seat_totals()] == [seat.bonus_vp for seat in sheet.seats]
    assert tuple(kernel.totals()) == provisional_totals(g, state) == tuple(seat.total for seat in sheet.seats)
    return [seat.bonus_vp for seat in sheet.seats]


#: Seat 0: red 3, blue 2, yellow 1 (three colours: no set of four). Seat 1: red 3 and one each
#: of blue, yellow and green (one set, two red cubes left). Seat 2: red 3, blue 2, yellow 2,
#: green 2 (two sets: sum of min(count, 2) = 8 = 4 x 2; a third would need 12).
SETS = {"a": [0, 0, 0, 1, 1, 1, 2, 2, 2], "b": [0, 0, 1, 2, 2], "c": [0, 1, 2, 2], "d": [1, 2, 2]}


def test_ideas_r4_counts_giving_0_1_and_2_complete_sets_of_four_colours():
    assert [complete_sets(counts, 4) for counts in ([3, 2, 1], [3, 1, 1, 1], [3, 2, 2, 2])] == [0, 1, 2]
    assert bonuses(SETS, formula=R4) == [0, 3, 6]


def test_r17_is_unchanged_by_the_section_written_out_or_left_out():
    """R17 on the same board: each seat's largest count is red's 3, one colour at it: 3 VP."""
    assert bonuses(SETS) == bonuses(SETS, squares="all", formula="largest_groups") == [3, 3, 3]
    # Two colours tied at the largest count both count: seat 0 with red 2 and blue 2 scores 4.
    assert bonuses({"a": [0, 0], "b": [0, 0], "c": [0]}) == [4, 0, 0]


def test_a_set_uses_each_cube_once_and_more_colours_make_more_sets():
    """Five colours of 2, 2, 1, 1, 2 make two sets of four (red, blue, black with yellow, then
    with green); size 2 pairs the eight cubes into four."""
    tracks = {"a": [0, 0], "b": [0, 0], "c": [0], "d": [0], "e": [0, 0]}
    assert bonuses(tracks, formula=R4)[0] == 6
    assert bonuses(tracks, formula={"distinct_colour_sets": {"size": 2, "vp": 1}})[0] == 4


def test_squares_normal_or_special_count_only_those_cubes():
    """Seat 0: red 2 and blue 1 on normal squares, a cube on blue's and yellow's special
    squares. All: red 2, blue 2, yellow 1 -> 2 x 2 = 4; normal: red 2 -> 2; special: blue 1,
    yellow 1 -> 1 x 2 = 2."""
    tracks, specials = {"a": [0, 0], "b": [0]}, {"b": [0], "c": [0]}
    assert bonuses(tracks, specials)[0] == 4
    assert bonuses(tracks, specials, squares="normal")[0] == 2
    assert bonuses(tracks, specials, squares="special")[0] == 2


def test_a_vp_table_reads_the_largest_count_and_its_last_entry_past_the_list():
    """vp_by_count [1, 4]: a largest count of 1 scores 1, of 2 scores 4, of 3 (past the list) 4."""
    tracks = {"a": [0, 0, 0, 1, 1, 2]}
    assert bonuses(tracks, formula={"vp_by_count": [1, 4]}) == [4, 4, 1]


def test_the_ideas_ruleset_writes_r4_and_draft7_and_base_write_r17_out():
    assert load_ruleset("ideas").bonus == Bonus(formula="distinct_colour_sets", set_size=4, set_vp=3)
    assert "# R4" in (cards_dir() / "ideas" / "rules.yaml").read_text(encoding="utf-8")
    for name in ("draft7", "base"):
        ruleset = load_ruleset(name)
        assert ruleset.bonus == R17
        assert ruleset_to_data(ruleset)["rules"]["bonus"] == {"squares": "all", "formula": "largest_groups"}
        assert "bonus" not in fingerprinted_data(ruleset)["rules"]


def test_a_rules_yaml_without_the_section_keeps_the_fingerprint(tmp_path):
    """An older rules.yaml without ``bonus`` plays R17 under the fingerprint of the one that
    writes it out; any other bonus is other rules, with its own fingerprint."""
    folder = copy_ruleset(tmp_path)
    text = (folder / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("\nbonus:")
    end = text.index("\n", text.index("formula:", start))
    (folder / "rules.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    older = load_ruleset(folder)
    assert older.bonus == R17 and older.fingerprint == load_ruleset("draft7").fingerprint
    replace(folder, "rules.yaml", "max_rounds:", "bonus: {squares: normal}\nmax_rounds:")
    assert load_ruleset(folder).fingerprint != older.fingerprint


def counting_toward(value) -> list[dict]:
    """PLANETS with the black Planet ``e``'s cubes counting toward ``value`` (a lasting
    ``counts_toward``)."""
    return [*PLANETS[:4], {**PLANETS[4], "abilities": [{"lasting": {"counts_toward": value}}]}]


def test_a_planets_cubes_count_toward_the_colours_its_lasting_effect_names():
    """Item 2 of the bonus as data: a lasting ``counts_toward`` names the colours a Planet's
    cubes count as, instead of its own (R17 by default). Seat 0 has two cubes on the red Planet
    and one on the black one, seat 1 two on the blue one and one on the black one."""
    board = {"a": [0, 0], "b": [1, 1], "e": [0, 1]}
    assert bonuses(board) == [2, 2, 0]  # red 2 (black 1); blue 2 (black 1)
    assert bonuses(board, planets=counting_toward("red")) == [3, 2, 0]  # red 3; blue 2, red 1
    assert bonuses(board, planets=counting_toward(["red", "blue"])) == [3, 3, 0]  # red 3, blue 1; blue 3, red 1
    assert bonuses(board, planets=counting_toward("none")) == [2, 2, 0]
    # Under ideas R4 a set holds each cube once: the black Planet's two cubes that count as green
    # and yellow stand as a green and a yellow one beside red and blue, a set; one alone does not.
    four = {"a": [0], "b": [0], "e": [0, 0]}
    assert bonuses(four, planets=counting_toward(["green", "yellow"]), squares="all", formula=R4) == [3, 0, 0]
    assert bonuses({"a": [0], "b": [0], "e": [0]}, planets=counting_toward(["green", "yellow"]), squares="all", formula=R4) == [0, 0, 0]
    assert bonuses(four, planets=counting_toward("green"), squares="all", formula=R4) == [0, 0, 0]


def test_r4_a_cube_of_several_colours_stands_in_one_set_as_one_of_them():
    """P1 with R4 (a cube in one set at most): seat 0's four cubes on a Planet counting toward
    every colour are four colours, one set; seat 1's red, blue and yellow with one such cube a
    set; seat 2's five such cubes one set, not one per colour they count toward (five)."""
    board = {"a": [1], "b": [1], "c": [1], "e": [0, 0, 0, 0, 1, 2, 2, 2, 2, 2]}
    assert bonuses(board, planets=counting_toward("every_colour"), squares="all", formula=R4) == [3, 3, 3]


def _brute_force_sets(own: list[int], several: list[tuple[tuple[int, ...], int]], size: int) -> int:
    """The most sets, by trying every colour for every cube of several colours."""
    cubes = [colours for colours, count in several for _ in range(count)]
    best = 0
    for choice in itertools.product(*cubes):
        counts = list(own)
        for colour in choice:
            counts[colour] += 1
        best = max(best, complete_sets(counts, size))
    return best


@settings(max_examples=300)
@given(
    own=st.lists(st.integers(0, 4), min_size=1, max_size=5),
    picks=st.lists(st.tuples(st.sets(st.integers(0, 4), min_size=1), st.integers(1, 2)), max_size=3),
    size=st.integers(1, 5),
)
def test_complete_sets_with_cubes_of_several_colours_is_the_best_choice_of_a_colour_for_each(own, picks, size):
    """Each cube of several colours standing as one of them, the best choice over all: the
    matching ``complete_sets`` makes finds the most sets (the kernel's is held to it by
    crates/kernel/src/rules/compile.rs's tests and the lockstep over generated rulesets)."""
    several = [(tuple(sorted(c for c in colours if c < len(own))), count) for colours, count in picks]
    several = [(colours, count) for colours, count in several if colours]
    counts = list(own)
    for colours, count in several:
        for colour in colours:
            counts[colour] += count
    expected = _brute_force_sets(own, several, size)
    assert complete_sets(counts, size, several) == expected
    bonus = Bonus(formula="distinct_colour_sets", set_size=size, set_vp=1)
    assert bonus.vp(counts, several) == expected


def test_the_bound_counts_each_cube_once_per_colour_it_counts_toward():
    """R17's largest groups: a Planet counting toward two colours lets a seat's 12 cubes count 24 times."""
    two = game(planets=counting_toward(["red", "blue"])).ruleset
    assert most_bonus_vp(two) == 2 * two.cubes_per_player == 2 * most_bonus_vp(game(planets=PLANETS).ruleset)


@pytest.mark.parametrize(
    ("value", "message", "suggestion"),
    [
        ("gren", "counts_toward is every_colour or none, a colour or a list of colours (the colours of rules.yaml: red, blue, yellow, green, black, white), found 'gren'", "green"),
        ("[red, red]", "colour 'red' is named twice", None),
        ("[red, bleu]", "unknown colour 'bleu'; the colours of rules.yaml: red, blue, yellow, green, black, white", "blue"),
    ],
)
def test_a_counts_toward_naming_no_colour_of_the_ruleset_is_refused_at_its_line(tmp_path, value, message, suggestion):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "planets.yaml", "{counts_toward: every_colour}", f"{{counts_toward: {value}}}")
    problem = only_problem(folder)
    assert (problem.message, problem.suggestion) == (message, suggestion)
    assert problem.line == line_of(folder, "planets.yaml", "counts_toward")


@pytest.mark.parametrize(
    ("value", "lang", "said"),
    [
        (["red", "blue"], "en", "This Planet's cubes count as red, blue for the major-planet bonus, not as its own colour."),
        ("red", "ja", "この惑星のキューブは、専攻惑星ボーナスで自分の色ではなく{red}として数える。"),
        ("every_colour", "en", "This Planet's cubes count toward every colour's group for the major-planet bonus."),
    ],
)
def test_the_colours_a_planet_counts_toward_are_read_back_by_name(value, lang, said):
    r = game(planets=counting_toward(value)).ruleset
    (ability,) = r.planets[4].abilities
    assert describe_ability(ability, r, lang) == said.format(red=colour_name(r, "red", lang))


def with_formula(tmp_path, formula: str):
    """A copy of draft7 whose bonus formula is the YAML ``formula``."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "  formula: largest_groups", f"  formula: {formula}")
    return folder


def test_a_misspelt_formula_is_refused_at_its_line_with_a_did_you_mean(tmp_path):
    folder = with_formula(tmp_path / "name", "largest_group")
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"), line_of(folder, "rules.yaml", "  formula:"), 12, "bonus.formula",
        "unknown value 'largest_group'; expected 'largest_groups'", "largest_groups",
    )
    folder = with_formula(tmp_path / "key", "{distinct_colour_set: {size: 4, vp: 3}}")
    problem = only_problem(folder)
    assert (problem.path, problem.suggestion) == ("bonus.formula.distinct_colour_set", "distinct_colour_sets")
    assert problem.message.endswith("found the key 'distinct_colour_set'")
    folder = with_formula(tmp_path / "missing", "{distinct_colour_sets: {size: 4}}")
    assert only_problem(folder).path == "bonus.formula.distinct_colour_sets"
    folder = with_formula(tmp_path / "squares", "largest_groups")
    replace(folder, "rules.yaml", "  squares: all", "  squares: normals")
    assert (only_problem(folder).path, only_problem(folder).suggestion) == ("bonus.squares", "normal")


def test_a_set_of_more_colours_than_the_ruleset_has_is_refused(tmp_path):
    folder = with_formula(tmp_path, "{distinct_colour_sets: {size: 7, vp: 3}}")
    problem = only_problem(folder)
    assert problem.path == "bonus.formula.distinct_colour_sets.size"
    assert problem.message == "a set of 7 different colours, but the ruleset has 6 colours: no set could be complete"


@pytest.mark.parametrize(
    ("inside", "outside", "message"),
    [
        ("{distinct_colour_sets: {size: 1, vp: 3}}", "{distinct_colour_sets: {size: 0, vp: 3}}", "expected at least 1, found 0"),
        ("{distinct_colour_sets: {size: 4, vp: 0}}", "{distinct_colour_sets: {size: 4, vp: -1}}", "expected at least 0, found -1"),
        ("{distinct_colour_sets: {size: 4, vp: 100}}", "{distinct_colour_sets: {size: 4, vp: 101}}", "expected at most 100 (the schema's maximum), found 101"),
        ("{vp_by_count: [0]}", "{vp_by_count: [-1]}", "expected at least 0, found -1"),
        ("{vp_by_count: [100]}", "{vp_by_count: [101]}", "expected at most 100 (the schema's maximum), found 101"),
        ("{vp_by_count: [1]}", "{vp_by_count: []}", "expected at least 1 item, found none"),
        ("{vp_by_count: [" + ", ".join(["1"] * 100) + "]}", "{vp_by_count: [" + ", ".join(["1"] * 101) + "]}",
         "expected at most 100 items (the schema's maxItems), found 101"),
    ],
)
def test_each_bound_takes_its_value_and_refuses_one_past_it(tmp_path, inside, outside, message):
    """The schema's bounds (rules.schema.json ``bonus``): the value at the bound loads, one past
    it is refused at the formula's line."""
    load_ruleset(with_formula(tmp_path / "inside", inside))
    folder = with_formula(tmp_path / "outside", outside)
    problem = only_problem(folder)
    assert (problem.line, problem.message) == (line_of(folder, "rules.yaml", "  formula:"), message)


def test_the_set_size_bound_is_the_kernels_colour_limit(tmp_path):
    """size 32 (the most colours the kernel holds) is the schema's maximum; 33 is refused."""
    sets = load_schema("rules")["properties"]["bonus"]["properties"]["formula"]["anyOf"][1]
    assert sets["properties"]["distinct_colour_sets"]["properties"]["size"]["maximum"] == 32
    assert Bonus(formula="distinct_colour_sets", set_size=32, set_vp=1).vp([1] * 32) == 1
    folder = with_formula(tmp_path, "{distinct_colour_sets: {size: 33, vp: 3}}")
    assert only_problem(folder).message == "expected at most 32 (the schema's maximum), found 33"


def test_every_number_is_a_tune_path_and_tuning_it_plays_other_rules():
    ideas = load_ruleset("ideas")
    data = ruleset_to_data(ideas)
    places = [locate(data, f"rules.bonus.formula.distinct_colour_sets.{key}") for key in ("size", "vp")]
    assert [(place.doc_path, place.value) for place in places] == [
        (("bonus", "formula", "distinct_colour_sets", "size"), 4), (("bonus", "formula", "distinct_colour_sets", "vp"), 3),
    ]
    edited = apply_edits(ideas, {"rules.bonus.formula.distinct_colour_sets.vp": 5})
    assert edited.bonus.set_vp == 5 and edited.fingerprint != ideas.fingerprint
    table = Bonus(formula="vp_by_count", vp_by_count=(1, 3))
    assert locate({"rules": {"bonus": table.to_data()}}, "rules.bonus.formula.vp_by_count[1]").value == 3


def test_the_bound_is_the_most_a_bonus_can_give():
    """R17: a seat's cubes, each counted once (12 in draft 7); ideas R4: 3 VP per set, at most
    12 / 4 sets; a VP table: its largest entry within the cubes a seat owns. The kernel receives it."""
    draft7, ideas = load_ruleset("draft7"), load_ruleset("ideas")
    assert most_bonus_vp(draft7) == 12 == Game(draft7).bounds.most_bonus_vp
    assert R17.most_vp(12, 12) == 12 and R17.vp([6, 6]) == 12
    assert Bonus(formula="distinct_colour_sets", set_size=4, set_vp=3).most_vp(12, 12) == 9
    assert Bonus(formula="vp_by_count", vp_by_count=(1, 9, 2)).most_vp(1, 1) == 1
    assert Bonus(formula="vp_by_count", vp_by_count=(1, 9, 2)).most_vp(12, 12) == 9
    game_ideas = Game(ideas)
    assert native.kernel_for(game_ideas).bounds()["most_bonus_vp"] == game_ideas.bounds.most_bonus_vp


def test_the_rules_text_and_the_sheet_state_the_bonus_from_the_data(capsys):
    assert main(["rules", "ideas", "--lang", "en"]) == 0
    ideas_en = capsys.readouterr().out
    assert "Score 3 VP for each complete set of 4 different colours" in ideas_en
    assert main(["rules", "draft7", "--lang", "en"]) == 0
    draft7_en = capsys.readouterr().out
    assert "three cubes in each of four colours score 12 VP" in draft7_en and "complete set" not in draft7_en
    assert main(["rules", "ideas", "--lang", "ja"]) == 0
    assert "異なる4色のキューブを1個ずつ揃えた組1つにつき3VP" in capsys.readouterr().out
    sheet = " ".join(text for _, text in sheet_items(load_ruleset("ideas"), "en"))
    assert "complete set of 4 different colours" in sheet
    tabled = game(planets=PLANETS, bonus={"squares": "normal", "formula": {"vp_by_count": [1, 4]}}).ruleset
    assert bonus_paragraph(tabled, "en") == (
        "Major-planet bonus: sort your own cubes on the Planets' normal squares by planet colour (cubes on special "
        "squares do not count). Score VP by the number of cubes in your largest colour group: 1 VP for 1 cube, 4 VP for 2 or more cubes."
    )
    assert "最も多い色の個数に応じてVPを得る：1個 1VP、2個以上 4VP。" in bonus_paragraph(tabled, "ja")
    sheet = " ".join(text for _, text in sheet_items(tabled, "en"))
    assert "it does not count for the major-planet bonus" in sheet
