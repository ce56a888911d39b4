"""A playtest log: one game played at the table, as a small YAML file beside the draft.

The designer plays the draft on paper and writes down what a bot's game line records of it
(docs/play.md, "Playtests at the table"): the date, the ruleset, the seats in turn order (the
start player of round 1 first), the rounds, the crews taken each round when they were noted,
and the final score sheet. ``read_log`` reads such a file as the rulesets are read
(``rulesets.yamlsource``: BOM, CRLF, sizes, links; every problem at file:line:column) and
checks it in two steps, every problem of a step reported together (``PlaytestError``):

1. the schema (``playtest_schema()``, written to ``schemas/playtest.schema.json``): the keys,
   with a "did you mean" for a misspelt one, and each value's type and range;
2. what a schema cannot say, against the ruleset: its name; a player count it supports (R14);
   at most ``max_rounds`` rounds; each noted round one crew per seat, each a crew id of the
   ruleset, none twice in a round (R5), no more different crews in a game than its setup lays
   out (R14, R19); a score line for every seat and none for anyone else; each line adding up
   (total = majority + bonus + play, R18); a major-planet bonus no larger than a player's
   cubes (R17, R13).

The winners are not written: they follow from the totals and the cubes in hand (R18).

    python -m stargazer_rules.playtests.log --write | --check
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import yaml

from stargazer_rules.engine.bounds import most_bonus_vp
from stargazer_rules.errors import PlaytestError, Problem
from stargazer_rules.rulesets.printable import printable
from stargazer_rules.rulesets.resources import shown_path
from stargazer_rules.rulesets.schemas import generated_schema_command
from stargazer_rules.rulesets.validation import close_match, schema_problems
from stargazer_rules.rulesets.yamlsource import CARD_ID_MAX_LENGTH, CARD_ID_PATTERN, YamlDocument, load_yaml, parse_yaml

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = ["PLAYTEST_FORMAT", "PlaytestLog", "SeatScore", "log_from_yaml_text", "log_to_yaml", "playtest_schema", "read_log"]

#: The ``format`` of a playtest log: its kind and version (optional in a hand-written file).
PLAYTEST_FORMAT = "stargazer-playtest/1"
SCHEMA_FILE = "playtest.schema.json"
#: The most seats a log may list (the most any ruleset may support) and the longest name.
MAX_SEATS = 8
MAX_NAME_LENGTH = 40
#: The most rounds a log may list: a ruleset's round limit is checked against it too.
MAX_ROUNDS = 200
#: The largest VP figure on a score line: far above any game's.
MAX_VP = 10_000
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")

#: The keys of a score line, as a log writes them, and what each is (R18).
SCORE_PARTS = {
    "majority": "VP from Planet majorities (R16)",
    "bonus": "the major-planet bonus (R17)",
    "play": "VP scored during play: motivation bonuses, skills and any turn-order VP (R6)",
    "lines": "the VP of the ruleset's end-of-game scoring lines (rules.yaml end_scoring), summed; optional, 0 when left out",
    "total": "the total (R18): majority + bonus + play + lines",
    "hand": "cubes left in hand: the tie-break (R18); optional",
}


@attrs.frozen
class SeatScore:
    """One seat's line of the final score sheet (R18); ``hand`` None when not noted, ``lines``
    None when the ruleset has no end-of-game scoring lines (or the log leaves them out: 0)."""

    majority: int
    bonus: int
    play: int
    total: int
    hand: int | None = None
    lines: int | None = None


@attrs.frozen
class PlaytestLog:
    """One game at the table.

    ``seats`` are the players' names in turn order, the start player of round 1 first;
    ``picks`` the crews taken in each noted round, in the order taken (empty when not noted);
    ``scores`` each seat's line, in the order of ``seats``. ``fingerprint`` is the ruleset's
    when the log was added by ``stargazer playtest add`` (None in a hand-written log);
    ``source`` says where it came from (a record, a simulation, by hand); ``notes`` are the
    designer's.
    """

    date: str
    ruleset: str
    seats: tuple[str, ...] = attrs.field(converter=tuple)
    rounds: int
    scores: tuple[SeatScore, ...] = attrs.field(converter=tuple)
    picks: tuple[tuple[str, ...], ...] = attrs.field(default=(), converter=lambda rounds: tuple(map(tuple, rounds)))
    fingerprint: str | None = None
    source: str | None = None
    notes: str | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning turn positions (R18): the highest total, then the most cubes in hand when
        every tied seat's hand is noted; the rest share the win."""
        best = max(score.total for score in self.scores)
        tied = [position for position, score in enumerate(self.scores) if score.total == best]
        hands = [self.scores[position].hand for position in tied]
        if len(tied) > 1 and all(hand is not None for hand in hands):
            most = max(hands)  # type: ignore[type-var]
            tied = [position for position, hand in zip(tied, hands, strict=True) if hand == most]
        return tuple(tied)


