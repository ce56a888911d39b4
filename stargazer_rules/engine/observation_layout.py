"""The observation's layout: its fields, their order and lengths, derived from the ruleset once.

An observation (``fast.observation``, the oracle, and the kernel's ``observation.rs``) is the
whole state seen from a seat as a fixed-size vector of floats. Its layout is derived here only
(``Game.observation_layout``) and crosses into the kernel in the compiled ruleset
(``kernel.compiled``): the kernel fills the fields it receives, by name, and derives none.

A block for a lasting effect of the rules language (a crew closed, cubes protected, a skill
borrowed, a skip limit, the counter-clockwise and ``survey_start`` survey flags) is sized by
what the ruleset's programs can do: it is left out of the layout when no effect of a crew's
skill, a crew's trigger or a Planet's trigger, nested ones included, can set it, so a ruleset
without the language (draft 7, base) observes exactly the fields it did before it (565 floats
for draft 7).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import attrs

from stargazer_rules.engine.bounds import StateBounds, every_effect
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary.abilities import Trigger
from stargazer_rules.vocabulary.effects import COUNTER, DIRECTION, REPEAT, SKIP, START, CloseCrew, Effect, MaySkipPlanets, ProtectCubes, UseSkill

#: The stages of play in the kernel's ``Stage`` order: the ``stage`` field's one-hot order.
STAGES = ("pick_crew", "before_survey", "survey", "after_survey", "round_end", "over")
#: The survey rule flags of the ``survey_rules`` field, in its order (a state may hold each).
SURVEY_RULES = ((REPEAT, "repeat_planet"), (SKIP, "skip_planets"), (DIRECTION, "choose_direction"))
#: The survey rule flags the rules language added, each a field of its own (left out when no
#: effect of the ruleset sets it): its flag and field name.
LANGUAGE_SURVEY_FIELDS = ((COUNTER, "survey_counter_clockwise"), (START, "survey_start"))
#: Every survey rule flag and its name, for ``observation_text``.
ALL_SURVEY_RULES = SURVEY_RULES + ((COUNTER, "counter_clockwise"), (START, "survey_start"))


class ObservationField(NamedTuple):
    """One field of the observation: its name, first entry and number of entries."""

    name: str
    offset: int
    length: int


@attrs.frozen
class ObservationLayout:
    """The fields of an observation, in vector order, from the table's largest sizes: ``seats``
    (N), ``planets`` (P), ``crews`` (C), ``squares`` (T, the longest track), ``planet_cards``
    and ``crew_cards`` (the ruleset's cards), and ``optional_blocks``, the names of the language's
    optional blocks some effect of the ruleset can set (``blocks_set``; the others are left out)."""

    seats: int
    planets: int
    crews: int
    squares: int
    planet_cards: int
    crew_cards: int
    optional_blocks: frozenset[str]
    fields: tuple[ObservationField, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        n, p, c, owners = self.seats, self.planets, self.crews, self.seats + 1

        def optional(name: str, length: int) -> tuple[str, int] | None:
            return (name, length) if name in self.optional_blocks else None

        lengths = (
            ("seats", n),  # 1 for each relative seat at the table
            ("to_move", n),  # one-hot relative seat of the player to move; 0s when over
            ("start_player", n),  # one-hot relative seat
            ("stage", len(STAGES)),  # one-hot, STAGES order
            ("round", 1),
            ("turn", 1),  # turns taken this round
            ("stock", 1),  # free cubes in the stock (R13)
            ("hands", n),  # cubes in hand, per relative seat
            ("vp", n),  # VP scored during play
            ("removed", n),  # own cubes removed by motivation bonuses (R6)
            ("planet_card", p * self.planet_cards),  # per ring position, one-hot planet card
            ("track", p * self.squares * owners),  # per position, square, one-hot owner (N: free cube)
            ("special", p * owners),  # per position, cubes of each owner on the special square (R3)
            ("surveyed", p),  # Planets surveyed this turn
            ("crew_card", c * self.crew_cards),  # per crew slot, one-hot crew card
            ("crew_free", c),  # free cubes on each crew (R11)
            ("crew_cubes", c * n),  # player cubes on each crew by relative owner (R6)
            ("worker", c * n),  # one-hot relative seat of the worker on each crew
            ("survey_rules", len(SURVEY_RULES)),  # this turn's survey rule flags
            optional("survey_counter_clockwise", 1),  # this turn's survey walks counter-clockwise (set_survey_direction)
            optional("survey_start", 1),  # this turn's survey_start is in force
            ("survey_bonus", 1),  # this turn's change of the survey count (R7)
            ("survey_placed", 1),  # cubes placed this survey
            ("survey_last", p),  # one-hot Planet that got the last cube
            ("survey_direction", 1),  # +1 clockwise, -1 counter-clockwise, 0 not yet
            optional("survey_skips", 1),  # Planets it may still pass over under a skip limit, -1 none
            optional("setup", 1),  # 1 before the first round, while setup steps resolve (stage all 0s)
            ("pending", 1),  # effects left to resolve this turn
            ("pending_slot", c),  # one-hot crew slot of the effect that resolves next
            ("pending_remaining", 1),  # its steps left
            # lasting effects of skills
            optional("crew_closed", c),  # crews closed until the round ends (close_crew)
            optional("protected", n),  # per relative seat, 1 until the turn ends, 2 the round (protect_cubes)
            optional("crew_borrowed", c * self.crew_cards),  # per crew slot, one-hot card whose skill it applies (use_skill)
        )
        fields, offset = [], 0
        for name, length in filter(None, lengths):
            fields.append(ObservationField(name, offset, length))
            offset += length
        object.__setattr__(self, "fields", tuple(fields))

    @classmethod
    def of(cls, ruleset: Ruleset, bounds: StateBounds) -> ObservationLayout:
        return cls(
            seats=bounds.most_players,
            planets=bounds.most_planets,
            crews=bounds.most_crew,
            squares=max((card.length for card in ruleset.planets), default=0),
            planet_cards=len(ruleset.planets),
            crew_cards=len(ruleset.crew),
            optional_blocks=blocks_set(ruleset),
        )

    @property
    def size(self) -> int:
        last = self.fields[-1]
        return last.offset + last.length

    def offsets(self) -> dict[str, int]:
        return {field.name: field.offset for field in self.fields}



def blocks_set(ruleset: Ruleset) -> frozenset[str]:
    """The optional blocks some effect of the ruleset can set: ``survey_counter_clockwise``
    (``set_survey_direction`` counter-clockwise), ``survey_start`` (``survey_start``),
    ``survey_skips`` (``may_skip_planets`` with ``at_most``), ``crew_closed`` (``close_crew``),
    ``protected`` (``protect_cubes``), ``crew_borrowed`` (``use_skill``)."""
    sets: set[str] = {"setup"} if ruleset.setup_steps else set()
    for effect in _programs(ruleset):
        flags = getattr(effect, "survey_flags", 0)
        if flags & COUNTER:
            sets.add("survey_counter_clockwise")
        if flags & START:
            sets.add("survey_start")
        if isinstance(effect, MaySkipPlanets) and effect.at_most is not None:
            sets.add("survey_skips")
        if isinstance(effect, CloseCrew):
            sets.add("crew_closed")
        if isinstance(effect, ProtectCubes):
            sets.add("protected")
        if isinstance(effect, UseSkill):
            sets.add("crew_borrowed")
    return frozenset(sets)


def _programs(ruleset: Ruleset) -> Iterator[Effect]:
    """Every effect of the ruleset's crew skills, crew triggers, Planet triggers, round-end
    effects and setup steps, nested ones included: a ``close_crew`` at a round's end holds
    while that round's end asks its decisions, so the state then shows it."""
    yield from every_effect(ruleset.round_end_effects)
    yield from every_effect(ruleset.setup_steps)
    for crew in ruleset.crew:
        yield from every_effect(crew.skill)
        for trigger in crew.triggers:
            yield from every_effect(trigger.do)
    for planet in ruleset.planets:
        for ability in planet.abilities:
            if isinstance(ability, Trigger):
                yield from every_effect(ability.do)
