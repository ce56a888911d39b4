"""Drawing one card, face or back, at the origin of a ReportLab canvas: the cut line runs from
(0, 0) to (CARD_WIDTH, CARD_HEIGHT) and backgrounds reach ``bleed`` past it.

Everything on a card comes from the ruleset: a planet's name, colour (a band and the colour's
name, for black-and-white printers), its normal squares 1..L with their VP (accidents, VP 0,
dark with a cross and the word), its special square "0" and its id; a crew card's name,
survey count, skill in the sentences of ``stargazer rules`` (``text.skill_sentences``),
"always in play" (R19) and the placeholder mark (R20). Text shrinks, and wraps, to fit: a long
name or a long track never runs off a card.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import attrs
from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from stargazer_rules.printing import fonts
from stargazer_rules.printing.layout import CARD_HEIGHT, CARD_WIDTH
from stargazer_rules.printing.words import each, joined, langs, names, say
from stargazer_rules.rulesets.model import DRAFT7_END, CrewCard, PlanetCard, Ruleset
from stargazer_rules.text.messages import ability_sentences, colour_name, join, skill_sentences
from stargazer_rules.text.tables import end_conditions_text

PLANET = "planet"
CREW = "crew"
AID = "aid"
KINDS = (PLANET, CREW, AID)

#: Fills of the colour ids the bundled rulesets use; any other id gets one from ``_PALETTE``.
COLOUR_FILLS = {
    "red": "#d9483b",
    "blue": "#3b7dd9",
    "yellow": "#f2c230",
    "green": "#43a047",
    "black": "#222222",
    "white": "#ffffff",
    "purple": "#8e44ad",
    "orange": "#ef8a17",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
    "brown": "#8d5b3a",
    "pink": "#e67fb0",
    "cyan": "#2bb3c0",
}
_PALETTE = ("#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#7f7f7f")

INK = HexColor("#1a1a1a")
CREW_BAND = HexColor("#34495e")
AID_BAND = HexColor("#5d4037")
ACCIDENT_FILL = HexColor("#303030")
PLACEHOLDER_INK = HexColor("#c62828")
BACKS = {PLANET: HexColor("#1b2a49"), CREW: HexColor("#3b1f47"), AID: HexColor("#2f3b2f")}

PAD = 4 * mm
BAND = 17 * mm
SMALL = 5.5
SQUARE_MAX = 15 * mm
SQUARE_GAP = 1.2 * mm


@attrs.frozen
class PrintCard:
    """One card to print: its ``kind`` (planet, crew or player aid), its ``id`` (the card's id
    in the ruleset; ``aid-1``.. for player aids) and its ``index`` among the ruleset's cards of
    its kind."""

    kind: str
    id: str
    index: int


def print_cards(ruleset: Ruleset) -> tuple[PrintCard, ...]:
    """Every card of the prototype in print order: the planets, the crew, then one player aid
    per seat of the largest player count."""
    cards = [PrintCard(PLANET, card.id, i) for i, card in enumerate(ruleset.planets)]
    cards += [PrintCard(CREW, card.id, i) for i, card in enumerate(ruleset.crew)]
    cards += [PrintCard(AID, f"aid-{n}", n - 1) for n in range(1, max(ruleset.player_counts) + 1)]
    return tuple(cards)


def card_title(ruleset: Ruleset, card: PrintCard, lang: str) -> str:
    """The card's name as one line (for image names and the digital table)."""
    if card.kind == PLANET:
        return joined(names(ruleset.planets[card.index].name, lang))
    if card.kind == CREW:
        return joined(names(ruleset.crew[card.index].name, lang))
    return joined(each("kind_aid", lang)) + f" {card.index + 1}"


def colour_fill(colour_id: str) -> Color:
    fill = COLOUR_FILLS.get(colour_id.lower())
    if fill is None:
        fill = _PALETTE[zlib.crc32(colour_id.encode("utf-8")) % len(_PALETTE)]
    return HexColor(fill)


def _ink_on(fill: Color) -> Color:
    luminance = 0.299 * fill.red + 0.587 * fill.green + 0.114 * fill.blue
    return INK if luminance > 0.55 else white


