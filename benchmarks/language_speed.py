"""A ruleset whose crews all run programs of the rules language, against draft 7, in the kernel.

    python benchmarks/language_speed.py [--games 20000] [--bot-games 8] [--repetitions 7]

The bundled ``ideas`` ruleset gives every dealt crew a composed skill (amounts, conditions,
choose, for_each, if), and its Planets abilities. Two measurements, each in decisions per second
of CPU time (``time.process_time``), each repetition alternating which ruleset goes first:

- **random playouts**: ``--games`` games at four players played whole in the kernel with
  uniform random decisions (``Kernel.random_games``: kernel deals). Each decision costs only
  the rules, so this is the harshest ratio: the language's whole cost against draft 7's
  bare rules.
- **with the default bots**: ``--bot-games`` games with ``mcts:200`` in every seat (what
  ``stargazer simulate`` plays), whole in the kernel (``simulation.kernel_games.play_games``),
  the decisions each game line counts.

Printed: each ruleset's median rate, and the median over repetitions of the per-repetition
ratio ideas / draft7 (the aim: at least 0.7).
"""

from __future__ import annotations

import argparse
import statistics
import time


def random_rate(kernel, players: int, seed: int, games: int) -> float:
    start = time.process_time()
    decisions = kernel.random_games(players, seed, games)
    return decisions / (time.process_time() - start)


def bot_rate(game, players: int, seed: int, games: int) -> float:
    from stargazer_rules.simulation.kernel_games import play_games
    from stargazer_rules.simulation.planning import plan

    start = time.process_time()
    lines = play_games(game, plan(games, players, seed), ["mcts:200"] * players)
    return sum(line["decisions"] for line in lines) / (time.process_time() - start)


def report(title: str, rates: dict[str, list[float]]) -> None:
    print(title)
    for name, values in rates.items():
        print(f"  {name:7} {statistics.median(values):>14,.0f} decisions/s (median of {len(values)})")
    ratios = [ideas / draft7 for ideas, draft7 in zip(rates["ideas"], rates["draft7"])]
    print(f"  ideas / draft7: {statistics.median(ratios):.3f} (median of the per-repetition ratios"
          f" {', '.join(f'{r:.2f}' for r in ratios)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000, help="random games a measurement (default 20000)")
    parser.add_argument("--bot-games", type=int, default=8, help="mcts:200 games a measurement (default 8; 0 skips)")
    parser.add_argument("--repetitions", type=int, default=7, help="measurements of each ruleset, alternating (default 7)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.kernel import native

    games = {name: Game(load_ruleset(name)) for name in ("draft7", "ideas")}
    kernels = {name: native.kernel_for(game) for name, game in games.items()}
    for name, kernel in kernels.items():
        if kernel is None:
            raise SystemExit(f"{name} does not compile for the kernel: {native.fallback_reason(games[name])}")
    random_rates: dict[str, list[float]] = {name: [] for name in kernels}
    bot_rates: dict[str, list[float]] = {name: [] for name in kernels}
    for repetition in range(args.repetitions):
        order = list(kernels) if repetition % 2 == 0 else list(reversed(kernels))
        for name in order:
            random_rates[name].append(random_rate(kernels[name], args.players, repetition, args.games))
            if args.bot_games:
                bot_rates[name].append(bot_rate(games[name], args.players, repetition, args.bot_games))
    report(f"random playouts ({args.games:,} games a measurement)", random_rates)
    if args.bot_games:
        report(f"with the default bots, mcts:200 in every seat ({args.bot_games} games a measurement)", bot_rates)


if __name__ == "__main__":
    main()
