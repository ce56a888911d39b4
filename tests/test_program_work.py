"""A valid program's work is bounded (docs/skills.md, "How much work a program may ask").

Hostile programs (deep nests of ``for_each``, ``most_of`` over huge sums, nests in every place a
program stands) are refused by the loader at their line, saying how much work they ask and the
limit; a program under the limits loads and plays, each decision within them. Deriving bounds
and counting work are linear in the program's size: measured by counting calls, never by time.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.frontends.cli import main
from stargazer_rules.kernel.native import fallback_reason
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.work_checks import program_works
from stargazer_rules.vocabulary.work import MOST_EFFECTS, MOST_EVALUATIONS

from ruleset_edits import copy_ruleset, replace
from strategies import load_documents, ruleset_documents

#: draft 7's largest table: 4 seats, 7 Planets, 5 dealt crew and Captain Armstrong.
SEATS, PLANETS, CREWS = 4, 7, 6
NAVIGATOR_SKILL = "    skill:\n      - effect: choose_direction\n"


def nest(depth: int, body: list[Any], key: str = "seat", word: str = "everyone", effect: str = "for_each") -> list[Any]:
    """``body`` inside ``depth`` levels of ``effect`` over the set ``word``."""
    for _ in range(depth):
        body = [{"effect": effect, key: word, "do": body}]
    return body


def most_of_nest(depth: int, terms: int) -> dict[str, Any]:
    amount: Any = {"sum": [1] * terms}
    for _ in range(depth):
        amount = {"most_of": {"seats": "everyone", "amount": amount}}
    return amount


def with_skill(tmp_path: Path, skill: list[Any]) -> Path:
    """draft 7 with the Navigator's skill written as ``skill`` on one line (line 18, column 12)."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", NAVIGATOR_SKILL, f"    skill: {json.dumps(skill)}\n")
    return folder


def refusal(folder: Path) -> str:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(folder)
    (problem,) = refused.value.problems
    return str(problem)


def calls(run: Callable[[], object], names: Iterable[str] | None = None) -> int:
    """How many Python functions ``run`` calls (only those named ``names``, when given)."""
    wanted = None if names is None else frozenset(names)
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and (wanted is None or frame.f_code.co_name in wanted):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def nested_effects(depth: int, members: int) -> int:
    """The effects of ``depth`` nested for_each over ``members`` around one gain_vp."""
    return sum(members**level for level in range(depth + 1))


# -- the hostile programs of the issue, refused at validate ------------------------------------


@pytest.mark.parametrize("depth", [12, 16, 20])
def test_a_nest_of_for_each_over_every_seat_is_refused_at_its_line(tmp_path, depth):
    folder = with_skill(tmp_path, nest(depth, [{"effect": "gain_vp", "vp": 1}]))
    shown = " x ".join(["4"] * 8) + f" x ... ({depth} sets)"
    assert refusal(folder) == (
        f"{folder}/crew.yaml:18:12: crew.navigator.skill: this skill can perform {nested_effects(depth, SEATS):,} "
        f"effects when it resolves; the limit is 10,000 (the sets of for_each multiply: {shown})"
    )


def test_validate_refuses_the_nest_with_its_line_and_exit_1(tmp_path, capsys, monkeypatch):
    with_skill(tmp_path, nest(16, [{"effect": "gain_vp", "vp": 1}]))
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft7"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "draft7/crew.yaml:18:12: crew.navigator.skill: this skill can perform 5,726,623,061 effects when it "
        "resolves; the limit is 10,000 (the sets of for_each multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4 x 4 x ... (16 sets))"
    ]


