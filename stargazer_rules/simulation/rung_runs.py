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

Before any rung plays, ``checked_rungs`` refuses what no calibration can use (no rung, more than
``MAX_RUNGS``, a rung given twice, a bot spec ``simulate --bots`` refuses, an MCTS budget past
``bots.MAX_ITERATIONS``), whether the rungs were given or read from a cached ladder, and
``rungs_estimate`` times one game of each rung (an MCTS rung at ``PROBE_ITERATIONS``, scaled to
its budget) so that the command says how long it may take before it starts.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from stargazer_rules.bots.base import canonical_spec, parse_spec
from stargazer_rules.errors import SimulationError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation.planning import PlanEntry, parse_lineup
from stargazer_rules.simulation.runs import RunOutcome, RunRequest, simulate_run

__all__ = ["MAX_RUNGS", "RUNS_FOLDER", "checked_rungs", "one_per_deal", "rung_folder", "rung_run", "rungs_estimate"]

#: The most rungs one calibration sets the logs beside: a ladder of far more steps than any
#: designer reads, each rung a run of its own.
MAX_RUNGS = 16
#: The MCTS budget of the game that times an MCTS rung; its time is scaled to the rung's budget.
PROBE_ITERATIONS = 25

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


def checked_rungs(rungs: Sequence[str], players: int) -> tuple[str, ...]:
    """``rungs`` as calibrate plays them, each checked before any is played: ``SimulationError``
    or ``BotSpecError`` (``simulate --bots``'s own checks) naming the first that cannot be."""
    rungs = tuple(rungs)
    if not rungs:
        raise SimulationError("no rung to compare: give bots, weakest first, e.g. --rungs random,greedy,mcts:100")
    if len(rungs) > MAX_RUNGS:
        raise SimulationError(f"{len(rungs)} rungs: a calibration compares at most {MAX_RUNGS}")
    seen: dict[str, str] = {}
    for rung in rungs:
        spec = parse_lineup(rung, players)[0]
        if spec in seen:
            same = "" if seen[spec] == rung else f" (as {seen[spec]!r})"
            raise SimulationError(f"the rung {rung!r} is given twice{same}: give each rung once")
        seen[spec] = rung
    return rungs


def rungs_estimate(
    ruleset: Ruleset, rungs: Sequence[str], *, players: int, deals: int, seed: int = 0, workers: int | None = None,
    engine: str = native.DEFAULT_ENGINE,
) -> float:
    """About how many seconds playing every rung's ``deals * players`` games takes on
    ``workers`` processes, from one game of each rung timed here (an MCTS rung at
    ``PROBE_ITERATIONS`` iterations, scaled to its budget: a search's time grows with its
    iterations). Errs long: the runs play in the kernel's batches, and some come from the cache."""
    from stargazer_rules.simulation.one_game import play_game_stepwise

    entry = PlanEntry(index=0, block=0, rotation=0, deal_seed=seed, players=players)
    total = 0.0
    for rung in rungs:
        kind, params = parse_spec(rung)
        budget = params.get("iterations")
        scale = 1.0
        if isinstance(budget, int) and budget > PROBE_ITERATIONS:
            scale = budget / PROBE_ITERATIONS
            params = {**params, "iterations": PROBE_ITERATIONS}
        lineup = [canonical_spec(kind, params)] * players
        started = time.perf_counter()
        play_game_stepwise(ruleset, entry, lineup, engine)
        total += (time.perf_counter() - started) * scale * deals * players
    return total / max(1, workers or os.cpu_count() or 1)
