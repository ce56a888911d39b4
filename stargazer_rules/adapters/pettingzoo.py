"""Stargazer as a PettingZoo AEC environment: ``env()`` is draft 7 at four seats.

Agents are ``player_0``... by seat; the one to act is the seat whose decision the state waits
for (the start player rotates, and Captain Armstrong's chooser decides out of turn, R12), so
``agent_iter`` follows the game rather than a fixed cycle. Each agent observes a ``Dict`` of
``observation`` (the fast API's vector of its seat, float32, bounded by the ruleset) and
``action_mask`` (int8, 1 for each legal action id; all 0 for an agent not to act), as
PettingZoo's classic games do. An action whose mask entry is 0 raises
``IllegalActionError``. Rewards are 0 until the end, then each seat's win credit (1/k to
each of k tied winners, R18). ``reset(seed=s)`` deals from a generator seeded with ``s``, so
equal seeds replay equal games; ``render_mode`` "ansi" returns and "human" prints the
observation text of the agent to act.
"""

from __future__ import annotations

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
)
from stargazer_rules.errors import IllegalActionError
from stargazer_rules.rulesets.resources import DEFAULT_RULESET

_pettingzoo = require("pettingzoo", "rl")
_wrappers = require("pettingzoo.utils.wrappers", "rl")
_spaces = require("gymnasium.spaces", "rl")


def env(**kwargs: Any):
    """The environment behind PettingZoo's order-enforcing wrapper (``raw_env`` is bare)."""
    return _wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(_pettingzoo.AECEnv):  # PettingZoo's name for the unwrapped class
    """One table of ``players`` seats of ``ruleset`` (a bundled name or a ruleset folder);
    after ``reset``, ``fast_state`` is the game in play (the fast API's) and ``deal_seed`` its deal."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "stargazer_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str = DEFAULT_RULESET, players: int = DEFAULT_PLAYERS, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}; write one of {self.metadata['render_modes']} or None")
        self.fast = fast_game(ruleset)
        self.players = check_players(self.fast, players, "stargazer_v0")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        low, high = observation_bounds(self.fast)
        space = _spaces.Dict(
            {
                "observation": _spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": _spaces.Box(low=0, high=1, shape=(self.fast.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: _spaces.Discrete(self.fast.num_actions) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self.fast_state = None

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new deal, drawn from the generator (seeded anew by ``seed``)."""
        seed = reset_seed(seed, "stargazer_v0.reset")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.deal_seed = int(self._rng.integers(2**63))
        self.fast_state = self.fast.new_state(players=self.players, seed=self.deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.fast_state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection:
            mask = legal_mask(self.fast_state)
        else:
            mask = np.zeros(self.fast.num_actions, np.int8)
        return {"observation": np.asarray(self.fast_state.observation(seat), np.float32), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.fast_state.legal_ids()
        if action is not None:
            action = action_id(action, f"stargazer_v0 {agent}")
        if action is None or action not in legal:
            raise IllegalActionError(f"{agent}: action {action} is not legal here; choose one of {sorted(legal)} (its action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.fast_state.step(action)
        if self.fast_state.is_over():
            returns = self.fast_state.returns()
            self.rewards = {name: float(returns[seat]) for seat, name in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[self.fast_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The observation text of the agent to act: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            raise ValueError("render() needs a render_mode: env(render_mode='ansi') or 'human'")
        text = self.fast_state.observation_text(self.possible_agents.index(self.agent_selection))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the table lives in memory."""
