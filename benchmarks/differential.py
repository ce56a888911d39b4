"""The long differential run: the native kernel against the Python engine, in lockstep.

    python benchmarks/differential.py [--games 100000] [--rules draft7 base] [--workers 2]

Plays ``--games`` random games split over the rulesets and their player counts (deal seeds
0, 1, ...; decisions from a generator seeded by the deal), each on both engines at once with
tests/differential.py: at every decision the current player, the legal actions and the whole
state must be equal, at the end the score sheets and winners. Prints the games, decisions and
mismatches (each mismatch's first line too); exit status 1 if there is any.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from differential import Mismatch, play_lockstep  # noqa: E402

from stargazer_rules import Game, load_ruleset  # noqa: E402

import random  # noqa: E402


@functools.cache
def _game(rules: str) -> Game:
    return Game(load_ruleset(rules))


def play_block(job: tuple[str, int, int, int]) -> tuple[int, int, list[str]]:
    """Games ``first`` .. ``first + count - 1``: (games, decisions, mismatches)."""
    rules, players, first, count = job
    game = _game(rules)
    decisions = 0
    mismatches = []
    for seed in range(first, first + count):
        try:
            decisions += play_lockstep(game, game.deal(players, seed), random.Random(seed))
        except Mismatch as error:
            mismatches.append(f"{rules} {players}p seed {seed}: {str(error).splitlines()[0][:300]}")
    return count, decisions, mismatches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in all (default 100000)")
    parser.add_argument("--rules", nargs="+", default=["draft7", "base"], help="rulesets (default draft7 base)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args()

    cases = [(rules, players) for rules in args.rules for players in _game(rules).ruleset.player_counts]
    per_case = -(-args.games // len(cases))
    block = 500
    jobs = [
        (rules, players, first, min(block, per_case - first))
        for rules, players in cases
        for first in range(0, per_case, block)
    ]
    start = time.perf_counter()
    games = decisions = 0
    mismatches: list[str] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for count, made, found in pool.map(play_block, jobs):
            games += count
            decisions += made
            mismatches += found
    seconds = time.perf_counter() - start
    print(
        f"{games:,} games ({', '.join(f'{r} {p}p' for r, p in cases)}), {decisions:,} decisions "
        f"compared in lockstep in {seconds / 60:.1f} minutes on {args.workers} workers: "
        f"{len(mismatches)} mismatches"
    )
    for line in mismatches[:20]:
        print("  " + line)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
