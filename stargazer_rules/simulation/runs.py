"""A run as ``simulate``, ``compare`` and ``tune`` make it: reuse what is there, play what is
missing, keep the result, and lose nothing on the way.

One path makes a run, each step once: ``holding_run_folder`` takes the output folder's lock
(the command holds it while it also writes its report), and ``play_run``

- plans the run (``planning.plan``) and reads the cache's bound, before anything is written;
- reads the folder's games as a run of this identity (``cache.checked_run``, the one check of
  a line against a run): a line edited or garbled is named (file:line), set aside
  (``run_folder.set_aside``) and its game played again; a folder whose lines belong to another
  run is not reused at all;
- hands the games of another run found in the folder to the cache before the folder is
  given to this one, so that running those options again reuses them;
- adds the games the cache holds of this run, plays only the games still missing
  (``runner.play_entries``, which neither plans, locks nor checks again), and keeps the run in
  the cache;
- never cuts a run: a smaller ``games`` uses the first games of a larger run.

``simulate_run`` is both, for a caller that writes nothing else in the folder.
What it does is said through ``say``, one line each, for the command to print.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.formats.game_lines import DIGEST_FIELD, GAMES_FILE, copy_lines, line_spans
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import cache, estimate, locks, run_folder
from stargazer_rules.simulation.one_game import game_of
from stargazer_rules.simulation.planning import PlanEntry, plan
from stargazer_rules.simulation.runner import SimulationError, check_workers, play_entries

__all__ = ["HeldFolder", "RunOutcome", "RunRequest", "check_outside_cache", "holding_run_folder", "play_run", "simulate_run"]

#: At most this many located problems of one folder are printed; the rest are counted.
SHOWN_PROBLEMS = 5


@attrs.frozen
class RunRequest:
    """What a run is asked: the ruleset, the output folder, the lineup and the options of
    ``simulate`` (``reuse`` False is ``--no-cache``; ``cache`` the cache folder); ``reduce``
    maps each game to what the outcome keeps of it (the whole game by default): the run's
    games are read with it, so a long run is never held whole."""

    ruleset: Ruleset
    out: Path
    lineup: tuple[str, ...]
    players: int
    games: int
    seed: int = 0
    workers: int | None = None
    scheduler: str | None = None
    engine: str = native.DEFAULT_ENGINE
    resume: bool = False
    reuse: bool = True
    cache: Path | None = None
    label: str | None = None
    progress: bool | None = None
    reduce: Callable[[dict[str, Any]], Any] | None = None


@attrs.frozen
class RunOutcome:
    """What ``play_run`` did: the run's ``games`` (its first ``planned``, sorted by index;
    what the request's ``reduce`` kept of each),
    the games ``played`` now and their ``seconds``, those ``kept`` from before, and the
    ``engine`` whose bots played."""

    games: tuple[Any, ...]
    planned: int
    played: int
    kept: int
    seconds: float
    engine: str
    games_file: Path

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


@attrs.frozen
class HeldFolder:
    """An output folder whose lock this process holds (made by ``holding_run_folder`` only),
    with the ``command`` that holds it."""

    path: Path
    command: str


@contextlib.contextmanager
def holding_run_folder(out: str | os.PathLike[str], command: str, cache_dir: Path | None) -> Iterator[HeldFolder]:
    """Hold the lock of the output folder ``out`` for the ``with`` block (``locks.holding``),
    after refusing a file where the folder should be, and a folder inside the cache folder
    ``cache_dir`` (None: ``cache.cache_folder()``) or holding it."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SimulationError(f"--out {out} is a file, not a folder: name a folder for the run's files")
    check_outside_cache(out, cache_dir if cache_dir is not None else cache.cache_folder())
    with locks.holding(out, command):
        yield HeldFolder(out, command)


def simulate_run(request: RunRequest, say: Callable[[str], None], command: str = "simulate") -> RunOutcome:
    """Make ``request.out`` hold the run asked for, playing only what no folder has; the
    folder is held for the run only."""
    with holding_run_folder(request.out, command, request.cache) as held:
        return play_run(request, say, held)


