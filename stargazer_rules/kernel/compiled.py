"""The compiled ruleset: the one typed form in which a ruleset crosses into the native kernel.

Python derives, Rust receives. ``compile_ruleset`` turns a ``Game``'s validated ruleset into
frozen classes with named fields (every card, knob and effect, each effect's parameters by the
names its class declares, with Python's defaults filled in), together with what Python derived
of it: ``Game.bounds`` (``StateBounds``, what a state may hold), ``Game.action_sizes``
(``ActionSizes``, the action index's blocks) and ``Game.observation_layout``'s fields (the
observation's, which the kernel fills by name). The kernel's bindings read it by attribute name
(``crates/python/src/compiled.rs``) and keep those numbers as sent: the kernel derives no bound
and no block size of its own, and checks them only for what its types hold (`Rules::compile`).

Built once per game (``Game.derived``); a ruleset the kernel cannot play (an effect type
registered with ``extend_effect_types``, a bound that stays open) raises ValueError saying why,
as the kernel does for one beyond its limits.
"""

from __future__ import annotations

from typing import Any

import attrs

from stargazer_rules.contract.knobs import KNOBS
from stargazer_rules.engine.bounds import ActionLayout, ActionSizes, StateBounds
from stargazer_rules.engine.game import Game
from stargazer_rules.engine.observation_layout import ObservationField
from stargazer_rules.engine.scoring import counted_colours
from stargazer_rules.rulesets.model import PlanetCard, PlayerCountSetup
from stargazer_rules.vocabulary.abilities import SPECIAL, PlanetRules, Trigger
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, Effect
from stargazer_rules.vocabulary.bonus import Bonus
from stargazer_rules.vocabulary.majority import Majority


@attrs.frozen
class EffectParameter:
    """One declared parameter of an effect (``Param.name``) and its value: an integer, a text, None
    (an optional parameter left out), an expression node of the rules language, one effect list
    (a tuple of ``CompiledEffect``) or a list of them (``choose_one``'s options)."""

    name: str
    value: Any


@attrs.frozen
class CompiledEffect:
    """An effect as the kernel reads it: its type's name, its timing and every parameter its class
    declares, in declaration order."""

    name: str
    when: str
    parameters: tuple[EffectParameter, ...]


@attrs.frozen
class CompiledTrigger:
    """A planet ability's or a crew's trigger: its event, the square a ``cube_placed`` waits for (-1 any
    normal square, 0 the special square, n square n), its ``do`` effects and the ids of the crews
    whose pick sets off a crew's ``another_pick`` (empty: any crew; the loader refuses an empty list)."""

    event: str
    square: int
    do: tuple[CompiledEffect, ...]
    crew: tuple[str, ...]


@attrs.frozen
class CompiledPlanet:
    """A planet card: its track, its triggers (in card order) and its lasting effects' values
    (``abilities.PlanetRules``; ``counted_colours``: the colour ids its cubes count toward for
    the major-planet bonus, derived here once: its own, or a lasting ``counts_toward``'s)."""

    id: str
    colour: str
    track: tuple[int, ...]
    special_capacity: int
    triggers: tuple[CompiledTrigger, ...]
    counted_colours: tuple[str, ...]
    majority_factor: int
    no_survey_start: bool


@attrs.frozen
class CompiledCrew:
    """A crew card: its skill and its triggers (in card order, in force while it is held)."""

    id: str
    survey_count: int
    always_in_play: bool
    skill: tuple[CompiledEffect, ...]
    triggers: tuple[CompiledTrigger, ...]


@attrs.frozen
class CompiledUnpickedCrews:
    """What a crew nobody picked receives at a round's end (R11, ``Ruleset.unpicked_crews``): its
    amount of free cubes, an integer or an expression node; its cap crosses as the ruleset's
    ``max_free_cubes_per_crew``; ``replaced``: a crew at the cap leaves the crew area
    (``at_cap: replaced``)."""

    free_cubes: Any
    replaced: bool = False


@attrs.frozen
class CompiledEndTrigger:
    """One condition of the game's end (R10, ``Ruleset.end``): its trigger id and its condition
    node; the round limit crosses as ``max_rounds``."""

    id: str
    condition: Any


@attrs.frozen
class CompiledScoringLine:
    """One line of its own on the score sheet (``Ruleset.end_scoring``): its id and its VP, an
    integer or an amount node; its name stays in Python (the kernel scores, Python words)."""

    id: str
    vp: Any


#: The ruleset's numeric knobs, each by its declared name (``contract.knobs``), as the kernel's
#: bindings read them (``KnobSpecs``, generated from the same declarations).
CompiledKnobs = attrs.make_class("CompiledKnobs", {knob.name: attrs.field() for knob in KNOBS}, frozen=True)


@attrs.frozen
class CompiledRuleset:
    """Every card (in file order) and knob of a ruleset (``knobs``: the numeric ones, a
    ``CompiledKnobs``; ``round_end_effects``: rules.yaml's ``round_end.effects``, compiled as a
    trigger's do), and the numbers Python derived of it:
    ``bounds`` (``Game.bounds``), ``action_sizes`` (``Game.action_sizes``), ``action_layout``
    (``Game.action_layout``: the action index's blocks and strides) and ``observation``
    (``Game.observation_layout.fields``: name, offset and length of each field, in vector order)."""

    name: str
    colours: tuple[str, ...]
    planets: tuple[CompiledPlanet, ...]
    crew: tuple[CompiledCrew, ...]
    setups: tuple[PlayerCountSetup, ...]
    knobs: Any
    max_free_cubes_per_crew: int
    unpicked_crews: CompiledUnpickedCrews
    round_end_effects: tuple[CompiledEffect, ...]
    end: tuple[CompiledEndTrigger, ...]
    end_scoring: tuple[CompiledScoringLine, ...]
    turn_order_vp: tuple[int, ...]
    majority: Majority
    bonus: Bonus
    #: The effects each seat performs before the first round (``Ruleset.setup_steps``).
    setup_steps: tuple[CompiledEffect, ...]
    bounds: StateBounds
    action_sizes: ActionSizes
    action_layout: ActionLayout
    observation: tuple[ObservationField, ...]


