"""The games.jsonl lines as the analysis reads them: checked once, and the per-game figures
that the summary, the comparison and the sequential looks must all count the same way.

A line's fields are those of docs/simulation.md ("games.jsonl"); ``formats.game_lines`` reads
and checks the file, this module checks what the analysis needs of the lines it is given
(lines may also come from a library user's own code).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stargazer_rules.formats.game_lines import GAME_FORMAT, READABLE_FORMATS

__all__ = [
    "ANALYSED_KEYS",
    "Analysed",
    "checked_games",
    "credit_row",
    "deal_of",
    "lead_changes",
    "same_deal",
    "seat_at",
    "turn_position",
    "value_trajectory",
    "win_credit",
    "winning_margin",
]

#: The keys of a games.jsonl line the analysis reads (docs/simulation.md).
ANALYSED_KEYS = (
    "format",
    "index",
    "block",
    "rotation",
    "players",
    "ruleset",
    "seating",
    "setup",
    "rounds",
    "triggers",
    "decisions",
    "options",
    "picks",
    "score_by_round",
    "score_sheet",
    "winners",
)


#: The keys the analysis reads when a line has them (lines from before a key existed lack it).
OPTIONAL_KEYS = ("deal_seed", "engine", "value_by_round")
#: What the analysis reads of a score sheet: of each seat, each planet and each standing.
_SHEET_SEAT = ("seat", "total", "majority_vp", "bonus_vp", "play_vp")
_SHEET_PLANET = ("planet", "colour", "top_square", "full", "accident")
_STANDING = ("owner", "rank", "vp")
_PICK = ("round", "order", "seat", "crew", "motivation_vp")


class Analysed:
    """A reader's ``reduce`` (``formats.game_lines.read_games_file``): each line with only what
    the analysis reads of it (no record, no bot seeds, no per-seat planet detail), its names
    interned and its small dicts that are equal across games (a standing, a pick, a seat's
    score) shared: a run of 7,200 games held for a summary takes about 90 MB instead of 350.
    The games it makes are read, never changed. A line not of that shape is kept as it is
    (``checked_games`` says what it lacks). One per read: the shared dicts live as long as it."""

    def __init__(self) -> None:
        self._shared: dict[tuple[Any, ...], Any] = {}

    def _one(self, keys: tuple[str, ...], values: tuple[Any, ...]) -> dict[str, Any]:
        found = self._shared.get((keys, values))
        if found is None:
            found = self._shared[keys, values] = dict(zip(keys, values, strict=True))
        return found

    def _planet(self, planet: Mapping[str, Any]) -> dict[str, Any]:
        standings = tuple(self._one(_STANDING, tuple(standing[key] for key in _STANDING))
                          for standing in planet["standings"])
        values = (_SHEET_PLANET, *(planet[key] for key in _SHEET_PLANET), *map(id, standings))
        found = self._shared.get(values)
        if found is None:
            found = {key: planet[key] for key in _SHEET_PLANET}
            found.update(planet=sys.intern(planet["planet"]), colour=sys.intern(planet["colour"]), standings=standings)
            self._shared[values] = found
        return found

    def __call__(self, game: Mapping[str, Any]) -> dict[str, Any]:
        try:
            kept = {key: game[key] for key in (*ANALYSED_KEYS, *OPTIONAL_KEYS) if key in game}
            sheet = game["score_sheet"]
            kept["score_sheet"] = {
                "seats": [self._one(_SHEET_SEAT, tuple(seat[key] for key in _SHEET_SEAT)) for seat in sheet["seats"]],
                "planets": [self._planet(planet) for planet in sheet["planets"]],
            }
            kept["picks"] = [self._one(_PICK, (*(pick[key] for key in _PICK[:-2]), sys.intern(pick["crew"]),
                                               pick["motivation_vp"])) for pick in game["picks"]]
            kept["seating"] = [sys.intern(spec) for spec in game["seating"]]
            kept["triggers"] = [sys.intern(trigger) for trigger in game["triggers"]]
            setup = game["setup"]
            kept["setup"] = {**setup, "planets": [sys.intern(p) for p in setup["planets"]],
                             "crew": [sys.intern(c) for c in setup["crew"]]}
            kept["format"] = sys.intern(game["format"])
            kept["ruleset"] = {key: sys.intern(value) if isinstance(value, str) else value
                               for key, value in game["ruleset"].items()}
        except (KeyError, TypeError, AttributeError):
            return dict(game)
        return kept


def checked_games(games: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The games sorted by ``index``, the first line of each index kept.

    Raises ``ValueError`` for no games, a line missing a key the analysis reads or of an
    unknown format, or lines of different player counts or rulesets (summarise those separately).
    """
    by_index: dict[int, Mapping[str, Any]] = {}
    seen: dict[str, set[str]] = {"players": set(), "ruleset": set()}
    for position, game in enumerate(games):
        missing = [key for key in ANALYSED_KEYS if key not in game]
        if missing:
            raise ValueError(
                f"game line {position} (index {game.get('index', '?')}) lacks {', '.join(missing)}; "
                "see docs/simulation.md for the games.jsonl format"
            )
        if game["format"] not in READABLE_FORMATS:
            raise ValueError(
                f"game line {position} has format {game['format']!r}; this analysis reads {GAME_FORMAT!r}"
            )
        by_index.setdefault(game["index"], game)
        for key in ("players", "ruleset"):
            seen[key].add(json.dumps(game[key], sort_keys=True))
    if not by_index:
        raise ValueError("no finished games to summarise")
    for key, what in (("players", "player counts"), ("ruleset", "rulesets")):
        if len(seen[key]) > 1:
            raise ValueError(f"the games mix {what} ({', '.join(sorted(seen[key]))}); summarise each separately")
    return [by_index[index] for index in sorted(by_index)]


