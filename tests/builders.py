"""Builders for the worked-example tests: small rulesets as Python data, and scripted games.

A test describes its ruleset in the YAML format of ``data/cards/*/`` (rules.yaml, planets.yaml,
crew.yaml) as plain Python data, overriding only what it is about::

    rules = ruleset(
        planets=[planet("a", "red", [1, 2, 0, 4]), planet("b", "blue", [1, 2])],
        crew=[armstrong(), crew("x", 2, [effect("gain_vp", vp=2)])],
        round_end=unpicked_crews(cap=3),
    )

``ruleset`` writes the three files into a temporary folder and loads them with the real
``load_ruleset``, so every example also goes through the loader's checks. ``Script`` then plays
a game move by move, naming crews and Planets by card id, and keeps the events of each move.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

# -- ruleset data ---------------------------------------------------------------------------


def name(text: str) -> dict[str, str]:
    """A name in both languages (tests need no real Japanese)."""
    return {"ja": text, "en": text}


def planet(
    planet_id: str, colour: str, track: Sequence[int], special_capacity: int | None = None, **extra: Any
) -> dict:
    """One planets.yaml entry: ``track`` holds the VP values of squares 1, 2, ... (R1)."""
    data: dict[str, Any] = {"id": planet_id, "name": name(planet_id), "colour": colour, "track": list(track)}
    if special_capacity is not None:
        data["special_capacity"] = special_capacity
    data.update(extra)
    return data


def effect(effect_name: str, **params: Any) -> dict:
    """One effect mapping of a skill, e.g. ``effect("gain_vp", vp=2, when="after_survey")``."""
    return {"effect": effect_name, **params}


def crew(
    crew_id: str, survey_count: int = 2, skill: Iterable[Mapping] = (), always_in_play: bool = False, **extra: Any
) -> dict:
    """One crew.yaml entry."""
    data: dict[str, Any] = {"id": crew_id, "name": name(crew_id), "survey_count": survey_count, "skill": list(skill)}
    if always_in_play:
        data["always_in_play"] = True
    data.update(extra)
    return data


def armstrong(survey_count: int = 2) -> dict:
    """Captain Armstrong as draft 7 has him (R19): always in play, names the start player."""
    return crew("armstrong", survey_count, [effect("name_start_player")], always_in_play=True)


def unpicked_crews(free_cubes: Any = 1, cap: int | None = 3) -> dict:
    """rules.yaml's ``round_end`` (R11): each crew nobody picked receives ``free_cubes`` (an
    amount of the rules language, this_crew bound to the crew) up to ``cap`` (None: no cap)."""
    return {"unpicked_crews": {"free_cubes": free_cubes, "cap": cap}}


def round_end(*effects: Mapping, free_cubes: Any = 1, cap: int | None = 3) -> dict:
    """rules.yaml's ``round_end`` with ``effects`` performed at every round's end (idea R7) and
    R11's ``unpicked_crews`` (``unpicked_crews``'s defaults: draft 7's)."""
    return {"effects": list(effects), **unpicked_crews(free_cubes, cap)}


def player_count(players: int, planets: int, crew: int, full_planets_to_end: int | None = None) -> dict:
    """One rules.yaml ``player_counts`` entry (R14, R10)."""
    data = {"players": players, "planets": planets, "crew": crew}
    if full_planets_to_end is not None:
        data["full_planets_to_end"] = full_planets_to_end
    return data


#: Five plain Planets a..e, track values 1..4, of four colours.
DEFAULT_PLANETS = (
    planet("a", "red", [1, 2, 3, 4]),
    planet("b", "blue", [1, 2, 3, 4]),
    planet("c", "yellow", [1, 2, 3, 4]),
    planet("d", "green", [1, 2, 3, 4]),
    planet("e", "red", [1, 2, 3, 4]),
)

#: Armstrong and four crew w, x, y, z without skills, survey count 2.
DEFAULT_CREW = (armstrong(), crew("w"), crew("x"), crew("y"), crew("z"))


