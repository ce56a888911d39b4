"""One worked example per effect type of the skill vocabulary (stargazer_rules/vocabulary/effects/).

Each test gives a crew the effect in a small ruleset (tests/builders.py), plays it, and checks
the exact result, the events and when the effect resolves (its ``when``). Planets a..e are
dealt in ring order; the crew area is Armstrong (slot 0) and then the crew in file order.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
from builders import Script, armstrong, crew, effect, game, keys, of, planet, unpicked_crews
from ruleset_edits import TakeCubesBack, copy_ruleset, replace

from differential import canonical
from stargazer_rules.engine.game import Game
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.effects import (
    AFTER_SURVEY,
    EFFECT_TYPES,
    ON_CHOOSE,
    ROUND_END,
    ChooseOne,
    Effect,
    GainVP,
    NameStartPlayer,
    extend_effect_types,
)
from stargazer_rules.vocabulary.expressions import Limits

CW, CCW = A.CLOCKWISE, A.COUNTER_CLOCKWISE
PLANETS = ["a", "b", "c", "d", "e"]
COLOURS = {"r": "red", "b": "blue", "y": "yellow", "g": "green", "k": "black"}


def with_crew(*cards: dict, planets: list[dict] | None = None, **overrides) -> Script:
    """A 3-player game whose crew area is Armstrong, ``cards`` and plain crew up to 5 slots."""
    used = {card["id"] for card in cards}
    fillers = [crew(crew_id) for crew_id in ("w", "x", "y", "z") if crew_id not in used][: max(0, 4 - len(cards))]
    if planets is not None:
        overrides["planets"] = planets
    return Script(game(crew=[armstrong(), *cards, *fillers], **overrides))


def ring(colours: str = "rbygk", lengths: str = "44444", special_capacity: int | None = None) -> list[dict]:
    """Planets a.. of the given colours (one letter each) and track lengths (one digit each)."""
    return [
        planet(chr(ord("a") + i), COLOURS[c], list(range(1, int(n) + 1)), special_capacity)
        for i, (c, n) in enumerate(zip(colours, lengths, strict=True))
    ]


def placed(events) -> list[tuple[int, str, int]]:
    return [(e["owner"], e["planet"], e["square"]) for e in of(events, "cube_placed")]


def test_every_effect_type_has_a_worked_example():
    """The examples below cover the whole vocabulary, no more and no less."""
    tested = sorted(
        name.removeprefix("test_").split("__")[0] for name in globals() if "__" in name and name.startswith("test_")
    )
    assert sorted(set(tested)) == sorted(EFFECT_TYPES)


# -- add_free_cubes -------------------------------------------------------------------------


def test_add_free_cubes__onto_other_crews_below_the_cap_on_choose():
    """add_free_cubes (on_choose): each free cube goes from the stock onto another crew under the R11 cap."""
    s = with_crew(
        crew("r", 2, [effect("add_free_cubes", count=2)]), crew("w"), crew("x"), crew("y"), round_end=unpicked_crews(cap=1)
    )
    for crew_id in ("w", "x", "y"):
        s.turn(crew_id)
    assert (s.state.crew_free, s.state.stock) == ((1, 1, 0, 0, 0), 10)
    events = s.pick("r")
    assert keys(events) == ["crew_chosen", "motivation_bonus"]
    assert s.state.stage == "before_survey"
    assert s.targets(A.TARGET_CREW) == ["w", "x", "y"]  # not r itself, not Armstrong at the cap
    assert of(s.target_crew("x"), "free_cube_to_crew") == [{"crew": "x"}]
    assert s.targets(A.TARGET_CREW) == ["w", "y"]
    events = s.target_crew("w")
    assert of(events, "free_cube_to_crew") == [{"crew": "w"}]
    assert s.state.crew_free == (1, 0, 1, 1, 0)
    assert s.state.stock == 9  # 10, +1 back from r's motivation bonus, -2
    assert s.state.stage == "survey"


def test_add_free_cubes__after_survey_resolves_after_the_survey():
    """add_free_cubes (after_survey): the cube moves once the survey is done; an empty stock skips it (R9)."""
    card = crew("r", 2, [effect("add_free_cubes", when="after_survey")])
    s = with_crew(card, free_cubes=1)
    assert keys(s.pick("r")) == ["crew_chosen"]
    assert s.state.stage == "survey"
    s.survey("a", 1)
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x", "y"]
    events = s.target_crew("armstrong")
    assert keys(events) == ["free_cube_to_crew", "turn_ended"]
    assert (s.state.crew_free, s.state.stock) == ((1, 0, 0, 0, 0), 0)
    s = with_crew(card, free_cubes=0)
    s.pick("r")
    events = s.survey_none()
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "r", "effect": "add_free_cubes", "remaining": 1}]


# -- allow_repeat_planet --------------------------------------------------------------------


def test_allow_repeat_planet__lets_the_survey_stay_on_a_planet():
    """allow_repeat_planet (survey): the survey goes cube by cube and may put two in a row on one Planet."""
    s = with_crew(crew("e", 3, [effect("allow_repeat_planet")]))
    events = s.pick("e")
    assert of(events, "effect_applied") == [{"player": 0, "crew": "e", "effect": "allow_repeat_planet"}]
    assert s.targets(A.SURVEY_STEP) == PLANETS
    assert action(A.SURVEY_STOP) in s.legal
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["a", "b"]
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["a", "b"]
    events = s.step("b")
    assert placed(events) == [(0, "b", 1)]
    assert of(events, "survey_done") == [{"player": 0, "cubes": 3}]
    assert (s.track("a"), s.track("b"), s.state.hands) == ((0, 0), (0,), (9, 12, 12))
    assert s.player == 1


def test_cube_by_cube_survey_that_can_place_nothing_asks_for_survey_stop_only():
    """R7: with no cube placeable from the start (a survey count of 0 here), a cube-by-cube survey
    asks for survey_stop as the only choice; once cubes are placed, it ends by itself."""
    s = with_crew(crew("e", 0, [effect("allow_repeat_planet")]))
    s.pick("e")
    assert s.legal == (action(A.SURVEY_STOP),)
    events = s.stop()
    assert of(events, "survey_done") == [{"player": 0, "cubes": 0}]
    s = with_crew(crew("e", 1, [effect("allow_repeat_planet")]))
    s.pick("e")
    events = s.step("a")
    assert of(events, "survey_done") == [{"player": 0, "cubes": 1}] and s.player == 1


def test_allow_repeat_planet__survey_may_stop_early():
    """allow_repeat_planet: "up to" still holds (R7), so the survey may stop after any cube."""
    s = with_crew(crew("e", 3, [effect("allow_repeat_planet")]))
    s.pick("e")
    s.step("c")
    events = s.stop()
    assert of(events, "survey_done") == [{"player": 0, "cubes": 1}]
    assert s.track("c") == (0,)


# -- change_survey_count --------------------------------------------------------------------


def test_change_survey_count__changes_only_this_turns_count():
    """change_survey_count (survey): delta is added to the crew's survey count for this turn only."""
    s = with_crew(
        crew("m", 2, [effect("change_survey_count", delta=1)]), crew("l", 2, [effect("change_survey_count", delta=-1)])
    )
    events = s.pick("m")
    assert of(events, "effect_applied") == [{"player": 0, "crew": "m", "effect": "change_survey_count"}]
    assert s.survey_options() == [(None, 0, CW)] + [(p, n, CW) for p in PLANETS for n in (1, 2, 3)]
    s.survey("a", 3)
    assert s.state.hands == (9, 12, 12)
    s.pick("l")
    assert s.survey_options() == [(None, 0, CW)] + [(p, 1, CW) for p in PLANETS]
    s.survey_none()
    s.pick("w")
    assert s.survey_options() == [(None, 0, CW)] + [(p, n, CW) for p in PLANETS for n in (1, 2)]


