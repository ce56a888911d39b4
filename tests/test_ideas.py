"""Worked examples of the design corpus's crew ideas and planet abilities, written in the
bundled ``ideas`` ruleset (data/cards/ideas/crew.yaml and planets.yaml, each card marked with
its idea's id): for each, a position where the idea matters, the pick or the survey, and the
state after, on the Python engine and on the native kernel alike (the kernel is handed the same
position and must reach the same state).
"""

from __future__ import annotations

import pytest

from differential import canonical
from stargazer_rules import Game, Setup, load_ruleset
from stargazer_rules.formats import jsonio
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

IDEAS = Game(load_ruleset("ideas"))
RING = ("lava-1", "ocean-1", "gas-1", "primordial-1", "dark", "diamond", "ocean-2")  # red blue yellow green black white blue
CUBES = IDEAS.ruleset.cubes_per_player
FREE = -1


def position(
    dealt: tuple[str, ...],
    *,
    tracks: dict[int, tuple[int, ...]] | None = None,
    specials: dict[int, tuple[int, ...]] | None = None,
    vp: tuple[int, ...] = (0, 0, 0, 0),
    crew_free: dict[int, int] | None = None,
    crew_cubes: dict[int, tuple[int, ...]] | None = None,
    hands: dict[int, int] | None = None,
    ring: tuple[str, ...] = RING,
) -> State:
    """Seat 0 to pick, four players, the ring above (or ``ring``), Armstrong and ``dealt`` in
    the crew area; the board as given, and every other cube in its hand or the stock (R13)."""
    state = IDEAS.new_state(setup=Setup(4, ring, dealt, 0))
    tracks_all = tuple((tracks or {}).get(p, ()) for p in range(len(ring)))
    specials_all = tuple((specials or {}).get(p, ()) for p in range(len(ring)))
    cubes_all = tuple((crew_cubes or {}).get(slot, ()) for slot in range(len(state.crew)))
    free_all = tuple((crew_free or {}).get(slot, 0) for slot in range(len(state.crew)))
    placed = [sum(list(t).count(seat) for t in (*tracks_all, *specials_all, *cubes_all)) for seat in range(4)]
    in_hand = tuple((hands or {}).get(seat, CUBES - placed[seat]) for seat in range(4))
    removed = tuple(CUBES - placed[seat] - in_hand[seat] for seat in range(4))
    free_out = sum(list(t).count(FREE) for t in tracks_all) + sum(free_all)
    state = state._replace(
        stage="pick_crew",  # the position itself, past R6's setup step
        pending=(),
        tracks=tracks_all,
        specials=specials_all,
        crew_cubes=cubes_all,
        crew_free=free_all,
        hands=in_hand,
        removed=removed,
        vp=vp,
        stock=IDEAS.ruleset.free_cubes - free_out,
    )
    legal = IDEAS.derive_legal(state)
    return state._replace(legal=legal)


def both(state: State, act) -> State:
    """``act`` played on the Python engine and on the kernel from ``state``: the same state."""
    after = IDEAS.step(state, act)
    kernel = native.to_kernel(IDEAS, state)
    kernel.step(act)
    assert canonical(native.from_kernel(kernel)) == canonical(after)
    return after


def pick(state: State, crew_id: str) -> State:
    slot = next(slot for slot, card in enumerate(state.crew) if IDEAS.ruleset.crew[card].id == crew_id)
    return both(state, action(A.PICK_CREW, slot))


def survey_nothing(state: State) -> State:
    assert state.stage == "survey"
    return both(state, action(A.SURVEY, -1, 0))


def test_the_ideas_ruleset_runs_on_the_kernel():
    assert native.kernel_for(IDEAS) is not None, native.fallback_reason(IDEAS)


def test_s1_a_vp_for_each_planet_where_you_rank_first():
    """Seat 0 ranks first on lava-1 (more cubes) and on ocean-1: a tie with seat 1, where R15
    would rank seat 1 first (its first cube further back) but the ideas' shared ranks (R1) rank
    both first; the virtual player ranks first on gas-1 (two free cubes to one), and nobody is
    on the rest."""
    state = position(("surveyor", "steward", "underdog", "recaller", "ferryman"), tracks={0: (0, 0, 1), 1: (0, 1), 2: (FREE, 0, FREE)})
    after = pick(state, "surveyor")
    assert after.vp[0] == 2


def test_s2_the_free_cubes_on_the_crews_at_most_three():
    state = position(("steward", "surveyor", "underdog", "recaller", "ferryman"), crew_free={0: 2, 2: 1, 3: 2})
    after = pick(state, "steward")  # the Steward (slot 1) holds none: no motivation bonus
    assert after.vp[0] == 3  # 5 free cubes in the crew area, at most 3
    fewer = pick(position(("steward", "surveyor", "underdog", "recaller", "ferryman"), crew_free={0: 1}), "steward")
    assert fewer.vp[0] == 1


