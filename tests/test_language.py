"""The rules language (docs/skills.md, "The rules language"): checked at load with located
problems, bounded, read back in both languages, and played by the Python engine with every
invariant holding, on generated programs.

The worked examples of each idea of the design corpus live in tests/test_ideas.py.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invariants import check_cubes, check_legal
from strategies import language_rulesets, language_skills, load_documents
from stargazer_rules import Game, load_ruleset
from stargazer_rules.errors import RulesetError
from stargazer_rules.rulesets.resources import cards_dir
from stargazer_rules.text.messages import LANGS, describe_skill
from stargazer_rules.vocabulary import expressions as X
from stargazer_rules.vocabulary.effects import EFFECT_TYPES

DRAFT7 = cards_dir() / "draft7"
COLOURS = ("red", "blue", "yellow", "green", "black", "white")


def _with_skill(tmp_path: Path, skill: Any, name: str = "lang") -> Path:
    """A copy of draft 7 whose Navigator has ``skill`` (a YAML text or data)."""
    folder = tmp_path / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(DRAFT7, folder)
    crew_path = folder / "crew.yaml"
    crew = yaml.safe_load(crew_path.read_text(encoding="utf-8"))
    data = yaml.safe_load(skill) if isinstance(skill, str) else skill
    next(card for card in crew["crew"] if card["id"] == "navigator")["skill"] = data
    crew_path.write_text(yaml.safe_dump(crew, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def _problems(tmp_path: Path, skill: str) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(_with_skill(tmp_path, skill))
    return [str(problem) for problem in caught.value.problems]


# -- checked at load ------------------------------------------------------------------------


def test_a_misspelt_word_is_located_with_did_you_mean(tmp_path):
    problems = _problems(tmp_path, "- {effect: gain_vp, vp: {planets: {where: {ranks_frist: me}}}}")
    assert len(problems) == 1
    assert re.search(r"crew\.yaml:\d+:\d+: .*ranks_frist.*did you mean 'ranks_first'", problems[0]), problems


def test_a_set_where_an_amount_is_wanted_is_a_type_error(tmp_path):
    problems = _problems(tmp_path, "- {effect: gain_vp, vp: with_room}")
    assert any("unknown amount word 'with_room'" in p for p in problems), problems


def test_a_bound_word_outside_its_binding_is_refused(tmp_path):
    problems = _problems(tmp_path, "- {effect: gain_vp, vp: {room: this_planet}}")
    assert any("'this_planet' names the" in p and "none is bound here" in p for p in problems), problems
    problems = _problems(tmp_path, "- {effect: if, condition: full, then: [{effect: gain_vp, vp: 1}]}")
    assert any("'full' reads the Planet bound" in p for p in problems), problems


def test_every_problem_of_a_program_is_reported_at_once(tmp_path):
    skill = """
- effect: gain_vp
  vp: {sum: [{planets: alll}, {seats: otters}]}
- effect: if
  condition: {at_least: [round]}
  then: [{effect: gain_vp, vp: 1}]
"""
    problems = _problems(tmp_path, skill)
    assert len(problems) == 3, problems
    assert any("'alll'" in p and "did you mean 'all'" in p for p in problems)
    assert any("'otters'" in p and "did you mean 'others'" in p for p in problems)
    assert any("at_least compares two amounts" in p for p in problems)


def test_the_lasting_effects_words_are_checked_with_did_you_mean(tmp_path):
    """close_crew, protect_cubes and use_skill: a misspelt value, a set of the wrong kind and a
    timing use_skill cannot resolve at are each located, all at once."""
    skill = """
