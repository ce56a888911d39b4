"""The tables of text every front end draws, built once: a ruleset's tables and a score sheet.

Each builder returns a ``TextTable``, cells already worded in one language; the drawers only lay
them out: the terminal (``reports.format_table``: ``stargazer rules``, ``play-random``, the play
screen's score sheet), the printed rules sheet (``printing.sheet``) and the browser page (the
server sends ``TextTable.to_json``). So ``stargazer rules`` and the sheet show the same numbers,
and the page the same score sheet as the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.engine.scoring import ScoreSheet, SeatScore, Standing
from stargazer_rules.rulesets.model import PlanetCard, Ruleset, ScoringLine
from stargazer_rules.text.catalogue import sentences
from stargazer_rules.text.language import Reading, amount_phrase, either_of
from stargazer_rules.text.messages import ability_sentences, colour_name, describe_effect, join, label, planet_name, player_name, skill_sentences, trigger_name
from stargazer_rules.vocabulary.bonus import DISTINCT_COLOUR_SETS, VP_BY_COUNT, complete_sets
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.expressions import CREWS

if TYPE_CHECKING:
    from stargazer_rules.engine.game import Game

#: Shown after the id of a card whose values are a reconstruction (R20), with a footnote.
PLACEHOLDER_MARK = "*"


@attrs.frozen
class TextTable:
    """Rows of text cells under ``headers`` (None for rows of label and value), the indices of
    the columns that hold numbers (``right``: right-aligned) and of the rows that are totals
    (``totals``: drawn strong where the drawer can). A cell may hold several lines (``\\n``)."""

    rows: tuple[tuple[str, ...], ...]
    headers: tuple[str, ...] | None = None
    right: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The table as the API sends it: ``headers`` (or null), ``rows`` and ``totals``."""
        return {
            "headers": None if self.headers is None else list(self.headers),
            "rows": [list(row) for row in self.rows],
            "totals": list(self.totals),
        }


def _labels(lang: str, *keys: str) -> list[str]:
    return [label(key, lang) for key in keys]


def _table(rows: Sequence[Sequence[str]], headers: Sequence[str] | None = None, **more: Any) -> TextTable:
    return TextTable(
        tuple(tuple(row) for row in rows), None if headers is None else tuple(headers), **more
    )


# -- a ruleset ------------------------------------------------------------------------------


def counts_table(ruleset: Ruleset, lang: str) -> TextTable:
    """The ruleset's numbers as label and value: cubes, starting VP by turn order (only when
    some seat starts with VP), free cubes, the crew cap, the motivation bonus (R6), the survey
    minimum, the round limit (R10) and the cards."""
    starting = ruleset.starting_vp_by_position
    shown_starting = [[label("count_turn_order_vp", lang), turn_order_vp_text(ruleset, lang)]] if any(starting) else []
    if ruleset.setup_steps:  # rules.yaml setup.each_player, only when there are some
        shown_starting.append([label("count_setup_steps", lang), setup_steps_text(ruleset, lang)])
    return _table(
        [
            [label("count_cubes", lang), str(ruleset.cubes_per_player)],
            *shown_starting,
            [label("count_free_cubes", lang), str(ruleset.free_cubes)],
            [label("count_unpicked_free_cubes", lang), unpicked_free_cubes_text(ruleset, lang)],
            [label("count_cap", lang), cap_text(ruleset, lang)],
            *([[label("count_at_cap", lang), label("at_cap_replaced", lang)]] if ruleset.unpicked_crews.replaced else []),
            [label("count_free_cube_vp", lang), label("vp_value", lang, vp=ruleset.free_cube_vp)],
            [label("count_player_cube_vp", lang), label("vp_value", lang, vp=ruleset.player_cube_vp)],
            [label("count_survey_minimum", lang), str(ruleset.survey_minimum)],
            [label("count_end", lang), end_conditions_text(ruleset, lang)],
            *([[label("count_end_scoring", lang), end_scoring_text(ruleset, lang)]] if ruleset.end_scoring else []),
            [label("count_max_rounds", lang), str(ruleset.max_rounds)],
            [
                label("count_cards", lang),
                label("cards_value", lang, planets=len(ruleset.planets), crew=len(ruleset.crew)),
            ],
        ]
    )


