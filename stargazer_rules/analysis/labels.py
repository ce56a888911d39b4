"""How figures are written for a person: card names, percentages, intervals, HTML anchors."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stargazer_rules.analysis.summary_view import Rate, SummaryView

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def both_names(summary: SummaryView, kind: str, card_id: str) -> str:
    """ "Navigator 航法士": the English and the Japanese name (``kind`` is ``crew``, ``planets``
    or ``colours``), or the id alone."""
    en, ja = summary.name(kind, card_id, "en"), summary.name(kind, card_id, "ja")
    return en if en == ja else f"{en} {ja}"


def anchor(kind: str, card_id: str = "") -> str:
    """The HTML id of a figure: ``crew-navigator``, ``planet-lava-1``, ``seats``."""
    return f"{kind}-{_UNSAFE.sub('_', card_id)}" if card_id else kind


def pct(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{100 * value:.{digits}f}%"


#: Below this a p-value is shown as "< 0.001": more digits would claim a precision (and a 0
#: would claim a certainty) that a test over a few thousand games does not have.
P_FLOOR = 0.001


def p_number(p: float | None) -> str:
    """A p-value for a table cell: ``0.004``, ``< 0.001``, ``n/a``."""
    if p is None:
        return "n/a"
    return f"< {P_FLOOR:g}" if p < P_FLOOR else f"{p:.2g}"


def p_value(p: float | None) -> str:
    """A p-value in a sentence: ``p = 0.004``, ``p < 0.001``."""
    text = p_number(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def points(value: float | None, digits: int = 1, sign: bool = False) -> str:
    """A difference of shares in percentage points: ``+4.2``."""
    if value is None:
        return "n/a"
    return f"{100 * value:+.{digits}f}" if sign else f"{100 * value:.{digits}f}"


def interval(figure: Rate, digits: int = 1) -> str:
    """A rate's Wilson interval in percent, ``[29.4, 33.1]``."""
    if figure.low is None or figure.high is None:
        return "[n/a]"
    return f"[{100 * figure.low:.{digits}f}, {100 * figure.high:.{digits}f}]"


def rate_text(figure: Rate, digits: int = 1) -> str:
    """ "31.2% [29.4, 33.1]"."""
    return f"{pct(figure.rate, digits)} {interval(figure, digits)}"


def number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "n/a"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"
