"""Hypothesis strategies: random playouts, and generated valid rulesets.

Two kinds of input feed the property tests:

- a **playout** (``Playout``): a ruleset, a player count it supports, a seed for the deal and a
  seed for the policy that chooses among the legal actions (``choose``);
- a **generated ruleset** (``ruleset_documents``): the three YAML documents of a ruleset folder
  as plain dicts, written to a fresh temporary folder and loaded with the real ``load_ruleset``
  (``load_documents``). Track lengths 1..10 with VP 0..12 (accidents included), special
  capacities 0..3, 1..6 colours, a subset of 1..5 players with enough Planets and crew for
  each, every rule-count knob (starting VP by turn position included), and crew whose skills are drawn from *every* effect type of
  ``EFFECT_TYPES``, built from each type's ``params`` and ``timings`` declarations, so that a
  new effect type is generated without a change here (a new *kind* of parameter fails loudly).

Termination. The draft's rules alone do not guarantee that a game ends: R7 lets a player place
no cube (``survey.minimum`` 0), a crew may have survey count 0, and a game where nobody places
a cube never reaches either end condition of R10. The engine adds a knob for that,
``max_rounds`` (docs/rules.md, "Round limit"): every game ends at the end of that round at the
latest, whatever the players do. ``choose`` plays uniformly at random for the first
``EXPLORE_ROUNDS`` rounds, and after that still at random but *making progress*: the player
picks a crew that is sure to survey at least one cube when there is one, and never chooses to
place nothing when a survey can place a cube. When the crew area has such a crew, every round
then puts a cube on a normal square or ends the game, so a game ends within
``EXPLORE_ROUNDS + squares + 1`` rounds even without the limit (``round_bound``).
"""

from __future__ import annotations

import functools
import json
import random
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import yaml
from hypothesis import strategies as st

from program_strategies import effect_named

from stargazer_rules.engine.game import Game
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, ON_CHOOSE, REQUIRED, SURVEY, TIMINGS, Effect, Param
from stargazer_rules.vocabulary.table import PICK_CREW, SURVEYING, State

#: The rulesets shipped with the package that the properties run on.
BUNDLED = ("draft7", "base")

#: Rounds played uniformly at random before the policy insists on progress.
EXPLORE_ROUNDS = 3

#: A generous bound on the decisions of one round, whatever the skills: a bug that loops
#: inside a round fails instead of hanging.
MAX_DECISIONS_PER_ROUND = 2000

#: Deepest nesting of ``choose_one`` options in a generated skill.
MAX_OPTION_DEPTH = 2

#: The effect type that changes the survey count (R7); the progress policy reads its ``delta``.
CHANGE_SURVEY_COUNT = "change_survey_count"

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- playouts -------------------------------------------------------------------------------


@functools.cache
def bundled_game(name: str) -> Game:
    """The ``Game`` of a bundled ruleset, loaded once per test session."""
    return Game(load_ruleset(name))


@attrs.frozen
class Playout:
    """One random game to play: the ruleset (bundled ``name`` or generated ``documents``), the
    player count, the seed of the deal and the seed of the action policy.

    The generated documents are part of the repr, so a falsifying example shows the ruleset.
    """

    players: int
    deal_seed: int
    play_seed: int
    name: str | None = None
    documents: Mapping[str, Any] | None = None

    @property
    def game(self) -> Game:
        if self.name is not None:
            return bundled_game(self.name)
        assert self.documents is not None
        return generated_game(self.documents)

    def new_state(self) -> State:
        return self.game.new_state(players=self.players, seed=self.deal_seed)

    def policy(self) -> random.Random:
        return random.Random(self.play_seed)


def bundled_playouts(name: str) -> st.SearchStrategy[Playout]:
    """Random games on the bundled ruleset ``name``, at any player count it supports."""
    counts = bundled_game(name).ruleset.player_counts
    return st.builds(Playout, players=st.sampled_from(counts), deal_seed=seeds, play_seed=seeds, name=st.just(name))


@st.composite
def generated_playouts(draw: st.DrawFn) -> Playout:
    """Random games on a generated ruleset (``ruleset_documents``)."""
    documents = draw(ruleset_documents())
    counts = sorted(entry["players"] for entry in documents["rules.yaml"]["player_counts"])
    return Playout(
        players=draw(st.sampled_from(counts)),
        deal_seed=draw(seeds),
        play_seed=draw(seeds),
        documents=documents,
    )


def playouts(source: str) -> st.SearchStrategy[Playout]:
    """Playouts of a bundled ruleset by name, or of generated rulesets for ``"generated"``."""
    return generated_playouts() if source == "generated" else bundled_playouts(source)


