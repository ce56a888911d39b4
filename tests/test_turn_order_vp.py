"""Turn-order VP: a knob not in the draft, the VP each player starts with by turn position.

``rules.yaml: setup.turn_order_vp`` (docs/rules.md, "Turn-order VP"): at setup the player at
turn position i (0: the start player, clockwise after it, R4) gets ``turn_order_vp[i]`` VP,
scored like VP from play, so it counts in the provisional totals, the final score and R18's
tie-break. Worked examples on both engines, the loader's and the schema's checks, the state
checkers' bounds, and what ``stargazer rules``, ``stargazer print`` and ``stargazer diff`` show.
"""

from __future__ import annotations

import random

import pytest

from builders import Script, deal_all, game, planet
from differential import kernel_state, play_lockstep
from ruleset_edits import copy_ruleset, line_of, only_problem, problems_of, replace
from stargazer_rules import Game, load_ruleset
from stargazer_rules.engine import state_checks
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.errors import Problem
from stargazer_rules.frontends.cli import main
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.rulesets.diff import diff_rulesets, format_changes
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.rulesets.resources import cards_dir

#: The knob's line in the bundled rules.yaml of draft7 and base.
BUNDLED_LINE = "turn_order_vp: [0, 0, 0, 0]"
#: draft7's other setup key, no setup step (docs/rules.md, "Setup steps"), with its comment.
EACH_PLAYER_LINE = next(line + "\n" for line in (cards_dir() / "draft7" / "rules.yaml").read_text(encoding="utf-8").splitlines() if "each_player:" in line)

#: Planets for the tie example: "a" pays 2 VP for a lone cube, the rest 1.
TIE_PLANETS = (
    planet("a", "red", [2, 1]),
    planet("b", "blue", [1, 1]),
    planet("c", "yellow", [1, 1]),
    planet("d", "green", [1, 1]),
    planet("e", "red", [1, 1]),
)


class RecordedScript(Script):
    """A script that keeps every action it plays, to play them again on the kernel."""

    def __init__(self, g: Game, *, start_player: int = 0) -> None:
        self.actions: list = []
        super().__init__(g, start_player=start_player)

    def do(self, act):
        self.actions.append(act)
        return super().do(act)


def with_turn_order_vp(tmp_path, values: str, name: str = "draft7"):
    """A copy of a bundled ruleset whose turn_order_vp is the YAML list ``values``."""
    folder = copy_ruleset(tmp_path, name)
    replace(folder, "rules.yaml", BUNDLED_LINE, f"turn_order_vp: {values}")
    return folder


# -- the rule, worked -------------------------------------------------------------------------


def test_each_seat_starts_with_the_vp_of_its_turn_position_on_both_engines():
    """[0, 1, 2, 3] with seat 2 to start: seats 2, 3, 0, 1 take turns in that order and start
    with 0, 1, 2, 3 VP; the provisional totals are those VP, in both engines."""
    g = game(players=4, setup={"turn_order_vp": [0, 1, 2, 3]})
    setup = deal_all(g, start_player=2)
    state = g.new_state(setup=setup)
    assert state.vp == (2, 3, 0, 1)
    assert provisional_totals(g, state) == (2, 3, 0, 1)
    theirs = kernel_state(g, setup)
    assert native.from_kernel(theirs).vp == (2, 3, 0, 1)
    assert tuple(theirs.totals()) == (2, 3, 0, 1)


def test_starting_vp_counts_in_the_final_score_and_r18_breaks_the_tie_by_cubes_in_hand():
    """One cube each: seat 0 scores 2 (majority) + 1 (bonus) = 3, seat 3 places none and has its
    3 starting VP; tied on 3, seat 3 wins with a cube left in hand (R18). Both engines agree."""
    g = game(planets=TIE_PLANETS, players=4, cubes_per_player=1, setup={"turn_order_vp": [0, 1, 2, 3]})
    s = RecordedScript(g)
    s.turn("w", "a", 1)
    s.turn("x")
    s.turn("y")
    s.turn("z")
    assert s.state.stage == "over"
    sheet = g.score(s.state)
    lines = [(seat.majority_vp, seat.bonus_vp, seat.play_vp, seat.total, seat.hand) for seat in sheet.seats]
    assert lines == [(2, 1, 0, 3, 0), (0, 0, 1, 1, 1), (0, 0, 2, 2, 1), (0, 0, 3, 3, 1)]
    assert sheet.winners == (3,)
    theirs = kernel_state(g, deal_all(g))
    for act in s.actions:
        theirs.step(act)
    assert theirs.seat_totals() == lines
    assert theirs.winners() == [3]


def test_without_starting_vp_the_same_game_is_won_by_the_start_player():
    """The same moves with the knob left out: seat 0's 3 VP win alone (the knob decided it)."""
    g = game(planets=TIE_PLANETS, players=4, cubes_per_player=1)
    s = Script(g)
    for crew_id, planet_id, count in (("w", "a", 1), ("x", None, 0), ("y", None, 0), ("z", None, 0)):
        s.turn(crew_id, planet_id, count)
    assert [seat.total for seat in g.score(s.state).seats] == [3, 0, 0, 0]
    assert g.score(s.state).winners == (0,)