def _score_schema() -> dict[str, Any]:
    # A majority may cost VP (rules.yaml majority.accident_vp), a line or a skill too: only the
    # bonus and the hand are never below 0.
    least = {key: 0 if key in ("bonus", "hand") else -MAX_VP for key in SCORE_PARTS}
    return {
        "description": "One seat's line of the final score sheet (R18).",
        "type": "object",
        "additionalProperties": False,
        "required": ["majority", "bonus", "play", "total"],
        "properties": {
            key: {"type": "integer", "minimum": least[key], "maximum": MAX_VP, "description": words} for key, words in SCORE_PARTS.items()
        },
    }


def playtest_schema() -> dict[str, Any]:
    """The JSON Schema of a playtest log (``schemas/playtest.schema.json``)."""
    crew_id = {"type": "string", "pattern": CARD_ID_PATTERN, "maxLength": CARD_ID_MAX_LENGTH}
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:stargazer-rules:schemas:playtest.schema.json",
        "title": "Stargazer playtest log",
        "description": "One game played at the table (a YAML file in a draft's playtests/ folder; docs/play.md, "
        "\"Playtests at the table\"): the seats in turn order, the rounds, the crews taken, the final score sheet.",
        "type": "object",
        "additionalProperties": False,
        "required": ["date", "ruleset", "seats", "rounds", "scores"],
        "properties": {
            "format": {"description": f"The kind and version of the file: {PLAYTEST_FORMAT} (optional).",
                       "const": PLAYTEST_FORMAT},
            "date": {"description": "The day the game was played, YYYY-MM-DD.", "type": "string", "pattern": _DATE.pattern},
            "ruleset": {"description": "The name of the ruleset played (rules.yaml's name).", **crew_id},
            "fingerprint": {"description": "The ruleset's fingerprint when the log was added (stargazer playtest add).",
                            "type": "string", "pattern": "^[0-9a-f]{64}$"},
            "seats": {"description": "The players' names in turn order, the start player of round 1 first.",
                      "type": "array", "minItems": 1, "maxItems": MAX_SEATS, "uniqueItems": True, "items": name},
            "rounds": {"description": "The round the game ended in.", "type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
            "picks": {"description": "Optional: the crews taken in each round from round 1, in the order taken "
                      "(crew ids); the rounds not noted left off the end.",
                      "type": "array", "maxItems": MAX_ROUNDS,
                      "items": {"type": "array", "minItems": 1, "maxItems": MAX_SEATS, "items": crew_id}},
            "scores": {"description": "The final score sheet: one line per seat, by the player's name.",
                       "type": "object", "minProperties": 1, "maxProperties": MAX_SEATS,
                       "propertyNames": {"minLength": 1, "maxLength": MAX_NAME_LENGTH},
                       "additionalProperties": {"$ref": "#/$defs/score"}},
            "source": {"description": "Where the log came from: a game record, a simulation, or by hand.",
                       "type": "string", "maxLength": 500},
            "notes": {"description": "The designer's notes on the game.", "type": "string", "maxLength": 5000},
        },
        "$defs": {"score": _score_schema()},
    }


