"""Crew triggers (docs/skills.md, "Crew triggers"; docs/rules.md, "Crew triggers: when they
resolve and who "you" is"): a worked example per event, each step played on the Python engine
and on the native kernel alike; the loader's located errors; the text; the bounds. The lockstep
over generated crew triggers is in tests/test_kernel_language.py.
"""

from __future__ import annotations

import random
import re

import attrs
import pytest
import yaml

from differential import canonical, play_lockstep
from ruleset_edits import copy_ruleset, problems_of, replace
from stargazer_rules import Game, Setup, load_ruleset
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.checks import ruleset_warnings
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.text.messages import render_event, skill_sentences
from stargazer_rules.tuning.paths import Place, locate
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

IDEAS = Game(load_ruleset("ideas"))
RING = ("lava-1", "ocean-1", "gas-1", "primordial-1", "dark", "diamond", "ocean-2")
#: The informant beside crews whose skills score nothing here: the contrarian (a direction and
#: skips), the steward (the free cubes on crews, none at setup), the underdog and the driller.
DEALT = ("informant", "contrarian", "steward", "underdog", "driller")
#: The informant's trigger, as the ideas ruleset writes it.
INFORMANT = "      - on: another_pick\n        do:\n          - effect: gain_vp\n            vp: 1\n"


def both(game: Game, state: State, act) -> tuple[State, tuple[Event, ...]]:
    """``act`` played on the Python engine and on the kernel from ``state``: the same state."""
    after, events = game.apply(state, act)
    kernel = native.to_kernel(game, state)
    kernel.step(act)
    assert canonical(native.from_kernel(kernel)) == canonical(after)
    return after, events


def pick(game: Game, state: State, crew_id: str) -> tuple[State, tuple[Event, ...]]:
    slot = next(slot for slot, card in enumerate(state.crew) if game.ruleset.crew[card].id == crew_id)
    return both(game, state, action(A.PICK_CREW, slot))


def start(game: Game = IDEAS, ring: tuple[str, ...] = RING) -> State:
    """Four players, seat 0 to pick first, the ring and crews above (Armstrong in slot 0): the
    board empty, past ideas R6's setup step."""
    state = game.new_state(setup=Setup(4, ring, DEALT, 0))
    state = state._replace(stage="pick_crew", pending=())
    return state._replace(legal=game.derive_legal(state))


def idle(state: State):
    """A legal action that places no cube: a survey of none, or stopping a cube-by-cube one
    before its first cube; else the first legal action."""
    return next((act for act in state.legal if act.kind == A.SURVEY_STOP or (act.kind == A.SURVEY and act.count == 0)), state.legal[0])


def with_trigger(tmp_path, trigger: str) -> Game:
    """The ideas ruleset with the informant's trigger replaced by ``trigger``."""
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "crew.yaml", INFORMANT, trigger)
    return Game(load_ruleset(folder))


def test_another_pick_the_informant_gains_a_vp_after_the_pickers_motivation_bonus():
    """Seat 0 holds the informant (R5); seat 1 picks the contrarian, which holds 1 free cube:
    seat 1 takes its motivation bonus (R6), then the informant gives seat 0 1 VP, then the
    contrarian's skill; the informant's own pick sets nothing off (not another player)."""
    state = start()
    state = state._replace(crew_free=(0, 0, 1, 0, 0, 0), stock=state.stock - 1)
    state = state._replace(legal=IDEAS.derive_legal(state))
    state, events = pick(IDEAS, state, "informant")
    assert "crew_triggered" not in [e.key for e in events] and state.vp == (0, 0, 0, 0)
    state, _ = both(IDEAS, state, action(A.SURVEY, -1, 0))  # seat 0 places nothing
    before = state.vp
    state, events = pick(IDEAS, state, "contrarian")
    assert state.vp == (before[0] + 1, before[1] + IDEAS.ruleset.free_cube_vp, 0, 0)
    keys = [e.key for e in events]
    assert keys[keys.index("motivation_bonus") + 1 : keys.index("motivation_bonus") + 3] == ["crew_triggered", "vp_gained"]
    triggered = next(e for e in events if e.key == "crew_triggered")
    assert triggered.params == {"player": 0, "crew": "informant", "event": "another_pick"}
    # Seats 2 and 3 pick too: 3 VP in all, players - 1 a round.
    for crew in ("steward", "underdog"):
        while state.stage != "pick_crew":
            state, _ = both(IDEAS, state, next(act for act in state.legal if act.kind != A.SURVEY or act.count == 0))
        state, _ = pick(IDEAS, state, crew)
    assert state.vp[0] == before[0] + 3