def play_run(request: RunRequest, say: Callable[[str], None], held: HeldFolder) -> RunOutcome:
    """Make the held folder hold the run asked for, playing only what no folder has."""
    ruleset, out, command = request.ruleset, held.path, held.command
    if Path(request.out) != out:
        raise ValueError(f"the request's folder {request.out} is not the held folder {out}")
    check_workers(request.workers)
    try:
        engine = native.engine_for(game_of(ruleset), request.engine)
    except ValueError as error:
        raise SimulationError(str(error)) from None
    entries = plan(request.games, request.players, request.seed)
    identity = cache.run_identity(ruleset.name, ruleset.fingerprint, request.players, request.lineup, request.seed, engine)
    cache_dir = request.cache if request.cache is not None else cache.cache_folder()
    cache.cache_bound()  # a bound that is not a size is refused before anything is played
    strange = run_folder.not_plain(out)
    if strange:
        raise SimulationError(
            f"{out}: {', '.join(strange)} {'is' if len(strange) == 1 else 'are'} not a plain file (a link or a special "
            "file): a run writes only its own files; move them away, or choose another --out"
        )
    planned = len(entries)
    name = ruleset.name

    def say_here(text: str) -> None:
        say(f"{name}: {text}")

    if planned != request.games:  # said before anything plays: the count played is not the one asked
        say_here(
            f"--games {request.games:,} plays {planned:,}: games come in blocks of {request.players}, one deal "
            f"with the lineup in every seat"
        )
    present = _prepare(out, identity, planned, cache_dir, request, say_here, command)
    kept = sum(1 for index in present if index < planned)
    todo = [entry for entry in entries if entry.index not in present]
    played, seconds = 0, 0.0
    if todo:
        played, seconds = _play(request, out / GAMES_FILE, todo, planned, present, say)
    if request.reuse:
        _keep_in_cache(cache_dir, identity, out, command, say_here)
    if len(present) > planned:
        say(
            f"{name}: using the first {planned:,} of the {len(present):,} games of the run in {out} "
            f"(--games {len(present):,} uses them all)"
        )
    games = tuple(present[index] for index in sorted(present) if index < planned)
    return RunOutcome(games, planned, played, kept, seconds, engine, out / GAMES_FILE)


def check_outside_cache(out: Path, cache_dir: Path) -> None:
    """Refuse an output folder inside the cache folder, or a cache folder inside it: the cache
    owns only the entries it made, and a run folder only its run's files."""
    out_path, cache_path = Path(os.path.realpath(out)), Path(os.path.realpath(cache_dir))
    if out_path == cache_path or cache_path in out_path.parents:
        raise SimulationError(f"--out {out} is inside the cache folder {cache_dir}: the cache keeps only the runs it "
                              "makes; choose an --out outside it")
    if out_path in cache_path.parents:
        raise SimulationError(f"the cache folder {cache_dir} is inside --out {out}: a run folder holds only its run's "
                              "files; choose another --out or --cache")


def _prepare(
    out: Path, identity: Mapping[str, Any], planned: int, cache_dir: Path, request: RunRequest,
    say: Callable[[str], None], command: str,
) -> dict[int, Any]:
    """Make ``out`` a folder of this run holding every good game of it the folder and the cache
    have (the cache's only below ``planned``); those games by index (as ``request.reduce``
    keeps them)."""
    found = run_folder.read_identity(out)
    path = out / GAMES_FILE
    has_lines = path.exists() and path.stat().st_size > 0
    ours: dict[int, Any] = {}
    if has_lines and not cache.same_identity(found, identity):
        if request.resume:
            raise SimulationError(
                f"cannot resume {out}: it holds the games of another run ({_difference(found, identity)}); "
                "leave out --resume to give the folder to this run (its games are kept in the cache), "
                "or choose another --out"
            )
        _hand_over(out, found, cache_dir, command, say)
    elif has_lines:
        held = cache.checked_run(out, identity, request.reduce)
        ours = _sorted_out(held, "the output folder", say)
        if not request.reuse and ours and not request.resume:
            kept = cache.keep(cache_dir, identity, path, command, spare=out)
            say(f"--no-cache: the {len(ours):,} games in {out} are played again (a copy is kept in the cache, {kept.folder})")
            run_folder.replace_games(out, ())
            ours = {}
    run_folder.write_identity(out, identity)
    if not request.reuse:  # the cache's copy is not read; the folder's games are kept on --resume
        return ours
    from_cache: dict[int, Any] = {}
    entry, problem = cache.usable_entry(cache_dir, identity)
    if problem not in (None, "missing"):
        say(f"warning: {entry} is not reused: {problem}")
    if problem is None:
        with locks.holding(entry, command, wait=60.0):
            held = cache.checked_run(entry, identity, request.reduce)
            good = _sorted_out(held, "the cache", say)
            from_cache = {index: game for index, game in good.items() if index not in ours and index < planned}
            if from_cache:  # the lines as the cache holds them (its problems set aside above), in index order
                spans = sorted(span for span in line_spans(entry / GAMES_FILE) if span[0] in from_cache)
                copy_lines(entry / GAMES_FILE, spans, path)
        cache.touch(cache_dir, identity)
    in_out = sum(1 for index in ours if index < planned)
    count = in_out + len(from_cache)
    if count:
        say(_reuse_text(count, planned, in_out, len(from_cache), out, entry))
    return {**ours, **from_cache}


def _sorted_out(held: cache.CheckedRun, place: str, say: Callable[[str], None]) -> dict[int, Any]:
    """The good games of ``held`` by index, after naming and setting aside every line that is
    not one; none when the folder holds another run's lines."""
    good = dict(zip(held.indices, held.games, strict=True))
    problems = held.problems()
    if not problems:
        return good
    for problem in problems[:SHOWN_PROBLEMS]:
        say(problem)
    if len(problems) > SHOWN_PROBLEMS:
        say(f"... and {len(problems) - SHOWN_PROBLEMS} more lines like these in {held.folder / GAMES_FILE}")
    if held.foreign is not None:
        good = {}
    cache.set_aside_lines_not_in(held, good)
    aside = held.folder / run_folder.SET_ASIDE_FOLDER
    if held.foreign is not None:
        say(f"the games in {place} are not reused: its lines are not all of this run (set aside in {aside})")
    else:
        lines = len(held.refused)
        say(f"{lines} line{'s' if lines != 1 else ''} not counted (set aside in {aside}); their games are played again")
    return good