# -- choose_direction -----------------------------------------------------------------------


def test_choose_direction__survey_may_walk_counter_clockwise():
    """choose_direction (survey): the walk may go counter-clockwise, wrapping the other way."""
    s = with_crew(crew("n", 3, [effect("choose_direction")]))
    events = s.pick("n")
    assert of(events, "effect_applied") == [{"player": 0, "crew": "n", "effect": "choose_direction"}]
    assert ("b", 3, CCW) in s.survey_options()
    assert placed(s.survey("b", 3, CCW)) == [(0, "b", 1), (0, "a", 1), (0, "e", 1)]
    s.pick("w")
    assert all(direction == CW for _, _, direction in s.survey_options())


# -- choose_one -----------------------------------------------------------------------------


def test_choose_one__the_chosen_option_resolves():
    """choose_one (on_choose): the chooser picks an option and its effects resolve in order."""
    s = with_crew(
        crew("l", 2, [effect("choose_one", options=[[effect("gain_vp", vp=2)], [effect("place_on_special")]])])
    )
    s.pick("l")
    assert s.state.stage == "before_survey"
    assert s.legal == (action(A.CHOOSE_OPTION, 0), action(A.CHOOSE_OPTION, 1))
    events = s.option(1)
    assert of(events, "option_chosen") == [{"player": 0, "crew": "l", "option": 1}]
    assert s.targets(A.TARGET_PLANET) == PLANETS
    assert placed(s.target_planet("b")) == [(0, "b", 0)]
    assert (s.special("b"), s.state.hands, s.state.vp) == ((0,), (11, 12, 12), (0, 0, 0))
    assert s.state.stage == "survey"


def test_choose_one__offers_only_options_that_can_be_applied():
    """choose_one: an option none of whose effects can be applied is not offered (R9)."""
    s = with_crew(
        crew("l", 2, [effect("choose_one", options=[[effect("gain_vp", vp=2)], [effect("place_on_special")]])]),
        planets=ring(special_capacity=0),
    )
    s.pick("l")
    assert s.legal == (action(A.CHOOSE_OPTION, 0),)
    events = s.option(0)
    assert keys(events) == ["option_chosen", "vp_gained"]
    assert s.state.vp == (2, 0, 0)


def _kernel_offers(s: Script) -> tuple:
    """The kernel's legal actions from the Script's state (the same position handed over)."""
    kernel = native.to_kernel(s.game, s.state)
    return tuple(action(*act) for act in kernel.legal())


#: Four options: a gain read from the full Planets, a loss, a gain under a condition on them,
#: and a plain gain. With no Planet full and no VP scored, the first three change nothing.
_OPTIONS_THAT_MAY_DO_NOTHING = [
    [effect("gain_vp", vp={"planets": "full"})],
    [effect("lose_vp", vp=1)],
    [effect("if", condition={"at_least": [{"planets": "full"}, 1]}, then=[effect("gain_vp", vp=1)])],
    [effect("gain_vp", vp=1)],
]


