"""The simulation runner: play a run's games on all cores or a Dask cluster and stream them.

A run is a list of plan entries (``planning.plan``); ``kernel_games.play_game`` plays one entry
and returns its ``games.jsonl`` line (docs/simulation.md, the contract with the analysis), a
pure function of the ruleset, the entry and the lineup, so the lines do not depend on how many
workers play them or in which order they finish.

``play_entries`` is the one loop that plays entries and appends each finished game to the
games file as one line, written and flushed at once, in this process, on a pool of worker
processes (``pool``) or through a Dask scheduler (``dask_cluster``): an interrupted run keeps
whole lines. Its caller has planned the run, holds the folder's lock and has checked what the
file holds: ``simulation.runs.simulate_run`` for a command, ``run_simulation`` for a caller of
the library.

The names other modules import from here (the plan, one game, the pool's limits) live in the
modules of their jobs and are offered here too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from stargazer_rules.errors import SimulationError
from stargazer_rules.formats.game_lines import GAME_FORMAT, GAMES_FILE
from stargazer_rules.kernel import native
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import locks, run_folder
from stargazer_rules.simulation.dask_cluster import dask_client, run_dask
from stargazer_rules.simulation.games_file import placing, read_games, start_afresh, trim_to_whole_lines
from stargazer_rules.simulation.kernel_games import play_game, play_games
from stargazer_rules.simulation.one_game import game_of, play_game_stepwise
from stargazer_rules.simulation.planning import (
    LINEUP_SEPARATOR,
    MAX_GAMES,
    PlanEntry,
    bot_seed,
    line_mismatch,
    parse_lineup,
    plan,
    seating,
)
from stargazer_rules.simulation.pool import MAX_WORKERS, chunks, play_chunk, run_pool
from stargazer_rules.simulation.progress import progress_bar

__all__ = [
    "GAMES_FILE",
    "GAME_FORMAT",
    "LINEUP_SEPARATOR",
    "MAX_GAMES",
    "MAX_WORKERS",
    "PlanEntry",
    "RunResult",
    "SimulationError",
    "bot_seed",
    "check_workers",
    "game_of",
    "line_mismatch",
    "parse_lineup",
    "plan",
    "play_chunk",
    "play_entries",
    "play_game",
    "play_game_stepwise",
    "play_games",
    "read_games",
    "run_simulation",
    "seating",
]

#: Lines the loop hands on as they are written: ``(index, line)`` pairs of one chunk.
Written = Callable[[list[tuple[int, str]]], None]


@attrs.frozen
class RunResult:
    """What ``run_simulation`` did: the ``games_file``, the games ``played`` now, those
    ``skipped`` because the file already had them (``resume``), the wall-clock ``seconds``,
    and the ``engine`` whose bots played (``native`` or ``python``)."""

    games_file: Path
    played: int
    skipped: int
    seconds: float
    engine: str = "python"

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def check_workers(workers: int | None) -> None:
    """Refuse a worker count past ``pool.MAX_WORKERS`` before any process starts."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise SimulationError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")


def run_simulation(
    ruleset: Ruleset,
    out: str | os.PathLike[str],
    *,
    players: int,
    games: int,
    lineup: Sequence[str],
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | None = None,
    label: str | None = None,
    engine: str = native.DEFAULT_ENGINE,
) -> RunResult:
    """Play the plan of ``games`` games and stream them to ``out/games.jsonl``.

    ``lineup`` holds one bot spec per player (``parse_lineup``). ``workers`` processes play the
    games (default: every core; 1 plays in this process); ``scheduler``, the address of a Dask
    ``distributed`` scheduler (``tcp://host:8786``), sends them to its cluster instead.
    Without ``resume`` the games file is started afresh (a file already there is first set
    aside in ``out/set-aside/``, never deleted); with it, the games the file already has are
    skipped (the file must come from the same ruleset, players, seed and lineup). The folder's
    lock (``locks``) is held while games are written.
    ``progress`` shows a bar with an ETA on stderr (None: only when stderr is a terminal).
    ``engine``: ``native`` (the bots search in the kernel where the ruleset allows) or
    ``python``; a resumed file must have been played by the same engine.

    This is the library's run of one folder; ``simulate`` and ``compare`` make theirs with
    ``simulation.runs.simulate_run``, which also reuses, hands over and keeps runs.
    """
    lineup = tuple(lineup)
    if len(lineup) != players:
        raise SimulationError(f"the lineup has {len(lineup)} bots for {players} players")
    check_workers(workers)
    try:
        played_by = native.engine_for(game_of(ruleset), engine)
    except ValueError as error:
        raise SimulationError(str(error)) from None
    path = Path(out) / GAMES_FILE
    entries = plan(games, players, seed)
    with locks.holding(path.parent, "simulate"):
        strange = run_folder.not_plain(path.parent)
        if strange:
            raise SimulationError(f"{path.parent}: {', '.join(strange)}: not a plain file (a link or a special file); "
                                  "a run writes only its own files")
        done: set[int] = set()
        if resume and path.exists():
            previous = read_games(path, placing)  # a long run's games are not held whole to resume it
            identity = {"ruleset": {"fingerprint": ruleset.fingerprint}, "players": players, "lineup": list(lineup),
                        "seed": seed, "engine": played_by}
            for game in previous:
                mismatch = line_mismatch(game, identity)
                if mismatch is not None:
                    raise SimulationError(
                        f"cannot resume {path}: its game {game['index']} is of another run ({mismatch}); "
                        "leave out --resume to start afresh, or choose another --out"
                    )
            done = {game["index"] for game in previous}
        else:
            start_afresh(path)
        todo = [entry for entry in entries if entry.index not in done]
        seconds = play_entries(
            ruleset, path, todo, lineup=lineup, total=len(entries), workers=workers, scheduler=scheduler,
            progress=progress, label=label, engine=engine,
        )
    return RunResult(path, len(todo), len(entries) - len(todo), seconds, played_by)


def play_entries(
    ruleset: Ruleset,
    path: Path,
    todo: Sequence[PlanEntry],
    *,
    lineup: Sequence[str],
    total: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    label: str | None = None,
    engine: str = native.DEFAULT_ENGINE,
    written: Written | None = None,
) -> float:
    """Play ``todo`` and append each game's line to ``path``; the seconds it took.

    The caller holds the folder's lock and knows the file holds only lines of this run (of a
    run of ``total`` games); a last line cut short is cut off first. ``written`` is given each
    chunk's lines once they are on disk. Ctrl-C leaves whole lines only.
    """
    client = dask_client(scheduler) if scheduler is not None else None  # fail before writing
    start = time.perf_counter()
    try:
        trim_to_whole_lines(path)
        with outputfiles.open_for_append(path, encoding="utf-8") as file, progress_bar(total, total - len(todo), progress, label) as bar:

            def write(lines: list[tuple[int, str]]) -> None:
                for _index, line in lines:
                    file.write(line + "\n")
                    file.flush()
                bar.update(len(lines))
                if written is not None:
                    written(lines)

            if client is not None:
                run_dask(client, ruleset, todo, lineup, write, engine)
            elif (workers or os.cpu_count() or 1) == 1 or len(todo) <= 1:
                for chunk in chunks(todo, 1):
                    write(play_chunk(ruleset, chunk, lineup, engine))
            else:
                run_pool(workers or os.cpu_count() or 1, ruleset, todo, lineup, write, engine)
    except KeyboardInterrupt:
        trim_to_whole_lines(path)  # keep only whole games: the next run plays the rest
        raise
    finally:
        if client is not None:
            client.close()
    return time.perf_counter() - start
