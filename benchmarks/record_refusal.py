"""How long `stargazer replay` takes to refuse a record far longer than a game can be.

    python benchmarks/record_refusal.py [--moves 1000000] [--rules draft7]

Writes a record of ``--moves`` moves (one real game's actions repeated, as a file of many games
glued together would be) to a temporary file, then runs ``stargazer replay`` on it in this
process and prints the file's size, the exit status, the one-line error and the seconds taken.
The refusal counts the list before any action is checked or replayed (``Game.most_moves``), so
the time is the time to read and parse the JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

from stargazer_rules import Game, load_ruleset, records
from stargazer_rules.frontends.cli import main


def long_record(rules: str, moves: int) -> dict:
    """A record document of ``moves`` moves: the first-option game of seed 0, repeated."""
    game = Game(load_ruleset(rules))
    setup = game.deal(max(game.ruleset.player_counts), seed=0)
    state = game.new_state(setup=setup)
    actions = []
    while not game.is_over(state):
        actions.append(state.legal[0])
        state = game.step(state, state.legal[0])
    document = records.record_to_json(records.record_game(game, setup, actions, seed=0))
    listed = document["actions"]
    document["actions"] = (listed * (moves // len(listed) + 1))[:moves]
    document["moves"] = moves
    return document


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_000)
    parser.add_argument("--rules", default="draft7")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.json"
        path.write_text(json.dumps(long_record(args.rules, args.moves), indent=2), encoding="utf-8")
        size = path.stat().st_size
        errors = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            status = main(["replay", str(path)])
        seconds = time.perf_counter() - started
    print(f"{args.moves:,} moves, {size / 1e6:.1f} MB: exit {status} in {seconds:.2f} s")
    print(errors.getvalue().strip())


if __name__ == "__main__":
    main_benchmark()
