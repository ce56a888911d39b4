"""What a state of one ruleset may hold: every count's least and most, derived from the ruleset once.

A field's most is what the rules can make of the ruleset's own numbers: a hand never holds more
than ``cubes_per_player`` (R13; cubes only leave it), a pending effect never has more steps
left than its ``count``, a turn's survey bonus is at most the sum of its crew's
``change_survey_count`` deltas, a seat's VP at most the most VP a seat starts with
(``turn_order_vp``) and every round's best motivation bonus (R6) and skill VP. The state checker (``state_checks``), the narrowed state schema
(``states_json.state_schema_for``) and the native kernel's checker all read these numbers, so that
the engines refuse the same states: the kernel receives them in the compiled ruleset
(``kernel.compiled``; ``crates/kernel/src/rules/bounds.rs``, ``Bounds``) and derives none of them.
``ActionSizes``, the numbers of the action index, cross the same way.

A plugin effect type that cannot say what it scores or adds to the survey count
(``Effect.vp_per_step``, ``Effect.survey_bonus_per_step`` return None) leaves that bound open
(None); plugin rulesets never reach the kernel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping

import attrs

from stargazer_rules.contract.enums import ACTION_KINDS
from stargazer_rules.vocabulary.abilities import BECOMES_FULL, CUBE_PLACED, CrewRules, PlanetRules, Trigger
from stargazer_rules.vocabulary.effects import DIRECTION, Effect, TakeFreeCubes, UseSkill, derivation, list_landings, list_most_vp, most_skips
from stargazer_rules.vocabulary.expressions import SEATS, Limits, amount_bounds
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.engine.scoring import counted_colours


@attrs.frozen
class StateBounds:
    """The least and most of each count a state of the ruleset may hold.

    ``most_players``, ``most_planets``, ``most_crew``: the largest table (seats, Planets in the
    ring, crew slots with the always-in-play crew). ``most_hand``: cubes in one hand, and own
    cubes removed (R6, R13). ``most_stock``: free cubes in the stock (R13). ``most_free_on_crew``:
    free cubes on one crew (R11). ``most_vp``: VP one seat holds (starting VP and VP scored
    during play, ``ability_vp`` of them from planet abilities, crew triggers and rules.yaml's
    ``round_end.effects``), None when open.
    ``most_bonus_vp``: the most the major-planet bonus gives one seat (R17, ``Bonus.most_vp``:
    a seat owns ``cubes_per_player`` cubes, each counted once, or once per colour on a Planet
    whose cubes count toward every colour, P1).
    ``least_line_vp``/``most_line_vp``: the least and most all the lines of ``end_scoring`` give
    one seat together (``line_vp_range``; a seat's total, R18, is its majority VP, bonus, VP
    from play and these), None when an amount has no bound (one reading VP).
    ``most_round``: the round limit. ``least_survey_bonus``/``most_survey_bonus``: this turn's
    change of the survey count, None when open. ``most_survey_placed``: cubes one survey places
    (R7). ``most_survey_skips``: the Planets a survey may still pass over under a skip limit
    (``effects.most_skips``; -1 is no limit). ``most_steps``: steps left of any pending effect (each effect's own ``steps`` bounds
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
    ability_vp: int | None
    most_bonus_vp: int
    least_line_vp: int | None
    most_line_vp: int | None
    most_round: int
    least_survey_bonus: int | None
    most_survey_bonus: int | None
    most_survey_placed: int
    most_survey_skips: int
    most_steps: int
    most_pending: int
    most_turn_decisions: int

    @classmethod
    def of(cls, ruleset: Ruleset, skills: Mapping[int, Iterable[Effect]], always: int) -> StateBounds:
        """The bounds of ``ruleset``; ``skills`` maps each crew card to every effect of its
        skill (options of ``choose_one`` included), ``always`` counts the always-in-play crew.
        Each effect list's facts are derived once (``effects.derivation``): linear in the size
        of the ruleset's programs, however deep they nest."""
        with derivation():
            return cls._derived(ruleset, skills, always)

    @classmethod
    def _derived(cls, ruleset: Ruleset, skills: Mapping[int, Iterable[Effect]], always: int) -> StateBounds:
        skills = {card: tuple(effects) for card, effects in skills.items()}
        effects = [effect for card_effects in skills.values() for effect in card_effects]
        most_players = max(ruleset.player_counts)
        free_on_crew = min(ruleset.max_free_cubes_per_crew, ruleset.free_cubes)
        cubes = most_owned(ruleset)
        # R6: the best motivation bonus a turn can take, and the most VP a crew's skill scores.
        motivation = free_on_crew * ruleset.free_cube_vp + most_players * cubes * ruleset.player_cube_vp
        counts = [card.survey_count for card in ruleset.crew]
        limits = limits_of(ruleset, always)
        own = {card: crew_limits(limits, counts[card]) for card in skills}
        borrowable = borrowable_cards(ruleset)
        # Each step of an effect, use_skill's being the best skill it may apply (borrowed_bounds).
        step = {card: _StepBounds(skills, borrowable, limits, own[card]) for card in skills}
        skill_vp = [_total(effects, step[card].most_vp, positive=True) for card, effects in skills.items()]
        starting = max(ruleset.starting_vp_by_position)  # a seat's VP at setup
        # The setup steps, performed once by each seat before the first round: what they may give one seat.
        setup_steps = tuple(every_effect(ruleset.setup_steps))
        setup_vp = _total(setup_steps, _StepBounds(skills, borrowable, limits, limits).most_vp, positive=True)
        starting = None if setup_vp is None else starting + most_players * setup_vp
        raised = [_total(effects, step[card].most_survey_bonus, positive=True) for card, effects in skills.items()]
        lowered = [_total(effects, step[card].least_survey_bonus, positive=False) for card, effects in skills.items()]
        open_bonus = None in raised or None in lowered
        if open_bonus:
            most_placed = cubes
        else:
            largest = max((counts[card] + raised[i] for i, card in enumerate(skills)), default=0)  # type: ignore[operator]
            # A hand holds at most its cubes, unless a cube can come back to it mid-survey and be
            # placed again (survey_placed counts every cube the survey places, R7).
            most_placed = max(0, largest) if refills_hands_mid_survey(ruleset) else min(cubes, max(0, largest))
        abilities = ability_vp(ruleset, most_placed, limits)
        lines = line_vp_range(ruleset, limits)
        most_vp = (
            None
            if None in skill_vp or abilities is None or starting is None
            else starting + ruleset.max_rounds * (motivation + max(skill_vp, default=0)) + abilities  # type: ignore[type-var]
        )
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
            ability_vp=abilities,
            most_bonus_vp=most_bonus_vp(ruleset),
            least_line_vp=lines[0],
            most_line_vp=lines[1],
            most_round=ruleset.max_rounds,
            least_survey_bonus=None if open_bonus else min(lowered, default=0),  # type: ignore[type-var]
            most_survey_bonus=None if open_bonus else max(raised, default=0),  # type: ignore[type-var]
            most_survey_placed=most_placed,
            most_survey_skips=most_skips(ruleset.cubes_per_player, most_planets),  # the clamp of skip_limit
            most_steps=max((effect.steps for effect in (*effects, *setup_steps)), default=1),
            # use_skill queues the effects of another skill beside its own (each at most once).
            # The setup steps of every seat are queued at once, before any skill's.
            most_pending=max(
                len(effects) + sum(isinstance(e, UseSkill) for e in effects) * max((len(skills[b]) for b in borrowable), default=0),
                most_players * len(setup_steps),
            ),
            most_turn_decisions=max(2 + most_placed + sum(effect.steps for effect in effects), sum(effect.steps for effect in setup_steps)),
        )


