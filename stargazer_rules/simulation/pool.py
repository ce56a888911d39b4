"""The worker processes of a run: its games split into chunks, each played by a worker.

``play_chunk`` is the task, the same for the process pool and for a Dask cluster
(``dask_cluster``): it plays a chunk (``kernel_games.play_games``) and encodes its lines in the
worker, so the parent only writes them. The workers ignore Ctrl-C and end with their parent
(``lifeline``); the parent alone writes games, and ends them when it stops.
"""

from __future__ import annotations

import concurrent.futures
import math
import signal
from collections.abc import Callable, Sequence

from stargazer_rules.engine.game import Game
from stargazer_rules.formats.game_lines import cycle_collector_paused, game_line
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import lifeline
from stargazer_rules.simulation.kernel_games import play_games
from stargazer_rules.simulation.one_game import game_of
from stargazer_rules.simulation.planning import PlanEntry

__all__ = ["CHUNKS_PER_WORKER", "MAX_CHUNK", "MAX_WORKERS", "chunks", "play_chunk", "run_pool"]

#: At most this many games go to a worker in one task: small enough for a lively progress
#: bar and an even finish, large enough that sending tasks costs nothing next to playing them.
MAX_CHUNK = 16
#: Aim for this many tasks per worker, so that a slow chunk does not leave the others idle.
CHUNKS_PER_WORKER = 8
#: The most worker processes a run starts. More processes than cores only wait for one
#: another (the default is one per core), and each starts Python and loads the ruleset.
MAX_WORKERS = 64


def play_chunk(
    ruleset: Ruleset | None,
    entries: Sequence[PlanEntry],
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> list[tuple[int, str]]:
    """The worker's task: play ``entries`` and return ``(index, line)`` pairs.

    ``ruleset`` None uses the ruleset the process pool's initializer installed, so a worker
    process receives the ruleset once, not with every task. Lines are encoded here, in the
    workers, so the parent process only writes them.
    """
    game = _WORKER_GAME if ruleset is None else game_of(ruleset)
    if game is None:
        raise RuntimeError("play_chunk(None, ...) outside a worker whose initializer set a ruleset")
    with cycle_collector_paused():
        return [(line["index"], game_line(line)) for line in play_games(game, entries, lineup, engine)]


_WORKER_GAME: Game | None = None


def _init_worker(ruleset: Ruleset) -> None:
    global _WORKER_GAME
    lifeline.exit_with_parent()  # no orphan playing on after a kill -9 of the run
    # Ctrl-C at a terminal signals the whole process group. A worker interrupted while it sends
    # a result back can die holding the result queue's lock, and the pool then waits forever;
    # so the workers ignore SIGINT and the parent, which alone writes games, stops them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_GAME = game_of(ruleset)


def chunks(entries: Sequence[PlanEntry], workers: int) -> list[list[PlanEntry]]:
    """Split the games into tasks: about ``CHUNKS_PER_WORKER`` per worker, ``MAX_CHUNK`` at most."""
    size = max(1, min(MAX_CHUNK, math.ceil(len(entries) / (workers * CHUNKS_PER_WORKER))))
    return [list(entries[i : i + size]) for i in range(0, len(entries), size)]


def run_pool(
    workers: int,
    ruleset: Ruleset,
    todo: Sequence[PlanEntry],
    lineup: Sequence[str],
    write: Callable[[list[tuple[int, str]]], None],
    engine: str,
) -> None:
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        initializer=_init_worker,
        initargs=(ruleset,),
    ) as pool:
        futures = [pool.submit(play_chunk, None, chunk, lineup, engine) for chunk in chunks(todo, workers)]
        try:
            for future in concurrent.futures.as_completed(futures):
                write(future.result())
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            _stop_workers(pool)
            raise


def _stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End the pool's workers now: their chunks in play are lost, and ``--resume`` replays them
    (the games written are whole). Python 3.14's ``terminate_workers`` does this; before it the
    pool's processes are only reachable through its ``_processes``."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
