"""Where cards go on a sheet of paper: the card and bleed sizes, the grid that fits the paper,
the mirrored grid of the backs (duplex), crop marks and the page footer's band.

Poker-size cards (63 x 88 mm) with a 3 mm bleed on every side: each card's artwork reaches
3 mm past its cut line, so a cut a little off the line shows no white edge. The cells touch,
so two cut lines 6 mm apart separate neighbouring cards. Crop marks sit in the margin outside
the grid, one per cut line. The grid is the one that holds the most cards, portrait or
landscape: on A4 that is 4 x 2 landscape (8 cards), on Letter 3 x 2 landscape (6 cards).

Backs are printed on the page after their faces, mirrored left to right, so that a duplex
print flipped on the page's vertical axis puts every back behind its face (landscape: flip on
the short edge; portrait: on the long edge). The margins are equal left and right, so the
mirror lands exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

#: A millimetre in points (1/72 inch), computed as ``reportlab.lib.units.mm`` is: the layout
#: is plain numbers, so the command line reads the paper names without ReportLab installed.
mm = 72.0 / 2.54 * 0.1

#: Poker size, the cut size of a card.
CARD_WIDTH = 63 * mm
CARD_HEIGHT = 88 * mm
#: Artwork past the cut line on every side.
BLEED = 3 * mm
#: The least margin between the paper's edge and the grid: room for the crop marks and for
#: the unprintable edge of a home printer.
MARGIN = 6 * mm
#: The band at the bottom of every page that holds the footer (title, name, fingerprint).
FOOTER_BAND = 7 * mm
#: Crop marks: a gap from the grid, then a line this long.
CROP_GAP = 1 * mm
CROP_LENGTH = 4 * mm

#: Each paper's (width, height) in points, portrait: ISO 216 A4 and US Letter, as in
#: ``reportlab.lib.pagesizes``.
PAPERS = {"a4": (210 * mm, 297 * mm), "letter": (8.5 * 72.0, 11 * 72.0)}


def portrait(size: tuple[float, float]) -> tuple[float, float]:
    return (min(size), max(size))


def landscape(size: tuple[float, float]) -> tuple[float, float]:
    return (max(size), min(size))


@attrs.frozen
class SheetLayout:
    """A grid of ``columns`` x ``rows`` card cells (card plus bleed) centred on a page of
    ``page`` (width, height) in points, above the footer band."""

    page: tuple[float, float]
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def cell(self) -> tuple[float, float]:
        return CARD_WIDTH + 2 * BLEED, CARD_HEIGHT + 2 * BLEED

    @property
    def grid_origin(self) -> tuple[float, float]:
        """The bottom-left corner of the grid (of the bleed of its bottom-left card)."""
        width, height = self.page
        cell_w, cell_h = self.cell
        left = (width - self.columns * cell_w) / 2
        room = height - FOOTER_BAND - MARGIN
        bottom = FOOTER_BAND + (room - self.rows * cell_h) / 2
        return left, bottom

    def card_origin(self, slot: int, back: bool = False) -> tuple[float, float]:
        """The bottom-left corner of the cut line of the card in ``slot`` (0 = top left, row by
        row); on a back page the column is mirrored."""
        row, column = divmod(slot, self.columns)
        if back:
            column = self.columns - 1 - column
        left, bottom = self.grid_origin
        cell_w, cell_h = self.cell
        return (
            left + column * cell_w + BLEED,
            bottom + (self.rows - 1 - row) * cell_h + BLEED,
        )

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical cut line and the y of every horizontal one."""
        xs = sorted({x for slot in range(self.columns) for x in self._xs(slot)})
        ys = sorted(
            {y for slot in range(0, self.per_page, self.columns) for y in self._ys(slot)}
        )
        return xs, ys

    def _xs(self, slot: int) -> tuple[float, float]:
        x, _ = self.card_origin(slot)
        return x, x + CARD_WIDTH

    def _ys(self, slot: int) -> tuple[float, float]:
        _, y = self.card_origin(slot)
        return y, y + CARD_HEIGHT

    def draw_crop_marks(self, canvas: Canvas) -> None:
        """Short hairlines in the margin, in line with every cut, on all four sides."""
        left, bottom = self.grid_origin
        cell_w, cell_h = self.cell
        right = left + self.columns * cell_w
        top = bottom + self.rows * cell_h
        xs, ys = self.cut_lines()
        canvas.saveState()
        canvas.setLineWidth(0.3)
        canvas.setStrokeGray(0)
        for x in xs:
            canvas.line(x, top + CROP_GAP, x, top + CROP_GAP + CROP_LENGTH)
            canvas.line(x, bottom - CROP_GAP, x, bottom - CROP_GAP - CROP_LENGTH)
        for y in ys:
            canvas.line(left - CROP_GAP, y, left - CROP_GAP - CROP_LENGTH, y)
            canvas.line(right + CROP_GAP, y, right + CROP_GAP + CROP_LENGTH, y)
        canvas.restoreState()


def _grid(page: tuple[float, float]) -> SheetLayout:
    width, height = page
    cell_w = CARD_WIDTH + 2 * BLEED
    cell_h = CARD_HEIGHT + 2 * BLEED
    columns = int((width - 2 * MARGIN) // cell_w)
    rows = int((height - 2 * MARGIN - FOOTER_BAND) // cell_h)
    return SheetLayout(page=(width, height), columns=max(columns, 0), rows=max(rows, 0))


def sheet_layout(paper: str) -> SheetLayout:
    """The grid for ``paper`` (``a4`` or ``letter``): portrait or landscape, whichever holds
    more cards (portrait on a tie)."""
    try:
        size = PAPERS[paper]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}; the choices are {', '.join(PAPERS)}") from None
    options = [_grid(portrait(size)), _grid(landscape(size))]
    return max(options, key=lambda layout: layout.per_page)
