"""The fast API: integer actions, fixed-size observations and batched stepping over the kernel.

``FastGame`` is one ruleset compiled for the native kernel with its action index and
observation layout; ``FastState`` a mutable game in the kernel, stepped in place by action
id; ``FastBatch`` N games stepped together, read and written as numpy arrays (numpy is
imported only by the batch's methods: the single-state API needs nothing but the kernel).
The rules are the kernel's, proven equal to the Python engine's (``tests/test_kernel.py``);
``to_state`` gives the Python engine's ``State`` of any moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import IllegalActionError
from stargazer_rules.fast.action_index import ActionIndex
from stargazer_rules.fast.observation import ObservationLayout, observation_text, observe
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State


class FastGame:
    """A ruleset on the kernel, with its action index and observation layout.

    ``FastGame()`` is the bundled draft 7; ``FastGame(source)`` takes a ``Ruleset``, a ``Game``
    or a bundled ruleset's name. A ruleset the kernel cannot play raises ValueError saying why.
    """

    def __init__(self, source: Ruleset | Game | str | None = None) -> None:
        if isinstance(source, Game):
            game = source
        else:
            game = Game(source if isinstance(source, Ruleset) else load_ruleset(source))
        kernel = native.kernel_for(game)
        if kernel is None:
            raise ValueError(f"the fast API plays on the native kernel, which cannot play this ruleset: {native.fallback_reason(game)}")
        self.game = game
        self.ruleset = game.ruleset
        self.kernel = kernel
        self.index = ActionIndex.of(game)
        self.layout = ObservationLayout.of(game)
        self.num_actions = self.index.size
        self.observation_size = self.layout.size
        self.observation_fields = list(self.layout.fields)
        self.max_players = game.bounds.most_players
        self.min_players = min(self.ruleset.player_counts)
        legal_bound = game.most_legal_actions
        #: The most legal actions a state lists: the width of ``FastBatch.legal_ids``.
        self.max_legal = self.num_actions if legal_bound is None else min(legal_bound, self.num_actions)
        self._crew_index = {card.id: i for i, card in enumerate(self.ruleset.crew)}
        self._planet_index = {card.id: i for i, card in enumerate(self.ruleset.planets)}

    def action_id(self, act: Action) -> int:
        """The id of ``act``; ValueError for an action the ruleset can never ask for."""
        return self.index.id_of(act)

    def action_of(self, action_id: int) -> Action:
        """The action of ``action_id``; ValueError outside 0..num_actions-1."""
        return self.index.action_of(action_id)

    def new_state(self, players: int, seed: int | None = None) -> FastState:
        """The game the Python engine deals for ``seed`` (``Game.deal``); SetupError for a
        player count the ruleset does not support."""
        setup = self.game.deal(players, seed)
        kernel_state = self.kernel.new_state(
            players,
            [self._planet_index[card] for card in setup.planets],
            [self._crew_index[card] for card in setup.crew],
            setup.start_player,
        )
        return FastState(self, kernel_state)

    def from_state(self, state: State) -> FastState:
        """A fast state of a Python engine ``State``, checked like ``native.to_kernel``."""
        return FastState(self, native.to_kernel(self.game, state))

    def batch(self, n: int, players: int, seeds: Iterable[int] | None = None, *, auto_reset: bool = False) -> FastBatch:
        """``n`` games of ``players`` dealt from ``seeds`` (default 0..n-1); see ``FastBatch``."""
        return FastBatch(self, n, players, seeds, auto_reset=auto_reset)


class FastState:
    """One game in the kernel, stepped in place by action id."""

    __slots__ = ("fast", "_kernel_state")

    def __init__(self, fast: FastGame, kernel_state: Any) -> None:
        self.fast = fast
        self._kernel_state = kernel_state

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, in the engine's legal order."""
        ids = self.fast.index.ids
        return [ids[act] for act in self._kernel_state.legal()]

    def legal_mask(self) -> bytes:
        """``num_actions`` bytes, 1 where the action is legal."""
        mask = bytearray(self.fast.num_actions)
        for i in self.legal_ids():
            mask[i] = 1
        return bytes(mask)

    def step(self, action_id: int) -> None:
        """Play the action ``action_id``; IllegalActionError when it is not legal here."""
        try:
            act = self.fast.index.action_of(action_id)
        except ValueError as error:
            raise IllegalActionError(str(error)) from None
        self._kernel_state.step(act)

    def copy(self) -> FastState:
        return FastState(self.fast, self._kernel_state.copy())

    def current_player(self) -> int:
        """The seat to decide, -1 when the game is over."""
        seat = self._kernel_state.current_player()
        return -1 if seat is None else seat

    def is_over(self) -> bool:
        return self._kernel_state.is_over()

    def returns(self) -> list[float]:
        """Per seat, its share of the win (1/k to each of k tied winners, R18), 0s until over."""
        players = len(self._kernel_state.totals())
        out = [0.0] * players
        if self._kernel_state.is_over():
            winners = self._kernel_state.winners()
            for seat in winners:
                out[seat] = 1.0 / len(winners)
        return out

    def scores(self) -> list[int]:
        """Per seat, the total of the score sheet as it stands (R15-R18)."""
        return list(self._kernel_state.totals())

    def to_state(self) -> State:
        """The Python engine's ``State`` of this moment."""
        return native.from_kernel(self._kernel_state)

    def observation(self, seat: int) -> list[float]:
        """The observation vector of ``seat`` (``observation_fields``)."""
        return observe(self.fast.game, self.fast.layout, self.to_state(), seat)

    def observation_text(self, seat: int) -> str:
        return observation_text(self.fast.game, self.to_state(), seat)


