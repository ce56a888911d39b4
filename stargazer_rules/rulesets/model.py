"""The loaded ruleset: immutable values that the engine reads and never changes.

A ``Ruleset`` is what ``load_ruleset`` returns after the YAML files of a ruleset folder have
passed their schemas and the cross-file checks. Every knob of RULES.md lives here as a value.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from stargazer_rules.rulesets.printable import printable
from stargazer_rules.vocabulary.abilities import Ability, Trigger
from stargazer_rules.vocabulary.bonus import R17, Bonus
from stargazer_rules.vocabulary.effects import Effect
from stargazer_rules.vocabulary.expressions import CONDITION, Amount, ConditionNode, Parser
from stargazer_rules.vocabulary.majority import R15_R16, Majority
from stargazer_rules.vocabulary.table import ROUND_LIMIT


@attrs.frozen
class Name:
    """A name in the two languages the game is shown in."""

    ja: str
    en: str

    def in_lang(self, lang: str) -> str:
        """The name as shown in ``lang``: a character no name may hold (a control character, a
        direction override) is written as its escape, so printing it never drives a terminal."""
        return printable(self.ja if lang == "ja" else self.en)


@attrs.frozen
class Colour:
    """A planet colour; the major-planet bonus (R17) counts cubes per colour."""

    id: str
    name: Name


@attrs.frozen
class PlanetCard:
    """A planet card (R1): ``track[n - 1]`` is the VP value of normal square n; 0 is an accident.

    ``special_capacity`` is how many cubes its special square "0" holds (R3). ``placeholder``
    marks values reconstructed for the designer to overwrite (R20). ``abilities``: its
    triggers and lasting effects (``vocabulary.abilities``, docs/skills.md "Planet abilities").
    """

    id: str
    name: Name
    colour: str
    track: tuple[int, ...]
    special_capacity: int = 1
    placeholder: bool = False
    abilities: tuple[Ability, ...] = ()

    @property
    def length(self) -> int:
        return len(self.track)


@attrs.frozen
class CrewCard:
    """A crew card: its survey count (R7) and its skill, a tuple of effect objects (R9).

    ``always_in_play`` crew are laid out at every setup rather than dealt (R19);
    ``placeholder`` marks a reconstructed card (R20). ``triggers``: what it sets off while a
    player holds it (``vocabulary.abilities.CrewRules``, docs/skills.md "Crew triggers").
    """

    id: str
    name: Name
    survey_count: int
    skill: tuple[Effect, ...]
    always_in_play: bool = False
    placeholder: bool = False
    triggers: tuple[Trigger, ...] = ()


@attrs.frozen
class PlayerCountSetup:
    """The setup counts for one supported player count (R14) and its end condition (R10)."""

    players: int
    planets: int
    crew: int
    full_planets_to_end: int


#: ``round_end.unpicked_crews.at_cap``: the crew stays (draft 7) or is replaced (R11).
AT_CAP_STAYS = "stays"
AT_CAP_REPLACED = "replaced"


@attrs.frozen
class UnpickedCrews:
    """What each crew nobody picked receives at a round's end when the game goes on (R11;
    rules.yaml ``round_end.unpicked_crews``).

    ``free_cubes`` is an amount of the rules language, read with ``this_crew`` bound to the crew
    and nobody as "you"; the crew receives max(0, that many) free cubes from the stock, at most
    what the stock holds and what ``cap`` leaves (the most free cubes a crew holds; None: no
    cap). Crews are served in crew-area order, each amount read just before its crew receives.

    ``at_cap`` is what happens to such a crew holding the cap's number of free cubes once every
    crew has received: ``stays`` (draft 7: the cubes stop) or ``replaced`` (it leaves the crew
    area and the first crew card of the queue not dealt takes its slot; docs/rules.md, R11).
    ``replaced`` needs a cap.
    """

    free_cubes: Amount
    cap: int | None
    at_cap: str = AT_CAP_STAYS

    @property
    def replaced(self) -> bool:
        """Whether a crew at the cap leaves the crew area (``at_cap: replaced``, R11)."""
        return self.at_cap == AT_CAP_REPLACED


@attrs.frozen
class EndTrigger:
    """One condition of the game's end (R10; rules.yaml ``end``): ``id`` names it in the log's
    ``game_over``, the state and the score sheet; ``condition`` is a condition of the rules
    language, read at the end of each round with nobody as "you"."""

    id: str
    condition: ConditionNode


@attrs.frozen
class ScoringLine:
    """One line of its own on the score sheet (rules.yaml ``end_scoring``; docs/rules.md,
    "End-of-game scoring lines"): ``id`` names it in the score sheet's JSON, ``name`` on the
    sheet, and ``vp`` is an amount of the rules language read for each seat with this_seat
    bound to it and nobody as "you". Scored from the position like the majority (R16) and the
    bonus (R17), mid-game as at the end, never added to the VP of play; below 0 when the amount
    is (a penalty). R18's total adds it."""

    id: str
    name: Name
    vp: Amount