def win_credit(game: Mapping[str, Any], seat: int) -> float:
    """The share of the win a seat takes: 1, 1/2 for a two-way tie, 0 for a loss (R18)."""
    winners = game["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def turn_position(game: Mapping[str, Any], seat: int) -> int:
    """The seat's place in turn order from the game's start player, 0 for the start player."""
    return (seat - game["setup"]["start_player"]) % game["players"]


def seat_at(game: Mapping[str, Any], position: int) -> int:
    """The table seat at ``position`` in turn order (0: the start player); ``turn_position``'s inverse."""
    return (game["setup"]["start_player"] + position) % game["players"]


def credit_row(game: Mapping[str, Any]) -> list[float]:
    """Each seat's ``win_credit``, seats in turn order: one row of the verdict's matrices."""
    return [win_credit(game, seat_at(game, position)) for position in range(game["players"])]


def deal_of(game: Mapping[str, Any]) -> tuple[Any, int, int]:
    """How a game was dealt: its deal seed, rotation and player count (docs/simulation.md,
    "The plan of a run"); two runs' games of one index dealt alike pair."""
    return game.get("deal_seed"), game["rotation"], game["players"]


def same_deal(game_a: Mapping[str, Any], game_b: Mapping[str, Any]) -> bool:
    """Whether two runs' games of one index were dealt alike (``deal_of``), so that they pair."""
    return deal_of(game_a) == deal_of(game_b)


def lead_changes(score_by_round: Sequence[Sequence[int]]) -> int:
    """How often the sole leader after a round differs from the last sole leader (ties keep it)."""
    changes, leader = 0, None
    for totals in score_by_round:
        best = max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == best]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
    return changes


def value_trajectory(game: Mapping[str, Any]) -> list[list[float] | None] | None:
    """Who the search thought was winning, round by round: the line's ``value_by_round`` (for
    each round, every table seat's root value of its last search decision, None for a round
    without one), or None for a game no searching bot played (and lines written before the
    field existed)."""
    values = game.get("value_by_round")
    if values is None:
        return None
    return [None if seats is None else list(seats) for seats in values]


def winning_margin(game: Mapping[str, Any]) -> int | None:
    """The winner's total minus the best total of a seat that did not win; None if all won."""
    totals = {seat["seat"]: seat["total"] for seat in game["score_sheet"]["seats"]}
    others = [total for seat, total in totals.items() if seat not in game["winners"]]
    if not others:
        return None
    return max(totals[seat] for seat in game["winners"]) - max(others)