def test_choose_one__offers_no_option_that_would_change_nothing():
    """choose_one (R9, docs/skills.md): an option is offered only when one of its effects would
    change the game now. With no Planet full, a gain of "1 VP for each full Planet" is a gain of
    0, a loss from a seat with no VP takes nothing, and an ``if`` on a full Planet resolves no
    effect: only the plain gain is offered, on both engines. Once a Planet is full and seat 0
    holds VP, all four are."""
    s = with_crew(crew("o", 2, [effect("choose_one", options=_OPTIONS_THAT_MAY_DO_NOTHING)]))
    s.pick("o")
    assert s.legal == (action(A.CHOOSE_OPTION, 3),) == _kernel_offers(s)
    s = with_crew(crew("o", 2, [effect("choose_one", options=_OPTIONS_THAT_MAY_DO_NOTHING)]))
    board = s.state._replace(tracks=((1, 2, 1, 2), (), (), (), ()), hands=(12, 10, 10), vp=(2, 0, 0))
    s.state = board._replace(legal=s.game.derive_legal(board))  # a is full; seat 0 holds 2 VP
    s.pick("o")
    assert s.state.vp[0] == 2 and s.player == 0
    assert s.legal == tuple(action(A.CHOOSE_OPTION, i) for i in range(4)) == _kernel_offers(s)
    s.option(0)
    assert s.state.vp[0] == 3


def test_choose_one__whose_every_option_would_change_nothing_is_skipped():
    """choose_one: with no option that would change anything, the effect is skipped (R9), as
    one that cannot be applied, on both engines."""
    s = with_crew(crew("o", 2, [effect("choose_one", options=_OPTIONS_THAT_MAY_DO_NOTHING[:3])]))
    kernel = native.to_kernel(s.game, s.state)
    events = s.pick("o")
    assert keys(events) == ["crew_chosen", "effect_skipped"]
    kernel.step(action(A.PICK_CREW, s.slot("o")))
    assert canonical(native.from_kernel(kernel)) == canonical(s.state)


# -- gain_vp --------------------------------------------------------------------------------


def test_gain_vp__on_choose_scores_at_once():
    """gain_vp (on_choose): the VP are scored as the crew is chosen, before the survey."""
    s = with_crew(crew("h", 2, [effect("gain_vp", vp=2)]))
    events = s.pick("h")
    assert [(e.key, dict(e.params)) for e in events] == [
        ("crew_chosen", {"player": 0, "crew": "h"}),
        ("vp_gained", {"player": 0, "crew": "h", "vp": 2}),
    ]
    assert s.state.vp == (2, 0, 0)


def test_gain_vp__after_survey_scores_once_the_survey_is_done():
    """gain_vp (after_survey): the VP come after the survey's cubes."""
    s = with_crew(crew("h", 2, [effect("gain_vp", vp=3, when="after_survey")]))
    assert keys(s.pick("h")) == ["crew_chosen"]
    assert s.state.vp == (0, 0, 0)
    events = s.survey("d", 1)
    assert keys(events) == ["cube_placed", "survey_done", "vp_gained", "turn_ended"]
    assert s.state.vp == (3, 0, 0)


# -- may_skip_planets -----------------------------------------------------------------------


def test_may_skip_planets__each_cube_goes_on_any_other_planet_with_room():
    """may_skip_planets (survey): each cube may go on any Planet with room but the one just surveyed."""
    s = with_crew(crew("p", 3, [effect("may_skip_planets")]), planets=ring(lengths="41444"))
    s.turn("w", "b", 1)  # b is full
    events = s.pick("p")
    assert of(events, "effect_applied") == [{"player": 1, "crew": "p", "effect": "may_skip_planets"}]
    assert s.targets(A.SURVEY_STEP) == ["a", "c", "d", "e"]
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["c", "d", "e"]
    s.step("d")
    assert s.targets(A.SURVEY_STEP) == ["a", "c", "e"]
    events = s.step("a")
    assert of(events, "survey_done") == [{"player": 1, "cubes": 3}]
    assert (s.track("a"), s.track("d")) == ((1, 1), (1,))


def test_may_skip_planets__at_most_limits_the_planets_the_whole_survey_passes_over():
    """may_skip_planets with at_most (survey): the walk goes on clockwise, each next cube on the
    next Planet with room or one further, passing at most at_most Planets with room in all (R8)."""
    s = with_crew(crew("p", 3, [effect("may_skip_planets", at_most=1)]), planets=ring(lengths="41444"))
    s.turn("w", "b", 1)  # b is full: passed over anyway, no skip
    s.pick("p")
    assert (s.state.survey_skips, s.targets(A.SURVEY_STEP)) == (1, ["a", "c", "d", "e"])
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["c", "d"]  # c next (b full), or d skipping c
    s.step("d")
    assert (s.state.survey_skips, s.targets(A.SURVEY_STEP)) == (0, ["e"])
    events = s.step("e")
    assert of(events, "survey_done") == [{"player": 1, "cubes": 3}]


# -- name_start_player ----------------------------------------------------------------------


def test_name_start_player__resolves_at_round_end_in_the_order_crews_were_chosen():
    """name_start_player (round_end): any crew with it names the start player at round end, in choice order."""
    s = Script(game(crew=[armstrong(), crew("k", 2, [effect("name_start_player")]), crew("x"), crew("y")]))
    assert keys(s.pick("k")) == ["crew_chosen"]
    assert s.state.stage == "survey"
    s.survey_none()
    s.turn("armstrong")
    events = s.turn("x")
    assert of(events, "free_cube_to_crew") == [{"crew": "y"}]
    assert (s.state.stage, s.player) == ("round_end", 0)
    assert s.legal == tuple(action(A.NAME_START_PLAYER, seat) for seat in range(3))
    assert of(s.name_start(2), "start_player_named") == [{"player": 0, "start_player": 2}]
    assert s.player == 1  # Armstrong's chooser decides second
    events = s.name_start(1)
    assert [(e.key, dict(e.params)) for e in events] == [
        ("start_player_named", {"player": 1, "start_player": 1}),
        ("round_started", {"round": 2, "start_player": 1}),
    ]
    assert (s.state.start_player, s.player) == (1, 1)


