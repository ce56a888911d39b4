"""Random-game throughput: uniform-random legal actions, whole games including scoring, one core.

    python benchmarks/random_games.py [--games 3000] [--rules base draft7] [--players 3 4]

Reports games and decisions per second for ``Game.step`` (the bots' fast path, no events) and
for ``Game.apply`` (with events), best of ``--repeat`` runs. Seeds are fixed, so two runs play
the same games; compare figures only between runs on the same machine.
"""

from __future__ import annotations

import argparse
import random
import time

from stargazer_rules import Game, load_ruleset


def play(game: Game, players: int, games: int, seed: int, with_events: bool) -> tuple[float, int]:
    """Play ``games`` random games; return (seconds, decisions)."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        state = game.new_state(players=players, seed=seed + index)
        if with_events:
            while state.legal:
                state, _events = game.apply(state, rng.choice(state.legal))
                decisions += 1
        else:
            while state.legal:
                state = game.step(state, rng.choice(state.legal))
                decisions += 1
        game.score(state)
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per measurement (default 3000)")
    parser.add_argument("--rules", nargs="+", default=["base", "draft7"], help="rulesets (default base draft7)")
    parser.add_argument("--players", nargs="+", type=int, default=[3, 4], help="player counts (default 3 4)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args()

    print(f"{'ruleset':<8} {'players':>7} {'path':<6} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
    for name in args.rules:
        game = Game(load_ruleset(name))
        for players in args.players:
            for with_events in (False, True):
                runs = [play(game, players, args.games, args.seed, with_events) for _ in range(args.repeat)]
                seconds, decisions = min(runs)
                path = "apply" if with_events else "step"
                print(
                    f"{name:<8} {players:>7} {path:<6} {args.games / seconds:>9,.0f} "
                    f"{decisions / seconds:>12,.0f} {decisions / args.games:>15.1f}"
                )


if __name__ == "__main__":
    main()
