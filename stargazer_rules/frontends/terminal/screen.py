"""What a state looks like in a terminal: the ring with each square's VP and the cubes on it, the
crew area, the players with their provisional scores, the menu and the score sheet. Colours
(ANSI) are an extra: every cube is also a digit (its seat) or ``F`` (a free cube)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from stargazer_rules.engine.game import Game
from stargazer_rules.text import reports
from stargazer_rules.text.messages import (
    crew_name,
    describe_action,
    label,
    player_name,
    render_event,
    skill_sentences,
)
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import OVER, PICK_CREW, SURVEYING, State

INDENT = "  "


#: Screen width when the caller does not know the terminal's.
DEFAULT_WIDTH = 80


#: Owner marks on the board: seat digits, and this for a free cube (the virtual player).
FREE_MARK = "F"


EMPTY_MARK = "."


ACCIDENT_MARK = "✗"


CURRENT_MARK = ">"


# ANSI colours (SGR codes): the workers' colours for seats 0-3 as in the box (red, blue, yellow,
# green), then two more for rulesets with more seats; planet colours by id.
_SEAT_CODES = ("1;31", "1;34", "1;33", "1;32", "1;35", "1;36")


_FREE_CODE = "1;37"


_PLANET_CODES = {
    "red": "31",
    "blue": "34",
    "yellow": "33",
    "green": "32",
    "black": "90",
    "white": "97",
}


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def use_colour(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """ANSI colours when ``stream`` is a terminal and ``NO_COLOR`` is unset or empty."""
    environ = os.environ if environ is None else environ
    return is_a_terminal(stream) and not environ.get("NO_COLOR")


def is_a_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def painted(text: str, code: str | None, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour and code and text else text


def visible_width(text: str) -> int:
    """Terminal columns of ``text``, ANSI colour codes excluded."""
    return reports.display_width(_ANSI.sub("", text))


def aligned_rows(rows: Sequence[Sequence[str]], right: Iterable[int] = (), indent: str = INDENT) -> list[str]:
    """Rows of one-line cells as aligned lines (colour codes take no room); no trailing spaces."""
    right = frozenset(right)
    columns = max(len(row) for row in rows)
    widths = [
        max((visible_width(row[c]) for row in rows if c < len(row)), default=0)
        for c in range(columns)
    ]
    lines = []
    for row in rows:
        parts = []
        for c in range(columns):
            text = row[c] if c < len(row) else ""
            pad = " " * (widths[c] - visible_width(text))
            parts.append(pad + text if c in right else text + pad)
        lines.append((indent + "  ".join(parts)).rstrip())
    return lines


def owner_mark(owner: int, colour: bool = False) -> str:
    """A cube as one character: its seat's digit (seat 0 is ``1``), ``F`` for a free cube."""
    if owner == FREE_CUBE_OWNER:
        return painted(FREE_MARK, _FREE_CODE, colour)
    return painted(str(owner + 1), _SEAT_CODES[owner % len(_SEAT_CODES)], colour)


def _seat_painted(seat: int, text: str, colour: bool) -> str:
    return painted(text, _SEAT_CODES[seat % len(_SEAT_CODES)], colour)


def board_lines(game: Game, state: State, lang: str, colour: bool = False) -> list[str]:
    """The ring: per Planet a row of VP per square (accidents ``✗``) and a row of cubes under
    it, the special square and whether the Planet is full; then the legend."""
    ruleset = game.ruleset
    cards = [ruleset.planets[index] for index in state.planets]
    squares = max(card.length for card in cards)
    rows: list[list[str]] = [
        ["#", label("play_column_planet", lang), label("play_column_square", lang)]
        + [str(square) for square in range(1, squares + 1)]
        + [label("play_column_special", lang)]
    ]
    for position, card in enumerate(cards):
        name = label(
            "score_planet",
            lang,
            planet=card.name.in_lang(lang),
            colour=ruleset.colour(card.colour).name.in_lang(lang),
        )
        track = state.tracks[position]
        special = state.specials[position]
        values = [ACCIDENT_MARK + "0" if vp == 0 else str(vp) for vp in card.track]
        cubes = [owner_mark(owner, colour) for owner in track]
        cubes += [EMPTY_MARK] * (card.length - len(track))
        special_cell = "".join(owner_mark(owner, colour) for owner in special)
        special_cell += EMPTY_MARK * (card.special_capacity - len(special))
        full = label("play_full", lang) if len(track) == card.length else ""
        blank = [""] * (squares - card.length)
        rows.append(
            [str(position + 1), painted(name, _PLANET_CODES.get(card.colour), colour), label("play_row_vp", lang)]
            + values
            + blank
        )
        rows.append(["", "", label("play_row_cubes", lang)] + cubes + blank + [special_cell, full])
    lines = [label("play_planets_title", lang)]
    lines += aligned_rows(rows, right=range(3, 3 + squares))
    lines.append(INDENT + label("play_legend", lang, players=state.players))
    return lines


