"""What each research adapter costs over the fast API: decisions per second of seeded random
play through the fast API itself, the OpenSpiel game, the PettingZoo environment and the
Gymnasium environment (its learner's decisions; random bots in the other seats, whose
decisions are counted too), on one core.

The four take turns within each repetition, on the same deals; the script prints each one's
median decisions per second over the repetitions and the median of its per-repetition ratio
to the fast API.

    .venv/bin/python benchmarks/adapters.py --games 200 --players 4 --repetitions 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pyspiel

from stargazer_rules.adapters import gymnasium as gym_adapter
from stargazer_rules.adapters import openspiel
from stargazer_rules.adapters import pettingzoo as pz_adapter
from stargazer_rules.adapters.shared import fast_game
from stargazer_rules.fast import FastState


def fast_api(games: int, players: int) -> int:
    fast, rng, decisions = fast_game(), np.random.default_rng(0), 0
    for seed in range(games):
        state = fast.new_state(players=players, seed=seed)
        while not state.is_over():
            state.step(int(rng.choice(state.legal_ids())))
            decisions += 1
    return decisions


def open_spiel(games: int, players: int) -> int:
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": players, "deals": games})
    rng, decisions = np.random.default_rng(0), 0
    for seed in range(games):
        state = game.new_initial_state()
        state.apply_action(seed)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    return decisions


def petting_zoo(games: int, players: int) -> int:
    env, rng, decisions = pz_adapter.env(players=players), np.random.default_rng(0), 0
    for seed in range(games):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
    return decisions


def gymnasium_env(games: int, players: int) -> int:
    """Counts every decision, the learner's and the bots', by counting ``FastState.step`` calls."""
    env = gym_adapter.StargazerEnv(players=players, opponents="random")
    rng, counted = np.random.default_rng(0), [0]
    step = FastState.step

    def counting_step(state, action_id):
        counted[0] += 1
        step(state, action_id)

    FastState.step = counting_step
    try:
        for seed in range(games):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    finally:
        FastState.step = step
    return counted[0]


INTERFACES = {"fast API": fast_api, "OpenSpiel": open_spiel, "PettingZoo": petting_zoo, "Gymnasium": gymnasium_env}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {name: [] for name in INTERFACES}
    for _ in range(args.repetitions):
        for name, play in INTERFACES.items():
            start = time.perf_counter()
            decisions = play(args.games, args.players)
            rates[name].append(decisions / (time.perf_counter() - start))
    print(f"{args.games} random games of {args.players} players, {args.repetitions} repetitions")
    for name, values in rates.items():
        ratio = statistics.median(value / base for value, base in zip(values, rates["fast API"]))
        print(f"{name:<11} {statistics.median(values):>10,.0f} decisions/s   {ratio:.2f}x the fast API")


if __name__ == "__main__":
    main()