# -- drawing helpers -------------------------------------------------------------------------


def _text(canvas: Canvas, x: float, y: float, text: str, size: float, align: str = "left") -> None:
    canvas.setFont(fonts.register_font(), size)
    if align == "centre":
        canvas.drawCentredString(x, y, text)
    elif align == "right":
        canvas.drawRightString(x, y, text)
    else:
        canvas.drawString(x, y, text)


def _text_block(
    canvas: Canvas,
    paragraphs: Sequence[str],
    x: float,
    y_top: float,
    width: float,
    height: float,
    size: float,
    *,
    ink: Color,
    align: str = "left",
    leading: float = 1.25,
) -> None:
    """Paragraphs wrapped and shrunk to fit the box whose top-left is (x, y_top), centred
    vertically in it, in ``ink``: every block names its colour, so none is drawn in the fill
    colour the last drawing left behind (white text on a white card)."""
    size, wrapped = fonts.fit_paragraphs(paragraphs, width, height, size, leading)
    canvas.setFillColor(ink)
    lines = sum(len(p) for p in wrapped) + max(0, len(wrapped) - 1) * 0.35
    used = lines * size * leading
    y = y_top - (height - used) / 2 - size
    anchor = x + width / 2 if align == "centre" else x
    for paragraph in wrapped:
        for line in paragraph:
            _text(canvas, anchor, y, line, size, align)
            y -= size * leading
        y -= size * leading * 0.35


def _background(canvas: Canvas, bleed: float, fill: Color = white) -> None:
    canvas.setFillColor(fill)
    canvas.rect(-bleed, -bleed, CARD_WIDTH + 2 * bleed, CARD_HEIGHT + 2 * bleed, stroke=0, fill=1)


def _band(canvas: Canvas, fill: Color, bleed: float, paragraphs: Sequence[str]) -> None:
    """The coloured band across the top with the card's name."""
    canvas.setFillColor(fill)
    canvas.rect(-bleed, CARD_HEIGHT - BAND, CARD_WIDTH + 2 * bleed, BAND + bleed, stroke=0, fill=1)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.6)
    canvas.line(-bleed, CARD_HEIGHT - BAND, CARD_WIDTH + bleed, CARD_HEIGHT - BAND)
    _text_block(
        canvas, paragraphs, PAD, CARD_HEIGHT - 2 * mm, CARD_WIDTH - 2 * PAD, BAND - 3 * mm, 13,
        ink=_ink_on(fill), align="centre", leading=1.15,
    )


def _card_id(canvas: Canvas, card_id: str) -> None:
    canvas.setFillColor(INK)
    _text(canvas, PAD, 3 * mm, card_id, SMALL)


def _placeholder(canvas: Canvas, lang: str) -> None:
    """The R20 mark: a red stamp at the bottom right and a note above it."""
    stamp = joined(each("card_placeholder", lang))
    size = fonts.fit_size(stamp, CARD_WIDTH / 2 - 2 * mm, 6.5, 3)
    w = fonts.width(stamp, size) + 2 * mm
    x = CARD_WIDTH - PAD - w
    canvas.setStrokeColor(PLACEHOLDER_INK)
    canvas.setFillColor(white)
    canvas.setLineWidth(1)
    canvas.rect(x, 2 * mm, w, size + 2 * mm, stroke=1, fill=1)
    canvas.setFillColor(PLACEHOLDER_INK)
    _text(canvas, x + 1 * mm, 3 * mm, stamp, size)
    canvas.setStrokeColor(INK)


# -- planet cards -----------------------------------------------------------------------------


