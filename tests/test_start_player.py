"""How the start player changes at a round's end, as data: ``set_start_player`` (docs/skills.md)
and the seat set ``{left_of: <seats>}`` (docs/rules.md, "Start player").

R12 names the next start player by a decision of Armstrong's chooser; ``set_start_player``
changes it with no decision: the first seat of its set in turn order from the current start
player (a start player among them stays), none when the set is empty. It resolves at a
round's end only (during a round the seat to act is the start player's plus the turns taken,
R4), so rules.yaml's ``round_end.effects`` (before the end check) and a skill's round-end
effects use it, and R12's naming, which comes after R11 (so after ``round_end.effects``),
overrides a rule-based change. Each worked example plays on the Python engine and on the
native kernel from the same position, step by step, and both must reach the same state.
"""

from __future__ import annotations

import pytest
from builders import armstrong, crew, deal_all, effect, game, of, planet, round_end, ruleset
from differential import canonical

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.text.messages import render_event, round_end_effects_sentence
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

#: "The start player passes to the left each round": the seat left of the start player, where
#: nobody is "you" (a round's end).
PASS_LEFT = effect("set_start_player", seat={"left_of": "start_player"})
#: "The player with the fewest VP starts the next round" (a tie: the first from the start player).
FEWEST = effect("set_start_player", seat={"fewest_vp": "everyone"})


def on_both(g: Game, state: State, act: Action) -> tuple[State, tuple[Event, ...]]:
    """``act`` on the Python engine and on the kernel from ``state``: the same state after."""
    after, events = g.apply(state, act)
    kernel = native.to_kernel(g, state)
    kernel.step(act)
    assert canonical(native.from_kernel(kernel)) == canonical(after)
    return after, events


def play_round(g: Game, state: State, crews: tuple[str, ...], named: int | None = None) -> tuple[State, list[Event]]:
    """Each seat in turn picks the next of ``crews`` and surveys nothing; Armstrong's chooser
    names ``named`` (R12) when asked. On both engines; the round's events."""
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    events: list[Event] = []
    for crew_id in crews:
        slot = next(slot for slot, card in enumerate(state.crew) if g.ruleset.crew[card].id == crew_id)
        for act in (action(A.PICK_CREW, slot), action(A.SURVEY, -1, 0)):
            state, more = on_both(g, state, act)
            events += more
    while named is not None and state.legal and state.legal[0].kind == A.NAME_START_PLAYER:
        state, more = on_both(g, state, action(A.NAME_START_PLAYER, named))
        events += more
    return state, events


def new_state(g: Game, start_player: int = 0, vp: tuple[int, ...] | None = None) -> State:
    state = g.new_state(setup=deal_all(g, start_player=start_player))
    if vp is not None:
        state = state._replace(vp=vp)
        state = state._replace(legal=g.derive_legal(state))
    return state


# -- worked examples on both engines -------------------------------------------------------------


def test_the_start_player_passes_left_every_round():
    """round_end.effects [set_start_player {left_of: start_player}]: rounds 1, 2, 3 and 4 start
    with seats 0, 1, 2 and 0 again (3 players), each change a start_player_set event."""
    g = game(round_end=round_end(PASS_LEFT))
    state = new_state(g)
    starts = [(state.round, state.start_player)]
    for _ in range(3):
        state, events = play_round(g, state, ("w", "y", "z"))
        starts.append((state.round, state.start_player))
        assert [e.params for e in events if e.key == "start_player_set"] == [{"crew": "", "start_player": state.start_player}]
        assert of(events, "round_started") == [{"round": state.round, "start_player": state.start_player}]
    assert starts == [(1, 0), (2, 1), (3, 2), (4, 0)]


def test_armstrongs_naming_overrides_the_rule_r12():
    """R12: Armstrong's chooser names after R11, so after round_end.effects: seat 0 picks
    Armstrong and names seat 0; the rule had passed the start player to seat 1 first."""
    g = game(round_end=round_end(PASS_LEFT))
    state, events = play_round(g, new_state(g), ("armstrong", "w", "y"), named=0)
    assert [e.key for e in events if e.key.startswith("start_player")] == ["start_player_set", "start_player_named"]
    assert (state.round, state.start_player) == (2, 0)
    # Unpicked, Armstrong names nobody: the rule holds in round 2.
    state, _ = play_round(g, state, ("w", "y", "z"))
    assert (state.round, state.start_player) == (3, 1)


