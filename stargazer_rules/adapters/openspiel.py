"""Stargazer as an OpenSpiel game: importing this module registers ``python_stargazer``.

``pyspiel.load_game("python_stargazer")`` is draft 7 at four seats; the parameters are
``ruleset`` (a bundled name or a ruleset folder), ``players`` and ``deals``.

- **The deal is one explicit chance node**, the first move: it chooses one of ``deals`` seeds
  (uniformly, 1,000 by default), and outcome ``i`` is ``Game.deal(players, seed=i)`` (R14), the
  deal ``stargazer play-random --seed i`` plays. OpenSpiel's algorithms expand, sample and
  count explicit chance nodes (MCTS samples them, CFR and the exact evaluators enumerate
  them); a sampled-stochastic game would hide the deal in a random-number generator that
  ``clone`` copies, so a search would see one deal as certain. Every outcome of a node is
  listed, so ``deals`` is bounded (``MOST_DEALS``). After the deal the rules draw nothing at
  random: every other node is a decision.
- **Perfect information**: every cube, card and hand is on the table.
- **Terminal returns are win credit**, as the fast API's ``returns``: 1/k to each of the k
  tied winners (R18), 0 to the others; constant-sum 1. Winning is the game's objective (R15-R18
  rank seats; a margin of VP wins nothing more), and it is what the balance runs measure.
- **Observations** are the fast API's: ``observation(seat)`` as the tensor and
  ``observation_text(seat)`` as the string. The information state string is the history
  (OpenSpiel's observer for public-information games), as perfect recall asks.

Clones, pickles and ``serialize`` carry the fast state (a clone copies it; a pickle replays the
deal and the moves on the ruleset loaded by name).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from stargazer_rules.adapters.shared import (
    DEFAULT_PLAYERS,
    action_id,
    check_players,
    fast_game,
    require,
)
from stargazer_rules.bots.base import Bot
from stargazer_rules.fast import FastGame
from stargazer_rules.formats.actions_json import action_to_json
from stargazer_rules.rulesets.resources import DEFAULT_RULESET
from stargazer_rules.vocabulary.table import State

pyspiel = require("pyspiel", "openspiel")
_observation = require("open_spiel.python.observation", "openspiel")

#: The name the game is registered under.
GAME_NAME = "python_stargazer"

#: Seeds the chance node chooses among by default.
DEFAULT_DEALS = 1000

#: The most seeds a chance node may choose among: ``chance_outcomes`` lists each of them.
MOST_DEALS = 2**20

_DEFAULT_PARAMS = {"ruleset": DEFAULT_RULESET, "players": DEFAULT_PLAYERS, "deals": DEFAULT_DEALS}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Stargazer",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    # What the ruleset format allows (rules.schema.json, player_counts); each game checks its
    # own ruleset's counts.
    max_num_players=8,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


class StargazerGame(pyspiel.Game):
    """One ruleset at one table size; ``fast`` is its fast game (shared by every such game)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_DEFAULT_PARAMS, **(params or {})}
        self.fast: FastGame = fast_game(values["ruleset"])
        players = check_players(self.fast, values["players"], GAME_NAME)
        self.deals = _check_deals(values["deals"])
        info = pyspiel.GameInfo(
            num_distinct_actions=self.fast.num_actions,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.fast.game.most_moves,
        )
        super().__init__(_GAME_TYPE, info, values)

    def new_initial_state(self) -> StargazerState:
        """The state before the deal: a chance node."""
        return StargazerState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The fast API's observation, or the history for perfect recall."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return StargazerObserver(self.fast, params)
        return _observation.IIGObserverForPublicInfoGame(iig_obs_type, params)


