"""The round's end as data: rules.yaml's ``round_end.unpicked_crews`` (docs/rules.md, R11) and
``round_end.effects`` (docs/rules.md, "Round-end effects"; idea R7).

At a round's end, when the game goes on, each crew with no worker receives max(0, free_cubes)
free cubes, the amount read with this_crew bound to the crew and nobody as "you", at most what
the stock holds and what the cap leaves, in crew-area order. Each worked example plays the
round on the Python engine and on the native kernel from the same position, and both must
reach the same state; then the loader's checks, the older ``max_free_cubes_per_crew``, the
fingerprint, the bounds and the tune paths.

``round_end.effects`` are performed at every round's end, the last included, after the
Planets' and the held crews' ``round_end`` triggers and before the end check (R10), so before
R11's free cubes; nobody is "you" and only effects that ask no decision stand there.
"""

from __future__ import annotations

import pytest
from builders import deal_all, effect, game, planet, round_end, ruleset, unpicked_crews
from differential import canonical

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.model import UnpickedCrews
from stargazer_rules.text.catalogue import label
from stargazer_rules.text.messages import round_end_effects_sentence
from stargazer_rules.text.reports import ruleset_report
from stargazer_rules.tuning.edits import apply_edits
from stargazer_rules.tuning.paths import locate
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

#: Ideas R9 in the language: 1 less the crew's free cubes, so 1 while it holds none, else none.
R9 = {"difference": [1, {"free_cubes": "this_crew"}]}

#: The builders' crew area: Armstrong (slot 0), then w, x, y, z. A round of three players
#: picking w, y and z leaves Armstrong and x unpicked.
ARMSTRONG, X = 0, 2


def position(g: Game, crew_free: dict[int, int]) -> State:
    """Round 1, seat 0 to pick, ``crew_free`` on the crews and the rest of the free cubes in the stock."""
    state = g.new_state(setup=deal_all(g))
    free = tuple(crew_free.get(slot, 0) for slot in range(len(state.crew)))
    state = state._replace(crew_free=free, stock=g.ruleset.free_cubes - sum(free))
    return state._replace(legal=g.derive_legal(state))


def round_on_both(g: Game, state: State, *, last: bool = False) -> State:
    """Seats pick w, y and z, surveying nothing: the round ends (the game too when ``last``),
    on both engines alike."""
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    rounds = state.round
    for crew_id in ("w", "y", "z"):
        slot = next(slot for slot, card in enumerate(state.crew) if g.ruleset.crew[card].id == crew_id)
        for act in (action(A.PICK_CREW, slot), action(A.SURVEY, -1, 0)):
            after = g.step(state, act)
            kernel = native.to_kernel(g, state)
            kernel.step(act)
            assert canonical(native.from_kernel(kernel)) == canonical(after)
            state = after
    assert g.is_over(state) == last
    assert state.round == rounds + (not last)
    return state


# -- worked examples on both engines -----------------------------------------------------------


def test_r9_a_crew_holding_a_free_cube_gets_none_and_an_empty_one_gets_one():
    """Ideas R9: Armstrong holds 1 free cube and gets none; x holds none and gets 1."""
    g = game(round_end=unpicked_crews(free_cubes=R9, cap=None))
    after = round_on_both(g, position(g, {ARMSTRONG: 1}))
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.stock) == (1, 1, 10)


def test_r9_without_a_cap_a_crew_gathers_past_three():
    """No cap: 1 free cube each round (``free_cubes: 1``) and Armstrong, never picked, holds 4 after 4 rounds."""
    g = game(round_end=unpicked_crews(free_cubes=1, cap=None))
    state = position(g, {})
    for _ in range(4):
        state = round_on_both(g, state)
    assert (state.crew_free[ARMSTRONG], state.crew_free[X], state.stock) == (4, 4, 4)


def test_the_cap_stops_an_amount_part_way():
    """2 free cubes each, cap 3: Armstrong holding 2 gets 1; x gets 2."""
    g = game(round_end=unpicked_crews(free_cubes=2, cap=3))
    after = round_on_both(g, position(g, {ARMSTRONG: 2}))
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.stock) == (3, 2, 7)


def test_the_stock_may_run_out_part_way_in_crew_area_order():
    """3 free cubes in the game, 2 each: Armstrong (first in the crew area) gets 2, x the last 1."""
    g = game(free_cubes=3, round_end=unpicked_crews(free_cubes=2, cap=None))
    after = round_on_both(g, position(g, {}))
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.stock) == (2, 1, 0)


