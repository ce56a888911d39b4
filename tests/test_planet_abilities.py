"""Planet abilities as the loader, the bounds, the text and the tuner see them (docs/skills.md,
"Planet abilities"); their play in both engines is in tests/test_ideas.py (P1-P6) and the
lockstep of generated abilities in tests/test_kernel_language.py.
"""

from __future__ import annotations

import random
import re

import attrs
import pytest

from differential import play_lockstep
from ruleset_edits import copy_ruleset, problems_of, replace
from stargazer_rules import Game, load_ruleset
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.text.messages import ability_sentences, render_event
from stargazer_rules.tuning.paths import Place, locate

IDEAS = load_ruleset("ideas")


def _messages(folder) -> list[tuple[str, str | None]]:
    return [(f"{p.line}:{p.path}: {p.message}", p.suggestion) for p in problems_of(folder)]


def test_every_new_word_is_refused_at_its_place_with_a_suggestion(tmp_path):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "planets.yaml", "- on: becomes_full", "- on: becomes_ful")
    replace(folder, "planets.yaml", "lasting: no_survey_start", "lasting: no_survey_stat")
    replace(folder, "planets.yaml", "{counts_toward: every_colour}", "{counts_toward: every_color}")
    replace(folder, "planets.yaml", "{cube_placed: {square: 3}}", "{cube_placed: {squar: 3}}")
    replace(folder, "planets.yaml", "{majority_factor: 2}", "{majority_facter: 2}")
    found = _messages(folder)
    suggestions = {suggestion for _, suggestion in found}
    assert {"becomes_full", "no_survey_start", "every_colour", "square", "majority_factor"} <= suggestions, found
    assert len(found) == 5, found  # each once: the schema leaves events and lasting words to the checks
    assert all(re.match(r"\d+:planets\.", message) for message, _ in found)


def test_a_square_past_the_track_and_a_decision_in_a_trigger_are_refused(tmp_path):
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "planets.yaml", "{cube_placed: {square: 3}}", "{cube_placed: {square: 9}}")
    replace(folder, "planets.yaml", "          - effect: gain_vp\n            vp: 1\n    placeholder", "          - effect: place_free_cubes\n    placeholder")
    found = " | ".join(message for message, _ in _messages(folder))
    assert "square is 1..7 (a normal square of this Planet's track) or special, found 9" in found
    assert "'place_free_cubes' asks a decision, so it cannot stand in a trigger's do" in found


def test_you_is_refused_where_nobody_is_you(tmp_path):
    """At game_end nobody is "you": gain_vp's to left out (me) is refused, saying to give it."""
    folder = copy_ruleset(tmp_path, "ideas")
    replace(folder, "planets.yaml", "                to: this_seat\n", "")
    (message, _), = _messages(folder)
    assert "gain_vp's to is left out, so it is 'me'" in message and "at game_end nobody is \"you\"" in message
    replace(folder, "planets.yaml", "            seat: everyone\n", "            seat: others\n")
    assert any("others names nobody here" in message for message, _ in _messages(folder))


