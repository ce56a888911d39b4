"""The kernel's work counted in instructions (callgrind), which the machine's load does not change.

    python benchmarks/instructions.py [--old 8f086cb] [--games 2000] [--mcts-games 2]
                                      [--ideas-games 2000] [--ideas-mcts-games 1]

Two comparisons, each run under ``valgrind --tool=callgrind`` (Valgrind must be installed):

- **this checkout against an older commit** (``--old``, by default 8f086cb, the kernel before the
  rules language): the commit's files are exported to a temporary folder, the example
  ``crates/kernel/examples/instructions.rs`` of this checkout is copied in, and both builds play
  the same games (kernel deals, seeds 0..N, four players): random playouts of draft 7 and of the
  base ruleset (``plain``) and whole games with ``mcts:200`` in every seat. Each figure is the
  instructions of N games less those of the same program playing none (start-up), per game; the
  two builds run one after the other for each measurement, and print a digest of every game's
  end, which must be equal (the same games). Printed: each build's figure and new / old.
- **the composed ``ideas`` ruleset against draft 7** in this checkout's installed kernel: random
  playouts (``Kernel.random_games``) and ``mcts:200`` games (``simulation.kernel_games``), the
  instructions of the kernel call alone (``--toggle-collect``), per decision. Printed: each
  ruleset's figure and draft 7's instructions per decision over ideas' (the speed of ideas as a
  fraction of draft 7's; the aim is at least 0.7). ``benchmarks/language_speed.py`` measures the
  same ratio in CPU time.

Every run's figure is printed. Instruction counts are the same on a loaded machine and an idle
one; they weigh every instruction alike (a division as an addition, a cache miss as a hit), so
CPU time can differ from them by some percent.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = Path("crates/kernel/examples/instructions.rs")

IDEAS_RANDOM = """
import sys
from stargazer_rules import Game, load_ruleset
from stargazer_rules.kernel import native
kernel = native.kernel_for(Game(load_ruleset(sys.argv[1])))
print(kernel.random_games(4, 0, int(sys.argv[2])))
"""

IDEAS_MCTS = """
import sys
from stargazer_rules import Game, load_ruleset
from stargazer_rules.simulation.kernel_games import play_games
from stargazer_rules.simulation.planning import plan
lines = play_games(Game(load_ruleset(sys.argv[1])), plan(int(sys.argv[2]), 4, 0), ["mcts:200"] * 4)
print(sum(line["decisions"] for line in lines))
"""


def callgrind(command: list[str], toggle: str | None = None) -> tuple[int, str]:
    """The instructions `command` executes (those inside `toggle`'s function only, when given)
    and what it prints."""
    options = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    if toggle:
        options.append(f"--toggle-collect={toggle}")
    done = subprocess.run(options + command, capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if collected is None:
        raise SystemExit(f"callgrind printed no count for {' '.join(command)}:\n{done.stderr}")
    return int(collected.group(1)), done.stdout.strip()


def build(checkout: Path, target: Path) -> Path:
    """The example built in release mode from `checkout` into `target`."""
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "stargazer-kernel", "--example", "instructions"],
        cwd=checkout, env={**os.environ, "CARGO_TARGET_DIR": str(target)}, check=True,
    )
    return target / "release" / "examples" / "instructions"


def export(commit: str, folder: Path) -> None:
    """The files of `commit` in `folder`, with this checkout's example in it."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / EXAMPLE).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / EXAMPLE, folder / EXAMPLE)


def against_old(old: str, games: int, mcts_games: int, work: Path) -> None:
    old_folder = work / "old"
    old_folder.mkdir()
    export(old, old_folder)
    binaries = {"old": build(old_folder, work / "old-target"), "new": build(ROOT, work / "new-target")}
    print(f"this checkout against {old}: instructions per game (same games, kernel deals, 4 players)")
    measurements = [("draft 7, random playouts", ["random", str(games)], games),
                    ("base, random playouts", ["random", str(games), "plain"], games),
                    ("draft 7, mcts:200", ["mcts", str(mcts_games)], mcts_games)]
    for title, args, count in measurements:
        figures = {}
        digests = set()
        for name, binary in binaries.items():
            start_up, _ = callgrind([str(binary), args[0], "0"] + args[2:])
            total, printed = callgrind([str(binary)] + args)
            figures[name] = (total - start_up) / count
            digests.add(printed.split("digest")[-1])
            print(f"  {title:26} {name}: {total - start_up:>14,} instructions, {figures[name]:>12,.0f} a game   ({printed})")
        same = "the same games" if len(digests) == 1 else "DIFFERENT GAMES"
        print(f"  {title:26} new / old: {figures['new'] / figures['old']:.4f} ({same})")


def ideas_against_draft7(games: int, mcts_games: int) -> None:
    print("ideas against draft 7 in this checkout's kernel: instructions per decision")
    for title, script, count, toggle in (
        ("random playouts", IDEAS_RANDOM, games, "*__pymethod_random_games__*"),
        ("mcts:200", IDEAS_MCTS, mcts_games, "*games::play_games*"),
    ):
        per_decision = {}
        for ruleset in ("draft7", "ideas"):
            total, printed = callgrind([sys.executable, "-c", script, ruleset, str(count)], toggle)
            per_decision[ruleset] = total / int(printed)
            print(f"  {title:16} {ruleset:7} {total:>15,} instructions, {int(printed):>8,} decisions, {per_decision[ruleset]:>10,.0f} a decision")
        print(f"  {title:16} ideas' speed / draft 7's: {per_decision['draft7'] / per_decision['ideas']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="8f086cb", help="the commit to compare with (default 8f086cb); 'none' skips it")
    parser.add_argument("--games", type=int, default=2000, help="random playouts a measurement (default 2000)")
    parser.add_argument("--mcts-games", type=int, default=2, help="mcts:200 games of the old comparison (default 2)")
    parser.add_argument("--ideas-games", type=int, default=2000, help="random playouts of ideas and draft 7 (default 2000; 0 skips)")
    parser.add_argument("--ideas-mcts-games", type=int, default=1, help="mcts:200 games of ideas and draft 7 (default 1)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    if args.old != "none":
        with tempfile.TemporaryDirectory(prefix="stargazer-instructions-") as work:
            against_old(args.old, args.games, args.mcts_games, Path(work))
    if args.ideas_games:
        ideas_against_draft7(args.ideas_games, args.ideas_mcts_games)


if __name__ == "__main__":
    main()