def compile_ruleset(game: Game) -> CompiledRuleset:
    """The compiled form of ``game``'s ruleset; ValueError says why the kernel cannot play it."""
    ruleset, bounds = game.ruleset, game.bounds
    crew = tuple(
        CompiledCrew(card.id, card.survey_count, card.always_in_play, _effects(card.skill), _triggers(card.triggers))
        for card in ruleset.crew
    )
    open_bounds = [name for name in ("most_vp", "ability_vp", "least_line_vp", "most_line_vp", "least_survey_bonus", "most_survey_bonus") if getattr(bounds, name) is None]
    if open_bounds:
        raise ValueError(f"the ruleset's {', '.join(open_bounds)} has no bound (a skill cannot say what it scores or adds)")
    return CompiledRuleset(
        name=ruleset.name,
        colours=tuple(colour.id for colour in ruleset.colours),
        planets=tuple(_planet(card, [colour.id for colour in ruleset.colours]) for card in ruleset.planets),
        crew=crew,
        setups=tuple(ruleset.setups.values()),
        knobs=CompiledKnobs(**{knob.name: getattr(ruleset, knob.name) for knob in KNOBS}),
        max_free_cubes_per_crew=ruleset.max_free_cubes_per_crew,
        unpicked_crews=CompiledUnpickedCrews(ruleset.unpicked_crews.free_cubes, ruleset.unpicked_crews.replaced),
        round_end_effects=_effects(ruleset.round_end_effects),
        end=tuple(CompiledEndTrigger(trigger.id, trigger.condition) for trigger in ruleset.end),
        end_scoring=tuple(CompiledScoringLine(line.id, line.vp) for line in ruleset.end_scoring),
        turn_order_vp=tuple(ruleset.turn_order_vp),
        majority=ruleset.majority,
        bonus=ruleset.bonus,
        setup_steps=_effects(ruleset.setup_steps),
        bounds=crossing_bounds(bounds),
        action_sizes=game.action_sizes,
        action_layout=game.action_layout,
        observation=game.observation_layout.fields,
    )


#: The widest numbers that cross into the kernel, its 64-bit integers: a bound past them crosses
#: as the nearest, past every limit of the kernel either way, so that the kernel refuses it in
#: its own sentence, which ``with_true_bounds`` then gives the bound's true value.
WIDEST = (-(2**63), 2**63 - 1)


def crossing_bounds(bounds: StateBounds) -> StateBounds:
    """``bounds`` with each number past ``WIDEST`` held at it (None, an open bound, stays); the
    same ``bounds`` when every number crosses as it is."""
    low, high = WIDEST
    held = {name: min(max(value, low), high) for name, value in attrs.asdict(bounds).items() if value is not None and not low <= value <= high}
    return attrs.evolve(bounds, **held) if held else bounds


def with_true_bounds(reason: str, bounds: StateBounds) -> str:
    """The kernel's ``reason`` for refusing a ruleset with each bound held at ``WIDEST`` given its
    true value: "a seat may score 10000000000000000000000 VP in play, beyond the kernel's limit of
    ...", as for any bound the kernel refuses. The kernel names the first bound it refuses, in
    its own order, so each end of ``WIDEST`` stands for the first field held there."""
    true = {}
    for name, value in attrs.asdict(bounds).items():
        if value is not None and not WIDEST[0] <= value <= WIDEST[1]:
            true.setdefault(str(WIDEST[0] if value < 0 else WIDEST[1]), str(value))
    for held, value in true.items():
        reason = reason.replace(held, value)
    return reason


def _planet(card: PlanetCard, colours: list[str]) -> CompiledPlanet:
    rules = PlanetRules.of(card.abilities)
    triggers = _triggers(tuple(ability for ability in card.abilities if isinstance(ability, Trigger)))
    return CompiledPlanet(
        card.id, card.colour, tuple(card.track), card.special_capacity, triggers,
        counted_colours(card, colours), rules.majority_factor, rules.no_survey_start,
    )


def _triggers(triggers: tuple[Trigger, ...]) -> tuple[CompiledTrigger, ...]:
    return tuple(
        CompiledTrigger(trigger.event, _TRIGGER_SQUARES.get(trigger.square, trigger.square), _effects(trigger.do), trigger.crew)  # type: ignore[arg-type]
        for trigger in triggers
    )


#: A trigger's square as the kernel reads it: any normal square -1, the special square 0.
_TRIGGER_SQUARES: dict[Any, int] = {None: -1, SPECIAL: 0}


def _effects(effects: tuple[Effect, ...]) -> tuple[CompiledEffect, ...]:
    return tuple(_effect(effect) for effect in effects)


def _effect(effect: Effect) -> CompiledEffect:
    """An effect of a built-in type with each declared parameter's value (effect lists compiled in turn)."""
    if type(effect) is not EFFECT_TYPES.get(effect.name):
        raise ValueError(f"effect type {effect.name!r} is not built in (the kernel knows {', '.join(EFFECT_TYPES)})")
    parameters = []
    for param in effect.params:
        value = getattr(effect, param.attribute)
        if param.kind == "options":
            value = tuple(_effects(option) for option in value)
        elif param.kind == "effects":
            value = _effects(value)
        parameters.append(EffectParameter(param.name, value))
    return CompiledEffect(effect.name, effect.when, tuple(parameters))