def test_most_of_nested_8_deep_over_a_500_term_sum_is_refused(tmp_path):
    folder = with_skill(tmp_path, [{"effect": "gain_vp", "vp": most_of_nest(8, 500)}])
    # each level reads 1 (most_of) + 1 (its set) + 4 x the level below; the sum reads 501
    evaluations = 501
    for _ in range(8):
        evaluations = 2 + SEATS * evaluations
    evaluations += 1  # gain_vp's to: me
    assert evaluations == 32_877_227
    assert refusal(folder) == (
        f"{folder}/crew.yaml:18:12: crew.navigator.skill: this skill can take 32,877,227 evaluations of amounts, "
        "conditions and sets when it resolves; the limit is 250,000 (the sets of most_of multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4 x 4)"
    )


# -- variants: every place a program stands ----------------------------------------------------


def test_a_choose_around_a_deep_for_each_is_refused(tmp_path):
    # choose performs its body for the one Planet chosen (and tries it on each to list them)
    body = nest(7, [{"effect": "gain_vp", "vp": 1}])
    folder = with_skill(tmp_path, [{"effect": "choose", "planet": "all", "do": body}])
    assert refusal(folder) == (
        f"{folder}/crew.yaml:18:12: crew.navigator.skill: this skill can perform {1 + nested_effects(7, SEATS):,} "
        "effects when it resolves; the limit is 10,000 (the sets of for_each multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4)"
    )


def test_choose_one_options_each_nesting_for_each_are_refused_for_the_largest(tmp_path):
    heavy = nest(7, [{"effect": "gain_vp", "vp": 1}])
    folder = with_skill(tmp_path, [{"effect": "choose_one", "options": [[{"effect": "gain_vp", "vp": 1}], heavy]}])
    assert refusal(folder) == (
        f"{folder}/crew.yaml:18:12: crew.navigator.skill: this skill can perform {1 + nested_effects(7, SEATS):,} "
        "effects when it resolves; the limit is 10,000 (the sets of for_each multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4)"
    )


def test_a_big_sum_inside_for_each_is_refused_for_its_evaluations(tmp_path):
    amount = {"sum": [1] * 4000}
    folder = with_skill(tmp_path, nest(3, [{"effect": "gain_vp", "vp": amount}]))
    # 3 levels: 64 gain_vp, each reading 4,001 (the sum) + 1 (to: me); each for_each its set once
    evaluations = 64 * 4002 + (1 + 4 + 16)
    assert refusal(folder) == (
        f"{folder}/crew.yaml:18:12: crew.navigator.skill: this skill can take {evaluations:,} evaluations of "
        "amounts, conditions and sets when it resolves; the limit is 250,000 (the sets of for_each multiply: 4 x 4 x 4)"
    )


def test_a_nest_in_a_planet_ability_is_refused_at_the_ability(tmp_path):
    folder = copy_ruleset(tmp_path)
    ability = {"on": "cube_placed", "do": nest(7, [{"effect": "gain_vp", "vp": 1, "to": "everyone"}])}
    replace(folder, "planets.yaml", "    track: [1, 3, 0, 5, 7, 0]\n", f"    track: [1, 3, 0, 5, 7, 0]\n    abilities: [{json.dumps(ability)}]\n")
    assert refusal(folder) == (
        f"{folder}/planets.yaml:10:45: planets.lava-1.abilities[0].do: this ability can perform "
        f"{nested_effects(7, SEATS):,} effects when it resolves; the limit is 10,000 "
        "(the sets of for_each multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4)"
    )


def test_a_nest_in_a_crew_trigger_is_refused_at_the_trigger(tmp_path):
    folder = copy_ruleset(tmp_path)
    trigger = {"on": "round_end", "do": nest(7, [{"effect": "gain_vp", "vp": 1, "to": "everyone"}])}
    replace(folder, "crew.yaml", NAVIGATOR_SKILL, NAVIGATOR_SKILL + f"    triggers: [{json.dumps(trigger)}]\n")
    message = refusal(folder)
    assert message.startswith(f"{folder}/crew.yaml:20:42: crew.navigator.triggers[0].do: this trigger can perform 21,845 effects")


