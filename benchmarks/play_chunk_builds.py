"""The games alone, of two builds side by side: one worker's task (``runner.play_chunk``) and
the encoding of its lines, in this checkout and in a baseline.

Each repetition runs both builds, alternately first, each in a fresh subprocess with its build
on ``PYTHONPATH`` (a checkout whose ``stargazer_rules/`` holds its compiled ``_kernel*.so``).
A subprocess builds the ``Game`` and its kernel and plays a few games first (what a worker's
initializer and first task do), then times ``play_chunk`` of ``--games`` games (wall clock and
the process's CPU time, which swings less on a shared, loaded machine), and apart from it the
games as dicts and their encoding (``game_lines.game_line``). Printed: each side's median
seconds and games/s, and the median of the per-repetition ratios (baseline / this: the
speed-up).

    .venv/bin/python benchmarks/play_chunk_builds.py --baseline ../old --games 400 --bots greedy
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: What one subprocess runs: warm up, then time the chunk, then the dicts and their encoding.
_PLAY = """
import json, sys, time
from stargazer_rules.formats.game_lines import game_line
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.simulation import runner
games, bots, players, ruleset = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
rules = load_ruleset(ruleset)
lineup = runner.parse_lineup(bots, players)
warm = runner.plan(players, players, seed=10**6)
runner.play_chunk(rules, warm, lineup)
entries = runner.plan(games, players)
start, cpu = time.perf_counter(), time.process_time()
runner.play_chunk(rules, entries, lineup)
chunk, chunk_cpu = time.perf_counter() - start, time.process_time() - cpu
game = runner.game_of(rules)
start = time.perf_counter()
if hasattr(runner, "play_games"):
    lines = runner.play_games(game, entries, lineup)
else:
    lines = [runner.play_game(game, entry, lineup) for entry in entries]
played = time.perf_counter() - start
start = time.perf_counter()
for line in lines:
    game_line(line)
encoded = time.perf_counter() - start
print(json.dumps({"chunk": chunk, "chunk_cpu": chunk_cpu, "played": played, "encoded": encoded, "games": len(entries)}))
"""


def run_once(build: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(build)}
    command = [sys.executable, "-c", _PLAY, str(args.games), args.bots, str(args.players), args.ruleset]
    # ``python -c`` puts the working folder first on sys.path: run in the build's own folder.
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True, cwd=build)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, help="the other build: a checkout with its kernel compiled in")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ruleset", default="draft7")
    parser.add_argument("--rounds", type=int, default=5, help="repetitions, each running both builds")
    args = parser.parse_args()
    builds = {"baseline": args.baseline.resolve(), "this": HERE}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in builds}
    for round_ in range(args.rounds):
        for name in list(builds) if round_ % 2 == 0 else list(reversed(builds)):
            runs[name].append(run_once(builds[name], args))
    games = runs["this"][0]["games"]
    print(f"play_chunk of {games} {args.ruleset} games, --bots {args.bots}, {args.players} players, "
          f"{args.rounds} repetitions, alternating")
    for name, results in runs.items():
        chunk = statistics.median(r["chunk"] for r in results)
        chunk_cpu = statistics.median(r["chunk_cpu"] for r in results)
        played = statistics.median(r["played"] for r in results)
        encoded = statistics.median(r["encoded"] for r in results)
        print(f"  {name:9} chunk median {chunk:7.3f} s ({games / chunk:7.0f} games/s), CPU {chunk_cpu:7.3f} s "
              f"({games / chunk_cpu:7.0f} games/s)   "
              f"games as dicts {played:7.3f} s   encoding the lines {encoded:6.3f} s "
              f"({1e6 * encoded / games:5.1f} us a line)")
    for what in ("chunk", "chunk_cpu", "played", "encoded"):
        ratios = [old[what] / new[what] for old, new in zip(runs["baseline"], runs["this"], strict=True)]
        print(f"  baseline / this, {what}: median {statistics.median(ratios):.2f}x   "
              f"per repetition: {', '.join(f'{ratio:.2f}' for ratio in ratios)}")


if __name__ == "__main__":
    main()