def test_each_amount_is_read_just_before_its_crew_receives():
    """2 less the free cubes of the whole crew area: Armstrong gets 2, after which x gets 0."""
    g = game(round_end=unpicked_crews(free_cubes={"difference": [2, {"free_cubes": "all"}]}, cap=None))
    after = round_on_both(g, position(g, {}))
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.stock) == (2, 0, 10)


def test_an_amount_below_one_gives_nothing():
    g = game(round_end=unpicked_crews(free_cubes=-2, cap=3))
    after = round_on_both(g, position(g, {X: 1}))
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.stock) == (0, 1, 11)


def test_the_ideas_ruleset_writes_r9():
    ideas = load_ruleset("ideas")
    assert ideas.unpicked_crews.cap is None
    assert ruleset_to_data(ideas)["rules"]["round_end"]["unpicked_crews"] == {"free_cubes": R9, "cap": None, "at_cap": "stays"}


# -- the loader ----------------------------------------------------------------------------------


def _problems(**rules) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as caught:
        ruleset(**rules)
    return [(p.path, p.message + (f" (did you mean {p.suggestion!r}?)" if p.suggestion else "")) for p in caught.value.problems]


def test_an_older_file_with_max_free_cubes_per_crew_still_loads_as_the_cap():
    older = ruleset(round_end=None, max_free_cubes_per_crew=2)
    assert older.unpicked_crews == UnpickedCrews(free_cubes=1, cap=2)
    assert older == ruleset(round_end=unpicked_crews(free_cubes=1, cap=2))
    # What the older knob said keeps its fingerprint: records played before the section replay.
    assert older.fingerprint == ruleset(round_end=unpicked_crews(free_cubes=1, cap=2)).fingerprint
    assert older.fingerprint != ruleset(round_end=unpicked_crews(free_cubes=1, cap=None)).fingerprint
    assert older.fingerprint != ruleset(round_end=unpicked_crews(free_cubes=R9, cap=2)).fingerprint


def test_the_older_knob_and_the_section_together_are_refused():
    assert _problems(max_free_cubes_per_crew=2) == [
        ("max_free_cubes_per_crew", "max_free_cubes_per_crew is the older form of round_end.unpicked_crews.cap: with round_end given, leave it out")
    ]


def test_neither_is_refused_saying_what_to_write():
    [(path, message)] = _problems(round_end=None)
    assert "round_end is missing" in message and "round_end: {unpicked_crews: {free_cubes: 1, cap: 3}}" in message


def test_me_is_refused_where_nobody_is_you():
    [(path, message)] = _problems(round_end=unpicked_crews(free_cubes={"hand": "me"}))
    assert path == "round_end.unpicked_crews.free_cubes"
    assert message.startswith('at a round\'s end nobody is "you", so me names nobody here')


def test_a_misspelt_key_is_located_with_a_did_you_mean():
    [(path, message)] = _problems(round_end={"unpicked_crews": {"free_cubes": 1, "cap": 3, "cpa": 2}})
    assert path == "round_end.unpicked_crews.cpa" and "'cap'" in message
    [(path, message)] = _problems(round_end=unpicked_crews(free_cubes={"free_cube": "this_crew"}))
    assert path == "round_end.unpicked_crews.free_cubes.free_cube" and "did you mean 'free_cubes'" in message


@pytest.mark.parametrize(
    ("free_cubes", "cap", "refused_at"),
    [
        (-100, 0, None),
        (100, 1000, None),
        (-101, 3, "round_end.unpicked_crews.free_cubes"),
        (101, 3, "round_end.unpicked_crews.free_cubes"),
        (1, -1, "round_end.unpicked_crews.cap"),
        (1, 1001, "round_end.unpicked_crews.cap"),
    ],
)
def test_schema_bounds_at_and_one_past(free_cubes, cap, refused_at):
    if refused_at is None:
        assert ruleset(round_end=unpicked_crews(free_cubes=free_cubes, cap=cap)).unpicked_crews.cap == cap
    else:
        assert [path for path, _ in _problems(round_end=unpicked_crews(free_cubes=free_cubes, cap=cap))] == [refused_at]


# -- bounds and tune paths -----------------------------------------------------------------------


def test_the_most_free_cubes_on_a_crew_is_the_cap_or_the_stock():
    assert game(round_end=unpicked_crews(cap=2)).bounds.most_free_on_crew == 2
    assert game(free_cubes=7, round_end=unpicked_crews(cap=None)).bounds.most_free_on_crew == 7
    assert game(free_cubes=7, round_end=unpicked_crews(cap=9)).bounds.most_free_on_crew == 7


