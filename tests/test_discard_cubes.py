"""``discard_cubes`` (docs/skills.md): cubes from a seat's hand straight out of play.

The cubes join the seat's removed cubes (R6), so conservation (R13) holds: hand + board +
removed = ``cubes_per_player`` + taken. Each worked example plays on the Python engine and on
the native kernel from the same position, and both must reach the same state; then the
loader's located errors, the read-back and whole games in lockstep.
"""

from __future__ import annotations

import random

import pytest
import yaml
from builders import armstrong, crew, deal_all, effect, game, keys, of, ruleset_data
from differential import play_lockstep
from invariants import check_cubes
from strategies import choose
from verdicts import on_both

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.text.messages import describe_skill
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

#: The builders' crew area: Armstrong (slot 0), then w, x, y, z.
W = 1
PICK_W = [action(A.PICK_CREW, W)]


def discard_game(*skill) -> Game:
    """Crew w holds ``skill``; the others have none."""
    return game(crew=(armstrong(), crew("w", 2, skill), crew("x"), crew("y"), crew("z")))


def start(g: Game, **fields) -> State:
    """The dealt start with ``fields`` replaced and the legal actions derived again."""
    state = g.new_state(setup=deal_all(g))._replace(**fields)
    return state._replace(legal=g.derive_legal(state))




def test_the_chooser_discards_cubes_out_of_play():
    """count 2: seat 0's hand 12 -> 10, its removed 0 -> 2 (R6, R13)."""
    g = discard_game(effect("discard_cubes", count=2))
    state, events = on_both(g, start(g), PICK_W)
    assert (state.hands, state.removed) == ((10, 12, 12), (2, 0, 0))
    check_cubes(g, state)
    assert of(events, "cubes_discarded") == [{"player": 0, "crew": "w", "cubes": 2}]


def test_each_seat_discards_at_most_what_its_hand_holds():
    """from others, count 3: seat 1 holds 1 and discards it, seat 2 discards 3; the amount is
    read once, the seats in turn order from the chooser."""
    g = discard_game(effect("discard_cubes", count=3, **{"from": "others"}))
    state, events = on_both(g, start(g, hands=(12, 1, 12), removed=(0, 11, 0)), PICK_W)
    assert (state.hands, state.removed) == ((12, 0, 9), (0, 12, 3))
    check_cubes(g, state)
    assert [(e["player"], e["cubes"]) for e in of(events, "cubes_discarded")] == [(1, 1), (2, 3)]


def test_a_protected_seat_keeps_its_hand():
    """protect_cubes: seat 1 is out of other players' skills' reach; seat 2 discards."""
    g = discard_game(effect("discard_cubes", **{"from": "others"}))
    state, _ = on_both(g, start(g, protected=(0, 2, 0)), PICK_W)
    assert (state.hands, state.removed) == ((12, 12, 11), (0, 0, 1))


def test_an_empty_hand_skips_the_effect():
    """R9: seat 0 holds no cube, so nothing is discarded and the effect is skipped."""
    g = discard_game(effect("discard_cubes"))
    state, events = on_both(g, start(g, hands=(0, 12, 12), removed=(12, 0, 0)), PICK_W)
    assert state.removed == (12, 0, 0)
    assert "cubes_discarded" not in keys(events)
    assert of(events, "effect_skipped") == [{"player": 0, "crew": "w", "effect": "discard_cubes", "remaining": 1}]


def test_an_amount_reads_the_table():
    """count {hand: me} less 10: seat 0 with 12 discards 2."""
    g = discard_game(effect("discard_cubes", count={"difference": [{"hand": "me"}, 10]}))
    state, _ = on_both(g, start(g), PICK_W)
    assert state.hands[0] == 10


# -- located errors --------------------------------------------------------------------------


def load_problem(tmp_path, *skill) -> str:
    """The loader's message for a ruleset whose crew w holds ``skill``."""
    for file_name, document in ruleset_data(crew=(armstrong(), crew("w", 2, skill), crew("x"), crew("y"), crew("z"))).items():
        (tmp_path / file_name).write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path)
    return str(caught.value)


def test_a_misspelt_parameter_is_named_with_a_suggestion(tmp_path):
    message = load_problem(tmp_path, effect("discard_cubes", form="others"))
    assert "crew.yaml" in message and "did you mean 'from'" in message


def test_a_misspelt_seat_word_is_named_with_a_suggestion(tmp_path):
    message = load_problem(tmp_path, effect("discard_cubes", **{"from": "other"}))
    assert "crew.w.skill[0].from" in message and "did you mean 'others'" in message


def test_a_count_below_one_is_refused(tmp_path):
    message = load_problem(tmp_path, effect("discard_cubes", count=0))
    assert "crew.w.skill[0].count" in message


# -- read-back -------------------------------------------------------------------------------


def test_the_read_back_in_both_languages():
    g = discard_game(effect("discard_cubes", count=2, **{"from": "others"}, when="after_survey"))
    card = g.ruleset.crew[W]
    assert describe_skill(card, g.ruleset, "en") == "Each other player discards 2 cubes from hand, out of play, at most what they hold (after the survey)."
    assert describe_skill(card, g.ruleset, "ja") == "調査の後、他のプレイヤーがそれぞれ、手元のキューブ2個を捨てる（ゲームから除外。手元にある分まで）。"


# -- whole games in lockstep -----------------------------------------------------------------


def test_games_with_discards_play_alike_on_both_engines():
    """Crews that discard the chooser's, the others' and everyone's cubes: both engines agree at
    every decision and on the score sheet (R18's tie-break reads the hands), every cube kept."""
    g = game(
        crew=(
            armstrong(),
            crew("w", 2, [effect("discard_cubes", count=2)]),
            crew("x", 3, [effect("discard_cubes", **{"from": "others"}, when="after_survey")]),
            crew("y", 2, [effect("discard_cubes", **{"from": "everyone"}, count={"hand": "me"}, when="round_end")]),
            crew("z"),
        )
    )
    removed = 0
    for seed in range(6):
        rng = random.Random(seed)

        def policy(state, rng=rng):
            nonlocal removed
            check_cubes(g, state)
            removed = max(removed, sum(state.removed))
            return choose(g, state, rng)

        play_lockstep(g, deal_all(g), rng, choose=policy)
    assert removed > 0, "no cube was ever discarded"
