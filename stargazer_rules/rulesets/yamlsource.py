"""Read a YAML file and remember where every value came from.

A designer fixes a ruleset in a text editor, so every problem must name a line and a column.
PyYAML's ``safe_load`` forgets positions and silently keeps the last of two equal keys; here the
document is composed into nodes first (each with a ``start_mark``), positions and duplicate keys
are collected from the nodes, and only then is the plain data constructed.

Text is read as editors write it: a byte order mark at the start is dropped, Windows (CRLF)
and old Mac (CR) line ends count as one line end each, like Unix's, so the same file saved by
any editor is the same ruleset, with the same lines in its problems. Every string (keys too) is
normalised to Unicode NFC, so a name typed in decomposed form (``か`` + U+3099, as macOS writes
file names) is the same name, with the same fingerprint, as its composed form (``が``). A
``<<`` merge key is refused, located, with the reason: merge keys are YAML 1.1 only (YAML 1.2
readers, like the editors' language server, read ``<<`` as a plain key), and a value merged
in has no line of its own to name in a problem or to edit in place (``stargazer tune``).

Numbers are read as YAML 1.2 reads them, not as PyYAML's YAML 1.1: an integer is decimal digits
(``1_000``, ``0x1``, ``0o7``, ``0b1`` and ``1:30`` stay text, which the schema then refuses where
it wants a count), a float is digits with a point or an exponent, and an integer written with a
leading zero (``010``: octal 8 in YAML 1.1, 10 in YAML 1.2) is a located problem asking for one
or the other.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from stargazer_rules.rulesets import boundedfiles, boundedyaml
from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.printable import printable

#: A place inside a document: mapping keys and list indices from the root.
DocPath = tuple[Any, ...]
#: A 1-based (line, column); (0, 0) when unknown.
Position = tuple[int, int]

#: The lists of cards in a document (crew.yaml's and planets.yaml's): a problem inside a card
#: names the card by its id (``crew.engineer.survey_count``), as tune.yaml's paths do.
CARD_LISTS = ("crew", "planets")
#: What a card id may be: the crew and planets schemas' ``pattern`` and ``maxLength`` (a test
#: holds them equal), so that a card is never named by an id its schema refuses.
CARD_ID_PATTERN = "^[a-z0-9][a-z0-9_-]*$"
CARD_ID_MAX_LENGTH = 64
_CARD_ID = re.compile(CARD_ID_PATTERN.removeprefix("^").removesuffix("$"))  # used whole (fullmatch)

_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_STR_TAG = "tag:yaml.org,2002:str"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"

#: YAML 1.2's core schema: an integer is decimal digits; a float has a point or an exponent.
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
#: YAML 1.2's core schema: a boolean is true or false (YAML 1.1 also read yes/no/on/off/y/n).
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
#: Digits after a leading zero: an integer YAML 1.1 and YAML 1.2 read differently.
_LEADING_ZERO = re.compile(r"^[-+]?0[0-9]{1,39}$")  # a longer one is refused as too long
#: The most digits an integer may have: a seed (2**64 - 1) has 20.
MAX_INT_DIGITS = 40


def number_from_text(text: str, whole: bool = False) -> int | float:
    """A number a person typed (a file's value, an option, a variable), read as YAML 1.2 reads
    a number in these files: ASCII digits (``float`` and ``int`` alone also take ``inf``,
    ``nan``, ``1_000``, surrounding spaces and other scripts' digits), finite, at most
    ``MAX_INT_DIGITS`` digits; with ``whole``, an integer. ``ValueError`` otherwise."""
    if whole:
        if not _INT.match(text) or len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise ValueError(f"{text!r} is not a whole number in ASCII digits")
        return int(text, 10)
    if not (_INT.match(text) or _FLOAT.match(text)) or text.lstrip("+-.").lower().startswith(("inf", "nan")) \
            or len(text) > 2 * MAX_INT_DIGITS:
        raise ValueError(f"{text!r} is not a number in ASCII digits")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


class _Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's integers, floats and booleans in place of YAML 1.1's,
    and no timestamps: YAML 1.2 reads ``2026-11-28`` as text (YAML 1.1's date of it failed
    unlocated on a day no calendar has, ``2026-02-30``)."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_INT_TAG, _FLOAT_TAG, _BOOL_TAG, _TIMESTAMP_TAG)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(_INT_TAG, _INT, list("-+0123456789"))
_Yaml12Loader.add_implicit_resolver(_FLOAT_TAG, _FLOAT, list("-+0123456789."))
_Yaml12Loader.add_implicit_resolver(_BOOL_TAG, _BOOL, list("tTfF"))


def _construct_decimal(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = loader.construct_scalar(node)
    if not _INT.match(text):  # an explicit !!int tag on something else
        raise yaml.constructor.ConstructorError(
            None, None, f"expected an integer in decimal digits, found {text!r}", node.start_mark
        )
    digits = len(text.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise yaml.constructor.ConstructorError(
            None, None,
            f"an integer of {digits:,} digits: no number in these files has more than {MAX_INT_DIGITS}",
            node.start_mark,
        )
    return int(text, 10)


_Yaml12Loader.add_constructor(_INT_TAG, _construct_decimal)


def _construct_nfc(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> str:
    return unicodedata.normalize("NFC", loader.construct_scalar(node))


_Yaml12Loader.add_constructor(_STR_TAG, _construct_nfc)


def editor_text(text: str) -> str:
    """``text`` as the module docstring reads it: no byte order mark, every line end ``\n``."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


@attrs.frozen
class YamlDocument:
    """One YAML file as read: its data and where each part of it stands in the text.

    ``file`` is the file name as shown to the user. ``loaded`` is false when the file is missing
    or not valid YAML (``data`` is then None). ``positions`` maps a document path to the start of
    its value; ``key_positions`` maps the path of a mapping entry to the start of its key.
    ``problems`` are those found while reading (syntax errors, duplicate keys).
    """

    file: str
    data: Any
    loaded: bool
    positions: Mapping[DocPath, Position] = attrs.field(factory=dict, repr=False)
    key_positions: Mapping[DocPath, Position] = attrs.field(factory=dict, repr=False)
    problems: tuple[Problem, ...] = ()

    def position(self, path: DocPath, *, key: bool = False) -> Position:
        """Where ``path`` starts (its key, with ``key``); the nearest known ancestor otherwise."""
        if key and tuple(path) in self.key_positions:
            return self.key_positions[tuple(path)]
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found
        return (0, 0)

    def problem(
        self, path: DocPath, message: str, suggestion: str | None = None, *, key: bool = False
    ) -> Problem:
        """A problem located at ``path`` in this file."""
        line, column = self.position(path, key=key)
        return Problem(self.file, line, column, format_path(path, self.card_ids), message, suggestion)

    @functools.cached_property
    def card_ids(self) -> Mapping[tuple[str, int], str]:
        """The id of each card that has one of its own, by (card list, index)."""
        return card_ids(self.data)


def card_ids(data: Any) -> dict[tuple[str, int], str]:
    """(card list, index) -> id, for each card of ``CARD_LISTS`` whose id is well formed and
    unique in its list; the others (an id missing, misspelt or repeated) are named by index."""
    found: dict[tuple[str, int], str] = {}
    if not isinstance(data, Mapping):
        return found
    for key in CARD_LISTS:
        cards = data.get(key)
        if not isinstance(cards, list):
            continue
        ids = [card.get("id") if isinstance(card, Mapping) else None for card in cards]
        counts = Counter(ident for ident in ids if isinstance(ident, str))
        for index, ident in enumerate(ids):
            well_formed = isinstance(ident, str) and len(ident) <= CARD_ID_MAX_LENGTH and _CARD_ID.fullmatch(ident)
            if well_formed and counts[ident] == 1:
                found[(key, index)] = ident
    return found


def format_path(path: DocPath, cards: Mapping[tuple[str, int], str] | None = None) -> str:
    """Render a document path as a designer reads it: ``crew.engineer.skill[0].effect``, a card
    by its id in ``cards`` (``card_ids``), else by its index (``crew[3].skill[0].effect``)."""
    text = ""
    for depth, part in enumerate(path):
        if isinstance(part, int) and not isinstance(part, bool):
            ident = cards.get((path[0], part)) if cards and depth == 1 else None
            text += f"[{part}]" if ident is None else f".{ident}"
        else:
            text += f".{part}" if text else str(part)
    return printable(text)  # a key is the designer's text, printed with the problem


def load_yaml(path: Path, display: str | None = None) -> YamlDocument:
    """Read the YAML file at ``path``; never raises for a missing or malformed file.

    ``display`` is the name used in problems (default: ``path`` as given).
    """
    file = str(path) if display is None else display
    try:
        text = boundedfiles.read_text(path, boundedyaml.MAX_BYTES, "YAML file")
    except FileNotFoundError:
        return _unreadable(file, "file not found")
    except boundedfiles.FileRefused as error:
        return _unreadable(file, boundedfiles.reason(error, path))
    except OSError as error:
        return _unreadable(file, f"cannot read it: {boundedfiles.reason(error, path)}")
    return parse_yaml(text, file)


def parse_yaml(text: str, file: str) -> YamlDocument:
    """Parse YAML ``text`` (one document) as read from ``file``.

    A document past the bounds of ``boundedyaml`` (size, characters, depth, alias expansion)
    is refused with that one located problem before anything is built.
    """
    text = editor_text(text)
    bound = boundedyaml.text_problem(text, file)
    if bound is not None:
        return YamlDocument(file, None, False, problems=(bound,))
    loader = _Yaml12Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(file, None, True, {(): (1, 1)})
        bound = boundedyaml.expansion_problem(node, file)
        if bound is not None:
            return YamlDocument(file, None, False, problems=(bound,))
        reader = _NodeReader(loader, file)
        reader.visit(node, ())
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        return YamlDocument(file, None, False, problems=(_syntax_problem(file, error),))
    except yaml.YAMLError as error:
        return _unreadable(file, f"invalid YAML: {error}")
    finally:
        loader.dispose()
    cards = card_ids(data)
    problems = tuple(
        Problem(file, line, column, format_path(path, cards), message) for (line, column), path, message in reader.problems
    )
    return YamlDocument(file, data, True, reader.positions, reader.key_positions, problems)


def _unreadable(file: str, message: str) -> YamlDocument:
    return YamlDocument(file, None, False, problems=(Problem(file, 0, 0, "", message),))


def _syntax_problem(file: str, error: yaml.MarkedYAMLError) -> Problem:
    """A YAML syntax error as a Problem at the mark PyYAML points to, in a sentence (``_SYNTAX``)."""
    mark = error.problem_mark or error.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
    problem, context = error.problem or "", error.context or ""
    # PyYAML notices a missing ']' or a bad indent only on a later line: say where it began.
    begun = error.context_mark.line + 1 if error.context_mark is not None else line
    for pattern, sentence in _SYNTAX:
        found = pattern.search(f"{problem} | {context}")
        if found is not None:
            return Problem(file, line, column, "", "invalid YAML: " + sentence.format(*found.groups(), begun=begun))
    message = f"invalid YAML: {problem or context or 'cannot parse'}"
    if problem and context:
        message += f" ({context}" + (f" that starts at line {begun})" if error.context_mark else ")")
    return Problem(file, line, column, "", message)


#: The parser's words for the syntax errors a person makes most, each as a sentence that says
#: what to change (matched on ``problem | context``); any other error keeps the parser's words.
_SYNTAX = tuple((re.compile(pattern), sentence) for pattern, sentence in (
    (r"expected <block end>, but found '<block mapping start>'|expected <block end>, but found '\?'",
     "this line is indented differently from the lines it belongs with (the block that starts at "
     "line {begun}): indent it by as many spaces as its neighbours"),
    (r"expected <block end>, but found '-'",
     "a list item ('-') where a key of the mapping above was expected: indent the list under its key"),
    (r"expected <block end>, but found",
     "this line does not fit the block that starts at line {begun}: check its indentation"),
    (r"mapping values are not allowed here",
     "a ':' where no key can start: quote a value that holds ': ', or check the line above for a "
     "missing ':' or a wrong indentation"),
    (r"found character '\\t' that cannot start any token",
     "a tab character: YAML indents with spaces only; replace the tab with spaces"),
    (r"found character '(.)' that cannot start any token",
     "a value cannot begin with '{0}' unless it is quoted: put the value in quotes"),
    (r"expected ',' or '\]', but got",
     "the list in [ ] that starts at line {begun} is not closed, or a ',' is missing between its "
     "items: close it with ']'"),
    (r"expected ',' or '\}', but got",
     "the mapping in {{ }} that starts at line {begun} is not closed, or a ',' is missing between "
     "its entries: close it with '}}'"),
    (r"found unexpected end of stream \| while scanning a quoted scalar",
     "the quoted text that starts at line {begun} is never closed: end it with its quote"),
    (r"found undefined alias '(.*)'",
     "*{0} names no anchor: write &{0} on a value before it, or write the value out"),
    (r"but found another document",
     "a second document ('---'): a file holds one document; remove the '---' and what follows it, or "
     "join the two"),
    (r"could not determine a constructor for the tag '(.*)'",
     "the tag '{0}' is not one these files use: remove it"),
    (r"while scanning an? (anchor|alias)",
     "an {0} (&name or *name) needs a name of letters, digits, '-' or '_'"),
    (r"while scanning a block scalar",
     "after '|' or '>' only a digit or '+'/'-' may follow on the same line; the text goes on the "
     "lines below, indented"),
))


def _mark(node: yaml.Node) -> Position:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _NodeReader:
    """Walks composed nodes, recording positions and duplicate keys (which PyYAML overwrites)."""

    def __init__(self, loader: yaml.SafeLoader, file: str) -> None:
        self.loader = loader
        self.file = file
        self.positions: dict[DocPath, Position] = {}
        self.key_positions: dict[DocPath, Position] = {}
        self.problems: list[tuple[Position, DocPath, str]] = []  # made Problems once the data is built
        self._open: set[int] = set()  # nodes on the current branch, against recursive aliases

    def visit(self, node: yaml.Node, path: DocPath) -> None:
        self.positions.setdefault(path, _mark(node))
        if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG and _LEADING_ZERO.match(node.value):
            self._leading_zero(node, path)
        if isinstance(node, yaml.ScalarNode) and node.tag == _FLOAT_TAG and _FLOAT.match(node.value):
            self._not_finite(node, path)
        if id(node) in self._open:
            return
        self._open.add(id(node))
        try:
            for child, child_path in self._children(node, path):
                self.visit(child, child_path)
        finally:
            self._open.discard(id(node))

    def _children(self, node: yaml.Node, path: DocPath) -> Iterator[tuple[yaml.Node, DocPath]]:
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                yield item, (*path, index)
        elif isinstance(node, yaml.MappingNode):
            yield from self._entries(node, path)

    def _entries(
        self, node: yaml.MappingNode, path: DocPath
    ) -> Iterator[tuple[yaml.Node, DocPath]]:
        """The entries of a mapping; PyYAML keeps the last of equal keys, so positions do too."""
        last: dict[Any, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                self._merge_key(key_node, path)
                continue
            key = self.loader.construct_object(key_node, deep=True)
            try:
                first = last.get(key)
            except TypeError:  # an unhashable key: construct_document reports it
                continue
            if first is not None:
                self._duplicate(key, (*path, key), first[0], key_node)
            last[key] = (key_node, value_node)
        for key, (key_node, value_node) in last.items():
            self.key_positions[(*path, key)] = _mark(key_node)
            yield value_node, (*path, key)

    def _not_finite(self, node: yaml.ScalarNode, path: DocPath) -> None:
        if math.isfinite(float(node.value.lower().replace(".inf", "inf").replace(".nan", "nan"))):
            return
        line, column = _mark(node)
        message = (
            f"{node.value} is not a finite number: every number in these files is finite "
            "(a .nan or an infinity would pass every bound unnoticed); write a number"
        )
        self.problems.append(((line, column), path, message))

    def _merge_key(self, node: yaml.Node, path: DocPath) -> None:
        line, column = _mark(node)
        message = (
            "a '<<' merge key is YAML 1.1 only: YAML 1.2 readers (these files are read as "
            "YAML 1.2, as editors read them) take '<<' as a plain key, and a merged value has "
            "no line of its own; write the keys out here"
        )
        self.problems.append(((line, column), path, message))

    def _leading_zero(self, node: yaml.ScalarNode, path: DocPath) -> None:
        text = node.value
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-")
        decimal = sign * int(digits, 10)
        octal = sign * int(digits, 8) if set(digits) <= set("01234567") else decimal
        if octal != decimal:
            message = (
                f"{text} has a leading zero: YAML 1.1 reads it as octal {octal}, YAML 1.2 as "
                f"{decimal}; write {decimal} or {octal}"
            )
        else:
            message = f"{text} has a leading zero, which YAML readers disagree on; write {decimal}"
        self.problems.append((_mark(node), path, message))

    def _duplicate(self, key: Any, path: DocPath, first: yaml.Node, again: yaml.Node) -> None:
        message = (
            f"duplicate key {key!r}; the first is at line {_mark(first)[0]}, and this one "
            "replaces it"
        )
        self.problems.append((_mark(again), path, message))