def test_s3_the_fewest_vp_survey_two_more():
    behind = pick(position(("underdog", "surveyor", "steward", "recaller", "ferryman"), vp=(1, 1, 4, 2)), "underdog")
    ahead = pick(position(("underdog", "surveyor", "steward", "recaller", "ferryman"), vp=(3, 1, 4, 2)), "underdog")
    assert behind.survey_bonus == 2 and ahead.survey_bonus == 0
    assert max(a.count for a in behind.legal) == 4 and max(a.count for a in ahead.legal) == 2


def test_s4_the_rearmost_cube_returns_to_its_owner():
    state = position(("recaller", "surveyor", "steward", "underdog", "ferryman"), tracks={0: (1, 2, 3), 1: (0, FREE)})
    chosen = pick(state, "recaller")
    assert set(chosen.legal) == {action(A.TARGET_PLANET, 0), action(A.TARGET_PLANET, 1)}  # only Planets with a cube (R9)
    after = both(chosen, action(A.TARGET_PLANET, 0))
    assert after.tracks[0] == (1, 2) and after.hands[3] == chosen.hands[3] + 1
    free = both(chosen, action(A.TARGET_PLANET, 1))
    assert free.tracks[1] == (0,) and free.stock == chosen.stock + 1


def test_s5_your_rearmost_cube_moves_to_the_next_planet_with_room():
    """Seat 0's cube furthest back on lava-1 is on square 2; the cube behind it moves up (R2),
    and it goes on ocean-1's rearmost square, full ocean-1 skipped for gas-1 in the second case."""
    state = position(("ferryman", "surveyor", "steward", "underdog", "recaller"), tracks={0: (0, 0, 1), 1: (2,)})
    chosen = pick(state, "ferryman")
    assert chosen.legal == (action(A.TARGET_PLANET, 0),)
    after = both(chosen, action(A.TARGET_PLANET, 0))
    assert after.tracks[0] == (0, 1) and after.tracks[1] == (2, 0)
    full = position(("ferryman", "surveyor", "steward", "underdog", "recaller"), tracks={0: (0,), 1: (1, 2, 3, 1, 2)})
    moved = both(pick(full, "ferryman"), action(A.TARGET_PLANET, 0))
    assert moved.tracks[0] == () and moved.tracks[2] == (0,)


def test_s6_a_free_cube_on_the_start_planet_before_the_survey():
    """The free cube takes the start Planet's rearmost square before the survey's first cube
    (R2, R15): full lava-1 and ocean-1 with one empty square are no starts (the first cube would
    have no room); the walk then goes on clockwise with no free cube (R8)."""
    state = position(("pathfinder", "surveyor", "steward", "underdog", "recaller"), tracks={0: (1, 2, 3, 1, 2, 3), 1: (1, 2, 3, 1)})
    chosen = pick(state, "pathfinder")
    assert chosen.legal == (*(action(A.SURVEY_STEP, p) for p in (2, 3, 4, 5, 6)), action(A.SURVEY_STOP))
    first = both(chosen, action(A.SURVEY_STEP, 2))
    assert first.tracks[2] == (FREE, 0) and first.stock == chosen.stock - 1 and first.hands[0] == chosen.hands[0] - 1
    assert first.legal == (action(A.SURVEY_STEP, 3), action(A.SURVEY_STOP))
    after = both(first, action(A.SURVEY_STEP, 3))
    assert after.tracks[3] == (0,) and after.stock == first.stock and after.stage == "pick_crew"


def test_s6_with_the_stock_empty_the_survey_starts_anywhere_with_room():
    """No free cube to put (R9): ocean-1's one empty square is a start again, and nothing else
    is placed."""
    state = position(("pathfinder", "surveyor", "steward", "underdog", "recaller"), tracks={1: (1, 2, 3, 1)}, crew_free={0: 3, 2: 3, 3: 3, 4: 3})
    chosen = pick(state, "pathfinder")
    assert chosen.stock == 0 and action(A.SURVEY_STEP, 1) in chosen.legal
    first = both(chosen, action(A.SURVEY_STEP, 1))
    assert first.tracks[1] == (1, 2, 3, 1, 0)