def test_a_nest_in_the_round_end_effects_is_refused_there(tmp_path):
    folder = copy_ruleset(tmp_path)
    effects = nest(7, [{"effect": "gain_vp", "vp": 1, "to": "this_seat"}])
    replace(folder, "rules.yaml", "  effects: []                 #", f"  effects: {json.dumps(effects)}  #")
    assert refusal(folder).startswith(f"{folder}/rules.yaml:30:12: round_end.effects: these round-end effects can perform 21,845 effects")


def test_a_nest_in_the_setup_steps_is_refused_there(tmp_path):
    folder = copy_ruleset(tmp_path)
    steps = nest(7, [{"effect": "gain_vp", "vp": 1, "to": "this_seat"}])
    replace(folder, "rules.yaml", "  each_player: []  ", f"  each_player: {json.dumps(steps)}  ")
    assert refusal(folder).startswith(f"{folder}/rules.yaml:44:16: setup.each_player: these setup steps can perform 21,845 effects")


def test_a_heavy_end_scoring_line_is_refused_at_its_vp(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = {"deep": {"name": {"ja": "深", "en": "deep"}, "vp": most_of_nest(6, 20)}}
    replace(folder, "rules.yaml", "end_scoring: {}  ", f"end_scoring: {json.dumps(line, ensure_ascii=False)}  ")
    message = refusal(folder)
    assert message.startswith(f"{folder}/rules.yaml:55:65: end_scoring.deep.vp: this scoring line can take ")
    assert message.endswith("; the limit is 250,000 (the sets of the seats scored and most_of multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4)")


def test_a_heavy_end_condition_is_refused_at_its_key(tmp_path):
    folder = copy_ruleset(tmp_path)
    condition = {"at_least": [most_of_nest(8, 3), 1]}
    replace(folder, "rules.yaml", "  planets_full: {at_least: [{planets: full}, full_planets_to_end]}", f"  planets_full: {json.dumps(condition)}")
    message = refusal(folder)
    assert message.startswith(f"{folder}/rules.yaml:27:17: end.planets_full: this end condition can take ")
    assert message.endswith("; the limit is 250,000 (the sets of most_of multiply: 4 x 4 x 4 x 4 x 4 x 4 x 4 x 4)")


def test_the_loader_is_the_gate_for_a_folder(tmp_path):
    """``load_ruleset`` of a folder, the one way a user's ruleset reaches a ``Game``, refuses it."""
    folder = with_skill(tmp_path, nest(20, [{"effect": "gain_vp", "vp": 1}]))
    with pytest.raises(RulesetError, match="this skill can perform 1,466,015,503,701 effects"):
        load_ruleset(str(folder))


# -- linear work ------------------------------------------------------------------------------

#: The functions that derive an effect list's bound facts (``bounds``, ``vocabulary.effects``).
BOUND_FACTS = ("most_vp", "most_landings", "survey_bonus_range", "list_most_vp", "list_landings", "_list_survey")


def test_deriving_bounds_grows_by_a_constant_per_level_of_nesting(tmp_path):
    """A nest of for_each over one seat (``me``, small work) one level deeper asks the bound
    derivation the same few more calls at every depth: it used to double them."""
    visits = []
    for depth in (10, 11, 12, 20, 21):
        folder = with_skill(tmp_path / str(depth), nest(depth, [{"effect": "gain_vp", "vp": 1}], word="me"))
        ruleset = load_ruleset(folder)
        visits.append(calls(lambda: Game(ruleset), BOUND_FACTS))
    step = visits[1] - visits[0]
    assert 0 < step < 20
    assert visits[2] - visits[1] == step
    assert visits[3] - visits[2] == 8 * step
    assert visits[4] - visits[3] == step


def test_refusing_a_20_deep_nest_takes_as_many_calls_as_loading_a_small_one(tmp_path):
    """The loader's whole work (read, check, count) on a 20-deep nest over every seat: linear in
    its levels, counted in calls (the refusal comes quickly)."""
    work = {}
    for depth in (2, 4, 20):
        folder = with_skill(tmp_path / str(depth), nest(depth, [{"effect": "gain_vp", "vp": 1}]))
        work[depth] = calls(lambda: pytest.raises(RulesetError, load_ruleset, folder) if depth == 20 else load_ruleset(folder))
    per_level = (work[4] - work[2]) / 2
    assert work[20] - work[4] < 16 * per_level * 1.5


# -- under the limits: loads and plays, each decision counted ----------------------------------


def test_a_program_under_the_limits_plays_8_games_each_decision_within_them(tmp_path):
    body = [{"effect": "gain_vp", "vp": {"sum": [1, {"hand": "this_seat"}]}, "to": "this_seat"}]
    skill = nest(4, body)  # 341 effects, 1,365 evaluations a resolution
    folder = with_skill(tmp_path, skill)
    ruleset = load_ruleset(folder)
    (navigator,) = [p for p in program_works(ruleset) if p.path == ("crew", 1, "skill")]
    assert (navigator.effects.count, navigator.evaluations.count) == (nested_effects(4, SEATS), 1 + 4 + 16 + 64 + 256 * 5)
    game = Game(ruleset)
    most_performed = most_read = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_state(players=4, seed=seed)
        while not game.is_over(state):
            act = rng.choice(game.legal_actions(state))
            performed = calls(lambda: game.step(state, act), ("perform", "_gain"))
            read = calls(lambda: game.step(state, act), ("value", "holds", "members", "amount_value"))
            most_performed, most_read = max(most_performed, performed), max(most_read, read)
            state = game.step(state, act)
    assert nested_effects(4, SEATS) <= most_performed <= MOST_EFFECTS  # the Navigator was picked
    assert 0 < most_read <= MOST_EVALUATIONS


# -- the bundled and generated rulesets pass with room ------------------------------------------


@pytest.mark.parametrize(("name", "room"), [("draft7", 1000), ("base", 1000), ("ideas", 1000), ("corpus", 500)])
def test_the_bundled_rulesets_are_far_under_the_limits(name, room):
    """``room``: how many times under each limit; the corpus's C2 (the Prefect, one option per
    colour) asks 450 evaluations, 555 times under."""
    works = list(program_works(load_ruleset(name)))
    assert max(p.effects.count for p in works if p.effects is not None) * room <= MOST_EFFECTS
    assert max(p.evaluations.count for p in works) * room <= MOST_EVALUATIONS


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents=ruleset_documents(language=True))
def test_generated_rulesets_load_under_the_limits(documents):
    works = list(program_works(load_documents(documents)))  # load_ruleset refuses one past them
    assert max(p.effects.count for p in works if p.effects is not None) <= MOST_EFFECTS
    assert max(p.evaluations.count for p in works) <= MOST_EVALUATIONS


# -- the kernel's fallback sentence ---------------------------------------------------------------


def test_a_bound_past_64_bits_is_refused_by_the_kernel_in_its_own_sentence(tmp_path):
    folder = with_skill(tmp_path, [{"effect": "gain_vp", "vp": {"product": [100] * 12}}])
    game = Game(load_ruleset(folder))
    assert game.bounds.most_vp == 30 * 10**24 + 2970
    assert fallback_reason(game) == (
        f"a seat may score {30 * 10**24 + 2970} VP in play, beyond the kernel's limit of 1073741824"
    )


def test_a_bound_within_64_bits_keeps_the_kernel_sentence(tmp_path):
    folder = with_skill(tmp_path, [{"effect": "gain_vp", "vp": {"product": [100] * 5}}])
    game = Game(load_ruleset(folder))
    assert fallback_reason(game) == f"a seat may score {game.bounds.most_vp} VP in play, beyond the kernel's limit of 1073741824"
