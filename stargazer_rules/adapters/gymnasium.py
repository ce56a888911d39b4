"""Stargazer as a Gymnasium environment: one learning seat against the library's bots.

``StargazerEnv()`` is draft 7 at four seats, the learner in seat 0 and greedy bots in the
others; ``gymnasium.make("stargazer/Stargazer-v0")`` builds the same. Options: ``ruleset``
(a bundled name or a ruleset folder), ``players``, ``seat`` (a seat number, or ``"random"``
for a seat drawn at each reset) and ``opponents`` (one bot spec for every other seat, or one
per other seat in seat order, as ``stargazer simulate --lineup`` names them: ``"greedy"``,
``"random"``, ``"mcts:200"``).

The observation is the fast API's vector of the learner's seat (float32, bounded by the
ruleset); ``info["action_mask"]`` (int8, 1 for each legal action id) and ``action_masks()``
say which of the ``Discrete(num_actions)`` actions are legal. A step plays the learner's
action and then the bots' decisions up to the learner's next one. The reward is 0 until the
end, then the learner's win credit (1/k to each of k tied winners, R18). An action that is
not legal ends the episode at once with reward ``illegal_reward`` (-1 by default) and
``info["illegal_action"]``: a learner that ignores the mask is told so, not stopped.
``reset(seed=s)`` seeds the deal and the bots from ``s``, so equal seeds replay equal games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from stargazer_rules.adapters.shared import (
    DEFAULT_PLAYERS,
    action_id,
    check_players,
    fast_game,
    legal_mask,
    observation_bounds,
    require,
    reset_seed,
    reward,
)
from stargazer_rules.bots import make_bot, parse_spec
from stargazer_rules.rulesets.resources import DEFAULT_RULESET

gym = require("gymnasium", "rl")
_spaces = require("gymnasium.spaces", "rl")

#: The id ``gymnasium.make`` knows the environment by.
ENV_ID = "stargazer/Stargazer-v0"

#: The bot in every other seat when none is named.
DEFAULT_OPPONENT = "greedy"


class StargazerEnv(gym.Env):
    """One learning seat at a table of ``players`` whose other seats ``opponents`` play; after
    ``reset``, ``fast_state`` is the game in play (the fast API's) and ``deal_seed`` its deal."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        ruleset: str = DEFAULT_RULESET,
        players: int = DEFAULT_PLAYERS,
        seat: int | str = 0,
        opponents: str | Sequence[str] = DEFAULT_OPPONENT,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}; write one of {self.metadata['render_modes']} or None")
        self.fast = fast_game(ruleset)
        self.players = check_players(self.fast, players, "StargazerEnv")
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"StargazerEnv: seat={seat!r}; write a seat from 0 to {players - 1} or 'random'")
        self.seat_option = seat
        if not isinstance(opponents, (str, Sequence)) or any(not isinstance(spec, str) for spec in opponents):
            raise ValueError(f"StargazerEnv: opponents={opponents!r}; name one bot spec (e.g. 'greedy') or a list of {players - 1}")
        specs = (opponents,) * (players - 1) if isinstance(opponents, str) else tuple(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"StargazerEnv: {len(specs)} opponents for the {players - 1} other seats; name one bot spec or {players - 1}")
        for spec in specs:
            parse_spec(spec)  # a misspelt bot fails here, with its "did you mean"
        self.opponent_specs = specs
        self.illegal_reward = reward(illegal_reward, "illegal_reward", "StargazerEnv")
        self.render_mode = render_mode
        low, high = observation_bounds(self.fast)
        self.observation_space = _spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = _spaces.Discrete(self.fast.num_actions)
        self.fast_state = None
        self.seat = seat if seat != "random" else 0
        self._bots: dict[int, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new deal and new bots, both drawn from the environment's generator."""
        super().reset(seed=reset_seed(seed, "StargazerEnv.reset"))
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(self.players))
        self.deal_seed = int(self.np_random.integers(2**63))
        self.fast_state = self.fast.new_state(players=self.players, seed=self.deal_seed)
        others = [seat for seat in range(self.players) if seat != self.seat]
        self._bots = {
            seat: make_bot(spec, int(self.np_random.integers(2**63))) for seat, spec in zip(others, self.opponent_specs)
        }
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action):
        if self.fast_state is None:
            raise ValueError("step() before reset(): call reset() first")
        if self.fast_state.is_over():
            raise ValueError("step() after the episode ended: call reset() first")
        action = action_id(action, "StargazerEnv.step")
        if action not in self.fast_state.legal_ids():
            return self._observation(), self.illegal_reward, True, False, {**self._info(), "illegal_action": True}
        self.fast_state.step(action)
        self._play_bots()
        over = self.fast_state.is_over()
        reward = float(self.fast_state.returns()[self.seat]) if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Which actions are legal now (1) and which not (0); all 0 once the game is over."""
        return legal_mask(self.fast_state)

    def render(self) -> str | None:
        """The learner's observation text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            return None
        text = self.fast_state.observation_text(self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _play_bots(self) -> None:
        """The bots' decisions up to the learner's next one, or the end."""
        game = self.fast.game
        while not self.fast_state.is_over() and self.fast_state.current_player() != self.seat:
            bot = self._bots[self.fast_state.current_player()]
            self.fast_state.step(self.fast.action_id(bot.choose(game, self.fast_state.to_state())))

    def _observation(self) -> np.ndarray:
        return np.asarray(self.fast_state.observation(self.seat), np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat, "deal_seed": self.deal_seed}


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point=StargazerEnv)