def test_s7_counter_clockwise_skipping_one_planet_at_most():
    """The walk goes counter-clockwise (forced, R8's direction changed): from primordial-1 the
    next cube goes on gas-1, or skips it for ocean-1; once one Planet is skipped, no more."""
    chosen = pick(position(("contrarian", "surveyor", "steward", "underdog", "recaller")), "contrarian")
    assert chosen.legal == (*(action(A.SURVEY_STEP, p) for p in range(7)), action(A.SURVEY_STOP))
    first = both(chosen, action(A.SURVEY_STEP, 3))
    assert first.legal == (action(A.SURVEY_STEP, 1), action(A.SURVEY_STEP, 2), action(A.SURVEY_STOP))
    skipped = both(first, action(A.SURVEY_STEP, 1))
    assert (skipped.survey_direction, skipped.survey_skips) == (A.COUNTER_CLOCKWISE, 0)
    assert skipped.legal == (action(A.SURVEY_STEP, 0), action(A.SURVEY_STOP))
    walked = both(first, action(A.SURVEY_STEP, 2))
    assert walked.survey_skips == 1 and walked.legal == (action(A.SURVEY_STEP, 0), action(A.SURVEY_STEP, 1), action(A.SURVEY_STOP))


def test_s7_a_full_planet_is_passed_without_a_skip():
    """R8 passes full Planets anyway: gas-1 full, the walk from primordial-1 reaches ocean-1
    next and may skip it for lava-1, its skip still unused."""
    state = position(("contrarian", "surveyor", "steward", "underdog", "recaller"), tracks={2: (1, 2, 3, 1, 2, 3, 1)})
    first = both(pick(state, "contrarian"), action(A.SURVEY_STEP, 3))
    assert first.legal == (action(A.SURVEY_STEP, 0), action(A.SURVEY_STEP, 1), action(A.SURVEY_STOP))
    assert both(first, action(A.SURVEY_STEP, 1)).survey_skips == 1


def test_s8_take_two_vp_from_the_leader_among_the_others():
    state = position(("pirate", "surveyor", "steward", "underdog", "recaller"), vp=(9, 5, 5, 1))
    chosen = pick(state, "pirate")
    assert set(chosen.legal) == {action(A.TARGET_SEAT, 1), action(A.TARGET_SEAT, 2)}  # a tie: the chooser picks
    after = both(chosen, action(A.TARGET_SEAT, 2))
    assert after.vp == (11, 5, 3, 1)
    poor = both(pick(position(("pirate", "surveyor", "steward", "underdog", "recaller"), vp=(0, 1, 0, 0)), "pirate"), action(A.TARGET_SEAT, 1))
    assert poor.vp == (1, 0, 0, 0)  # at most what the leader holds


def test_s11_another_crews_free_cubes_as_a_motivation_bonus():
    state = position(("scavenger", "surveyor", "steward", "underdog", "recaller"), crew_free={0: 1, 3: 3})
    chosen = pick(state, "scavenger")
    assert set(chosen.legal) == {action(A.TARGET_CREW, 0), action(A.TARGET_CREW, 3)}
    after = both(chosen, action(A.TARGET_CREW, 3))
    assert after.vp[0] == 3 * IDEAS.ruleset.free_cube_vp and after.crew_free[3] == 0 and after.stock == chosen.stock + 3


def _to_round_end(state: State, crew_ids: list[str]) -> State:
    """Each seat picks the next crew of ``crew_ids`` and places nothing, to the round's end."""
    for crew_id in crew_ids:
        state = survey_nothing(pick(state, crew_id))
        while state.stage not in ("pick_crew", "round_end", "over"):
            state = both(state, state.legal[0])
    return state


def test_s12_three_vp_at_the_round_end_with_a_cube_on_every_planet():
    """S12's 3 VP are a crew trigger at the round's end of its holder: before the round-end
    effects of rules.yaml, so R7's 1 VP goes to the other seats, now the fewest."""
    everywhere = {p: (0,) for p in range(len(RING))}
    done = _to_round_end(position(("cartographer", "surveyor", "steward", "underdog", "recaller"), tracks=everywhere), ["cartographer", "surveyor", "steward", "underdog"])
    assert done.round == 2 and done.vp == (3, 1, 1, 1)
    missing = {p: (0,) for p in range(len(RING) - 1)}
    short = _to_round_end(position(("cartographer", "surveyor", "steward", "underdog", "recaller"), tracks=missing), ["cartographer", "surveyor", "steward", "underdog"])
    assert short.round == 2 and short.vp == (1, 1, 1, 1)


