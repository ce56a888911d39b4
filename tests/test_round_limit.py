"""The round limit: a rule the draft does not have, so that every game ends (docs/rules.md);
and the warning for a ruleset whose games could end no other way."""

from __future__ import annotations

import random

import pytest
import yaml
from builders import Script, crew, effect, game, keys, of, ruleset, ruleset_data

from stargazer_rules import Game, State, load_ruleset
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import DEFAULT_MAX_ROUNDS


def test_round_limit_ends_a_game_where_nobody_places_a_cube() -> None:
    """With survey minimum 0 (R7) nobody has to place; max_rounds ends the game anyway."""
    script = Script(game(max_rounds=2, crew=[crew("w"), crew("x"), crew("y"), crew("z")]))
    script.turn("w")
    script.turn("x")
    script.turn("y")
    assert script.state.round == 2
    assert not script.game.is_over(script.state)
    script.turn("w")
    script.turn("x")
    events = script.turn("y")
    assert script.game.is_over(script.state)
    assert script.state.triggers == ("round_limit",)
    assert of(events, "game_over") == [{"round": 2, "triggers": ["round_limit"]}]
    assert keys(events)[-1] == "game_over"


def test_round_limit_is_not_reached_mid_round() -> None:
    """Like R10, the limit is checked only at the end of the round."""
    script = Script(game(max_rounds=1, crew=[crew("w"), crew("x"), crew("y"), crew("z")]))
    script.turn("w")
    script.turn("x")
    assert not script.game.is_over(script.state)
    script.turn("y")
    assert script.state.triggers == ("round_limit",)


def test_round_limit_defaults_when_rules_leave_it_out() -> None:
    """rules.yaml may leave max_rounds out; the loader then uses the documented default."""
    assert game().ruleset.max_rounds == DEFAULT_MAX_ROUNDS == 30
    assert game(max_rounds=7).ruleset.max_rounds == 7


def test_round_limit_of_the_bundled_rulesets() -> None:
    """Draft 7 and base set the limit explicitly, well above any real game's length."""
    assert load_ruleset("draft7").max_rounds == 30
    assert load_ruleset("base").max_rounds == 30


# -- the load-time warning: a ruleset that can only end at the round limit -------------------

#: Skills that move no cube: VP, the start player, free cubes onto crews, survey rules, a
#: smaller survey, and a choice among those.
STILL_SKILLS = [
    [effect("gain_vp", vp=1)],
    [effect("name_start_player")],
    [effect("add_free_cubes", count=1)],
    [effect("allow_repeat_planet"), effect("choose_direction"), effect("may_skip_planets")],
    [effect("choose_one", options=[[effect("gain_vp", vp=1)], [effect("change_survey_count", delta=-1)]])],
]

#: One skill each that does move a cube (out of a hand, or onto a Planet's track).
MOVING_SKILLS = {
    "a larger survey": effect("change_survey_count", delta=1),
    "free cubes onto Planets": effect("place_free_cubes", count=1),
    "cubes from hand onto crews": effect("place_on_crew", count=1),
    "cubes from hand onto special squares": effect("place_on_special", count=1, planets="any"),
    "a choice with a mover": effect(
        "choose_one", options=[[effect("gain_vp", vp=1)], [effect("place_free_cubes", count=1)]]
    ),
}


def still_crew(extra_skill: list | None = None, survey_count: int = 0) -> list[dict]:
    cards = [crew(f"c{index}", 0, skill) for index, skill in enumerate(STILL_SKILLS)]
    cards.append(crew("mover", survey_count, extra_skill or []))
    return cards


def play_random_games(game_: Game, count: int) -> list[State]:
    ends = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game_.new_state(players=3, seed=seed)
        while state.legal:
            state = game_.step(state, rng.choice(state.legal))
        ends.append(state)
    return ends


def test_a_ruleset_where_no_cube_can_move_is_warned_and_really_ends_only_at_the_limit() -> None:
    still = ruleset(crew=still_crew(), max_rounds=6)
    [warning] = ruleset_warnings(still)
    assert warning.endswith(
        "crew.yaml: every survey_count is 0 and no skill takes a cube from a hand or puts one on a "
        "Planet, so no hand empties and no Planet fills (R10): every game would end at the round "
        "limit (max_rounds: 6)"
    )
    for end in play_random_games(Game(still), 20):
        assert end.triggers == ("round_limit",) and end.round == 6
        assert all(hand == still.cubes_per_player for hand in end.hands)


@pytest.mark.parametrize("mover", sorted(MOVING_SKILLS))
def test_one_skill_that_moves_cubes_is_enough_and_does_move_one(mover) -> None:
    """The check promises no more than that: a cube can leave a hand or reach a track. (Whether
    enough can, to empty a hand or fill Planets, depends on counts the check does not weigh.)"""
    moving = ruleset(crew=still_crew([MOVING_SKILLS[mover]]), max_rounds=20)
    assert ruleset_warnings(moving) == []
    ends = play_random_games(Game(moving), 10)
    assert any(
        min(end.hands) < moving.cubes_per_player or any(end.tracks) for end in ends
    ), f"{mover}: no cube moved in 10 games"


def test_one_crew_that_surveys_is_enough() -> None:
    assert ruleset_warnings(ruleset(crew=still_crew(survey_count=1))) == []
    assert ruleset_warnings(load_ruleset("draft7")) == ruleset_warnings(load_ruleset("base")) == []


def test_validate_prints_the_warning_and_still_exits_0(tmp_path, capsys) -> None:
    folder = tmp_path / "still"
    folder.mkdir()
    for file_name, document in ruleset_data(crew=still_crew()).items():
        (folder / file_name).write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    assert main(["validate", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{folder}: valid — ")
    assert out[1].startswith(f"warning: {folder}/crew.yaml: every survey_count is 0")
    assert main(["rules", str(folder)]) == 0
    assert capsys.readouterr().err.startswith(f"stargazer rules: warning: {folder}/crew.yaml: every survey_count is 0")