def test_tune_paths_reach_the_cap_and_a_number_inside_the_amount():
    draft7, ideas = load_ruleset("draft7"), load_ruleset("ideas")
    assert locate(ruleset_to_data(draft7), "rules.round_end.unpicked_crews.cap").value == 3
    assert apply_edits(draft7, {"rules.round_end.unpicked_crews.cap": 4}).unpicked_crews.cap == 4
    path = "rules.round_end.unpicked_crews.free_cubes.difference[0]"
    assert locate(ruleset_to_data(ideas), path).value == 1
    edited = apply_edits(ideas, {path: 2})
    assert ruleset_to_data(edited)["rules"]["round_end"]["unpicked_crews"]["free_cubes"] == {"difference": [2, {"free_cubes": "this_crew"}]}


# -- round_end.effects: idea R7 ------------------------------------------------------------------

#: Ideas R7 in the language: each seat of the fewest VP (ties: all of them) gains 1 VP.
R7 = effect("for_each", seat={"fewest_vp": "everyone"}, do=[effect("gain_vp", vp=1, to="this_seat")])


def with_vp(g: Game, state: State, vp: tuple[int, ...]) -> State:
    return state._replace(vp=vp, legal=g.derive_legal(state._replace(vp=vp)))


def test_r7_the_seat_with_the_fewest_vp_gains_1():
    g = game(round_end=round_end(R7))
    after = round_on_both(g, with_vp(g, position(g, {}), (3, 1, 2)))
    assert after.vp == (3, 2, 2)


def test_r7_ties_all_of_them_gain_1_read_once_before_the_first_gains():
    """Seats 0 and 1 tie on the fewest: both gain 1 (seat 0's gain does not make seat 1 the only one)."""
    g = game(round_end=round_end(R7))
    after = round_on_both(g, with_vp(g, position(g, {}), (1, 1, 3)))
    assert after.vp == (2, 2, 3)


def test_r7_at_the_last_round_too_before_the_game_ends():
    """max_rounds 1: the round limit ends the game at round 1's end, and R7's VP are in the final score."""
    g = game(max_rounds=1, round_end=round_end(R7))
    after = round_on_both(g, with_vp(g, position(g, {}), (0, 2, 2)), last=True)
    assert after.vp == (1, 2, 2)
    assert g.score(after).seats[0].play_vp == 1


def test_the_effects_come_after_the_planets_round_end_triggers():
    """A Planet's round_end gives the fewest 2 VP first (seat 0: 0 -> 2), then R7 reads the
    fewest anew (seat 1, 1 -> 2). The other order would give (3, 3, 5)."""
    ability = {"on": "round_end", "do": [effect("gain_vp", vp=2, to={"fewest_vp": "everyone"})]}
    planets = [planet("a", "red", [1, 2, 3, 4], abilities=[ability]), *(planet(p, "blue", [1, 2, 3, 4]) for p in "bcde")]
    g = game(planets=planets, round_end=round_end(R7))
    after = round_on_both(g, with_vp(g, position(g, {}), (0, 1, 5)))
    assert after.vp == (2, 2, 5)


def test_the_effects_come_before_r11():
    """Each seat gains the free cubes of the crew area: none at round 1's end (R11 adds them after),
    Armstrong's and x's 2 at round 2's end."""
    g = game(round_end=round_end(effect("gain_vp", vp={"free_cubes": "all"}, to="everyone")))
    once = round_on_both(g, position(g, {}))
    assert (once.vp, once.crew_free[ARMSTRONG], once.crew_free[X]) == ((0, 0, 0), 1, 1)
    twice = round_on_both(g, once)
    assert twice.vp == (2, 2, 2)


def test_the_effects_come_before_the_end_check():
    """Each seat's one cube goes onto a Planet at round 1's end: every hand is empty when the end
    check reads them (R10), so the game ends there."""
    place = effect("for_each", seat="everyone", do=[effect("place_cube", owner="this_seat", planet="with_room")])
    g = game(cubes_per_player=1, round_end=round_end(place))
    after = round_on_both(g, position(g, {}), last=True)
    assert after.hands == (0, 0, 0)
    assert sum(len(track) for track in after.tracks) == 3


def test_the_ideas_ruleset_writes_r7():
    ideas = load_ruleset("ideas")
    assert ruleset_to_data(ideas)["rules"]["round_end"]["effects"] == [R7]
    assert ideas.round_end_effects == ruleset(round_end=round_end(R7)).round_end_effects


