"""The skill ladder: does thinking pay? Each bot against the next stronger one, on paired deals.

A ladder is a list of tiers, weakest first: ``stargazer ladder``'s MCTS budgets (``mcts:25``,
``mcts:50``, ...), or any bot specs. Each step plays a tier against the next on the same deals,
dealt from ``seed``, ``seed + 1``, ... (every step on the very same deals), each deal in every
seating of ``seatings``: with an even number of players the two tiers take half the seats each
(4 players: all C(4, 2) = 6 seatings of a deal), with an odd number the stronger tier takes one
seat, rotated through all of them. So both tiers sit in every seat and move in every turn order
equally often on the same deals, and the luck of the deal cancels between them (common random
numbers). With equal bots the stronger tier's seats would win their fair share,
``stronger_seats / players`` (ties shared, R18).

A game is a pure function of the ruleset, the two tiers, its deal seed and its seating: each
bot's seed is ``runner.bot_seed(deal, seating, seat)``, so a ladder is the same whatever
``workers`` is. ``play_ladder`` returns each step's per-game figures; the analysis
(``analysis.ladder_report``) turns them into ``ladder.json``'s intervals and skill depth, which
this module writes (``write_ladder``) and finds again in the cache (``find_ladder``).

Importable without numpy or scipy: what reads a stored ladder pays for no statistics.
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import json
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.bots import MAX_ITERATIONS, make_bot
from stargazer_rules.engine.game import Game
from stargazer_rules.engine.scoring import provisional_totals, winners
from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.errors import SimulationError
from stargazer_rules.formats.schema_checks import schema_problems
from stargazer_rules.kernel import native
from stargazer_rules.rulesets import boundedfiles, outputfiles
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import lifeline
from stargazer_rules.simulation.cache import LADDERS_FOLDER, cache_folder
from stargazer_rules.simulation.runner import MAX_GAMES, MAX_WORKERS, bot_seed, chunks, game_of

__all__ = [
    "LADDERS_FOLDER",
    "LADDER_FILE",
    "LADDER_FORMAT",
    "StepResult",
    "budget_tiers",
    "check_ladder",
    "deals_for",
    "find_ladder",
    "ladder_path",
    "ladder_problem",
    "parse_budgets",
    "play_ladder",
    "play_ladder_game",
    "seatings",
    "stronger_seats",
    "tier_bot",
    "write_ladder",
]

#: The ``format`` of ladder.json (docs/simulation.md, "ladder.json").
LADDER_FORMAT = "stargazer-ladder/1"
#: The ladder's file in its output folder.
LADDER_FILE = "ladder.json"
#: The largest ladder.json read: a ladder of a hundred steps is about 60 KB.
MAX_LADDER_BYTES = 1024 * 1024
#: How a budgets list is written, for the messages that refuse one.
_BUDGETS_EXAMPLE = "25,50,100"
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
#: A fingerprint as ``rulesets.loader.fingerprint`` makes it (the cache's file names hold it).
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")


# -- the tiers ----------------------------------------------------------------------------


def parse_budgets(text: str) -> tuple[int, ...]:
    """``"25,50,100"`` -> ``(25, 50, 100)``: at least two MCTS budgets, each from 1 to
    ``bots.MAX_ITERATIONS`` and larger than the one before; ``SimulationError`` saying what to
    write otherwise.

    >>> parse_budgets("25, 50,100")
    (25, 50, 100)
    """
    parts = [part.strip() for part in text.split(",")]
    budgets = []
    for part in parts:
        if _WHOLE_NUMBER.fullmatch(part) is None:
            raise SimulationError(
                f"{part!r} is not a whole number: write MCTS iterations separated by commas, "
                f"smallest first, e.g. {_BUDGETS_EXAMPLE}"
            )
        budgets.append(int(part))
    if len(budgets) < 2:
        raise SimulationError(
            f"a ladder needs at least two budgets, one step between them: write e.g. {_BUDGETS_EXAMPLE}"
        )
    for budget in budgets:
        if budget < 1:
            raise SimulationError(f"{budget} is not a budget: an MCTS bot takes at least 1 iteration")
        if budget > MAX_ITERATIONS:
            raise SimulationError(
                f"{budget:,} iterations is more than a bot may take ({MAX_ITERATIONS:,}): give at most {MAX_ITERATIONS}"
            )
    for weaker, stronger in itertools.pairwise(budgets):
        if stronger <= weaker:
            raise SimulationError(
                f"the budgets must increase: {stronger} follows {weaker}; write them smallest "
                f"first, e.g. {_BUDGETS_EXAMPLE}"
            )
    return tuple(budgets)


def budget_tiers(budgets: Sequence[int]) -> tuple[str, ...]:
    """The bot spec of each budget: ``mcts:25``, ``mcts:50``, ..."""
    return tuple(f"mcts:{budget}" for budget in budgets)


def tier_bot(tier: str, seed: int, engine: str) -> Any:
    """The bot of a tier: ``SPEC`` by ``engine``'s bots, or ``SPEC@ENGINE`` by that engine's."""
    spec, _, named = tier.partition("@")
    return make_bot(spec, seed, named or engine)


# -- the seatings -------------------------------------------------------------------------


def stronger_seats(players: int) -> int:
    """The seats the stronger tier takes: half of an even table, one of an odd one."""
    return players // 2 if players % 2 == 0 else 1


@functools.cache
def seatings(players: int) -> tuple[tuple[bool, ...], ...]:
    """For each seating of a deal, whether each seat plays the stronger tier.

    >>> seatings(3)
    ((True, False, False), (False, True, False), (False, False, True))
    >>> len(seatings(4))
    6
    """
    return tuple(
        tuple(seat in chosen for seat in range(players))
        for chosen in itertools.combinations(range(players), stronger_seats(players))
    )


def deals_for(games: int, players: int) -> int:
    """The deals a step plays for at least ``games`` games: whole deals, every seating of each."""
    return math.ceil(max(games, 1) / len(seatings(players)))


# -- one game -----------------------------------------------------------------------------


def play_ladder_game(
    game: Game, weaker: str, stronger: str, players: int, deal_seed: int, seating_index: int,
    engine: str = native.DEFAULT_ENGINE,
) -> tuple[float, float]:
    """One game of a step: the stronger tier's win share (ties shared, R18) and its score
    margin (the mean total of its seats minus the mean total of the weaker tier's)."""
    seating = seatings(players)[seating_index]
    bots = [
        tier_bot(stronger if is_stronger else weaker, bot_seed(deal_seed, seating_index, seat), engine)
        for seat, is_stronger in enumerate(seating)
    ]
    state = game.new_state(players=players, seed=deal_seed)
    while state.legal:
        state = game.step(state, bots[game.current_player(state)].choose(game, state))
    totals = provisional_totals(game, state)
    won = winners(totals, state.hands)
    share = sum(1 for seat in won if seating[seat]) / len(won)
    strong = [total for total, is_stronger in zip(totals, seating, strict=True) if is_stronger]
    weak = [total for total, is_stronger in zip(totals, seating, strict=True) if not is_stronger]
    return share, sum(strong) / len(strong) - sum(weak) / len(weak)


@attrs.frozen
class StepResult:
    """One step of a ladder as played: the ``weaker`` and ``stronger`` tier, the ``players``,
    and per game (deal by deal, each deal's seatings in order) the stronger tier's win
    ``shares`` and score ``margins``."""

    weaker: str
    stronger: str
    players: int
    shares: tuple[float, ...]
    margins: tuple[float, ...]

    @property
    def games(self) -> int:
        return len(self.shares)

    @property
    def fair_share(self) -> float:
        """The stronger tier's share of the wins if it were no stronger: its share of the seats."""
        return stronger_seats(self.players) / self.players


# -- a whole ladder -----------------------------------------------------------------------


def play_ladder(
    ruleset: Ruleset,
    tiers: Sequence[str],
    *,
    players: int,
    games: int,
    seed: int = 0,
    workers: int | None = None,
    engine: str = native.DEFAULT_ENGINE,
    on_step: Callable[[int, StepResult, float], None] | None = None,
) -> tuple[StepResult, ...]:
    """Play each tier against the next, ``games`` games a step (rounded up to whole deals).

    ``tiers`` are bot specs, weakest first; a tier ``SPEC@ENGINE`` is that engine's bot, the
    others are ``engine``'s (``native``: the kernel's where it compiles the ruleset).
    ``workers`` processes play (default one per core; 1 plays in this process). ``on_step``
    is called after each step with its number (from 1), its result and the seconds it took.
    Refuses what ``check_ladder`` refuses before any game is played.
    """
    tiers = tuple(tiers)
    check_ladder(ruleset, tiers, players=players, games=games, seed=seed, workers=workers, engine=engine)
    deals = deals_for(games, players)
    jobs = [(deal, index) for deal in range(seed, seed + deals) for index in range(len(seatings(players)))]
    count = workers or os.cpu_count() or 1
    steps = []
    with _Players(ruleset, count) as play:
        for number, (weaker, stronger) in enumerate(itertools.pairwise(tiers), start=1):
            started = time.perf_counter()
            results = play(weaker, stronger, players, jobs, engine)
            step = StepResult(
                weaker, stronger, players, tuple(share for share, _ in results), tuple(margin for _, margin in results)
            )
            steps.append(step)
            if on_step is not None:
                on_step(number, step, time.perf_counter() - started)
    return tuple(steps)


def check_ladder(
    ruleset: Ruleset,
    tiers: Sequence[str],
    *,
    players: int,
    games: int,
    seed: int = 0,
    workers: int | None = None,
    engine: str = native.DEFAULT_ENGINE,
) -> None:
    """Refuse a ladder that cannot be played, before any game: ``SimulationError`` for fewer
    than two tiers, too many games or workers, or deals past the seed range; ``BotSpecError``
    for a tier that is not a bot; ``SetupError`` for a player count the ruleset has no setup for.
    """
    if len(tiers) < 2:
        raise SimulationError(f"a ladder needs at least two tiers, not {len(tiers)}")
    if not 1 <= games <= MAX_GAMES:
        raise SimulationError(f"a step plays from 1 to {MAX_GAMES:,} games, not {games:,}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise SimulationError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    for tier in tiers:
        tier_bot(tier, 0, engine)  # a bad spec fails now, not in a worker
    game_of(ruleset).deal(players, seed=seed)  # a player count without a setup fails here
    deals = deals_for(games, players)
    if seed + deals - 1 > MAX_SEED:
        raise SimulationError(
            f"--seed {seed} with {deals:,} deals a step deals the last from seed {seed + deals - 1}, "
            f"past the largest seed ({MAX_SEED}); give a seed of at most {MAX_SEED - deals + 1}"
        )


Job = tuple[int, int]


def play_ladder_chunk(
    ruleset: Ruleset | None, weaker: str, stronger: str, players: int, jobs: Sequence[Job], engine: str
) -> list[tuple[float, float]]:
    """The worker's task: the games ``jobs`` (deal seed, seating index) of one step, in order.
    ``ruleset`` None plays the ruleset the pool's initializer installed."""
    game = _WORKER_GAME if ruleset is None else game_of(ruleset)
    if game is None:
        raise RuntimeError("play_ladder_chunk(None, ...) outside a worker whose initializer set a ruleset")
    return [play_ladder_game(game, weaker, stronger, players, deal, index, engine) for deal, index in jobs]


_WORKER_GAME: Game | None = None


def _init_worker(ruleset: Ruleset) -> None:
    global _WORKER_GAME
    lifeline.exit_with_parent()  # no orphan playing on after a kill -9 of the ladder
    _WORKER_GAME = game_of(ruleset)


class _Players:
    """Plays a step's games in this process (one worker) or on one pool kept for every step;
    the results come back in the order of the jobs, however the workers finish."""

    def __init__(self, ruleset: Ruleset, workers: int) -> None:
        self.ruleset = ruleset
        self.workers = workers
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __enter__(self) -> _Players:
        if self.workers > 1:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, initializer=_init_worker, initargs=(self.ruleset,)
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def __call__(
        self, weaker: str, stronger: str, players: int, jobs: Sequence[Job], engine: str
    ) -> list[tuple[float, float]]:
        if self.pool is None:
            return play_ladder_chunk(self.ruleset, weaker, stronger, players, jobs, engine)
        futures = [
            self.pool.submit(play_ladder_chunk, None, weaker, stronger, players, chunk, engine)
            for chunk in chunks(jobs, self.workers)
        ]
        return [result for future in futures for result in future.result()]


# -- ladder.json ---------------------------------------------------------------------------


def ladder_path(fingerprint: str, players: int, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the cache keeps the ladder of a ruleset and player count
    (``cache.cache_folder``: ``cache_dir``, else ``$STARGAZER_CACHE``, else the user's).
    ``ValueError`` for a ``fingerprint`` that is not 64 hex digits (``Ruleset.fingerprint``)."""
    if not isinstance(fingerprint, str) or _FINGERPRINT.fullmatch(fingerprint) is None:
        raise ValueError(f"{fingerprint!r} is not a ruleset fingerprint: give Ruleset.fingerprint, 64 hex digits")
    return cache_folder(cache_dir) / LADDERS_FOLDER / f"{fingerprint}-{players}p.json"


def write_ladder(ladder: Mapping[str, Any], out: str | os.PathLike[str], cache_dir: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """Write ``out/ladder.json`` and the cache's copy (``ladder_path``), each in one rename;
    the two paths. The ladder is checked first: a document that is not a ladder is never stored."""
    problem = ladder_problem(ladder)
    if problem is not None:
        raise ValueError(f"not a {LADDER_FORMAT} document: {problem}")
    text = json.dumps(dict(ladder), ensure_ascii=False, indent=1) + "\n"
    paths = Path(out) / LADDER_FILE, ladder_path(ladder["ruleset"]["fingerprint"], ladder["players"], cache_dir)
    for path in paths:
        outputfiles.output_folder(path.parent)
        outputfiles.write_text(path, text)
    return paths


def ladder_problem(data: Any, fingerprint: str | None = None, players: int | None = None) -> str | None:
    """Why ``data`` is not a ladder (of the ruleset ``fingerprint`` and ``players``, when
    given), in one line; None when it is one."""
    if not isinstance(data, dict) or data.get("format") != LADDER_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        return f"its format is {found!r}, not {LADDER_FORMAT!r}"
    problems = schema_problems("ladder", data, limit=1)
    if problems:
        return problems[0]
    inconsistent = _figures_problem(data)
    if inconsistent is not None:
        return inconsistent
    found = data["ruleset"]["fingerprint"]
    if fingerprint is not None and found != fingerprint:
        return f"it is the ladder of another ruleset (fingerprint {short_fingerprint(found)}, not {short_fingerprint(fingerprint)})"
    if players is not None and data["players"] != players:
        return f"it is the ladder of {data['players']} players, not {players}"
    return None


def _figures_problem(data: Mapping[str, Any]) -> str | None:
    """Why a ladder's figures do not follow from its steps, or None: a figure a schema cannot
    tie to the others (a skill depth of 10**23 is a valid integer) is checked against the
    steps it summarises, so a stored ladder edited by hand is never reported as met."""
    budgets, steps = data["budgets"], data["steps"]
    if len(steps) != len(budgets) - 1:
        return f"its {len(budgets)} budgets make {len(budgets) - 1} steps, but it lists {len(steps)}"
    games = data["deals"] * data["seatings"]
    for number, step in enumerate(steps, start=1):
        wins = step["wins"]
        if step["step"] != number or step["budgets"] != budgets[number - 1 : number + 1]:
            return f"step {number} is not budgets {budgets[number - 1]} against {budgets[number]}"
        if step["games"] != games or wins["n"] != games or step["margin"]["n"] != games:
            return f"step {number} counts other games than its {data['deals']} deals in {data['seatings']} seatings"
        if not 0 <= wins["count"] <= wins["n"] or abs(wins["rate"] - wins["count"] / wins["n"]) > 1e-6:
            return f"step {number}'s win share is not its wins over its games"
        if step["stronger_wins_more"] != (wins["low"] > data["fair_share"]):
            return f"step {number}'s stronger_wins_more disagrees with its interval and the fair share"
    depth = sum(1 for step in steps if step["stronger_wins_more"])
    if data["skill_depth"] != depth:
        return f"its skill_depth is {_short_number(data['skill_depth'])}, but {depth} of its steps say the stronger bot wins more"
    return None


def _short_number(value: int) -> str:
    text = str(value)
    return text if len(text) <= 20 else f"a {len(text)}-digit number"


def find_ladder(fingerprint: str, players: int, cache_dir: str | os.PathLike[str] | None = None) -> dict[str, Any] | None:
    """The latest ladder stored in the cache for the ruleset ``fingerprint`` and ``players``
    (``stargazer ladder`` stores each it plays), or None when there is none. A stored file that
    is not such a ladder (garbled, of another format or ruleset) is None too, with a warning
    naming the file and why: never an exception."""
    path = ladder_path(fingerprint, players, cache_dir)
    try:
        data = boundedfiles.read_json(path, MAX_LADDER_BYTES, "ladder")
    except FileNotFoundError:
        return None
    except OSError as error:
        warnings.warn(f"{path}: cannot read the stored ladder: {boundedfiles.reason(error, path)}; ignored", stacklevel=2)
        return None
    problem = ladder_problem(data, fingerprint, players)
    if problem is not None:
        warnings.warn(f"{path}: not a ladder of this ruleset: {problem}; ignored", stacklevel=2)
        return None
    return data
