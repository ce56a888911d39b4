"""The simulation runner: plan a run, play its games on all cores or a Dask cluster, stream them.

A run is a list of plan entries (``plan``). Games come in blocks of ``players`` games that share
one deal: block ``b`` is dealt from seed ``seed + b``, and game ``r`` of the block seats the
lineup rotated by ``r``, so every bot sits in every seat equally often on the same deals.
``play_game`` plays one entry and returns its ``games.jsonl`` line (docs/simulation.md, the
contract with the analysis); it is a pure function of the ruleset, the entry and the lineup, so
the lines do not depend on how many workers play them or in which order they finish.

``run_simulation`` plays a plan in-process, on a pool of worker processes, or through a Dask
``distributed`` scheduler, and appends each finished game to ``OUT/games.jsonl`` as one line,
written and flushed at once: an interrupted run keeps whole lines, and ``resume=True`` plays
only the games the file lacks.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from stargazer_rules.bots import make_bot, root_values
from stargazer_rules.bots.base import deadline, kernel_seat
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.errors import BotSpecError, SimulationError
from stargazer_rules.formats import actions_json, records, values_json
from stargazer_rules.formats.game_lines import (
    GAME_FORMAT,
    GAMES_FILE,
    VALUE_DECIMALS,
    cycle_collector_paused,
    game_line,
    read_games_file,
)
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import lifeline, locks, run_folder, scheduler
from stargazer_rules.simulation.scheduler import SCHEDULER_TIMEOUT
from stargazer_rules.vocabulary.table import State

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
    "game_of",
    "parse_lineup",
    "plan",
    "play_game",
    "play_game_stepwise",
    "play_games",
    "read_games",
    "run_simulation",
    "seating",
]

#: Separates the bots of a lineup on the command line: ``mcts:200/greedy``.
LINEUP_SEPARATOR = "/"
#: At most this many games go to a worker in one task: small enough for a lively progress
#: bar and an even finish, large enough that sending tasks costs nothing next to playing them.
MAX_CHUNK = 16
#: Aim for this many tasks per worker, so that a slow chunk does not leave the others idle.
CHUNKS_PER_WORKER = 8
#: The most games one run plays: 27 times what detects a 2-point seat advantage at four
#: players (docs/simulation.md), and a games file of some gigabytes, which the report reads
#: whole. A plan of more is refused before it is built.
MAX_GAMES = 100_000
#: The most worker processes a run starts. More processes than cores only wait for one
#: another (the default is one per core), and each starts Python and loads the ruleset.
MAX_WORKERS = 64


@attrs.frozen
class PlanEntry:
    """One game of a run: its ``index`` in the run (``block * players + rotation``), its
    ``block`` of games sharing the deal dealt from ``deal_seed``, the ``rotation`` of the lineup
    (seat ``i`` gets lineup entry ``(i + rotation) % players``), and the number of ``players``."""

    index: int
    block: int
    rotation: int
    deal_seed: int
    players: int


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


# -- the plan -----------------------------------------------------------------------------


def plan(games: int, players: int, seed: int = 0) -> tuple[PlanEntry, ...]:
    """The entries of a run of at least ``games`` games, rounded up to whole blocks of
    ``players`` games; block ``b`` is dealt from ``seed + b``.

    >>> [(e.index, e.block, e.rotation, e.deal_seed) for e in plan(5, 3, seed=10)]
    [(0, 0, 0, 10), (1, 0, 1, 10), (2, 0, 2, 10), (3, 1, 0, 11), (4, 1, 1, 11), (5, 1, 2, 11)]
    """
    if players < 1:
        raise ValueError(f"a game needs at least one player, not {players}")
    if games > MAX_GAMES:
        raise SimulationError(f"{games:,} games is more than a run may play ({MAX_GAMES:,}); split it into runs of fewer")
    blocks = math.ceil(max(games, 0) / players)
    if blocks and seed + blocks - 1 > MAX_SEED:
        raise SimulationError(
            f"--seed {seed} with {blocks:,} blocks of games deals the last block from seed "
            f"{seed + blocks - 1}, past the largest seed ({MAX_SEED}); give a seed of at most {MAX_SEED - blocks + 1}"
        )
    return tuple(
        PlanEntry(block * players + rotation, block, rotation, seed + block, players)
        for block in range(blocks)
        for rotation in range(players)
    )


def seating(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot spec of each seat: seat ``i`` gets lineup entry ``(i + rotation) % players``."""
    players = len(lineup)
    return tuple(lineup[(seat + rotation) % players] for seat in range(players))