def end_conditions_text(ruleset: Ruleset, lang: str) -> str:
    """The conditions that end the game at a round's end (R10, rules.yaml ``end``), joined by
    "or": each draft 7 condition by its catalogue phrase, any other read back from the data."""
    return either_of((trigger_name(trigger.id, lang, ruleset) for trigger in ruleset.end), lang)


def end_scoring_text(ruleset: Ruleset, lang: str) -> str:
    """The score sheet's lines of their own (rules.yaml ``end_scoring``), each by its name and
    its VP read back from the data (a number, or the amount in words, this_seat being the
    player scored), joined as a list."""
    return join((end_scoring_line_text(line, ruleset, lang) for line in ruleset.end_scoring), lang)


def end_scoring_line_text(line: ScoringLine, ruleset: Ruleset, lang: str) -> str:
    """One line of ``end_scoring``: ``special squares: 2 VP``, or its amount in words."""
    if type(line.vp) is int:
        return label("end_scoring_line", lang, name=line.name.in_lang(lang), vp=label("vp_value", lang, vp=line.vp))
    return label("end_scoring_line", lang, name=line.name.in_lang(lang), vp=label("end_scoring_amount", lang, amount=amount_phrase(line.vp, ruleset, lang)))


#: How R11's amount is read: with the crew that gets the free cubes bound (``this_crew`` is
#: "that crew") and nobody as "you".
UNPICKED_CREW = Reading(bound=frozenset({CREWS}))


def unpicked_free_cubes_text(ruleset: Ruleset, lang: str) -> str:
    """How many free cubes each crew with no worker receives at a round's end (R11): the
    number, or the amount in words, none when it is below 1."""
    amount = ruleset.unpicked_crews.free_cubes
    if type(amount) is int:
        return str(max(0, amount))
    return label("unpicked_amount", lang, amount=amount_phrase(amount, ruleset, lang, UNPICKED_CREW))


def cap_text(ruleset: Ruleset, lang: str) -> str:
    """The most free cubes a crew holds (R11), or that there is no cap."""
    cap = ruleset.unpicked_crews.cap
    return label("no_cap", lang) if cap is None else str(cap)


def setup_steps_text(ruleset: Ruleset, lang: str) -> str:
    """What each player does before the first round (rules.yaml ``setup.each_player``), one
    sentence per effect as a skill's read."""
    return sentences(tuple(describe_effect(effect, ruleset, lang) for effect in ruleset.setup_steps), lang)


def turn_order_vp_text(ruleset: Ruleset, lang: str) -> str:
    """The starting VP by turn position, start player first: ``0, 1, 1, 2 VP``."""
    return label("vp_value", lang, vp=join((str(vp) for vp in ruleset.starting_vp_by_position), lang))


def majority_paragraphs(ruleset: Ruleset, lang: str) -> tuple[str, str]:
    """The ruleset's majority (its ``majority`` section, R15 and R16) in two paragraphs, the
    ranking and the rows, each sentence saying one key; a key at R15/R16's value says what the
    draft says, so draft 7's text is the draft's."""
    majority = ruleset.majority
    free = "majority_free_ranked" if majority.free_cubes_take_a_row else "majority_free_unranked"
    ranking = [label("majority_rank", lang), label(f"majority_ties_{majority.ties}", lang), label(free, lang)]
    if _reads(ruleset, '"has_cube"'):
        ranking.append(label("majority_has_cube_normal", lang))
    if majority.row_step == 1:
        rows = [label("majority_rows", lang)]
    else:
        rows = [label("majority_rows_step", lang, step=majority.row_step), label("majority_above_square_one", lang)]
    if majority.rank_percent != (100,):
        shares = [label("majority_share", lang, rank=rank, percent=percent) for rank, percent in enumerate(majority.rank_percent[:-1], start=1)]
        shares.append(label("majority_share_and_below", lang, rank=len(majority.rank_percent), percent=majority.rank_percent[-1]))
        rows.append(label("majority_percent", lang, shares=join(shares, lang)))
    if majority.free_cubes_take_a_row:
        rows.append(label("majority_virtual_row", lang))
    rows.append(label("majority_accident", lang))
    if majority.accident_vp:
        rows.append(label("majority_accident_vp", lang, vp=majority.accident_vp))
    return sentences(ranking, lang), sentences(rows, lang)