def read_log(path: str | os.PathLike[str], ruleset: Ruleset | None = None) -> PlaytestLog:
    """Read and check one playtest log; ``PlaytestError`` with every problem, located."""
    return _checked(load_yaml(Path(path), shown_path(path)), ruleset)


def log_from_yaml_text(text: str, file: str, ruleset: Ruleset | None = None) -> PlaytestLog:
    """Read and check a playtest log from its text (as ``read_log`` reads a file)."""
    return _checked(parse_yaml(text, file), ruleset)


def _checked(document: YamlDocument, ruleset: Ruleset | None) -> PlaytestLog:
    problems = list(document.problems)
    if document.loaded:
        problems += schema_problems(document, playtest_schema())
    if not problems:
        problems += meaning_problems(document, ruleset)
    if problems:
        raise PlaytestError(problems)
    return _log_of(document.data)


def meaning_problems(document: YamlDocument, ruleset: Ruleset | None) -> list[Problem]:
    """What the schema cannot check (the module docstring's step 2), each located."""
    data = document.data
    problems: list[Problem] = []
    try:
        datetime.date.fromisoformat(data["date"])
    except ValueError:
        problems.append(document.problem(("date",), f"{data['date']!r} is not a day of the calendar (YYYY-MM-DD)"))
    seats = list(data["seats"])
    players = len(seats)
    if ruleset is not None:
        if data["ruleset"] != ruleset.name:
            problems.append(document.problem(
                ("ruleset",), f"the log is of ruleset {data['ruleset']!r}, not of {ruleset.name!r}, the draft it is beside",
                close_match(data["ruleset"], [ruleset.name])))
        if players not in ruleset.setups:
            counts = ", ".join(map(str, ruleset.player_counts))
            problems.append(document.problem(("seats",), f"{players} seats: ruleset {ruleset.name} is played by {counts} players (R14)"))
        if data["rounds"] > ruleset.max_rounds:
            problems.append(document.problem(
                ("rounds",), f"{data['rounds']} rounds: a game of ruleset {ruleset.name} ends by round {ruleset.max_rounds} (its round limit)"))
    picks = data.get("picks", [])
    if len(picks) > data["rounds"]:
        problems.append(document.problem(("picks",), f"crews noted for {len(picks)} rounds of a game of {data['rounds']} rounds"))
    problems += _pick_problems(document, picks, players, ruleset)
    problems += _score_problems(document, seats, ruleset)
    return problems


def _pick_problems(document: YamlDocument, picks: Sequence[Sequence[str]], players: int, ruleset: Ruleset | None) -> list[Problem]:
    problems = []
    crew_ids = [card.id for card in ruleset.crew] if ruleset is not None else None
    seen: set[str] = set()
    for number, crews in enumerate(picks):
        at = ("picks", number)
        if len(crews) != players:
            problems.append(document.problem(at, f"round {number + 1} lists {len(crews)} crews: each of the {players} seats takes one a round (R5)"))
        taken: set[str] = set()
        for place, crew in enumerate(crews):
            if crew_ids is not None and crew not in crew_ids:
                problems.append(document.problem((*at, place), f"no crew card {crew!r} in ruleset {ruleset.name}",  # type: ignore[union-attr]
                                                 close_match(crew, crew_ids)))
            elif crew in taken:
                problems.append(document.problem((*at, place), f"{crew} is taken twice in round {number + 1}: a crew with a worker on it is not available (R5)"))
            taken.add(crew)
        seen |= taken
    if ruleset is not None and players in ruleset.setups and picks:
        laid_out = ruleset.setups[players].crew + sum(1 for card in ruleset.crew if card.always_in_play)
        if len(seen) > laid_out:
            problems.append(document.problem(
                ("picks",), f"{len(seen)} different crews taken, but a {players}-player game lays out {laid_out} (R14, R19): "
                + ", ".join(sorted(seen))))
    return problems


