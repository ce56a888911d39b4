"""The skill ladder: each bot tier against the tier below, on fixed deals with rotated seats.

    python benchmarks/skill_ladder.py [--n 200] [--deals 80] [--rules draft7] [--players 4] [--workers 2]
        [--engine native|python] [--tiers SPEC ...]

Tiers: random < greedy < mcts:N < mcts:2N < mcts:4N. Each pair of neighbouring tiers plays
``--deals`` deals (deal seeds 0, 1, ...), every deal in every seating: the ladder of
``stargazer ladder`` (``stargazer_rules.simulation.ladder``, docs/simulation.md), with any bot
specs as tiers and the minutes each pair took. With 4 players the two tiers take two seats
each, in all C(4, 2) = 6 seatings of a deal (common random numbers: the luck of the deal cancels
between the tiers, and with equal bots each tier wins half the games); with 3 players the
stronger tier takes one seat, rotated through the three.

For each pair: the stronger tier's share of the wins (ties shared, R18), its 95% Wilson
interval, the games played, and the mean score margin (mean total of the stronger tier's seats
minus that of the weaker tier's). The interval treats games as independent; the six seatings
of a deal share the deal, so it is somewhat optimistic. Bot seeds derive from the deal, the
seating and the seat, so a run is reproducible whatever ``--workers`` is.

A tier is a bot spec, played by the bots of ``--engine`` (default native: the kernel's), or
``SPEC@ENGINE`` for one engine's bot: ``--tiers mcts:200@python mcts:200@native`` measures the
kernel's MCTS against the Python one at the same budget.
"""

from __future__ import annotations

import argparse
import time

from stargazer_rules import load_ruleset
from stargazer_rules.analysis.ladder_report import step_figures
from stargazer_rules.simulation import ladder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="MCTS iterations of the first MCTS tier (default 200)")
    parser.add_argument("--deals", type=int, default=80, help="deals per pair of tiers (default 80)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal seed (default 0)")
    parser.add_argument("--rules", default="draft7", help="ruleset (default draft7)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--tiers", nargs="+", help="bot specs, weakest first (default: the ladder above)")
    parser.add_argument("--engine", choices=("native", "python"), default="native", help="the bots' engine (default native)")
    args = parser.parse_args()

    tiers = args.tiers or ["random", "greedy", f"mcts:{args.n}", f"mcts:{2 * args.n}", f"mcts:{4 * args.n}"]
    seatings = len(ladder.seatings(args.players))
    print(
        f"{args.rules}, {args.players} players, {args.deals} deals x {seatings} seatings per pair, "
        f"{args.engine} engine unless a tier names one"
    )
    print()
    print("| stronger | weaker | games | stronger's win share | 95% Wilson | mean margin (VP) | minutes |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: |")

    def row(_number: int, step: ladder.StepResult, seconds: float) -> None:
        figures = step_figures(step)
        wins = figures["wins"]
        print(
            f"| {step.stronger} | {step.weaker} | {figures['games']} | {wins['rate']:.1%} | "
            f"{wins['low']:.1%} - {wins['high']:.1%} | {figures['margin']['mean']:+.2f} | {seconds / 60:.1f} |",
            flush=True,
        )

    started = time.perf_counter()
    ladder.play_ladder(
        load_ruleset(args.rules), tiers, players=args.players, games=args.deals * seatings, seed=args.first_deal,
        workers=args.workers, engine=args.engine, on_step=row,
    )
    print()
    print(f"total {(time.perf_counter() - started) / 60:.1f} minutes on {args.workers} workers")


if __name__ == "__main__":
    main()
