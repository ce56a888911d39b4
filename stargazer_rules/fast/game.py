"""The fast API: integer actions, fixed-size observations and batched stepping over the kernel.

``FastGame`` is one ruleset compiled for the native kernel with its action index and
observation layout; ``FastState`` (the kernel's class, ``crates/python/src/fast.rs``) a mutable
game stepped in place by action id; ``FastBatch`` N games stepped together, read and written
as numpy arrays (numpy is imported only by the batch: the single-state API needs nothing but
the kernel). The rules are the kernel's, proven equal to the Python engine's
(``tests/test_kernel.py``); ``to_state`` gives the Python engine's ``State`` of any moment.
The action index is laid out from ``Game.action_sizes`` (``action_index``), which the kernel
receives in the compiled ruleset, and so is the observation's (``Game.observation_layout``),
which the kernel fills as received (``observation`` the oracle); tests/test_fast_api.py holds
both equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.engine.seeds import check_seed
from stargazer_rules.fast.action_index import ActionIndex
from stargazer_rules.fast.limits import check_batch_size, integer
from stargazer_rules.fast.observation import observation_range, observation_text
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State

try:
    from stargazer_rules._kernel import FastState
except ImportError:  # a source tree without a build: FastGame says why it cannot play
    FastState = None  # type: ignore[assignment,misc]


class FastGame:
    """A ruleset on the kernel, with its action index and observation layout.

    ``FastGame()`` is the bundled draft 7; ``FastGame(source)`` takes a ``Ruleset``, a ``Game``
    (its compiled kernel is reused) or a bundled ruleset's name. A ruleset the kernel cannot
    play raises ValueError saying why (``native.fallback_reason``).
    """

    def __init__(self, source: Ruleset | Game | str | None = None) -> None:
        if isinstance(source, Game):
            game = source
        else:
            game = Game(source if isinstance(source, Ruleset) else load_ruleset(source))
        kernel = native.kernel_for(game)
        if kernel is None:
            raise ValueError(f"the fast API plays on the native kernel, which cannot play this ruleset: {native.fallback_reason(game)}")
        from stargazer_rules._kernel import FastCore

        self.game = game
        self.ruleset = game.ruleset
        self.index = ActionIndex.of(game)
        self.layout = game.observation_layout
        self.num_actions = self.index.size
        self.observation_size = self.layout.size
        self.observation_fields = list(self.layout.fields)
        #: The least and most of each observation entry, from the ruleset's bounds.
        self.observation_low, self.observation_high = observation_range(game, self.layout)
        self.max_players = game.bounds.most_players
        self.min_players = min(self.ruleset.player_counts)
        #: The most legal actions a state lists: the width of ``FastBatch.legal_ids``.
        self.max_legal = self.index.most_legal
        self.core = FastCore(kernel)
        self._kernel = kernel

    def action_id(self, act: Action) -> int:
        """The id of ``act``; ValueError for an action the ruleset can never ask for."""
        return self.index.id_of(act)

    def action_of(self, action_id: int) -> Action:
        """The action of ``action_id``; ValueError outside 0..num_actions-1."""
        return self.index.action_of(action_id)

    def new_state(self, players: int, seed: int | None = None) -> FastState:
        """The game the Python engine deals for ``seed`` (``Game.deal``; a fresh random deal
        for None); SetupError for a player count the ruleset does not support."""
        players = self._players(players)
        if seed is None:
            setup = self.game.deal(players, None)
            planets, _ = self.game.card_indices(setup)
            crew = self.game.deck_indices(setup)  # the dealt crew, then R11's queue
            return self.core.state_of_setup(self, players, list(planets), list(crew), setup.start_player)
        return self.core.new_state(self, players, check_seed(seed))

    def _players(self, players: object) -> int:
        """``players`` when the ruleset has a table of that size; else TypeError, or the
        engine's SetupError naming the sizes it has (``Game.deal`` words it)."""
        players = integer(players, "players")
        if players not in self.ruleset.player_counts:
            self.game.deal(players, 0)  # raises the one SetupError of an unsupported count
        return players

    def from_state(self, state: State) -> FastState:
        """A fast state of a Python engine ``State``, checked like ``native.to_kernel``."""
        return self.core.state_of_kernel_state(self, native.to_kernel(self.game, state))

    def batch(self, n: int, players: int, seeds: Iterable[int] | None = None, *, auto_reset: bool = False) -> FastBatch:
        """``n`` games of ``players`` dealt from ``seeds`` (default 0..n-1); see ``FastBatch``.
        ValueError, before anything is allocated, for a batch past ``limits.MAX_BATCH_BYTES``."""
        return FastBatch(self, n, players, seeds, auto_reset=auto_reset)

    # -- what the kernel's FastState asks of Python ------------------------------------

    def _to_state(self, state: Any) -> State:
        return native.from_kernel(state)

    def _observation_text(self, state: Any, seat: int) -> str:
        return observation_text(self.game, state.to_state(), seat)


