"""Scoring (R15-R18): planet majority, the major-planet bonus, and the winners.

``score_sheet`` works on any state: mid-game it scores the board as it stands, which is what
front ends show as the provisional score and what bots use as a heuristic.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import attrs

from stargazer_rules.vocabulary.abilities import EVERY_COLOUR, NO_COLOUR, NOBODY, PlanetRules
from stargazer_rules.vocabulary.bonus import DISTINCT_COLOUR_SETS, R17, Bonus
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.expressions import SEATS, Scope, amount_value
from stargazer_rules.vocabulary.majority import R15_R16, Majority, rank_order
from stargazer_rules.vocabulary.table import Table

if TYPE_CHECKING:
    from collections.abc import Sequence

    from stargazer_rules.rulesets.model import PlanetCard, Ruleset
    from stargazer_rules.vocabulary.table import Rules, State


@attrs.frozen
class Standing:
    """One owner's place on one Planet (R15, R16).

    ``owner`` is a seat, or -1 for the virtual player (free cubes). ``first_square`` is the
    square of its lowest-numbered cube (the tie-break), ``row`` the square whose value it
    scores (None when the rank falls off the track), ``vp`` that value.
    """

    owner: int
    cubes: int
    first_square: int
    rank: int
    row: int | None
    vp: int


@attrs.frozen
class PlanetResult:
    """The majority ranking of one Planet: ``top_square`` is k of R16 (0 when no cube)."""

    planet: str
    colour: str
    top_square: int
    full: bool
    standings: tuple[Standing, ...]
    #: True when first place reads an accident row (printed VP 0, R1): what it scores is the
    #: ruleset's ``majority.accident_vp``, so the row's value says it, not the VP.
    accident: bool = False


@attrs.frozen
class SeatScore:
    """One seat's sheet: majority VP, the major-planet bonus (R17), VP from play, the ruleset's
    lines of their own (rules.yaml ``end_scoring``), total (R18).

    ``colour_counts`` are the seat's cubes per colour on the squares the ruleset's bonus counts
    (normal and special together in R17); ``bonus_vp`` what its formula scores;
    ``bonus_colours`` the colours that share the largest count, ``bonus_count`` that count.
    ``lines``: (line id, VP) for each line of ``end_scoring``, in file order (``line_vp``).
    """

    seat: int
    majority_vp: int
    bonus_vp: int
    bonus_count: int
    bonus_colours: tuple[str, ...]
    colour_counts: tuple[tuple[str, int], ...]
    play_vp: int
    total: int
    hand: int
    lines: tuple[tuple[str, int], ...] = ()

    @property
    def lines_vp(self) -> int:
        """The VP of all its lines of their own together."""
        return sum(vp for _, vp in self.lines)


@attrs.frozen
class ScoreSheet:
    """The whole sheet. ``final`` is True when the game is over; ``winners`` share the win (R18)."""

    planets: tuple[PlanetResult, ...]
    seats: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    final: bool

    def majority_of(self, seat: int) -> tuple[tuple[str, Standing], ...]:
        """The seat's line of the sheet: each Planet it has cubes on, with its rank, row and VP."""
        return tuple(
            (result.planet, standing)
            for result in self.planets
            for standing in result.standings
            if standing.owner == seat
        )

    def standing(self, seat: int, planet: str) -> Standing | None:
        for result in self.planets:
            if result.planet == planet:
                for standing in result.standings:
                    if standing.owner == seat:
                        return standing
        return None


def rank_planet(track: tuple[int, ...], values: tuple[int, ...], majority: Majority = R15_R16) -> tuple[Standing, ...]:
    """R15 ranking and R16 VP for one Planet's track (owners of squares 1, 2, ...), read by the
    ruleset's ``majority``."""
    ranked, counts, first = rank_order(track, majority)
    top = len(track)
    standings = []
    for owner, rank in ranked:
        row = majority.row(top, rank)
        vp = majority.vp(None if row is None else values[row - 1], rank)
        standings.append(Standing(owner, counts[owner], first[owner], rank, row, vp))
    return tuple(standings)


def first_reads_accident(standings: tuple[Standing, ...], values: tuple[int, ...]) -> bool:
    """True when the first standing reads a row of printed VP 0 (an accident, R1)."""
    return bool(standings) and standings[0].row is not None and values[standings[0].row - 1] == 0  # type: ignore[operator]


def major_planet_bonus(
    counts: Counter[str], bonus: Bonus = R17, several: Counter[tuple[str, ...]] | None = None
) -> tuple[int, int, tuple[str, ...]]:
    """R17: (bonus, largest count m, colours with m), the bonus by the ruleset's formula. With
    three cubes in each of four colours R17 gives 12. ``several``: the cubes in ``counts`` that
    count toward several colours, by those colours (``Bonus.vp``)."""
    most = max(counts.values(), default=0)
    if most == 0:
        return 0, 0, ()
    colours = tuple(sorted(colour for colour, count in counts.items() if count == most))
    if not several:
        return bonus.vp(counts.values()), most, colours
    order = sorted(counts)
    groups = [([order.index(colour) for colour in toward], cubes) for toward, cubes in several.items()]
    return bonus.vp([counts[colour] for colour in order], groups), most, colours