def test_a_smaller_table_uses_the_first_values():
    """draft7 with [4, 3, 2, 1]: a 3-player game starting at seat 1 gives seats 1, 2, 0 the
    first three values; the fourth is unused."""
    g = game(players=3, setup={"turn_order_vp": [4, 3, 2, 1]})
    assert g.new_state(setup=deal_all(g, start_player=1)).vp == (2, 4, 3)


def test_random_games_with_starting_vp_play_alike_on_both_engines(tmp_path):
    """draft7 and base with [0, 1, 2, 3] and [7, 0, 0, 1000]: 30 random games per player count,
    every decision equal on the Python engine and the kernel (tests/differential.py)."""
    decisions = 0
    for index, (name, values) in enumerate((("draft7", "[0, 1, 2, 3]"), ("base", "[7, 0, 0, 1000]"))):
        g = Game(load_ruleset(with_turn_order_vp(tmp_path / str(index), values, name)))
        for players in g.ruleset.player_counts:
            for seed in range(30):
                decisions += play_lockstep(g, g.deal(players, seed), random.Random(seed))
    assert decisions > 2 * 2 * 30 * 30


# -- what a state may hold --------------------------------------------------------------------


def test_the_state_checkers_allow_the_starting_vp_and_no_more():
    """A ruleset whose play scores no VP (no skills, motivation 0, one round): its most VP is
    the largest starting VP, so the setup passes both checkers and one VP more is refused by
    both with the same reason."""
    g = game(
        players=3,
        max_rounds=1,
        motivation={"free_cube_vp": 0, "player_cube_vp": 0},
        setup={"turn_order_vp": [0, 5, 2]},
    )
    assert g.bounds.most_vp == 5
    kernel = native.kernel_for(g)
    assert kernel.bounds()["most_vp"] == 5
    state = g.new_state(setup=deal_all(g))
    assert state.vp == (0, 5, 2)
    assert state_checks.state_problems(g, state) == [] == kernel.state_problems(state)
    over = state._replace(vp=(0, 6, 2))
    expected = ["$.seats[1].vp: 6 is outside 0..5"]
    assert state_checks.state_problems(g, over) == expected == kernel.state_problems(over)


# -- the loader --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_the_bundled_rulesets_start_nobody_with_vp(name):
    """draft7 and base write the knob, all zeros: every seat starts with 0 VP."""
    ruleset = load_ruleset(name)
    assert ruleset.turn_order_vp == (0, 0, 0, 0)
    assert Game(ruleset).new_state(players=4, seed=1).vp == (0, 0, 0, 0)


def test_left_out_it_is_a_zero_per_seat_and_the_data_is_the_same(tmp_path):
    """No setup key: zeros for the largest table (4), the same data and fingerprint as draft7,
    which writes [0, 0, 0, 0]."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "setup:\n  " + BUNDLED_LINE, "")
    replace(folder, "rules.yaml", EACH_PLAYER_LINE, "")  # the section's other key: no setup step either
    ruleset = load_ruleset(folder)
    assert ruleset.turn_order_vp == (0, 0, 0, 0)
    assert ruleset_to_data(ruleset)["rules"]["setup"] == {"turn_order_vp": [0, 0, 0, 0]}
    assert ruleset.fingerprint == load_ruleset("draft7").fingerprint
    empty = copy_ruleset(tmp_path, to="empty")
    replace(empty, "rules.yaml", "setup:\n  " + BUNDLED_LINE, "setup: {}")
    replace(empty, "rules.yaml", EACH_PLAYER_LINE, "")
    assert load_ruleset(empty).fingerprint == ruleset.fingerprint


def test_the_value_enters_the_fingerprint(tmp_path):
    """A seat given 1 VP is other rules: another fingerprint (records are never mixed up)."""
    ruleset = load_ruleset(with_turn_order_vp(tmp_path, "[0, 0, 0, 1]"))
    assert ruleset.turn_order_vp == (0, 0, 0, 1)
    assert ruleset.fingerprint != load_ruleset("draft7").fingerprint


def test_a_list_shorter_than_the_largest_table_names_the_player_count(tmp_path):
    """Three values for draft7's 4-player game: one problem at the list, naming the entry of
    player_counts and how many values to add."""
    folder = with_turn_order_vp(tmp_path, "[0, 1, 2]")
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"),
        line_of(folder, "rules.yaml", "turn_order_vp:"),
        18,
        "setup.turn_order_vp",
        "expected a VP value for each of the 4 turn positions of player_counts[1] (4 players), "
        "found 3; add 1 more (0 for no VP)",
    )


def test_a_longer_list_is_valid_and_kept(tmp_path):
    """Extra values are unused at the ruleset's tables but valid, and kept in the data."""
    ruleset = load_ruleset(with_turn_order_vp(tmp_path, "[0, 1, 2, 3, 9]"))
    assert ruleset.turn_order_vp == (0, 1, 2, 3, 9)
    assert ruleset.starting_vp_by_position == (0, 1, 2, 3)
    assert Game(ruleset).bounds.most_vp == Game(load_ruleset("draft7")).bounds.most_vp + 3


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ("[0, 0, 0, -1]", "expected at least 0, found -1"),
        ("[0, 0, 0, 1001]", "expected at most 1000 (the schema's maximum), found 1001"),
        ("[0, 0, 0, 0, 0, 0, 0, 0, 0]", "expected at most 8 items (the schema's maxItems), found 9"),
        ("[0, 0, 0, 1.5]", "expected an integer, found 1.5 (a number)"),
    ],
)
def test_values_past_the_schema_bounds_are_refused_at_their_line(tmp_path, values, message):
    """Each value 0..1,000 (one past each end refused), 1..8 values (the most seats a ruleset
    has, R14), whole numbers: the schema's problem, at the knob's line."""
    folder = with_turn_order_vp(tmp_path, values)
    problem = only_problem(folder)
    assert (problem.file, problem.line) == (str(folder / "rules.yaml"), line_of(folder, "rules.yaml", "turn_order_vp:"))
    assert problem.message == message