def track_grid(length: int, width: float, height: float) -> tuple[int, int, float]:
    """Columns, rows and square size for ``length`` squares in a ``width`` x ``height`` area:
    the largest squares (up to ``SQUARE_MAX``), then the fewest rows, then the fewest columns.
    Any length fits: the squares only get smaller."""
    best: tuple[float, int, int] | None = None
    for columns in range(1, length + 1):
        rows = math.ceil(length / columns)
        size = min(
            (width - (columns - 1) * SQUARE_GAP) / columns,
            (height - (rows - 1) * SQUARE_GAP) / rows,
            SQUARE_MAX,
        )
        key = (round(size, 3), -rows, -columns)
        if best is None or key > (round(best[0], 3), -best[1], -best[2]):
            best = (size, rows, columns)
    assert best is not None
    size, rows, columns = best
    return columns, rows, size


#: The height of a planet card's abilities, between its track and its special square.
ABILITY_HEIGHT = 20 * mm


def draw_planet(canvas: Canvas, ruleset: Ruleset, card: PlanetCard, lang: str, bleed: float) -> None:
    _background(canvas, bleed)
    fill = colour_fill(card.colour)
    _band(canvas, fill, bleed, names(card.name, lang))
    # The colour by name, beside a swatch, for a black-and-white print.
    y = CARD_HEIGHT - BAND - 5.5 * mm
    canvas.setFillColor(fill)
    canvas.setStrokeColor(INK)
    canvas.rect(PAD, y - 0.5 * mm, 3.5 * mm, 3.5 * mm, stroke=1, fill=1)
    colour_text = joined(
        [say("card_colour", one, colour=colour_name(ruleset, card.colour, one)) for one in langs(lang)]
    )
    canvas.setFillColor(INK)
    _text(canvas, PAD + 5 * mm, y, colour_text, fonts.fit_size(colour_text, CARD_WIDTH - 2 * PAD - 5 * mm, 8, 3))
    # The normal squares 1..L, above the abilities' sentences when it has abilities.
    top = y - 3 * mm
    bottom = 16 * mm
    paragraphs = [sentence for one in langs(lang) for sentence in ability_sentences(card, ruleset, one)]
    if paragraphs:
        abilities_top = bottom + ABILITY_HEIGHT
        _text_block(canvas, paragraphs, PAD, abilities_top, CARD_WIDTH - 2 * PAD, ABILITY_HEIGHT - 1 * mm, 7, ink=INK)
        bottom = abilities_top + 1 * mm
    _track(canvas, card, lang, PAD, bottom, CARD_WIDTH - 2 * PAD, top - bottom)
    # The special square "0".
    _special(canvas, card, lang)
    _card_id(canvas, card.id)
    if card.placeholder:
        _placeholder(canvas, lang)


def _track(canvas: Canvas, card: PlanetCard, lang: str, x: float, y: float, width: float, height: float) -> None:
    columns, rows, size = track_grid(card.length, width, height)
    grid_w = columns * size + (columns - 1) * SQUARE_GAP
    grid_h = rows * size + (rows - 1) * SQUARE_GAP
    left = x + (width - grid_w) / 2
    top = y + height - (height - grid_h) / 2
    accident = joined(each("card_accident", lang), "/")
    vp_word = say("card_vp", "en")
    for index, vp in enumerate(card.track):
        row, column = divmod(index, columns)
        sx = left + column * (size + SQUARE_GAP)
        sy = top - (row + 1) * size - row * SQUARE_GAP
        canvas.setLineWidth(0.8)
        canvas.setStrokeColor(INK)
        canvas.setFillColor(ACCIDENT_FILL if vp == 0 else white)
        canvas.roundRect(sx, sy, size, size, size * 0.12, stroke=1, fill=1)
        ink = white if vp == 0 else INK
        canvas.setFillColor(ink)
        _text(canvas, sx + size * 0.08, sy + size * 0.74, str(index + 1), size * 0.2)
        if vp == 0:
            canvas.setStrokeColor(HexColor("#8a8a8a"))
            canvas.setLineWidth(max(0.5, size * 0.05))
            inset = size * 0.22
            canvas.line(sx + inset, sy + inset, sx + size - inset, sy + size - inset)
            canvas.line(sx + inset, sy + size - inset, sx + size - inset, sy + inset)
            canvas.setFillColor(white)
        _text(canvas, sx + size / 2, sy + size * 0.33, str(vp), size * 0.42, "centre")
        word = accident if vp == 0 else vp_word
        _text(canvas, sx + size / 2, sy + size * 0.08, word, fonts.fit_size(word, size * 0.9, size * 0.17, 1), "centre")