# -- place_free_cubes -----------------------------------------------------------------------


def test_place_free_cubes__stock_cubes_onto_planets_for_the_virtual_player():
    """place_free_cubes (on_choose): each free cube goes on the next square of a Planet with room, owner -1."""
    s = with_crew(crew("f", 2, [effect("place_free_cubes", count=2)]), planets=ring(lengths="14444"))
    assert keys(s.pick("f")) == ["crew_chosen"]
    assert s.targets(A.TARGET_PLANET) == PLANETS
    assert placed(s.target_planet("a")) == [(-1, "a", 1)]
    assert s.targets(A.TARGET_PLANET) == ["b", "c", "d", "e"]  # a is full now
    assert placed(s.target_planet("b")) == [(-1, "b", 1)]
    assert (s.track("a"), s.track("b"), s.state.stock, s.state.hands) == ((-1,), (-1,), 10, (12, 12, 12))
    assert s.state.stage == "survey"
    assert placed(s.survey("b", 1)) == [(0, "b", 2)]


# -- place_on_crew --------------------------------------------------------------------------


def test_place_on_crew__own_cube_from_hand_onto_another_crew():
    """place_on_crew (on_choose): the chooser's cube leaves the hand for another crew of their choice."""
    s = with_crew(crew("q", 2, [effect("place_on_crew")]), crew("w"), crew("x"), crew("y"))
    s.turn("w")
    s.pick("q")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x", "y"]
    events = s.target_crew("x")
    assert of(events, "cube_to_crew") == [{"owner": 1, "crew": "x"}]
    assert (s.cubes_on("x"), s.state.hands) == ((1,), (12, 11, 12))
    assert s.state.stage == "survey"


def test_place_on_crew__after_survey_is_skipped_with_an_empty_hand():
    """place_on_crew (after_survey): it comes after the survey, and an empty hand skips it (R9)."""
    s = with_crew(crew("q", 2, [effect("place_on_crew", when="after_survey")]), cubes_per_player=2)
    assert keys(s.pick("q")) == ["crew_chosen"]
    events = s.survey("a", 2)
    assert keys(events) == ["cube_placed", "cube_placed", "survey_done", "effect_skipped", "turn_ended"]
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "q", "effect": "place_on_crew", "remaining": 1}]
    assert s.state.crew_cubes == ((),) * 5


# -- place_on_special -----------------------------------------------------------------------


def test_place_on_special__any_planet_with_special_room():
    """place_on_special planets: any (on_choose): any Planet whose special square has room."""
    planets = ring()
    planets[2]["special_capacity"] = 0
    s = with_crew(crew("g", 2, [effect("place_on_special", planets="any")]), planets=planets)
    s.pick("g")
    assert s.targets(A.TARGET_PLANET) == ["a", "b", "d", "e"]
    events = s.target_planet("d")
    assert placed(events) == [(0, "d", 0)]
    assert (s.special("d"), s.track("d"), s.state.hands) == ((0,), (), (11, 12, 12))
    assert s.state.stage == "survey"


def test_place_on_special__planets_of_one_colour():
    """place_on_special planets: colour: only Planets of that colour with special room."""
    s = with_crew(
        crew("o", 2, [effect("place_on_special", planets="colour", colour="blue", count=2)]),
        planets=ring(colours="rbybk"),
    )
    s.pick("o")
    assert s.targets(A.TARGET_PLANET) == ["b", "d"]
    s.target_planet("b")
    assert s.targets(A.TARGET_PLANET) == ["d"]
    s.target_planet("d")
    assert (s.special("b"), s.special("d"), s.state.hands) == ((0,), (0,), (10, 12, 12))


def test_place_on_special__planets_surveyed_this_turn_after_survey():
    """place_on_special planets: surveyed (after_survey): only Planets that got a cube in this survey."""
    s = with_crew(crew("s", 2, [effect("place_on_special", planets="surveyed", when="after_survey")]))
    assert keys(s.pick("s")) == ["crew_chosen"]
    s.survey("e", 2)
    assert s.targets(A.TARGET_PLANET) == ["a", "e"]
    events = s.target_planet("a")
    assert placed(events) == [(0, "a", 0)]
    assert keys(events) == ["cube_placed", "turn_ended"]
    assert (s.special("a"), s.state.hands) == ((0,), (9, 12, 12))
    s.turn("w")
    s.turn("x")
    s.pick("s")
    events = s.survey_none()
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "s", "effect": "place_on_special", "remaining": 1}]


# -- set_survey_direction -------------------------------------------------------------------


def test_set_survey_direction__a_forced_counter_clockwise_walk_cube_by_cube():
    """set_survey_direction (survey): counter-clockwise is forced, not chosen: the survey goes
    cube by cube, each next cube on the next Planet with room counter-clockwise (R8)."""
    s = with_crew(crew("n", 3, [effect("set_survey_direction", direction="counter_clockwise")]))
    events = s.pick("n")
    assert of(events, "effect_applied") == [{"player": 0, "crew": "n", "effect": "set_survey_direction"}]
    assert s.targets(A.SURVEY_STEP) == PLANETS
    s.step("b")
    assert s.targets(A.SURVEY_STEP) == ["a"]
    s.step("a")
    assert s.targets(A.SURVEY_STEP) == ["e"]
    s.step("e")
    assert (s.track("b"), s.track("a"), s.track("e")) == ((0,), (0,), (0,))