class FastBatch:
    """``n`` games of one player count in the kernel, stepped together with numpy arrays.

    ``step(ids)`` takes one id per game (ignored for games over) and returns which games ended
    on it. With ``auto_reset`` a game that ends is dealt again at once, from the next seed of
    a counter that starts after the largest initial seed; ``final_returns()`` keeps each
    game's returns from when it last ended.
    """

    def __init__(self, fast: FastGame, n: int, players: int, seeds: Iterable[int] | None, *, auto_reset: bool) -> None:
        n = check_batch_size(fast, n)
        players = fast._players(players)
        # One seed past n is enough to tell too many: a long or endless iterable is not read whole.
        seeds = [check_seed(seed) for seed in itertools.islice(range(n) if seeds is None else seeds, n + 1)]
        if len(seeds) != n:
            raise ValueError(f"a batch of {n} games needs {n} seeds, not {len(seeds) if len(seeds) < n else 'more'}")
        self.fast = fast
        self.players = players
        self.auto_reset = auto_reset
        self._core = fast.core.batch(fast, players, seeds, auto_reset)
        self._n = n
        self.states = _BatchStates(self._core)

    def __len__(self) -> int:
        return self._n

    def reset(self, i: int, seed: int) -> None:
        """Deal game ``i`` again from ``seed``."""
        i = integer(i, "a game of the batch")
        if not 0 <= i < self._n:
            raise IndexError(f"game {i} is not in a batch of {self._n}")
        self._core.reset(i, check_seed(seed))

    def legal_mask(self):
        """numpy bool (n, num_actions): True where the action is legal."""
        import numpy as np

        mask = np.empty((self._n, self.fast.num_actions), dtype=np.bool_)
        self._core.legal_mask(mask.view(np.uint8))
        return mask

    def legal_ids(self):
        """(ids, counts): ids int32 (n, max_legal) in the engine's legal order padded with -1,
        counts int32 (n,)."""
        import numpy as np

        ids = np.empty((self._n, self.fast.max_legal), dtype=np.int32)
        counts = np.empty(self._n, dtype=np.int32)
        self._core.legal_ids(ids, counts)
        return ids, counts

    def step(self, ids: Sequence[int]):
        """Play one id per game (ignored for a game over); numpy bool (n,): the games that
        ended on this step. IllegalActionError naming the game, and no game moves, when an
        id is not legal in its game; TypeError for ids that are not integers (bool, float or
        text arrays are refused, never converted)."""
        import numpy as np

        ids = np.asarray(ids)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"step takes integer action ids (an int32 or int64 array), not an array of {ids.dtype}")
        if ids.dtype != np.int32:  # the kernel reads int32 ids (those of legal_ids) or int64
            ids = np.ascontiguousarray(ids, dtype=np.int64)
        elif not ids.flags.c_contiguous:
            ids = np.ascontiguousarray(ids)
        if ids.shape != (self._n,):
            raise ValueError(f"step takes one id per game: shape ({self._n},), not {ids.shape}")
        ended = np.empty(self._n, dtype=np.bool_)
        self._core.step(ids, ended.view(np.uint8))
        return ended

    def current_player(self):
        """numpy int32 (n,): each game's seat to decide, -1 when over."""
        import numpy as np

        out = np.empty(self._n, dtype=np.int32)
        self._core.current_player(out)
        return out

    def is_over(self):
        import numpy as np

        out = np.empty(self._n, dtype=np.bool_)
        self._core.is_over(out.view(np.uint8))
        return out

    def returns(self):
        """numpy float32 (n, max_players): each game's returns as it stands (0s until over)."""
        import numpy as np

        out = np.empty((self._n, self.fast.max_players), dtype=np.float32)
        self._core.returns(out)
        return out

    def final_returns(self):
        """numpy float32 (n, max_players): each game's returns when it last ended (0s before)."""
        import numpy as np

        out = np.empty((self._n, self.fast.max_players), dtype=np.float32)
        self._core.final_returns(out)
        return out

    def observations(self, seat: int | None = None):
        """numpy float32 (n, observation_size): each game seen by ``seat``, or by its player
        to move (None; seat 0 for a game over)."""
        import numpy as np

        if seat is not None:
            seat = integer(seat, "a seat")
        out = np.empty((self._n, self.fast.observation_size), dtype=np.float32)
        self._core.observations(out, seat)
        return out


class _BatchStates:
    """``batch.states[i]``: a ``FastState`` copy of game ``i``."""

    def __init__(self, core: Any) -> None:
        self._core = core

    def __len__(self) -> int:
        return len(self._core)

    def __getitem__(self, i: int) -> FastState:
        i = integer(i, "a game of the batch")
        if not -len(self) <= i < len(self):
            raise IndexError(f"game {i} is not in a batch of {len(self)}")
        return self._core.state(i % len(self))
