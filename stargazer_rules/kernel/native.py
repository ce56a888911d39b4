"""The native kernel seen from Python: compile a ``Ruleset`` for it, carry states across, choose
the engine.

The kernel (``stargazer_rules._kernel``, built from ``crates/`` by maturin) plays the rules on
flat tables and runs the bots' search. It is compiled from a validated ``Ruleset``, never from
the YAML: ``ruleset_spec`` turns every card, knob and effect into plain data, and the kernel
checks it against its own vocabulary and limits. A ruleset it cannot compile (an effect type
registered with ``extend_effect_types``, a table beyond its limits) runs on the Python engine,
which stays the public API and the oracle: ``kernel_for`` then returns None and
``fallback_reason`` says why, in one line.

States cross both ways: ``to_kernel`` reads a Python ``State`` (checking it against the
ruleset, or only its shape for a state the Python engine made), ``from_kernel`` gives the Python ``State`` of a kernel state, equal field for field
except that player cubes on a crew come sorted by owner (the rules only count them, R6).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from stargazer_rules.engine.bounds import crew_limits, limits_of, use_skill_bounds
from stargazer_rules.engine.game import Game
from stargazer_rules.rulesets.model import PlanetCard, Ruleset
from stargazer_rules.vocabulary.abilities import SPECIAL, PlanetRules, Trigger
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, Effect, UseSkill
from stargazer_rules.vocabulary.expressions import Limits
from stargazer_rules.vocabulary.table import Pending, State

#: The engines a simulation or a bot can use: the kernel where the ruleset allows, or Python.
ENGINES = ("native", "python")
DEFAULT_ENGINE = "native"

try:
    import stargazer_rules._kernel as _kernel
except ImportError as error:  # a source tree without a build: the Python engine only
    _kernel = None
    _IMPORT_ERROR: str | None = str(error)
else:
    _IMPORT_ERROR = None


def _effect_spec(effect: Effect, limits: Limits, borrowed: Callable[[], tuple[Any, Any, Any]]) -> dict[str, Any]:
    """An effect as the kernel reads it: its name, timing and every declared parameter by name
    (an expression of the rules language as its node, which the kernel reads by word and
    named fields; effect lists as specs), and ``bounds``, what one step may do to the
    chooser's VP and the survey count, derived here once (``Effect.most_vp``,
    ``Effect.survey_bonus_range``; ``use_skill``'s are ``borrowed()``, those of the best skill it
    may apply) for the kernel's ``Bounds`` to add up as ``Game.bounds`` does."""
    if type(effect) is not EFFECT_TYPES.get(effect.name):
        raise _Unsupported(f"effect type {effect.name!r} is not built in (the kernel knows {', '.join(EFFECT_TYPES)})")
    spec: dict[str, Any] = {"name": effect.name, "when": effect.when}
    for param in effect.params:
        value = getattr(effect, param.attribute)
        if param.kind == "options":
            value = [[_effect_spec(inner, limits, borrowed) for inner in option] for option in value]
        elif param.kind == "effects":
            value = [_effect_spec(inner, limits, borrowed) for inner in value]
        spec[param.name] = value
    if isinstance(effect, UseSkill):
        most_vp, least, most = borrowed()
    else:
        most_vp = effect.most_vp(limits)
        least, most = effect.survey_bonus_range(limits)
    spec["bounds"] = {"most_vp": most_vp, "least_survey_bonus": least, "most_survey_bonus": most}
    return spec


def _lends_nothing() -> tuple[Any, Any, Any]:
    """An ability's effects apply no crew's skill (use_skill asks a decision, which an
    ability's effects never do: the loader refuses it there)."""
    raise _Unsupported("a planet ability applies no crew's skill")


class _Unsupported(Exception):
    """A ruleset the kernel cannot play, and why."""


def ruleset_spec(ruleset: Ruleset, game: Game | None = None) -> dict[str, Any]:
    """Every card, knob and effect of ``ruleset`` as plain data for the kernel to compile
    (``game``: its ``Game``, whose bounds give the planet abilities' VP)."""
    limits = limits_of(ruleset, sum(1 for card in ruleset.crew if card.always_in_play))
    abilities = (game or Game(ruleset)).bounds.ability_vp
    if abilities is None:
        raise _Unsupported("the VP of a planet ability have no bound")
    return {
        "name": ruleset.name,
        "colours": [colour.id for colour in ruleset.colours],
        "planets": [_planet_spec(card, limits) for card in ruleset.planets],
        "crew": [
            {
                "id": card.id,
                "survey_count": card.survey_count,
                "always_in_play": card.always_in_play,
                "skill": [
                    _effect_spec(effect, crew_limits(limits, card.survey_count), functools.partial(use_skill_bounds, ruleset, index))
                    for effect in card.skill
                ],
            }
            for index, card in enumerate(ruleset.crew)
        ],
        "setups": [
            (counts.players, counts.planets, counts.crew, counts.full_planets_to_end)
            for counts in ruleset.setups.values()
        ],
        "cubes_per_player": ruleset.cubes_per_player,
        "free_cubes": ruleset.free_cubes,
        "max_free_cubes_per_crew": ruleset.max_free_cubes_per_crew,
        "free_cube_vp": ruleset.free_cube_vp,
        "player_cube_vp": ruleset.player_cube_vp,
        "survey_minimum": ruleset.survey_minimum,
        "max_rounds": ruleset.max_rounds,
        "turn_order_vp": list(ruleset.turn_order_vp),
        "ability_vp": abilities,
    }