def test_set_survey_direction__either_is_choose_direction_and_clockwise_is_r8():
    """set_survey_direction (survey): either offers walks both ways in one decision, clockwise
    only clockwise ones (R7, R8)."""
    s = with_crew(
        crew("n", 3, [effect("set_survey_direction", direction="either")]),
        crew("m", 3, [effect("set_survey_direction", direction="clockwise")]),
    )
    s.pick("n")
    assert ("b", 3, CCW) in s.survey_options()
    s.survey("b", 3, CCW)
    s.pick("m")
    assert all(direction == CW for _, _, direction in s.survey_options())


# -- survey_start ---------------------------------------------------------------------------


def test_survey_start__two_cubes_on_the_start_then_the_usual_walk():
    """survey_start (survey): the survey's first cubes go on its start Planet one after the
    other, within the survey count, then it walks on clockwise (R7, R8)."""
    s = with_crew(crew("d", 3, [effect("survey_start", cubes=2)]))
    events = s.pick("d")
    assert of(events, "effect_applied") == [{"player": 0, "crew": "d", "effect": "survey_start"}]
    s.step("c")
    assert s.targets(A.SURVEY_STEP) == ["c"]
    s.step("c")
    assert s.targets(A.SURVEY_STEP) == ["d"]
    events = s.step("d")
    assert of(events, "survey_done") == [{"player": 0, "cubes": 3}]
    assert (s.track("c"), s.track("d")) == ((0, 0), (0,))


def test_survey_start__where_it_may_start_and_what_is_done_there_first():
    """survey_start (survey): the start is a Planet of the set where the first cube has room
    once the before_walk is done there; a free cube takes the rearmost square first (R2, R15)."""
    start = effect("survey_start", planet={"colour": "blue"}, before_walk=[effect("place_cube", owner="free")])
    s = with_crew(crew("f", 2, [start]), planets=ring(colours="rbbbk", lengths="44144"))
    s.pick("f")
    assert s.targets(A.SURVEY_STEP) == ["b", "d"]  # c is blue but the free cube would fill it
    events = s.step("d")
    assert placed(events) == [(-1, "d", 1), (0, "d", 2)]
    assert s.targets(A.SURVEY_STEP) == ["e"]


# -- the most options a decision can offer ----------------------------------------------------


@attrs.frozen(kw_only=True)
class PickAnySeat(Effect):
    """A plugin effect that asks a decision and does not say how many options it offers."""

    name: ClassVar[str] = "pick_any_seat"
    summary: ClassVar[str] = "Name any seat."
    timings: ClassVar[tuple[str, ...]] = (AFTER_SURVEY,)

    def choices(self, table, seat, slot):
        return tuple(action(A.NAME_START_PLAYER, other) for other in range(table.players))

    def apply(self, table, seat, slot, choice):
        return ()


def _with_plugin(tmp_path, effect_type):
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "crew.yaml",
        "      - effect: gain_vp\n        vp: 2\n        when: after_survey",
        f"      - effect: {effect_type.name}",
    )
    return Game(load_ruleset(folder, effect_types=extend_effect_types(EFFECT_TYPES, effect_type)))


def test_the_most_legal_actions_is_the_largest_decision_of_the_ruleset():
    """R5, R7: a survey's starts x counts x directions (+ placing nothing) is draft 7's largest
    decision; every built-in effect's bound is under it (their own sizes are checked by the
    property tests, which hold every state of random games to the bound)."""
    game = Game(load_ruleset("draft7"))
    rules = game.ruleset
    planets = max(counts.planets for counts in rules.setups.values())
    assert game.most_legal_actions == 1 + 2 * planets * rules.cubes_per_player
    choose_one = ChooseOne(when=ON_CHOOSE, options=tuple((GainVP(when=ON_CHOOSE, vp=1),) for _ in range(7)))
    assert choose_one.most_choices(players=4, planets=6, crews=8) == 7
    assert GainVP(when=ON_CHOOSE, vp=1).most_choices(players=4, planets=6, crews=8) == 0
    assert NameStartPlayer(when=ROUND_END).most_choices(players=4, planets=6, crews=8) == 4


def test_a_plugin_without_a_decision_keeps_the_bound_and_one_that_cannot_say_lifts_it(tmp_path):
    """A new effect type that asks no decision offers 0 options; one that asks a decision and
    does not override ``most_choices`` leaves the ruleset without a bound (None), never a
    wrong one."""
    bound = Game(load_ruleset("draft7")).most_legal_actions
    assert _with_plugin(tmp_path / "a", TakeCubesBack).most_legal_actions == bound
    assert _with_plugin(tmp_path / "b", PickAnySeat).most_legal_actions is None


@attrs.frozen(kw_only=True)
class PickAnySeatDeclared(PickAnySeat):
    """The same plugin with its bound facts declared as class data, not computed."""

    name: ClassVar[str] = "pick_any_seat_declared"
    CHOICES_FROM: ClassVar[str | None] = "seats"
    MOVES_CUBES: ClassVar[bool] = False
    VP_PER_STEP: ClassVar[int | None] = 0
    SURVEY_BONUS_PER_STEP: ClassVar[int | None] = 0


