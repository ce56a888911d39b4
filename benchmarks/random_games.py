"""Random-game throughput: uniform-random legal actions, whole games including scoring, one core.

    python benchmarks/random_games.py [--games 3000] [--rules base draft7] [--players 3 4]

Reports games and decisions per second for the Python engine's ``Game.step`` (the bots' fast
path, no events) and ``Game.apply`` (with events), and for the native kernel's random playouts
(``native``: deal, play and score inside the kernel, ``--native-games`` games, from the
kernel's own deals), best of ``--repeat`` runs, measured side by side in one run; the last
column is each row's games/s over ``step``'s. Seeds are fixed, so two runs play the same
games; compare figures only between runs on the same machine.
"""

from __future__ import annotations

import argparse
import random
import time

from stargazer_rules import Game, load_ruleset
from stargazer_rules.kernel import native


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


def play_native(game: Game, players: int, games: int, seed: int) -> tuple[float, int]:
    """Play ``games`` random games inside the kernel; return (seconds, decisions)."""
    kernel = native.kernel_for(game)
    start = time.perf_counter()
    decisions = kernel.random_games(players, seed, games)
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per measurement (default 3000)")
    parser.add_argument("--rules", nargs="+", default=["base", "draft7"], help="rulesets (default base draft7)")
    parser.add_argument("--players", nargs="+", type=int, default=[3, 4], help="player counts (default 3 4)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--native-games", type=int, default=100_000, help="games per native measurement (default 100000)"
    )
    args = parser.parse_args()

    print("| ruleset | players | path | games/s | decisions/s | decisions/game | x step |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for name in args.rules:
        game = Game(load_ruleset(name))
        for players in args.players:
            step_rate = None
            for path in ("step", "apply", "native"):
                games = args.native_games if path == "native" else args.games
                if path == "native":
                    runs = [play_native(game, players, games, args.seed) for _ in range(args.repeat)]
                else:
                    runs = [play(game, players, games, args.seed, path == "apply") for _ in range(args.repeat)]
                seconds, decisions = min(runs)
                rate = games / seconds
                step_rate = step_rate or rate
                print(
                    f"| {name} | {players} | {path} | {rate:,.0f} | {decisions / seconds:,.0f} "
                    f"| {decisions / games:.1f} | {rate / step_rate:,.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
