"""OpenSpiel's Python MCTS (random rollouts) against our greedy bot, through the OpenSpiel game.

One MCTS seat against greedy bots in the others, seats rotated over the games, the deal of
seed g for game g; prints the MCTS seat's mean win credit (the fair share is 1/players) and
its decisions per second, for each simulation budget (docs/research.md).

    .venv/bin/python benchmarks/openspiel_mcts.py --games 30 --players 3 --simulations 100 400
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from stargazer_rules.adapters.openspiel import GAME_NAME, bot_action
from stargazer_rules.bots import make_bot


def match(simulations: int, games: int, players: int) -> tuple[float, int, float]:
    """(mean win credit of the MCTS seat, its decisions, seconds)."""
    game = pyspiel.load_game(GAME_NAME, {"players": players, "deals": games})
    credit, decisions, start = 0.0, 0, time.perf_counter()
    for g in range(games):
        rng = np.random.RandomState(g)
        searcher = mcts.MCTSBot(
            game, uct_c=2, max_simulations=simulations, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        greedy, seat = make_bot("greedy", g), g % players
        state = game.new_initial_state()
        state.apply_action(g)
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(searcher.step(state))
                decisions += 1
            else:
                state.apply_action(bot_action(greedy, state))
        credit += state.returns()[seat]
    return credit / games, decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--simulations", type=int, nargs="+", default=[100, 400])
    args = parser.parse_args()
    print(f"MCTS (random rollouts) against greedy, {args.games} games of {args.players}, fair share {1 / args.players:.3f}")
    for simulations in args.simulations:
        credit, decisions, seconds = match(simulations, args.games, args.players)
        print(f"{simulations:>6} simulations: win credit {credit:.3f}, {decisions / seconds:.1f} MCTS decisions/s")


if __name__ == "__main__":
    main()
