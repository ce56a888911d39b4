"""Plain-text reports for the command line: a ruleset as tables, a game's setup, log and score.

Every word comes from the message catalogue through ``stargazer_rules.text.messages``, so each report
reads in Japanese or English. Tables are aligned by display width: a Japanese character takes
two columns of a terminal.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from stargazer_rules.engine.scoring import ScoreSheet, Standing
from stargazer_rules.rulesets.model import PlanetCard, Ruleset
from stargazer_rules.text.messages import (
    colour_name,
    join,
    label,
    planet_name,
    player_name,
    render_event,
    skill_sentences,
)
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER

if TYPE_CHECKING:
    from stargazer_rules.engine.game import Game
    from stargazer_rules.vocabulary.events import Event
    from stargazer_rules.vocabulary.table import State

#: Shown after the id of a card whose values are a reconstruction (R20), with a footnote.
PLACEHOLDER_MARK = "*"

INDENT = "  "
#: Columns of a skill cell; longer skills are wrapped.
SKILL_WIDTH = 64
_GAP = "  "


# -- tables ---------------------------------------------------------------------------------


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide and full-width characters take two, combining none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def format_table(
    rows: Sequence[Sequence[str]],
    headers: Sequence[str] | None = None,
    indent: str = INDENT,
    right: Iterable[int] = (),
    wrap: int | None = None,
) -> list[str]:
    """Rows of cells as aligned lines, under a header and a rule when ``headers`` are given.

    A cell may hold several lines; columns listed in ``right`` are right-aligned. The cells of
    the last column are wrapped to ``wrap`` columns when it is given. The last column is not
    padded, so no line ends in spaces.
    """
    right = frozenset(right)
    table = [list(headers)] if headers is not None else []
    table += [list(row) for row in rows]
    if wrap is not None:
        for row in table:
            row[-1] = "\n".join(
                wrapped for line in row[-1].split("\n") for wrapped in wrap_text(line, wrap)
            )
    columns = max(len(row) for row in table)
    for row in table:
        row += [""] * (columns - len(row))
    widths = [
        max(display_width(line) for row in table for line in row[c].split("\n"))
        for c in range(columns)
    ]
    lines = []
    for index, row in enumerate(table):
        cells = [cell.split("\n") for cell in row]
        for k in range(max(len(cell) for cell in cells)):
            parts = []
            for c, cell in enumerate(cells):
                text = cell[k] if k < len(cell) else ""
                pad = " " * (widths[c] - display_width(text))
                parts.append(pad + text if c in right else text + pad)
            lines.append((indent + _GAP.join(parts)).rstrip())
        if headers is not None and index == 0:
            lines.append((indent + _GAP.join("-" * width for width in widths)).rstrip())
    return lines


#: Characters a line must not start with (Japanese line breaking, kinsoku): they stay with
#: the character before them.
_NO_LINE_START = frozenset("、。，．）」』：；！？ー・,.;:!?)")


def wrap_text(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns; a word longer than that stays whole.

    Breaks at spaces, and between two wide (Japanese) characters except before closing
    punctuation.
    """
    lines: list[str] = []
    line = ""
    for token in line_break_tokens(text):
        if token == " ":
            line += token if line else ""
        elif line and display_width(line + token) > width:
            lines.append(line.rstrip())
            line = token
        else:
            line += token
    lines.append(line.rstrip())
    return lines


def line_break_tokens(text: str) -> list[str]:
    """``text`` cut where a line may break: single spaces, runs of narrow (Latin) characters,
    and each wide (Japanese) character, closing punctuation kept with what it closes. The
    terminal's wrapping (``wrap_text``) and the printed cards' (``printing.fonts.wrap``) share it.
    """
    tokens: list[str] = []
    for char in text:
        if tokens and (
            char in _NO_LINE_START or (_narrow_text(char) and _narrow_text(tokens[-1][-1]))
        ):
            tokens[-1] += char
        else:
            tokens.append(char)
    return tokens


def _narrow_text(char: str) -> bool:
    return char != " " and display_width(char) == 1


# -- a ruleset ------------------------------------------------------------------------------


def track_text(card: PlanetCard) -> str:
    """The track as ``square:VP``, accidents marked: ``1:1 2:3 3:✗0``."""
    mark = label("accident", "en")
    return " ".join(
        f"{square}:{mark if vp == 0 else ''}{vp}" for square, vp in enumerate(card.track, start=1)
    )


