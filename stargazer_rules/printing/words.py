"""The words of the printed prototype: its own catalogue (``printing/messages.yaml``), read
with the same catalogue code as every other text (``stargazer_rules.text.messages``), and the three
language choices of ``stargazer print``: Japanese, English, or both on one card."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from stargazer_rules.rulesets.model import Name
from stargazer_rules.text.messages import Catalogue, load_catalogue

#: ``--lang`` of ``stargazer print``: a language of the catalogue, or both on one card.
BOTH = "both"
PRINT_LANGS = ("ja", "en", BOTH)

CATALOGUE_PATH = Path(__file__).with_name("messages.yaml")


@functools.cache
def catalogue() -> Catalogue:
    return load_catalogue(CATALOGUE_PATH)


def langs(lang: str) -> tuple[str, ...]:
    """The languages one printed card shows, in order."""
    if lang == BOTH:
        return ("ja", "en")
    if lang not in PRINT_LANGS:
        raise ValueError(f"unknown language {lang!r}; the choices are {', '.join(PRINT_LANGS)}")
    return (lang,)


def say(key: str, lang: str, **params: Any) -> str:
    """An entry of the printing catalogue in one language, filled with ``params``."""
    return catalogue().section("labels")[key].render(lang, params, params)


def each(key: str, lang: str, **params: Any) -> list[str]:
    """An entry in every language of ``lang`` (one for ja/en, two for both)."""
    return [say(key, one, **params) for one in langs(lang)]


def names(name: Name, lang: str) -> list[str]:
    """A name in every language of ``lang``; a name that reads the same in both is shown once."""
    shown = [name.in_lang(one) for one in langs(lang)]
    return list(dict.fromkeys(shown))


def joined(texts: list[str], separator: str = " / ") -> str:
    return separator.join(dict.fromkeys(texts))
