"""The rules language on the native kernel, proven against the Python engine (the oracle).

Programs of the language (``language_rulesets`` in tests/strategies.py: if inside choose bodies,
filters whose conditions read the member bound, arithmetic, comparisons, every set word and
owner) play both engines in lockstep (tests/differential.py): at every decision the legal
actions, the whole state and the provisional totals are equal, at the end the score sheets and
winners; every cube stays somewhere, exactly once (R6, R11, R13), however the language moves
them. ``STARGAZER_LANGUAGE_RULESETS`` sets how many generated rulesets play (60 by default, a
slow test: about 40 s); the long run is benchmarks/language_lockstep.py, which CI runs on 1,000
drawn rulesets (``.ci/run``) and which counts the decisions compared.
"""

from __future__ import annotations

import os
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from differential import play_lockstep
from invariants import check_cubes
from ruleset_edits import copy_ruleset
from strategies import choose, generated_game, language_rulesets, seeds
from stargazer_rules import Game, load_ruleset
from stargazer_rules.engine.bounds import crew_limits, limits_of
from stargazer_rules.kernel import native
from stargazer_rules.kernel.compiled import compile_ruleset
from stargazer_rules.vocabulary import actions as A

#: Generated rulesets the lockstep test plays (each one game).
RULESETS = int(os.environ.get("STARGAZER_LANGUAGE_RULESETS", "60"))

#: A crew.yaml using many of the language's words, on draft 7's Planets and rules.
WORDS_CREW = """\
crew:
  - id: armstrong
    name: {ja: アームストロング船長, en: Captain Armstrong}
    always_in_play: true
    survey_count: 2
    skill:
      - effect: name_start_player
  - id: firsts
    name: {ja: 一, en: Firsts}
    survey_count: 2
    skill:
      - effect: gain_vp
        vp: {planets: {where: {ranks_first: me}}}
  - id: behind
    name: {ja: 三, en: Behind}
    survey_count: 2
    skill:
      - effect: if
        when: survey
        condition: {has_fewest_vp: me}
        then:
          - effect: change_survey_count
            delta: 2
  - id: returner
    name: {ja: 四, en: Returner}
    survey_count: 2
    skill:
      - effect: choose
        planet: all
        do:
          - effect: return_cube
  - id: mover
    name: {ja: 五, en: Mover}
    survey_count: 2
    skill:
      - effect: choose
        planet: {where: {has_cube: me}}
        do:
          - effect: move_cube
  - id: thief
    name: {ja: 八, en: Thief}
    survey_count: 2
    skill:
      - effect: choose
        seat: {most_vp: others}
        do:
          - effect: take_vp
            vp: 2
            from: this_seat
  - id: gifts
    name: {ja: 十六, en: Gifts}
    survey_count: 2
    skill:
      - effect: for_each
        seat: others
        do:
          - effect: place_cube_on_crew
            owner: this_seat
            crew: this_crew
  - id: leader
    name: {ja: 二十一, en: Leader}
    survey_count: 2
    skill:
      - effect: gain_vp
        vp: {min: [3, {most_of: {planets: all, amount: {cubes: {owner: me, planets: this_planet}}}}]}
      - effect: if
        condition: {equal: [{hand: me}, {least_of: {seats: everyone, amount: {hand: this_seat}}}]}
        then:
          - effect: gain_vp
            vp: {difference: [{most_of: {seats: others, amount: {hand: this_seat}}}, {hand: me}]}
  - id: fixed
    name: {ja: 二十, en: Fixed}
    survey_count: 3
    skill:
      - effect: set_survey_count
        count: 0
      - effect: gain_vp
        vp: {seats: others}
  - id: collector
    name: {ja: 九, en: Collector}
    survey_count: 1
    skill:
      - effect: for_each
        crew: {where: unpicked}
        when: after_survey
        do:
          - effect: collect_free_cubes
          - effect: if
            condition: {at_least: [{room: all}, {product: [{seats: everyone}, 2]}]}
            then:
              - effect: place_cube
                owner: free
                planet: {next_with_room: {where: surveyed}}
            else:
              - effect: lose_vp
                vp: {min: [{free_cubes: all}, 3]}
"""


def _checked_choice(game: Game, rng: random.Random):
    """The progress policy of tests/strategies.py, checking R6, R11 and R13 on every state."""

    def choice(state):
        check_cubes(game, state)
        return choose(game, state, rng)

    return choice


