"""How figures are written for a person: card names, percentages, intervals, HTML anchors, and
the words of every identifier a page or the terminal shows (an engine, a method, the kind of
figure a finding is about, an end condition, a comparison metric)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from stargazer_rules.text.messages import trigger_name

if TYPE_CHECKING:
    from stargazer_rules.analysis.summary_view import Rate, SummaryView

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")

#: The engine whose bots played (summary.json's ``run.engine``).
ENGINES = {
    "native": "native kernel (the bots searched in Rust)",
    "python": "Python engine",
    "mixed": "mixed: some games by each engine",
}

#: How a comparison metric's difference was found (comparison.json's ``metrics[].method``).
METHODS = {
    "paired": "paired by game",
    "bootstrap": "paired bootstrap",
    "newcombe": "Newcombe (independent)",
    "welch": "Welch (independent)",
    "none": "side by side",
}

#: The id of a comparison metric of an end condition is this and the condition's id.
_TRIGGER_METRIC = "pace.trigger."


def end_condition(trigger: str) -> str:
    """Why games ended (summary.json's ``pace.triggers``), in the words of the game's messages."""
    return trigger_name(trigger, "en")


def metric_label(metric: Mapping[str, Any]) -> str:
    """A comparison metric's words: its own label; an end condition's names the condition in
    words (its label in comparison.json is built from the condition's id)."""
    ident = metric["id"]
    if ident.startswith(_TRIGGER_METRIC):
        return f"Games ending because {end_condition(ident.removeprefix(_TRIGGER_METRIC))}"
    return metric["label"]


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