@pytest.mark.parametrize(
    ("start", "vp", "next_start"),
    [
        ((0), (2, 1, 3), 1),  # one seat has the fewest
        ((0), (1, 3, 1), 0),  # a tie holding the start player: it stays
        ((2), (1, 1, 3), 0),  # a tie without it: the first in turn order from seat 2 (2, 0, 1)
        ((1), (4, 2, 2), 1),
    ],
)
def test_of_several_seats_the_first_in_turn_order_from_the_start_player(start, vp, next_start):
    g = game(round_end=round_end(FEWEST))
    state, _ = play_round(g, new_state(g, start, vp), ("w", "y", "z"))
    assert state.start_player == next_start


def test_an_empty_set_changes_nothing_and_a_skill_s_is_skipped_r9():
    """Nobody holds more than 50 VP: round_end.effects' set is empty (no event), and w's
    round-end skill is skipped with effect_skipped (R9)."""
    nobody = {"where": {"more_than": [{"vp": "this_seat"}, 50]}}
    skill = [effect("set_start_player", seat=nobody)]
    crews = [armstrong(), crew("w", skill=skill), crew("x"), crew("y"), crew("z")]
    g = game(crew=crews, round_end=round_end(effect("set_start_player", seat=nobody)))
    state, events = play_round(g, new_state(g, 1), ("w", "y", "z"))
    assert (state.round, state.start_player) == (2, 1)
    assert not of(events, "start_player_set")
    assert of(events, "effect_skipped") == [{"player": 1, "crew": "w", "effect": "set_start_player", "remaining": 1}]


def test_a_skill_s_round_end_effects_resolve_in_pick_order_with_armstrong_s_naming():
    """w's skill "you start the next round" (round_end), beside Armstrong's naming (R12): the
    crews' round-end effects resolve in pick order, so the later one holds."""
    crews = [armstrong(), crew("w", skill=[effect("set_start_player", seat="me")]), crew("x"), crew("y"), crew("z")]
    g = game(crew=crews)
    state, events = play_round(g, new_state(g), ("w", "armstrong", "y"), named=2)
    assert [e.key for e in events if e.key.startswith("start_player")] == ["start_player_set", "start_player_named"]
    assert state.start_player == 2
    state, events = play_round(g, state, ("armstrong", "y", "w"), named=2)  # seats 2, 0, 1 pick
    assert [e.params for e in events if e.key.startswith("start_player")] == [
        {"player": 2, "start_player": 2},
        {"crew": "w", "start_player": 1},
    ]
    assert state.start_player == 1


def test_at_the_last_round_the_rule_runs_before_the_end_check():
    """round_end.effects run at the last round's end too (before R10's check): the final state
    shows the rule's start player; R12's naming is not asked then."""
    g = game(max_rounds=1, round_end=round_end(PASS_LEFT))
    state, events = play_round(g, new_state(g), ("armstrong", "w", "y"), named=0)
    assert g.is_over(state) and state.start_player == 1
    assert not of(events, "start_player_named")


def test_a_planet_s_round_end_trigger_and_a_held_crew_s_trigger_may_set_it():
    """A Planet's round_end trigger (nobody "you") and a held crew's round_end trigger ("you":
    its holder) run before round_end.effects: the held crew's holder (seat 1) is set last."""
    ability = {"on": "round_end", "do": [PASS_LEFT]}
    planets = [planet("a", "red", [1, 2, 3, 4], abilities=[ability]), *(planet(p, "blue", [1, 2, 3, 4]) for p in "bcde")]
    trigger = {"on": "round_end", "do": [effect("set_start_player", seat="me")]}
    crews = [armstrong(), crew("w"), crew("x", triggers=[trigger]), crew("y"), crew("z")]
    g = game(planets=planets, crew=crews)
    state, events = play_round(g, new_state(g), ("w", "x", "y"))
    assert [e.params["start_player"] for e in events if e.key == "start_player_set"] == [1, 1]
    assert state.start_player == 1
    state, events = play_round(g, state, ("w", "y", "z"))  # x unheld: the Planet's rule alone
    assert state.start_player == 2


def test_the_start_player_s_change_leaves_the_bounds_as_they_were():
    """No VP, no cube, no decision: the bounds the kernel receives are those without it."""
    assert game(round_end=round_end(PASS_LEFT)).bounds == game(round_end=round_end()).bounds


# -- the loader: where it may stand --------------------------------------------------------------


def _problems(**overrides) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as caught:
        ruleset(**overrides)
    return [(p.path, p.message + (f" (did you mean {p.suggestion!r}?)" if p.suggestion else "")) for p in caught.value.problems]


def _with_skill(*skill) -> list[tuple[str, str]]:
    return _problems(crew=[armstrong(), crew("w", skill=list(skill)), crew("x"), crew("y"), crew("z")])