def test_a_plugin_declares_its_bound_facts_as_class_data():
    """The class-level declarations are what the bound methods read: a type states a constant
    bound once, as data, and overrides a method only where the value is computed."""
    declared, silent = PickAnySeatDeclared(when=AFTER_SURVEY), PickAnySeat(when=AFTER_SURVEY)
    assert declared.most_choices(players=4, planets=6, crews=8) == 4
    assert silent.most_choices(players=4, planets=6, crews=8) is None
    assert (declared.moves_cubes, declared.vp_per_step, declared.survey_bonus_per_step) == (False, 0, 0)
    assert (silent.moves_cubes, silent.vp_per_step, silent.survey_bonus_per_step) == (True, None, None)
    limits = Limits(*(1,) * len(attrs.fields(Limits)))
    assert declared.most_landings(limits) == 0 and silent.most_landings(limits) is None
    assert declared.survey_bonus_range(limits) == (0, 0) and declared.most_vp(limits) == 0


# -- the rules language's actions and control (docs/skills.md, "The rules language") -------


def test_choose__a_planet_where_the_body_applies_then_the_body_at_once():
    """choose (on_choose): only Planets where return_cube can act are offered (R9); the body is
    performed for the one picked, with this_planet bound."""
    s = with_crew(crew("c", 2, [effect("choose", planet={"where": {"has_cube": "anyone"}}, do=[effect("return_cube")])]))
    s.turn("w", "b", 2)  # seat 0 puts cubes on b and c
    s.pick("c")
    assert s.targets(A.TARGET_PLANET) == ["b", "c"]
    events = s.target_planet("c")
    assert of(events, "cube_returned") == [{"player": 1, "crew": "c", "owner": 0, "planet": "c", "square": 1, "to": "hand"}]
    assert (s.track("b"), s.track("c"), s.state.hands[0]) == ((0,), (), 11)


def test_collect_free_cubes__a_crews_free_cubes_as_a_motivation_bonus():
    """collect_free_cubes (in a choose over crews): the free cubes go to the stock and the chooser
    scores free_cube_vp for each (R6)."""
    body = [effect("collect_free_cubes")]
    s = with_crew(crew("k", 2, [effect("choose", crew={"where": {"at_least": [{"free_cubes": "this_crew"}, 1]}}, do=body)]))
    for crew_id in ("w", "x", "y"):
        s.turn(crew_id)
    # Armstrong and k were left: each got a free cube at the round's end (R11)
    assert (s.free_on("k"), s.state.stock) == (1, 10)
    s.pick("k")  # its own free cube is its motivation bonus first
    assert s.targets(A.TARGET_CREW) == [s.game.ruleset.crew[s.state.crew[0]].id]
    events = s.target_crew(s.game.ruleset.crew[s.state.crew[0]].id)
    assert of(events, "free_cubes_collected")[0]["free_cubes"] == 1
    assert (s.state.vp[0], s.state.stock) == (2, 12)


def test_for_each__the_body_for_every_member_in_turn_order():
    """for_each (on_choose): each other seat, in turn order from the chooser, puts a cube from
    its hand on this crew."""
    s = with_crew(crew("t", 2, [effect("for_each", seat="others", do=[effect("place_cube_on_crew", owner="this_seat")])]))
    events = s.pick("t")
    assert of(events, "cube_to_crew") == [{"owner": 1, "crew": "t"}, {"owner": 2, "crew": "t"}]
    assert (s.cubes_on("t"), s.state.hands) == ((1, 2), (12, 11, 11))


def test_if__the_then_branch_when_the_condition_holds_else_the_else():
    """if (on_choose): the condition is read when the effect resolves; its branch resolves next."""
    skill = [effect("if", condition={"at_least": [{"planets": "full"}, 1]}, then=[effect("gain_vp", vp=3)], **{"else": [effect("gain_vp", vp=1)]})]
    s = with_crew(crew("i", 2, [*skill]), planets=ring(lengths="14444"))
    events = s.pick("i")
    assert of(events, "vp_gained") == [{"player": 0, "crew": "i", "vp": 1}]  # no Planet is full yet: else


def test_if__reads_a_full_planet():
    skill = [effect("if", condition={"at_least": [{"planets": "full"}, 1]}, then=[effect("gain_vp", vp=3)])]
    s = with_crew(crew("i", 2, skill), planets=ring(lengths="14444"))
    s.turn("w", "a", 1)  # a (one square) is full
    events = s.pick("i")
    assert of(events, "vp_gained") == [{"player": 1, "crew": "i", "vp": 3}]


def test_lose_vp__never_below_zero():
    """lose_vp (after_survey): the chooser loses what there is, at most the amount."""
    s = with_crew(crew("l", 2, [effect("gain_vp", vp=1), effect("lose_vp", vp=3, when="after_survey")]))
    s.pick("l")
    events = s.survey_none()
    assert of(events, "vp_lost") == [{"player": 0, "crew": "l", "vp": 1}]
    assert s.state.vp == (0, 0, 0)


def test_move_cube__the_rearmost_own_cube_to_the_next_planet_with_room():
    """move_cube (in a choose over Planets): seat 0's cube furthest back on b leaves it, the
    cubes behind it moving up (R2), and goes on the next Planet clockwise with room (c is full)."""
    body = [effect("move_cube")]
    s = with_crew(crew("m", 2, [effect("choose", planet={"where": {"has_cube": "me"}}, do=body)]), planets=ring(lengths="44144"))
    s.turn("w", "b", 1)  # seat 0 on b
    s.turn("x", "c", 1)  # seat 1 fills c
    s.turn("y", "b", 1)  # seat 2 behind seat 0 on b
    s.pick("m")
    assert s.targets(A.TARGET_PLANET) == ["b"]
    events = s.target_planet("b")
    assert of(events, "cube_moved") == [{"player": 0, "crew": "m", "owner": 0, "planet": "b", "square": 1}]
    assert (s.track("b"), s.track("c"), s.track("d")) == ((2,), (1,), (0,))