#: The sources every property runs on.
SOURCES = (*BUNDLED, "generated")


def progress_lower_bound(effects: Sequence[Effect]) -> int:
    """The least a skill can change its survey count by, whatever the chooser decides.

    ``change_survey_count`` adds its ``delta``; a ``choose_one`` adds the least of its options,
    or nothing (an option may be skipped, R9).
    """
    total = 0
    for effect in effects:
        if effect.name == CHANGE_SURVEY_COUNT:
            total += effect.delta  # type: ignore[attr-defined]
        elif effect.branches:
            total += min(0, *(progress_lower_bound(option) for option in effect.branches))
    return total


def sure_to_survey(game: Game, card_index: int) -> bool:
    """True when the crew card surveys at least one cube whatever its skill's choices (R7)."""
    card = game.ruleset.crew[card_index]
    return card.survey_count + progress_lower_bound(card.skill) >= 1


def places_nothing(state: State, act: Action) -> bool:
    """True for a survey choice that places no cube: ``survey`` of 0 or an immediate stop."""
    if act.kind == A.SURVEY:
        return act.count == 0
    return act.kind == A.SURVEY_STOP and state.survey_placed == 0


def choose(game: Game, state: State, rng: random.Random) -> Action:
    """The playout policy: uniformly random at first, then random among actions that progress.

    From round ``EXPLORE_ROUNDS + 1`` on, a crew sure to survey is picked when one is free, and
    a survey that can place a cube places one. See the module docstring for why.
    """
    legal = state.legal
    if state.round > EXPLORE_ROUNDS:
        if state.stage == PICK_CREW:
            progressing = [act for act in legal if sure_to_survey(game, state.crew[act.target])]
        elif state.stage == SURVEYING:
            progressing = [act for act in legal if not places_nothing(state, act)]
        else:
            progressing = []
        if progressing:
            legal = progressing
    return legal[rng.randrange(len(legal))]


def round_bound(game: Game, state: State) -> int:
    """The last round a game played by ``choose`` can reach, for the deal of ``state``.

    ``max_rounds`` bounds every game. Past the explore rounds, when the crew area has a crew
    sure to survey, each round also puts a cube on a normal square or ends the game, so the
    game ends once the squares of the ring are full, if not before.
    """
    bound = game.ruleset.max_rounds
    if any(sure_to_survey(game, card) for card in state.crew):
        squares = sum(game.ruleset.planets[index].length for index in state.planets)
        bound = min(bound, EXPLORE_ROUNDS + squares + 1)
    return bound


# -- generated rulesets ---------------------------------------------------------------------


def name(text: str) -> dict[str, str]:
    return {"ja": text, "en": text}


def load_documents(documents: Mapping[str, Any]) -> Ruleset:
    """Write the three documents to a fresh temporary folder and load them with ``load_ruleset``."""
    with tempfile.TemporaryDirectory(prefix="stargazer-generated-") as folder:
        for file_name, document in documents.items():
            text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
            Path(folder, file_name).write_text(text, encoding="utf-8")
        return load_ruleset(Path(folder))


@functools.lru_cache(maxsize=256)
def _generated_game(documents_json: str) -> Game:
    return Game(load_documents(json.loads(documents_json)))


def generated_game(documents: Mapping[str, Any]) -> Game:
    """The ``Game`` of generated documents; the same documents are loaded once."""
    return _generated_game(json.dumps(documents, sort_keys=True))


def _option_timings(parent_when: str) -> frozenset[str]:
    """The timings an option's effects may have under a ``choose_one`` resolving at ``parent_when``
    (checks._option_timings: the parent's own, or ``survey`` under ``on_choose``)."""
    return frozenset({parent_when, SURVEY} if parent_when == ON_CHOOSE else {parent_when})


def _default_when(cls: type[Effect], parent_when: str | None) -> str:
    """The timing the loader gives an effect whose ``when`` is left out (checks.resolve_when)."""
    return parent_when if parent_when in cls.timings else cls.timings[0]


def _required_timing(effect_name: str, param: str, value: Any) -> str | None:
    for need in EFFECT_TYPES[effect_name].timing_requirements:
        if (need.param, need.value) == (param, value):
            return need.timing
    return None


#: The parameter kinds of the rules language, drawn by tests/program_strategies.py.
LANGUAGE_KINDS = frozenset(("amount", "condition", "planets", "seats", "crews", "owner", "effects"))


def _has_options(cls: type[Effect]) -> bool:
    return any(param.kind == "options" for param in cls.params)