def test_s12_the_three_vp_are_scored_in_the_last_round_too():
    """S12 ruling (crew.yaml, docs/skills.md "Rulings of the ideas"): seat 1's hand is empty, so
    this round ends the game (R10); the Cartographer's 3 VP are still scored, on both engines,
    where a skill's round_end effect would be skipped (R12)."""
    everywhere = {p: (0,) for p in range(len(RING))}
    state = position(("cartographer", "surveyor", "steward", "underdog", "recaller"), tracks=everywhere, hands={1: 0})
    done = _to_round_end(state, ["cartographer", "surveyor", "steward", "underdog"])
    assert done.stage == "over" and done.triggers == ("hand_empty",)
    assert done.vp == (3, 1, 1, 1)


def test_s12_a_cube_on_a_special_square_is_not_a_cube_on_the_planet():
    """S12 ruling: a cube on every Planet means on each one's normal squares (R3); seat 0's cube
    on the last Planet's special square does not count."""
    missing = {p: (0,) for p in range(len(RING) - 1)}
    state = position(("cartographer", "surveyor", "steward", "underdog", "recaller"), tracks=missing, specials={len(RING) - 1: (0,)})
    done = _to_round_end(state, ["cartographer", "surveyor", "steward", "underdog"])
    assert done.vp == (1, 1, 1, 1)


def test_s13_a_cube_on_the_special_square_of_a_planet_without_yours():
    state = position(("pioneer", "surveyor", "steward", "underdog", "recaller"), tracks={0: (0,), 1: (1,)}, specials={2: (1,)})
    chosen = pick(state, "pioneer")
    offered = {a.target for a in chosen.legal}
    assert 0 not in offered and 2 not in offered and {1, 3, 4, 5, 6} <= offered  # diamond holds two (R3)
    after = both(chosen, action(A.TARGET_PLANET, 1))
    assert after.specials[1] == (0,) and after.hands[0] == chosen.hands[0] - 1


def test_s13_your_cube_on_a_special_square_is_not_a_cube_there():
    """S13 ruling: "where you have no cube" reads the normal squares (R3). Seat 0's cube on the
    Diamond's special square (it holds two) leaves the Diamond offered, and a second cube of
    seat 0 goes there; a cube on a Planet's track keeps it out (lava-1)."""
    state = position(("pioneer", "surveyor", "steward", "underdog", "recaller"), tracks={0: (0,)}, specials={5: (0,)})
    chosen = pick(state, "pioneer")
    offered = {a.target for a in chosen.legal}
    assert 0 not in offered and 5 in offered
    after = both(chosen, action(A.TARGET_PLANET, 5))
    assert after.specials[5] == (0, 0)


def test_s14_two_cubes_on_the_start_planet_then_the_usual_walk():
    """The survey's first two cubes go on its start Planet one after the other, then it walks
    on clockwise, never two in a row on one Planet again (R8); three cubes in all (R7)."""
    chosen = pick(position(("driller", "surveyor", "steward", "underdog", "recaller")), "driller")
    first = both(chosen, action(A.SURVEY_STEP, 3))
    assert first.legal == (action(A.SURVEY_STEP, 3), action(A.SURVEY_STOP))  # the start's second cube
    second = both(first, action(A.SURVEY_STEP, 3))
    assert second.tracks[3] == (0, 0) and second.legal == (action(A.SURVEY_STEP, 4), action(A.SURVEY_STOP))
    after = both(second, action(A.SURVEY_STEP, 4))
    assert after.tracks[4] == (0,) and after.hands[0] == chosen.hands[0] - 3 and after.stage == "pick_crew"


def test_s14_a_start_planet_that_fills_lets_the_walk_go_on():
    """Primordial-1 has one empty square: its one cube fills it, and the walk goes on to dark."""
    state = position(("driller", "surveyor", "steward", "underdog", "recaller"), tracks={3: (1, 2, 3, 1, 2, 3)})
    first = both(pick(state, "driller"), action(A.SURVEY_STEP, 3))
    assert first.legal == (action(A.SURVEY_STEP, 4), action(A.SURVEY_STOP))


def test_s15_a_vp_for_each_cube_in_hand_beyond_six():
    assert pick(position(("hoarder", "surveyor", "steward", "underdog", "recaller"), hands={0: 9}), "hoarder").vp[0] == 3
    assert pick(position(("hoarder", "surveyor", "steward", "underdog", "recaller"), hands={0: 4}), "hoarder").vp[0] == 0


def test_a_gain_of_nothing_is_not_logged():
    """The Hoarder with 4 cubes in hand gains 0 VP: the log says nothing of it; with 9, it says 3."""
    slot = 1  # the Hoarder, after Armstrong
    _, events = IDEAS.apply(position(("hoarder", "surveyor", "steward", "underdog", "recaller"), hands={0: 4}), action(A.PICK_CREW, slot))
    assert not [e for e in events if e.key == "vp_gained"]
    _, events = IDEAS.apply(position(("hoarder", "surveyor", "steward", "underdog", "recaller"), hands={0: 9}), action(A.PICK_CREW, slot))
    assert [e.params["vp"] for e in events if e.key == "vp_gained"] == [3]


