"""Games played on a Dask ``distributed`` cluster (``--scheduler``): the same chunks and task
as the process pool (``pool.play_chunk``), the ruleset sent to each worker once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import scheduler
from stargazer_rules.simulation.planning import PlanEntry
from stargazer_rules.simulation.pool import chunks, play_chunk
from stargazer_rules.simulation.scheduler import SCHEDULER_TIMEOUT

__all__ = ["SCHEDULER_TIMEOUT", "dask_client", "run_dask"]

def dask_client(address: str) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address``, or one line within
    ``SCHEDULER_TIMEOUT`` seconds whatever listens there (``scheduler.connect``)."""
    return scheduler.connect(address, SCHEDULER_TIMEOUT)


def run_dask(
    client: Any,
    ruleset: Ruleset,
    todo: Sequence[PlanEntry],
    lineup: Sequence[str],
    write: Callable[[list[tuple[int, str]]], None],
    engine: str,
) -> None:
    """The same tasks as the process pool, through a Dask cluster; the ruleset is sent to each
    worker once (scattered) and each worker builds its ``Game`` once."""
    import distributed

    workers = max(1, sum(client.nthreads().values()))
    shared = client.scatter(ruleset, broadcast=True)
    futures = [
        client.submit(play_chunk, shared, chunk, lineup, engine, pure=False)
        for chunk in chunks(todo, workers)
    ]
    try:
        for future in distributed.as_completed(futures):
            write(future.result())
    except BaseException:
        client.cancel(futures)
        raise