def bonus_paragraph(ruleset: Ruleset, lang: str) -> str:
    """The ruleset's major-planet bonus (its ``bonus`` section, R17) in one paragraph: which
    cubes count, then what they score; draft 7's R17 reads as the draft says it."""
    bonus = ruleset.bonus
    said = [label(f"bonus_squares_{bonus.squares}", lang)]
    if bonus.formula == DISTINCT_COLOUR_SETS:
        said.append(label("bonus_distinct_colour_sets", lang, size=bonus.set_size, vp=bonus.set_vp))
    elif bonus.formula == VP_BY_COUNT:
        table = bonus.vp_by_count
        entries = [label("bonus_count_vp", lang, count=count, vp=vp) for count, vp in enumerate(table[:-1], start=1)]
        entries.append(label("bonus_count_and_more_vp", lang, count=len(table), vp=table[-1]))
        said.append(label("bonus_vp_by_count", lang, table=join(entries, lang)))
    else:
        said.append(label("bonus_largest_groups", lang))
    return sentences(said, lang)


def reads_full_planets_to_end(ruleset: Ruleset) -> bool:
    """Whether an end condition, a skill, an ability or a round-end effect reads the player
    count's ``full_planets_to_end``: when none does, the table does not show a number that an
    end condition with its own count would contradict (one truth, not two)."""
    return _reads(ruleset, "full_planets_to_end")


def _reads(ruleset: Ruleset, word: str) -> bool:
    """Whether ``word`` stands in the ruleset's programs: its end conditions, skills, crew
    triggers, abilities, round-end and setup effects, end scoring and R11's free cubes."""
    parts: list[Any] = [trigger.condition.to_data() for trigger in ruleset.end]
    parts += [effect.to_data() for card in ruleset.crew for effect in card.skill]
    parts += [trigger.to_data() for card in ruleset.crew for trigger in card.triggers]
    parts += [ability.to_data() for card in ruleset.planets for ability in card.abilities]
    parts += [effect.to_data() for effect in (*ruleset.round_end_effects, *ruleset.setup_steps)]
    parts += [line.vp.to_data() for line in ruleset.end_scoring if not isinstance(line.vp, int)]
    free = ruleset.unpicked_crews.free_cubes
    parts += [] if isinstance(free, int) else [free.to_data()]
    return word in json.dumps(parts, default=str)


def setups_table(ruleset: Ruleset, lang: str) -> TextTable:
    """Per player count: Planets, crew dealt, the crew area with the always-in-play cards
    (R19) and the full Planets that end the game (R10)."""
    always = sum(1 for card in ruleset.crew if card.always_in_play)
    unread = label("setup_full_planets_unread", lang) if not reads_full_planets_to_end(ruleset) else None
    return _table(
        [
            [str(s.players), str(s.planets), str(s.crew), str(s.crew + always), unread or str(s.full_planets_to_end)]
            for s in (ruleset.setups[count] for count in ruleset.player_counts)
        ],
        headers=_labels(lang, "setup_players", "setup_planets", "setup_crew", "setup_crew_area", "setup_full_planets"),
        right=tuple(range(5)),
    )


def colours_table(ruleset: Ruleset, lang: str) -> TextTable:
    return _table(
        [[colour.id, colour.name.in_lang(lang)] for colour in ruleset.colours],
        headers=_labels(lang, "column_id", "column_name"),
    )


def planets_table(ruleset: Ruleset, lang: str) -> TextTable:
    """Every planet card: id (placeholders marked, R20), name, colour, special square, track,
    and its abilities when a card of the ruleset has any."""
    abilities = any(card.abilities for card in ruleset.planets)
    return _table(
        [
            [
                _marked(card.id, card.placeholder),
                card.name.in_lang(lang),
                colour_name(ruleset, card.colour, lang),
                str(card.special_capacity),
                track_text(card),
                *(["\n".join(ability_sentences(card, ruleset, lang))] if abilities else []),
            ]
            for card in ruleset.planets
        ],
        headers=_labels(
            lang, "column_id", "column_name", "column_colour", "column_special", "column_track", *(["column_abilities"] if abilities else [])
        ),
        right=(3,),
    )


def crew_table(ruleset: Ruleset, lang: str) -> TextTable:
    """Every crew card: id (placeholders marked), name, survey count, always in play, skill."""
    return _table(
        [
            [
                _marked(card.id, card.placeholder),
                card.name.in_lang(lang),
                str(card.survey_count),
                label("always_mark", lang) if card.always_in_play else "",
                "\n".join(skill_sentences(card, ruleset, lang)),
            ]
            for card in ruleset.crew
        ],
        headers=_labels(lang, "column_id", "column_name", "column_survey", "column_always", "column_skill"),
        right=(2,),
    )


