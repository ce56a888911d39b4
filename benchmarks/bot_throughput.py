"""Bot throughput on one core: whole games per second with random and greedy bots, and MCTS
decisions per second at a few budgets, for the bots of each engine side by side.

    python benchmarks/bot_throughput.py [--rules draft7 base] [--players 4] [--budgets 100 200 400 800]
        [--engines native python]

The ``native`` bots search in the kernel (one call per decision, the state read into it each
time, as in a simulation); the ``python`` bots are the Python ones. The ``x python`` column is a
row's rate over the Python bot's rate in the same run.

Games: ``--games`` whole games (deal seeds 0, 1, ...) with the same bot in every seat, scoring
included; games/s and decisions/s (every decision, forced ones too). MCTS: the same
``--positions`` states, taken from greedy games at every decision with more than one option,
each decided once per budget; decisions/s and iterations/s. Seeds are fixed, so two runs do
the same work; compare figures only between runs on the same machine.
"""

from __future__ import annotations

import argparse
import random
import time

from stargazer_rules import Game, State, load_ruleset
from stargazer_rules.bots import make_bot


def play_games(game: Game, players: int, spec: str, games: int, engine: str) -> tuple[float, int]:
    """(seconds, decisions) for ``games`` whole games of ``spec`` in every seat."""
    decisions = 0
    start = time.perf_counter()
    for deal in range(games):
        bots = [make_bot(spec, deal * 8 + seat, engine) for seat in range(players)]
        state = game.new_state(players=players, seed=deal)
        while state.legal:
            state = game.step(state, bots[game.current_player(state)].choose(game, state))
            decisions += 1
        game.score(state)
    return time.perf_counter() - start, decisions


def positions(game: Game, players: int, count: int) -> list[State]:
    """``count`` decisions with a choice, spread over greedy games (seeded)."""
    rng = random.Random(0)
    found: list[State] = []
    deal = 0
    while len(found) < count:
        bots = [make_bot("greedy", deal * 8 + seat, "python") for seat in range(players)]
        state = game.new_state(players=players, seed=1000 + deal)
        while state.legal and len(found) < count:
            if len(state.legal) > 1 and rng.random() < 0.25:
                found.append(state)
            state = game.step(state, bots[game.current_player(state)].choose(game, state))
        deal += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["draft7", "base"], help="rulesets (default draft7 base)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--games", type=int, default=200, help="games per game measurement (default 200)")
    parser.add_argument("--positions", type=int, default=40, help="states per MCTS budget (default 40)")
    parser.add_argument("--budgets", nargs="+", type=int, default=[100, 200, 400, 800], help="MCTS iterations")
    parser.add_argument("--engines", nargs="+", default=["native", "python"], help="bot engines (default native python)")
    args = parser.parse_args()

    print("| ruleset | bots | engine | games/s | decisions/s | decisions/game | x python |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for name in args.rules:
        game = Game(load_ruleset(name))
        for spec, games in (("random", args.games), ("greedy", max(1, args.games // 4))):
            # The random bot is Python's; python first, the ratio's base.
            engines = ["python"] if spec == "random" else sorted(args.engines, reverse=True)
            rates = {}
            for engine in engines:
                count = games * 20 if engine == "native" else games
                seconds, decisions = play_games(game, args.players, spec, count, engine)
                rates[engine] = count / seconds
                ratio = rates[engine] / rates["python"] if "python" in rates else float("nan")
                print(
                    f"| {name} | {args.players} x {spec} | {engine} | {count / seconds:,.1f} "
                    f"| {decisions / seconds:,.0f} | {decisions / count:.1f} | {ratio:,.1f} |",
                    flush=True,
                )
    print()
    print("| ruleset | bot | engine | decisions/s | ms/decision | iterations/s | x python |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for name in args.rules:
        game = Game(load_ruleset(name))
        states = positions(game, args.players, args.positions)
        for budget in args.budgets:
            rates = {}
            for engine in sorted(args.engines, reverse=True):  # python first: the ratio's base
                bot = make_bot(f"mcts:{budget}", 0, engine)
                start = time.perf_counter()
                for state in states:
                    bot.choose(game, state)
                seconds = time.perf_counter() - start
                rate = rates[engine] = len(states) / seconds
                ratio = rate / rates["python"] if "python" in rates else float("nan")
                print(
                    f"| {name} | mcts:{budget} | {engine} | {rate:,.1f} | {1000 / rate:,.1f} "
                    f"| {rate * budget:,.0f} | {ratio:,.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