def _marked(card_id: str, placeholder: bool) -> str:
    return f"{card_id}{PLACEHOLDER_MARK}" if placeholder else card_id


def ruleset_report(ruleset: Ruleset, lang: str) -> str:
    """``stargazer rules``: the ruleset as tables, skills as sentences, placeholders marked."""
    lines = [_ruleset_title(ruleset, lang), ""]
    lines.append(label("section_counts", lang))
    lines += format_table(
        [
            [label("count_cubes", lang), str(ruleset.cubes_per_player)],
            [label("count_free_cubes", lang), str(ruleset.free_cubes)],
            [label("count_cap", lang), str(ruleset.max_free_cubes_per_crew)],
            [label("count_free_cube_vp", lang), label("vp_value", lang, vp=ruleset.free_cube_vp)],
            [
                label("count_player_cube_vp", lang),
                label("vp_value", lang, vp=ruleset.player_cube_vp),
            ],
            [label("count_survey_minimum", lang), str(ruleset.survey_minimum)],
        ]
    )
    always = sum(1 for card in ruleset.crew if card.always_in_play)
    lines += ["", label("section_setups", lang)]
    lines += format_table(
        [
            [
                str(s.players),
                str(s.planets),
                str(s.crew),
                str(s.crew + always),
                str(s.full_planets_to_end),
            ]
            for s in (ruleset.setups[count] for count in ruleset.player_counts)
        ],
        headers=[
            label("setup_players", lang),
            label("setup_planets", lang),
            label("setup_crew", lang),
            label("setup_crew_area", lang),
            label("setup_full_planets", lang),
        ],
        right=range(5),
    )
    lines += ["", label("section_colours", lang)]
    lines += format_table(
        [[colour.id, colour.name.in_lang(lang)] for colour in ruleset.colours],
        headers=[label("column_id", lang), label("column_name", lang)],
    )
    lines += ["", label("section_planets", lang, count=len(ruleset.planets))]
    lines += format_table(
        [
            [
                _marked(card.id, card.placeholder),
                card.name.in_lang(lang),
                colour_name(ruleset, card.colour, lang),
                str(card.special_capacity),
                track_text(card),
            ]
            for card in ruleset.planets
        ],
        headers=[
            label("column_id", lang),
            label("column_name", lang),
            label("column_colour", lang),
            label("column_special", lang),
            label("column_track", lang),
        ],
        right=(3,),
    )
    lines += ["", label("section_crew", lang, count=len(ruleset.crew))]
    lines += format_table(
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
        headers=[
            label("column_id", lang),
            label("column_name", lang),
            label("column_survey", lang),
            label("column_always", lang),
            label("column_skill", lang),
        ],
        right=(2,),
        wrap=SKILL_WIDTH,
    )
    lines.append("")
    if any(card.placeholder for card in (*ruleset.planets, *ruleset.crew)):
        lines.append(label("note_placeholder", lang))
    lines.append(label("note_track", lang))
    return "\n".join(lines)


def _ruleset_title(ruleset: Ruleset, lang: str) -> str:
    return label(
        "ruleset_title",
        lang,
        title=ruleset.title.in_lang(lang),
        name=ruleset.name,
        fingerprint=ruleset.fingerprint[:12],
    )


# -- a game ---------------------------------------------------------------------------------


def game_title(ruleset: Ruleset, players: int, seed: int, lang: str) -> str:
    return label(
        "game_title",
        lang,
        title=ruleset.title.in_lang(lang),
        name=ruleset.name,
        fingerprint=ruleset.fingerprint[:12],
        players=players,
        seed=seed,
    )


def setup_report(game: Game, state: State, lang: str) -> list[str]:
    """The deal: the Planets in ring order with their tracks, the crew area, the start player."""
    ruleset = game.ruleset
    lines = [label("section_setup", lang), INDENT + label("setup_ring", lang)]
    lines += format_table(
        [
            [
                str(position),
                card.name.in_lang(lang),
                colour_name(ruleset, card.colour, lang),
                str(card.special_capacity),
                track_text(card),
            ]
            for position, card in enumerate((ruleset.planets[i] for i in state.planets), start=1)
        ],
        headers=[
            label("column_position", lang),
            label("column_name", lang),
            label("column_colour", lang),
            label("column_special", lang),
            label("column_track", lang),
        ],
        indent=INDENT * 2,
        right=(0, 3),
    )
    lines += ["", INDENT + label("setup_crew_area_title", lang)]
    lines += format_table(
        [
            [
                card.name.in_lang(lang),
                str(card.survey_count),
                "\n".join(skill_sentences(card, ruleset, lang)),
            ]
            for card in (ruleset.crew[i] for i in state.crew)
        ],
        headers=[
            label("column_name", lang),
            label("column_survey", lang),
            label("column_skill", lang),
        ],
        indent=INDENT * 2,
        right=(1,),
        wrap=SKILL_WIDTH,
    )
    lines += [
        "",
        INDENT + label("setup_start_player", lang, player=player_name(state.start_player, lang)),
    ]
    return lines


