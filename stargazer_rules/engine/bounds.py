"""What a state of one ruleset may hold: every count's least and most, derived from the ruleset once.

A field's most is what the rules can make of the ruleset's own numbers: a hand never holds more
than ``cubes_per_player`` (R13; cubes only leave it), a pending effect never has more steps
left than its ``count``, a turn's survey bonus is at most the sum of its crew's
``change_survey_count`` deltas, a seat's VP at most the most VP a seat starts with
(``turn_order_vp``) and every round's best motivation bonus (R6) and skill VP. The state checker (``state_checks``), the narrowed state schema
(``states_json.state_schema_for``) and the native kernel's checker all read these numbers, so that
the engines refuse the same states: the kernel receives them in the compiled ruleset
(``kernel.compiled``; ``crates/kernel/src/rules.rs``, ``Bounds``) and derives none of them.
``ActionSizes``, the numbers of the action index, cross the same way.

A plugin effect type that cannot say what it scores or adds to the survey count
(``Effect.vp_per_step``, ``Effect.survey_bonus_per_step`` return None) leaves that bound open
(None); plugin rulesets never reach the kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

import attrs

from stargazer_rules.vocabulary.effects import DIRECTION, Effect
from stargazer_rules.vocabulary.expressions import SEATS, Limits
from stargazer_rules.rulesets.model import Ruleset


@attrs.frozen
class StateBounds:
    """The least and most of each count a state of the ruleset may hold.

    ``most_players``, ``most_planets``, ``most_crew``: the largest table (seats, Planets in the
    ring, crew slots with the always-in-play crew). ``most_hand``: cubes in one hand, and own
    cubes removed (R6, R13). ``most_stock``: free cubes in the stock (R13). ``most_free_on_crew``:
    free cubes on one crew (R11). ``most_vp``: VP one seat holds (starting VP and VP scored
    during play), None when open.
    ``most_round``: the round limit. ``least_survey_bonus``/``most_survey_bonus``: this turn's
    change of the survey count, None when open. ``most_survey_placed``: cubes one survey places
    (R7). ``most_steps``: steps left of any pending effect (each effect's own ``steps`` bounds
    it more tightly). ``most_pending``: effects pending at once (each effect of the ruleset at
    most once). ``most_turn_decisions``: the decisions one seat takes in a row in a turn, for
    every skill at once (what greedy's lookahead may play, the same in the kernel). The
    decisions of a whole game are ``most_moves``, beside this class.
    """

    most_players: int
    most_planets: int
    most_crew: int
    most_hand: int
    most_stock: int
    most_free_on_crew: int
    most_vp: int | None
    most_round: int
    least_survey_bonus: int | None
    most_survey_bonus: int | None
    most_survey_placed: int
    most_steps: int
    most_pending: int
    most_turn_decisions: int

    @classmethod
    def of(cls, ruleset: Ruleset, skills: Mapping[int, Iterable[Effect]], always: int) -> StateBounds:
        """The bounds of ``ruleset``; ``skills`` maps each crew card to every effect of its
        skill (options of ``choose_one`` included), ``always`` counts the always-in-play crew."""
        skills = {card: tuple(effects) for card, effects in skills.items()}
        effects = [effect for card_effects in skills.values() for effect in card_effects]
        most_players = max(ruleset.player_counts)
        free_on_crew = min(ruleset.max_free_cubes_per_crew, ruleset.free_cubes)
        cubes = ruleset.cubes_per_player
        # R6: the best motivation bonus a turn can take, and the most VP a crew's skill scores.
        motivation = free_on_crew * ruleset.free_cube_vp + most_players * cubes * ruleset.player_cube_vp
        counts = [card.survey_count for card in ruleset.crew]
        limits = limits_of(ruleset, always)
        skill_vp = [_total(effects, lambda e: e.most_vp(limits), positive=True) for effects in skills.values()]
        starting = max(ruleset.starting_vp_by_position)  # a seat's VP at setup
        most_vp = None if None in skill_vp else starting + ruleset.max_rounds * (motivation + max(skill_vp, default=0))
        own = {card: crew_limits(limits, counts[card]) for card in skills}
        raised = [_total(effects, lambda e, c=card: e.survey_bonus_range(own[c])[1], positive=True) for card, effects in skills.items()]
        lowered = [_total(effects, lambda e, c=card: e.survey_bonus_range(own[c])[0], positive=False) for card, effects in skills.items()]
        open_bonus = None in raised or None in lowered
        if open_bonus:
            most_placed = cubes
        else:
            largest = max((counts[card] + raised[i] for i, card in enumerate(skills)), default=0)  # type: ignore[operator]
            most_placed = min(cubes, max(0, largest))
        most_planets = max(counts.planets for counts in ruleset.setups.values())
        most_crew = max(counts.crew for counts in ruleset.setups.values()) + always
        return cls(
            most_players=most_players,
            most_planets=most_planets,
            most_crew=most_crew,
            most_hand=cubes,
            most_stock=ruleset.free_cubes,
            most_free_on_crew=free_on_crew,
            most_vp=most_vp,
            most_round=ruleset.max_rounds,
            least_survey_bonus=None if open_bonus else min(lowered, default=0),  # type: ignore[type-var]
            most_survey_bonus=None if open_bonus else max(raised, default=0),  # type: ignore[type-var]
            most_survey_placed=most_placed,
            most_steps=max((effect.steps for effect in effects), default=1),
            most_pending=len(effects),
            most_turn_decisions=2 + most_placed + sum(effect.steps for effect in effects),
        )


@attrs.frozen
class ActionSizes:
    """The numbers the action index's blocks are made of (``fast.action_index``): ``planets``
    (P, the most Planets), ``crews`` (C, the most crew slots), ``seats`` (N, the most seats),
    ``survey_counts`` (S, the most cubes a survey places, R7), ``directions`` (D, 2 when a
    skill may ``choose_direction``, else 1), ``options`` (O, the most options a ``choose_one``
    offers) and ``seat_targets`` (the most seats, or 0 when no ``choose`` asks for a seat).

    Derived here once (``Game.action_sizes``); the kernel receives them in the compiled ruleset
    (``kernel.compiled``) and derives none of them.
    """

    planets: int
    crews: int
    seats: int
    survey_counts: int
    directions: int
    options: int
    seat_targets: int

    @classmethod
    def of(cls, ruleset: Ruleset, bounds: StateBounds) -> ActionSizes:
        effects = [effect for card in ruleset.crew for effect in _every_effect(card.skill)]

        def asks(effect: Effect) -> bool:
            """Whether an effect asks a decision of its own (``choose_one``, ``choose``), not only its branches."""
            return effect.most_choices(players=bounds.most_players, planets=bounds.most_planets, crews=bounds.most_crew) != 0

        return cls(
            planets=bounds.most_planets,
            crews=bounds.most_crew,
            seats=bounds.most_players,
            survey_counts=bounds.most_survey_placed,
            directions=2 if any(getattr(effect, "flag", 0) & DIRECTION for effect in effects) else 1,
            options=max((len(effect.branches) for effect in effects if asks(effect)), default=0),
            seat_targets=bounds.most_players if any(getattr(effect, "set_kind", None) == SEATS and asks(effect) for effect in effects) else 0,
        )


def _every_effect(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every effect of a list, those of its branches and bodies too."""
    for effect in effects:
        yield effect
        for nested in (*effect.branches, *effect.bodies):
            yield from _every_effect(nested)


def most_moves(ruleset: Ruleset, bounds: StateBounds) -> int:
    """The most decisions a game of ``ruleset`` can ask for before the round limit ends it: a
    record listing more cannot be one of its games (``Game.most_moves``).

    R4: a round is one turn per seat; a turn is a pick (R5), a survey (one walk, or a
    cube-by-cube survey of at most a hand of cubes and a stop: R7, R8 lifted), and the
    decisions of the chosen crew's skill, its round-end effects included (R12).
    """
    table = (bounds.most_players, bounds.most_planets, bounds.most_crew)
    skill = max((_most_decisions(card.skill, *table) for card in ruleset.crew), default=0)
    return ruleset.max_rounds * bounds.most_players * (1 + (ruleset.cubes_per_player + 1) + skill)


def _most_decisions(effects: Iterable[Effect], players: int, planets: int, crews: int) -> int:
    """The most decisions a list of effects asks for: one per step of each effect that asks any,
    plus the longest of its options (the engine resolves each effect of a picked option once)."""
    total = 0
    for effect in effects:
        asks = effect.most_choices(players=players, planets=planets, crews=crews) != 0
        total += effect.steps * asks + max(
            (_most_decisions(option, players, planets, crews) for option in effect.branches), default=0
        )
    return total


def limits_of(ruleset: Ruleset, always: int) -> Limits:
    """The ruleset's numbers the rules language's amounts are bounded by (``expressions.Limits``)."""
    counts = [card.survey_count for card in ruleset.crew]
    return Limits(
        players=max(ruleset.player_counts),
        least_players=min(ruleset.player_counts),
        planets=max(counts.planets for counts in ruleset.setups.values()),
        crews=max(counts.crew for counts in ruleset.setups.values()) + always,
        cubes_per_player=ruleset.cubes_per_player,
        free_cubes=ruleset.free_cubes,
        free_on_crew=min(ruleset.max_free_cubes_per_crew, ruleset.free_cubes),
        rounds=ruleset.max_rounds,
        longest_track=max(card.length for card in ruleset.planets),
        special_capacity=max(card.special_capacity for card in ruleset.planets),
        colours=len(ruleset.colours),
        least_survey_count=min(counts, default=0),
        most_survey_count=max(counts, default=0),
        free_cube_vp=ruleset.free_cube_vp,
    )


def crew_limits(limits: Limits, survey_count: int) -> Limits:
    """The limits one crew's effects are bounded by: the ruleset's, with the crew's own printed
    survey count, which a survey count set by a skill is relative to (R7)."""
    return attrs.evolve(limits, least_survey_count=survey_count, most_survey_count=survey_count)


def _total(effects: Iterable[Effect], per_step: Callable[[Effect], int | None], *, positive: bool) -> int | None:
    """The most (``positive``) or least a skill's effects add up to, each resolving all its
    steps once a turn; None when one of them cannot say."""
    total = 0
    for effect in effects:
        value = per_step(effect)
        if value is None:
            return None
        value *= effect.steps
        total += max(0, value) if positive else min(0, value)
    return total