- {effect: protect_cubes, until: round_ends}
- {effect: close_crew, crew: this_planet}
- {effect: use_skill, crew: {where: unpiked}, when: after_survey}
"""
    problems = _problems(tmp_path, skill)
    assert len(problems) == 4, problems
    assert any(re.search(r"crew\.yaml:\d+:\d+: .*'round_ends'.*did you mean 'round_end'", p) for p in problems), problems
    assert any("'this_planet'" in p and "did you mean 'this_crew'" in p for p in problems), problems
    assert any("'unpiked'" in p and "did you mean 'unpicked'" in p for p in problems), problems
    assert any("'use_skill' cannot resolve at 'after_survey'" in p for p in problems), problems


def test_an_amount_of_vp_that_reads_vp_is_refused_as_unbounded(tmp_path):
    problems = _problems(tmp_path, "- {effect: gain_vp, vp: {vp: others}}")
    assert any("reads VP, so it has no bound" in p for p in problems), problems
    # the same amount in a condition is fine
    load_ruleset(_with_skill(tmp_path, "- {effect: if, condition: {more_than: [{vp: others}, 3]}, then: [{effect: gain_vp, vp: 1}]}", "ok"))


def test_a_decision_in_the_body_of_choose_is_refused(tmp_path):
    skill = "- {effect: for_each, seat: others, do: [{effect: add_free_cubes}]}"
    problems = _problems(tmp_path, skill)
    assert any("'add_free_cubes' asks a decision, so it cannot stand in the do of for_each" in p for p in problems), problems


@pytest.mark.parametrize(
    "value, accepted",
    [(X.VALUE_LIMIT, True), (X.VALUE_LIMIT + 1, False), (-X.VALUE_LIMIT, True), (-X.VALUE_LIMIT - 1, False)],
)
def test_a_number_inside_an_amount_is_bounded(tmp_path, value, accepted):
    skill = f"- {{effect: gain_vp, vp: {{max: [{value}, 1]}}}}"
    if accepted:
        load_ruleset(_with_skill(tmp_path, skill))
    else:
        assert any(f"found {value}" in p and "(the schema's m" in p for p in _problems(tmp_path, skill))


@pytest.mark.parametrize("vp, accepted", [(0, False), (1, True)])
def test_a_number_of_vp_is_at_least_1(tmp_path, vp, accepted):
    skill = f"- {{effect: lose_vp, vp: {vp}}}"
    if accepted:
        load_ruleset(_with_skill(tmp_path, skill))
    else:
        assert any("vp: expected at least 1, found 0" in p for p in _problems(tmp_path, skill))


def test_choose_takes_exactly_one_set(tmp_path):
    problems = _problems(tmp_path, "- {effect: choose, planet: all, seat: me, do: [{effect: gain_vp, vp: 1}]}")
    assert any("exactly one of planet, seat or crew" in p for p in problems), problems


# -- bounds ---------------------------------------------------------------------------------


def test_the_vp_a_seat_may_hold_is_bounded_by_the_program(tmp_path):
    """gain_vp of the Planets where you rank first scores at most the most Planets a turn, so
    the bound grows by exactly that per round over draft 7's."""
    base = Game(load_ruleset(DRAFT7)).bounds
    skill = "- {effect: gain_vp, vp: {planets: {where: {ranks_first: me}}}}"
    game = Game(load_ruleset(_with_skill(tmp_path, skill)))
    assert game.bounds.most_vp is not None
    assert game.bounds.most_vp > base.most_vp


def test_for_each_multiplies_its_body_by_the_size_of_its_set(tmp_path):
    one = Game(load_ruleset(_with_skill(tmp_path, "- {effect: gain_vp, vp: 100}", "one"))).bounds.most_vp
    each = Game(load_ruleset(_with_skill(tmp_path, "- {effect: for_each, seat: everyone, do: [{effect: gain_vp, vp: 100}]}", "each"))).bounds.most_vp
    rounds = load_ruleset(DRAFT7).max_rounds
    assert each - one == rounds * 100 * 3  # four seats at most, one more than three


def test_a_survey_count_set_by_an_amount_bounds_the_survey(tmp_path):
    game = Game(load_ruleset(_with_skill(tmp_path, "- {effect: set_survey_count, count: {planets: with_room}}")))
    assert game.bounds.most_survey_placed == min(game.ruleset.cubes_per_player, game.bounds.most_planets)


# -- read back ------------------------------------------------------------------------------

_NO_CODE = re.compile(r"[{}]|None|<|\b[A-Z][a-z]+[A-Z]\w*\b|_")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(skill=language_skills(COLOURS))
def test_generated_programs_load_and_read_as_sentences_in_both_languages(tmp_path_factory, skill):
    folder = _with_skill(tmp_path_factory.mktemp("read"), skill)
    ruleset = load_ruleset(folder)
    card = ruleset.crew_card("navigator")
    for lang in LANGS:
        text = describe_skill(card, ruleset, lang)
        assert text and not _NO_CODE.search(text.replace("Player", "")), (lang, text, skill)


def test_every_word_of_the_grammar_has_a_phrase_in_both_languages():
    from stargazer_rules.text.catalogue import catalogue

    sections = {X.AMOUNT: "amounts", X.CONDITION: "conditions", X.PLANETS: "planet_sets", X.SEATS: "seat_sets", X.CREWS: "crew_sets"}
    for kind, section in sections.items():
        phrases = catalogue().section(section)
        for word in X.GRAMMAR[kind]:
            assert word in phrases, f"messages.yaml: {section}.{word}"