def test_place_cube__on_the_special_square_of_a_planet_without_one_of_yours():
    """place_cube (special, in a choose): a cube from hand on the special square (R3)."""
    where = {"where": {"all": ["special_has_room", {"not": {"has_cube": "me"}}]}}
    s = with_crew(crew("p", 2, [effect("choose", planet=where, do=[effect("place_cube", square="special")])]))
    s.turn("w", "a", 1)
    s.turn("x")
    s.turn("y")
    s.pick("p")
    assert s.targets(A.TARGET_PLANET) == ["b", "c", "d", "e"]
    assert placed(s.target_planet("c")) == [(0, "c", 0)]
    assert (s.special("c"), s.state.hands[0]) == ((0,), 10)


def test_place_cube__a_free_cube_on_the_rearmost_square():
    """place_cube (owner free): a free cube from the stock on each Planet of the set (R2, R15)."""
    s = with_crew(crew("f", 2, [effect("place_cube", owner="free", planet={"colour": "red"})]), planets=ring())
    events = s.pick("f")
    assert placed(events) == [(-1, "a", 1)]
    assert s.state.stock == 11


def test_place_cube_on_crew__the_chooser_feeds_every_other_crew():
    """place_cube_on_crew (for each of the other crews): a cube from hand on each, for R6's bonus."""
    s = with_crew(crew("g", 2, [effect("place_cube_on_crew", crew="others")]))
    s.pick("g")
    assert [len(s.cubes_on(crew_id)) for crew_id in ("w", "x", "y")] == [1, 1, 1]
    assert s.state.hands[0] == 12 - 4  # Armstrong too: four other crews


def test_return_cube__to_the_stock_is_out_of_play():
    """return_cube (to stock): a player's cube leaves play, counted with R6's removed cubes."""
    s = with_crew(crew("r", 2, [effect("return_cube", planet="all", to="stock", when="after_survey")]))
    s.pick("r")
    events = s.survey("a", 2)
    assert [e["planet"] for e in of(events, "cube_returned")] == ["a", "b"]
    assert (s.track("a"), s.state.hands[0], s.state.removed[0]) == ((), 10, 2)


def test_set_survey_count__the_count_whatever_the_crew_prints():
    """set_survey_count (survey): the survey count this turn is the amount (R7)."""
    s = with_crew(crew("n", 3, [effect("set_survey_count", count={"planets": "with_room"})]), planets=ring(lengths="14444"))
    s.turn("w", "a", 1)  # a is full: four Planets with room
    s.pick("n")
    assert max(count for _, count, _ in s.survey_options()) == 4


def test_take_free_cubes__into_the_hand_as_own_cubes_after_the_survey():
    """take_free_cubes (after_survey, idea R8): the chooser takes 2 free cubes from the stock
    into hand as its own, after placing its survey's cubes; the state counts them (taken)."""
    s = with_crew(crew("t", 2, [effect("take_free_cubes", count=2, when="after_survey")]), planets=ring())
    s.pick("t")
    events = s.survey("a", 2)
    assert of(events, "free_cubes_taken") == [{"player": 0, "crew": "t", "free_cubes": 2}]
    assert (s.state.hands, s.state.taken, s.state.stock) == ((12, 12, 12), (2, 0, 0), 10)


def test_discard_cubes__from_hand_out_of_play_after_the_survey():
    """discard_cubes (after_survey): the chooser places 2 cubes, then discards 2 from hand;
    they are removed, as R6's player cubes are, so R13's conservation holds."""
    s = with_crew(crew("t", 2, [effect("discard_cubes", count=2, when="after_survey")]), planets=ring())
    s.pick("t")
    events = s.survey("a", 2)
    assert of(events, "cubes_discarded") == [{"player": 0, "crew": "t", "cubes": 2}]
    assert (s.state.hands, s.state.removed) == ((8, 12, 12), (2, 0, 0))


def test_return_cube__off_the_special_square_the_cube_placed_last():
    """return_cube (square special, R3): the chooser's cube placed on a's special square on
    choosing goes back to hand after the survey; the event names square 0."""
    skill = [effect("place_cube", planet="all", square="special"), effect("return_cube", planet="all", owner="me", square="special", when="after_survey")]
    s = with_crew(crew("t", 2, skill), planets=ring())
    s.pick("t")
    events = s.survey("a", 1)
    assert [(e["planet"], e["square"]) for e in of(events, "cube_returned")] == [(p, 0) for p in "abcde"]
    assert all(special == () for special in s.state.specials)


def test_take_vp__from_a_chosen_leader_never_more_than_they_hold():
    """take_vp (in a choose over seats): the VP taken are the chooser's; a seat keeps at least 0."""
    skill = [effect("choose", seat={"most_vp": "others"}, do=[effect("take_vp", vp=2, **{"from": "this_seat"})])]
    s = with_crew(crew("v", 2, skill), crew("h", 2, [effect("gain_vp", vp=1)]))
    s.turn("h")  # seat 0 scores 1
    s.pick("v")  # seat 1 takes from the leader among the others
    assert s.legal == (action(A.TARGET_SEAT, 0),)
    events = s.do(action(A.TARGET_SEAT, 0))
    assert of(events, "vp_taken") == [{"player": 1, "crew": "v", "other": 0, "vp": 1}]
    assert s.state.vp == (0, 1, 0)


def test_set_start_player__the_seat_left_of_the_chooser_starts_the_next_round():
    """set_start_player (round_end, no decision): the start player passes to the seat of the
    set, here the one left of the chooser (seat 1 picks s: seat 2 starts round 2); R12's
    naming, a decision after R11, is not asked."""
    s = with_crew(crew("s", 2, [effect("set_start_player", seat={"left_of": "me"})]))
    s.turn("w")
    s.turn("s")
    events = s.turn("x")
    assert of(events, "start_player_set") == [{"crew": "s", "start_player": 2}]
    assert (s.state.round, s.state.start_player, s.player) == (2, 2, 2)


