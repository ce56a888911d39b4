"""The rules sheet: the setup, the turn in three steps, the end condition and the scoring
(R15-R18) in the game's own words, with the numbers of this ruleset (setup counts per player
count, cubes per player, free cubes, the crew cap, ...) filled in from its knobs. Its two tables are the ones ``stargazer rules`` prints
(``text.tables``). Laid out in two columns with ReportLab's flowables, on as many pages as it
takes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer, Table, TableStyle

from stargazer_rules.printing import fonts
from stargazer_rules.printing.cards import full_planets_text
from stargazer_rules.printing.layout import FOOTER_BAND, MARGIN
from stargazer_rules.printing.words import langs, say
from stargazer_rules.rulesets.model import DRAFT7_END, Ruleset
from stargazer_rules.text import tables
from stargazer_rules.text.messages import join, label, round_end_effects_sentence
from stargazer_rules.text.reports import ruleset_title
from stargazer_rules.text.tables import TextTable

#: The gap between the two columns.
GUTTER = 8 * mm
#: The font size of a heading (the body's is 8.6 to 9, the title's 15).
HEADING_SIZE = 11.5


#: What a Japanese line may not end with (kinsoku): an opening bracket goes down with what it opens.
CANNOT_END = "（「『【〔［｛〈《"


class _JapaneseParagraph(Paragraph):
    """A paragraph wrapped as Japanese is: ReportLab keeps a closing mark off a line's start
    but lets an opening bracket end a line ("…とばす（" / "1位、…）"), so such a bracket is
    carried down to the next line, and any character the next line then has no room for on
    down to the one after."""

    def breakLinesCJK(self, maxWidths):  # noqa: N802 (ReportLab's name)
        para = super().breakLinesCJK(maxWidths)
        if para.kind != 0 or not para.lines:
            return para
        width = functools.partial(stringWidth, fontName=self.style.fontName, fontSize=self.style.fontSize)
        lines = [[space, "".join(words)] for space, words in para.lines]
        index = 0
        while index < len(lines) - 1:
            space, text = lines[index]
            if len(text) > 1 and text[-1] in CANNOT_END:
                lines[index] = [space + width(text[-1]), text[:-1]]
                lines[index + 1] = [lines[index + 1][0] - width(text[-1]), text[-1] + lines[index + 1][1]]
            if lines[index + 1][0] < 0 and len(lines[index + 1][1]) > 1:  # carried over: the last one goes down
                space, text = lines[index + 1]
                lines[index + 1] = [space + width(text[-1]), text[:-1]]
                if index + 2 == len(lines):
                    lines.append([maxWidths[-1], ""])
                lines[index + 2] = [lines[index + 2][0] - width(text[-1]), text[-1] + lines[index + 2][1]]
            index += 1
        para.lines = [(space, [text]) for space, text in lines]
        return para


def _paragraph(text: str, style: ParagraphStyle) -> Paragraph:
    """``text`` as a paragraph of ``style``, wrapped as Japanese where the style is."""
    kind = _JapaneseParagraph if style.wordWrap == "CJK" else Paragraph
    return kind(escape(text), style)


class _KeptTogether(Flowable):
    """Flowables drawn one below another and moved to the next column as one: a heading with
    the first paragraph or table under it, so that no heading is left alone at the foot of a
    column (``Frame.addFromList`` does not split a flowable, nor keep one with the next)."""

    def __init__(self, parts: list[Flowable]) -> None:
        super().__init__()
        self.parts = parts
        self._bottoms: list[float] = []

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        """The parts' heights and the gaps a frame would leave between them (the larger of one's
        space after and the next one's space before)."""
        total, self._bottoms = 0.0, []
        for index, part in enumerate(self.parts):
            if index:
                total += max(self.parts[index - 1].getSpaceAfter(), part.getSpaceBefore())
            total += part.wrap(available_width, available_height)[1]
            self._bottoms.append(total)
        self.width, self.height = available_width, total
        return self.width, self.height

    def getSpaceBefore(self) -> float:  # noqa: N802 (ReportLab's name)
        return self.parts[0].getSpaceBefore()

    def getSpaceAfter(self) -> float:  # noqa: N802 (ReportLab's name)
        return self.parts[-1].getSpaceAfter()

    def draw(self) -> None:
        for part, bottom in zip(self.parts, self._bottoms, strict=True):
            part.drawOn(self.canv, 0, self.height - bottom)


