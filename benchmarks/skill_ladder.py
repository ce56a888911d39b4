"""The skill ladder: each bot tier against the tier below, on fixed deals with rotated seats.

    python benchmarks/skill_ladder.py [--n 200] [--deals 80] [--rules draft7] [--players 4] [--workers 2]
        [--engine native|python] [--tiers SPEC ...]

Tiers: random < greedy < mcts:N < mcts:2N < mcts:4N. Each pair of neighbouring tiers plays
``--deals`` deals (deal seeds 0, 1, ...). With 4 players the two tiers take two seats each, and
every deal is played in all C(4, 2) = 6 seatings, so both tiers sit in every seat and move in
every turn order equally often on the very same deals (common random numbers: the luck of the
deal cancels between the tiers). Two against two also keeps the question symmetric: with equal
bots each tier wins half the games. (One strong bot against three weak ones would measure
something else too, how much the weak seats steal from each other.) With 3 players the stronger
tier takes one seat, rotated through the three.

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
import functools
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from stargazer_rules import Game, load_ruleset
from stargazer_rules.analysis.stats import wilson
from stargazer_rules.bots import make_bot
from stargazer_rules.engine.scoring import provisional_totals, winners


@functools.cache
def _game(rules: str) -> Game:
    return Game(load_ruleset(rules))


def seatings(players: int) -> list[tuple[bool, ...]]:
    """For each seating, whether each seat plays the stronger tier."""
    strong_seats = players // 2 if players % 2 == 0 else 1
    return [
        tuple(seat in chosen for seat in range(players))
        for chosen in itertools.combinations(range(players), strong_seats)
    ]


def tier_bot(tier: str, seed: int, engine: str):
    """The bot of a tier: ``SPEC`` by ``engine``'s bots, or ``SPEC@ENGINE``."""
    spec, _, named = tier.partition("@")
    return make_bot(spec, seed, named or engine)


def play_game(job: tuple[str, int, int, int, tuple[bool, ...], str, str, str]) -> tuple[float, float, int]:
    """One game: (the stronger tier's win share, its score margin, decisions)."""
    rules, players, deal, seating_index, seating, strong, weak, engine = job
    game = _game(rules)
    bots = [
        tier_bot(strong if is_strong else weak, (deal * 64 + seating_index) * 8 + seat, engine)
        for seat, is_strong in enumerate(seating)
    ]
    state = game.new_state(players=players, seed=deal)
    decisions = 0
    while state.legal:
        state = game.step(state, bots[game.current_player(state)].choose(game, state))
        decisions += 1
    totals = provisional_totals(game, state)
    won = winners(totals, state.hands)
    share = sum(1 for seat in won if seating[seat]) / len(won)
    strong_totals = [total for total, is_strong in zip(totals, seating) if is_strong]
    weak_totals = [total for total, is_strong in zip(totals, seating) if not is_strong]
    margin = sum(strong_totals) / len(strong_totals) - sum(weak_totals) / len(weak_totals)
    return share, margin, decisions


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
    for spec in tiers:
        tier_bot(spec, 0, args.engine)  # a bad spec fails now, not in a worker
    plan = seatings(args.players)
    print(
        f"{args.rules}, {args.players} players, {args.deals} deals x {len(plan)} seatings per pair, "
        f"{args.engine} engine unless a tier names one"
    )
    print()
    print("| stronger | weaker | games | stronger's win share | 95% Wilson | mean margin (VP) | minutes |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: |")
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for weak, strong in itertools.pairwise(tiers):
            jobs = [
                (args.rules, args.players, deal, index, seating, strong, weak, args.engine)
                for deal in range(args.first_deal, args.first_deal + args.deals)
                for index, seating in enumerate(plan)
            ]
            pair_start = time.perf_counter()
            results = list(pool.map(play_game, jobs, chunksize=1))
            minutes = (time.perf_counter() - pair_start) / 60
            games = len(results)
            share = sum(result[0] for result in results)
            low, high = wilson(share, games)
            margin = sum(result[1] for result in results) / games
            print(
                f"| {strong} | {weak} | {games} | {share / games:.1%} | {low:.1%} - {high:.1%} "
                f"| {margin:+.2f} | {minutes:.1f} |",
                flush=True,
            )
    print()
    print(f"total {(time.perf_counter() - started) / 60:.1f} minutes on {args.workers} workers")


if __name__ == "__main__":
    main()
