"""A built-in bot whose search runs in the native kernel where the ruleset allows.

``make_bot`` wraps the greedy and MCTS bots in ``KernelBackedBot``: one Python call per
decision reads the state into the kernel (``native.to_kernel``, trusted: a bot is given states
the Python engine made or its checker passed, so only their shape is checked), and the kernel's bot of the
same kind and parameters searches there without the GIL. A ruleset the kernel cannot compile
(a plugin effect type) is played by the wrapped Python bot instead, so the answer is never
wrong, only slower. The kernel bot keeps its own seeded generator: a decision is a pure
function of the seed, the decisions asked before and the state, as for the Python bots; the
two engines' bots are equally strong (benchmarks/skill_ladder.py), not move for move alike.
"""

from __future__ import annotations

import time
from typing import Any

from stargazer_rules.bots.base import BotTimeout, deadline, use_kernel_bots
from stargazer_rules.engine.game import Game
from stargazer_rules.kernel import native
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State


class KernelBackedBot:
    """The kernel's ``kind`` bot with ``params`` for rulesets it compiles; ``python`` otherwise."""

    def __init__(self, kind: str, seed: int, params: dict[str, Any], python: Any) -> None:
        self.spec = python.spec
        self.kind = kind
        self.seed = seed
        self.params = dict(params)
        self.python = python
        self._native: Any = None
        self._values_of: Any = None  # whichever bot made the last decision, or None if forced

    def engine_for(self, game: Game) -> str:
        """The engine that makes this bot's decisions in ``game``."""
        return native.engine_for(game, "native")

    def last_values(self) -> list[float] | None:
        """The root's values of the last decision, from the engine that made it."""
        return None if self._values_of is None else self._values_of.last_values()

    def choose(self, game: Game, state: State) -> Action:
        self._values_of = None
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        kernel = native.kernel_for(game)
        if kernel is None:
            self._values_of = self.python
            return self.python.choose(game, state)
        if self._native is None:
            self._native = native.kernel_bot(self.kind, self.seed, self.params)
        self._values_of = self._native
        until = deadline()  # bots.time_limit: the kernel's search checks it as the Python one does
        seconds = None if until is None else max(0.0, until - time.monotonic())
        # The state was made by the Python engine or passed its checker: not checked again.
        chosen = self._native.choose(native.to_kernel(game, state, trusted=True), seconds)
        if chosen is None:
            raise BotTimeout(f"{self.spec} ran out of time in the native kernel")
        return native.to_action(chosen)


use_kernel_bots(KernelBackedBot)