def ruleset_data(
    planets: Sequence[Mapping] = DEFAULT_PLANETS,
    crew: Sequence[Mapping] = DEFAULT_CREW,
    *,
    players: int = 3,
    full_planets_to_end: int | None = None,
    **rules: Any,
) -> dict[str, dict]:
    """The three documents of a ruleset folder, keyed by file name.

    ``rules`` overrides rules.yaml keys. By default the ruleset supports one player count,
    ``players``, dealing every Planet and every crew that is not always in play, so that an
    explicit ``Setup`` of all cards in file order is valid; the game ends when
    ``full_planets_to_end`` Planets are full (default: the number of players, R10, or every
    Planet when there are fewer).
    """
    colours: list[str] = []
    for card in planets:
        if card["colour"] not in colours:
            colours.append(card["colour"])
    for card in crew:
        for item in _effects_in(card["skill"]):
            if "colour" in item and item["colour"] not in colours:
                colours.append(item["colour"])
    dealt = sum(1 for card in crew if not card.get("always_in_play", False))
    data: dict[str, Any] = {
        "name": "test",
        "title": name("test"),
        "colours": [{"id": colour, "name": name(colour)} for colour in colours],
        "player_counts": [
            player_count(players, len(planets), dealt, full_planets_to_end or min(players, len(planets)))
        ],
        "cubes_per_player": 12,
        "free_cubes": 12,
        "round_end": unpicked_crews(),
        "motivation": {"free_cube_vp": 1, "player_cube_vp": 2},
        "survey": {"minimum": 0},
    }
    data.update(rules)
    data = {key: value for key, value in data.items() if value is not None}  # a key given None is left out
    return {
        "rules.yaml": data,
        "planets.yaml": {"planets": [dict(card) for card in planets]},
        "crew.yaml": {"crew": [dict(card) for card in crew]},
    }


def _effects_in(skill: Iterable[Mapping]) -> Iterable[Mapping]:
    for item in skill:
        yield item
        for option in item.get("options", ()):
            yield from _effects_in(option)


def ruleset(planets: Sequence[Mapping] = DEFAULT_PLANETS, crew: Sequence[Mapping] = DEFAULT_CREW, **overrides: Any):
    """Write the ruleset described by ``ruleset_data`` into a temporary folder and load it."""
    documents = ruleset_data(planets, crew, **overrides)
    return _load(json.dumps(documents, sort_keys=True))


@functools.cache
def _load(documents_json: str):
    from stargazer_rules.rulesets.loader import load_ruleset

    documents = json.loads(documents_json)
    with tempfile.TemporaryDirectory(prefix="stargazer-test-") as folder:
        for file_name, document in documents.items():
            text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
            Path(folder, file_name).write_text(text, encoding="utf-8")
        return load_ruleset(Path(folder))


def game(**overrides: Any) -> Game:
    """A ``Game`` of ``ruleset(**overrides)``."""
    return Game(ruleset(**overrides))


# -- scripted play --------------------------------------------------------------------------


def deal_all(g: Game, players: int | None = None, start_player: int = 0) -> Setup:
    """The explicit setup of every Planet and every dealable crew, in file order."""
    if players is None:
        (players,) = g.ruleset.player_counts
    cards = g.ruleset
    return Setup(
        players=players,
        planets=tuple(card.id for card in cards.planets),
        crew=tuple(card.id for card in cards.crew if not card.always_in_play),
        start_player=start_player,
    )


