"""A ruleset whose crews all run programs of the rules language, against draft 7, in the kernel.

    python benchmarks/language_speed.py [--games 20000] [--repetitions 7]

The bundled ``ideas`` ruleset gives every dealt crew a composed skill (amounts, conditions,
choose, for_each, if). Each repetition plays ``--games`` random games of each ruleset at four
players in the kernel (``Kernel.random_games``: kernel deals, uniform random decisions),
alternating which goes first, and rates them in decisions per second of CPU time
(``time.process_time``). Printed: each ruleset's median rate, and the median over repetitions
of the per-repetition ratio ideas / draft7 (the aim: at least 0.7).
"""

from __future__ import annotations

import argparse
import statistics
import time


def rate(kernel, players: int, seed: int, games: int) -> float:
    start = time.process_time()
    decisions = kernel.random_games(players, seed, games)
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000, help="random games a measurement (default 20000)")
    parser.add_argument("--repetitions", type=int, default=7, help="measurements of each ruleset, alternating (default 7)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.kernel import native

    kernels = {name: native.kernel_for(Game(load_ruleset(name))) for name in ("draft7", "ideas")}
    for name, kernel in kernels.items():
        if kernel is None:
            raise SystemExit(f"{name} does not compile for the kernel: {native.fallback_reason(load_ruleset(name))}")
    rates: dict[str, list[float]] = {name: [] for name in kernels}
    for repetition in range(args.repetitions):
        order = list(kernels) if repetition % 2 == 0 else list(reversed(kernels))
        for name in order:
            rates[name].append(rate(kernels[name], args.players, repetition, args.games))
    for name, values in rates.items():
        print(f"{name:7} {statistics.median(values):>14,.0f} decisions/s (median of {len(values)})")
    ratios = [ideas / draft7 for ideas, draft7 in zip(rates["ideas"], rates["draft7"])]
    print(f"ideas / draft7: {statistics.median(ratios):.3f} (median of the per-repetition ratios)")


if __name__ == "__main__":
    main()