def test_cube_placed_on_any_planet_gives_the_holder_the_room_left_there(tmp_path):
    """The informant, rewritten: each time a cube lands on a Planet's normal square, its holder
    gains that Planet's room left (this_planet is the Planet it landed on). Seat 0 holds it and
    walks 2 cubes from ocean-1 (5 squares, empty): ocean-1 has 4 left, gas-1 (5 squares) 4."""
    game = with_trigger(tmp_path, "      - on: cube_placed\n        do:\n          - effect: gain_vp\n            vp: {room: this_planet}\n")
    state, _ = pick(game, start(game), "informant")
    lengths = [game.ruleset.planets[card].length for card in state.planets]
    after, events = both(game, state, action(A.SURVEY, 1, 2))
    assert after.tracks[1] == (0,) and after.tracks[2] == (0,)
    assert after.vp == ((lengths[1] - 1) + (lengths[2] - 1), 0, 0, 0)
    assert [e.params["event"] for e in events if e.key == "crew_triggered"] == ["cube_placed", "cube_placed"]
    # Another seat's cube sets it off too: the holder is "you", not the cube's owner.
    state, _ = pick(game, after, "steward")
    while state.stage != "survey":
        state, _ = both(game, state, state.legal[0])
    walk = next(act for act in state.legal if act.kind == A.SURVEY and act.count == 1)
    later, _ = both(game, state, walk)
    landed = walk.target  # a walk of one cube lands on its start Planet
    assert later.tracks[landed][-1] == 1
    assert later.vp[0] == after.vp[0] + lengths[landed] - len(later.tracks[landed]) and later.vp[1] == after.vp[1]


def test_cube_placed_on_the_special_square_only(tmp_path):
    """{cube_placed: {square: special}}: a survey's normal squares set nothing off."""
    game = with_trigger(tmp_path, "      - on: {cube_placed: {square: special}}\n        do:\n          - effect: gain_vp\n            vp: 2\n")
    state, _ = pick(game, start(game), "informant")
    after, events = both(game, state, action(A.SURVEY, 1, 2))
    assert after.vp == (0, 0, 0, 0) and "crew_triggered" not in [e.key for e in events]


def test_becomes_full_after_the_planets_own_trigger(tmp_path):
    """ocean-1 (P4: when it becomes full, each player on it gains 1 VP) holds 4 cubes of seat
    1; seat 0 holds the rewritten informant (2 VP when any Planet becomes full) and fills it:
    the Planet's trigger first (seats 0 and 1 gain 1), then the crew's (seat 0 gains 2)."""
    game = with_trigger(tmp_path, "      - on: becomes_full\n        do:\n          - effect: gain_vp\n            vp: 2\n")
    state = start(game)
    tracks = tuple((1, 1, 1, 1) if p == 1 else () for p in range(len(RING)))
    state = state._replace(tracks=tracks, hands=(12, 8, 12, 12))
    state = state._replace(legal=game.derive_legal(state))
    state, _ = pick(game, state, "informant")
    after, events = both(game, state, action(A.SURVEY, 1, 1))
    assert after.tracks[1] == (1, 1, 1, 1, 0) and after.vp == (3, 1, 0, 0)
    fired = [(e.key, e.params.get("event")) for e in events if e.key in ("ability_triggered", "crew_triggered")]
    assert fired == [("ability_triggered", "becomes_full"), ("crew_triggered", "becomes_full")]