def _styles(lang: str) -> dict[str, ParagraphStyle]:
    font = fonts.register_font()
    wrap = "CJK" if lang == "ja" else None
    body = ParagraphStyle(
        f"body-{lang}", fontName=font, fontSize=9 if lang == "ja" else 8.6, leading=12.5,
        spaceAfter=3, wordWrap=wrap,
    )
    if lang == "en":
        body.textColor = HexColor("#333333")
    return {
        "body": body,
        "title": ParagraphStyle(f"title-{lang}", parent=body, fontSize=15, leading=19, spaceAfter=6, textColor=HexColor("#000000")),
        "heading": ParagraphStyle(
            f"heading-{lang}", parent=body, fontSize=HEADING_SIZE, leading=15, spaceBefore=6, spaceAfter=3,
            textColor=HexColor("#1b2a49"),
        ),
    }


def _cap_limit(ruleset: Ruleset, lang: str) -> str:
    """R11's cap as the round's end sentence says it."""
    cap = ruleset.unpicked_crews.cap
    if cap is None:
        return say("round_end_no_cap", lang)
    if ruleset.unpicked_crews.replaced:  # R11's at_cap: replaced
        return say("round_end_cap_replaced", lang, cap=cap, replaced=label("at_cap_replaced", lang))
    return say("round_end_cap", lang, cap=cap)


def _round_end_text(ruleset: Ruleset, lang: str) -> str:
    """R11 as the sheet says it: a number of free cubes with its noun ("1 free cube"), or the
    amount in words."""
    free = ruleset.unpicked_crews.free_cubes
    computed = type(free) is not int
    shown = tables.unpicked_free_cubes_text(ruleset, lang) if computed else max(0, free)
    return say("round_end", lang, free=shown, computed=computed, limit=_cap_limit(ruleset, lang))


def _end_text(ruleset: Ruleset, lang: str) -> str:
    """R10 as the sheet says it: draft 7's two conditions in its own words, any other ``end``
    read back from the data; then the round limit."""
    if ruleset.end == DRAFT7_END:
        return say("end_text", lang, full=full_planets_text(ruleset, lang), max_rounds=ruleset.max_rounds)
    return say("end_text_conditions", lang, conditions=tables.end_conditions_text(ruleset, lang), max_rounds=ruleset.max_rounds)


def _capacities(ruleset: Ruleset, lang: str) -> str:
    values = sorted({card.special_capacity for card in ruleset.planets})
    return say("capacity_list", lang, capacity=join((str(v) for v in values), lang))