def _hand_over(out: Path, found: Mapping[str, Any] | None, cache_dir: Path, command: str, say: Callable[[str], None]) -> None:
    """Give ``out`` to another run: the games it holds go to the cache under their own run's
    identity when they check out as that run, and to ``set-aside/`` otherwise."""
    path = out / GAMES_FILE
    if found is not None and all(key in found for key in ("ruleset", "players", "lineup", "seed", "engine")):
        held = cache.checked_run(out, found, _nothing)
        if held.games and held.foreign is None and not held.refused:
            kept = cache.keep(cache_dir, found, path, command, spare=out)
            say(
                f"{out} held {len(held.games):,} games of another run ({_difference(found, None)}): "
                f"kept in the cache ({kept.folder}), where the same options reuse them"
            )
            run_folder.replace_games(out, ())
            return
    aside = run_folder.set_aside(out, path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True),
                                 "the games of a folder given to another run, which could not be kept as a run")
    say(f"{path} held games of no run this library can check: moved to {aside}")
    run_folder.replace_games(out, ())


def _difference(found: Mapping[str, Any] | None, identity: Mapping[str, Any] | None) -> str:
    """A few words naming a run: what differs from ``identity``, or the run itself."""
    if found is None:
        return "no run.json"
    keys = ("players", "lineup", "seed", "engine", "version", "code")
    ruleset = found.get("ruleset") if isinstance(found.get("ruleset"), dict) else {}
    if identity is not None:
        if ruleset.get("fingerprint") != identity["ruleset"]["fingerprint"]:
            return f"ruleset {ruleset.get('name', '?')} {short_fingerprint(str(ruleset.get('fingerprint', '?')))}"
        for key in keys:
            if found.get(key) != identity[key]:
                value = found.get(key)
                shown = "/".join(map(str, value)) if isinstance(value, list) else value
                return f"{key} {shown}, not {'/'.join(map(str, identity[key])) if isinstance(identity[key], list) else identity[key]}"
        return "the same options"
    lineup = found.get("lineup") or []
    return f"{ruleset.get('name', '?')}, {found.get('players')} players, {'/'.join(map(str, lineup))}, seed {found.get('seed')}"


def _reuse_text(count: int, planned: int, in_out: int, from_cache: int, out: Path, entry: Path) -> str:
    places = [place for place, games in (("the output folder", in_out), ("the cache", from_cache)) if games]
    where = " and ".join(places)
    folders = ", ".join(str(folder) for folder, games in ((out, in_out), (entry, from_cache)) if games)
    if count >= planned:
        return (
            f"reused the {count:,} finished games of the same run in {where} ({folders}): same ruleset "
            "fingerprint, players, lineup, seed, engine and library (version and code); --no-cache plays them again"
        )
    return f"extending the run in {where} ({folders}): {count:,} of {planned:,} games kept"


def _play(request: RunRequest, path: Path, todo: Sequence[PlanEntry], planned: int, present: dict[int, Any],
          say: Callable[[str], None]) -> tuple[int, float]:
    """Play ``todo`` into ``path``, with an estimate first for a long run, adding each game to
    ``present`` as the request's ``reduce`` keeps it; the games played and their seconds."""

    def written(lines: list[tuple[int, str]]) -> None:
        for index, line in lines:
            game = json.loads(line)
            game.pop(DIGEST_FIELD, None)  # as the checked reader gives a game
            present[index] = game if request.reduce is None else request.reduce(game)

    options = dict(
        lineup=request.lineup, workers=request.workers, scheduler=request.scheduler, label=request.label,
        engine=request.engine, written=written,
    )
    seconds = 0.0
    rest = list(todo)
    if len(rest) > estimate.LONG_RUN:
        calibration, rest = rest[: estimate.CALIBRATION], rest[estimate.CALIBRATION :]
        seconds = play_entries(request.ruleset, path, calibration, total=planned, progress=False, **options)
        say(f"{request.ruleset.name}: {estimate.estimate_text(len(calibration), seconds, len(rest))}")
    seconds += play_entries(request.ruleset, path, rest, total=planned, progress=request.progress, **options)
    return len(todo), seconds


def _nothing(game: Mapping[str, Any]) -> None:
    """What a reader that only counts a folder's games keeps of each."""
    return None


def _keep_in_cache(cache_dir: Path, identity: Mapping[str, Any], out: Path, command: str,
                   say: Callable[[str], None]) -> None:
    try:
        kept = cache.keep(cache_dir, identity, out / GAMES_FILE, command, spare=out)
    except (OSError, ValueError) as error:
        say(f"warning: the run was not kept in the cache: {error}")
        return
    for entry in kept.evicted:
        say(f"the cache is over its bound (${cache.SIZE_VARIABLE}): removed the run used least recently, {entry.describe()}")
