"""The analysis of two builds side by side: this checkout and a baseline.

Three measurements, each run alternately with each build first on ``PYTHONPATH`` (a build is a
checkout whose ``stargazer_rules/`` holds a compiled ``_kernel*.so``), each in a fresh process,
``--rounds`` times; printed as each build's median and the median of the per-round ratios
(this / baseline):

- **report**: CPU seconds (user + system, of the process and its children) of
  ``stargazer report DIR`` on a copy of a run folder (``--run``; made once with
  ``stargazer simulate --bots greedy --games 1800`` when missing);
- **import**: CPU seconds of importing the analysis a report uses (``summary``, ``report``,
  ``compare``) in a fresh interpreter;
- **compare**: the peak resident memory (MB) of ``stargazer compare A B --until-decided`` over
  runs the cache already holds (``--compare-games`` per look, at most 4 x that per ruleset):
  each build is run once first to fill its cache, so the rounds measure the analysis, not play.

    .venv/bin/python benchmarks/report_speed.py --baseline ../old --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: Where every command runs: ``python -m`` and ``python -c`` put the working folder first on the
#: path, so a command run from a checkout would import that checkout whatever ``PYTHONPATH`` says.
NEUTRAL = Path(tempfile.gettempdir())
IMPORTS = "import stargazer_rules.analysis.summary, stargazer_rules.analysis.report, stargazer_rules.analysis.compare"


def _make_run(build: Path, run: Path, bots: str, cache: Path) -> None:
    """``stargazer simulate --bots BOTS --games 1800 --out RUN`` with ``build``."""
    env = {**os.environ, "PYTHONPATH": str(build), "STARGAZER_CACHE": str(cache)}
    subprocess.run([sys.executable, "-m", "stargazer_rules", "simulate", "--bots", bots, "--games", "1800",
                    "--out", str(run)], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd=NEUTRAL)


def _measured(command: list[str], build: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """The CPU seconds and peak RSS (MB) of one run of ``command`` alone, in a fresh helper
    process (the children's rusage of this process adds up over every child)."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(u.ru_utime + u.ru_stime, u.ru_maxrss / 1024)"
    )
    full = {**os.environ, "PYTHONPATH": str(build), **(env or {})}
    result = subprocess.run([sys.executable, "-c", probe, *command], env=full, capture_output=True, text=True,
                            cwd=NEUTRAL)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} (build {build}) failed:\n{result.stderr[-2000:]}")
    cpu, rss = result.stdout.split()
    return float(cpu), float(rss)


def _alternate(builds: dict[str, Path], rounds: int, one: Callable[[str, Path, int], float]) -> dict[str, list[float]]:
    values: dict[str, list[float]] = {name: [] for name in builds}
    for round_ in range(rounds):
        order = list(builds) if round_ % 2 == 0 else list(reversed(builds))
        for name in order:
            values[name].append(one(name, builds[name], round_))
    return values


def _print(title: str, unit: str, values: dict[str, list[float]]) -> None:
    print(title)
    for name, found in values.items():
        print(f"  {name:9} median {statistics.median(found):8.3f} {unit}   runs: {', '.join(f'{v:.3f}' for v in found)}")
    ratios = [this / base for this, base in zip(values["this"], values["baseline"], strict=True)]
    print(f"  this / baseline: median of the per-round ratios {statistics.median(ratios):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, help="the other build: a checkout with its kernel compiled in")
    parser.add_argument("--run", type=Path, default=None, help="a run folder of 1,800 greedy games (made when missing)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each build per measurement, alternating")
    parser.add_argument("--compare", nargs=2, default=("draft7", "base"), metavar=("A", "B"))
    parser.add_argument("--compare-games", type=int, default=1800, help="--games of the compare (0: skip it)")
    parser.add_argument("--bots", default="greedy")
    args = parser.parse_args()
    builds = {"baseline": args.baseline.resolve(), "this": HERE}
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        scratch_dir = Path(scratch).resolve()
        run = args.run or scratch_dir / "run-1800"
        if not (run / "games.jsonl").exists():
            print(f"making the run folder {run} (simulate --bots {args.bots} --games 1800)", file=sys.stderr)
            _make_run(HERE, run, args.bots, scratch_dir / "cache-run")
        copies = {}
        for name in builds:
            copies[name] = scratch_dir / f"report-{name}"
            shutil.copytree(run, copies[name])

        def report(name: str, build: Path, round_: int) -> float:
            return _measured([python, "-m", "stargazer_rules", "report", str(copies[name])], build)[0]

        def imports(name: str, build: Path, round_: int) -> float:
            return _measured([python, "-c", IMPORTS], build)[0]

        _print(f"stargazer report of {run} (1,800 games), CPU seconds, {args.rounds} runs each, alternating", "s",
               _alternate(builds, args.rounds, report))
        _print(f"import of the analysis ({IMPORTS[7:]}), CPU seconds", "s", _alternate(builds, args.rounds, imports))
        if args.compare_games:
            a, b = args.compare
            command = [python, "-m", "stargazer_rules", "compare", a, b, "--games", str(args.compare_games),
                       "--bots", args.bots, "--until-decided"]

            def compare(name: str, build: Path, round_: int) -> float:
                env = {"STARGAZER_CACHE": str(scratch_dir / f"cache-{name}")}
                out = scratch_dir / f"compare-{name}-{round_}"
                rss = _measured([*command, "--out", str(out)], build, env)[1]
                shutil.rmtree(out, ignore_errors=True)
                return rss

            print(f"filling each build's cache: {' '.join(command[3:])}", file=sys.stderr)
            for name, build in builds.items():
                _measured([*command, "--out", str(scratch_dir / f"fill-{name}")], build,
                          {"STARGAZER_CACHE": str(scratch_dir / f"cache-{name}")})
                shutil.rmtree(scratch_dir / f"fill-{name}", ignore_errors=True)
            _print(f"compare {a} {b} --games {args.compare_games} --until-decided (cached runs), peak RSS", "MB",
                   _alternate(builds, args.rounds, compare))


if __name__ == "__main__":
    main()