class StargazerState(pyspiel.State):
    """A chance node until the deal, then the fast API's state of that deal."""

    def __init__(self, game: StargazerGame) -> None:
        super().__init__(game)
        self._deals = game.deals
        self._players = game.num_players()
        self._ruleset = game.get_parameters()["ruleset"]
        self._play: _Play | None = None

    def current_player(self) -> int:
        if self._play is None:
            return pyspiel.PlayerId.CHANCE
        seat = self._play.state.current_player()
        return pyspiel.PlayerId.TERMINAL if seat < 0 else seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(int(action) for action in self._play.state.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each seed of the deal, equally likely."""
        chance = 1.0 / self._deals
        return [(seed, chance) for seed in range(self._deals)]

    def _apply_action(self, action: int) -> None:
        """The deal of outcome ``action`` (ValueError outside ``0..deals-1``: only the listed
        outcomes are dealt), or the decision of id ``action`` (IllegalActionError when not legal)."""
        action = action_id(action, GAME_NAME)
        if self._play is None:
            if not 0 <= action < self._deals:
                raise ValueError(f"{GAME_NAME}: chance outcome {action} is not a deal of this game: its outcomes are 0 to {self._deals - 1}")
            self._play = _Play.dealt(self._ruleset, self._players, action)
        else:
            self._play.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        fast, state = self._play.fast, self._play.state
        if action in state.legal_ids():
            return json.dumps(action_to_json(fast.game, state.to_state(), fast.action_of(action)))
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._play is not None and self._play.state.is_over()

    def returns(self) -> list[float]:
        """Win credit at the end (1/k to each of k tied winners, R18); 0 before."""
        if not self.is_terminal():
            return [0.0] * self._players
        return [float(value) for value in self._play.state.returns()]

    @property
    def fast_state(self):
        """The fast API's state of this node (``stargazer_rules.fast.FastState``); None before the deal."""
        return None if self._play is None else self._play.state

    def to_state(self) -> State:
        """The engine's ``State`` of this node (for ``make_bot`` bots and ``jsonio``)."""
        if self._play is None:
            raise ValueError("the deal is still to come: a chance node has no table yet")
        return self._play.state.to_state()

    def __str__(self) -> str:
        """The table as seat 0 sees it (the game hides nothing: every seat's view is the table)."""
        if self._play is None:
            return f"the deal: one of {self._deals} seeds"
        return self._play.state.observation_text(0)


class StargazerObserver:
    """The fast API's observation of one seat; zeros and the deal's line at the chance node."""

    def __init__(self, fast: FastGame, params) -> None:
        if params:
            raise ValueError(f"{GAME_NAME}: observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(fast.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StargazerState, player: int) -> None:
        if state.fast_state is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.fast_state.observation(player)

    def string_from(self, state: StargazerState, player: int) -> str:
        if state.fast_state is None:
            return str(state)
        return state.fast_state.observation_text(player)


class _Play:
    """The fast state of one deal with the moves that made it: a clone copies the fast state
    (and shares the fast game), a pickle holds the ruleset's name, the deal and the moves, and
    replays them."""

    def __init__(self, ruleset: str, players: int, seed: int, moves: list[int], state) -> None:
        self.ruleset, self.players, self.seed, self.moves, self.state = ruleset, players, seed, moves, state
        self.fast = fast_game(ruleset)

    @classmethod
    def dealt(cls, ruleset: str, players: int, seed: int) -> _Play:
        return cls(ruleset, players, seed, [], fast_game(ruleset).new_state(players=players, seed=seed))

    def step(self, action: int) -> None:
        self.state.step(action)
        self.moves.append(action)

    def __deepcopy__(self, memo) -> _Play:
        return _Play(self.ruleset, self.players, self.seed, list(self.moves), self.state.copy())

    def __reduce__(self):
        return _replay, (self.ruleset, self.players, self.seed, tuple(self.moves))


def _replay(ruleset: str, players: int, seed: int, moves: tuple[int, ...]) -> _Play:
    play = _Play.dealt(ruleset, players, seed)
    for action in moves:
        play.step(action)
    return play


def _check_deals(deals: Any) -> int:
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MOST_DEALS:
        raise ValueError(f"{GAME_NAME}: deals={deals!r}; write a whole number from 1 to {MOST_DEALS}")
    return deals


def bot_action(bot: Bot, state: StargazerState) -> int:
    """The action id ``bot`` (from ``stargazer_rules.bots.make_bot``) chooses at ``state``."""
    fast = state.get_game().fast
    return fast.action_id(bot.choose(fast.game, state.to_state()))


pyspiel.register_game(_GAME_TYPE, StargazerGame)