def bot_seed(deal_seed: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat``: a hash of the deal seed, the rotation and the seat, so
    it is the same under any ruleset (``compare`` plays both rulesets with the same bots) and
    unrelated between neighbouring games."""
    digest = hashlib.sha256(f"stargazer-bot/{deal_seed}/{rotation}/{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def parse_lineup(specs: str | Iterable[str], players: int) -> tuple[str, ...]:
    """The canonical bot spec of each lineup entry, ``players`` of them.

    ``specs`` is one string of bot specs separated by ``/`` (``"mcts:200/greedy"``) or several
    such strings (from a repeated ``--bots``). The last bot fills the seats left over, so one
    spec puts that bot in every seat. Raises ``BotSpecError`` for an unknown bot or parameter
    (with a did-you-mean) and ``SimulationError`` for more bots than players.

    >>> parse_lineup("random", 3)
    ('random', 'random', 'random')
    """
    if isinstance(specs, str):
        specs = [specs]
    entries = [part.strip() for text in specs for part in text.split(LINEUP_SEPARATOR)]
    if not entries or any(not entry for entry in entries):
        raise BotSpecError(
            f"empty bot spec in the lineup {LINEUP_SEPARATOR.join(entries)!r}; "
            f"separate bots with {LINEUP_SEPARATOR!r}, as in 'mcts:200{LINEUP_SEPARATOR}greedy'"
        )
    if len(entries) > players:
        raise SimulationError(
            f"the lineup names {len(entries)} bots ({LINEUP_SEPARATOR.join(entries)}) "
            f"for {players} players; give at most {players}"
        )
    canonical = [make_bot(entry, 0).spec for entry in entries]
    return tuple(canonical + canonical[-1:] * (players - len(canonical)))


# -- one game -----------------------------------------------------------------------------


def play_game(
    ruleset_or_game: Ruleset | Game,
    entry: PlanEntry,
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> dict[str, Any]:
    """Play the game of ``entry`` with ``lineup`` and return its games.jsonl line as a dict
    (``play_games`` of one entry: in the kernel where it can, else ``play_game_stepwise``)."""
    return play_games(ruleset_or_game, [entry], lineup, engine)[0]


def play_games(
    ruleset_or_game: Ruleset | Game,
    entries: Sequence[PlanEntry],
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> list[dict[str, Any]]:
    """The games.jsonl lines of ``entries``, each the line ``play_game_stepwise`` writes.

    Where every seat's bot runs in the kernel (``bots.base.kernel_seat``), the ``native``
    engine compiles the ruleset and no bot deadline is set (``bots.time_limit``), one kernel
    call plays the whole chunk from the Python engine's deals, and the lines are written from
    the moves and figures it returns, without replaying them in Python; otherwise each game is
    played step by step in Python.
    """
    game = ruleset_or_game if isinstance(ruleset_or_game, Game) else game_of(ruleset_or_game)
    seats = _kernel_lineup(game, lineup, engine)
    if seats is None:
        return [play_game_stepwise(game, entry, lineup, engine) for entry in entries]
    return _play_in_kernel(game, entries, lineup, seats)


def _kernel_lineup(game: Game, lineup: Sequence[str], engine: str) -> list[tuple[str, dict[str, Any]]] | None:
    """The kernel seat (kind, parameters) of each lineup entry, or None when a game of this
    lineup, engine and ruleset is played step by step in Python."""
    if native.engine_for(game, engine) != "native" or deadline() is not None:
        return None
    seats = [kernel_seat(spec) for spec in lineup]
    return None if None in seats else seats  # type: ignore[return-value]


def _play_in_kernel(
    game: Game, entries: Sequence[PlanEntry], lineup: Sequence[str], kernel_seats: Sequence[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The lines of ``entries``, their games played in one kernel call from the Python
    engine's deals (one deal per block: its games share it). A move's action JSON is built once
    per call (a record copies what it is given); the score sheet is the Python engine's, of
    the final state."""
    deals: dict[tuple[int, int], Setup] = {}
    dealt = []
    tables = []
    for entry in entries:
        _check_lineup(lineup, entry)
        seeds = [bot_seed(entry.deal_seed, entry.rotation, seat) for seat in range(entry.players)]
        setup = deals.get((entry.players, entry.deal_seed))
        if setup is None:
            setup = deals[entry.players, entry.deal_seed] = game.deal(entry.players, seed=entry.deal_seed)
        bots = [(kind, seed, params) for (kind, params), seed in zip(seating(kernel_seats, entry.rotation), seeds)]
        planets, crew = game.card_indices(setup)
        tables.append((entry.players, list(planets), list(crew), setup.start_player, bots))
        dealt.append((entry, seeds, setup))
    crew_ids = game.crew_ids
    engine = native.engine_for(game, "native")
    move_json: dict[tuple[str, int, int, int, int], dict[str, Any]] = {}
    lines = []
    for (entry, seeds, setup), played in zip(dealt, native.play_games(game, tables), strict=True):
        moves, options, kernel_picks, score_by_round, kernel_values, searched, final = played
        actions = []
        for move in moves:
            as_json = move_json.get(move)
            if as_json is None:
                as_json = move_json[move] = actions_json.kernel_move_to_json(game, *move)
            actions.append(as_json)
        picks = [
            {"round": round_number, "order": order, "seat": seat, "crew": crew_ids[card], "motivation_vp": vp}
            for round_number, order, seat, card, vp in kernel_picks
        ]
        values = [None if seat_values is None else [round(v, VALUE_DECIMALS) for v in seat_values] for seat_values in kernel_values]
        lines.append(
            _line(
                game, entry, seating(lineup, entry.rotation), seeds, engine, setup, native.from_kernel(final),
                actions, options, picks, score_by_round, values if searched else None,
            )
        )
    return lines


def _check_lineup(lineup: Sequence[str], entry: PlanEntry) -> None:
    if len(lineup) != entry.players:
        raise SimulationError(f"the lineup has {len(lineup)} bots for {entry.players} players")


def play_game_stepwise(
    ruleset_or_game: Ruleset | Game,
    entry: PlanEntry,
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> dict[str, Any]:
    """Play the game of ``entry`` with ``lineup`` one decision at a time in Python and return
    its games.jsonl line as a dict.

    ``engine`` ``native`` lets the bots search in the kernel where the ruleset allows (the
    rules of the recorded game are always played by the Python engine, which writes the
    events and the record); the line says which engine's bots played.

    Besides the final score sheet and the record, the line keeps what the analysis needs and a
    record would make it replay: each crew pick with its motivation VP, the provisional totals
    when each round's last turn has ended (``scoring.provisional_totals``: the totals of
    ``game.score``), and the number of legal options of each decision. When a seat's bot
    searches (MCTS), ``value_by_round`` holds, for each round, the root's value for every seat
    of the last search decision made in it (``bots.base.root_values``), None for a round
    without one; a game with no search decision has no such field.
    """
    game = ruleset_or_game if isinstance(ruleset_or_game, Game) else game_of(ruleset_or_game)
    players = entry.players
    _check_lineup(lineup, entry)
    seats = seating(lineup, entry.rotation)
    seeds = [bot_seed(entry.deal_seed, entry.rotation, seat) for seat in range(players)]
    bots = [make_bot(spec, seed, engine) for spec, seed in zip(seats, seeds, strict=True)]
    setup = game.deal(players, seed=entry.deal_seed)
    state = game.new_state(setup=setup)
    options: list[int] = []
    actions: list[dict[str, Any]] = []
    picks: list[dict[str, Any]] = []
    score_by_round: list[list[int]] = []
    value_by_round: list[list[float] | None] = []
    searched = False
    order = 0
    while state.legal:
        options.append(len(state.legal))
        bot = bots[game.current_player(state)]
        act = bot.choose(game, state)
        actions.append(actions_json.action_to_json(game, state, act))
        round_number = state.round
        values = root_values(bot)
        if values is not None:
            searched = True
            value_by_round.extend([None] * (round_number - len(value_by_round)))
            value_by_round[round_number - 1] = [round(value, VALUE_DECIMALS) for value in values]
        state, events = game.apply(state, act)
        for event in events:
            key = event.key
            if key == "crew_chosen":
                order = order + 1 if picks and picks[-1]["round"] == round_number else 1
                picks.append(
                    {
                        "round": round_number,
                        "order": order,
                        "seat": event.params["player"],
                        "crew": event.params["crew"],
                        "motivation_vp": 0,
                    }
                )
            elif key == "motivation_bonus":
                picks[-1]["motivation_vp"] = event.params["vp"]
            elif key == "round_ended":
                score_by_round.append(list(provisional_totals(game, state)))
    value_by_round.extend([None] * (state.round - len(value_by_round)))
    return _line(
        game, entry, seats, seeds, native.engine_for(game, engine), setup, state, actions,
        options, picks, score_by_round, value_by_round if searched else None,
    )


def _line(
    game: Game,
    entry: PlanEntry,
    seats: Sequence[str],
    seeds: list[int],
    engine: str,
    setup: Setup,
    state: State,
    actions: list[dict[str, Any]],
    options: list[int],
    picks: list[dict[str, Any]],
    score_by_round: list[list[int]],
    value_by_round: list[list[float] | None] | None,
) -> dict[str, Any]:
    """The games.jsonl line of a game played to ``state`` (docs/simulation.md): the one place
    its fields are laid out, whichever way the game was played. ``value_by_round`` None: no
    decision was searched, and the line has no such field."""
    sheet = game.score(state)
    record = records.GameRecord(
        game.ruleset.name,
        game.ruleset.fingerprint,
        setup,
        tuple(actions),
        entry.deal_seed,
        {"generator": "stargazer simulate", "index": entry.index, "seating": list(seats)},
        finished=game.is_over(state),
    )
    return {
        "format": GAME_FORMAT,
        "index": entry.index,
        "block": entry.block,
        "rotation": entry.rotation,
        "deal_seed": entry.deal_seed,
        "players": entry.players,
        "ruleset": {"name": game.ruleset.name, "fingerprint": game.ruleset.fingerprint},
        "seating": list(seats),
        "bot_seeds": seeds,
        "engine": engine,
        "setup": values_json.setup_to_json(setup),
        "rounds": state.round,
        "triggers": list(state.triggers),
        "decisions": len(actions),
        "options": options,
        "picks": picks,
        "score_by_round": score_by_round,
        **({"value_by_round": value_by_round} if value_by_round is not None else {}),
        "score_sheet": values_json.score_sheet_to_json(sheet),
        "winners": list(sheet.winners),
        "record": records.record_to_json(record),
    }


#: One ``Game`` per ruleset fingerprint in each process (the parent and each worker), built on
#: first use: the one per-process home of a simulation's Games, so that the tables each Game
#: derives (its compiled kernel among them, ``Game.derived``) are built once per process.
_GAMES: dict[str, Game] = {}


def game_of(ruleset: Ruleset) -> Game:
    """The ``Game`` of ``ruleset`` in this process (one per fingerprint; an equal ruleset object
    shares it, one with other effect classes behind the same YAML gets its own)."""
    game = _GAMES.get(ruleset.fingerprint)
    if game is None or game.ruleset != ruleset:
        game = _GAMES[ruleset.fingerprint] = Game(ruleset)
    return game


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


# -- reading a games file -----------------------------------------------------------------


def read_games(path: str | os.PathLike[str], reduce: Callable[[dict[str, Any]], Any] | None = None) -> list[Any]:
    """The games of a games.jsonl file, sorted by ``index``, every line checked
    (``formats.game_lines``); ``reduce`` maps each to what is kept of it.

    A last line without its newline is a game whose writing was interrupted: it is ignored.
    Any other line that is not a game a run wrote (garbled, edited, a second copy of a game)
    raises ``SimulationError`` naming the line; ``read_games_file`` reads past such lines.
    """
    read = read_games_file(path, reduce)
    if read.refused:
        first = read.refused[0]
        more = f" (and {len(read.refused) - 1} more such lines)" if len(read.refused) > 1 else ""
        raise SimulationError(f"{read.path}:{first.number}: {first.reason}{more}")
    return list(read.games)


def _trim_to_whole_lines(path: Path) -> None:
    """Cut a last line whose writing was interrupted, so that appending starts a new line."""
    with path.open("rb+") as file:
        data = file.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            file.truncate(end)


# -- a whole run --------------------------------------------------------------------------


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
    """
    lineup = tuple(lineup)
    if len(lineup) != players:
        raise SimulationError(f"the lineup has {len(lineup)} bots for {players} players")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise SimulationError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    try:
        played_by = native.engine_for(game_of(ruleset), engine)
    except ValueError as error:
        raise SimulationError(str(error)) from None
    path = Path(out) / GAMES_FILE
    entries = plan(games, players, seed)
    with locks.holding(path.parent, "simulate"):
        done: set[int] = set()
        if resume and path.exists():
            previous = read_games(path, _placing)  # a long run's games are not held whole to resume it
            _check_same_run(previous, ruleset, players, lineup, seed, path, played_by)
            done = {game["index"] for game in previous}
        todo = [entry for entry in entries if entry.index not in done]
        client = _dask_client(scheduler) if scheduler is not None else None  # fail before writing
        start = time.perf_counter()
        try:
            if done:
                _trim_to_whole_lines(path)
            else:
                _start_afresh(path)
            with path.open("a", encoding="utf-8") as file, _progress_bar(
                len(entries), len(done), progress, label
            ) as bar:

                def write(lines: list[tuple[int, str]]) -> None:
                    for _index, line in lines:
                        file.write(line + "\n")
                        file.flush()
                    bar.update(len(lines))

                if client is not None:
                    _run_dask(client, ruleset, todo, lineup, write, engine)
                elif (workers or os.cpu_count() or 1) == 1 or len(todo) <= 1:
                    for chunk in chunks(todo, 1):
                        write(play_chunk(ruleset, chunk, lineup, engine))
                else:
                    _run_pool(workers or os.cpu_count() or 1, ruleset, todo, lineup, write, engine)
        except KeyboardInterrupt:
            if path.exists():
                _trim_to_whole_lines(path)  # keep only whole games: --resume plays the rest
            raise
        finally:
            if client is not None:
                client.close()
    return RunResult(path, len(todo), len(entries) - len(todo), time.perf_counter() - start, played_by)


#: What resuming reads of a game already in the file: what places it in its run (``line_mismatch``).
_PLACING_KEYS = ("index", "block", "rotation", "players", "deal_seed", "seating", "engine", "ruleset")


def _placing(game: Mapping[str, Any]) -> dict[str, Any]:
    return {key: game[key] for key in _PLACING_KEYS if key in game}


def _start_afresh(path: Path) -> None:
    """An empty games file; the lines of one already there are set aside first, never lost."""
    if path.exists() and path.stat().st_size:
        text = path.read_text(encoding="utf-8", errors="replace")
        run_folder.set_aside(path.parent, text.splitlines(keepends=True), "the games file of a run started afresh")
    path.write_bytes(b"")


def _check_same_run(
    previous: Sequence[Mapping[str, Any]],
    ruleset: Ruleset,
    players: int,
    lineup: Sequence[str],
    seed: int,
    path: Path,
    engine: str,
) -> None:
    """Refuse to resume a games file written by another run (the indices would mean other games)."""
    identity = {"ruleset": {"fingerprint": ruleset.fingerprint}, "players": players, "lineup": list(lineup),
                "seed": seed, "engine": engine}
    for game in previous:
        mismatch = line_mismatch(game, identity)
        if mismatch is not None:
            raise SimulationError(
                f"cannot resume {path}: its game {game['index']} is of another run ({mismatch}); "
                "leave out --resume to start afresh, or choose another --out"
            )


def line_mismatch(game: Mapping[str, Any], identity: Mapping[str, Any]) -> str | None:
    """What in a game's line says it is not a game of the run ``identity`` (its ruleset
    fingerprint, players, lineup, seed and engine: ``cache.run_identity``), or None."""
    try:
        expected = {
            "ruleset fingerprint": identity["ruleset"]["fingerprint"],
            "players": identity["players"],
            "deal seed": identity["seed"] + game["block"],
            "seating": list(seating(identity["lineup"], game["rotation"])),
            "engine": identity["engine"],
            "index": game["block"] * identity["players"] + game["rotation"],
        }
        found = {
            "ruleset fingerprint": game["ruleset"]["fingerprint"],
            "players": game["players"],
            "deal seed": game["deal_seed"],
            "seating": list(game["seating"]),
            "engine": game.get("engine"),
            "index": game["index"],
        }
    except (KeyError, TypeError, IndexError, ZeroDivisionError):
        return "it lacks the fields that place a game in its run"
    for what, value in expected.items():
        if found[what] != value:
            return f"its {what} is {_shown(found[what])}, the run's {_shown(value)}"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, str) and len(value) == 64:
        return short_fingerprint(value)
    if isinstance(value, list):
        return "/".join(map(str, value))
    return str(value)


def chunks(entries: Sequence[PlanEntry], workers: int) -> list[list[PlanEntry]]:
    """Split the games into tasks: about ``CHUNKS_PER_WORKER`` per worker, ``MAX_CHUNK`` at most."""
    size = max(1, min(MAX_CHUNK, math.ceil(len(entries) / (workers * CHUNKS_PER_WORKER))))
    return [list(entries[i : i + size]) for i in range(0, len(entries), size)]


def _run_pool(
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


def _dask_client(address: str) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address``, or one line within
    ``SCHEDULER_TIMEOUT`` seconds whatever listens there (``scheduler.connect``)."""
    return scheduler.connect(address, SCHEDULER_TIMEOUT)


def _run_dask(
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


class _NoBar:
    def update(self, count: int) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _progress_bar(total: int, initial: int, progress: bool | None, label: str | None) -> Any:
    """A tqdm bar with rate and ETA on stderr; None shows it only on a terminal."""
    if progress is False:
        return _NoBar()
    from tqdm import tqdm

    stream: IO[str] = sys.stderr
    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        desc=label,
        file=stream,
        disable=None if progress is None else False,
        smoothing=0.1,
        dynamic_ncols=True,
    )