def _special(canvas: Canvas, card: PlanetCard, lang: str) -> None:
    radius = 3.6 * mm
    cx = PAD + radius
    cy = 10.5 * mm
    canvas.setStrokeColor(INK)
    canvas.setFillColor(HexColor("#fff3c4"))
    canvas.setLineWidth(1)
    canvas.setDash(2, 1.5)
    canvas.circle(cx, cy, radius, stroke=1, fill=1)
    canvas.setDash()
    canvas.setFillColor(INK)
    _text(canvas, cx, cy - 3.2, say("card_special_mark", "en"), 9, "centre")
    text = joined([say("card_special", one, capacity=card.special_capacity) for one in langs(lang)])
    x = cx + radius + 2 * mm
    _text_block(canvas, [text], x, cy + radius, CARD_WIDTH - PAD - x, 2 * radius, 7, ink=INK)


# -- crew cards -------------------------------------------------------------------------------


def draw_crew(canvas: Canvas, ruleset: Ruleset, card: CrewCard, lang: str, bleed: float) -> None:
    _background(canvas, bleed)
    _band(canvas, CREW_BAND, bleed, names(card.name, lang))
    # The survey count in a circle.
    radius = 6 * mm
    cx = PAD + radius
    cy = CARD_HEIGHT - BAND - 3 * mm - radius
    canvas.setStrokeColor(PLACEHOLDER_INK if card.placeholder else INK)
    canvas.setLineWidth(1.4)
    canvas.setFillColor(white)
    if card.placeholder:
        canvas.setDash(3, 2)
    canvas.circle(cx, cy, radius, stroke=1, fill=1)
    canvas.setDash()
    canvas.setFillColor(INK)
    count = str(card.survey_count) + ("*" if card.placeholder else "")
    _text(canvas, cx, cy - 6, count, 17, "centre")
    survey = joined(each("card_survey", lang))
    _text(canvas, cx, cy - radius - 2.8 * mm, survey, fonts.fit_size(survey, 2 * radius + 4 * mm, 6.5, 3), "centre")
    right = cx + radius + 3 * mm
    if card.always_in_play:
        canvas.setFillColor(HexColor("#fff3c4"))
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        box_h = 2 * radius
        canvas.roundRect(right, cy - radius, CARD_WIDTH - PAD - right, box_h, 2 * mm, stroke=1, fill=1)
        _text_block(
            canvas, each("card_always", lang), right + 1.5 * mm, cy + radius,
            CARD_WIDTH - PAD - right - 3 * mm, box_h, 9, ink=INK, align="centre",
        )
    # The skill, in the sentences of `stargazer rules`.
    skill_top = cy - radius - 5 * mm
    skill_bottom = 9 * mm if not card.placeholder else 12 * mm
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.6)
    canvas.setFillColor(HexColor("#f4f6f8"))
    canvas.roundRect(PAD - 1 * mm, skill_bottom, CARD_WIDTH - 2 * PAD + 2 * mm, skill_top - skill_bottom, 2 * mm, stroke=1, fill=1)
    paragraphs = [sentence for one in langs(lang) for sentence in skill_sentences(card, ruleset, one)]
    _text_block(
        canvas, paragraphs, PAD + 0.5 * mm, skill_top - 1.5 * mm, CARD_WIDTH - 2 * PAD - 1 * mm,
        skill_top - skill_bottom - 3 * mm, 8.5, ink=INK,
    )
    _card_id(canvas, card.id)
    if card.placeholder:
        note = joined(each("card_placeholder_note", lang), " ")
        canvas.setFillColor(PLACEHOLDER_INK)
        _text(canvas, PAD, 8 * mm, note, fonts.fit_size(note, CARD_WIDTH - 2 * PAD, 6, 2.5))
        _placeholder(canvas, lang)


# -- player aids ------------------------------------------------------------------------------