def most_owned(ruleset: Ruleset) -> int:
    """The most cubes one seat owns: ``cubes_per_player`` (R13), and every free cube of the
    stock when an effect of the ruleset may hand them out as a seat's own (``take_free_cubes``,
    idea R8). It bounds a hand, a seat's cubes on the board, a survey and the major-planet bonus."""
    return ruleset.cubes_per_player + (ruleset.free_cubes if takes_free_cubes(ruleset) else 0)


def takes_free_cubes(ruleset: Ruleset) -> bool:
    """Whether an effect anywhere in the ruleset (skills, planet abilities, crew triggers,
    rules.yaml's round-end effects and setup steps) is ``take_free_cubes``."""
    holders = (
        *(card.skill for card in ruleset.crew),
        *(trigger.do for trigger in _triggers(ruleset)),
        ruleset.round_end_effects,
        ruleset.setup_steps,
    )
    return any(effect.name == TakeFreeCubes.name for effects in holders for effect in every_effect(effects))


def most_bonus_vp(ruleset: Ruleset) -> int:
    """The most VP the major-planet bonus gives one seat (R17, the ruleset's ``bonus``)."""
    cubes = most_owned(ruleset)
    colours = [colour.id for colour in ruleset.colours]
    # A cube counts toward as many colours as its Planet's counted colours (P1: every colour).
    most_colours_per_cube = max((len(counted_colours(card, colours)) for card in ruleset.planets), default=1)
    return ruleset.bonus.most_vp(cubes, cubes * max(1, most_colours_per_cube))


