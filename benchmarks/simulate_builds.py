"""Whole `stargazer simulate` commands of two builds side by side: this checkout and a baseline.

Runs the same command alternately with each build first on ``PYTHONPATH`` (so a build is a
checkout folder whose ``stargazer_rules/`` holds a compiled ``_kernel*.so``, e.g. a ``git worktree``
of an older commit with the extension copied in), and prints the median seconds of each and
their ratio. Each run plays into a fresh folder with ``--no-cache``, so it measures playing,
writing and the report as a designer's run does.

    .venv/bin/python benchmarks/simulate_builds.py --baseline ../old --games 400 --bots greedy --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run_once(build: Path, games: int, bots: str, workers: int, out: Path, cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(build), "STARGAZER_CACHE": str(cache)}
    command = [sys.executable, "-m", "stargazer_rules", "simulate", "--games", str(games), "--bots", bots,
               "--workers", str(workers), "--out", str(out), "--no-cache"]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, help="the other build: a checkout with its kernel compiled in")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="runs of each build, alternating")
    args = parser.parse_args()
    builds = {"baseline": args.baseline.resolve(), "this": HERE}
    times: dict[str, list[float]] = {name: [] for name in builds}
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(args.rounds):
            order = list(builds) if round_ % 2 == 0 else list(reversed(builds))
            for name in order:
                out = Path(scratch) / f"{name}-{round_}"
                times[name].append(run_once(builds[name], args.games, args.bots, args.workers, out, Path(scratch) / "cache"))
    print(f"simulate --games {args.games} --bots {args.bots} --workers {args.workers}, {args.rounds} runs each, alternating")
    for name, values in times.items():
        print(f"  {name:9} median {statistics.median(values):7.2f} s   runs: {', '.join(f'{value:.2f}' for value in values)}")
    ratio = statistics.median(times["this"]) / statistics.median(times["baseline"])
    print(f"  this / baseline: {ratio:.3f}")


if __name__ == "__main__":
    main()
