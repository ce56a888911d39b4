"""The characters a name may not hold, and text made safe to print whatever it holds.

A name is printed to terminals, PDF cards and web pages. A control character (C0, DEL, C1)
moves the cursor, rings the bell or clears the screen (``\\u001b[2J``); a bidirectional
override or isolate (U+202A..U+202E, U+2066..U+2069, and the marks U+200E, U+200F, U+061C)
turns the text after it around; a lone surrogate (a YAML escape ``"\\ud83d"`` that is half of a
character) cannot be encoded, so printing it fails. The schemas refuse names holding any of
them (``NAME_PATTERN``), and every printer shows text through ``printable``, which writes each
such character as its escape, so a name that reached a printer some other way (a ruleset built
in Python) is shown, never obeyed.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["NAME_PATTERN", "forbidden_character", "printable"]

#: The characters refused in names, as a regular-expression class body (escapes, so that the
#: schema files stay ASCII).
_FORBIDDEN = r"\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"

#: The schemas' pattern of a name: none of the characters above.
NAME_PATTERN = f"^[^{_FORBIDDEN}]*$"

_FORBIDDEN_CHARACTER = re.compile(f"[{_FORBIDDEN}]")


def forbidden_character(text: str) -> tuple[int, str, str] | None:
    """The first character of ``text`` a name may not hold: its 1-based place, what it is
    (``U+001B, a control character``) and what to write instead; None when there is none."""
    found = _FORBIDDEN_CHARACTER.search(text)
    if found is None:
        return None
    char, place = found.group(), found.start()
    code = ord(char)
    if 0xD800 <= code <= 0xDBFF and text[place + 1 : place + 2] and 0xDC00 <= ord(text[place + 1]) <= 0xDFFF:
        whole = 0x10000 + ((code - 0xD800) << 10) + (ord(text[place + 1]) - 0xDC00)
        return (
            place + 1,
            f"U+{code:04X}, half of a character written as two escapes",
            f"write the character itself, or the one escape \\U{whole:08X}",
        )
    if 0xD800 <= code <= 0xDFFF:
        return place + 1, f"U+{code:04X}, half of a character", "delete it"
    if unicodedata.category(char) == "Cc":
        return place + 1, f"U+{code:04X}, a control character", "delete it"
    name = unicodedata.name(char, "direction mark").lower()
    return place + 1, f"U+{code:04X} ({name}), a direction control that reorders the text around it", "delete it"


def printable(text: str) -> str:
    """``text`` with every character a name may not hold written as its escape (``\\u001b``)."""
    return _FORBIDDEN_CHARACTER.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
