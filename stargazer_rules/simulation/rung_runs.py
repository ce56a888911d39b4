"""The games of each rung of a ladder, every seat played by that rung's bot, for calibration.

A rung is a bot spec (``random``, ``greedy``, ``mcts:200``); its games are the run that
``stargazer simulate --bots RUNG`` makes with the same ruleset, players, games, seed and engine,
so a run already in the cache (or in the rung's folder) is reused, not played again, and a run
played here is kept in the cache for ``simulate`` to reuse (``simulation.runs``). Each rung's
run lives in ``OUT/runs/<rung>/``.

A run plays each deal in every rotation of the lineup; with one bot in every seat the
rotations of a deal are the same game but for the bots' seeds, and a table never plays one
deal four times. So a rung's sample is one game per deal (``one_per_deal``: the rotation-0
game of each block), and ``deals`` deals cost ``deals * players`` games, most of them reused
from the cache when ``simulate`` made the run before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation.planning import parse_lineup
from stargazer_rules.simulation.runs import RunOutcome, RunRequest, simulate_run

__all__ = ["RUNS_FOLDER", "one_per_deal", "rung_folder", "rung_run"]

#: The folder of the rungs' runs inside a calibration's output folder.
RUNS_FOLDER = "runs"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def rung_folder(out: str | Path, rung: str) -> Path:
    """``OUT/runs/<rung>``, the rung's spec made a folder name (``mcts:200`` -> ``mcts-200``)."""
    return Path(out) / RUNS_FOLDER / _UNSAFE.sub("-", rung).strip("-.")


def rung_run(
    ruleset: Ruleset,
    rung: str,
    *,
    players: int,
    deals: int,
    out: str | Path,
    seed: int = 0,
    workers: int | None = None,
    engine: str = native.DEFAULT_ENGINE,
    cache: Path | None = None,
    reuse: bool = True,
    progress: bool | None = None,
    say: Callable[[str], None] = lambda text: None,
    reduce: Callable[[dict[str, Any]], Any] | None = None,
) -> RunOutcome:
    """The run of ``deals`` deals (each in every rotation) of ``rung`` in every seat
    (``simulate --bots RUNG --games DEALS*PLAYERS``)."""
    lineup: Sequence[str] = parse_lineup(rung, players)
    request = RunRequest(
        ruleset, rung_folder(out, rung), tuple(lineup), players=players, games=deals * players, seed=seed, workers=workers,
        engine=engine, reuse=reuse, cache=cache, label=rung, progress=progress, reduce=reduce,
    )
    return simulate_run(request, say, command="calibrate")


def one_per_deal(games: Sequence[Any]) -> list[Any]:
    """The rotation-0 game of each deal block of a run's games (games.jsonl lines)."""
    return [game for game in games if game["rotation"] == 0]
