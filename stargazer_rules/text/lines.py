"""Text in lines: how wide a text is in a terminal, where a line may break, and the one wrapper
that both the terminal (columns) and the printed cards (points, ``printing.fonts.wrap``) use.

Lines break at spaces, and between two wide (Japanese) characters except before closing
punctuation and after an opening bracket (kinsoku); a width is whatever ``measure`` says, display columns by default.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

#: Characters a line must not start with (Japanese line breaking, kinsoku): they stay with
#: the character before them.
_NO_LINE_START = frozenset("、。，．）」』：；！？ー・,.;:!?)")
#: Characters a line must not end with: opening brackets stay with the character after them.
_NO_LINE_END = frozenset("（「『(")


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide and full-width characters take two, combining none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def wrap_text(
    text: str,
    width: float,
    measure: Callable[[str], float] = display_width,
    cut_long_words: bool = False,
) -> list[str]:
    """``text`` in lines at most ``width`` wide as ``measure`` counts it (display columns).

    A word wider than a line stays whole, overflowing, unless ``cut_long_words``: then it is
    cut between characters (a printed card has no room past its edge; a terminal does).
    """
    lines: list[str] = []
    line = ""
    for token in line_break_tokens(text):
        if token == " ":
            line += token if line else ""
            continue
        if line and measure(line + token) > width:
            lines.append(line.rstrip())
            line = ""
        while cut_long_words and len(token) > 1 and measure(token) > width:
            cut = _longest_prefix(token, width, measure)
            lines.append(token[:cut])
            token = token[cut:]
        line += token
    lines.append(line.rstrip())
    return lines


def _longest_prefix(token: str, width: float, measure: Callable[[str], float]) -> int:
    cut = 1
    while cut < len(token) and measure(token[: cut + 1]) <= width:
        cut += 1
    return cut


def line_break_tokens(text: str) -> list[str]:
    """``text`` cut where a line may break: single spaces, runs of narrow (Latin) characters,
    and each wide (Japanese) character, closing punctuation kept with what it closes and an
    opening bracket with what it opens."""
    tokens: list[str] = []
    for char in text:
        if tokens and (
            char in _NO_LINE_START
            or tokens[-1][-1] in _NO_LINE_END
            or (_narrow_text(char) and _narrow_text(tokens[-1][-1]))
        ):
            tokens[-1] += char
        else:
            tokens.append(char)
    return tokens


def _narrow_text(char: str) -> bool:
    return char != " " and display_width(char) == 1