def line_vp_range(ruleset: Ruleset, limits: Limits) -> tuple[int | None, int | None]:
    """The least and most VP the lines of ``end_scoring`` give one seat together: the sum of
    each line's amount bounds (``Limits``), each end None when some amount's is (0, 0 with no
    line). A line may score below 0 (docs/rules.md, "End-of-game scoring lines")."""
    bounds = [amount_bounds(line.vp, limits) for line in ruleset.end_scoring]
    least = [lo for lo, _ in bounds]
    most = [hi for _, hi in bounds]
    return (None if None in least else sum(least), None if None in most else sum(most))  # type: ignore[arg-type]


def ability_vp(ruleset: Ruleset, most_placed: int, limits: Limits) -> int | None:
    """The most VP one seat can score from planet abilities and crew triggers in a game; None
    when an effect cannot say. 0 for a ruleset without them.

    Abilities set off no abilities (no chains), so their events are counted from play alone:
    a ``cube_placed`` or ``becomes_full`` per cube that lands, at most the cubes of a survey
    and of a crew's skill each turn (``Effect.most_landings``), each firing the triggers of
    the Planet it lands on; the ``round_end`` triggers of every Planet once a round; the
    ``game_end`` triggers once. Each event gives at most its triggers' ``Effect.most_vp``.
    rules.yaml's ``round_end.effects`` (idea R7) count as one more ``round_end`` trigger.

    Crew triggers (``CrewRules``) count alike, for the crews held at once (at most one per
    seat: the ``limits.players`` best cards): at each landing their landing triggers, each
    round their ``round_end`` ones, ``players - 1`` times a round their ``another_pick`` (a
    crew filter only makes it rarer), and once their ``game_end`` ones.
    """
    rules = [PlanetRules.of(card.abilities) for card in ruleset.planets]
    crew_rules = [CrewRules.of(card.triggers) for card in ruleset.crew]
    if not any(card.abilities for card in ruleset.planets) and not any(card.triggers for card in ruleset.crew) and not ruleset.round_end_effects:
        return 0

    def vp(triggers) -> int | None:
        values = [list_most_vp(trigger.do, limits) for trigger in triggers]
        return None if None in values else sum(values)  # type: ignore[arg-type]

    landing = [vp((*r.cube_placed, *r.becomes_full)) for r in rules]
    round_end = [vp(r.round_end) for r in rules] + [list_most_vp(ruleset.round_end_effects, limits)]
    game_end = [vp(r.game_end) for r in rules]
    crew_landing = [vp((*r.cube_placed, *r.becomes_full)) for r in crew_rules]
    # A held crew's another_pick fires once per other seat's pick: players - 1 times a round.
    crew_round = [vp((*r.round_end, *(r.another_pick * (limits.players - 1)))) for r in crew_rules]
    crew_game_end = [vp(r.game_end) for r in crew_rules]
    # use_skill lands what the skill it applies lands: the most of the skills it may apply.
    lent = [list_landings(ruleset.crew[card].skill, limits) for card in borrowable_cards(ruleset)]
    borrowed = None if None in lent else max(lent, default=0)  # type: ignore[type-var]
    skill_landings = [list_landings(card.skill, limits, borrowed) for card in ruleset.crew]
    if None in (*landing, *round_end, *game_end, *skill_landings, *crew_landing, *crew_round, *crew_game_end):
        return None

    def held(values: list[int]) -> int:
        """The most the crews held at once score: one crew per seat."""
        return sum(sorted(values, reverse=True)[: limits.players])

    landings = ruleset.max_rounds * limits.players * (most_placed + max(skill_landings, default=0))  # type: ignore[type-var,operator]
    per_landing = max(landing, default=0) + held(crew_landing)  # type: ignore[arg-type,type-var]
    per_round = sum(round_end) + held(crew_round)  # type: ignore[arg-type]
    at_end = sum(game_end) + held(crew_game_end)  # type: ignore[arg-type]
    return landings * per_landing + ruleset.max_rounds * per_round + at_end  # type: ignore[arg-type,type-var,operator]


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
        effects = [effect for card in ruleset.crew for effect in every_effect(card.skill)]

        def asks(effect: Effect) -> bool:
            """Whether an effect asks a decision of its own (``choose_one``, ``choose``), not only its branches."""
            return effect.most_choices(players=bounds.most_players, planets=bounds.most_planets, crews=bounds.most_crew) != 0

        return cls(
            planets=bounds.most_planets,
            crews=bounds.most_crew,
            seats=bounds.most_players,
            survey_counts=bounds.most_survey_placed,
            directions=2 if any(getattr(effect, "survey_flags", 0) & DIRECTION for effect in effects) else 1,
            options=max((len(effect.branches) for effect in effects if asks(effect)), default=0),
            seat_targets=bounds.most_players if any(getattr(effect, "set_kind", None) == SEATS and asks(effect) for effect in effects) else 0,
        )


