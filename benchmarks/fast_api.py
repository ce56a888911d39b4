"""Decisions per second of the ways to play random games, side by side, with a baseline build.

Five ways to play uniformly random games of draft 7 at 4 players, each measured in a fresh
subprocess and repeated in alternation (interleaved, so that the load of a shared machine
falls on every way alike):

- ``game_step``: the Python engine, ``Game.step`` on immutable states;
- ``kernel_state``: a Python loop over ``native.to_kernel`` states, ``KernelState.legal()``
  tuples and ``.step(tuple)`` (run on the baseline build too: today's way);
- ``fast_state``: a Python loop over ``FastState``: ``legal_ids()``, pick one, ``step(id)``;
- ``batch``: ``FastBatch`` of ``--batch`` games with ``auto_reset``: ``legal_ids()``, a numpy
  choice per game, ``step(ids)``, for ``--batch-steps`` steps (the deals included);
- ``batch_to_end``: the same batch without auto reset, played until every game is over;
- ``random_games``: the kernel's own playouts (``Kernel.random_games``), no Python per decision.

The loops pick with the same draw (``legal[int(random() * len(legal))]``) and time the play
only (states are dealt before the clock starts; the batch's deals are timed). Each line gives
the median decisions per CPU second per way and build (the process's own CPU time: on a
machine shared with other work, wall time also counts the waits for a core; the wall-clock
rate is printed beside it); the ratios are medians of the per-repetition ratios of CPU rates.

    .venv/bin/python benchmarks/fast_api.py --baseline /path/to/old/checkout --repetitions 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PLAYERS = 4
WAYS = ("game_step", "kernel_state", "fast_state", "batch", "batch_to_end", "random_games")
#: The ways the baseline build can play (it has no fast API).
BASELINE_WAYS = ("kernel_state", "random_games")


class Clock:
    """Wall and CPU time since ``start``."""

    def start(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def measure(way: str, games: int, batch_size: int, batch_steps: int) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds) of one measurement of ``way`` in this process."""
    import random

    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.kernel import native

    game = Game(load_ruleset("draft7"))
    rand = random.Random(12345).random
    clock = Clock()
    if way == "game_step":
        states = [game.new_state(players=PLAYERS, seed=seed) for seed in range(games)]
        decisions = 0
        clock.start()
        for state in states:
            legal = state.legal
            while legal:
                state = game.step(state, legal[int(rand() * len(legal))])
                legal = state.legal
                decisions += 1
        return (decisions, *clock.read())
    if way == "kernel_state":
        states = [native.to_kernel(game, game.new_state(players=PLAYERS, seed=seed), trusted=True) for seed in range(games)]
        decisions = 0
        clock.start()
        for state in states:
            legal = state.legal()
            while legal:
                state.step(legal[int(rand() * len(legal))])
                legal = state.legal()
                decisions += 1
        return (decisions, *clock.read())
    if way == "random_games":
        kernel = native.kernel_for(game)
        clock.start()
        decisions = kernel.random_games(PLAYERS, 0, games * 20)
        return (decisions, *clock.read())

    from stargazer_rules.fast import FastGame

    fast = FastGame(game)
    if way == "fast_state":
        states = [fast.new_state(PLAYERS, seed) for seed in range(games)]
        decisions = 0
        clock.start()
        for state in states:
            legal = state.legal_ids()
            while legal:
                state.step(legal[int(rand() * len(legal))])
                legal = state.legal_ids()
                decisions += 1
        return (decisions, *clock.read())

    import numpy as np

    rng = np.random.default_rng(12345)
    auto_reset = way == "batch"
    clock.start()
    batch = fast.batch(batch_size, players=PLAYERS, seeds=range(batch_size), auto_reset=auto_reset)
    row_starts = np.arange(batch_size) * fast.max_legal  # row i of the flat ids
    decisions = 0
    steps = 0
    while steps < batch_steps or not auto_reset:
        ids, counts = batch.legal_ids()
        if auto_reset:
            live = batch_size  # a game that ends is dealt again at once: every game decides
        else:
            live = int(np.count_nonzero(counts))
            if not live:
                break
        picks = (rng.random(batch_size) * counts).astype(np.int64)
        batch.step(ids.ravel()[row_starts + picks])
        decisions += live
        steps += 1
    return (decisions, *clock.read())


def run(build: Path, way: str, args: argparse.Namespace) -> tuple[float, float]:
    """Decisions per CPU second and per wall second of one measurement of ``way`` on
    ``build``, in a fresh subprocess."""
    command = [sys.executable, __file__, "--measure", way, "--games", str(args.games), "--batch", str(args.batch),
               "--batch-steps", str(args.batch_steps)]
    env = {**os.environ, "PYTHONPATH": str(build)}
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    decisions, wall, cpu = json.loads(output)
    return decisions / cpu, decisions / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, help="the other build: a checkout with its kernel compiled in (required)")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--games", type=int, default=400, help="games per measurement of a loop (random_games plays 20 times as many)")
    parser.add_argument("--batch", type=int, default=2048, help="games in the batch")
    parser.add_argument("--batch-steps", type=int, default=300, help="steps of the auto-reset batch")
    parser.add_argument("--measure", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.batch, args.batch_steps)))
        return
    if args.baseline is None:
        parser.error("--baseline PATH is required: a checkout with its kernel compiled in")
    runs = [("this", HERE, way) for way in WAYS] + [("baseline", args.baseline.resolve(), way) for way in BASELINE_WAYS]
    rates: dict[tuple[str, str], list[float]] = {(name, way): [] for name, _, way in runs}
    walls: dict[tuple[str, str], list[float]] = {(name, way): [] for name, _, way in runs}
    for repetition in range(args.repetitions):
        order = runs if repetition % 2 == 0 else list(reversed(runs))
        for name, build, way in order:
            cpu_rate, wall_rate = run(build, way, args)
            rates[name, way].append(cpu_rate)
            walls[name, way].append(wall_rate)
    print(f"draft7, {PLAYERS} players, random decisions; {args.repetitions} repetitions, interleaved; "
          f"loops {args.games} games, batch {args.batch} games ({args.batch_steps} auto-reset steps)")
    for (name, way), values in rates.items():
        print(f"  {way:13} {name:9} median {statistics.median(values):12,.0f} decisions/CPU s "
              f"({statistics.median(walls[name, way]):12,.0f} /wall s)   runs: {', '.join(f'{value:,.0f}' for value in values)}")

    def ratio(top: tuple[str, str], bottom: tuple[str, str]) -> float:
        return statistics.median(a / b for a, b in zip(rates[top], rates[bottom]))

    print(f"  fast_state (this) / kernel_state (baseline):   {ratio(('this', 'fast_state'), ('baseline', 'kernel_state')):6.2f}x")
    print(f"  fast_state (this) / kernel_state (this):       {ratio(('this', 'fast_state'), ('this', 'kernel_state')):6.2f}x")
    print(f"  random_games (this) / batch (this):            {ratio(('this', 'random_games'), ('this', 'batch')):6.2f}x")
    print(f"  random_games (this) / batch_to_end (this):     {ratio(('this', 'random_games'), ('this', 'batch_to_end')):6.2f}x")
    print(f"  random_games (this) / random_games (baseline): {ratio(('this', 'random_games'), ('baseline', 'random_games')):6.2f}x")


if __name__ == "__main__":
    main()
