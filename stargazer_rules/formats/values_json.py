"""The JSON forms of the values a game gives out besides its states: events, setups, score sheets.

Each is written whole (a score sheet's derived figures included, for front ends) and read back
checked: its schema first, then what the schema cannot say (a setup against its ruleset, R14;
a sheet's derived figures against its standings).
"""

from __future__ import annotations

from typing import Any

from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.engine.scoring import PlanetResult, ScoreSheet, SeatScore, Standing
from stargazer_rules.errors import RecordError, SetupError
from stargazer_rules.formats.schema_checks import raise_problems, validate
from stargazer_rules.vocabulary.events import EVENT_KEYS, Event

__all__ = [
    "event_from_json",
    "event_to_json",
    "score_sheet_from_json",
    "score_sheet_to_json",
    "setup_from_json",
    "setup_to_json",
]


# -- events -------------------------------------------------------------------------------


def event_to_json(event: Event) -> dict[str, Any]:
    """``event`` as JSON: ``{"key": ..., **params}``."""
    return event.to_json()


def event_from_json(data: Any) -> Event:
    """The event a JSON event describes; ``RecordError`` for an unknown key or wrong parameters."""
    validate("event", data, "event")
    event = Event.from_json(data)
    assert set(event.params) == set(EVENT_KEYS[event.key])  # the schema lists exactly these
    return event


# -- setups -------------------------------------------------------------------------------


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """``setup`` as JSON: players, planet ids in ring order, dealt crew ids, start player, and
    the queue of crew ids not dealt when there is one (R11, ``at_cap: replaced``)."""
    data: dict[str, Any] = {
        "players": setup.players,
        "planets": list(setup.planets),
        "crew": list(setup.crew),
        "start_player": setup.start_player,
    }
    if setup.queue:
        data["queue"] = list(setup.queue)
    return data


def setup_from_json(data: Any, game: Game | None = None) -> Setup:
    """The setup a JSON setup describes; with ``game``, also checked against its ruleset (R14)."""
    validate("setup", data, "setup")
    setup = Setup(
        data["players"], tuple(data["planets"]), tuple(data["crew"]), data["start_player"], tuple(data.get("queue", ()))
    )
    if game is not None:
        try:
            game.check_setup(setup)
        except SetupError as error:
            raise RecordError(str(error)) from None
    return setup


# -- score sheets -------------------------------------------------------------------------


def score_sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """``sheet`` as JSON; ``accident`` (first place reads a row of VP 0) is included for front ends."""
    return {
        "final": sheet.final,
        "winners": list(sheet.winners),
        "planets": [
            {
                "planet": result.planet,
                "colour": result.colour,
                "top_square": result.top_square,
                "full": result.full,
                "accident": result.accident,
                "standings": [
                    {
                        "owner": standing.owner,
                        "cubes": standing.cubes,
                        "first_square": standing.first_square,
                        "rank": standing.rank,
                        "row": standing.row,
                        "vp": standing.vp,
                    }
                    for standing in result.standings
                ],
            }
            for result in sheet.planets
        ],
        "seats": [
            {
                "seat": seat.seat,
                "planets": _seat_planets(sheet, seat.seat),
                "majority_vp": seat.majority_vp,
                "bonus_vp": seat.bonus_vp,
                "bonus_count": seat.bonus_count,
                "bonus_colours": list(seat.bonus_colours),
                "colour_counts": dict(seat.colour_counts),
                "play_vp": seat.play_vp,
                "total": seat.total,
                "hand": seat.hand,
                # rules.yaml end_scoring's lines by id, only when the ruleset has lines
                **({"lines": dict(seat.lines)} if seat.lines else {}),
            }
            for seat in sheet.seats
        ],
    }


def _seat_planets(sheet: ScoreSheet, seat: int) -> list[dict[str, Any]]:
    """Per seat, the majority VP of each Planet with the rank and row used (derived)."""
    return [
        {"planet": planet, "cubes": s.cubes, "rank": s.rank, "row": s.row, "vp": s.vp}
        for planet, s in sheet.majority_of(seat)
    ]


def score_sheet_from_json(data: Any) -> ScoreSheet:
    """The score sheet a JSON sheet describes; ``RecordError`` when malformed."""
    validate("score_sheet", data, "score sheet")
    planets = []
    problems = []
    for result in data["planets"]:
        planet = PlanetResult(
            result["planet"],
            result["colour"],
            result["top_square"],
            result["full"],
            tuple(Standing(**standing) for standing in result["standings"]),
            result["accident"],
        )
        planets.append(planet)
    seats = tuple(
        SeatScore(
            seat=seat["seat"],
            majority_vp=seat["majority_vp"],
            bonus_vp=seat["bonus_vp"],
            bonus_count=seat["bonus_count"],
            bonus_colours=tuple(seat["bonus_colours"]),
            colour_counts=tuple(sorted(seat["colour_counts"].items())),
            play_vp=seat["play_vp"],
            total=seat["total"],
            hand=seat["hand"],
            lines=tuple(seat.get("lines", {}).items()),
        )
        for seat in data["seats"]
    )
    sheet = ScoreSheet(tuple(planets), seats, tuple(data["winners"]), data["final"])
    for index, seat in enumerate(data["seats"]):
        if seat["planets"] != _seat_planets(sheet, seat["seat"]):
            problems.append(f"$.seats[{index}].planets: disagrees with the Planets' standings")
    raise_problems(problems, "score sheet")
    return sheet
