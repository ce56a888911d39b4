"""R11 as data: rules.yaml's ``round_end.unpicked_crews`` (docs/rules.md, R11).

At a round's end, when the game goes on, each crew with no worker receives max(0, free_cubes)
free cubes, the amount read with this_crew bound to the crew and nobody as "you", at most what
the stock holds and what the cap leaves, in crew-area order. Each worked example plays the
round on the Python engine and on the native kernel from the same position, and both must
reach the same state; then the loader's checks, the older ``max_free_cubes_per_crew``, the
fingerprint, the bounds and the tune paths.
"""

from __future__ import annotations

import pytest
from builders import deal_all, game, ruleset, unpicked_crews
from differential import canonical

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.model import UnpickedCrews
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


def round_on_both(g: Game, state: State) -> State:
    """Seats pick w, y and z, surveying nothing: the round ends, on both engines alike."""
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
    assert state.round == rounds + 1
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
    assert ruleset_to_data(ideas)["rules"]["round_end"] == {"unpicked_crews": {"free_cubes": R9, "cap": None}}


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
