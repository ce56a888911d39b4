"""A rule-based state machine that plays Stargazer: Hypothesis chooses every decision.

Where test_properties.py plays seeded games, here each decision is drawn from Hypothesis' data,
so a failing game shrinks decision by decision to a short one. The machine deals a game on a
bundled or generated ruleset, then either takes one decision (``decide``) or lets the seeded
progressing policy play a stretch of the game (``play_on``, so that games reach their end); the
invariants check cube conservation and the legal actions after every step (hypothesis
``docs/stateful.rst``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from invariants import check_cubes, check_legal
from stargazer_rules.engine.game import Game
from stargazer_rules.vocabulary.table import State
from strategies import Playout, choose, playouts, seeds


def _dealt(machine: RandomGame) -> bool:
    return machine.state is not None


def _going_on(machine: RandomGame) -> bool:
    return machine.state is not None and not machine.game.is_over(machine.state)


def _over(machine: RandomGame) -> bool:
    return machine.state is not None and machine.game.is_over(machine.state)


class RandomGame(RuleBasedStateMachine):
    """One game, its decisions drawn by Hypothesis."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.state: State | None = None

    @initialize(playout=st.sampled_from(("draft7", "base", "generated")).flatmap(playouts))
    def deal(self, playout: Playout) -> None:
        self.game = playout.game
        self.state = playout.new_state()

    @precondition(_going_on)
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """Take one decision, any of the legal actions."""
        self.state = self.game.step(self.state, data.draw(st.sampled_from(self.state.legal), label="action"))

    @precondition(_going_on)
    @rule(seed=seeds, decisions=st.integers(1, 60))
    def play_on(self, seed: int, decisions: int) -> None:
        """Let the seeded progressing policy take up to ``decisions`` decisions."""
        rng = random.Random(seed)
        for _ in range(decisions):
            if self.game.is_over(self.state):
                return
            self.state = self.game.step(self.state, choose(self.game, self.state, rng))

    @precondition(_over)
    @rule()
    def final_score(self) -> None:
        """R18: a finished game has a final score sheet with at least one winner."""
        sheet = self.game.score(self.state)
        assert sheet.final
        assert sheet.winners and set(sheet.winners) <= set(range(self.state.players))

    @precondition(_dealt)
    @invariant()
    def cubes_are_conserved(self) -> None:
        check_cubes(self.game, self.state)

    @precondition(_dealt)
    @invariant()
    def legal_actions_until_over(self) -> None:
        check_legal(self.game, self.state)

    @precondition(_dealt)
    @invariant()
    def provisional_score_adds_up(self) -> None:
        for seat in self.game.score(self.state).seats:
            assert seat.total == seat.majority_vp + seat.bonus_vp + seat.play_vp + seat.lines_vp, seat


# A step is cheap: twice the profile's examples, 40 steps each (half of the games reach the end).
RandomGame.TestCase.settings = settings(max_examples=2 * settings().max_examples, stateful_step_count=40)
TestRandomGame = pytest.mark.slow(RandomGame.TestCase)


class FewRandomGames(RandomGame):
    """The same machine on a few games: the everyday tier's run of it (the whole suite runs
    ``TestRandomGame``)."""


FewRandomGames.TestCase.settings = settings(max_examples=6, stateful_step_count=40)
TestFewRandomGames = FewRandomGames.TestCase
