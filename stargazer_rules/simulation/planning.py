"""The plan of a run: which games it holds, who sits where, and what places a line in it.

Games come in blocks of ``players`` games that share one deal: block ``b`` is dealt from seed
``seed + b``, and game ``r`` of the block seats the lineup rotated by ``r``, so every bot sits
in every seat equally often on the same deals (docs/simulation.md, "The plan of a run").
``line_mismatch`` is the one check that a games.jsonl line is a game of a given run.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.bots import make_bot
from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.errors import BotSpecError, SimulationError
from stargazer_rules.rulesets.loader import short_fingerprint

__all__ = [
    "LINEUP_SEPARATOR",
    "MAX_GAMES",
    "PlanEntry",
    "bot_seed",
    "check_lineup",
    "line_mismatch",
    "parse_lineup",
    "plan",
    "seating",
]

#: Separates the bots of a lineup on the command line: ``mcts:200/greedy``.
LINEUP_SEPARATOR = "/"
#: The most games one run plays: 27 times what detects a 2-point seat advantage at four
#: players (docs/simulation.md), and a games file of some gigabytes, which the report reads
#: whole. A plan of more is refused before it is built.
MAX_GAMES = 100_000


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


def check_lineup(lineup: Sequence[str], entry: PlanEntry) -> None:
    """Refuse a lineup that does not seat the players of ``entry``."""
    if len(lineup) != entry.players:
        raise SimulationError(f"the lineup has {len(lineup)} bots for {entry.players} players")