def test_s16_each_other_player_puts_a_cube_on_this_crew():
    state = position(("tax-collector", "surveyor", "steward", "underdog", "recaller"), hands={2: 0})
    after = pick(state, "tax-collector")
    assert sorted(after.crew_cubes[1]) == [1, 3]  # seat 2 has none in hand
    assert after.hands[1] == state.hands[1] - 1 and after.hands[2] == 0


def test_s17_three_vp_or_a_larger_survey_that_may_repeat():
    chosen = pick(position(("diplomat", "surveyor", "steward", "underdog", "recaller")), "diplomat")
    assert set(chosen.legal) == {action(A.CHOOSE_OPTION, 0), action(A.CHOOSE_OPTION, 1)}
    assert both(chosen, action(A.CHOOSE_OPTION, 0)).vp[0] == 3
    survey = both(chosen, action(A.CHOOSE_OPTION, 1))
    assert survey.survey_bonus == 1 and survey.survey_rules != 0


def test_s17_the_larger_survey_may_put_all_three_cubes_on_one_planet():
    """S17 ruling: the option lifts R8 for the whole survey, so the three cubes (2 + 1) may all
    go on ocean-2, one after the other, on both engines."""
    chosen = pick(position(("diplomat", "surveyor", "steward", "underdog", "recaller")), "diplomat")
    state = both(chosen, action(A.CHOOSE_OPTION, 1))
    for _ in range(3):
        assert action(A.SURVEY_STEP, 6) in state.legal
        state = both(state, action(A.SURVEY_STEP, 6))
    assert state.tracks[6] == (0, 0, 0) and state.stage == "pick_crew"


def test_s18_two_vp_when_two_planets_are_full():
    full = {0: (1, 2, 3, 1, 2, 3), 1: (1, 2, 3, 1, 2)}
    assert pick(position(("veteran", "surveyor", "steward", "underdog", "recaller"), tracks=full), "veteran").vp[0] == 2
    assert pick(position(("veteran", "surveyor", "steward", "underdog", "recaller"), tracks={0: full[0]}), "veteran").vp[0] == 0


def test_s19_after_the_survey_a_vp_for_each_surveyed_planet_where_you_rank_first():
    """Seat 0 surveys 2 cubes from lava-1: it ranks first there (alone) but not on ocean-1,
    where seat 1 holds two cubes."""
    state = position(("analyst", "surveyor", "steward", "underdog", "recaller"), tracks={1: (1, 1)})
    chosen = pick(state, "analyst")
    after = both(chosen, action(A.SURVEY, 0, 2, A.CLOCKWISE))
    assert after.vp[0] == 1


def test_s20_no_survey_and_a_vp_for_each_other_player():
    after = pick(position(("negotiator", "surveyor", "steward", "underdog", "recaller")), "negotiator")
    assert after.vp[0] == 3
    assert after.legal == (action(A.SURVEY, -1, 0),)  # a survey count of 0 places nothing (R7)


def test_s9_a_crew_closed_until_the_round_ends():
    """Seat 0 picks the Gatekeeper and closes the Steward, an unpicked crew: the later players
    are not offered it (R5); it is unpicked, so it gets a free cube at the round's end (R11), and
    it opens again with the next round."""
    state = position(("gatekeeper", "steward", "surveyor", "underdog", "recaller"))
    chosen = pick(state, "gatekeeper")
    assert [a.target for a in chosen.legal] == [0, 2, 3, 4, 5]  # Armstrong and the unpicked others
    closed = both(chosen, action(A.TARGET_CREW, 2))
    assert closed.closed == frozenset({2})
    data = jsonio.state_to_json(IDEAS, closed._replace(protected=(2, 0, 0, 1)))
    assert data["crew"][2]["closed"] is True and [seat.get("protected") for seat in data["seats"]] == ["round_end", None, None, "turn_end"]
    assert jsonio.state_from_json(IDEAS, data, trusted=True) == closed._replace(protected=(2, 0, 0, 1))
    after = survey_nothing(closed)
    assert [a.target for a in after.legal] == [0, 3, 4, 5]
    for crew_id in ("surveyor", "underdog", "recaller"):
        after = survey_nothing(pick(after, crew_id))
    assert after.round == 2 and after.closed == frozenset()
    assert after.crew_free[2] == 1 and action(A.PICK_CREW, 2) in after.legal