class FastBatch:
    """``n`` games of one player count, stepped together with numpy arrays.

    ``step(ids)`` takes one id per game (ignored for games over) and returns which games ended
    on it. With ``auto_reset`` a game that ends is dealt again at once, from the next seed of
    a counter that starts after the largest initial seed; its returns stay in
    ``final_returns`` until that slot's next game ends.
    """

    def __init__(self, fast: FastGame, n: int, players: int, seeds: Iterable[int] | None, *, auto_reset: bool) -> None:
        import numpy as np

        seeds = list(range(n) if seeds is None else seeds)
        if len(seeds) != n:
            raise ValueError(f"a batch of {n} games needs {n} seeds, not {len(seeds)}")
        self.fast = fast
        self.players = players
        self.auto_reset = auto_reset
        self.states = [fast.new_state(players, seed) for seed in seeds]
        self._next_seed = max(seeds, default=-1) + 1
        self.final_returns = np.zeros((n, fast.max_players), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.states)

    def reset(self, i: int, seed: int) -> None:
        """Deal game ``i`` again from ``seed``."""
        self.states[i] = self.fast.new_state(self.players, seed)

    def legal_mask(self):
        import numpy as np

        mask = np.zeros((len(self.states), self.fast.num_actions), dtype=bool)
        for i, state in enumerate(self.states):
            mask[i, state.legal_ids()] = True
        return mask

    def legal_ids(self):
        """(ids, counts): ids int32 (n, max_legal) padded with -1, counts int32 (n,)."""
        import numpy as np

        ids = np.full((len(self.states), self.fast.max_legal), -1, dtype=np.int32)
        counts = np.zeros(len(self.states), dtype=np.int32)
        for i, state in enumerate(self.states):
            legal = state.legal_ids()
            ids[i, : len(legal)] = legal
            counts[i] = len(legal)
        return ids, counts

    def step(self, ids: Sequence[int]):
        import numpy as np

        ids = np.asarray(ids)
        if ids.shape != (len(self.states),):
            raise ValueError(f"step takes one id per game: shape ({len(self.states)},), not {ids.shape}")
        ended = np.zeros(len(self.states), dtype=bool)
        for i, state in enumerate(self.states):
            if state.is_over():
                continue
            state.step(int(ids[i]))
            if state.is_over():
                ended[i] = True
                returns = state.returns()
                self.final_returns[i, : len(returns)] = returns
                if self.auto_reset:
                    self.reset(i, self._next_seed)
                    self._next_seed += 1
        return ended

    def current_player(self):
        import numpy as np

        return np.array([state.current_player() for state in self.states], dtype=np.int32)

    def is_over(self):
        import numpy as np

        return np.array([state.is_over() for state in self.states], dtype=bool)

    def returns(self):
        import numpy as np

        out = np.zeros((len(self.states), self.fast.max_players), dtype=np.float32)
        for i, state in enumerate(self.states):
            returns = state.returns()
            out[i, : len(returns)] = returns
        return out

    def observations(self, seat: int | None = None):
        """float32 (n, observation_size): each game seen by ``seat``, or by its player to move
        (None; seat 0 for a game over)."""
        import numpy as np

        out = np.zeros((len(self.states), self.fast.observation_size), dtype=np.float32)
        for i, state in enumerate(self.states):
            viewer = seat if seat is not None else max(state.current_player(), 0)
            out[i] = state.observation(viewer)
        return out