def _score_problems(document: YamlDocument, seats: Sequence[str], ruleset: Ruleset | None) -> list[Problem]:
    problems = []
    scores = document.data["scores"]
    for name in scores:
        if name not in seats:
            problems.append(document.problem(("scores", name), f"{name!r} is not one of the seats ({printable(', '.join(seats))})",
                                             close_match(name, [seat for seat in seats if seat not in scores]), key=True))
    for name in seats:
        if name not in scores:
            problems.append(document.problem(("scores",), f"no score line for {name!r}: every seat has one"))
    most_bonus = most_bonus_vp(ruleset) if ruleset is not None else None
    for name, line in scores.items():
        at = ("scores", name)
        lines = line.get("lines", 0)
        parts = line["majority"] + line["bonus"] + line["play"] + lines
        if parts != line["total"]:
            shown = "majority + bonus + play" + (" + lines" if "lines" in line else "")
            figures = f"{line['majority']} + {line['bonus']} + {line['play']}" + (f" + {lines}" if "lines" in line else "")
            problems.append(document.problem((*at, "total"), f"the total {line['total']} is not {shown} = {figures} = {parts} (R18)"))
        if most_bonus is not None and line["bonus"] > most_bonus:
            problems.append(document.problem(
                (*at, "bonus"), f"a major-planet bonus of {line['bonus']}: the most ruleset {ruleset.name}'s bonus gives "
                f"one player is {most_bonus} (R17, R13)"))
    return problems


def _log_of(data: Mapping[str, Any]) -> PlaytestLog:
    seats = tuple(data["seats"])
    scores = tuple(SeatScore(**{key: data["scores"][name].get(key) for key in SCORE_PARTS}) for name in seats)
    return PlaytestLog(
        date=data["date"], ruleset=data["ruleset"], seats=seats, rounds=data["rounds"], scores=scores,
        picks=data.get("picks", ()), fingerprint=data.get("fingerprint"), source=data.get("source"), notes=data.get("notes"),
    )


def log_to_yaml(log: PlaytestLog) -> str:
    """The YAML text of ``log``, as ``stargazer playtest add`` writes it (``read_log`` reads it back)."""
    lines = [
        f"# A playtest log ({PLAYTEST_FORMAT}): docs/play.md, \"Playtests at the table\".",
        f"format: {PLAYTEST_FORMAT}",
        f"date: {log.date}",
        f"ruleset: {log.ruleset}",
    ]
    if log.fingerprint is not None:
        lines.append(f"fingerprint: {log.fingerprint}")
    lines.append(f"seats: {_flow(log.seats)}   # in turn order, the start player first")
    lines.append(f"rounds: {log.rounds}")
    if log.picks:
        lines.append("picks:   # the crews taken each round, in the order taken")
        lines += [f"  - {_flow(crews)}   # round {number}" for number, crews in enumerate(log.picks, start=1)]
    lines.append("scores:   # total = majority + bonus + play + lines (R18)")
    for name, score in zip(log.seats, log.scores, strict=True):
        parts = {key: getattr(score, key) for key in SCORE_PARTS if getattr(score, key) is not None}
        lines.append(f"  {_scalar(name)}: {{{', '.join(f'{key}: {value}' for key, value in parts.items())}}}")
    for key in ("source", "notes"):
        value = getattr(log, key)
        if value is not None:
            lines.append(f"{key}: {_scalar(value)}")
    return "\n".join(lines) + "\n"


def _scalar(text: str) -> str:
    """``text`` as a YAML scalar that reads back as the same string."""
    return yaml.safe_dump(text, default_style='"', width=10**6, allow_unicode=True).strip()


def _flow(items: Sequence[str]) -> str:
    return "[" + ", ".join(_scalar(item) for item in items) + "]"


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check ``schemas/playtest.schema.json`` against ``playtest_schema()``."""
    return generated_schema_command("stargazer_rules.playtests.log", SCHEMA_FILE, playtest_schema, "the playtest log's fields", argv)


if __name__ == "__main__":
    raise SystemExit(main())