def test_s10_another_crews_skill_as_this_crews():
    """Seat 0 picks the Understudy: Armstrong (always in play) and the Understudy itself are not
    offered. Applying the Surveyor's skill scores at once for each Planet where seat 0 ranks
    first; applying the Analyst's, an after_survey skill, scores once the survey is made."""
    dealt = ("understudy", "surveyor", "analyst", "diplomat", "ferryman")
    state = position(dealt, tracks={0: (0, 0, 1), 1: (1, 0)})
    chosen = pick(state, "understudy")
    assert [a.target for a in chosen.legal] == [2, 3, 4, 5]
    surveyor = both(chosen, action(A.TARGET_CREW, 2))
    assert surveyor.vp[0] == 2 and surveyor.borrowed[1] == IDEAS.ruleset.crew.index(IDEAS.ruleset.crew_card("surveyor"))
    analyst = both(chosen, action(A.TARGET_CREW, 3))
    assert analyst.vp[0] == 0 and analyst.stage == "survey"
    after = both(analyst, action(A.SURVEY, 2, 2))  # gas-1 and primordial-1, first there
    assert after.vp[0] == 2


def test_s10_a_decision_of_the_skill_applied_waits_on_behalf_of_this_crew():
    """Applying the Diplomat's choose_one: the decision is seat 0's, pending for the
    Understudy's slot with the Diplomat's skill, and crosses to the kernel and to JSON alike."""
    state = position(("understudy", "diplomat", "surveyor", "analyst", "ferryman"))
    chosen = both(pick(state, "understudy"), action(A.TARGET_CREW, 2))
    head = chosen.pending[0]
    assert (head.slot, head.card, head.path) == (1, IDEAS.ruleset.crew.index(IDEAS.ruleset.crew_card("diplomat")), (0,))
    assert {a.kind for a in chosen.legal} == {A.CHOOSE_OPTION}
    data = jsonio.state_to_json(IDEAS, chosen)
    assert data["pending"][0]["skill_of"] == "diplomat" and data["crew"][1]["borrowed"] == "diplomat"
    assert jsonio.state_from_json(IDEAS, data) == chosen == jsonio.state_from_json(IDEAS, data, trusted=True)
    after = both(chosen, action(A.CHOOSE_OPTION, 0))
    assert after.vp[0] == 3


def test_s10_the_driller_s_survey_start_applied_puts_two_cubes_on_the_start_planet():
    """The Understudy applies the Driller's skill (S14): its survey starts with two cubes on the
    start Planet, as the Driller's own does, with the Understudy's survey count (2)."""
    state = position(("understudy", "driller", "surveyor", "steward", "underdog"))
    chosen = both(pick(state, "understudy"), action(A.TARGET_CREW, 2))
    assert chosen.stage == "survey" and chosen.legal[-1] == action(A.SURVEY_STOP)
    first = both(chosen, action(A.SURVEY_STEP, 3))
    assert first.legal == (action(A.SURVEY_STEP, 3), action(A.SURVEY_STOP))  # the start's second cube
    second = both(first, action(A.SURVEY_STEP, 3))
    assert second.tracks[3] == (0, 0) and second.hands[0] == chosen.hands[0] - 2 and second.stage == "pick_crew"


def test_s10_the_pathfinder_s_survey_start_applied_puts_a_free_cube_before_the_walk():
    """The Understudy applies the Pathfinder's skill (S6): a free cube takes the start Planet's
    next square before the survey's first cube; full lava-1 is no start."""
    state = position(("understudy", "pathfinder", "surveyor", "steward", "underdog"), tracks={0: (1, 2, 3, 1, 2, 3)})
    chosen = both(pick(state, "understudy"), action(A.TARGET_CREW, 2))
    assert action(A.SURVEY_STEP, 0) not in chosen.legal
    first = both(chosen, action(A.SURVEY_STEP, 2))
    assert first.tracks[2] == (FREE, 0) and first.stock == chosen.stock - 1 and first.hands[0] == chosen.hands[0] - 1


@pytest.mark.parametrize("players", [3, 4])
def test_the_ideas_ruleset_plays_whole_games_alike_on_both_engines(players):
    import random

    from differential import play_lockstep

    for seed in range(6):
        setup = IDEAS.deal(players, seed=seed)
        assert play_lockstep(IDEAS, setup, random.Random(seed)) > 0


# -- planet abilities (data/cards/ideas/planets.yaml, docs/skills.md "Planet abilities") -------

PLAIN = ("steward", "surveyor", "underdog", "recaller", "ferryman")  # the Steward scores 0 VP without free cubes