def test_round_end_the_holder_gains_before_the_end_check(tmp_path):
    """The rewritten informant gives its holder 1 VP at every round's end, after the Planets'
    round_end triggers and before workers are cleared (R10, R11): seat 2 holds it this round."""
    game = with_trigger(tmp_path, "      - on: round_end\n        do:\n          - effect: gain_vp\n            vp: 1\n")
    state = start(game)
    for crew in ("contrarian", "steward", "informant", "underdog"):
        state, _ = pick(game, state, crew)
        while state.stage != "pick_crew" and state.round == 1:
            state, events = both(game, state, next(act for act in state.legal if act.kind != A.SURVEY or act.count == 0))
    assert state.round == 2 and state.vp[2] == 1
    ended = [e.key for e in events]
    assert ended.index("round_ended") < ended.index("crew_triggered") < ended.index("round_started")


def test_game_end_the_last_rounds_holder_gains_after_the_planets_and_before_the_winner(tmp_path):
    """The rewritten informant gives its holder 5 VP when the game ends: seat 2 picks it in the
    last round (the round limit, R10), whose workers are still on the crews when the game ends;
    it fires after primordial-3's game_end trigger (P6) and turns seat 0's lead into seat 2's win.
    At the last round's end, before the game ends, R7 gives the fewest (seats 1, 2 and 3, tied on
    0) 1 VP each."""
    game = with_trigger(tmp_path, "      - on: game_end\n        do:\n          - effect: gain_vp\n            vp: 5\n")
    ring = tuple("primordial-3" if planet == "primordial-1" else planet for planet in RING)
    state = start(game, ring)._replace(round=game.ruleset.max_rounds, vp=(3, 0, 0, 0))
    for crew in ("contrarian", "steward", "informant", "driller"):
        state, _ = pick(game, state, crew)
        while state.stage not in ("pick_crew", "over"):
            state, events = both(game, state, idle(state))
    assert state.stage == "over" and state.vp == (3, 1, 6, 1) and game.score(state).winners == (2,)
    fired = [(e.key, e.params.get("event")) for e in events if e.key in ("game_over", "ability_triggered", "crew_triggered")]
    assert fired == [("game_over", None), ("ability_triggered", "game_end"), ("crew_triggered", "game_end")]
    assert next(e for e in events if e.key == "crew_triggered").params == {"player": 2, "crew": "informant", "event": "game_end"}


def test_another_pick_narrowed_to_the_steward_fires_for_it_and_not_for_the_contrarian(tmp_path):
    """{another_pick: {crew: [steward]}}: seat 0 holds the informant; seat 1's pick of the
    contrarian sets nothing off, seat 2's pick of the steward gives seat 0 1 VP."""
    game = with_trigger(tmp_path, "      - on: {another_pick: {crew: [steward]}}\n        do:\n          - effect: gain_vp\n            vp: 1\n")
    assert game.ruleset.crew_card("informant").triggers[0].crew == ("steward",)
    state = start(game)
    seen = []
    for crew in ("informant", "contrarian", "steward"):
        state, events = pick(game, state, crew)
        seen.append((state.vp[0], [e.params["event"] for e in events if e.key == "crew_triggered"]))
        while state.stage != "pick_crew":
            state, _ = both(game, state, idle(state))
    assert seen == [(0, []), (0, []), (1, ["another_pick"])]


def test_the_ideas_ruleset_with_the_informant_plays_alike_on_both_engines():
    dealt = tuple(card.id for card in IDEAS.ruleset.crew if card.id in ("informant", "pirate", "steward", "pathfinder", "driller"))
    for seed in range(3):
        assert play_lockstep(IDEAS, Setup(4, RING, dealt, seed % 4), random.Random(seed)) > 0


# -- the loader --------------------------------------------------------------------------------


def _messages(folder) -> list[tuple[str, str | None]]:
    return [(f"{p.line}:{p.path}: {p.message}", p.suggestion) for p in problems_of(folder)]


