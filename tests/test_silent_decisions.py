"""Worked examples of decisions the rulings leave open, where no other test pins them down.

docs/rules.md, "Decisions where the rulings are silent", lists every such decision with the
tests that prove it; these are the ones the ruling and effect tests did not cover. Planets
a..e and crew follow tests/builders.py: Armstrong in slot 0, then the crew in file order.
"""

from __future__ import annotations

from builders import Script, armstrong, crew, effect, game, of, planet, unpicked_crews

from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action


def test_change_survey_count_never_drops_below_zero():
    """A negative change_survey_count larger than the survey count leaves 0: placing nothing only."""
    s = Script(game(crew=[armstrong(), crew("m", 1, [effect("change_survey_count", delta=-3)]), crew("x"), crew("y")]))
    s.pick("m")
    assert s.legal == (action(A.SURVEY, -1, 0),)
    assert of(s.survey_none(), "survey_done") == [{"player": 0, "cubes": 0}]


def test_add_free_cubes_may_feed_a_crew_chosen_this_round():
    """add_free_cubes may target a crew with a worker on it: the cube waits there for a later chooser."""
    s = Script(game(crew=[armstrong(), crew("r", 2, [effect("add_free_cubes")]), crew("w"), crew("x"), crew("y")]))
    s.turn("w")
    s.pick("r")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x", "y"]
    s.target_crew("w")
    s.survey_none()
    s.turn("x")  # round end: R11 gives Armstrong and y a cube; w, chosen, keeps the skill's cube
    assert (s.free_on("armstrong"), s.free_on("w"), s.free_on("y"), s.state.stock) == (1, 1, 1, 9)
    assert of(s.pick("w"), "motivation_bonus") == [
        {"player": 0, "crew": "w", "free_cubes": 1, "player_cubes": 0, "vp": 1}
    ]


def test_place_on_crew_is_not_capped_like_free_cubes():
    """R11's cap counts free cubes only: place_on_crew may stack more player cubes on one crew."""
    g = game(
        crew=[armstrong(), crew("q", 2, [effect("place_on_crew", count=4)]), crew("x"), crew("y")],
        round_end=unpicked_crews(cap=3),
    )
    s = Script(g)
    s.pick("q")
    for _ in range(4):
        assert "x" in s.targets(A.TARGET_CREW)
        s.target_crew("x")
    assert s.cubes_on("x") == (0, 0, 0, 0)
    assert s.state.hands == (8, 12, 12)


def test_free_cubes_on_a_planet_count_toward_its_fullness():
    """Free cubes fill normal squares (R2), so a Planet filled by them counts for the R10 end."""
    planets = [planet("a", "red", [3]), planet("b", "blue", [1, 2, 3]), planet("c", "green", [1, 2, 3])]
    g = game(
        planets=planets,
        crew=[armstrong(), crew("f", 2, [effect("place_free_cubes")]), crew("x"), crew("y")],
        full_planets_to_end=1,
    )
    s = Script(g)
    s.pick("f")
    s.target_planet("a")
    s.survey_none()
    s.turn("x")
    s.turn("y")
    assert s.state.triggers == ("planets_full",)
    result = g.score(s.state).planets[0]
    assert (result.full, [(st.owner, st.vp) for st in result.standings]) == (True, [(-1, 3)])


def test_repeat_with_a_direction_commits_to_the_first_direction_taken():
    """allow_repeat_planet with choose_direction: the first step to another Planet fixes the direction."""
    skill = [effect("allow_repeat_planet"), effect("choose_direction")]
    s = Script(game(crew=[armstrong(), crew("e", 4, skill), crew("x"), crew("y")]))
    s.pick("e")
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["a", "b", "e"]  # stay, clockwise or counter-clockwise
    s.step("e")  # a -> e is counter-clockwise
    assert s.targets(A.SURVEY_STEP) == ["d", "e"]
    s.step("d")
    assert s.targets(A.SURVEY_STEP) == ["c", "d"]
    assert (s.track("a"), s.track("e"), s.track("d")) == ((0,), (0,), (0,))
