"""The long lockstep run of the rules language: generated programs on both engines.

    python benchmarks/language_lockstep.py [--rulesets 2000] [--seed 0]

Draws ``--rulesets`` valid rulesets whose every crew runs a program of the rules language
(``language_rulesets`` of tests/strategies.py, drawn from a seeded generator, not searched),
plays one game of each at each of its player counts on the native kernel and the Python engine at once with
tests/differential.py (the legal actions, the whole state and the provisional totals equal at
every decision, the score sheets and winners at the end) and checks every cube at every
state (R6, R11, R13). Prints the rulesets, games and decisions compared, the rulesets the kernel
refused (each reason: they run on the Python engine) and mismatches (each one's first line and
the documents); exit status 1 if any.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from differential import Mismatch, play_lockstep  # noqa: E402
from invariants import check_cubes  # noqa: E402
from strategies import choose, generated_game, language_rulesets, seeds  # noqa: E402

from stargazer_rules.kernel import native  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0, help="seed of the draws (the same seed draws the same rulesets)")
    args = parser.parse_args()
    counts = {"rulesets": 0, "games": 0, "decisions": 0}
    # Games in which a rule of the procedure acted, seen from the Python engine's states: a crew
    # replaced from the queue (R11's at_cap), free cubes taken as a seat's own (idea R8), a
    # scoring line of end_scoring (a ruleset with lines).
    exercised = {"crew replaced": 0, "free cubes taken": 0, "with scoring lines": 0}
    refused: list[str] = []
    mismatches: list[str] = []
    started = time.perf_counter()

    @settings(
        max_examples=args.rulesets,
        database=None,
        deadline=None,
        phases=["generate"],  # no shrinking: each draw is one ruleset of the run
        suppress_health_check=list(HealthCheck),
    )
    @given(documents=language_rulesets(), deal_seed=seeds, play_seed=seeds)
    def one(documents, deal_seed, play_seed) -> None:
        game = generated_game(documents)
        if native.kernel_for(game) is None:
            refused.append(f"{native.fallback_reason(game)}\n{json.dumps(documents)}")
            return
        rng = random.Random(play_seed)
        seen: dict[str, int] = {}  # the queue's first length, and each of exercised as 0 or 1

        def policy(state):
            check_cubes(game, state)
            seen["crew replaced"] = seen.get("crew replaced", False) or len(state.queue) < seen.setdefault("queue", len(state.queue))
            seen["free cubes taken"] = seen.get("free cubes taken", False) or sum(state.taken) > 0
            return choose(game, state, rng)

        for players in sorted(game.ruleset.player_counts):
            seen.clear()
            seen["with scoring lines"] = bool(game.ruleset.end_scoring)
            try:
                counts["decisions"] += play_lockstep(game, game.deal(players, deal_seed), rng, choose=policy)
            except (Mismatch, AssertionError) as error:
                mismatches.append(f"{str(error).splitlines()[0][:300]}\n{json.dumps(documents)}")
            counts["games"] += 1
            for what in exercised:
                exercised[what] += seen.get(what, False)
        counts["rulesets"] += 1
        if counts["rulesets"] % 100 == 0:
            print(f"  {counts['rulesets']} rulesets, {counts['decisions']} decisions, {len(mismatches)} mismatches, {len(refused)} refused", file=sys.stderr, flush=True)

    seed(args.seed)(one)()
    seconds = time.perf_counter() - started
    print(
        f"{counts['rulesets']} rulesets played in lockstep ({counts['games']} games), {counts['decisions']} decisions "
        f"compared, {len(refused)} refused by the kernel, {len(mismatches)} mismatches ({seconds:.0f} s)"
    )
    print("games in which: " + ", ".join(f"{what} {count}" for what, count in exercised.items()))
    for reason in refused[:10]:
        print("REFUSED", reason[:2000])
    for mismatch in mismatches[:10]:
        print("MISMATCH", mismatch)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