def test_an_empty_list_is_refused_by_the_schema_and_for_the_largest_table(tmp_path):
    """[]: fewer than the schema's one value, and none of the 4 that 4 players need."""
    folder = with_turn_order_vp(tmp_path, "[]")
    line = line_of(folder, "rules.yaml", "turn_order_vp:")
    assert [(p.line, p.column, p.path, p.message) for p in problems_of(folder)] == [
        (line, 18, "setup.turn_order_vp", "expected at least 1 item, found none"),
        (line, 18, "setup.turn_order_vp", "expected a VP value for each of the 4 turn positions of "
         "player_counts[1] (4 players), found 0; add 4 more (0 for no VP)"),
    ]


@pytest.mark.parametrize("values", ["[0, 0, 0, 0]", "[1000, 1000, 1000, 1000]", "[0, 0, 0, 0, 0, 0, 0, 0]"])
def test_values_at_the_schema_bounds_load(tmp_path, values):
    """0 and 1,000 VP, and 8 values, are each taken."""
    ruleset = load_ruleset(with_turn_order_vp(tmp_path, values))
    assert list(ruleset.turn_order_vp) == [int(v) for v in values.strip("[]").split(", ")]


def test_a_misspelt_key_under_setup_is_refused_with_a_suggestion(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", BUNDLED_LINE, "turn_order_pv: [0, 0, 0, 0]")
    problem = only_problem(folder)
    assert problem.path == "setup.turn_order_pv"
    assert problem.message == "unexpected key 'turn_order_pv'; allowed keys: turn_order_vp, each_player"
    assert problem.suggestion == "turn_order_vp"


# -- what the commands show --------------------------------------------------------------------


def test_diff_shows_a_change_of_the_knob(tmp_path):
    """stargazer diff: one knob line, old -> new."""
    changed = load_ruleset(with_turn_order_vp(tmp_path, "[0, 1, 1, 2]"))
    changes = [c for c in diff_rulesets(load_ruleset("draft7"), changed) if c.kind != "ruleset"]
    assert format_changes(changes) == ["knob setup.turn_order_vp: [0, 0, 0, 0] -> [0, 1, 1, 2]"]


def test_rules_shows_the_starting_vp_only_when_a_seat_has_some(tmp_path, capsys):
    """stargazer rules: a row of the counts table, in both languages, absent for draft7."""
    assert main(["rules", "draft7"]) == 0
    assert "Starting VP" not in capsys.readouterr().out
    folder = with_turn_order_vp(tmp_path, "[0, 1, 1, 2, 5]")
    assert main(["rules", str(folder)]) == 0
    assert "  Starting VP by turn order (start player first)  0, 1, 1, 2 VP" in capsys.readouterr().out.splitlines()
    assert main(["rules", str(folder), "--lang", "ja"]) == 0
    assert "0、1、1、2VP" in capsys.readouterr().out


def test_the_rules_sheet_says_the_starting_vp_only_when_a_seat_has_some(tmp_path):
    """stargazer print: a sentence of the setup, after the cubes; none for draft7."""
    sentence = (
        "Starting VP by turn order: clockwise from the start player, the players start with "
        "0, 1, 1, 2 VP. These count like VP scored during play."
    )
    items = sheet_items(load_ruleset(with_turn_order_vp(tmp_path, "[0, 1, 1, 2]")), "en")
    index = items.index(("body", sentence))
    assert items[index - 1][1].startswith("Each player takes the worker and 12 cubes")
    assert not any("Starting VP" in text for _, text in sheet_items(load_ruleset("draft7"), "en"))
