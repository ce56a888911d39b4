"""Whole `stargazer simulate` commands of two builds side by side: this checkout and a baseline.

Runs the same command alternately with each build first on ``PYTHONPATH`` (so a build is a
checkout folder whose ``stargazer_rules/`` holds a compiled ``_kernel*.so``, e.g. a ``git worktree``
of an older commit with the extension copied in), and prints the median seconds of each and
the median of the per-run ratios, for the whole command and for the games alone (the rate
simulate prints: the games played and written, from the first task to the last line). Each run
plays into a fresh folder with ``--no-cache``, so it measures playing, writing and the report as
a designer's run does.

    .venv/bin/python benchmarks/simulate_builds.py --baseline ../old --games 1800 --bots greedy --workers 2 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


#: simulate's line saying how long the games took: "played 1800 games in 3.2 s (562.3 games/s, ...".
_PLAYED = re.compile(r"played \d+ games in [\d.]+ s \(([\d.]+) games/s")


def run_once(build: Path, games: int, bots: str, workers: int, out: Path, cache: Path) -> tuple[float, float, float]:
    """The seconds of the whole command, the games/s it printed, and the CPU seconds (user and
    system) of the command and its workers: on a shared, loaded machine the wall clock swings
    with the other processes, the CPU time much less."""
    env = {**os.environ, "PYTHONPATH": str(build), "STARGAZER_CACHE": str(cache)}
    command = [sys.executable, "-m", "stargazer_rules", "simulate", "--games", str(games), "--bots", bots,
               "--workers", str(workers), "--out", str(out), "--no-cache"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # Run outside both checkouts: ``python -m`` puts the working folder first on sys.path.
    done = subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=out.parent)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rate = _PLAYED.search(done.stderr)
    if rate is None:
        raise SystemExit(f"simulate printed no 'played N games' line:\n{done.stderr}")
    return seconds, float(rate.group(1)), cpu


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
    rates: dict[str, list[float]] = {name: [] for name in builds}
    cpus: dict[str, list[float]] = {name: [] for name in builds}
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(args.rounds):
            order = list(builds) if round_ % 2 == 0 else list(reversed(builds))
            for name in order:
                out = Path(scratch) / f"{name}-{round_}"
                seconds, rate, cpu = run_once(builds[name], args.games, args.bots, args.workers, out, Path(scratch) / "cache")
                times[name].append(seconds)
                rates[name].append(rate)
                cpus[name].append(cpu)
    print(f"simulate --games {args.games} --bots {args.bots} --workers {args.workers}, {args.rounds} runs each, alternating")
    for name in builds:
        print(f"  {name:9} command median {statistics.median(times[name]):7.2f} s   runs: "
              f"{', '.join(f'{value:.2f}' for value in times[name])}")
        print(f"  {'':9} games   median {statistics.median(rates[name]):7.1f} games/s   runs: "
              f"{', '.join(f'{value:.0f}' for value in rates[name])}")
        print(f"  {'':9} CPU     median {statistics.median(cpus[name]):7.2f} s   runs: "
              f"{', '.join(f'{value:.2f}' for value in cpus[name])}")
    command = [this / old for this, old in zip(times["this"], times["baseline"], strict=True)]
    speed = [this / old for this, old in zip(rates["this"], rates["baseline"], strict=True)]
    print(f"  this / baseline, command seconds: median {statistics.median(command):.3f}   per run: "
          f"{', '.join(f'{ratio:.2f}' for ratio in command)}")
    cpu = [this / old for this, old in zip(cpus["this"], cpus["baseline"], strict=True)]
    print(f"  this / baseline, CPU seconds: median {statistics.median(cpu):.3f}   per run: "
          f"{', '.join(f'{ratio:.2f}' for ratio in cpu)}")
    print(f"  this / baseline, games/s: median {statistics.median(speed):.2f}x   per run: "
          f"{', '.join(f'{ratio:.2f}' for ratio in speed)}")


if __name__ == "__main__":
    main()
