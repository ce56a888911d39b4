"""What keeping the MCTS root values costs: MCTS decisions per second and simulated games per
second of two package trees (before and after a change), measured in turns.

    python benchmarks/root_values_cost.py --before TREE [--after TREE] [--rounds 8]
        [--positions 300] [--games 6] [--budget 200] [--engine native]

A tree is a folder holding a ``stargazer_rules`` package with its compiled kernel (for the code
before a change: ``git archive`` of that commit, with the kernel built from it copied in);
``--after`` defaults to this checkout. Each round runs one child process per tree, the order
alternating from round to round so that a machine growing busier or quieter weighs on both
alike. A child decides the same ``--positions`` states (taken from seeded greedy games, as
benchmarks/bot_throughput.py does) with ``mcts:BUDGET``, asking the bot for its root values
after each decision where it has them (what the runner does), then plays ``--games`` seeded
games of ``mcts:BUDGET`` in every seat through ``simulation.play_game`` (the line with its
``value_by_round``). The table gives each tree's best rate over the rounds (the least disturbed
by other work on the machine) and its median, and the after/before ratios; compare figures only
between runs on the same machine.
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

HERE = Path(__file__).resolve().parent


def child(positions: int, games: int, budget: int, engine: str) -> dict[str, float]:
    """One tree's measurement, in this process: decisions/s and games/s."""
    from bot_throughput import positions as positions_of

    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.bots import make_bot
    from stargazer_rules.simulation import parse_lineup, plan, play_game

    game = Game(load_ruleset("draft7"))
    states = positions_of(game, 4, positions)
    spec = f"mcts:{budget}"
    bot = make_bot(spec, 0, engine)
    values = getattr(bot, "last_values", None)  # absent before the change
    bot.choose(game, states[0])  # the kernel compiled, the bot made: not timed
    start = time.perf_counter()
    for state in states:
        bot.choose(game, state)
        if values is not None:
            values()
    decisions = len(states) / (time.perf_counter() - start)
    lineup = parse_lineup(spec, 4)
    entries = plan(games, 4, seed=500)
    start = time.perf_counter()
    for entry in entries:
        play_game(game, entry, lineup, engine)
    return {"decisions_per_second": decisions, "games_per_second": len(entries) / (time.perf_counter() - start)}


def measure(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """Run ``child`` in a fresh process whose ``stargazer_rules`` is the one in ``tree``."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(HERE)]))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--positions", str(args.positions),
               "--games", str(args.games), "--budget", str(args.budget), "--engine", args.engine]
    found = subprocess.run(command, env=environment, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(found.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the package tree before the change")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="the package tree after it (default: this checkout)")
    parser.add_argument("--rounds", type=int, default=8, help="child runs per tree (default 8)")
    parser.add_argument("--positions", type=int, default=300, help="MCTS decisions per child (default 300)")
    parser.add_argument("--games", type=int, default=6, help="whole games per child, rounded up to blocks of 4 (default 6)")
    parser.add_argument("--budget", type=int, default=200, help="MCTS iterations (default 200)")
    parser.add_argument("--engine", default="native", help="bot engine (default native)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.positions, args.games, args.budget, args.engine)))
        return
    if args.before is None:
        parser.error("--before TREE is required: a folder holding the stargazer_rules package before the change")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    found: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for number in range(args.rounds):
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for name in order:
            result = measure(trees[name], args)
            found[name].append(result)
            print(f"round {number + 1} {name}: {result['decisions_per_second']:,.1f} decisions/s, "
                  f"{result['games_per_second']:,.2f} games/s", file=sys.stderr, flush=True)
    print(f"| draft7, 4 players, mcts:{args.budget}, {args.engine} | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for key, label in (("decisions_per_second", "decisions/s"), ("games_per_second", "games/s")):
        for summary, how in ((max, "best"), (statistics.median, "median")):
            before = summary(result[key] for result in found["before"])
            after = summary(result[key] for result in found["after"])
            print(f"| {label} ({how}) | {before:,.2f} | {after:,.2f} | {after / before:.3f} |")


if __name__ == "__main__":
    main()
