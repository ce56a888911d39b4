"""Plain-text reports for the command line: a ruleset as tables, a game's setup, log and score.

Every word comes from the message catalogue through ``stargazer_rules.text.messages``, so each report
reads in Japanese or English. The tables' cells come from ``text.tables``, which the printed sheet
and the browser page draw too; here they are aligned by display width (``text.lines``): a
Japanese character takes two columns of a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from stargazer_rules.engine.scoring import ScoreSheet
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.text import tables
from stargazer_rules.text.lines import display_width, line_break_tokens, wrap_text
from stargazer_rules.text.messages import (
    colour_name,
    join,
    label,
    player_name,
    render_event,
    round_end_effects_sentence,
    skill_sentences,
)
from stargazer_rules.text.tables import TextTable, track_text
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER

if TYPE_CHECKING:
    from stargazer_rules.engine.game import Game
    from stargazer_rules.vocabulary.events import Event
    from stargazer_rules.vocabulary.table import State

INDENT = "  "
#: Columns of a skill cell; longer skills are wrapped.
SKILL_WIDTH = 64
_GAP = "  "
#: The narrowest a column is wrapped to on a narrow terminal (its lines then run past it).
_LAST_COLUMN_LEAST = 16


# -- tables ---------------------------------------------------------------------------------


def format_table(
    rows: Sequence[Sequence[str]],
    headers: Sequence[str] | None = None,
    indent: str = INDENT,
    right: Iterable[int] = (),
    wrap: int | None = None,
    fit: int | None = None,
) -> list[str]:
    """Rows of cells as aligned lines, under a header and a rule when ``headers`` are given.

    A cell may hold several lines; columns listed in ``right`` are right-aligned. The cells of
    the last column are wrapped to ``wrap`` columns when it is given; with ``fit`` (a
    terminal's width) the widest columns that can break are wrapped until the lines fit it, none
    narrower than ``_LAST_COLUMN_LEAST``. The last column is not padded, so no line ends in
    spaces.
    """
    right = frozenset(right)
    given = [list(headers)] if headers is not None else []
    given += [list(row) for row in rows]
    columns = max(len(row) for row in given)
    for row in given:
        row += [""] * (columns - len(row))
    limits: dict[int, int] = {} if wrap is None else {columns - 1: wrap}
    table = _wrapped_table(given, limits)
    widths = _widths(table, columns)
    # To fit a terminal, the widest column that can wrap (a cell with a place to break) is wrapped
    # to what the others leave, down to _LAST_COLUMN_LEAST, one column at a time, each from its
    # cells as given (so that a cell wrapped twice still breaks evenly).
    for _ in range(columns if fit is not None else 0):
        over = display_width(indent) + sum(widths) + display_width(_GAP) * (columns - 1) - fit
        wrappable = [c for c in range(columns) if widths[c] > _LAST_COLUMN_LEAST and any(_breaks(row[c]) for row in given)]
        if over <= 0 or not wrappable:
            break
        widest = max(wrappable, key=lambda c: (widths[c], c))
        limits[widest] = max(_LAST_COLUMN_LEAST, widths[widest] - over)
        table = _wrapped_table(given, limits)
        widths = _widths(table, columns)
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


def _wrapped_table(table: list[list[str]], limits: dict[int, int]) -> list[list[str]]:
    """The cells of the columns in ``limits`` wrapped to their limit, each line of a cell apart."""
    return [
        [
            cell if c not in limits else "\n".join(wrapped for line in cell.split("\n") for wrapped in wrap_text(line, limits[c]))
            for c, cell in enumerate(row)
        ]
        for row in table
    ]


def _breaks(cell: str) -> bool:
    """Whether a cell has a place to break a line: between words, or between Japanese characters."""
    return any(len(line_break_tokens(line)) > 1 for line in cell.split("\n"))


def _widths(table: list[list[str]], columns: int) -> list[int]:
    return [max(display_width(line) for row in table for line in row[c].split("\n")) for c in range(columns)]


def table_lines(table: TextTable, indent: str = INDENT, wrap: int | None = None, fit: int | None = None) -> list[str]:
    """A ``text.tables`` table drawn for the terminal (``format_table``)."""
    return format_table(table.rows, headers=table.headers, indent=indent, right=table.right, wrap=wrap, fit=fit)


def _paragraph(text: str, fit: int | None) -> list[str]:
    """A paragraph under a section title, indented, wrapped to ``fit`` columns when given."""
    if fit is None:
        return [INDENT + text]
    return [INDENT + line for line in wrap_text(text, max(_LAST_COLUMN_LEAST, fit - display_width(INDENT)))]


# -- a ruleset ------------------------------------------------------------------------------


def ruleset_report(ruleset: Ruleset, lang: str, fit: int | None = None) -> str:
    """``stargazer rules``: the ruleset as tables, skills as sentences, placeholders marked;
    with ``fit`` (a terminal's width), each table's last column and each paragraph wrapped so
    that the lines fit it."""
    lines = [ruleset_title(ruleset, lang), ""]
    lines.append(label("section_counts", lang))
    lines += table_lines(tables.counts_table(ruleset, lang), fit=fit)
    lines += ["", label("section_setups", lang)]
    lines += table_lines(tables.setups_table(ruleset, lang), fit=fit)
    round_end = round_end_effects_sentence(ruleset, lang)
    if round_end is not None:
        lines += ["", label("section_round_end", lang), *_paragraph(round_end, fit)]
    lines += ["", label("section_majority", lang)]
    for text in tables.majority_paragraphs(ruleset, lang):
        lines += _paragraph(text, fit)
    lines += ["", label("section_bonus", lang), *_paragraph(tables.bonus_paragraph(ruleset, lang), fit)]
    lines += ["", label("section_colours", lang)]
    lines += table_lines(tables.colours_table(ruleset, lang), fit=fit)
    lines += ["", label("section_planets", lang, count=len(ruleset.planets))]
    lines += table_lines(tables.planets_table(ruleset, lang), fit=fit)
    lines += ["", label("section_crew", lang, count=len(ruleset.crew))]
    lines += table_lines(tables.crew_table(ruleset, lang), wrap=SKILL_WIDTH, fit=fit)
    lines.append("")
    if any(card.placeholder for card in (*ruleset.planets, *ruleset.crew)):
        lines.append(label("note_placeholder", lang))
    lines.append(label("note_track", lang))
    return "\n".join(lines)


def ruleset_title(
    ruleset: Ruleset,
    lang: str,
    key: str = "ruleset_title",
    render: Callable[..., str] = label,
    **more: Any,
) -> str:
    """A title that names the ruleset: the entry ``key`` of a catalogue (``render``: this
    catalogue's ``label``, or the printing catalogue's ``say``) filled with the ruleset's title
    in ``lang``, its name and short fingerprint, and ``more``. Every title and footer that names
    a ruleset is built here (``stargazer rules``, ``play-random``, ``play``, ``replay``, the
    printed sheet and its footers)."""
    return render(
        key,
        lang,
        title=ruleset.title.in_lang(lang),
        name=ruleset.name,
        fingerprint=short_fingerprint(ruleset.fingerprint),
        **more,
    )


# -- a game ---------------------------------------------------------------------------------


def game_title(ruleset: Ruleset, players: int, seed: int, lang: str) -> str:
    return ruleset_title(ruleset, lang, "game_title", players=players, seed=seed)


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
    """The score sheet (``tables.score_table``) under its title, with its notes; then the
    winners, with the tie-break when it decided (R15-R18)."""
    virtual = any(s.owner == FREE_CUBE_OWNER for result in sheet.planets for s in result.standings)
    lines = [tables.score_title(sheet, lang)] + table_lines(tables.score_table(game, sheet, lang))
    lines.append("")
    if virtual:
        lines.append(INDENT + label("score_note_free_cubes", lang))
    lines.append(INDENT + label("score_note_accident", lang))
    lines += ["", winner_line(sheet, lang)]
    return lines


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