def _planet_spec(card: PlanetCard, limits: Limits) -> dict[str, Any]:
    """A planet card as the kernel reads it: its track, and its abilities as triggers (event,
    square: -1 any normal square, 0 the special square, n square n; ``do`` as effect specs)
    and the lasting effects' values (``PlanetRules``)."""
    rules = PlanetRules.of(card.abilities)
    squares = {None: -1, SPECIAL: 0}
    return {
        "id": card.id,
        "colour": card.colour,
        "track": list(card.track),
        "special_capacity": card.special_capacity,
        "triggers": [
            {
                "event": ability.event,
                "square": squares.get(ability.square, ability.square),  # type: ignore[arg-type]
                "do": [_effect_spec(effect, limits, _lends_nothing) for effect in ability.do],
            }
            for ability in card.abilities
            if isinstance(ability, Trigger)
        ],
        "counts_toward": rules.counts_toward or "own",
        "majority_factor": rules.majority_factor,
        "no_survey_start": rules.no_survey_start,
    }


def _compile(game: Game) -> tuple[Any, str | None]:
    """The compiled kernel of ``game``'s ruleset, or None and why not; kept by the game
    (``Game.derived``), so that each ``Game`` compiles its kernel once."""
    if _kernel is None:
        return None, f"the native kernel is not built ({_IMPORT_ERROR})"
    try:
        return _kernel.Kernel(ruleset_spec(game.ruleset, game)), None
    except (_Unsupported, ValueError) as error:
        return None, str(error)


def _compiled(source: Game | Ruleset) -> tuple[Any, str | None]:
    # A bare Ruleset gets a Game of its own, compiled for this question only: pass the Game
    # that plays to reuse its kernel.
    game = source if isinstance(source, Game) else Game(source)
    return game.derived(_compile)


def kernel_for(source: Game | Ruleset) -> Any | None:
    """The compiled kernel of a game's ruleset, or None when it runs on the Python engine."""
    return _compiled(source)[0]


def fallback_reason(source: Game | Ruleset) -> str | None:
    """Why the ruleset runs on the Python engine (one line), or None when the kernel plays it."""
    return _compiled(source)[1]


def engine_for(source: Game | Ruleset, requested: str = DEFAULT_ENGINE) -> str:
    """The engine that plays: ``native`` when requested and the kernel compiles the ruleset."""
    if requested not in ENGINES:
        raise ValueError(f"unknown engine {requested!r}; engines: {', '.join(ENGINES)}")
    if requested == "native" and kernel_for(source) is not None:
        return "native"
    return "python"


def to_kernel(game: Game, state: State, *, trusted: bool = False) -> Any:
    """The kernel state of a Python ``State``, checked by the kernel's checker (the rules of
    ``state_checks``); ``RecordError`` naming every problem if it is not a state of the ruleset.

    ``trusted=True`` is for a state the Python engine made or ``state_checks`` passed (what a
    bot is given): the kernel then checks only the shape its arrays need, not the rules again.
    """
    kernel = kernel_for(game)
    if kernel is None:
        raise ValueError(f"this ruleset runs on the Python engine: {fallback_reason(game)}")
    return kernel.read_state(state, trusted=trusted)


def from_kernel(kernel_state: Any) -> State:
    """The Python ``State`` of a kernel state."""
    fields = dict(zip(State._fields, kernel_state.fields()))
    fields["pending"] = tuple(Pending(*item) for item in fields["pending"])
    fields["legal"] = tuple(action(*act) for act in fields["legal"])
    return State(**fields)


def to_action(fields: tuple[str, int, int, int]) -> Action:
    return action(*fields)


def play_games(game: Game, games: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Whole games played in the kernel of ``game``'s ruleset, one call for the lot (the GIL
    released while they play): each game is (players, planet card indices in ring order, dealt
    crew card indices, start seat, one (kind, seed, parameters) per seat), a kind of
    ``kernel_bot`` or ``PYTHON_RANDOM``; each result is (moves, options, picks, score_by_round,
    value_by_round, searched, final kernel state), as ``crates/python/src/games.rs`` says."""
    kernel = kernel_for(game)
    if kernel is None:
        raise ValueError(f"this ruleset runs on the Python engine: {fallback_reason(game)}")
    return _kernel.play_games(kernel, games)


#: The seat kind of ``play_games`` that plays as the built-in random bot (``bots.base.RandomBot``)
#: draw for draw: CPython's generator, seeded alike, choosing among the same legal actions.
PYTHON_RANDOM = "python_random"


def kernel_bot(kind: str, seed: int, params: dict[str, Any]) -> Any:
    """The kernel's bot ``kind`` (greedy, mcts) with a spec's checked parameters."""
    if _kernel is None:
        raise ValueError(f"the native kernel is not built ({_IMPORT_ERROR})")
    return _kernel.KernelBot(kind, seed, params)