def scores(state: State) -> tuple[tuple[int, int, int], ...]:
    """(majority VP, major-planet bonus, total) per seat, from the Python engine's score sheet,
    held equal to the kernel's (R15-R18)."""
    sheet = tuple((seat.majority_vp, seat.bonus_vp, seat.total) for seat in IDEAS.score(state).seats)
    kernel = native.to_kernel(IDEAS, state)
    assert tuple((m, b, t) for m, b, _play, t, _hand in kernel.seat_totals()[:4]) == sheet
    return sheet


def test_p1_the_dark_planets_cubes_count_toward_every_colour():
    """P1 under the ideas' bonus (R4: 3 VP for each complete set of four colours, each cube in
    one set at most): a cube on the Dark Planet stands as any one colour. Seat 0's lone Dark cube
    is one cube, no set (it counted as a set by itself once); with a red, a blue and a yellow
    cube beside it, a set."""
    assert len(IDEAS.ruleset.colours) == 6
    state = position(PLAIN, tracks={4: (0,), 0: (1,)})
    assert [bonus for _, bonus, _ in scores(state)] == [0, 0, 0, 0]
    assert scores(position(PLAIN, tracks={4: (0,), 0: (0,), 1: (0,), 2: (0,)}))[0][1] == 3


def test_p1_with_r4_eight_cubes_make_two_sets_at_most():
    """Five Dark cubes and a red, a blue and a yellow one: eight cubes, two sets (6 VP), where
    counting each Dark cube once per colour made eight sets (24 VP)."""
    state = position(PLAIN, tracks={4: (0, 0, 0, 0, 0), 0: (0,), 1: (0,), 2: (0,)})
    assert scores(state)[0][1] == 6


def test_p2_the_diamond_planets_majority_vp_are_doubled():
    """R16 with P2: two cubes of seat 0 and one of seat 1 on the Diamond Planet (track 2 3 4 ...):
    first place reads row 3 (4 VP, doubled to 8), second row 2 (3 VP, doubled to 6, and halved
    by the ideas' R2 to 3). P2 ruling: the row is doubled before R2 takes its half, so an odd
    row loses nothing to the rounding (halving first would give 1, doubled 2)."""
    state = position(PLAIN, tracks={5: (0, 1, 0)})
    assert [majority for majority, _, _ in scores(state)] == [8, 3, 0, 0]
    plain = position(PLAIN, tracks={6: (0, 1, 0)})  # ocean-2 (1 2 3 ...), no ability: rows 3 and 2 (halved)
    assert [majority for majority, _, _ in scores(plain)] == [3, 1, 0, 0]


# -- the majority's R ideas (rules.yaml ``majority``; docs/rules.md, "The majority as data") --


def test_r1_tied_players_share_the_better_rank_and_each_scores_its_row():
    """R1: one cube each on ocean-2 (1 2 3 ...): both rank first and read row 2 (2 VP each);
    under R15 seat 1 would read row 2 and seat 0 row 1."""
    assert [majority for majority, _, _ in scores(position(PLAIN, tracks={6: (0, 1)}))] == [2, 2, 0, 0]
    # Two seats tied at rank 1 read row 5; the next owner is rank 3 and reads row 3.
    assert scores(position(PLAIN, tracks={6: (0, 0, 1, 1, 2)}))[2][0] == 0  # row 3 (3 VP) at rank 3: nothing (R2)
    assert [majority for majority, _, _ in scores(position(PLAIN, tracks={6: (0, 0, 1, 1, 2)}))][:2] == [5, 5]


def test_r2_second_place_scores_half_rounded_down_and_third_nothing():
    """R2: on ocean-2 seat 0 (three cubes) reads row 6 (6 VP), seat 1 (two) row 5 (5 VP, half:
    2), seat 2 (one) row 4 (4 VP at rank 3: nothing)."""
    state = position(PLAIN, tracks={6: (0, 1, 0, 1, 0, 2)})
    assert [majority for majority, _, _ in scores(state)] == [6, 2, 0, 0]


def test_r3_an_accident_row_costs_its_reader_two_vp():
    """R3: on lava-1 (1 3 0 5 7 0) seat 0's two cubes put first place on row 3, an accident:
    -2 VP, taken from its total; second place reads row 2 (3 VP, half: 1)."""
    state = position(PLAIN, tracks={0: (0, 1, 0)})
    assert scores(state) == ((-2, 0, -2), (1, 0, 1), (0, 0, 0), (0, 0, 0))  # red cubes alone: no set of four (R4)
    # Three seats tied at rank 1 on the accident of square 6 each lose 2 (R1 with R3).
    tied = position(PLAIN, tracks={0: (0, 0, 1, 1, 2, 2)})
    assert [majority for majority, _, _ in scores(tied)] == [-2, -2, -2, 0]


