"""Properties of random games, checked after every decision, on the bundled rulesets and on
generated valid rulesets (tests/strategies.py).

Every property runs on three sources: the bundled ``draft7`` and ``base``, and rulesets drawn by
``ruleset_documents`` (other track lengths and values, capacities, colours, player counts, rule
counts, and skills from every effect type). A game is played by the seeded ``choose`` policy;
see tests/strategies.py for why that policy, random as it is, always finishes a game.
"""

from __future__ import annotations

import json
import pickle
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invariants import check_cubes, check_legal, play
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import IllegalActionError
from stargazer_rules.formats import jsonio
from stargazer_rules.formats import records
from stargazer_rules.rulesets.loader import DEFAULT_MAX_ROUNDS, ruleset_to_data
from stargazer_rules.rulesets.model import DRAFT7_END
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.abilities import PlanetRules
from stargazer_rules.vocabulary.effects import COUNTER, DIRECTION, EFFECT_TYPES, FREE_CUBE_OWNER, NO_SKIP_LIMIT, REPEAT, SKIP, START
from stargazer_rules.vocabulary.bonus import LARGEST_GROUPS, R17, Bonus
from stargazer_rules.vocabulary.majority import R15_R16
from stargazer_rules.vocabulary.expressions import amount_data
from stargazer_rules.vocabulary.table import (
    HAND_EMPTY,
    NO_WORKER,
    OVER,
    PICK_CREW,
    PLANETS_FULL,
    ROUND_END_STAGE,
    ROUND_LIMIT,
    SURVEYING,
    State,
)
from strategies import (
    R9_FREE_CUBES,
    SOURCES,
    Playout,
    effect_of_type,
    load_documents,
    moves_cubes_at_once,
    one_survey_start,
    places_nothing,
    playouts,
    round_bound,
    ruleset_documents,
)
from suite_tiers import generated_in_the_slow_tier

by_source = pytest.mark.parametrize("source", generated_in_the_slow_tier(SOURCES))