def track_text(card: PlanetCard) -> str:
    """The track as ``square:VP``, accidents marked: ``1:1 2:3 3:✗0``."""
    mark = label("accident", "en")
    return " ".join(
        f"{square}:{mark if vp == 0 else ''}{vp}" for square, vp in enumerate(card.track, start=1)
    )


def _marked(card_id: str, placeholder: bool) -> str:
    return f"{card_id}{PLACEHOLDER_MARK}" if placeholder else card_id


# -- a score sheet --------------------------------------------------------------------------


def score_title(sheet: ScoreSheet, lang: str) -> str:
    return label("score_title" if sheet.final else "provisional_score_title", lang)


def score_table(game: Game, sheet: ScoreSheet, lang: str) -> TextTable:
    """The score sheet per seat: majority VP per Planet (rank and row used; a column for the
    free cubes when they rank, R16), the major-planet bonus with the colours counted (R17), VP
    during play, each line of ``end_scoring`` by its name, the total and cubes in hand (R18)."""
    ruleset = game.ruleset
    seats = [seat.seat for seat in sheet.seats]
    virtual = any(s.owner == FREE_CUBE_OWNER for result in sheet.planets for s in result.standings)
    owners = seats + ([FREE_CUBE_OWNER] if virtual else [])
    headers = [label("score_majority", lang)] + [player_name(seat, lang) for seat in seats]
    if virtual:
        headers.append(label("score_free_cubes", lang))
    rows = []
    for result in sheet.planets:
        by_owner = {standing.owner: standing for standing in result.standings}
        name = label(
            "score_planet",
            lang,
            planet=planet_name(ruleset, result.planet, lang),
            colour=colour_name(ruleset, result.colour, lang),
        )
        track = ruleset.planet(result.planet).track
        rows.append([name] + [_standing_cell(by_owner.get(owner), track, lang) for owner in owners])
    rows.append([label("score_majority_total", lang)] + [str(seat.majority_vp) for seat in sheet.seats])
    rows.append([label("score_bonus", lang)] + [_bonus_cell(ruleset, seat, lang) for seat in sheet.seats])
    rows.append([label("score_play", lang)] + [str(seat.play_vp) for seat in sheet.seats])
    for line in ruleset.end_scoring:  # rules.yaml end_scoring: each line a row of its own, by its name
        rows.append([line.name.in_lang(lang)] + [str(dict(seat.lines).get(line.id, 0)) for seat in sheet.seats])
    rows.append([label("score_total", lang)] + [str(seat.total) for seat in sheet.seats])
    rows.append([label("score_hand", lang)] + [str(seat.hand) for seat in sheet.seats])
    return _table(rows, headers=headers, totals=(len(rows) - 2,))


def _bonus_cell(ruleset: Ruleset, seat: SeatScore, lang: str) -> str:
    """A seat's major-planet bonus: its VP with the colours of its largest count (R17, a VP table),
    or with its complete sets (``distinct_colour_sets``)."""
    bonus = ruleset.bonus
    if bonus.formula == DISTINCT_COLOUR_SETS:
        # The sets its VP count (a cube of several colours stands in one set, Bonus.vp).
        sets = seat.bonus_vp // bonus.set_vp if bonus.set_vp else complete_sets((count for _, count in seat.colour_counts), bonus.set_size)
        return label("score_bonus_sets_cell", lang, vp=seat.bonus_vp, sets=sets, size=bonus.set_size)
    colours = label("score_colour_separator", lang).join(
        label("score_colour_count", lang, colour=colour_name(ruleset, colour, lang), count=seat.bonus_count)
        for colour in seat.bonus_colours
    )
    return label("score_bonus_cell", lang, vp=seat.bonus_vp, colours=colours)


def _standing_cell(standing: Standing | None, track: tuple[int, ...], lang: str) -> str:
    """A seat's cell: its VP, rank and row, marked when the row is an accident (VP 0, R1),
    whatever the ruleset's majority makes the accident score."""
    if standing is None:
        return "-"
    if standing.row is None:
        return label("score_cell_off", lang, vp=standing.vp, rank=standing.rank)
    key = "score_cell_accident" if track[standing.row - 1] == 0 else "score_cell"
    return label(key, lang, vp=standing.vp, rank=standing.rank, row=standing.row)
