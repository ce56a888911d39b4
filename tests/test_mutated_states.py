"""Mutated states: a reached state with one field changed within its type is refused by both
engines at the same field, or played by both alike.

A state handed to the library (a JSON document, a ``State`` a caller built, a record's
position) may hold what no game reaches while every value stays in range. Each such state must
get one answer: both checkers (``engine/state_checks.py`` and the kernel's ``check.rs``) list
the same problems, or, when both accept it, the Python engine and the kernel play it to the
same states (player cubes on crews compared as multisets, ``differential.canonical``). The
mutations change a number by one or to a small value, add or drop a member of a set, change a
pending effect's slot, path, steps, chooser or card, reorder or add an end trigger, or move the
stage: each keeps the field's type, so the checkers, not the readers' shape checks, decide.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from strategies import bundled_game, generated_playouts, seeds
from verdicts import assert_same_verdict
from stargazer_rules import Game, State
from stargazer_rules.engine import state_checks
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary.table import SURVEYING, Pending

#: The fields a mutation changes: every field of the state but the derived legal actions and
#: the player count (which resizes every per-seat field: the checkers' shape checks read it).
MUTABLE_FIELDS = tuple(name for name in State._fields if name not in ("legal", "players"))

_SMALL = (-2, -1, 0, 1, 2, 3, 4, 5, 7)


def _number(value: int, rng: random.Random) -> int:
    return value + rng.choice((-1, 1)) if rng.random() < 0.5 else rng.choice(_SMALL)


def _item(value: Any, rng: random.Random) -> Any:
    """An item of a tuple changed: a number, or a tuple of owners with one changed, dropped or
    added."""
    if not isinstance(value, tuple):
        return _number(value, rng)
    items = list(value)
    roll = rng.random()
    if items and roll < 0.6:
        k = rng.randrange(len(items))
        items[k] += rng.choice((-1, 1))
    elif items and roll < 0.8:
        items.pop(rng.randrange(len(items)))
    else:
        items.insert(rng.randint(0, len(items)), rng.choice((-1, 0, 1, 2)))
    return tuple(items)


def _pending(value: tuple[Pending, ...], rng: random.Random) -> tuple[str, tuple[Pending, ...]] | None:
    if not value:
        return None
    k = rng.randrange(len(value))
    item = value[k]
    part = rng.choice(Pending._fields)
    if part == "path":
        path = list(item.path)
        i = rng.randrange(len(path))
        path[i] = max(0, path[i] + rng.choice((-1, 1)))
        changed = item._replace(path=tuple(path))
    else:
        changed = item._replace(**{part: _number(getattr(item, part), rng)})
    return f"pending[{k}].{part}", (*value[:k], changed, *value[k + 1 :])


def mutated(game: Game, state: State, rng: random.Random) -> tuple[str, State] | None:
    """``state`` with one field changed within its type, and a label saying which; None when
    the drawn field has nothing to change (no pending effect)."""
    field = rng.choice(MUTABLE_FIELDS)
    value = getattr(state, field)
    if field == "stage":
        return "stage", state._replace(stage=rng.choice(state_checks.STAGES))
    if field == "triggers":
        triggers = list(value)
        if len(triggers) > 1 and rng.random() < 0.4:
            rng.shuffle(triggers)
        elif triggers and rng.random() < 0.5:
            triggers.pop(rng.randrange(len(triggers)))
        else:
            triggers.append(rng.choice(game.ruleset.trigger_names))
        return "triggers", state._replace(triggers=tuple(triggers))
    if field == "pending":
        found = _pending(value, rng)
        return None if found is None else (found[0], state._replace(pending=found[1]))
    if isinstance(value, int):
        return field, state._replace(**{field: _number(value, rng)})
    if isinstance(value, frozenset):
        member = rng.choice(_SMALL)
        return field, state._replace(**{field: value ^ {member}})
    if not value:
        return field, state._replace(**{field: (rng.choice(_SMALL),)})
    k = rng.randrange(len(value))
    return f"{field}[{k}]", state._replace(**{field: (*value[:k], _item(value[k], rng), *value[k + 1 :])})


def _reached(game: Game, players: int, seed: int, rng: random.Random) -> list[State]:
    state = game.new_state(players=players, seed=seed)
    states = [state]
    while state.legal:
        state = game.step(state, rng.choice(state.legal))
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "games"), [("draft7", 10), ("ideas", 12)])
def test_mutated_states_of_a_bundled_ruleset_get_one_answer_from_both_engines(name: str, games: int) -> None:
    """Draft 7 and ideas (every word of the language in play): hundreds of mutated states, each
    refused alike or played alike; enough of them accepted that the play is compared."""
    game = bundled_game(name)
    rng = random.Random(name)
    accepted = refused = 0
    for seed in range(games):
        players = rng.choice(game.ruleset.player_counts)
        for state in rng.sample(_reached(game, players, seed, rng), 20):
            found = mutated(game, state, rng)
            if found is not None:
                if assert_same_verdict(game, found[1], f"game {seed}, {found[0]}"):
                    refused += 1
                else:
                    accepted += 1
    assert accepted >= 4 * games and refused >= 4 * games, (accepted, refused)


@pytest.mark.slow
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(playout=generated_playouts(), mutation_seed=seeds)
def test_mutated_states_of_a_generated_ruleset_get_one_answer_from_both_engines(playout, mutation_seed) -> None:
    """Over random valid rulesets: a mutated state of a random game is refused alike or played
    alike."""
    game = playout.game
    rng = random.Random(mutation_seed)
    states = _reached(game, playout.players, playout.deal_seed, playout.policy())
    for state in rng.sample(states, min(8, len(states))):
        found = mutated(game, state, rng)
        if found is not None:
            assert_same_verdict(game, found[1], found[0])


# -- the states the two engines once played differently --------------------------------------


def _first(game: Game, seed: int, wanted) -> State:
    rng = random.Random(seed)
    for state in _reached(game, max(game.ruleset.player_counts), seed, rng):
        if wanted(state):
            return state
    raise AssertionError("no such state reached")


def _both_refuse(game: Game, state: State) -> list[str]:
    problems = state_checks.state_problems(game, state)
    assert native.kernel_for(game).state_problems(state) == problems
    return problems


def test_a_pending_effect_naming_its_own_crew_card_as_the_skill_it_applies_is_refused() -> None:
    """``skill_of`` names a skill a crew borrows (S10's use_skill); its own card there was read
    as the own skill by one engine and kept by the other."""
    game = bundled_game("draft7")
    state = _first(game, 1, lambda s: s.pending and s.pending[0].card == -1 and s.pending[0].slot >= 0)
    head = state.pending[0]
    own = state.crew[head.slot]
    changed = state._replace(pending=(head._replace(card=own), *state.pending[1:]))
    crew_id = game.ruleset.crew[own].id
    assert _both_refuse(game, changed) == [
        f"$.pending[0].skill_of: crew {crew_id!r} is the crew's own card: a crew applies another "
        "crew's skill (use_skill), never its own"
    ]


def test_a_crew_borrowing_its_own_skill_is_refused() -> None:
    """``borrowed`` names another crew's card (use_skill never offers the crew itself)."""
    game = bundled_game("draft7")
    state = game.new_state(players=4, seed=3)
    changed = state._replace(borrowed=(state.crew[0], *state.borrowed[1:]))
    crew_id = game.ruleset.crew[state.crew[0]].id
    assert _both_refuse(game, changed) == [
        f"$.crew[0].borrowed: crew {crew_id!r} is the crew's own card: a crew applies another "
        "crew's skill (use_skill), never its own"
    ]


def test_no_planet_is_surveyed_before_a_surveys_first_cube() -> None:
    """The pick clears the surveyed Planets; a survey stage with none placed naming one was
    kept by one engine (a cube-by-cube survey added to it) and cleared by the other."""
    game = bundled_game("ideas")
    state = _first(game, 2, lambda s: s.stage == SURVEYING and not s.survey_placed)
    changed = state._replace(surveyed=frozenset({0}))
    assert _both_refuse(game, changed) == ["$.survey.surveyed: no Planet is surveyed before the survey's first cube"]
    assert not assert_same_verdict(game, state, "the state as reached")


def test_end_triggers_out_of_the_rulesets_order_are_refused() -> None:
    """The log names why a game ended in the ruleset's order (R10): one order, one state."""
    game = bundled_game("draft7")
    state = _first(game, 4, lambda s: not s.legal)
    names = game.ruleset.trigger_names
    changed = state._replace(triggers=(names[1], names[0]))
    assert _both_refuse(game, changed) == [
        f"$.triggers: lists the triggers out of the ruleset's order ({', '.join(names)})"
    ]
    assert not assert_same_verdict(game, state._replace(triggers=(names[0], names[1])), "in order")