#: Draft 7's end of the game (R10), what a rules.yaml without an ``end`` section plays: a player
#: has no cubes left, or the full Planets reach the player count's ``full_planets_to_end``.
DRAFT7_END_DATA: Mapping[str, object] = {
    "hand_empty": {"at_least": [{"seats": {"where": {"equal": [{"hand": "this_seat"}, 0]}}}, 1]},
    "planets_full": {"at_least": [{"planets": "full"}, "full_planets_to_end"]},
}


def _draft7_end() -> tuple[EndTrigger, ...]:
    parser = Parser(())
    triggers = tuple(EndTrigger(name, parser.parse(CONDITION, data, ("end", name))) for name, data in DRAFT7_END_DATA.items())
    assert not parser.problems, parser.problems
    return triggers


DRAFT7_END = _draft7_end()


@attrs.frozen
class Ruleset:
    """A complete, validated ruleset.

    ``planets`` and ``crew`` are every card of the game, in file order; ``setups`` maps each
    supported player count to its counts. ``max_rounds`` ends the game at the end of that
    round at the latest (docs/rules.md, "Round limit"). ``turn_order_vp[i]`` is the VP the
    player at turn position i (0: the start player) starts with, at least one value per seat
    of the largest player count (docs/rules.md, "Turn-order VP"). ``majority``: how a Planet's
    majority ranks and reads its rows (R15, R16; docs/rules.md, "The majority as data").
    ``bonus``: which cubes the major-planet bonus counts and what it scores (R17; docs/rules.md,
    "The major-planet bonus as data").
    ``unpicked_crews`` is what a crew nobody picked receives at a round's end (R11, rules.yaml
    ``round_end``); its cap, or every free cube, is ``max_free_cubes_per_crew``.
    ``round_end_effects`` are effects of the rules language performed at every round's end, the
    last included, after the Planets' and the held crews' ``round_end`` triggers and before the
    end check (R10), nobody being "you" (rules.yaml ``round_end.effects``; idea R7; none when
    left out). ``setup_steps`` are the effects each player performs before the first round, in
    turn order from the start player, as "you" (rules.yaml ``setup.each_player``; empty: none).
    ``end``: the conditions that end the game at a round's end (R10, rules.yaml ``end``), in
    file order; the round limit's ``round_limit`` comes after them (``trigger_names``).
    ``end_scoring``: the score sheet's lines of their own, in file order (rules.yaml
    ``end_scoring``; none when left out), each added to R18's total.
    ``fingerprint`` is a hash of the canonical content, carried by game records so that a record
    is never replayed under
    other rules.
    """

    name: str
    title: Name
    colours: tuple[Colour, ...]
    planets: tuple[PlanetCard, ...]
    crew: tuple[CrewCard, ...]
    setups: Mapping[int, PlayerCountSetup]
    cubes_per_player: int
    free_cubes: int
    unpicked_crews: UnpickedCrews
    free_cube_vp: int
    player_cube_vp: int
    survey_minimum: int
    max_rounds: int
    turn_order_vp: tuple[int, ...]
    fingerprint: str = attrs.field(eq=False)
    source: str = attrs.field(default="", eq=False)
    majority: Majority = R15_R16
    round_end_effects: tuple[Effect, ...] = ()
    bonus: Bonus = R17
    setup_steps: tuple[Effect, ...] = ()
    end: tuple[EndTrigger, ...] = DRAFT7_END
    end_scoring: tuple[ScoringLine, ...] = ()

    @property
    def trigger_names(self) -> tuple[str, ...]:
        """Why a game of the ruleset may end, in the order the log names them: each ``end``
        condition's id, then the round limit's ``round_limit`` (docs/rules.md, R10)."""
        return (*(trigger.id for trigger in self.end), ROUND_LIMIT)

    def end_trigger(self, trigger_id: str) -> EndTrigger | None:
        """The end condition of that id, or None (the round limit, or no such id)."""
        return next((trigger for trigger in self.end if trigger.id == trigger_id), None)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.setups))

    @property
    def max_free_cubes_per_crew(self) -> int:
        """The most free cubes one crew holds (R11): the cap, or every free cube when there is
        none. A skill's free cubes stop at it too (``add_free_cubes``)."""
        cap = self.unpicked_crews.cap
        return self.free_cubes if cap is None else cap

    @property
    def starting_vp_by_position(self) -> tuple[int, ...]:
        """The ``turn_order_vp`` values a game can use: one per seat of the largest table."""
        return self.turn_order_vp[: max(self.player_counts)]

    def starting_vp(self, players: int, start_player: int) -> tuple[int, ...]:
        """Each seat's VP at setup: the ``turn_order_vp`` of its turn position, counted
        clockwise from ``start_player`` (R4)."""
        return tuple(self.turn_order_vp[(seat - start_player) % players] for seat in range(players))

    def planet(self, planet_id: str) -> PlanetCard:
        for card in self.planets:
            if card.id == planet_id:
                return card
        raise KeyError(planet_id)

    def crew_card(self, crew_id: str) -> CrewCard:
        for card in self.crew:
            if card.id == crew_id:
                return card
        raise KeyError(crew_id)

    def colour(self, colour_id: str) -> Colour:
        for colour in self.colours:
            if colour.id == colour_id:
                return colour
        raise KeyError(colour_id)
