"""Playing the Python engine and the native kernel in lockstep: the differential test's engine.

Both engines play the same setup; at every decision the current player, the legal actions (in
the same order), the whole state and the provisional totals the bots judge by must be equal (player cubes on crews compared as multisets: the
kernel keeps a count per owner, the rules only count them, R6), and at the end the score sheets
(R15-R18) and the winners. Any difference raises ``Mismatch`` naming the decision and the field.
Used by tests/test_kernel_differential.py and benchmarks/differential.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from stargazer_rules import Action, Game, Setup, State
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.kernel import native


class Mismatch(AssertionError):
    """The two engines disagree."""


def canonical(state: State) -> State:
    """The state with player cubes on crews sorted by owner and the legal actions as a set."""
    return state._replace(
        crew_cubes=tuple(tuple(sorted(cubes)) for cubes in state.crew_cubes),
        legal=frozenset(state.legal),
    )


def kernel_state(game: Game, setup: Setup) -> Any:
    kernel = native.kernel_for(game)
    assert kernel is not None, native.fallback_reason(game)
    rules = game.ruleset
    planets = [next(i for i, card in enumerate(rules.planets) if card.id == p) for p in setup.planets]
    crew = [next(i for i, card in enumerate(rules.crew) if card.id == c) for c in setup.crew + setup.queue]  # then R11's queue
    return kernel.new_state(setup.players, planets, crew, setup.start_player)


def _check(game: Game, state: State, theirs: Any, decision: int) -> None:
    mine = canonical(state)
    other = canonical(native.from_kernel(theirs))
    if mine != other:
        fields = [f"{name}: python {a!r} kernel {b!r}" for name, a, b in zip(State._fields, mine, other) if a != b]
        raise Mismatch(f"decision {decision}: " + "; ".join(fields))
    if game.current_player(state) != theirs.current_player():
        raise Mismatch(f"decision {decision}: current player {game.current_player(state)} vs {theirs.current_player()}")
    # The bots' evaluation: the provisional totals of the board as it stands (R15-R18).
    if tuple(theirs.totals()) != provisional_totals(game, state):
        raise Mismatch(f"decision {decision}: totals python {provisional_totals(game, state)} kernel {theirs.totals()}")
    # The boundary both ways: the Python state read into the kernel gives the same state.
    again = canonical(native.from_kernel(native.to_kernel(game, state)))
    if again != mine:
        fields = [f"{name}" for name, a, b in zip(State._fields, mine, again) if a != b]
        raise Mismatch(f"decision {decision}: round trip through the kernel changes {', '.join(fields)}")


def play_lockstep(
    game: Game,
    setup: Setup,
    rng: random.Random,
    check_every: int = 1,
    choose: Callable[[State], Action] | None = None,
) -> int:
    """Play one game on both engines, each decision ``choose(state)`` (default: uniformly random
    from ``rng``); the number of decisions."""
    state = game.new_state(setup=setup)
    theirs = kernel_state(game, setup)
    decision = 0
    while True:
        if decision % check_every == 0 or not state.legal:
            _check(game, state, theirs, decision)
        if not state.legal:
            break
        act = rng.choice(state.legal) if choose is None else choose(state)
        state = game.step(state, act)
        theirs.step(act)
        decision += 1
    _check(game, state, theirs, decision)
    sheet = game.score(state)
    python_lines = [(s.majority_vp, s.bonus_vp, s.play_vp, s.total, s.hand) for s in sheet.seats]
    if python_lines != theirs.seat_totals():
        raise Mismatch(f"score sheet: python {python_lines} kernel {theirs.seat_totals()}")
    python_scoring = [[vp for _, vp in s.lines] for s in sheet.seats]
    if python_scoring != theirs.scoring_lines():
        raise Mismatch(f"end_scoring lines: python {python_scoring} kernel {theirs.scoring_lines()}")
    if list(sheet.winners) != theirs.winners():
        raise Mismatch(f"winners: python {sheet.winners} kernel {theirs.winners()}")
    return decision