def test_a_skill_may_not_set_it_during_a_turn():
    [(path, message)] = _with_skill(effect("set_start_player", seat="me", when="on_choose"))
    assert path == "crew.w.skill[0].when"
    [(path, message)] = _with_skill(effect("if", condition={"at_least": ["round", 2]}, then=[effect("set_start_player", seat="me")]))
    assert path == "crew.w.skill[0].then[0].effect" and "resolves at round_end" in message
    start = effect("survey_start", before_walk=[effect("set_start_player", seat="me")])
    [(path, message)] = _with_skill(start)
    assert path == "crew.w.skill[0].before_walk[0].effect" and "round_end only" in message


@pytest.mark.parametrize("event", ["cube_placed", "becomes_full", "game_end"])
def test_a_trigger_off_a_round_s_end_may_not_set_it(event):
    ability = {"on": event, "do": [effect("for_each", seat="everyone", do=[effect("set_start_player", seat="this_seat")])]}
    planets = [planet("a", "red", [1, 2, 3, 4], abilities=[ability]), *(planet(p, "blue", [1, 2, 3, 4]) for p in "bcde")]
    [(path, message)] = _problems(planets=planets)
    assert path == "planets.a.abilities[0].do[0].do[0].effect"
    assert message.startswith(f"'set_start_player' resolves at a round's end only, so it cannot stand in a trigger's do set off by {event}")


def test_a_crew_trigger_on_another_pick_may_not_set_it():
    trigger = {"on": "another_pick", "do": [effect("set_start_player", seat="me")]}
    [(path, message)] = _problems(crew=[armstrong(), crew("w", triggers=[trigger]), crew("x"), crew("y"), crew("z")])
    assert path == "crew.w.triggers[0].do[0].effect" and "another_pick" in message


def test_a_setup_step_may_not_set_it():
    [(path, message)] = _problems(setup={"each_player": [effect("set_start_player", seat="me")]})
    assert path == "setup.each_player[0].effect" and "resolves at round_end only" in message


def test_nobody_is_you_misspelt_and_missing_seats_are_located():
    [(path, message)] = _problems(round_end=round_end(effect("set_start_player", seat={"left_of": "me"})))
    assert path == "round_end.effects[0].seat" and 'nobody is "you"' in message
    [(path, message)] = _problems(round_end=round_end(effect("set_start_player", seat={"left_off": "start_player"})))
    assert path == "round_end.effects[0].seat.left_off" and "did you mean 'left_of'" in message
    problems = dict(_problems(round_end=round_end(effect("set_start_player"))))
    assert problems["round_end.effects[0]"] == "missing required key 'seat'"
    [(path, message)] = _problems(round_end=round_end(effect("set_start_playr", seat="start_player")))
    assert "did you mean 'set_start_player'" in message


# -- read back: the rules text, the printed sheet and the events ---------------------------------


@pytest.mark.parametrize(
    ("lang", "said", "event"),
    [
        (
            "en",
            "At the end of every round (the last one too), before the end check: The start player passes to the left. "
            "When the player who picked armstrong names the next start player, that naming wins.",
            "Player 2 becomes the start player.",
        ),
        (
            "ja",
            "各ラウンドの終わりに（最後のラウンドも）、終了判定の前に：スタートプレイヤーが左隣のプレイヤーに移る。"
            "armstrongを選んだプレイヤーが次のスタートプレイヤーを指名したときは、その指名が優先される。",
            "プレイヤー2がスタートプレイヤーになる。",
        ),
    ],
)
def test_stargazer_rules_the_sheet_and_the_event_read_it_back(lang, said, event):
    rules = ruleset(round_end=round_end(PASS_LEFT))
    assert round_end_effects_sentence(rules, lang) == said
    assert ("body", said) in sheet_items(rules, lang)
    assert render_event(Event("start_player_set", {"crew": "", "start_player": 1}), rules, lang) == event


def test_without_a_crew_that_names_the_start_player_no_naming_is_said():
    """The rule's sentence says R12's naming wins only where a crew names the start player."""
    crews = [crew("w"), crew("x"), crew("y"), crew("z")]
    rules = ruleset(crew=crews, round_end=round_end(PASS_LEFT))
    assert round_end_effects_sentence(rules, "en").endswith("The start player passes to the left.")


def test_the_fewest_vp_rule_reads_its_set():
    rules = ruleset(round_end=round_end(effect("set_start_player", seat={"left_of": {"fewest_vp": "everyone"}})))
    assert round_end_effects_sentence(rules, "en").endswith(
        "The start player passes to the player to the left of the players with the fewest VP "
        "(of several, the first in turn order from the current start player; of none, it stays). "
        "When the player who picked armstrong names the next start player, that naming wins."
    )
