"""One answer from both engines to a state handed to them: the same problems from both checkers
(``engine/state_checks.py`` and the kernel's ``check.rs``), or, when both accept it, the same
play. Used by the corrupt, extreme and mutated state tests (test_state_checks.py,
test_mutated_states.py)."""

from __future__ import annotations

import random

import pytest

from differential import canonical
from stargazer_rules import Game, RecordError, State
from stargazer_rules.engine import state_checks
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary.actions import action

#: Decisions played in lockstep from a state both engines accept.
LOCKSTEP_DECISIONS = 12


def assert_same_verdict(game: Game, state: State, label: str) -> bool:
    """Both checkers give the same problems; when there are none, both engines play the state
    alike for ``LOCKSTEP_DECISIONS`` decisions, legal actions and whole states (player cubes on
    crews as multisets, ``differential.canonical``). True when the state is refused."""
    kernel = native.kernel_for(game)
    assert kernel is not None, native.fallback_reason(game)
    python_problems = state_checks.state_problems(game, state)
    kernel_problems = kernel.state_problems(state)
    assert python_problems == kernel_problems, label
    if python_problems:
        with pytest.raises(RecordError) as caught:
            kernel.read_state(state)
        assert str(caught.value) == "not a state of this ruleset: " + "; ".join(python_problems)
        return True
    mine = state_checks.checked_state(game, state)
    theirs = kernel.read_state(state)
    rng = random.Random(0)
    for decision in range(LOCKSTEP_DECISIONS):
        assert tuple(action(*act) for act in theirs.legal()) == mine.legal, f"{label}, decision {decision}"
        assert canonical(native.from_kernel(theirs)) == canonical(mine), f"{label}, decision {decision}"
        if not mine.legal:
            break
        act = rng.choice(mine.legal)
        mine = game.step(mine, act)
        theirs.step(act)
    return False


def on_both(g: Game, state: State, acts) -> tuple[State, list]:
    """Apply ``acts`` on both engines from ``state``; they must agree after each, and each state
    must pass both checkers. The Python state and every event on the way."""
    assert native.kernel_for(g) is not None, native.fallback_reason(g)
    events = []
    for act in acts:
        after, happened = g.apply(state, act)
        kernel = native.to_kernel(g, state)
        kernel.step(act)
        assert canonical(native.from_kernel(kernel)) == canonical(after)
        assert state_checks.state_problems(g, after) == []
        assert native.kernel_for(g).state_problems(after) == []
        events += happened
        state = after
    return state, events
