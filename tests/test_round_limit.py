"""The round limit: a rule the draft does not have, so that every game ends (docs/rules.md)."""

from __future__ import annotations

from builders import Script, crew, game, keys, of

from stargazer_rules import load_ruleset
from stargazer_rules.loader import DEFAULT_MAX_ROUNDS


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
