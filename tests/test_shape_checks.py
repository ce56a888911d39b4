"""The fast shape check of a signed state (``formats.shape_checks``), held to the schema it is
compiled from: what the state schema takes it takes, what it refuses by type or bound it
refuses, and a keyword it does not implement is refused when it is compiled."""

from __future__ import annotations

import copy
import random

import pytest
from strategies import BUNDLED, bundled_game

from stargazer_rules.formats import states_json
from stargazer_rules.formats.shape_checks import compile_shape


def _states(game, count: int, seed: int):
    """The JSON of ``count`` states of random games of ``game`` (bounded by the count)."""
    rng = random.Random(seed)
    players = min(game.ruleset.player_counts)
    state = game.new_state(players, seed)
    found = []
    while len(found) < count:
        found.append(states_json.state_to_json(game, state))
        state = game.new_state(players, rng.randrange(1000)) if game.is_over(state) else game.step(state, rng.choice(state.legal))
    return found


@pytest.mark.parametrize("name", BUNDLED)
def test_the_shape_takes_every_state_the_rules_make(name):
    """Every state of random games of each bundled ruleset passes its signed-state shape."""
    game = bundled_game(name)
    shape = states_json.trusted_shape(game)
    for document in _states(game, 60, 1):
        assert shape.problems(document) == []


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (("start_player",), 1.5, "$.start_player: 1.5 is not of type integer"),
        (("round",), True, "$.round: True is not of type integer"),
        (("round",), 0, "$.round: 0 is outside 1.."),
        (("seats", 0, "hand"), "3", "$.seats[0].hand: '3' is not of type integer"),
        (("stage",), "nope", "$.stage: 'nope' is not one of"),
        (("planets", 0, "id"), "Not An Id", "$.planets[0].id: 'Not An Id' does not match"),
        (("survey", "extra"), 1, "$.survey: 'extra' is not a field of this form"),
        (("legal",), "x", "$.legal: 'x' is not of type array"),
    ],
)
def test_the_shape_refuses_a_wrong_type_or_bound_at_its_path(path, value, problem):
    """Each break of a type, a bound, an enum, a pattern or a closed form is one problem at its path."""
    game = bundled_game("draft7")
    document = copy.deepcopy(_states(game, 5, 2)[-1])
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    problems = states_json.trusted_shape(game).problems(document)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_a_keyword_the_check_does_not_implement_is_refused_when_compiled():
    """A schema keyword the check would ignore (``multipleOf``) fails at compile time, so a
    schema growing a keyword cannot make the check pass what the schema refuses."""
    with pytest.raises(ValueError, match=r"does not implement \['multipleOf'\]"):
        compile_shape({"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 2}}})


def test_repeated_items_are_found_after_another_problem():
    """uniqueItems is checked on its own list even when another part of the document broke first."""
    game = bundled_game("draft7")
    document = copy.deepcopy(_states(game, 5, 2)[-1])
    document["round"] = 0
    document["triggers"] = ["hand_empty", "hand_empty"]
    problems = states_json.trusted_shape(game).problems(document)
    assert any(problem.startswith("$.round: 0 is outside") for problem in problems)
    assert "$.triggers: has repeated items" in problems
