"""A crew nobody picked that reaches the cap leaves the crew area (docs/rules.md, R11:
rules.yaml ``round_end.unpicked_crews.at_cap: replaced``).

Once every crew nobody picked has received its free cubes, each of them holding the cap's
number, in crew-area order, leaves: its free cubes go back to the stock, the player cubes on it
(``place_cube_on_crew``) to their owners' hands, and the first card of the queue of crew cards
not dealt takes its slot, empty. Captain Armstrong, always in play (R19), was not dealt and
stays; once the queue is empty every crew stays. The queue is dealt from the seed after every
other draw, so a ruleset that replaces no crew deals as before. Each worked example plays on
the Python engine and on the native kernel from the same position, and both must agree.
"""

from __future__ import annotations

import pytest
from builders import armstrong, crew, game, player_count, ruleset, unpicked_crews
from differential import canonical

from stargazer_rules.engine import state_checks
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.errors import RulesetError, SetupError
from stargazer_rules.fast.game import FastGame
from stargazer_rules.formats.records import record_game, record_from_json, record_to_json, replay
from stargazer_rules.formats.states_json import state_from_json, state_to_json
from stargazer_rules.text.messages import render_event
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

#: Armstrong, four crews dealt to three players (w, x, y, z) and two left in the queue (q, r).
CREW = (armstrong(), crew("w"), crew("x"), crew("y"), crew("z"), crew("q", survey_count=4), crew("r"))
ARMSTRONG, X = 0, 2
SETUP = Setup(3, ("a", "b", "c", "d", "e"), ("w", "x", "y", "z"), 0, ("q", "r"))


def replacing(cap: int | None = 3, at_cap: str = "replaced") -> Game:
    section = unpicked_crews(free_cubes=1, cap=cap)
    section["unpicked_crews"]["at_cap"] = at_cap
    return game(crew=CREW, player_counts=[player_count(3, 5, 4, 3)], round_end=section)


def position(g: Game, crew_free: dict[int, int], on_x: tuple[int, ...] = ()) -> State:
    """Round 1, seat 0 to pick: ``crew_free`` on the crews, the rest of the free cubes in the
    stock, and the cubes of ``on_x``'s seats on crew x (out of their hands)."""
    state = g.new_state(setup=SETUP if g.replaces_crews else Setup(3, SETUP.planets, SETUP.crew))
    free = tuple(crew_free.get(slot, 0) for slot in range(len(state.crew)))
    cubes = tuple(on_x if slot == X else () for slot in range(len(state.crew)))
    hands = tuple(hand - on_x.count(seat) for seat, hand in enumerate(state.hands))
    state = state._replace(crew_free=free, crew_cubes=cubes, hands=hands, stock=g.ruleset.free_cubes - sum(free))
    return state._replace(legal=g.derive_legal(state))


def round_on_both(g: Game, state: State) -> tuple[State, list]:
    """Seats pick w, y and z, surveying nothing: the round ends, on both engines alike."""
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    events = []
    for crew_id in ("w", "y", "z"):
        slot = next(slot for slot, card in enumerate(state.crew) if g.ruleset.crew[card].id == crew_id)
        for act in (action(A.PICK_CREW, slot), action(A.SURVEY, -1, 0)):
            after, happened = g.apply(state, act)
            events += happened
            kernel = native.to_kernel(g, state)
            kernel.step(act)
            assert canonical(native.from_kernel(kernel)) == canonical(after)
            state = after
    return state, events


def free_cubes_in_play(state: State) -> int:
    on_planets = sum(track.count(-1) for track in state.tracks) + sum(special.count(-1) for special in state.specials)
    return state.stock + sum(state.crew_free) + on_planets


def player_cubes(state: State, seat: int) -> int:
    placed = sum(track.count(seat) for track in (*state.tracks, *state.specials, *state.crew_cubes))
    return state.hands[seat] + placed + state.removed[seat]


def crew_ids(g: Game, state: State) -> list[str]:
    return [g.ruleset.crew[card].id for card in state.crew]


# -- worked examples on both engines -----------------------------------------------------------


def test_a_crew_reaching_the_cap_is_replaced_by_the_first_queued_card():
    """x holds 2 and a cube of seat 1; at round 1's end it receives its 3rd free cube, the cap:
    it leaves, its 3 free cubes back to the stock, seat 1's cube back to its hand, and q (the
    queue's first card) takes slot 2, empty. Armstrong, at the cap too, stays (R19)."""
    g = replacing()
    before = position(g, {ARMSTRONG: 3, X: 2}, on_x=(1,))
    after, events = round_on_both(g, before)
    assert crew_ids(g, after) == ["armstrong", "w", "q", "y", "z"]
    assert [g.ruleset.crew[card].id for card in after.queue] == ["r"]
    assert (after.crew_free[ARMSTRONG], after.crew_free[X], after.crew_cubes[X]) == (3, 0, ())
    assert after.stock == before.stock - 1 + 3  # x's 1 received, then its 3 back
    assert after.hands[1] == before.hands[1] + 1
    assert [e.params for e in events if e.key == "crew_replaced"] == [{"crew": "x", "by": "q"}]
    # Conservation across it: every free cube and every player cube is somewhere.
    assert free_cubes_in_play(after) == free_cubes_in_play(before) == g.ruleset.free_cubes
    assert [player_cubes(after, seat) for seat in range(3)] == [g.ruleset.cubes_per_player] * 3
    assert state_checks.state_problems(g, after) == []
    # The new crew is picked and surveys as its own card (survey count 4).
    assert action(A.PICK_CREW, X) in after.legal