def test_a_misspelt_key_and_event_are_refused_at_their_place_with_a_suggestion(tmp_path):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "crew.yaml", "    triggers:\n      - on: another_pick", "    trigers:\n      - on: another_pik")
    found = _messages(folder)
    assert [suggestion for _, suggestion in found] == ["triggers"], found
    assert re.match(r"\d+:crew\.informant\.trigers", found[0][0]), found
    folder = copy_ruleset(tmp_path, "ideas", "second")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: another_pik")
    (message, suggestion), = _messages(folder)
    assert suggestion == "another_pick" and "unknown event 'another_pik'; the events: another_pick, cube_placed, becomes_full, round_end, game_end" in message


def test_an_unknown_crew_in_another_picks_filter_is_refused_at_its_place_with_a_suggestion(tmp_path):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: {another_pick: {crew: [pirate, stewart]}}")
    (problem,) = problems_of(folder)
    line = next(number for number, text in enumerate((folder / "crew.yaml").read_text().splitlines(), 1) if "stewart" in text)
    crews = ", ".join(card.id for card in IDEAS.ruleset.crew)
    assert str(problem).endswith(
        f"crew.yaml:{line}:44: crew.informant.triggers[0].on.another_pick.crew[1]: "
        f"unknown crew 'stewart'; expected one of the crews of crew.yaml: {crews} (did you mean 'steward'?)"
    ), str(problem)


def test_another_pick_naming_its_own_crew_loads_with_a_warning(tmp_path):
    """Nobody else can pick the informant while it is held (R5): naming it never fires."""
    game = with_trigger(tmp_path, INFORMANT.replace("another_pick", "{another_pick: {crew: [steward, informant]}}"))
    assert ruleset_warnings(game.ruleset) == [
        f"{game.ruleset.source}/crew.yaml: informant's another_pick names informant itself, which nobody else "
        "can pick while it is held (R5): that name never sets it off"
    ]
    assert ruleset_warnings(IDEAS.ruleset) == []


def test_a_wrong_option_a_decision_and_a_survey_change_are_refused(tmp_path):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: {another_pick: {square: 3}}")
    assert [(message.split(": ", 1)[1], suggestion) for message, suggestion in _messages(folder)] == [
        ("unknown another_pick option 'square'; it takes crew", None)
    ]
    folder = copy_ruleset(tmp_path, "ideas", "empty")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: {another_pick: {crew: []}}")
    assert any("crew is a list of at least one crew id" in message for message, _ in _messages(folder))
    folder = copy_ruleset(tmp_path, "ideas", "null")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: {another_pick: null}")
    assert [message.split(": ", 1)[1] for message, _ in _messages(folder)] == [
        "another_pick's options are a mapping, {another_pick: {crew: [<crew ids>]}}, or write another_pick alone; found nothing (null)"
    ]
    folder = copy_ruleset(tmp_path, "ideas", "round_end")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: {round_end: {crew: [steward]}}")
    assert [message.split(": ", 1)[1] for message, _ in _messages(folder)] == [
        "only cube_placed and another_pick take options ({cube_placed: {square: <n or special>}} or "
        "{another_pick: {crew: [<crew ids>]}}), found a mapping"
    ]
    folder = copy_ruleset(tmp_path, "ideas", "decision")
    replace(folder, "crew.yaml", INFORMANT, "      - on: another_pick\n        do:\n          - effect: place_free_cubes\n")
    assert any("'place_free_cubes' asks a decision" in message for message, _ in _messages(folder))
    folder = copy_ruleset(tmp_path, "ideas", "survey")
    replace(folder, "crew.yaml", INFORMANT, "      - on: round_end\n        do:\n          - effect: change_survey_count\n            delta: 1\n")
    assert any("changes this turn's survey" in message for message, _ in _messages(folder))


def test_me_is_refused_nowhere_and_this_planet_only_at_a_landing(tmp_path):
    """At round_end a crew's holder is "you" (a planet's round_end refuses me); this_planet is
    bound at cube_placed and becomes_full only."""
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "crew.yaml", "      - on: another_pick", "      - on: round_end")
    assert load_ruleset(folder).crew[-1].triggers[0].event == "round_end"  # gain_vp's to: me
    folder = copy_ruleset(tmp_path, "ideas", "planet")
    replace(folder, "crew.yaml", "            vp: 1\n    placeholder", "            vp: {room: this_planet}\n    placeholder")
    assert any("this_planet" in message for message, _ in _messages(folder))