def aid_paragraphs(ruleset: Ruleset, lang: str) -> list[str]:
    """The player aid's lines in one language: the turn in three steps, the end, the score."""
    full = full_planets_text(ruleset, lang)
    return [
        say("aid_step1", lang, free_vp=ruleset.free_cube_vp, player_vp=ruleset.player_cube_vp),
        say("aid_step2", lang),
        say("aid_step3", lang),
        say("aid_end", lang, full=full) if ruleset.end == DRAFT7_END else say("aid_end_conditions", lang, conditions=end_conditions_text(ruleset, lang)),
        say("aid_score", lang),
    ]


def full_planets_text(ruleset: Ruleset, lang: str) -> str:
    """The filled-Planets end condition (R10), one number or one per player count."""
    values = {setup.full_planets_to_end for setup in ruleset.setups.values()}
    if len(values) == 1:
        return str(values.pop())
    return join(
        (
            say("full_by_players", lang, players=count, full=ruleset.setups[count].full_planets_to_end)
            for count in ruleset.player_counts
        ),
        lang,
    )


#: The largest size of the player aid's text, in points.
AID_SIZE = 8


def aid_text_box() -> tuple[float, float, float, float]:
    """The box of the player aid's text: (x, top, width, height), below the band and above
    the card's id."""
    top = CARD_HEIGHT - BAND - 3 * mm
    return PAD, top, CARD_WIDTH - 2 * PAD, top - 8 * mm


def draw_aid(canvas: Canvas, ruleset: Ruleset, number: int, lang: str, bleed: float) -> None:
    _background(canvas, bleed)
    _band(canvas, AID_BAND, bleed, each("aid_title", lang))
    paragraphs = [line for one in langs(lang) for line in aid_paragraphs(ruleset, one)]
    _text_block(canvas, paragraphs, *aid_text_box(), AID_SIZE, ink=INK)
    _card_id(canvas, f"aid-{number}")


# -- backs ------------------------------------------------------------------------------------


def draw_back(canvas: Canvas, ruleset: Ruleset, kind: str, lang: str, bleed: float) -> None:
    """The back of a card of ``kind``: the game's title, the kind, an orbit emblem."""
    fill = BACKS[kind]
    _background(canvas, bleed, fill)
    canvas.setStrokeColor(HexColor("#d8c88a"))
    canvas.setLineWidth(1.2)
    inset = 3 * mm
    canvas.roundRect(inset, inset, CARD_WIDTH - 2 * inset, CARD_HEIGHT - 2 * inset, 3 * mm, stroke=1, fill=0)
    cx, cy = CARD_WIDTH / 2, CARD_HEIGHT / 2 + 4 * mm
    canvas.setLineWidth(0.8)
    canvas.ellipse(cx - 22 * mm, cy - 7 * mm, cx + 22 * mm, cy + 7 * mm, stroke=1, fill=0)
    canvas.setFillColor(HexColor("#d8c88a"))
    canvas.circle(cx, cy, 9 * mm, stroke=0, fill=1)
    canvas.setFillColor(fill)
    canvas.circle(cx + 3 * mm, cy + 3 * mm, 7.5 * mm, stroke=0, fill=1)
    _text_block(
        canvas, names(ruleset.title, lang), PAD, CARD_HEIGHT - 8 * mm, CARD_WIDTH - 2 * PAD, 16 * mm, 12,
        ink=white, align="centre",
    )
    _text_block(
        canvas, each(f"kind_{kind}", lang), PAD, 26 * mm, CARD_WIDTH - 2 * PAD, 14 * mm, 14, ink=white,
        align="centre",
    )


def draw_face(canvas: Canvas, ruleset: Ruleset, card: PrintCard, lang: str, bleed: float) -> None:
    """The face of ``card``."""
    if card.kind == PLANET:
        draw_planet(canvas, ruleset, ruleset.planets[card.index], lang, bleed)
    elif card.kind == CREW:
        draw_crew(canvas, ruleset, ruleset.crew[card.index], lang, bleed)
    else:
        draw_aid(canvas, ruleset, card.index + 1, lang, bleed)