@attrs.frozen
class ActionLayout:
    """The action index's layout, derived once from ``ActionSizes``: each block's ``offsets``
    and ``sizes`` in the kernel's ``Kind`` order (``contract.enums.ACTION_KINDS``), the index's
    ``size``, and the whole-walk survey's strides: its id within the block is
    ``1 + d * direction_stride + start * start_stride + count - 1`` (d 0 clockwise, 1
    counter-clockwise; 0 places nothing). The kernel receives it in the compiled ruleset and
    keeps no formula of its own (``crates/kernel/src/action_index.rs``).

    Blocks, with P planets, C crews, N seats, S survey counts, D directions, O options:
    pick_crew C; survey 1 + D*P*S; survey_step P; survey_stop 1; target_planet P;
    target_crew C; choose_option O; name_start_player N; target_seat ``seat_targets``.
    """

    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    size: int
    direction_stride: int
    start_stride: int

    @classmethod
    def of(cls, sizes: ActionSizes) -> ActionLayout:
        block = {
            "pick_crew": sizes.crews,
            "survey": 1 + sizes.directions * sizes.planets * sizes.survey_counts,
            "survey_step": sizes.planets,
            "survey_stop": 1,
            "target_planet": sizes.planets,
            "target_crew": sizes.crews,
            "choose_option": sizes.options,
            "name_start_player": sizes.seats,
            "target_seat": sizes.seat_targets,
        }
        offsets, offset = [], 0
        for kind in ACTION_KINDS.names:
            offsets.append(offset)
            offset += block[kind]
        return cls(
            offsets=tuple(offsets),
            sizes=tuple(block[kind] for kind in ACTION_KINDS.names),
            size=offset,
            direction_stride=sizes.planets * sizes.survey_counts,
            start_stride=sizes.survey_counts,
        )