def test_a_ruleset_of_the_languages_words_plays_alike_on_both_engines(tmp_path) -> None:
    """Hand-written programs (Planets ranked first, VP behind, cubes returned, moved, given,
    collected, a seat chosen, the most and least of an amount over a set): 40 games a player
    count, equal at every decision."""
    folder = copy_ruleset(tmp_path)
    (folder / "crew.yaml").write_text(WORDS_CREW, encoding="utf-8")
    game = Game(load_ruleset(folder))
    assert native.kernel_for(game) is not None, native.fallback_reason(game)
    decisions = 0
    seat_choices = 0
    for players in game.ruleset.player_counts:
        for seed in range(40):
            rng = random.Random(seed)
            policy = _checked_choice(game, rng)

            def counted(state, policy=policy):
                nonlocal seat_choices
                seat_choices += any(act.kind == A.TARGET_SEAT for act in state.legal)
                return policy(state)

            decisions += play_lockstep(game, game.deal(players, seed), rng, choose=counted)
    assert decisions > 40 * len(game.ruleset.player_counts) * 30
    assert seat_choices > 0, "the thief's choice of a seat was never asked"


@pytest.mark.slow
@settings(max_examples=RULESETS, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(documents=language_rulesets(), deal_seed=seeds, play_seed=seeds, data=st.data())
def test_generated_programs_play_alike_on_both_engines_and_keep_every_cube(documents, deal_seed, play_seed, data) -> None:
    """A generated program of every element, on a random valid ruleset: the kernel compiles
    it (with the bounds Python derived, equal to ``Game.bounds``) and agrees at every decision."""
    game = generated_game(documents)
    kernel = native.kernel_for(game)
    assert kernel is not None, native.fallback_reason(game)
    assert kernel.bounds() == attrs.asdict(game.bounds)
    assert kernel.action_sizes() == attrs.asdict(game.action_sizes)
    players = data.draw(st.sampled_from(sorted(game.ruleset.player_counts)), label="players")
    rng = random.Random(play_seed)
    play_lockstep(game, game.deal(players, deal_seed), rng, choose=_checked_choice(game, rng))


def test_an_amount_that_could_pass_64_bits_runs_on_the_python_engine(tmp_path) -> None:
    """The kernel computes amounts in 64 bits: a product that could pass them is refused at
    compile, and the ruleset falls back to the Python engine, which has no such limit."""
    folder = copy_ruleset(tmp_path)
    factors = ", ".join(["{vp: everyone}"] * 6)
    crew = WORDS_CREW.replace(
        "condition: {has_fewest_vp: me}", f"condition: {{at_least: [{{product: [{factors}]}}, 1]}}"
    )
    (folder / "crew.yaml").write_text(crew, encoding="utf-8")
    game = Game(load_ruleset(folder))
    assert native.kernel_for(game) is None
    assert "64-bit" in native.fallback_reason(game)


def test_the_bounds_python_derives_reach_the_kernel_whole(tmp_path) -> None:
    """Python derives the bounds once (``Game.bounds``, from each effect's ``most_vp`` and
    ``survey_bonus_range``) and the compiled ruleset carries them: the kernel keeps what it
    received and derives none of them."""
    folder = copy_ruleset(tmp_path)
    (folder / "crew.yaml").write_text(WORDS_CREW, encoding="utf-8")
    game = Game(load_ruleset(folder))
    card = next(card for card in game.ruleset.crew if card.id == "fixed")
    limits = crew_limits(limits_of(game.ruleset, 1), card.survey_count)  # a set count is relative to the crew's own (R7)
    least, most = card.skill[0].survey_bonus_range(limits)
    assert least == most == 0 - card.survey_count  # set_survey_count 0 takes the crew's own 3 away
    assert game.bounds.least_survey_bonus <= least
    assert game.derived(compile_ruleset).bounds is game.bounds
    assert native.kernel_for(game).bounds() == attrs.asdict(game.bounds)
    assert native.kernel_for(game).action_sizes() == attrs.asdict(game.action_sizes)


def test_the_languages_actions_ask_no_decision_so_the_legal_actions_stay_bounded(tmp_path) -> None:
    """An action that asks no decision offers no option (its ``choices`` only say whether it is
    skipped, R9): a ruleset using them still bounds the legal actions a state may list, which
    the server's request schemas carry."""
    folder = copy_ruleset(tmp_path)
    (folder / "crew.yaml").write_text(WORDS_CREW, encoding="utf-8")
    game = Game(load_ruleset(folder))
    immediate = [effect for card in game.ruleset.crew for effect in card.skill if effect.name in ("set_survey_count", "gain_vp")]
    assert immediate and all(effect.most_choices(players=4, planets=7, crews=6) == 0 for effect in immediate)
    assert game.most_legal_actions is not None