# -- played ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents=language_rulesets(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_generated_programs_play_with_every_cube_in_its_place(documents, seed, data):
    """Cube conservation (R6, R13), the board's limits (R2, R3), the legal lists and the
    derived bounds after every decision of a random game on a generated ruleset whose every
    crew runs a generated program."""
    game = Game(load_documents(documents))
    players = data.draw(st.sampled_from(game.ruleset.player_counts))
    rng = random.Random(seed)
    state = game.new_state(players=players, seed=seed)
    for _ in range(game.most_moves):
        check_cubes(game, state)
        check_legal(game, state)
        assert game.derive_legal(state) in (state.legal, None)
        assert all(vp <= game.bounds.most_vp for vp in state.vp) and min(state.vp) >= 0
        assert len(state.legal) <= game.most_legal_actions
        if game.is_over(state):
            break
        state, _ = game.apply(state, rng.choice(game.legal_actions(state)))
    assert game.is_over(state)


def test_the_language_types_are_in_the_registry():
    assert {"if", "choose", "for_each", "lose_vp", "take_vp", "set_survey_count", "return_cube", "move_cube", "place_cube", "place_cube_on_crew", "collect_free_cubes"} <= set(EFFECT_TYPES)


# -- tune reaches inside programs -------------------------------------------------------------


def test_a_number_inside_a_program_is_a_tune_path():
    """The cap of the Steward's amount (S2) is ``crew.steward.skill[0].vp.min[1]``: an edit of
    it changes the program, and so the most VP derived from it."""
    from stargazer_rules.engine.bounds import limits_of
    from stargazer_rules.tuning.edits import apply_edits

    base = load_ruleset("ideas")
    edited = apply_edits(base, {"crew.steward.skill[0].vp.min[1]": 5})
    assert edited.crew_card("steward").skill[0].to_data()["vp"] == {"min": [{"free_cubes": "all"}, 5]}
    limits = limits_of(base, 1)
    assert base.crew_card("steward").skill[0].most_vp(limits) == 3
    assert edited.crew_card("steward").skill[0].most_vp(limits) == 5


def test_an_edit_inside_a_program_is_checked_like_the_file(tmp_path):
    from stargazer_rules.tuning.edits import apply_edits

    with pytest.raises(RulesetError) as caught:
        apply_edits(load_ruleset("ideas"), {"crew.veteran.skill[0].then[0].vp": 0})
    assert any("expected at least 1, found 0" in str(p) for p in caught.value.problems)


def test_a_proposal_writes_a_number_inside_a_program_in_place(tmp_path):
    from stargazer_rules.tuning.edits import write_proposal

    proposal = write_proposal("ideas", {"crew.pirate.skill[0].do[0].vp": 3}, tmp_path / "draft8")
    assert proposal.crew_card("pirate").skill[0].do[0].vp == 3
    text = (tmp_path / "draft8" / "crew.yaml").read_text(encoding="utf-8")
    assert "# S8" in text and "vp: 3" in text  # comments kept, the number replaced where it stood


# -- the commands over programs ---------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(skill=language_skills(COLOURS))
def test_validate_and_rules_read_generated_programs_without_a_traceback(tmp_path_factory, capsys, skill):
    from stargazer_rules.frontends.cli import main

    folder = str(_with_skill(tmp_path_factory.mktemp("cli"), skill))
    assert main(["validate", folder]) == 0
    for lang in LANGS:
        assert main(["rules", folder, "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "None" not in out


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_ideas_cards_print_with_their_programs_read_back(lang):
    """The printed crew cards of the ideas ruleset carry each program's sentences."""
    from stargazer_rules.printing.document import pdf_bytes

    import io

    import pypdf

    ruleset = load_ruleset("ideas")
    data, summary = pdf_bytes(ruleset, lang, "a4")
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
    words = re.sub(r"\s+", "", text)
    phrase = {"en": "VPequalto", "ja": "等しいVPを得る"}[lang]
    assert summary.pages >= 2 and phrase in words


def test_a_left_out_set_that_names_the_bound_planet_needs_one_bound(tmp_path):
    """return_cube's planet is this_planet when left out: fine inside a choose over Planets,
    a located problem at the top of a skill."""
    problems = _problems(tmp_path, "- {effect: return_cube}")
    assert len(problems) == 1 and "return_cube's planet is left out, so it is 'this_planet'" in problems[0], problems
    assert "give planet" in problems[0]
    load_ruleset(_with_skill(tmp_path, "- {effect: choose, planet: all, do: [{effect: return_cube}]}", "ok"))