def refills_hands_mid_survey(ruleset: Ruleset) -> bool:
    """Whether a cube can return to a hand while a survey is made: a ``return_cube`` to hand in
    what a landing cube sets off (planet abilities, crew triggers) or in a survey start's
    ``before_walk``."""
    during = [trigger.do for trigger in _triggers(ruleset) if trigger.event in (CUBE_PLACED, BECOMES_FULL)]
    during += [effect.before_walk for card in ruleset.crew for effect in every_effect(card.skill) if effect.name == "survey_start"]  # type: ignore[attr-defined]
    return any(
        (effect.name == "return_cube" and effect.to == "hand") or effect.name == TakeFreeCubes.name  # type: ignore[attr-defined]
        for effects in during
        for effect in every_effect(effects)
    )


def _triggers(ruleset: Ruleset) -> Iterator[Trigger]:
    """Every trigger of the ruleset: the Planets' abilities (lasting ones left out), then the
    crew cards' triggers."""
    for holder in (*(card.abilities for card in ruleset.planets), *(card.triggers for card in ruleset.crew)):
        yield from (trigger for trigger in holder if isinstance(trigger, Trigger))


def every_effect(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every effect of a list, those of its branches and bodies too."""
    for effect in effects:
        yield effect
        for nested in (*effect.branches, *effect.bodies):
            yield from every_effect(nested)


def most_moves(ruleset: Ruleset, bounds: StateBounds) -> int:
    """The most decisions a game of ``ruleset`` can ask for before the round limit ends it: a
    record listing more cannot be one of its games (``Game.most_moves``).

    R4: a round is one turn per seat; a turn is a pick (R5), a survey (one walk, or a
    cube-by-cube survey of at most a hand of cubes and a stop: R7, R8 lifted), and the
    decisions of the chosen crew's skill, its round-end effects included (R12); before the
    first round, each seat's setup steps (rules.yaml ``setup.each_player``).
    """
    table = (bounds.most_players, bounds.most_planets, bounds.most_crew)
    crew = ruleset.crew
    # use_skill asks, besides its own decision, those of the skill it applies.
    borrowed = max((_most_decisions(crew[card].skill, *table, 0) for card in borrowable_cards(ruleset)), default=0)
    skill = max((_most_decisions(card.skill, *table, borrowed) for card in crew), default=0)
    setup = _most_decisions(ruleset.setup_steps, *table, 0)
    return ruleset.max_rounds * bounds.most_players * (1 + (bounds.most_hand + 1) + skill) + bounds.most_players * setup


def _most_decisions(effects: Iterable[Effect], players: int, planets: int, crews: int, borrowed: int) -> int:
    """The most decisions a list of effects asks for: one per step of each effect that asks any,
    plus the longest of its options (the engine resolves each effect of a picked option once),
    plus ``borrowed``, the most a skill applied by ``use_skill`` asks."""
    total = 0
    for effect in effects:
        asks = effect.most_choices(players=players, planets=planets, crews=crews) != 0
        total += effect.steps * asks + max(
            (_most_decisions(option, players, planets, crews, borrowed) for option in effect.branches), default=0
        )
        if isinstance(effect, UseSkill):
            total += borrowed
    return total


def borrowable_cards(ruleset: Ruleset) -> frozenset[int]:
    """The crew cards whose skill ``use_skill`` may apply (S10): not always in play, with a
    skill, and applying no other crew's skill themselves, so that a program always ends (a
    skill applied never applies a third) and its bounds are those of one skill."""
    return frozenset(
        index
        for index, card in enumerate(ruleset.crew)
        if not card.always_in_play and card.skill and not any(_uses_skill(effect) for effect in card.skill)
    )


def _uses_skill(effect: Effect) -> bool:
    return isinstance(effect, UseSkill) or any(_uses_skill(inner) for nested in effect.branches for inner in nested)


def borrowed_bounds(
    skills: Mapping[int, tuple[Effect, ...]], borrowable: frozenset[int], limits: Limits, own: Limits
) -> tuple[int | None, int | None, int | None]:
    """What one ``use_skill`` step may do: the most VP, and the least and most survey change
    (read against the applying crew's printed count, ``own``), of the best skill it may apply,
    each resolving all its steps; None where an effect cannot say. ``skills`` maps each crew
    card to every effect of its skill (branches included)."""
    vp = [_total(skills[card], lambda e: e.most_vp(limits), positive=True) for card in borrowable]
    most = [_total(skills[card], lambda e: e.survey_bonus_range(own)[1], positive=True) for card in borrowable]
    least = [_total(skills[card], lambda e: e.survey_bonus_range(own)[0], positive=False) for card in borrowable]
    return (
        None if None in vp else max(vp, default=0),  # type: ignore[type-var]
        None if None in least else min(least, default=0),  # type: ignore[type-var]
        None if None in most else max(most, default=0),  # type: ignore[type-var]
    )


def use_skill_bounds(ruleset: Ruleset, card: int) -> tuple[int | None, int | None, int | None]:
    """``borrowed_bounds`` of a ``use_skill`` in crew card ``card``'s skill, from the ruleset
    alone (what ``kernel.native`` sends the kernel for its node)."""
    always = sum(1 for crew in ruleset.crew if crew.always_in_play)
    limits = limits_of(ruleset, always)
    skills = {index: tuple(_skill_effects(crew.skill)) for index, crew in enumerate(ruleset.crew)}
    own = crew_limits(limits, ruleset.crew[card].survey_count)
    return borrowed_bounds(skills, borrowable_cards(ruleset), limits, own)


def _skill_effects(skill: Iterable[Effect]) -> Iterable[Effect]:
    """Every effect of a skill and of its branches (``choose_one``'s options, ``if``'s), as
    ``Game`` lists a skill's effects for ``StateBounds.of``; bodies are their effect's own."""
    for effect in skill:
        yield effect
        for option in effect.branches:
            yield from _skill_effects(option)


class _StepBounds:
    """What one step of each effect of one crew's skill may do, ``use_skill``'s being
    ``borrowed_bounds`` (the same numbers cross into the kernel, ``kernel.native``)."""

    def __init__(self, skills: Mapping[int, tuple[Effect, ...]], borrowable: frozenset[int], limits: Limits, own: Limits) -> None:
        self.skills, self.borrowable, self.limits, self.own = skills, borrowable, limits, own

    @functools.cached_property
    def borrowed(self) -> tuple[int | None, int | None, int | None]:
        return borrowed_bounds(self.skills, self.borrowable, self.limits, self.own)

    def most_vp(self, effect: Effect) -> int | None:
        return self.borrowed[0] if isinstance(effect, UseSkill) else effect.most_vp(self.limits)

    def least_survey_bonus(self, effect: Effect) -> int | None:
        return self.borrowed[1] if isinstance(effect, UseSkill) else effect.survey_bonus_range(self.own)[0]

    def most_survey_bonus(self, effect: Effect) -> int | None:
        return self.borrowed[2] if isinstance(effect, UseSkill) else effect.survey_bonus_range(self.own)[1]


def limits_of(ruleset: Ruleset, always: int) -> Limits:
    """The ruleset's numbers the rules language's amounts are bounded by (``expressions.Limits``)."""
    counts = [card.survey_count for card in ruleset.crew]
    return Limits(
        players=max(ruleset.player_counts),
        least_players=min(ruleset.player_counts),
        planets=max(counts.planets for counts in ruleset.setups.values()),
        crews=max(counts.crew for counts in ruleset.setups.values()) + always,
        cubes_per_player=most_owned(ruleset),
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