def effect_names(timings: frozenset[str] = frozenset(TIMINGS), depth: int = 0) -> list[str]:
    """Effect types that may resolve at one of ``timings``; no more nesting past the depth limit."""
    return [
        effect_name
        for effect_name, cls in EFFECT_TYPES.items()
        if set(cls.timings) & timings and (depth < MAX_OPTION_DEPTH or not _has_options(cls))
    ]


def effects(
    colours: Sequence[str],
    timings: frozenset[str] = frozenset(TIMINGS),
    depth: int = 0,
    parent_when: str | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """One effect mapping of any type that may resolve at one of ``timings``."""
    return st.sampled_from(effect_names(timings, depth)).flatmap(
        lambda effect_name: effect_of_type(effect_name, colours, timings, depth, parent_when)
    )


def _integer(param: Param) -> st.SearchStrategy[int]:
    if param.minimum is None:
        return st.integers(-3, 3)
    return st.integers(param.minimum, param.minimum + 3)


@st.composite
def effect_of_type(
    draw: st.DrawFn,
    effect_name: str,
    colours: Sequence[str],
    timings: frozenset[str] = frozenset(TIMINGS),
    depth: int = 0,
    parent_when: str | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A valid mapping of effect type ``effect_name``, built from its declarations.

    Its ``when`` is one of the type's timings allowed here; each parameter gets a value of its
    kind (left out at random when it equals the default), or the value ``fixed`` gives it; a
    parameter required only with another's value (``required_when``) is given exactly then; a
    choice that needs a timing (``Effect.timing_requirements``) is made only at that timing.
    """
    cls = EFFECT_TYPES[effect_name]
    fixed = fixed or {}
    needed = {_required_timing(effect_name, key, value) for key, value in fixed.items()} - {None}
    allowed_timings = [timing for timing in cls.timings if timing in timings and needed <= {timing}]
    when = draw(st.sampled_from(allowed_timings))
    if any(param.kind in LANGUAGE_KINDS for param in cls.params):
        # The rules language's expressions and nested effects: tests/program_strategies.py.
        return {**draw(effect_named(effect_name, tuple(colours), when, depth=0 if depth else 1)), **fixed}
    data: dict[str, Any] = {"effect": effect_name}
    values: dict[str, Any] = {}
    for param in cls.params:
        if param.required_when is not None:
            continue
        if param.name in fixed:
            value: Any = fixed[param.name]
        elif param.kind == "integer":
            value = draw(_integer(param))
        elif param.kind == "choice":
            allowed = [c for c in param.choices if _required_timing(effect_name, param.name, c) in (None, when)]
            value = draw(st.sampled_from(allowed))
        elif param.kind == "colour":
            value = draw(st.sampled_from(colours))
        elif param.kind == "options":
            low = max(2, param.minimum or 1)
            option = st.lists(
                effects(colours, _option_timings(when), depth + 1, when), min_size=1, max_size=2
            )
            value = draw(st.lists(option, min_size=low, max_size=low + 1))
        else:
            raise NotImplementedError(
                f"effect {effect_name!r}: parameter {param.name!r} has kind {param.kind!r}, which "
                "tests/strategies.py cannot generate yet; add it to effect_of_type"
            )
        values[param.name] = value
        if param.kind != "choice" and _required_timing(effect_name, param.name, value) not in (None, when):
            raise NotImplementedError(f"{effect_name}.{param.name}: timing requirement on a {param.kind}")
        if param.default is REQUIRED or value != param.default or draw(st.booleans()):
            data[param.name] = value
    for param in cls.params:
        if param.required_when is None:
            continue
        other, wanted = param.required_when
        if values.get(other, _declared_default(cls, other)) != wanted:
            continue
        if param.kind == "colour":
            data[param.name] = draw(st.sampled_from(colours))
        elif param.kind == "integer":
            data[param.name] = draw(_integer(param))
        elif param.kind == "choice":
            data[param.name] = draw(st.sampled_from(param.choices))
        else:
            raise NotImplementedError(f"{effect_name}.{param.name}: conditional {param.kind} parameter")
    if when != _default_when(cls, parent_when) or draw(st.booleans()):
        data["when"] = when
    return data


def _declared_default(cls: type[Effect], param_name: str) -> Any:
    for param in cls.params:
        if param.name == param_name:
            return None if param.default is REQUIRED else param.default
    return None


@st.composite
def planets_data(draw: st.DrawFn, count: int, colours: Sequence[str], long: bool = False) -> list[dict[str, Any]]:
    """``count`` planet cards: tracks of 1..10 squares (4..10 when ``long``) worth 0..12 VP,
    special capacity 0..3."""
    lengths = st.integers(4, 10) if long else st.integers(1, 10)
    cards = []
    for index in range(count):
        card: dict[str, Any] = {
            "id": f"p{index}",
            "name": name(f"planet {index}"),
            "colour": draw(st.sampled_from(colours)),
            "track": draw(lengths.flatmap(lambda n: st.lists(st.integers(0, 12), min_size=n, max_size=n))),
        }
        capacity = draw(st.none() | st.integers(0, 3))
        if capacity is not None:
            card["special_capacity"] = capacity
        if draw(st.booleans()):
            card["placeholder"] = draw(st.booleans())
        cards.append(card)
    return cards


@st.composite
def crew_card(draw: st.DrawFn, index: int, colours: Sequence[str], always: bool) -> dict[str, Any]:
    """One crew card: survey count 0..5 and 0..3 effects of any type and timing."""
    card: dict[str, Any] = {
        "id": f"c{index}",
        "name": name(f"crew {index}"),
        "survey_count": draw(st.integers(0, 5)),
        "skill": draw(st.lists(effects(colours), max_size=3)),
    }
    if always:
        card["always_in_play"] = True
    elif draw(st.booleans()):
        card["always_in_play"] = False
    return card


@st.composite
def turn_order_setup(draw: st.DrawFn, most_players: int) -> dict[str, Any]:
    """A rules.yaml ``setup`` with starting VP by turn position (docs/rules.md, "Turn-order
    VP"): one value per seat of the largest table, sometimes more (up to the schema's 8);
    small values, to make ties, or any up to the schema's 1,000."""
    length = draw(st.integers(most_players, 8))
    values = st.integers(0, 3) | st.integers(0, 1000)
    return {"turn_order_vp": draw(st.lists(values, min_size=length, max_size=length))}


@st.composite
def ruleset_documents(draw: st.DrawFn) -> dict[str, dict[str, Any]]:
    """The three documents of a valid ruleset folder, keyed by file name (see module docstring)."""
    # Hypothesis favours small numbers, which end most games in the first round; half of the
    # rulesets are drawn "long" (more cubes, longer tracks, more Planets) to play whole games.
    long = draw(st.booleans())
    colours = [f"k{index}" for index in range(draw(st.integers(1, 6)))]
    player_counts = sorted(draw(st.sets(st.integers(1, 5), min_size=1, max_size=3)))
    always_count = draw(st.integers(0, 2))
    entries = []
    for players in player_counts:
        planets = draw(st.integers(max(3, players), 9) if long else st.integers(1, 9))
        entry: dict[str, Any] = {
            "players": players,
            "planets": planets,
            "crew": draw(st.integers(max(0, players - always_count), max(0, players - always_count) + 2)),
        }
        if players > planets or draw(st.booleans()):
            least = (planets + 1) // 2 if long else 1
            entry["full_planets_to_end"] = draw(st.integers(least, planets))
        entries.append(entry)
    planet_cards = max(entry["planets"] for entry in entries) + draw(st.integers(0, 3))
    dealable = max(entry["crew"] for entry in entries) + draw(st.integers(0, 2))
    crew = [draw(crew_card(index, colours, always=True)) for index in range(always_count)]
    crew += [draw(crew_card(always_count + index, colours, always=False)) for index in range(dealable)]
    crew = draw(st.permutations(crew))
    rules: dict[str, Any] = {
        "name": "generated",
        "title": name("generated"),
        "colours": [{"id": colour, "name": name(colour)} for colour in colours],
        "player_counts": entries,
        "cubes_per_player": draw(st.integers(8, 15) if long else st.integers(1, 15)),
        "free_cubes": draw(st.integers(0, 15)),
        "max_free_cubes_per_crew": draw(st.integers(0, 4)),
        "motivation": {"free_cube_vp": draw(st.integers(0, 3)), "player_cube_vp": draw(st.integers(0, 3))},
    }
    minimum = draw(st.none() | st.integers(0, 2))
    if minimum is not None:
        rules["survey"] = {"minimum": minimum}
    max_rounds = draw(st.none() | (st.integers(12, 40) if long else st.integers(1, 40)))
    if max_rounds is not None:
        rules["max_rounds"] = max_rounds
    # Left out, written empty, or given values: half of the rulesets start seats with VP.
    setup = draw(st.sampled_from(("values", "left out", "values", "empty")))
    if setup != "left out":
        rules["setup"] = draw(turn_order_setup(max(player_counts))) if setup == "values" else {}
    return {
        "rules.yaml": rules,
        "planets.yaml": {"planets": draw(planets_data(planet_cards, colours, long))},
        "crew.yaml": {"crew": crew},
    }