def test_p3_a_cube_on_square_3_makes_a_discovery():
    """P3: gas-1 holds two cubes; seat 0's survey walk from ocean-1 puts its second cube on
    gas-1's square 3, and seat 0 gains 1 VP at once (cube_placed, "you" is the cube's owner)."""
    state = position(PLAIN, tracks={2: (1, 2)})
    chosen = pick(state, "steward")
    assert chosen.vp[0] == 0
    after = both(chosen, action(A.SURVEY, 1, 2))
    assert after.tracks[2] == (1, 2, 0) and after.vp == (1, 0, 0, 0)
    # A cube on another square of gas-1 discovers nothing.
    later = both(pick(position(PLAIN, tracks={2: (1, 2, 3)}), "steward"), action(A.SURVEY, 2, 1))
    assert later.tracks[2] == (1, 2, 3, 0) and later.vp == (0, 0, 0, 0)
    _, events = IDEAS.apply(chosen, action(A.SURVEY, 1, 2))
    assert [e.key for e in events if e.key in ("cube_placed", "ability_triggered", "vp_gained")] == [
        "cube_placed", "cube_placed", "ability_triggered", "vp_gained",
    ]


def test_p4_when_the_ocean_becomes_full_each_player_on_it_gains_1_vp():
    """P4: ocean-1 (5 squares) holds seats 1, 2, 1 and a free cube; seat 0's cube fills it, and
    each seat with a cube on it (0, 1 and 2, not 3, not the virtual player) gains 1 VP."""
    state = position(PLAIN, tracks={1: (1, 2, 1, FREE)})
    after = both(pick(state, "steward"), action(A.SURVEY, 1, 1))
    assert after.tracks[1] == (1, 2, 1, FREE, 0) and after.vp == (1, 1, 1, 0)


def test_p4_a_cube_on_the_special_square_is_not_a_cube_on_it():
    """P4 ruling: "each player with a cube on it" reads the normal squares (R3): seat 3, whose
    one cube on ocean-1 stands on its special square, gains nothing when it fills."""
    state = position(PLAIN, tracks={1: (1, 2, 1, FREE)}, specials={1: (3,)})
    after = both(pick(state, "steward"), action(A.SURVEY, 1, 1))
    assert after.vp == (1, 1, 1, 0)


P5_RING = ("lava-2", "ocean-1", "gas-1", "primordial-1", "dark", "diamond", "ocean-2")


def test_p5_a_survey_may_not_start_on_lava_2():
    """P5: no whole walk starts on lava-2 (ring position 0), but a walk from ocean-2 passes over
    it; a cube-by-cube survey's first cube may not go there either (R7, R8 lifted)."""
    chosen = pick(position(PLAIN, ring=P5_RING), "steward")
    starts = {act.target for act in chosen.legal}
    assert 0 not in starts and {-1, 1, 6} <= starts
    after = both(chosen, action(A.SURVEY, 6, 2))
    assert after.tracks[6] == (0,) and after.tracks[0] == (0,)
    steps = pick(position(("contrarian", *PLAIN[1:]), ring=P5_RING), "contrarian")
    assert {act.target for act in steps.legal if act.kind == A.SURVEY_STEP} == {1, 2, 3, 4, 5, 6}
    first = both(steps, action(A.SURVEY_STEP, 1))  # the contrarian walks counter-clockwise (S7): 1, then 0
    assert action(A.SURVEY_STEP, 0) in first.legal  # only the first cube is refused there


P6_RING = ("lava-1", "ocean-1", "gas-1", "primordial-3", "dark", "diamond", "ocean-2")


def test_p6_each_cube_on_the_special_square_scores_1_vp_at_game_end():
    """P6: primordial-3's special square holds 3 cubes (R3 knob); seat 1's hand is empty, so the
    game ends after this round (R10), and before the winner is decided each cube on the special
    square scores its owner 1 VP (game_end: nobody is "you", for each seat). At the last round's
    end, before the game ends, R7 gives every seat, tied on 0 VP, 1 VP."""
    assert IDEAS.ruleset.planet("primordial-3").special_capacity == 3
    state = position(PLAIN, ring=P6_RING, specials={3: (0, 2, 0)}, hands={1: 0})
    # The round's last turn: seats 1, 2 and 3 have picked; seat 0 picks last.
    state = state._replace(start_player=1, turn=3, workers=(-1, -1, 1, 2, 3, -1), chosen=(2, 3, 4))
    state = state._replace(legal=IDEAS.derive_legal(state))
    after = survey_nothing(pick(state, "steward"))
    assert after.stage == "over" and after.triggers == ("hand_empty",)
    assert after.vp == (1 + 2, 1, 1 + 1, 1)