def winners(totals: tuple[int, ...], hands: tuple[int, ...]) -> tuple[int, ...]:
    """R18: highest total, then most cubes in hand; the rest share the win."""
    best = max(zip(totals, hands))
    return tuple(seat for seat, key in enumerate(zip(totals, hands)) if key == best)


def scored_values(card: PlanetCard) -> tuple[int, ...]:
    """The VP its majority scores by row (R16): the track's values, times a lasting
    ``majority_factor`` (P2)."""
    factor = PlanetRules.of(card.abilities).majority_factor
    return tuple(value * factor for value in card.track) if factor != 1 else card.track


def counted_colours(card: PlanetCard, colours: Sequence[str]) -> tuple[str, ...]:
    """The colours its cubes count toward for the major-planet bonus (R17): its own, or by a
    lasting ``counts_toward`` every colour of the ruleset (P1), none, or the colours it names
    (in the ruleset's colour order)."""
    toward = PlanetRules.of(card.abilities).counts_toward
    if toward is None:
        return (card.colour,)
    if toward == EVERY_COLOUR:
        return tuple(colours)
    if toward == NO_COLOUR:
        return ()
    named = (toward,) if isinstance(toward, str) else toward
    return tuple(colour for colour in colours if colour in named)


def line_vp(game: Rules, state: State) -> tuple[tuple[int, ...], ...]:
    """Each seat's VP of each line of the ruleset's ``end_scoring`` (docs/rules.md, "End-of-game
    scoring lines"): its amount read from the position with this_seat bound to the seat and
    nobody as "you", as it stands (below 0 when the amount is); () per seat when there is none."""
    lines = game.ruleset.end_scoring
    if not lines:
        return ((),) * state.players
    nobody = Scope(Table(game, state, None), NOBODY, -1)
    return tuple(tuple(amount_value(line.vp, nobody.bind(SEATS, seat)) for line in lines) for seat in range(state.players))


def score_sheet(game: Rules, state: State) -> ScoreSheet:
    rules = game.ruleset
    planets = []
    majority = [0] * state.players
    colour_counts: list[Counter[str]] = [Counter() for _ in range(state.players)]
    several: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(state.players)]
    tables = game.totals_tables
    for p, card_index in enumerate(state.planets):
        card = rules.planets[card_index]
        track = state.tracks[p]
        values = tables.track_values[card_index]
        standings = rank_planet(track, values, rules.majority)
        accident = first_reads_accident(standings, values)
        planets.append(PlanetResult(card.id, card.colour, len(track), len(track) == card.length, standings, accident))
        for standing in standings:
            if standing.owner != FREE_CUBE_OWNER:
                majority[standing.owner] += standing.vp
        toward = tables.counted_colours[card_index]
        counted = (track if rules.bonus.counts_normal else ()) + (state.specials[p] if rules.bonus.counts_special else ())
        for owner in counted:
            if owner != FREE_CUBE_OWNER:
                for colour in toward:
                    colour_counts[owner][colour] += 1
                if len(toward) > 1:
                    several[owner][toward] += 1
    seats = []
    ids = tuple(line.id for line in rules.end_scoring)
    lines = line_vp(game, state)
    for seat in range(state.players):
        bonus, most, colours = major_planet_bonus(colour_counts[seat], rules.bonus, several[seat])
        total = majority[seat] + bonus + state.vp[seat] + sum(lines[seat])
        seats.append(
            SeatScore(
                seat=seat,
                majority_vp=majority[seat],
                bonus_vp=bonus,
                bonus_count=most,
                bonus_colours=colours,
                colour_counts=tuple(sorted(colour_counts[seat].items())),
                play_vp=state.vp[seat],
                total=total,
                hand=state.hands[seat],
                lines=tuple(zip(ids, lines[seat])),
            )
        )
    totals = tuple(seat.total for seat in seats)
    return ScoreSheet(tuple(planets), tuple(seats), winners(totals, state.hands), state.stage == "over")


# -- the fast path: totals only, for bots ---------------------------------------------------

_PLANET_CACHE_LIMIT = 200_000


