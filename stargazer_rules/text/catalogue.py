"""The message catalogue and its one template language: what every text for people is filled from.

``messages.yaml`` holds every text the library shows a person, in Japanese and English, as
templates (``Template``: a text per language, and ``cases`` for particular parameter values)
grouped in sections. ``fill`` is the template language: ``str.format`` with plain names plus
``{n:cube|cubes}`` for a number and its noun. ``text.language`` (the rules language's
phrases) and ``text.messages`` (events, actions, skills) both render from here.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from stargazer_rules.errors import counted

#: The languages of the catalogue.
LANGS = ("ja", "en")

#: The catalogue file, package data next to this module.
CATALOGUE_PATH = Path(__file__).with_name("messages.yaml")

# -- the catalogue --------------------------------------------------------------------------


@attrs.frozen
class Case:
    """A variant of a template, used when every parameter in ``when`` has the given value."""

    when: Mapping[str, Any]
    texts: Mapping[str, str]

    def matches(self, params: Mapping[str, Any]) -> bool:
        return all(key in params and params[key] == value for key, value in self.when.items())


@attrs.frozen
class Template:
    """One catalogue entry: a text per language (``texts``, empty when only ``cases`` exist)
    and the ``cases`` that replace it for particular parameter values, first match first."""

    key: str
    texts: Mapping[str, str]
    cases: tuple[Case, ...] = ()

    def forms(self) -> Iterable[tuple[Mapping[str, Any], Mapping[str, str]]]:
        """Every form as ``(when, texts)``: the cases, then the default (``when`` empty)."""
        for case in self.cases:
            yield case.when, case.texts
        if self.texts:
            yield {}, self.texts

    def render(self, lang: str, params: Mapping[str, Any], values: Mapping[str, Any]) -> str:
        """The text for ``params`` (matched against the cases) filled with display ``values``."""
        for case in self.cases:
            if case.matches(params):
                return fill(case.texts[lang], values)
        if not self.texts:
            raise ValueError(f"message {self.key!r} has no case for {dict(params)!r}")
        return fill(self.texts[lang], values)


@attrs.frozen
class Catalogue:
    """The message catalogue: section name -> entry key -> ``Template``."""

    sections: Mapping[str, Mapping[str, Template]]

    def section(self, name: str) -> Mapping[str, Template]:
        return self.sections[name]

    def get(self, section: str, key: str) -> Template | None:
        return self.sections.get(section, {}).get(key)


def load_catalogue(path: str | Path = CATALOGUE_PATH) -> Catalogue:
    """Read a catalogue file; ``ValueError`` when an entry lacks a language."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    sections: dict[str, dict[str, Template]] = {}
    for section, entries in data.items():
        sections[section] = {
            key: _template(f"{section}.{key}", entry) for key, entry in entries.items()
        }
    return Catalogue(sections)


def _template(where: str, entry: Mapping[str, Any]) -> Template:
    texts = _texts(where, entry, optional=True)
    cases = tuple(
        Case(dict(case["when"]), _texts(f"{where}.cases[{index}]", case, optional=False))
        for index, case in enumerate(entry.get("cases", ()))
    )
    if not texts and not cases:
        raise ValueError(f"{where}: a message needs texts in {' and '.join(LANGS)}, or cases")
    return Template(where.split(".", 1)[1], texts, cases)


def _texts(where: str, entry: Mapping[str, Any], optional: bool) -> dict[str, str]:
    texts = {lang: entry[lang] for lang in LANGS if lang in entry}
    if optional and not texts:
        return {}
    missing = [lang for lang in LANGS if not isinstance(texts.get(lang), str)]
    if missing:
        raise ValueError(f"{where}: no text in {', '.join(missing)}")
    for lang, text in texts.items():
        try:
            _parts(text)
        except ValueError as error:
            raise ValueError(f"{where}.{lang}: {error}") from None
    return texts


@functools.cache
def catalogue() -> Catalogue:
    """The bundled catalogue, read once."""
    return load_catalogue()


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text.format(**values)`` plus ``{n:cube|cubes}``: the number, then the singular or plural noun.

    Each text is parsed once (``_parts``): the server renders every legal action in two
    languages for every answer, and ``string.Formatter`` re-parses the text each time.
    """
    pieces = []
    for literal, name, spec in _parts(text):
        pieces.append(literal)
        if name is None:
            continue
        value = values[name]
        if "|" in spec:
            pieces.append(counted(value, spec))
        else:
            pieces.append(format(value, spec))
    return "".join(pieces)


@functools.cache
def _parts(text: str) -> tuple[tuple[str, str | None, str], ...]:
    """``text`` as (literal, field name or None, format spec) triples; only plain field names
    (no attribute, index or conversion) are allowed, so that ``fill`` stays this simple."""
    parts = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier()):
            raise ValueError(f"template field {{{name}}} in {text!r}: only plain names are allowed")
        parts.append((literal, name, spec or ""))
    return tuple(parts)


def placeholders(text: str) -> frozenset[str]:
    """The parameter names a template text uses: ``{count:cube|cubes}`` uses ``count``."""
    return frozenset(name for name, _ in template_fields(text))


def template_fields(text: str) -> tuple[tuple[str, str], ...]:
    """The fields of a template text as (name, spec): ``{count:cube|cubes}`` is
    ``("count", "cube|cubes")``, a plain ``{planet}`` is ``("planet", "")``."""
    return tuple((name, spec) for _, name, spec in _parts(text) if name is not None)


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; the languages are {', '.join(LANGS)}")
    return lang


def label(key: str, lang: str, **params: Any) -> str:
    """A label of the catalogue's ``labels`` section, filled with ``params`` as given."""
    template = catalogue().section("labels")[key]
    return template.render(check_lang(lang), params, params)


def _word(section: str, key: str, lang: str) -> str:
    template = catalogue().get(section, key)
    return key if template is None else template.render(lang, {}, {})


def join(items: Iterable[str], lang: str) -> str:
    """Items as a list in the language: ``a, b`` / ``a、b``."""
    return label("list_separator", lang).join(items)


def sentences(items: Iterable[str], lang: str) -> str:
    """Sentences one after the other: spaced in English, not in Japanese."""
    return label("sentence_separator", lang).join(items)