class Script:
    """A game played move by move, crews and Planets named by card id.

    ``state`` is the current state, ``events`` every event so far, ``last`` the events of the
    last move. Each move method applies one legal action and returns the events it caused.
    """

    def __init__(self, g: Game, state: State | None = None, *, start_player: int = 0) -> None:
        self.game = g
        self.state = g.new_state(setup=deal_all(g, start_player=start_player)) if state is None else state
        self.events: list[Event] = []
        self.last: tuple[Event, ...] = ()

    # positions of cards in the state
    def slot(self, crew_id: str) -> int:
        """The crew-area slot of ``crew_id``."""
        ids = [self.game.ruleset.crew[index].id for index in self.state.crew]
        return ids.index(crew_id)

    def pos(self, planet_id: str) -> int:
        """The ring position of ``planet_id``."""
        ids = [self.game.ruleset.planets[index].id for index in self.state.planets]
        return ids.index(planet_id)

    def planet_ids(self, positions: Iterable[int]) -> list[str]:
        return [self.game.ruleset.planets[self.state.planets[p]].id for p in positions]

    def track(self, planet_id: str) -> tuple[int, ...]:
        return self.state.tracks[self.pos(planet_id)]

    def special(self, planet_id: str) -> tuple[int, ...]:
        return self.state.specials[self.pos(planet_id)]

    def free_on(self, crew_id: str) -> int:
        return self.state.crew_free[self.slot(crew_id)]

    def cubes_on(self, crew_id: str) -> tuple[int, ...]:
        return self.state.crew_cubes[self.slot(crew_id)]

    @property
    def legal(self) -> tuple[Action, ...]:
        return self.game.legal_actions(self.state)

    @property
    def player(self) -> int | None:
        return self.game.current_player(self.state)

    # moves
    def do(self, act: Action) -> tuple[Event, ...]:
        """Apply ``act``; return its events."""
        self.state, self.last = self.game.apply(self.state, act)
        self.events.extend(self.last)
        return self.last

    def pick(self, crew_id: str) -> tuple[Event, ...]:
        return self.do(action(A.PICK_CREW, self.slot(crew_id)))

    def survey(self, planet_id: str, count: int, direction: int = A.CLOCKWISE) -> tuple[Event, ...]:
        return self.do(action(A.SURVEY, self.pos(planet_id), count, direction))

    def survey_none(self) -> tuple[Event, ...]:
        return self.do(action(A.SURVEY, -1, 0))

    def step(self, planet_id: str) -> tuple[Event, ...]:
        return self.do(action(A.SURVEY_STEP, self.pos(planet_id)))

    def stop(self) -> tuple[Event, ...]:
        return self.do(action(A.SURVEY_STOP))

    def target_planet(self, planet_id: str) -> tuple[Event, ...]:
        return self.do(action(A.TARGET_PLANET, self.pos(planet_id)))

    def target_crew(self, crew_id: str) -> tuple[Event, ...]:
        return self.do(action(A.TARGET_CREW, self.slot(crew_id)))

    def option(self, index: int) -> tuple[Event, ...]:
        return self.do(action(A.CHOOSE_OPTION, index))

    def name_start(self, seat: int) -> tuple[Event, ...]:
        return self.do(action(A.NAME_START_PLAYER, seat))

    def turn(self, crew_id: str, planet_id: str | None = None, count: int = 0) -> tuple[Event, ...]:
        """A plain turn: pick ``crew_id`` and survey ``count`` cubes from ``planet_id`` (or none)."""
        events = self.pick(crew_id)
        events += self.survey(planet_id, count) if planet_id is not None else self.survey_none()
        return events

    # legal options, by id
    def survey_options(self) -> list[tuple[str | None, int, int]]:
        """The legal walks as (start Planet id or None, count, direction)."""
        return [
            (None if a.target < 0 else self.planet_ids([a.target])[0], a.count, a.direction)
            for a in self.legal
            if a.kind == A.SURVEY
        ]

    def targets(self, kind: str) -> list[str]:
        """The Planet ids (``target_planet``, ``survey_step``) or crew ids (``target_crew``,
        ``pick_crew``) offered."""
        if kind in (A.TARGET_CREW, A.PICK_CREW):
            return [self.game.ruleset.crew[self.state.crew[a.target]].id for a in self.legal if a.kind == kind]
        return self.planet_ids(a.target for a in self.legal if a.kind == kind)


# -- events ---------------------------------------------------------------------------------


def keys(events: Iterable[Event]) -> list[str]:
    """The event keys, in order."""
    return [event.key for event in events]


def of(events: Iterable[Event], key: str) -> list[dict[str, Any]]:
    """The parameters of every event with ``key``, in order."""
    return [dict(event.params) for event in events if event.key == key]