def sheet_items(ruleset: Ruleset, lang: str) -> list[tuple[str, str]]:
    """The sheet's text in one language as (style, text) pairs, in order; a ``"table:NAME"``
    style stands for one of the tables."""
    always = join((card.name.in_lang(lang) for card in ruleset.crew if card.always_in_play), lang)
    items = [
        ("title", ruleset_title(ruleset, lang, "sheet_title", render=say)),
        ("heading", say("sheet_setup", lang)),
        ("body", say("setup_1", lang)),
        ("body", say("setup_2", lang, always=always)),
        ("body", say("setup_3", lang)),
        ("body", say("setup_4", lang, cubes=ruleset.cubes_per_player, free=ruleset.free_cubes)),
    ]
    if any(ruleset.starting_vp_by_position):
        items.append(("body", say("turn_order_vp", lang, values=tables.turn_order_vp_text(ruleset, lang))))
    if ruleset.setup_steps:
        items.append(("body", say("setup_steps", lang, steps=tables.setup_steps_text(ruleset, lang))))
    items += [
        ("table:setups", ""),
        ("heading", say("sheet_play", lang)),
        ("body", say("play_rounds", lang)),
        ("body", say("step_1", lang)),
        ("body", say("motivation", lang, free_vp=ruleset.free_cube_vp, player_vp=ruleset.player_cube_vp)),
        ("body", say("special" if ruleset.bonus.counts_special else "special_uncounted", lang, capacity=_capacities(ruleset, lang))),
        ("body", say("step_2", lang)),
    ]
    if ruleset.survey_minimum > 0:
        items.append(("body", say("survey_minimum", lang, minimum=ruleset.survey_minimum)))
    items += [
        ("body", say("step_3", lang)),
        ("heading", say("sheet_end", lang)),
        *(("body", text) for text in (round_end_effects_sentence(ruleset, lang),) if text is not None),
        ("body", _end_text(ruleset, lang)),
        ("body", _round_end_text(ruleset, lang)),
        ("heading", say("sheet_scoring", lang)),
        *(("body", paragraph) for paragraph in tables.majority_paragraphs(ruleset, lang)),
        ("body", tables.bonus_paragraph(ruleset, lang)),
        *([("body", say("end_scoring", lang, lines=tables.end_scoring_text(ruleset, lang)))] if ruleset.end_scoring else []),
        ("body", say("score_r18", lang)),
        ("heading", say("sheet_counts", lang)),
        ("table:counts", ""),
    ]
    if any(card.placeholder for card in (*ruleset.planets, *ruleset.crew)):
        items.append(("body", say("sheet_placeholder", lang)))
    items.append(("body", say("duplex_note", lang)))
    return items


#: The tables of the sheet, by the name in its ``"table:NAME"`` items: ``stargazer rules``' own.
_TABLES: dict[str, Callable[[Ruleset, str], TextTable]] = {
    "counts": tables.counts_table,
    "setups": tables.setups_table,
}


def _table(text: TextTable, style: ParagraphStyle, width: float) -> Table:
    """A ``text.tables`` table as a ReportLab table, its header row (if any) first."""
    rows = [*([text.headers] if text.headers is not None else []), *text.rows]
    cells = [[_paragraph(cell, style) for cell in row] for row in rows]
    table = Table(cells, colWidths=[width / len(rows[0])] * len(rows[0]), hAlign="LEFT")
    table.setStyle(
        TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.4, HexColor("#888888")),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ])
    )
    return table


def sheet_story(ruleset: Ruleset, lang: str, column_width: float) -> list[Flowable]:
    """The sheet as flowables; with ``both``, each paragraph in Japanese then in English."""
    shown = langs(lang)
    per_lang = {one: sheet_items(ruleset, one) for one in shown}
    styles = {one: _styles(one) for one in shown}
    story: list[Flowable] = []
    headings: list[Flowable] = []  # waiting for what follows them
    for index, (kind, _) in enumerate(per_lang[shown[0]]):
        for one in shown:
            style_name, text = per_lang[one][index]
            if kind.startswith("table:"):
                table = _TABLES[kind.split(":", 1)[1]](ruleset, one)
                flowables: list[Flowable] = [_table(table, styles[one]["body"], column_width), Spacer(1, 2 * mm)]
            else:
                flowables = [_paragraph(text, styles[one][style_name])]
            if kind == "heading":
                headings += flowables
            elif headings:
                story += [_KeptTogether([*headings, flowables[0]]), *flowables[1:]]
                headings = []
            else:
                story += flowables
    return story + headings


def draw_sheet(
    canvas: Canvas, ruleset: Ruleset, lang: str, page: tuple[float, float], footer: Callable[[Canvas], None]
) -> int:
    """Draw the rules sheet on new pages of ``canvas``, two columns a page, each page ended with
    ``footer``; the number of pages drawn."""
    width, height = page
    column = (width - 2 * MARGIN - 2 * 4 * mm - GUTTER) / 2
    story = sheet_story(ruleset, lang, column - 12)
    pages = 0
    canvas.setPageSize(page)
    while story:
        for k in range(2):
            frame = Frame(
                MARGIN + 4 * mm + k * (column + GUTTER), FOOTER_BAND + 2 * mm, column,
                height - FOOTER_BAND - 2 * mm - MARGIN - 4 * mm,
            )
            frame.addFromList(story, canvas)
        footer(canvas)
        canvas.showPage()
        pages += 1
    return pages
