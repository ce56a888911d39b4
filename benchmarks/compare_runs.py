"""The analysis step of ``stargazer compare``: two runs' reports and their comparison.

    python benchmarks/compare_runs.py [--games 200] [--players 4] [--repeat 3]

Plays two seeded runs of random bots (draft7 and base, the same plan) in this process, then
times, best of ``--repeat``: what ``stargazer compare`` does once both runs are played
(``run_commands._compare_and_write``: summary.json and report.html of each run, then the comparison,
both runs judged by the targets.yaml beside base, B's, as ``stargazer compare`` judges them);
``compare_summaries`` of two summarised ``Run``s and of the games alone (which summarises both
runs again); and ``summarize`` of one run. The plots dominate a report's cost; the comparison
reuses each run's summary. Compare figures only between runs on the same machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import Run, compare_summaries, summarize
from stargazer_rules.analysis.targets_file import targets_for
from stargazer_rules.frontends.cli import run_commands
from stargazer_rules.simulation import parse_lineup, plan, play_game


def best_of(repeat: int, work) -> float:
    """The fastest of ``repeat`` timings of ``work()``, in seconds."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rulesets = (load_ruleset("draft7"), load_ruleset("base"))
    lineup = parse_lineup("random", args.players)
    entries = plan(args.games, args.players, seed=0)
    pair = [[play_game(ruleset, entry, lineup) for entry in entries] for ruleset in rulesets]
    targets = targets_for(rulesets[1], None)
    options = argparse.Namespace(judged_by=targets)
    with tempfile.TemporaryDirectory() as out:
        folders = [str(Path(out) / ruleset.name) for ruleset in rulesets]
        names = [ruleset.name for ruleset in rulesets]
        compare = best_of(args.repeat, lambda: run_commands._compare_and_write(pair, rulesets, folders, names, options))
    runs = [Run.summarised(games, ruleset=ruleset, targets=targets) for games, ruleset in zip(pair, rulesets, strict=True)]
    diff = {"ruleset_a": rulesets[0], "ruleset_b": rulesets[1], "targets": targets}
    of_runs = best_of(args.repeat, lambda: compare_summaries(runs[0], runs[1], **diff))
    of_games = best_of(args.repeat, lambda: compare_summaries(pair[0], pair[1], **diff))
    summary = best_of(args.repeat, lambda: summarize(pair[0], ruleset=rulesets[0], targets=targets))
    print(f"{len(pair[0])} + {len(pair[1])} random games, {args.players} players, best of {args.repeat}")
    print(f"compare (both reports and the comparison): {compare:.3f} s")
    print(f"compare_summaries of two Runs:             {of_runs:.3f} s")
    print(f"compare_summaries of the games alone:      {of_games:.3f} s")
    print(f"summarize one run:                         {summary:.3f} s")


if __name__ == "__main__":
    main()