@attrs.frozen
class TotalsTables:
    """What ``provisional_totals`` reads of a ruleset, built once with its ``Game``.

    ``track_values`` (``scored_values``), ``counted_colours`` (the colour ids it counts toward,
    for score sheets) and ``colour_index`` (the same colours numbered in sorted id order,
    ``colour_count`` of them: the ruleset's) per planet card, ``bonus_is_r17`` (whether the
    totals score R17 inline), ``sets_of_several`` (whether a set holds a cube of several
    colours once: ``distinct_colour_sets`` with a Planet counting toward several), and ``planet_parts``, each Planet's part of the totals by
    (card, track, special square): bots score hundreds of thousands of states that share most
    of their Planets, so each Planet's ranking is computed once and then looked up (the memo
    is emptied past ``_PLANET_CACHE_LIMIT`` entries).
    """

    track_values: tuple[tuple[int, ...], ...]
    counted_colours: tuple[tuple[str, ...], ...]
    colour_index: tuple[tuple[int, ...], ...]
    colour_count: int
    bonus_is_r17: bool
    sets_of_several: bool
    planet_parts: dict = attrs.field(factory=dict, eq=False, repr=False)

    @classmethod
    def of(cls, ruleset: Ruleset) -> TotalsTables:
        planets = ruleset.planets
        colour_ids = sorted({colour.id for colour in ruleset.colours} | {card.colour for card in planets})
        counted = tuple(counted_colours(card, [colour.id for colour in ruleset.colours]) for card in planets)
        return cls(
            tuple(tuple(scored_values(card)) for card in planets),
            counted,
            tuple(tuple(colour_ids.index(c) for c in counted_colours(card, colour_ids)) for card in planets),
            len(colour_ids),
            ruleset.bonus == R17,
            ruleset.bonus.formula == DISTINCT_COLOUR_SETS and any(len(colours) > 1 for colours in counted),
        )


def _planet_part(
    values: tuple[int, ...], track: tuple[int, ...], special: tuple[int, ...], majority: Majority, bonus: Bonus = R17
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """One Planet's part of the totals: ((seat, majority VP), ...) by R15/R16 for the seats that
    score, and ((seat, cubes), ...) for the seats' cubes of its colour (on the squares the
    bonus counts: normal and special in R17). Free cubes rank as the virtual player and are
    then dropped. R15/R16 with R17's squares is ranked inline (the bots' hot path); any other
    ``majority`` or squares by ``rank_planet``."""
    if majority != R15_R16 or bonus.squares != R17.squares:
        standings = rank_planet(track, values, majority)
        scored = tuple((s.owner, s.vp) for s in standings if s.owner != FREE_CUBE_OWNER and s.vp)
        owned = Counter((track if bonus.counts_normal else ()) + (special if bonus.counts_special else ()))
        return scored, tuple((owner, count) for owner, count in owned.items() if owner != FREE_CUBE_OWNER)
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for square, owner in enumerate(track, start=1):
        if owner in counts:
            counts[owner] += 1
        else:
            counts[owner] = 1
            first[owner] = square
    order = sorted(counts, key=lambda owner: (-counts[owner], -first[owner]))
    top = len(track)
    majority = tuple(
        (owner, values[top - rank - 1])
        for rank, owner in enumerate(order)
        if owner != FREE_CUBE_OWNER and rank < top and values[top - rank - 1]
    )
    for owner in special:
        counts[owner] = counts.get(owner, 0) + 1
    cubes = tuple((owner, count) for owner, count in counts.items() if owner != FREE_CUBE_OWNER)
    return majority, cubes


def provisional_totals(game: Rules, state: State) -> tuple[int, ...]:
    """Each seat's total (R18: majority VP + major-planet bonus + VP from play + the lines of
    ``end_scoring``), as ``score`` gives.
    R17 is scored inline (the bots' hot path), any other bonus by ``Bonus.vp``.

    The same numbers as ``tuple(seat.total for seat in game.score(state).seats)``, without
    building a score sheet: the bots' evaluation, called on every state they look at.
    """
    tables = game.totals_tables
    values, colours, colour_count, cache = tables.track_values, tables.colour_index, tables.colour_count, tables.planet_parts
    players = state.players
    bonus = game.ruleset.bonus
    totals = list(state.vp)
    counts = [0] * (players * colour_count)
    # Cubes of several colours, listed apart only where a set holds them once (the bots' hot path skips it).
    several: list[list[tuple[tuple[int, ...], int]]] | None = [[] for _ in range(players)] if tables.sets_of_several else None
    for card, track, special in zip(state.planets, state.tracks, state.specials):
        if track or special:
            key = (card, track, special)
            part = cache.get(key)
            if part is None:
                if len(cache) > _PLANET_CACHE_LIMIT:
                    cache.clear()
                part = cache[key] = _planet_part(values[card], track, special, game.ruleset.majority, bonus)
            majority, cubes = part
            for seat, vp in majority:
                totals[seat] += vp
            for colour in colours[card]:
                for seat, count in cubes:
                    counts[seat * colour_count + colour] += count
            if several is not None and len(colours[card]) > 1:
                for seat, count in cubes:
                    several[seat].append((colours[card], count))
    r17 = tables.bonus_is_r17
    for seat in range(players):
        row = counts[seat * colour_count : (seat + 1) * colour_count]
        if not r17:
            totals[seat] += bonus.vp(row, several[seat] if several is not None else ())
            continue
        most = max(row)
        if most:
            totals[seat] += most * row.count(most)
    if game.ruleset.end_scoring:
        for seat, vp in enumerate(line_vp(game, state)):
            totals[seat] += sum(vp)
    return tuple(totals)