def crew_lines(game: Game, state: State, lang: str, colour: bool = False, width: int = DEFAULT_WIDTH) -> list[str]:
    """The crew area: survey count, worker, free cubes and player cubes on each crew, and its
    skill as sentences under it."""
    ruleset = game.ruleset
    headers = [
        "#",
        label("play_column_crew", lang),
        label("column_survey", lang),
        label("play_column_worker", lang),
        label("play_column_free", lang),
        label("play_column_cubes", lang),
    ]
    rows = [headers]
    for slot, index in enumerate(state.crew):
        card = ruleset.crew[index]
        worker = state.workers[slot]
        cubes = state.crew_cubes[slot]
        rows.append(
            [
                str(slot + 1),
                card.name.in_lang(lang),
                str(card.survey_count),
                "-" if worker < 0 else _seat_painted(worker, player_name(worker, lang), colour),
                str(state.crew_free[slot]),
                " ".join(owner_mark(owner, colour) for owner in cubes) if cubes else "-",
            ]
        )
    table = aligned_rows(rows, right=(0, 2, 4))
    lines = [label("play_crew_title", lang), table[0]]
    skill_indent = INDENT * 3
    for slot, index in enumerate(state.crew):
        lines.append(table[slot + 1])
        for sentence in skill_sentences(ruleset.crew[index], ruleset, lang):
            lines += [
                skill_indent + line
                for line in reports.wrap_text(sentence, max(20, width - len(skill_indent)))
            ]
    return lines


def players_lines(
    game: Game, state: State, lang: str, names: Sequence[str], colour: bool = False
) -> list[str]:
    """Each seat's cubes in hand, VP scored during play and provisional total
    (``game.score``); the seat to decide marked ``>``, the start player named."""
    sheet = game.score(state)
    current = game.current_player(state)
    rows = [
        [
            "",
            label("play_column_player", lang),
            label("play_column_hand", lang),
            label("play_column_vp", lang),
            label("play_column_score", lang),
        ]
    ]
    for seat_score in sheet.seats:
        seat = seat_score.seat
        rows.append(
            [
                CURRENT_MARK if seat == current else "",
                _seat_painted(seat, names[seat], colour),
                str(state.hands[seat]),
                str(state.vp[seat]),
                str(seat_score.total),
                label("play_start_mark", lang) if seat == state.start_player and state.stage != OVER else "",
            ]
        )
    lines = [label("play_players_title", lang)]
    lines += aligned_rows(rows, right=(2, 3, 4))
    lines.append(INDENT + label("play_stock", lang, count=state.stock))
    return lines


def heading(game: Game, state: State, lang: str, names: Sequence[str]) -> str:
    """ "Round 2: Player 1 (you) to decide, choose a crew", or "Game over after round 7"."""
    if game.is_over(state):
        return label("play_heading_over", lang, round=state.round)
    seat = game.current_player(state)
    assert seat is not None
    if state.stage == PICK_CREW:
        decision = label("play_decision_pick_crew", lang)
    elif state.stage == SURVEYING:
        decision = label("play_decision_survey", lang)
    else:
        crew_id = game.ruleset.crew[state.crew[state.pending[0].slot]].id
        decision = label("play_decision_skill", lang, crew=crew_name(game.ruleset, crew_id, lang))
    return label("play_heading", lang, round=state.round, player=names[seat], decision=decision)


def screen_lines(
    game: Game,
    state: State,
    lang: str,
    names: Sequence[str],
    recent: Sequence[Event] = (),
    notes: Sequence[str] = (),
    colour: bool = False,
    width: int = DEFAULT_WIDTH,
    title: str | None = None,
) -> list[str]:
    """One screen: a rule, what happened since the last screen (``recent`` events, then
    ``notes``), the heading (``title``, default: whose decision it is), the ring, the crew area
    and the players."""
    lines = ["=" * min(width, DEFAULT_WIDTH)]
    if recent or notes:
        lines.append(label("play_recent", lang))
        lines += [INDENT + render_event(event, game.ruleset, lang) for event in recent]
        lines += [INDENT + note for note in notes]
        lines.append("")
    lines += [title if title is not None else heading(game, state, lang, names), ""]
    lines += board_lines(game, state, lang, colour)
    lines.append("")
    lines += crew_lines(game, state, lang, colour, width)
    lines.append("")
    lines += players_lines(game, state, lang, names, colour)
    return lines


def menu_lines(game: Game, state: State, lang: str) -> list[str]:
    """The legal actions, numbered from 1, as sentences; then the keys."""
    lines = [label("play_options", lang)]
    legal = game.legal_actions(state)
    digits = len(str(len(legal)))
    lines += [
        f"{INDENT}{number:>{digits}}. {describe_action(game, state, act, lang)}"
        for number, act in enumerate(legal, start=1)
    ]
    lines.append(INDENT + label("play_keys", lang))
    return lines


def sheet_lines(game: Game, state: State, lang: str) -> list[str]:
    """The score sheet (``reports.score_report``) with the winners; a provisional sheet, of a
    game saved before its end, names no winner."""
    sheet = game.score(state)
    lines = reports.score_report(game, sheet, lang)
    if not sheet.final and lines[-1] == reports.winner_line(sheet, lang):
        del lines[-2:]
    return lines


def ruleset_screen_title(game: Game, key: str, players: int, seed: int | None, lang: str, **more: Any) -> str:
    seed_shown = "-" if seed is None else seed
    return reports.ruleset_title(game.ruleset, lang, key, players=players, seed=seed_shown, **more)