def test_no_effects_keep_the_fingerprint_and_r7_changes_it():
    """Left out and written empty are the same rules (draft 7 and base write ``effects: []``)."""
    left_out = ruleset(round_end=unpicked_crews())
    assert left_out.round_end_effects == ()
    assert ruleset(round_end=round_end()).fingerprint == left_out.fingerprint
    assert ruleset(round_end=round_end(R7)).fingerprint != left_out.fingerprint
    assert "effects" not in ruleset_to_data(left_out)["rules"]["round_end"] or ruleset_to_data(left_out)["rules"]["round_end"]["effects"] == []


def test_the_effects_vp_are_in_the_vp_bound():
    """1 VP to everyone at every round's end: the bound grows by max_rounds (and R7's by at
    least as much), the kernel receiving it."""
    without = game(round_end=unpicked_crews())
    each = game(round_end=round_end(effect("gain_vp", vp=1, to="everyone")))
    assert each.bounds.ability_vp == without.bounds.ability_vp + each.ruleset.max_rounds
    assert each.bounds.most_vp == without.bounds.most_vp + each.ruleset.max_rounds
    with_r7 = game(round_end=round_end(R7))
    assert with_r7.bounds.most_vp >= without.bounds.most_vp + with_r7.ruleset.max_rounds
    assert native.kernel_for(with_r7).bounds()["most_vp"] == with_r7.bounds.most_vp


def test_a_decision_is_refused_at_its_place():
    [(path, message)] = _problems(round_end=round_end(R7, effect("place_free_cubes", count=1)))
    assert path == "round_end.effects[1].effect"
    assert message.startswith("'place_free_cubes' asks a decision, so it cannot stand in round_end.effects")
    [(path, message)] = _problems(round_end=round_end(effect("for_each", seat="everyone", do=[effect("choose_one", options=[[R7], [R7]])])))
    assert path == "round_end.effects[0].do[0].effect" and "asks a decision" in message


def test_what_nobody_can_be_is_refused():
    """Nobody is "you" (gain_vp's to left out is me), nothing is bound (this_planet), no survey changes."""
    [(path, message)] = _problems(round_end=round_end(effect("gain_vp", vp=1)))
    assert path == "round_end.effects[0].effect" and 'nobody is "you"' in message
    problems = _problems(round_end=round_end(effect("place_cube", owner="free")))
    assert [path for path, _ in problems] == ["round_end.effects[0].effect"] and "this_planet" in problems[0][1]
    [(path, message)] = _problems(round_end=round_end(effect("change_survey_count", delta=1)))
    assert path == "round_end.effects[0].effect" and "survey" in message


def test_misspelt_words_are_located_with_a_did_you_mean():
    [(path, message)] = _problems(round_end=round_end(effect("gain_vpp", vp=1, to="everyone")))
    assert path == "round_end.effects[0].effect" and "did you mean 'gain_vp'" in message
    problems = dict(_problems(round_end=round_end(effect("gain_vp", vpp=1, to="everyone"))))
    assert "did you mean 'vp'" in problems["round_end.effects[0].vpp"]
    assert problems["round_end.effects[0]"] == "missing required key 'vp'"
    [(path, message)] = _problems(round_end=round_end(effect("gain_vp", vp=1, to={"fewest_vpp": "everyone"})))
    assert path == "round_end.effects[0].to.fewest_vpp" and "did you mean 'fewest_vp'" in message


@pytest.mark.parametrize(("count", "refused"), [(20, False), (21, True)])
def test_at_most_twenty_effects(count, refused):
    effects = [effect("gain_vp", vp=1, to="everyone")] * count
    if refused:
        assert [path for path, _ in _problems(round_end=round_end(*effects))] == ["round_end.effects"]
    else:
        assert len(ruleset(round_end=round_end(*effects)).round_end_effects) == count


# -- the rules text and the printed sheet --------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "At the end of every round (the last one too), before the end check: Each player with the fewest VP gains 1 VP."),
        ("ja", "各ラウンドの終わりに（最後のラウンドも）、終了判定の前に：VPが最も少ないプレイヤーがそれぞれ1VPを得る。"),
    ],
)
def test_stargazer_rules_and_the_sheet_read_r7_back(lang, said):
    ideas, draft7 = load_ruleset("ideas"), load_ruleset("draft7")
    assert round_end_effects_sentence(ideas, lang) == said
    assert f"\n  {said}\n" in ruleset_report(ideas, lang)
    assert ("body", said) in sheet_items(ideas, lang)
    # No effects, nothing said: draft 7's text and sheet stay as they were.
    assert round_end_effects_sentence(draft7, lang) is None
    assert label("section_round_end", lang) not in ruleset_report(draft7, lang).splitlines()
