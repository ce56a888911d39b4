"""The native kernel's speed against a baseline build: random playouts, MCTS and greedy, one core.

    python benchmarks/kernel_speed.py --baseline /path/to/old/checkout [--repetitions 7]

Each repetition runs one subprocess per build, alternating which goes first, with that build
first on ``PYTHONPATH`` (a build is a checkout whose ``stargazer_rules/`` holds a compiled
``_kernel*.so``, as for ``benchmarks/simulate_builds.py``). A subprocess measures, in the
kernel alone:

- ``random``: ``Kernel.random_games`` (kernel deals, uniform random moves to the end) on base
  and draft7 at 3 and 4 players, in decisions/s;
- ``mcts``: the kernel MCTS bot at 200 iterations deciding a fixed set of draft7 4-player
  states (each from seeded random games, each with a seeded bot), in iterations/s;
- ``greedy``: the kernel greedy bot deciding a fixed set of such states, in decisions/s.

Rates are per second of the process's CPU time (``time.process_time``), which a loaded machine
disturbs less than the wall clock. Printed: each build's median, the median over repetitions of the per-repetition ratio this /
baseline, and whether both builds chose the same actions (the bots' choices are compared, so
a speed-up that changes a decision shows). Compare figures only between runs on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
RANDOM_CASES = [("base", 3), ("base", 4), ("draft7", 3), ("draft7", 4)]


def positions(game, players: int, count: int, seed: int) -> list:
    """``count`` states with a choice, from seeded random games of the Python engine."""
    rng = random.Random(seed)
    found = []
    deal = 0
    while len(found) < count:
        state = game.new_state(players=players, seed=seed + deal)
        while state.legal and len(found) < count:
            if len(state.legal) > 1 and rng.random() < 0.2:
                found.append(state)
            state = game.step(state, rng.choice(state.legal))
        deal += 1
    return found


def measure(args: argparse.Namespace) -> None:
    """Run in a subprocess: one JSON line per measurement of the build on ``sys.path``."""
    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.kernel import native

    for name, players in RANDOM_CASES:
        kernel = native.kernel_for(Game(load_ruleset(name)))
        start = time.process_time()
        decisions = kernel.random_games(players, 0, args.random_games)
        seconds = time.process_time() - start
        print(json.dumps({"case": f"random {name} {players}p", "unit": "decisions/s", "rate": decisions / seconds,
                          "choices": decisions}))
    game = Game(load_ruleset("draft7"))
    for bot, count, params, per_choice in (
        ("mcts", args.mcts_states, {"iterations": 200}, 200),
        ("greedy", args.greedy_states, {}, 1),
    ):
        states = [native.to_kernel(game, state, trusted=True) for state in positions(game, 4, count, 11)]
        bots = [native.kernel_bot(bot, seed, params) for seed in range(len(states))]
        start = time.process_time()
        choices = [chooser.choose(state) for chooser, state in zip(bots, states)]
        seconds = time.process_time() - start
        unit = "iterations/s" if bot == "mcts" else "decisions/s"
        print(json.dumps({"case": f"{bot}{':200' if bot == 'mcts' else ''} draft7 4p", "unit": unit,
                          "rate": len(states) * per_choice / seconds, "choices": [list(c) for c in choices]}))


def run_build(build: Path, args: argparse.Namespace) -> dict[str, dict]:
    env = {**os.environ, "PYTHONPATH": str(build)}
    command = [sys.executable, str(Path(__file__).resolve()), "--measure",
               "--random-games", str(args.random_games), "--mcts-states", str(args.mcts_states),
               "--greedy-states", str(args.greedy_states)]
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True, cwd=build).stdout
    return {line["case"]: line for line in map(json.loads, output.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="the other build: a checkout with its kernel compiled in")
    parser.add_argument("--repetitions", type=int, default=7, help="runs of each build, alternating (default 7)")
    parser.add_argument("--random-games", type=int, default=100_000, help="games per random measurement (default 100000)")
    parser.add_argument("--mcts-states", type=int, default=200, help="states MCTS decides (default 200)")
    parser.add_argument("--greedy-states", type=int, default=2000, help="states greedy decides (default 2000)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args)
        return
    if args.baseline is None:
        parser.error("--baseline is required: a checkout with its kernel compiled in")
    builds = {"baseline": args.baseline.resolve(), "this": HERE}
    runs: dict[str, list[dict[str, dict]]] = {name: [] for name in builds}
    for repetition in range(args.repetitions):
        order = list(builds) if repetition % 2 == 0 else list(reversed(builds))
        for name in order:
            runs[name].append(run_build(builds[name], args))
        print(f"repetition {repetition + 1} of {args.repetitions} done", file=sys.stderr, flush=True)
    print(f"{args.repetitions} repetitions, builds alternating; baseline {builds['baseline']}")
    print("| case | unit | baseline median | this median | this / baseline (median of ratios) | same choices |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for case, first in runs["this"][0].items():
        old = [run[case]["rate"] for run in runs["baseline"]]
        new = [run[case]["rate"] for run in runs["this"]]
        ratio = statistics.median(n / o for n, o in zip(new, old))
        same = all(run[case]["choices"] == runs["baseline"][0][case]["choices"] for run in runs["this"] + runs["baseline"])
        print(f"| {case} | {first['unit']} | {statistics.median(old):,.0f} | {statistics.median(new):,.0f} "
              f"| {ratio:.2f}x | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