def test_stays_keeps_the_crew_at_the_cap():
    g = replacing(at_cap="stays")
    after, events = round_on_both(g, position(g, {X: 2}))
    assert crew_ids(g, after) == ["armstrong", "w", "x", "y", "z"] and after.crew_free[X] == 3 and after.queue == ()
    assert not [e for e in events if e.key == "crew_replaced"]


def test_with_the_queue_empty_the_crew_stays():
    g = replacing()
    state = position(g, {X: 2})
    state = state._replace(queue=())
    state = state._replace(legal=g.derive_legal(state))
    after, events = round_on_both(g, state)
    assert crew_ids(g, after)[X] == "x" and after.crew_free[X] == 3
    assert not [e for e in events if e.key == "crew_replaced"]


def test_a_crew_below_the_cap_stays():
    g = replacing()
    after, _ = round_on_both(g, position(g, {X: 1}))
    assert crew_ids(g, after) == ["armstrong", "w", "x", "y", "z"] and after.crew_free[X] == 2


# -- the deal, the setup, records and state JSON -------------------------------------------------


def test_the_queue_is_drawn_after_the_other_draws_so_the_deal_is_otherwise_unchanged():
    stays, replaced = replacing(at_cap="stays"), replacing()
    for seed in range(20):
        old, new = stays.deal(3, seed), replaced.deal(3, seed)
        assert (old.planets, old.crew, old.start_player, old.queue) == (new.planets, new.crew, new.start_player, ())
        assert sorted(new.queue) == sorted({"w", "x", "y", "z", "q", "r"} - set(new.crew))


def test_the_kernel_deals_the_same_queue():
    g = replacing()
    for seed in range(10):
        setup = g.deal(3, seed)
        planets, crew, start = FastGame(g).core.deal(3, seed)
        assert (planets, crew, start) == (list(g.card_indices(setup)[0]), list(g.deck_indices(setup)), setup.start_player)


def test_a_setup_queue_that_is_not_the_crews_left_is_refused():
    g = replacing()
    with pytest.raises(SetupError, match="the queue must hold each crew not dealt once"):
        g.new_state(setup=Setup(3, SETUP.planets, SETUP.crew, 0, ("q",)))
    with pytest.raises(SetupError, match="replaces no crew"):
        replacing(at_cap="stays").new_state(setup=SETUP)


def test_records_and_state_json_carry_the_queue():
    g = replacing()
    record = record_game(g, SETUP, [])
    assert record_from_json(record_to_json(record), g).setup.queue == ("q", "r")
    after, _ = round_on_both(g, position(g, {X: 2}))
    data = state_to_json(g, after)
    assert data["crew_queue"] == ["r"]
    assert state_from_json(g, data) == after
    assert "crew_queue" not in state_to_json(replacing(at_cap="stays"), replacing(at_cap="stays").new_state(setup=Setup(3, SETUP.planets, SETUP.crew)))


# -- the loader ----------------------------------------------------------------------------------


def _problems(section: dict) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as caught:
        ruleset(crew=CREW, player_counts=[player_count(3, 5, 4, 3)], round_end={"unpicked_crews": section})
    return [(p.path, p.message + (f" (did you mean {p.suggestion!r}?)" if p.suggestion else "")) for p in caught.value.problems]


def test_replaced_without_a_cap_is_refused_where_it_stands():
    [(path, message)] = _problems({"free_cubes": 1, "cap": None, "at_cap": "replaced"})
    assert path == "round_end.unpicked_crews.at_cap" and "cap is null" in message


def test_a_misspelt_at_cap_gets_a_did_you_mean():
    [(path, message)] = _problems({"free_cubes": 1, "cap": 3, "at_cap": "replace"})
    assert path == "round_end.unpicked_crews.at_cap" and "did you mean 'replaced'" in message


def test_stays_is_the_default_and_keeps_the_fingerprint():
    stays = replacing(at_cap="stays").ruleset
    assert stays.fingerprint == game(crew=CREW, player_counts=[player_count(3, 5, 4, 3)]).ruleset.fingerprint
    assert replacing().ruleset.fingerprint != stays.fingerprint
    assert load_ruleset("draft7").unpicked_crews.at_cap == "stays"


# -- read back -----------------------------------------------------------------------------------


def test_the_rules_and_the_sheet_read_it_back_in_both_languages():
    from stargazer_rules.printing.sheet import sheet_items
    from stargazer_rules.text.reports import ruleset_report

    g = replacing()
    for lang, words in (("en", "leaves the crew area"), ("ja", "クルーエリアを去る")):
        assert words in str(ruleset_report(g.ruleset, lang))
        assert any(words in item[1] for item in sheet_items(g.ruleset, lang) if isinstance(item, tuple))
        assert words not in str(ruleset_report(replacing(at_cap="stays").ruleset, lang))


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Understudy holds the most free cubes a crew may and leaves the crew area; Driller takes its place."),
    ("ja", "代役はフリーキューブが上限に達してクルーエリアを去り、掘削士が代わりに入る。"),
])
def test_the_log_names_both_cards_of_a_replacement_by_their_names(lang, text):
    """The crew that leaves and the one that takes its place, by their names, never their ids."""
    event = Event("crew_replaced", {"crew": "understudy", "by": "driller"})
    assert render_event(event, load_ruleset("ideas"), lang) == text