#: For the slower properties (JSON schema checks, a ruleset loaded per example): a third of
#: the profile's examples.
fewer_examples = settings(max_examples=max(1, settings().max_examples // 3))

#: For a property run once per effect type or choice value (41 runs, each example a drawn
#: ruleset loaded): a sixth of the profile's examples each, about 200 rulesets in all.
examples_per_type = settings(max_examples=max(1, settings().max_examples // 6))


def draw_playout(data: st.DataObject, source: str) -> Playout:
    return data.draw(playouts(source), label="playout")


# -- cube conservation and legal actions ----------------------------------------------------


@by_source
@given(data=st.data())
def test_cubes_are_conserved_after_every_action(source: str, data: st.DataObject) -> None:
    """R6, R11, R13: every player cube and every free cube is in exactly one place, always."""
    playout = draw_playout(data, source)
    for state in play(playout).states:
        check_cubes(playout.game, state)


@by_source
@given(data=st.data())
def test_legal_actions_are_listed_until_the_game_is_over_and_none_after(source: str, data: st.DataObject) -> None:
    """Illegal moves are data: a state lists its options until the game is over, then none."""
    playout = draw_playout(data, source)
    trajectory = play(playout)
    for state in trajectory.states:
        check_legal(playout.game, state)
    assert playout.game.is_over(trajectory.final)
    assert playout.game.legal_actions(trajectory.final) == ()


@by_source
@given(data=st.data())
def test_every_listed_action_applies(source: str, data: st.DataObject) -> None:
    """Every legal action of every state on the way applies, to a state that keeps the invariants."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        for act in game.legal_actions(state):
            after = game.step(state, act)
            check_cubes(game, after)
            check_legal(game, after)


@by_source
@given(data=st.data())
def test_an_unlisted_action_raises_and_changes_nothing(source: str, data: st.DataObject) -> None:
    """An action that is not legal raises IllegalActionError, with a reason, before doing anything."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        saved = pickle.loads(pickle.dumps(state))
        unlisted = Action(A.PICK_CREW, len(state.crew))  # no such crew slot: never legal
        with pytest.raises(IllegalActionError) as caught:
            game.apply(state, unlisted)
        assert str(caught.value)
        assert state == saved


@by_source
@given(data=st.data())
def test_apply_leaves_its_input_state_unchanged(source: str, data: st.DataObject) -> None:
    """A rule returns a new state and never edits one: the input equals a copy taken before."""
    playout = draw_playout(data, source)
    game = playout.game
    for before, act, after in play(playout).steps():
        saved = pickle.loads(pickle.dumps(before))
        assert game.apply(before, act)[0] == after
        assert game.step(before, act) == after
        assert before == saved
        hash(before)  # immutable all the way down: every field is hashable


# -- turns and surveys (R4, R5, R7, R8) -----------------------------------------------------


@by_source
@given(data=st.data())
def test_survey_placements_are_where_playing_the_survey_puts_its_cubes(source: str, data: st.DataObject) -> None:
    """R7, R8: for every legal survey of every state on the way, ``Game.survey_placements``
    (which the action's description uses without playing it) is the cube_placed events of
    playing it, up to survey_done."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        for act in game.legal_actions(state):
            if act.kind != A.SURVEY:
                continue
            placed = []
            for event in game.apply(state, act)[1]:
                if event.key == "survey_done":
                    break
                if event.key == "cube_placed":
                    position = [game.ruleset.planets[card].id for card in state.planets].index(event.params["planet"])
                    placed.append((position, event.params["square"]))
            assert game.survey_placements(state, act) == tuple(placed), act


@by_source
@given(data=st.data())
def test_each_seat_takes_one_turn_a_round_clockwise_from_the_start_player(source: str, data: st.DataObject) -> None:
    """R4, R5: a round is one turn per seat from the start player clockwise; free crews are offered
    (but those a skill closed for the round, S9)."""
    playout = draw_playout(data, source)
    game = playout.game
    turns: dict[int, list[int]] = {}
    for state in play(playout).states:
        if state.stage != PICK_CREW:
            continue
        seat = game.current_player(state)
        turns.setdefault(state.round, [])
        expected = (state.start_player + len(turns[state.round])) % state.players
        assert seat == expected, f"round {state.round}: seat {seat} picks, expected {expected}"
        turns[state.round].append(seat)
        free = {slot for slot, worker in enumerate(state.workers) if worker == NO_WORKER and slot not in state.closed}  # S9
        assert {act.target for act in state.legal} == free and all(act.kind == A.PICK_CREW for act in state.legal)
    for round_number, seats in turns.items():
        assert sorted(seats) == list(range(playout.players)), f"round {round_number}: turns {seats}"


@by_source
@given(data=st.data())
def test_every_survey_option_places_its_cubes_by_the_walk(source: str, data: st.DataObject) -> None:
    """R7, R8: the survey options are exactly the walks that can be placed, each start and each
    count from the minimum up to the survey count and the hand, no two with the same effect from
    one start; each puts its cubes where the walk goes."""
    playout = draw_playout(data, source)
    game = playout.game
    # A skill that moves cubes with no decision may move more after the survey in the same step.
    only_the_survey = not moves_cubes_at_once(game)
    for state in play(playout).states:
        if state.stage != SURVEYING:
            continue
        seat = game.current_player(state)
        rooms = [game.ruleset.planets[card].length - len(track) for track, card in zip(state.tracks, state.planets)]
        listed: dict[int, set[tuple[int, ...]]] = {}
        for act in game.legal_actions(state):
            after = game.step(state, act)
            if act.kind == A.SURVEY_STEP and only_the_survey:
                assert after.tracks[act.target] == state.tracks[act.target] + (seat,)
            if act.kind != A.SURVEY:
                continue
            walk = _r8_walk(rooms, act.target, act.count, act.direction) if act.count else []
            assert len(walk) == act.count, f"{act}: the walk from there places only {len(walk)}"
            expected = list(state.tracks)
            for p in walk:
                expected[p] += (seat,)
            if only_the_survey:
                assert after.tracks == tuple(expected), f"{act}: tracks {after.tracks}, expected {tuple(expected)}"
                assert after.hands[seat] == state.hands[seat] - act.count
            outcome = tuple(sorted(walk))
            assert outcome not in listed.get(act.target, set()), f"{act}: same effect as another option from there (R7)"
            listed.setdefault(act.target, set()).add(outcome)
        if any(act.kind == A.SURVEY for act in state.legal):
            assert listed == _r7_options(game, state, rooms), "the survey options are not those of R7"


def _r8_walk(rooms: list[int], start: int, count: int, direction: int) -> list[int]:
    """R8, written from the ruling: one cube per Planet from ``start`` in ``direction``, skipping
    full ones, never the same Planet twice in a row; at most ``count`` cubes."""
    rooms = list(rooms)
    placed: list[int] = []
    p = start
    while rooms[p] > 0 and len(placed) < count:
        placed.append(p)
        rooms[p] -= 1
        following = _next_with_room(rooms, p, direction)
        if following is None:
            break
        p = following
    return placed


def _r7_options(game: Game, state: State, rooms: list[int]) -> dict[int, set[tuple[int, ...]]]:
    """The outcomes R7 allows from each start (-1: placing nothing), as sorted Planet lists.

    The limit is the survey count after skills and the hand; the minimum is ``survey.minimum``,
    or the most any start can place when that is fewer (docs/architecture.md).
    """
    seat = game.current_player(state)
    card = game.ruleset.crew[state.crew[state.chosen[-1]]]
    limit = min(max(0, card.survey_count + state.survey_bonus), state.hands[seat])
    directions = (A.CLOCKWISE, A.COUNTER_CLOCKWISE) if state.survey_rules & DIRECTION else (A.CLOCKWISE,)
    walks = {
        (start, d): _r8_walk(rooms, start, limit, d) for start in range(len(rooms)) if rooms[start] > 0 for d in directions
    }
    least = min(game.ruleset.survey_minimum, max((len(walk) for walk in walks.values()), default=0))
    options: dict[int, set[tuple[int, ...]]] = {-1: {()}} if least == 0 else {}
    for (start, _direction), walk in walks.items():
        for count in range(max(1, least), len(walk) + 1):
            options.setdefault(start, set()).add(tuple(sorted(walk[:count])))
    return options


@by_source
@given(data=st.data())
def test_cube_by_cube_survey_steps_follow_the_lifted_limits(source: str, data: st.DataObject) -> None:
    """R7, R8 lifted by skills: each step goes to a Planet with room, within the survey count;
    may_skip_planets allows any but the last one (any at all with allow_repeat_planet too);
    allow_repeat_planet alone allows the last one or the next one with room in the walk's direction."""
    playout = draw_playout(data, source)
    game = playout.game
    no_start = {index for index, card in enumerate(game.ruleset.planets) if PlanetRules.of(card.abilities).no_survey_start}
    for state in play(playout).states:
        steps = sorted(act.target for act in state.legal if act.kind == A.SURVEY_STEP)
        if (state.survey_rules & (COUNTER | START) or state.survey_skips != NO_SKIP_LIMIT
                or no_start.intersection(state.planets)):
            continue  # the rules language's survey words and P5's Planets: tests/test_survey_language.py, test_ideas.py
        if state.stage != SURVEYING or not state.survey_rules & (REPEAT | SKIP):
            assert not steps
            continue
        seat = game.current_player(state)
        card = game.ruleset.crew[state.crew[state.chosen[-1]]]
        limit = min(max(0, card.survey_count + state.survey_bonus), state.survey_placed + state.hands[seat])
        rooms = [game.ruleset.planets[c].length - len(track) for track, c in zip(state.tracks, state.planets)]
        with_room = [p for p, room in enumerate(rooms) if room > 0]
        last = state.survey_last
        if state.survey_placed >= limit:
            expected: list[int] = []
        elif last < 0:
            expected = with_room
        elif state.survey_rules & SKIP:
            expected = [p for p in with_room if p != last or state.survey_rules & REPEAT]
        else:
            if state.survey_direction:
                directions = [state.survey_direction]
            else:
                directions = [A.CLOCKWISE, A.COUNTER_CLOCKWISE] if state.survey_rules & DIRECTION else [A.CLOCKWISE]
            nexts = {_next_with_room(rooms, last, d) for d in directions} - {None}
            expected = sorted(({last} if rooms[last] > 0 else set()) | nexts)
        assert steps == sorted(expected), f"steps {steps}, expected {sorted(expected)} (placed {state.survey_placed}, limit {limit})"
        stop = any(act.kind == A.SURVEY_STOP for act in state.legal)
        assert stop == (state.survey_placed >= game.ruleset.survey_minimum or not steps), state.legal


def _next_with_room(rooms: list[int], p: int, direction: int) -> int | None:
    """The next Planet after ``p`` in ``direction`` that has room, if any but ``p`` itself."""
    following = [(p + k * direction) % len(rooms) for k in range(1, len(rooms))]
    return next((q for q in following if rooms[q] > 0), None)


@by_source
@given(data=st.data())
def test_r6_choosing_a_crew_takes_its_cubes_as_motivation_bonus(source: str, data: st.DataObject) -> None:
    """R6: the chosen crew's free cubes go to the stock and its player cubes leave the game,
    for free_cube_vp and player_cube_vp each, whoever owned them."""
    playout = draw_playout(data, source)
    game = playout.game
    rules = game.ruleset
    for before, act, after in play(playout).steps():
        if act.kind != A.PICK_CREW:
            continue
        slot = act.target
        free, cubes = before.crew_free[slot], before.crew_cubes[slot]
        _state, events = game.apply(before, act)
        bonus = [dict(event.params) for event in events if event.key == "motivation_bonus"]
        vp = free * rules.free_cube_vp + len(cubes) * rules.player_cube_vp
        expected = {
            "player": game.current_player(before),
            "crew": rules.crew[before.crew[slot]].id,
            "free_cubes": free,
            "player_cubes": len(cubes),
            "vp": vp,
        }
        assert bonus == ([expected] if free or cubes else [])
        # The crew's skill may put cubes back on it once the bonus is scored (S16's
        # place_cube_on_crew on this_crew, or a free cube on every crew): only those stay.
        crew_id = expected["crew"]
        on_it = [event for event in events if event.params.get("crew") == crew_id]
        free_back = sum(1 for event in on_it if event.key == "free_cube_to_crew")
        free_back -= sum(event.params["free_cubes"] for event in on_it if event.key == "free_cubes_collected")
        cubes_back = sorted(event.params["owner"] for event in on_it if event.key == "cube_to_crew")
        assert after.crew_free[slot] == free_back and sorted(after.crew_cubes[slot]) == cubes_back
        # A skill performed at the pick may also take a cube out of play (return_cube to the stock).
        returned = [event.params["owner"] for event in events if event.key == "cube_returned" and event.params["to"] == "stock"]
        for owner in range(before.players):
            assert after.removed[owner] == before.removed[owner] + cubes.count(owner) + returned.count(owner)


@by_source
@given(data=st.data())
def test_r11_free_cubes_go_to_the_unchosen_crews_in_crew_area_order(source: str, data: st.DataObject) -> None:
    """R11, R12: at the end of a round that does not end the game, each crew nobody chose gets
    its free cubes from the stock (``round_end.unpicked_crews``: a number, or R9's one while it
    holds none), in crew-area order, up to the cap and while the stock lasts; the start player
    changes only when named (R12) or set by set_start_player, to the last seat so given."""
    playout = draw_playout(data, source)
    game = playout.game
    cap = game.ruleset.max_free_cubes_per_crew
    amount = game.ruleset.unpicked_crews.free_cubes
    assert type(amount) is int or amount_data(amount) == R9_FREE_CUBES  # what ruleset_documents draws
    for before, act, after in play(playout).steps():
        _state, events = game.apply(before, act)
        given = [event.params["start_player"] for event in events if event.key in ("start_player_named", "start_player_set")]
        assert after.start_player == (given[-1] if given else before.start_player)
        if "start_player_named" in {event.key for event in events}:
            assert act.kind == A.NAME_START_PLAYER
        keys = [event.key for event in events]
        if "round_ended" not in keys or after.stage == OVER:
            continue
        if any(effect.when == "round_end" for slot in before.chosen for effect in game.ruleset.crew[after.crew[slot]].skill):
            continue  # a round-end effect (R12) resolved in the same step moves cubes after R11's: after is not R11's state
        at_round_end = events[keys.index("round_ended") :]  # not those of skills before it
        given_to = [event.params["crew"] for event in at_round_end if event.key == "free_cube_to_crew"]
        area = [game.ruleset.crew[card].id for card in after.crew]
        added = Counter(given_to)
        stock = after.stock + len(given_to)
        expected = []
        for slot, crew_id in enumerate(area):
            if slot in before.chosen:
                continue
            held = after.crew_free[slot] - added[crew_id]
            wanted = amount if type(amount) is int else 1 - held
            count = max(0, min(wanted, stock, cap - held))
            expected += [crew_id] * count
            stock -= count
        assert given_to == expected, f"free cubes went to {given_to}, expected {expected}"


# -- termination and the end of the game (R10) -----------------------------------------------


@by_source
@given(data=st.data())
def test_a_progressing_game_ends_within_the_derived_bound(source: str, data: st.DataObject) -> None:
    """R10: once every round places a cube, the game ends before the ring's squares run out."""
    playout = draw_playout(data, source)
    trajectory = play(playout)  # fails as soon as a round passes the bound
    final = trajectory.final
    assert final.stage == OVER
    assert final.round <= round_bound(playout.game, trajectory.states[0])


@by_source
@given(data=st.data())
def test_the_game_ends_exactly_when_an_end_condition_holds_at_round_end(source: str, data: st.DataObject) -> None:
    """R10: checked only at the end of a round; it ends then if a hand is empty, enough Planets
    are full, or the round is the last one (``max_rounds``, docs/rules.md "Round limit")."""
    playout = draw_playout(data, source)
    game = playout.game
    trajectory = play(playout)
    # A round-end effect that moves cubes (a rules-language return_cube or place_cube) resolves
    # after the check, so the board of the next round may hold a condition the check did not see.
    settled = not any(
        effect.when == "round_end" and effect.moves_cubes for card in game.ruleset.crew for effect in _every_effect(card.skill)
    )
    for state in trajectory.states:
        if not settled and state.stage != OVER:
            continue
        if state.stage == ROUND_END_STAGE or (state.stage == PICK_CREW and state.turn == 0 and state.round > 1):
            ended = state.round - (state.stage == PICK_CREW)  # the round whose end was checked
            triggers = _end_triggers(game, state, ended)
            assert triggers == (), f"round {ended} went on despite {triggers}"
        elif state.stage == OVER:
            triggers = _end_triggers(game, state, state.round)
            assert state.turn == state.players, "the game ended mid-round"
            assert state.triggers, "the game ended with no trigger"
            assert list(state.triggers) == [name for name in game.ruleset.trigger_names if name in state.triggers]
            assert tuple(t for t in state.triggers if t in _ORACLE_NAMES) == triggers, (state.triggers, triggers)
    assert sum(state.stage == OVER for state in trajectory.states) == 1


def _every_effect(effects):
    """Every effect of a skill, nested ones included (options, branches, bodies)."""
    for effect in effects:
        yield effect
        for nested in (*effect.branches, *effect.bodies):
            yield from _every_effect(nested)


#: The triggers ``_end_triggers`` reads for itself: draft 7's two (R10) and the round limit.
_ORACLE_NAMES = (HAND_EMPTY, PLANETS_FULL, ROUND_LIMIT)


def _end_triggers(game: Game, state: State, ended: int) -> tuple[str, ...]:
    """Draft 7's end conditions (R10) of the ruleset's ``end`` that hold on the board of
    ``state`` at the end of round ``ended``, read here without the rules language, then the
    round limit, in the engine's order. The ruleset's other conditions (tests/strategies.py,
    ``end_data``) are held to the kernel's by the lockstep tests and to worked examples by
    tests/test_end.py; R11 moves the stock after the check, so this state cannot show them."""
    full = sum(len(track) == game.ruleset.planets[card].length for track, card in zip(state.tracks, state.planets))
    holds = {HAND_EMPTY: 0 in state.hands, PLANETS_FULL: full >= game.ruleset.setups[state.players].full_planets_to_end}
    triggers = [t.id for t in game.ruleset.end if t in DRAFT7_END and holds[t.id]]
    if ended >= game.ruleset.max_rounds:
        triggers.append(ROUND_LIMIT)
    return tuple(triggers)


@by_source
@given(data=st.data())
def test_a_game_where_nobody_places_a_cube_ends_by_the_round_limit(source: str, data: st.DataObject) -> None:
    """R7 lets every survey place nothing and R10 ends a game only through cubes; the round
    limit (docs/rules.md) still ends it, at the end of round max_rounds at the latest."""
    playout = draw_playout(data, source)
    game = playout.game
    state = playout.new_state()
    rng = playout.policy()
    while not game.is_over(state):
        assert state.round <= game.ruleset.max_rounds
        passing = [act for act in state.legal if places_nothing(state, act)]
        state = game.step(state, (passing or state.legal)[rng.randrange(len(passing or state.legal))])
    assert state.round <= game.ruleset.max_rounds
    assert (ROUND_LIMIT in state.triggers) == (state.round == game.ruleset.max_rounds)
    if game.ruleset.survey_minimum == 0 and not any(card.skill for card in game.ruleset.crew):
        assert state.triggers == (ROUND_LIMIT,) and all(track == () for track in state.tracks)


# -- determinism ----------------------------------------------------------------------------


@by_source
@given(data=st.data())
def test_the_same_seed_and_actions_give_equal_states(source: str, data: st.DataObject) -> None:
    """The deal depends only on the seed, and every state only on the deal and the actions."""
    playout = draw_playout(data, source)
    game = playout.game
    trajectory = play(playout)
    state = playout.new_state()
    assert state == trajectory.states[0]
    assert game.deal(playout.players, playout.deal_seed) == game.deal(playout.players, playout.deal_seed)
    for act, expected in zip(trajectory.actions, trajectory.states[1:]):
        state, _events = game.apply(state, act)
        assert state == expected
    assert play(playout) == trajectory


# -- scores (R15-R18) -----------------------------------------------------------------------


@by_source
@given(data=st.data())
def test_scores_add_up_at_every_step(source: str, data: st.DataObject) -> None:
    """R16-R18: total = majority + major-planet bonus + VP from play + the lines of end_scoring;
    there is always a winner."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        sheet = game.score(state)  # provisional mid-game, final at the end
        assert sheet.final == game.is_over(state)
        assert len(sheet.seats) == state.players
        for seat in sheet.seats:
            assert seat.total == seat.majority_vp + seat.bonus_vp + seat.play_vp + seat.lines_vp, seat
            assert seat.play_vp == state.vp[seat.seat]
            if game.ruleset.bonus.formula == LARGEST_GROUPS:
                assert seat.bonus_vp == seat.bonus_count * len(seat.bonus_colours), seat
            assert seat.majority_vp == sum(
                standing.vp for planet in sheet.planets for standing in planet.standings if standing.owner == seat.seat
            )
        for planet, track in zip(sheet.planets, state.tracks):
            unranked = 0 if game.ruleset.majority.free_cubes_take_a_row else track.count(FREE_CUBE_OWNER)
            assert sum(standing.cubes for standing in planet.standings) == len(track) - unranked
            cubes = [standing.cubes for standing in planet.standings]
            if game.ruleset.majority.ties == "shared":  # competition ranking: 1, 1, 3
                assert [standing.rank for standing in planet.standings] == [1 + sum(c > n for c in cubes) for n in cubes]
            else:
                assert [standing.rank for standing in planet.standings] == list(range(1, len(planet.standings) + 1))
        for seat, (majority, bonus) in enumerate(_r15_r17_oracle(game, state)):
            assert (sheet.seats[seat].majority_vp, sheet.seats[seat].bonus_vp) == (majority, bonus), seat
        assert sheet.winners, "no winner"
        best = max((seat.total, seat.hand) for seat in sheet.seats)
        assert sheet.winners == tuple(s.seat for s in sheet.seats if (s.total, s.hand) == best)


def _r15_r17_oracle(game: Game, state: State) -> list[tuple[int, int]]:
    """(majority VP, major-planet bonus) per seat, computed from R15, R16 and R17 as written,
    with the ruleset's majority and bonus sections (docs/rules.md, "The majority as data", "The
    major-planet bonus as data") read anew."""
    majority = [0] * state.players
    colours: list[Counter[str]] = [Counter() for _ in range(state.players)]
    rule = game.ruleset.majority
    for track, special, card_index in zip(state.tracks, state.specials, state.planets):
        card = game.ruleset.planets[card_index]
        owners = set(track) - (set() if rule.free_cubes_take_a_row else {FREE_CUBE_OWNER})
        first = {owner: track.index(owner) + 1 for owner in owners}
        k = len(track)
        for owner in owners:
            more = sum(track.count(other) > track.count(owner) for other in owners)
            tied = [other for other in owners if other != owner and track.count(other) == track.count(owner)]
            if rule.ties == "first_cube_further_back":
                more += sum(first[other] > first[owner] for other in tied)
            elif rule.ties == "first_cube_further_forward":
                more += sum(first[other] < first[owner] for other in tied)
            rank = more + 1
            row = k - (rank - 1) * rule.row_step  # V[k - r + 1] with a step of 1
            if owner != FREE_CUBE_OWNER and row >= 1:
                value = card.track[row - 1]  # squares counted from 1
                percent = rule.rank_percent[min(rank, len(rule.rank_percent)) - 1]
                majority[owner] += rule.accident_vp if value == 0 else value * percent // 100
        squares = game.ruleset.bonus.squares
        for owner in (track if squares != "special" else ()) + (special if squares != "normal" else ()):
            if owner != FREE_CUBE_OWNER:
                colours[owner][card.colour] += 1
    return [(majority[seat], _bonus_oracle(game.ruleset.bonus, list(colours[seat].values()))) for seat in range(state.players)]


def _bonus_oracle(bonus: Bonus, counts: list[int]) -> int:
    """R17 and the other formulas as written: sets made one at a time, each from the colours
    with the most cubes left (the greedy that makes the most sets), not by the engines' sum."""
    most = max(counts, default=0)
    if most == 0:
        return 0
    if bonus.formula == "distinct_colour_sets":
        left, sets = sorted(counts, reverse=True), 0
        while len([count for count in left if count > 0]) >= bonus.set_size:
            left = sorted([count - 1 for count in left[: bonus.set_size]] + left[bonus.set_size :], reverse=True)
            sets += 1
        return sets * bonus.set_vp
    if bonus.formula == "vp_by_count":
        return bonus.vp_by_count[min(most, len(bonus.vp_by_count)) - 1]
    return most * counts.count(most)


# -- the generated rulesets themselves ------------------------------------------------------


@pytest.mark.slow
@given(documents=ruleset_documents())
def test_generated_rulesets_load_with_their_knobs(documents: dict) -> None:
    """The strategy draws only valid rulesets, and the loader keeps every knob it drew."""
    ruleset = load_documents(documents)
    rules = documents["rules.yaml"]
    assert [card.track for card in ruleset.planets] == [
        tuple(card["track"]) for card in documents["planets.yaml"]["planets"]
    ]
    assert [card.special_capacity for card in ruleset.planets] == [
        card.get("special_capacity", 1) for card in documents["planets.yaml"]["planets"]
    ]
    assert ruleset.player_counts == tuple(sorted(entry["players"] for entry in rules["player_counts"]))
    assert ruleset.cubes_per_player == rules["cubes_per_player"]
    assert ruleset.free_cubes == rules["free_cubes"]
    assert ruleset.survey_minimum == rules.get("survey", {}).get("minimum", 0)
    assert ruleset.max_rounds == rules.get("max_rounds", DEFAULT_MAX_ROUNDS)
    older = {"free_cubes": 1, "cap": rules.get("max_free_cubes_per_crew")}  # R11's older knob
    written = {"at_cap": "stays", **rules.get("round_end", {}).get("unpicked_crews", older)}  # R11's at_cap: stays unless written
    assert ruleset_to_data(ruleset)["rules"]["round_end"]["unpicked_crews"] == written
    zeros = [0] * max(ruleset.player_counts)
    assert list(ruleset.turn_order_vp) == rules.get("setup", {}).get("turn_order_vp", zeros)
    drawn = rules.get("majority", {})
    assert ruleset.majority.to_data() == {**R15_R16.to_data(), **drawn}
    assert ruleset.bonus.to_data() == {**R17.to_data(), **rules.get("bonus", {})}
    assert [len(card.skill) for card in ruleset.crew] == [len(card["skill"]) for card in documents["crew.yaml"]["crew"]]


@pytest.mark.slow
@pytest.mark.parametrize("effect_name", sorted(EFFECT_TYPES))
@examples_per_type
@given(data=st.data())
def test_every_effect_type_is_generated_and_loads(effect_name: str, data: st.DataObject) -> None:
    """The skill strategy covers every effect type of the registry, built from its declarations."""
    colours = ["k0", "k1"]
    item = data.draw(effect_of_type(effect_name, colours), label="effect")
    documents = data.draw(ruleset_documents(), label="documents")
    documents["rules.yaml"]["colours"] = [{"id": c, "name": {"ja": c, "en": c}} for c in colours]
    documents["rules.yaml"].pop("bonus", None)  # a set size drawn for the drawn colours may exceed these two
    for card in documents["planets.yaml"]["planets"]:
        card["colour"] = "k0"
    for card in documents["crew.yaml"]["crew"]:
        card["skill"] = []
    documents["crew.yaml"]["crew"][0]["skill"] = one_survey_start([item])  # choose_one's options may hold two (R7)
    ruleset = load_documents(documents)
    assert ruleset.crew[0].skill[0].name == effect_name


CHOICES = [
    (effect_name, param.name, value)
    for effect_name, cls in sorted(EFFECT_TYPES.items())
    for param in cls.params
    if param.kind == "choice"
    for value in param.choices
]


@pytest.mark.slow
@pytest.mark.parametrize(("effect_name", "param", "value"), CHOICES)
@examples_per_type
@given(data=st.data())
def test_every_choice_of_every_effect_is_generated_and_loads(
    effect_name: str, param: str, value: str, data: st.DataObject
) -> None:
    """Each value of each choice parameter (place_on_special's any, colour, surveyed) is drawn
    with a timing it allows, and loads."""
    item = data.draw(effect_of_type(effect_name, ["k0"], fixed={param: value}), label="effect")
    documents = data.draw(ruleset_documents(), label="documents")
    documents["crew.yaml"]["crew"][0]["skill"] = [_recoloured(item)]
    ruleset = load_documents(documents)
    assert getattr(ruleset.crew[0].skill[0], param) == value


def _recoloured(item: dict) -> dict:
    """``item`` with colour k0, which every generated ruleset has."""
    return {key: ("k0" if key == "colour" else value) for key, value in item.items()}


# -- JSON forms and game records ------------------------------------------------------------


def _through_text(data: object) -> object:
    """``data`` after a trip through JSON text: only plain JSON values survive unchanged."""
    return json.loads(json.dumps(data, ensure_ascii=False))


@pytest.mark.slow
@by_source
@fewer_examples
@given(data=st.data())
def test_the_state_json_round_trips_at_every_step(source: str, data: st.DataObject) -> None:
    """state_from_json(state_to_json(state)) is the same state, legal actions included, and
    the document fits the state schema narrowed to its ruleset (the one a server checks with),
    which therefore never refuses a state the rules can reach."""
    playout = draw_playout(data, source)
    game = playout.game
    for state in play(playout).states:
        document = jsonio.state_to_json(game, state)
        assert _through_text(document) == document
        assert jsonio.state_from_json(game, _through_text(document)) == state
        assert jsonio.state_schema_problems(game, document) == []


@pytest.mark.slow
@by_source
@fewer_examples
@given(data=st.data())
def test_actions_events_and_score_sheets_round_trip_through_json(source: str, data: st.DataObject) -> None:
    """Every legal action, every event and every score sheet of a game reads back equal from JSON."""
    playout = draw_playout(data, source)
    game = playout.game
    for before, act, after in play(playout).steps():
        for legal in game.legal_actions(before):
            assert jsonio.action_from_json(game, before, _through_text(jsonio.action_to_json(game, before, legal))) == legal
        _state, events = game.apply(before, act)
        for event in events:
            assert jsonio.event_from_json(_through_text(jsonio.event_to_json(event))) == event
        sheet = game.score(after)
        assert jsonio.score_sheet_from_json(_through_text(jsonio.score_sheet_to_json(sheet))) == sheet


@by_source
@fewer_examples
@given(data=st.data())
def test_a_game_record_replays_to_the_same_states(source: str, data: st.DataObject) -> None:
    """A record (explicit setup + action JSON), through JSON text, replays every state of the
    game; no game is longer than Game.most_moves, the bound a record is refused past."""
    playout = draw_playout(data, source)
    game = playout.game
    trajectory = play(playout)
    assert len(trajectory.actions) <= game.most_moves
    setup = game.deal(playout.players, playout.deal_seed)
    record = records.record_game(game, setup, trajectory.actions, seed=playout.deal_seed)
    document = records.record_to_json(record)
    assert _through_text(document) == document
    again = records.record_from_json(_through_text(document), game)
    assert again == record
    assert records.replay(game, again) == trajectory.states
    assert records.final_state(game, again) == trajectory.final