def test_the_data_reads_back_to_the_same_ruleset_and_tune_paths_reach_inside():
    data = ruleset_to_data(IDEAS)
    gas = next(card for card in data["planets"]["planets"] if card["id"] == "gas-1")
    assert gas["abilities"] == [{"on": {"cube_placed": {"square": 3}}, "do": [{"effect": "gain_vp", "vp": 1}]}]
    place = locate(data, "planets.gas-1.abilities[0].do[0].vp")
    assert isinstance(place, Place) and place.value == 1 and place.doc_path[2:] == ("abilities", 0, "do", 0, "vp")
    factor = locate(data, "planets.diamond.abilities[0].lasting.majority_factor")
    assert isinstance(factor, Place) and factor.value == 2
    # Planets without abilities keep the data (and the fingerprint) they had.
    assert "abilities" not in ruleset_to_data(load_ruleset("draft7"))["planets"]["planets"][0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_ability_reads_as_sentences(lang):
    said = [sentence for card in IDEAS.planets for sentence in ability_sentences(card, IDEAS, lang)]
    assert len(said) == 6
    assert not any(re.search(r"[{}_]|None|Trigger|Lasting", sentence) for sentence in said), said
    if lang == "en":
        assert "When a cube is placed on square 3 of this Planet: Its owner gains 1 VP (nobody, for a free cube)." in said
        assert "A survey may not start on this Planet." in said


def test_the_ability_vp_are_in_the_vp_bound_and_the_moves_unchanged():
    """P3 gives at most 1 VP a landing, P4 1 VP a seat, P6 at most 3 (its special square);
    Game.most_moves counts decisions only, which abilities never ask."""
    game = Game(IDEAS)
    assert game.bounds.ability_vp is not None and game.bounds.ability_vp >= 3
    # Without the planets' abilities, nor the informant's crew trigger (tests/test_crew_triggers.py),
    # nor R7's round-end effects (tests/test_round_end.py).
    without = Game(attrs.evolve(
        IDEAS,
        planets=tuple(attrs.evolve(card, abilities=()) for card in IDEAS.planets),
        crew=tuple(attrs.evolve(card, triggers=()) for card in IDEAS.crew),
        round_end_effects=(),
    ))
    assert without.bounds.ability_vp == 0 and game.bounds.most_vp > without.bounds.most_vp
    assert game.most_moves == without.most_moves
    assert native.kernel_for(game).bounds()["ability_vp"] == game.bounds.ability_vp


def test_effects_of_an_ability_set_off_no_ability(tmp_path):
    """No chains: a cube an ability lands on a Planet with a cube_placed trigger sets nothing
    off. Every Planet gives its cube's owner 1 VP and puts a free cube on the next Planet with
    room; a survey cube lands one free cube, whose own landing gives nothing."""
    folder = copy_ruleset(tmp_path, "ideas")
    text = (folder / "planets.yaml").read_text(encoding="utf-8")
    ability = (
        "    abilities:\n      - on: cube_placed\n        do:\n          - effect: gain_vp\n            vp: 1\n"
        "          - effect: place_cube\n            owner: free\n            planet: {next_with_room: this_planet}\n"
    )
    text = re.sub(r"    abilities:\n(?:      .*\n|        .*\n)*", "", text)
    text = text.replace("    placeholder: true\n", ability + "    placeholder: true\n")
    (folder / "planets.yaml").write_text(text, encoding="utf-8")
    game = Game(load_ruleset(folder))
    state = game.new_state(4, seed=1)
    state = game.step(state, state.legal[0])
    while state.stage != "survey":
        state = game.step(state, state.legal[0])
    walk = next(act for act in state.legal if act.count == 1)
    after, events = game.apply(state, walk)
    landed = [e for e in events if e.key == "cube_placed"]
    seat = (state.start_player + state.turn) % state.players
    assert [e.params["owner"] for e in landed] == [seat, -1]
    assert [e.key for e in events].count("ability_triggered") == 1
    assert sum(after.vp) - sum(state.vp) == 1
    rng = random.Random(3)
    assert play_lockstep(game, game.deal(4, 3), rng) > 0  # the same in the kernel


def test_a_protection_where_nobody_is_you_protects_nobody(tmp_path):
    """protect_cubes in a round_end ability, where nobody is "you": nobody's cubes are protected,
    in both engines (the kernel once read seat -1 there, and Python the last seat)."""
    folder = copy_ruleset(tmp_path, "ideas")
    text = (folder / "planets.yaml").read_text(encoding="utf-8")
    ability = "    abilities:\n      - on: round_end\n        do:\n          - effect: protect_cubes\n            until: round_end\n"
    text = re.sub(r"    abilities:\n(?:      .*\n|        .*\n)*", "", text)
    text = text.replace("    placeholder: true\n", ability + "    placeholder: true\n")
    (folder / "planets.yaml").write_text(text, encoding="utf-8")
    game = Game(load_ruleset(folder))
    state = game.new_state(4, seed=2)
    rng = random.Random(2)
    while not game.is_over(state) and state.round < 3:
        state = game.step(state, rng.choice(state.legal))
        assert state.protected == (0, 0, 0, 0)
    assert state.round == 3  # two round ends passed, each setting off every Planet's ability
    assert play_lockstep(game, game.deal(4, 5), random.Random(5)) > 0  # the same in the kernel


def test_an_ability_event_renders_in_both_languages():
    from stargazer_rules.vocabulary.events import Event

    for lang in ("en", "ja"):
        for event in ("cube_placed", "becomes_full", "round_end", "game_end"):
            text = render_event(Event("ability_triggered", {"planet": "gas-1", "event": event}), IDEAS, lang)
            assert "{" not in text and ("Gas 1" in text or "ガス惑星１" in text)
        assert render_event(Event("vp_gained", {"player": 0, "crew": "", "vp": 1}), IDEAS, lang) in ("Player 1 gains 1 VP.", "プレイヤー1が1VPを得る。")


def test_a_cube_returned_to_hand_mid_survey_lifts_the_hands_cap_on_the_cubes_a_survey_places(tmp_path):
    """A cube_placed ability that returns a cube to its owner's hand lets the survey place it
    again (R7 counts every cube placed): the bound of a survey's cubes is then the largest
    survey count, not cubes_per_player, on both engines."""
    plain = copy_ruleset(tmp_path, to="plain")
    replace(plain, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 2")
    refilled = copy_ruleset(tmp_path, to="refilled")
    replace(refilled, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 2")
    text = (refilled / "planets.yaml").read_text(encoding="utf-8")
    first = text.index("    track:")
    ability = "    abilities:\n      - {on: cube_placed, do: [{effect: return_cube, planet: this_planet, owner: anyone, to: hand}]}\n"
    (refilled / "planets.yaml").write_text(text[:first] + ability + text[first:], encoding="utf-8")
    capped, lifted = Game(load_ruleset(plain)), Game(load_ruleset(refilled))
    assert capped.bounds.most_survey_placed == 2
    assert lifted.bounds.most_survey_placed > 2
    assert native.kernel_for(lifted).bounds()["most_survey_placed"] == lifted.bounds.most_survey_placed