# -- lasting effects: closed crews and protected cubes (docs/skills.md, "Lasting effects") ---


def test_close_crew__an_unpicked_crew_is_not_offered_until_the_round_ends():
    """close_crew (in a choose over unpicked other crews, S9): the crew closed is not offered to
    the later players (R5); it gets its free cube at the round's end, being unpicked (R11), and
    opens again with the next round."""
    skill = [effect("choose", crew={"where": "unpicked", "from": "others"}, do=[effect("close_crew")])]
    s = with_crew(crew("s", 2, skill))
    s.pick("s")
    assert s.targets(A.TARGET_CREW) == ["armstrong", "w", "x", "y"]
    events = s.target_crew("x")
    assert of(events, "crew_closed") == [{"player": 0, "crew": "x"}]
    s.survey_none()
    assert s.targets(A.PICK_CREW) == ["armstrong", "w", "y"]
    s.turn("w")
    assert s.targets(A.PICK_CREW) == ["armstrong", "y"]
    s.turn("y")
    assert s.state.closed == frozenset() and s.free_on("x") == 1  # R11: unpicked, it got a free cube
    assert "x" in s.targets(A.PICK_CREW)


def test_close_crew__only_while_enough_crews_stay_open_for_the_turns_left():
    """close_crew: a crew is closed only while the open crews left still cover the turns left in
    the round (R9); with a small crew area the last crews cannot be closed."""
    s = with_crew(crew("s", 2, [effect("close_crew", crew="others")]))
    events = s.pick("s")  # five crews: s picked, four open, two turns left -> two may close
    assert [e["crew"] for e in of(events, "crew_closed")] == ["armstrong", "w"]
    s.survey_none()
    assert s.targets(A.PICK_CREW) == ["x", "y"]


def test_protect_cubes__no_other_players_skill_may_move_them_until_the_round_ends():
    """protect_cubes (until round_end): seat 0's cubes are passed over by seat 1's return_cube,
    which returns the cube furthest back that it may move; from the next round they are not."""
    recall = [effect("return_cube", planet="all", when="after_survey")]
    s = with_crew(crew("p", 2, [effect("protect_cubes")]), crew("r", 2, recall))
    events = s.pick("p")
    assert of(events, "cubes_protected") == [{"player": 0, "crew": "p", "until": "round_end"}]
    s.survey("a", 1)  # seat 0 on a
    assert s.state.protected == (2, 0, 0)
    s.turn("w", "b", 1)  # seat 1 on b
    s.pick("r")  # seat 2 returns the rearmost cube of every Planet, seat 0's passed over
    events = s.survey("a", 1)  # seat 2 behind seat 0 on a
    assert [(e["owner"], e["planet"]) for e in of(events, "cube_returned")] == [(2, "a"), (1, "b")]
    assert (s.track("a"), s.track("b")) == ((0,), ())
    assert s.state.protected == (0, 0, 0)  # the round ended


def test_protect_cubes__until_the_turn_ends_and_only_from_other_players():
    """protect_cubes (until turn_end): the chooser's own skill may still move its cubes; the
    protection ends with the turn."""
    skill = [effect("protect_cubes", until="turn_end"), effect("return_cube", planet="all", owner="me", when="after_survey")]
    s = with_crew(crew("q", 2, skill))
    s.pick("q")
    events = s.survey("a", 1)
    assert of(events, "cube_returned") == [{"player": 0, "crew": "q", "owner": 0, "planet": "a", "square": 1, "to": "hand"}]
    assert s.state.protected == (0, 0, 0)


def test_use_skill__another_crews_skill_resolves_in_its_timings_as_this_crews():
    """use_skill (on_choose): the chooser applies crew g's skill as this crew's: its on_choose
    gain_vp at once, its after_survey gain_vp after the survey, both logged for this crew; a
    crew always in play (Armstrong), the crew itself and crews without a skill (w, x) are not
    offered."""
    gifted = crew("g", 2, [effect("gain_vp", vp=1), effect("gain_vp", vp=2, when="after_survey")])
    s = with_crew(crew("u", 1, [effect("use_skill")]), gifted)
    s.pick("u")
    assert s.targets(A.TARGET_CREW) == ["g"]
    events = s.target_crew("g")
    assert of(events, "skill_applied") == [{"player": 0, "crew": "u", "skill_of": "g"}]
    assert of(events, "vp_gained") == [{"player": 0, "crew": "u", "vp": 1}]
    assert max(count for _, count, _ in s.survey_options()) == 1  # the survey count stays u's
    events = s.survey("a", 1)
    assert of(events, "vp_gained") == [{"player": 0, "crew": "u", "vp": 2}]
    assert s.state.vp == (3, 0, 0)


def test_use_skill__a_crew_applying_another_crews_skill_is_never_offered():
    """use_skill: a skill applied never applies a third (programs end), so a crew whose skill
    holds use_skill is not offered, and the bounds count one skill applied (the best)."""
    s = with_crew(crew("u", 1, [effect("use_skill")]), crew("v", 1, [effect("use_skill")]), crew("g", 2, [effect("gain_vp", vp=3)]))
    s.pick("u")
    assert s.targets(A.TARGET_CREW) == ["g"]
    assert s.game.bounds.most_vp == s.game.ruleset.max_rounds * (3 + 3 * 12 * 2 + 3)
