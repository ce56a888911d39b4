"""R10 as data: rules.yaml's ``end`` (docs/rules.md, R10).

At the end of each round, never mid-round, the game ends when any condition of ``end`` holds,
each read with nobody as "you"; ``game_over`` names the conditions that hold in the section's
order, then ``round_limit`` (``max_rounds``, built in). Each worked example plays on the Python
engine and on the native kernel from the same position, and both must reach the same state
after every decision; then the loader's checks, the default of a file without the section,
the fingerprint and the schema's bounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from builders import DEFAULT_PLANETS, Script, armstrong, crew, game, of, planet, ruleset, ruleset_data
from differential import canonical

from stargazer_rules.engine.game import Game
from stargazer_rules.engine.state_checks import state_problems
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.model import DRAFT7_END, DRAFT7_END_DATA
from stargazer_rules.text.messages import trigger_name
from stargazer_rules.text.tables import end_conditions_text, setups_table
from stargazer_rules.tuning.edits import apply_edits
from stargazer_rules.tuning.paths import locate

#: Ideas R10: the game ends when the free-cube stock is empty at the end of a round.
STOCK_EMPTY = {"equal": ["stock", 0]}
#: Draft 7's two, then R10's stock.
WITH_R10 = {**DRAFT7_END_DATA, "stock_empty": STOCK_EMPTY}


class Both(Script):
    """A ``Script`` whose every decision the kernel plays too, from the same state: both must agree."""

    def do(self, act):
        assert native.kernel_for(self.game) is not None, native.fallback_reason(self.game)
        kernel = native.to_kernel(self.game, self.state)
        events = super().do(act)
        kernel.step(act)
        assert canonical(native.from_kernel(kernel)) == canonical(self.state)
        return events


def _folder(tmp_path: Path, planets=DEFAULT_PLANETS, **rules) -> Path:
    """A ruleset folder written in the given key order (the builders' cache sorts keys; the
    order of ``end`` is the log's)."""
    folder = tmp_path / "ruleset"
    folder.mkdir(parents=True)
    for file_name, document in ruleset_data(planets, **rules).items():
        (folder / file_name).write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def _with_free_cubes(g: Game, crew_free: tuple[int, ...]):
    """Round 1, seat 0 to pick, ``crew_free`` on the crews (Armstrong, w, x, y, z) and the rest in the stock."""
    state = Script(g).state
    state = state._replace(crew_free=crew_free, stock=g.ruleset.free_cubes - sum(crew_free))
    return state._replace(legal=g.derive_legal(state))


# -- worked examples on both engines -----------------------------------------------------------


def test_r10_an_empty_stock_ends_the_game_at_the_round_end_not_mid_round():
    """6 free cubes, all on the crews from the start: the stock is empty all round, yet the
    game ends only once the round is over, and hands out no free cubes (R11)."""
    g = game(free_cubes=6, end=WITH_R10)
    s = Both(g, _with_free_cubes(g, (3, 0, 3, 0, 0)))
    s.turn("w")
    assert (s.state.stage, s.state.triggers, s.state.stock) == ("pick_crew", (), 0)
    s.turn("y")
    assert s.state.stage == "pick_crew"
    s.turn("z")
    assert (s.state.stage, s.state.triggers) == ("over", ("stock_empty",))
    assert of(s.last, "game_over") == [{"round": 1, "triggers": ["stock_empty"]}]
    assert s.state.crew_free == (3, 0, 3, 0, 0)  # no free cubes at a game's end


def test_r10_a_stock_refilled_by_a_motivation_bonus_goes_on():
    """The stock empty at the round's start but 3 free cubes back from x's motivation bonus (R6): the game goes on."""
    g = game(free_cubes=6, end=WITH_R10)
    s = Both(g, _with_free_cubes(g, (3, 0, 3, 0, 0)))
    s.turn("x")
    s.turn("y")
    s.turn("z")
    assert (s.state.stage, s.state.round) == ("pick_crew", 2)


def test_draft7s_hand_empty_still_ends_the_game():
    s = Both(game(cubes_per_player=2, end=WITH_R10))
    s.turn("w", "a", 2)
    assert s.state.stage == "pick_crew"
    s.turn("x")
    s.turn("y")
    assert s.state.triggers == ("hand_empty",)


def test_draft7s_planets_full_still_ends_the_game_and_the_log_keeps_the_sections_order(tmp_path):
    """a has 2 squares: full with one Planet to end (R10); the log names planets_full, then the stock."""
    planets = (planet("a", "red", [1, 2]), *DEFAULT_PLANETS[1:])
    rules = {"free_cubes": 0, "end": {"planets_full": DRAFT7_END_DATA["planets_full"], "stock_empty": STOCK_EMPTY}}
    g = Game(load_ruleset(_folder(tmp_path, planets, full_planets_to_end=1, **rules)))
    s = Both(g)
    s.turn("w", "a", 2)  # a survey walks on: one cube on a, one on b (R4)
    s.turn("x", "a", 2)
    s.turn("y")
    assert s.state.triggers == ("planets_full", "stock_empty")
    reordered = {"free_cubes": 0, "end": {"stock_empty": STOCK_EMPTY, "planets_full": DRAFT7_END_DATA["planets_full"]}}
    g = Game(load_ruleset(_folder(tmp_path / "again", planets, full_planets_to_end=1, **reordered)))
    s = Both(g)
    s.turn("w", "a", 2)
    s.turn("x", "a", 2)
    s.turn("y")
    assert s.state.triggers == ("stock_empty", "planets_full")
    assert g.ruleset.trigger_names == ("stock_empty", "planets_full", "round_limit")


def test_a_condition_over_seats_and_the_round_limit_after_it():
    """"Every player holds at least 12 cubes": true while nobody places, so the game ends after
    round 1; at max_rounds 1 the round limit is named after it."""
    everyone = {"equal": [{"seats": {"where": {"at_least": [{"hand": "this_seat"}, 12]}}}, "players"]}
    s = Both(game(end={"nobody_placed": everyone}, max_rounds=1))
    s.turn("w")
    s.turn("x")
    s.turn("y")
    assert s.state.triggers == ("nobody_placed", "round_limit")
    assert state_problems(s.game, s.state) == []


def test_the_ideas_ruleset_writes_r10_and_r5():
    ideas = load_ruleset("ideas")
    assert ideas.trigger_names == ("hand_empty", "planets_full", "stock_empty", "round_8_played", "round_limit")
    assert ruleset_to_data(ideas)["rules"]["end"]["stock_empty"] == STOCK_EMPTY
    assert ruleset_to_data(ideas)["rules"]["end"]["round_8_played"] == {"at_least": ["round", 8]}
    assert native.kernel_for(ideas) is not None, native.fallback_reason(ideas)


@pytest.mark.parametrize("round_", [7, 8])
def test_r5_the_ideas_game_ends_at_the_end_of_round_8_scored_as_usual(round_):
    """Ideas R5: a game still going at round 8 ends when round 8 ends, not before, whatever the
    other conditions say; the score is the usual one (majority, bonus, play). Played from round
    ``round_`` on both engines, every decision the first legal one."""
    g = Game(load_ruleset("ideas"))
    state = g.new_state(players=3, seed=5)
    while state.stage == "setup":  # R6's placements first
        state, _ = g.apply(state, g.legal_actions(state)[0])
    s = Both(g, state._replace(round=round_))
    while not g.is_over(s.state):
        assert s.state.round <= 8
        s.do(g.legal_actions(s.state)[0])
    assert s.state.round == 8 and "round_8_played" in s.state.triggers
    sheet = g.score(s.state)
    assert sheet.final and all(seat.total == seat.majority_vp + seat.bonus_vp + seat.play_vp for seat in sheet.seats)


# -- the default, the fingerprint, the state ---------------------------------------------------


def test_a_file_without_the_section_plays_draft7s_two_with_the_same_fingerprint():
    older = ruleset()
    assert older.end == DRAFT7_END
    assert older == ruleset(end=DRAFT7_END_DATA)
    assert older.fingerprint == ruleset(end=DRAFT7_END_DATA).fingerprint
    assert older.fingerprint != ruleset(end=WITH_R10).fingerprint
    assert older.fingerprint != ruleset(end={"hand_empty": DRAFT7_END_DATA["hand_empty"]}).fingerprint
    draft7 = load_ruleset("draft7")
    assert draft7.end == DRAFT7_END and "end" in yaml.safe_load(Path(draft7.source, "rules.yaml").read_text(encoding="utf-8"))


def test_the_order_of_the_conditions_changes_the_fingerprint(tmp_path):
    first = load_ruleset(_folder(tmp_path / "a", end=WITH_R10))
    second = load_ruleset(_folder(tmp_path / "b", end=dict(reversed(WITH_R10.items()))))
    assert first.fingerprint != second.fingerprint


def test_a_state_naming_a_trigger_of_another_ruleset_is_refused():
    g = game(end={"stock_empty": STOCK_EMPTY})
    over = Script(g).state._replace(stage="over", triggers=("hand_empty",), legal=())
    assert "$.triggers: 'hand_empty' is not a trigger (stock_empty, round_limit)" in state_problems(g, over)


# -- the words ----------------------------------------------------------------------------------


def test_trigger_names_read_the_condition_where_the_catalogue_has_no_phrase():
    r = ruleset(end=WITH_R10)
    assert trigger_name("hand_empty", "en", r) == "a player has no cubes left"
    assert trigger_name("stock_empty", "en", r) == "the number of free cubes in the stock is 0"
    assert trigger_name("stock_empty", "ja", r) == "ストックのフリーキューブの数が0と等しい"
    # A draft 7 name over another condition is read from the data, not the catalogue.
    other = ruleset(end={"hand_empty": STOCK_EMPTY})
    assert trigger_name("hand_empty", "en", other) == "the number of free cubes in the stock is 0"
    assert end_conditions_text(r, "en") == (
        "a player has no cubes left, enough Planets are full, or the number of free cubes in the stock is 0"
    )
    full = ruleset(end={"full": {"at_least": [{"planets": "full"}, "full_planets_to_end"]}, "x": STOCK_EMPTY})
    assert end_conditions_text(full, "en").startswith(
        "the number of full Planets is at least the player-count table's number of full Planets to end"
    )


def test_an_end_condition_with_its_own_count_of_full_planets_is_the_one_truth():
    """One truth, not two: where no rule reads the player-count table's full_planets_to_end (an
    end condition written with its own count), the table says to see the end conditions."""
    own = ruleset(end={"full": {"at_least": [{"planets": "full"}, 2]}, "x": STOCK_EMPTY})
    assert [row[4] for row in setups_table(own, "en").rows] == ["see the end conditions"]
    assert [row[4] for row in setups_table(own, "ja").rows] == ["終了条件を参照"]
    assert end_conditions_text(own, "en").startswith("the number of full Planets is at least 2")
    read = ruleset(end={"full": {"at_least": [{"planets": "full"}, "full_planets_to_end"]}, "x": STOCK_EMPTY})
    assert [row[4] for row in setups_table(read, "en").rows] == [str(read.setups[3].full_planets_to_end)]
    assert [row[4] for row in setups_table(ruleset(), "en").rows] == [str(ruleset().setups[3].full_planets_to_end)]


# -- the loader ----------------------------------------------------------------------------------


def _problems(**rules) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as caught:
        ruleset(**rules)
    return [(p.path, p.message + (f" (did you mean {p.suggestion!r}?)" if p.suggestion else "")) for p in caught.value.problems]


def test_a_misspelt_word_is_located_with_a_did_you_mean():
    [(path, message)] = _problems(end={"stock_empty": {"equal": ["stok", 0]}})
    assert path == "end.stock_empty.equal[0]" and "did you mean 'stock'" in message
    [(path, message)] = _problems(end={"stock_empty": {"equals": ["stock", 0]}})
    assert path == "end.stock_empty.equals" and "did you mean 'equal'" in message


def test_errors_are_located_at_file_line_column():
    with pytest.raises(RulesetError) as caught:
        ruleset(end={"stock_empty": {"equal": ["stok", 0]}})
    [problem] = caught.value.problems
    assert problem.file.endswith("rules.yaml") and problem.line > 0 and problem.column > 0
    assert f"rules.yaml:{problem.line}:{problem.column}" in str(caught.value)


def test_round_limit_is_not_an_id_of_the_section():
    [(path, message)] = _problems(end={"round_limit": STOCK_EMPTY})
    assert path == "end.round_limit" and "round limit's own trigger" in message


def test_me_is_refused_where_nobody_is_you():
    [(path, message)] = _problems(end={"mine": {"equal": [{"hand": "me"}, 0]}})
    assert path == "end.mine" and message.startswith('at a round\'s end nobody is "you", so me names nobody here')


def test_a_bound_word_with_nothing_bound_is_refused():
    [(path, message)] = _problems(end={"here": {"equal": [{"hand": "this_seat"}, 0]}})
    assert path == "end.here.equal[0].hand" and "none is bound here" in message


@pytest.mark.parametrize(
    ("count", "refused"),
    [(0, True), (1, False), (7, False), (8, True)],
)
def test_schema_bounds_at_and_one_past(count, refused):
    section = {f"c{i}": STOCK_EMPTY for i in range(count)}
    if refused:
        assert [path for path, _ in _problems(end=section)] == ["end"]
    else:
        assert len(ruleset(end=section).trigger_names) == count + 1


@pytest.mark.parametrize("trigger_id", ["Stock", "stock empty", "-stock", "s" * 41])
def test_a_trigger_id_is_an_id(trigger_id):
    assert [path for path, _ in _problems(end={trigger_id: STOCK_EMPTY})] == ["end"]


def test_a_ruleset_where_nothing_places_is_warned_only_under_draft7s_end():
    """No survey and no skill placing: draft 7's end can never hold, R10's stock can."""
    crews = (armstrong(0), crew("w", 0), crew("x", 0), crew("y", 0), crew("z", 0))
    assert any("round limit" in warning for warning in ruleset_warnings(ruleset(crew=crews)))
    assert not any("round limit" in warning for warning in ruleset_warnings(ruleset(crew=crews, end=WITH_R10)))


def test_tune_paths_reach_a_number_inside_a_condition():
    ideas = load_ruleset("ideas")
    path = "rules.end.stock_empty.equal[1]"
    assert locate(ruleset_to_data(ideas), path).value == 0
    edited = apply_edits(ideas, {path: 2})
    assert edited.end_trigger("stock_empty").condition.to_data() == {"equal": ["stock", 2]}
    assert edited.trigger_names == ideas.trigger_names and edited.fingerprint != ideas.fingerprint