def log_lines(events: Iterable[Event], ruleset: Ruleset, lang: str) -> Iterator[str]:
    """The event log, one line per event, under a heading per round, turn and round end."""
    yield label("section_log", lang)
    yield INDENT + label("log_round", lang, round=1)
    turn = 0
    for event in events:
        if event.key == "crew_chosen":
            turn += 1
            yield INDENT * 2 + label(
                "log_turn", lang, turn=turn, player=player_name(event.params["player"], lang)
            )
        elif event.key == "round_ended":
            yield INDENT * 2 + label("log_round_end", lang, round=event.params["round"])
        elif event.key == "round_started":
            turn = 0
            yield ""
            yield INDENT + label("log_round", lang, round=event.params["round"])
        yield INDENT * 3 + render_event(event, ruleset, lang)


# -- a score sheet --------------------------------------------------------------------------


def score_report(game: Game, sheet: ScoreSheet, lang: str) -> list[str]:
    """The score sheet as a table per seat: majority VP per Planet (rank and row used), the
    major-planet bonus with the colours counted, VP during play, total, cubes in hand; then
    the winners, with the tie-break when it decided (R15-R18)."""
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
        rows.append([name] + [_standing_cell(by_owner.get(owner), lang) for owner in owners])
    rows.append(
        [label("score_majority_total", lang)] + [str(seat.majority_vp) for seat in sheet.seats]
    )
    rows.append(
        [label("score_bonus", lang)]
        + [
            label(
                "score_bonus_cell",
                lang,
                vp=seat.bonus_vp,
                colours=label("score_colour_separator", lang).join(
                    label(
                        "score_colour_count",
                        lang,
                        colour=colour_name(ruleset, colour, lang),
                        count=seat.bonus_count,
                    )
                    for colour in seat.bonus_colours
                ),
            )
            for seat in sheet.seats
        ]
    )
    rows.append([label("score_play", lang)] + [str(seat.play_vp) for seat in sheet.seats])
    rows.append([label("score_total", lang)] + [str(seat.total) for seat in sheet.seats])
    rows.append([label("score_hand", lang)] + [str(seat.hand) for seat in sheet.seats])
    title = label("score_title" if sheet.final else "provisional_score_title", lang)
    lines = [title] + format_table(rows, headers=headers)
    lines.append("")
    if virtual:
        lines.append(INDENT + label("score_note_free_cubes", lang))
    lines.append(INDENT + label("score_note_accident", lang))
    lines += ["", winner_line(sheet, lang)]
    return lines


def _standing_cell(standing: Standing | None, lang: str) -> str:
    if standing is None:
        return "-"
    if standing.row is None:
        return label("score_cell_off", lang, vp=standing.vp, rank=standing.rank)
    key = "score_cell_accident" if standing.vp == 0 else "score_cell"
    return label(key, lang, vp=standing.vp, rank=standing.rank, row=standing.row)


def winner_line(sheet: ScoreSheet, lang: str) -> str:
    """Who wins (R18), and how a tie on VP was broken by cubes in hand, or that it was shared."""
    seats = {seat.seat: seat for seat in sheet.seats}
    winners = [seats[seat] for seat in sheet.winners]
    total = winners[0].total
    names = join((player_name(seat.seat, lang) for seat in winners), lang)
    tied = [seat for seat in sheet.seats if seat.total == total]
    if len(winners) > 1:
        return label("winners_shared", lang, players=names, total=total, hand=winners[0].hand)
    if len(tied) > 1:
        hands = join(
            (label("hand_of", lang, player=player_name(s.seat, lang), hand=s.hand) for s in tied),
            lang,
        )
        return label(
            "winner_tie_break",
            lang,
            players=names,
            total=total,
            tied=join((player_name(s.seat, lang) for s in tied), lang),
            hands=hands,
        )
    return label("winner", lang, players=names, total=total)