def test_the_data_reads_back_tune_paths_reach_inside_and_crews_without_triggers_keep_their_data():
    data = ruleset_to_data(IDEAS.ruleset)
    informant = next(card for card in data["crew"]["crew"] if card["id"] == "informant")
    assert informant["triggers"] == [{"on": "another_pick", "do": [{"effect": "gain_vp", "vp": 1}]}]
    place = locate(data, "crew.informant.triggers[0].do[0].vp")  # a tune path reaches inside
    assert isinstance(place, Place) and place.value == 1 and place.doc_path[2:] == ("triggers", 0, "do", 0, "vp")
    assert all("triggers" not in card for card in ruleset_to_data(load_ruleset("draft7"))["crew"]["crew"])


# -- the text and the bounds ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_trigger_reads_as_a_sentence_and_its_event_renders(lang):
    informant = next(card for card in IDEAS.ruleset.crew if card.id == "informant")
    said = skill_sentences(informant, IDEAS.ruleset, lang)
    expected = {
        "en": ("While you hold this crew, each time another player picks a crew: Gain 1 VP.",),
        "ja": ("このクルーを持っている間、他のプレイヤーがクルーを選ぶたび：1VPを得る。",),
    }
    assert said == expected[lang]
    for event in ("another_pick", "cube_placed", "becomes_full", "round_end", "game_end"):
        text = render_event(Event("crew_triggered", {"player": 0, "crew": "informant", "event": event}), IDEAS.ruleset, lang)
        assert "{" not in text and ("Informant" in text or "情報屋" in text)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_narrowed_another_pick_and_a_game_end_read_as_sentences(tmp_path, lang):
    expected = {
        "en": (
            "While you hold this crew, each time another player picks Steward: Gain 1 VP.",
            "While you hold this crew, each time another player picks one of Pirate, Steward: Gain 1 VP.",
            "If you hold this crew when the game ends, before the winner is decided: Gain 1 VP.",
        ),
        "ja": (
            "このクルーを持っている間、他のプレイヤーが執事を選ぶたび：1VPを得る。",
            "このクルーを持っている間、他のプレイヤーが宇宙海賊、執事のいずれかを選ぶたび：1VPを得る。",
            "ゲームが終わったときにこのクルーを持っていれば、勝者を決める前に：1VPを得る。",
        ),
    }
    said = []
    for number, on in enumerate(("{another_pick: {crew: [steward]}}", "{another_pick: {crew: [pirate, steward]}}", "game_end")):
        game = with_trigger(tmp_path / str(number), INFORMANT.replace("another_pick", on))
        informant = game.ruleset.crew_card("informant")
        said += skill_sentences(informant, game.ruleset, lang)
        assert ruleset_to_data(game.ruleset)["crew"]["crew"][-1]["triggers"][0]["on"] == yaml.safe_load(on)
    assert tuple(said) == expected[lang]


def test_the_trigger_vp_are_in_the_vp_bound_and_the_moves_unchanged():
    """The informant fires at most players - 1 = 3 times a round, 1 VP each (the ruleset's other
    trigger, the Cartographer's round-end 3 VP, is in both games)."""
    without = Game(attrs.evolve(IDEAS.ruleset, crew=tuple(attrs.evolve(card, triggers=()) if card.id == "informant" else card for card in IDEAS.ruleset.crew)))
    assert IDEAS.bounds.ability_vp == without.bounds.ability_vp + 3 * IDEAS.ruleset.max_rounds
    assert IDEAS.bounds.most_vp == without.bounds.most_vp + 3 * IDEAS.ruleset.max_rounds
    assert IDEAS.most_moves == without.most_moves and IDEAS.action_sizes == without.action_sizes
    assert native.kernel_for(IDEAS).bounds()["ability_vp"] == IDEAS.bounds.ability_vp
