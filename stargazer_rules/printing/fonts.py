"""The font every printed page uses, and fitting text into a box.

Japanese must render wherever the package is pip-installed, so the font is a TrueType file that
ships in a PyPI package and is embedded (subset) in every PDF: IPAexGothic, from
``japanize-matplotlib``. Its IPA Font License v1.0 lets a PDF embed it with no further
obligations for the PDF (Article 2.5). The package is located with ``importlib.util.find_spec``
and never imported: importing it changes matplotlib's settings and needs ``distutils``.
ReportLab's built-in CID fonts are not embedded and do not rasterise reliably, so they are not
used. One face covers Japanese and Latin, so mixed text needs no font switching.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from stargazer_rules.errors import FontError, install_line
from stargazer_rules.text.lines import wrap_text

#: The name the font is registered under with ReportLab.
FONT = "IPAexGothic"
#: The package that ships the font, and the file inside it.
FONT_PACKAGE = "japanize_matplotlib"
FONT_FILE = ("fonts", "ipaexg.ttf")



def font_path() -> Path:
    """The TrueType file, inside the installed font package."""
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FontError(
            f"the Japanese font comes with the package {FONT_PACKAGE.replace('_', '-')}; "
            f"install it with the print extra: {install_line('print')}"
        )
    path = Path(next(iter(spec.submodule_search_locations)), *FONT_FILE)
    if not path.is_file():
        raise FontError(f"no font file at {path}")
    return path


@functools.cache
def register_font() -> str:
    """Register the font with ReportLab once; its name."""
    pdfmetrics.registerFont(TTFont(FONT, str(font_path())))
    return FONT


def width(text: str, size: float) -> float:
    """The width of ``text`` in points at ``size``."""
    return pdfmetrics.stringWidth(text, register_font(), size)


def fit_size(text: str, max_width: float, size: float, minimum: float) -> float:
    """The largest size up to ``size`` at which ``text`` fits on one line in ``max_width``,
    but not below ``minimum``."""
    current = width(text, size)
    if current <= max_width or current == 0:
        return size
    return max(minimum, size * max_width / current)


def wrap(text: str, size: float, max_width: float) -> list[str]:
    """``text`` in lines no wider than ``max_width`` at ``size`` (``text.lines.wrap_text``,
    measured in points); a word wider than the line is cut between characters rather than
    running off the card."""
    return wrap_text(text, max_width, lambda part: width(part, size), cut_long_words=True)


def fit_paragraphs(
    paragraphs: Sequence[str], max_width: float, max_height: float, size: float, leading: float = 1.25
) -> tuple[float, list[list[str]]]:
    """The largest size up to ``size`` at which the wrapped ``paragraphs`` fit in the box, and
    their lines. It shrinks as far as needed: text is never cut off."""
    while True:
        wrapped = [wrap(paragraph, size, max_width) for paragraph in paragraphs]
        lines = sum(len(paragraph) for paragraph in wrapped)
        gaps = max(0, len(paragraphs) - 1) * 0.35
        if (lines + gaps) * size * leading <= max_height or size <= 1:
            return size, wrapped
        size *= 0.93
