"""A ruleset with some values changed: in memory for the search, and as a new draft folder.

``apply_edits(ruleset, edits)`` gives the ruleset with exactly the values its paths name
(``tuning.paths``) changed, checked as a ruleset folder is (the schemas and the cross-file
checks of ``loader.check_documents``), so that a candidate the rules refuse is never played.
``write_proposal(base, edits, dest)`` writes the chosen candidate as a draft the designer can
open: ``new_draft`` copies the base (comments and layout kept), then each value is replaced in
the YAML text where it stands, and the folder must load back to exactly the edited ruleset
(name and title aside, which ``new_draft`` sets) before it is renamed into place.

>>> from stargazer_rules.rulesets.loader import load_ruleset
>>> base = load_ruleset("draft7")
>>> apply_edits(base, {"crew.engineer.survey_count": 2}).crew_card("engineer").survey_count
2
>>> edits_text(base, {"planets.lava-1.track[2]": 4, "rules.motivation.free_cube_vp": 2})
['planet lava-1 (Lava 1): track [1, 3, 0, 5, 7, 0] -> [1, 3, 4, 5, 7, 0]', 'knob motivation.free_cube_vp: 1 -> 2']
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.errors import DraftError, Problem, RulesetError
from stargazer_rules.rulesets.checks import RulesetDocuments
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.diff import diff_data, format_changes
from stargazer_rules.rulesets.drafts import new_draft, refuse_taken_folder
from stargazer_rules.rulesets.loader import (
    load_ruleset,
    read_documents,
    ruleset_to_data,
)
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.variants import ruleset_of_data
from stargazer_rules.rulesets.yamlsource import YamlDocument
from stargazer_rules.tuning.paths import Miss, Place, Value, locate, value_text, with_values

__all__ = ["apply_edits", "edits_text", "proposal_title", "write_proposal"]

#: A plain scalar where a value starts: optional tag and anchor, then the value's characters
#: (a number or true/false has no space, comma, bracket or brace).
_SCALAR = re.compile(r"(?:[!&]\S*[ \t]+)*(?P<value>[^\s,\[\]{}]+)")
#: YAML's line breaks (``\r\n`` is one), as PyYAML counts lines and columns.
_BREAKS = "\n\r\x85\u2028\u2029"


def apply_edits(ruleset: Ruleset, edits: Mapping[str, Value]) -> Ruleset:
    """``ruleset`` with exactly the values of ``edits`` (path -> value) changed; raises
    ``RulesetError`` with every problem when a path names nothing or the result is invalid."""
    data = ruleset_to_data(ruleset)
    return ruleset_of_data(ruleset, with_values(data, _places(ruleset, data, edits)))


def edits_text(base: Ruleset, edits: Mapping[str, Value]) -> list[str]:
    """The edits as ``stargazer diff`` words what they change in ``base``: one line per field, so
    two edits of one list (``turn_order_vp[0]`` and ``[1]``) read as the one change they make."""
    data = ruleset_to_data(base)
    places = _places(base, data, edits)
    changes = diff_data(data, with_values(data, places))
    if changes:
        return format_changes(changes)
    return [f"{place.path}: {value_text(value)} (unchanged)" for place, value in places.items()]


def write_proposal(
    base_source: str | os.PathLike[str],
    edits: Mapping[str, Value],
    dest: str | os.PathLike[str],
    title: Mapping[str, str] | None = None,
) -> Ruleset:
    """The new draft folder ``dest``: ruleset ``base_source`` (a folder or bundled name) with
    ``edits`` written into its YAML text in place, titled ``title`` (default: as ``new_draft``
    titles a draft of that folder's name; tune gives ``proposal_title``); returns it, loaded.

    Raises ``RulesetError`` when the edits name nothing or make an invalid ruleset, and
    ``DraftError`` when ``dest`` is taken or an edited value is not written in its file (a
    default) or cannot be replaced in place. A failure leaves nothing behind.
    """
    dest = Path(dest)
    base = load_ruleset(base_source)
    expected = apply_edits(base, edits)  # refused before anything is written
    refuse_taken_folder(dest)
    name = dest.resolve().name
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.parent / f".{dest.name}-{secrets.token_hex(4)}.partial"
    try:
        new_draft(staging, base_source, name=name, title=title)
        _write_in_place(staging, _places(base, ruleset_to_data(base), edits))
        try:
            proposal = load_ruleset(staging)
        except RulesetError as error:
            raise DraftError(f"{dest}: the edits written in place do not load ({error.problems[0]}); edit the files by hand") from error
        _check_exactly(expected, proposal, dest)
        if dest.exists():
            dest.rmdir()  # empty, checked above
        staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return attrs.evolve(proposal, source=os.fspath(dest))


def proposal_title(base: Ruleset) -> dict[str, str]:
    """A proposal's title: its draft's, in each language, marked as tune's proposal
    (``スターゲイザー 草案７（調整案）`` / ``Stargazer draft 7 (tuned)``)."""
    return {"ja": f"{base.title.ja}（調整案）", "en": f"{base.title.en} (tuned)"}


def source_documents(ruleset: Ruleset) -> RulesetDocuments | None:
    """The files ``ruleset`` was loaded from, as read (positions of every value), or None for a
    ruleset that has no folder."""
    if not ruleset.source or not Path(ruleset.source).is_dir():
        return None
    return read_documents(Path(ruleset.source), ruleset.source)


def unwritten(documents: RulesetDocuments, place: Place) -> str | None:
    """Why ``place`` cannot be edited in the text of ``documents`` (its value is a default,
    written nowhere), or None."""
    if place.doc_path in _document(documents, place.file).positions:
        return None
    return (
        f"{place.path} is not written in {place.file} (the ruleset takes its default, "
        f"{value_text(place.value)}); write it there to tune it"
    )


def _places(ruleset: Ruleset, data: Mapping[str, Any], edits: Mapping[str, Value]) -> dict[Place, Value]:
    places: dict[Place, Value] = {}
    problems = []
    for path, value in edits.items():
        found = locate(data, path)
        if isinstance(found, Miss):
            problems.append(Problem(ruleset.source or ruleset.name, 0, 0, str(path), found.message, found.suggestion))
        else:
            places[found] = value
    if problems:
        raise RulesetError(problems)
    return places


def _document(documents: RulesetDocuments, file: str) -> YamlDocument:
    return getattr(documents, file.removesuffix(".yaml"))


def _write_in_place(folder: Path, places: Mapping[Place, Value]) -> None:
    """Replace each value in the text of its file, at the position the file was read with."""
    documents = read_documents(folder, os.fspath(folder))
    by_file: dict[str, list[tuple[int, str]]] = {}
    for place, value in places.items():
        reason = unwritten(documents, place)
        if reason is not None:
            raise DraftError(reason)
        position = _document(documents, place.file).positions[place.doc_path]
        by_file.setdefault(place.file, []).append((position, value_text(value)))
    for file, replacements in by_file.items():
        path = folder / file
        text = path.read_text(encoding="utf-8")
        for position, new in sorted(replacements, reverse=True):  # from the end: offsets hold
            start = _offset(text, position)
            match = _SCALAR.match(text, start)
            if match is None:
                raise DraftError(f"{file}:{position[0]}:{position[1]}: no value to replace there; edit the file by hand")
            text = text[: match.start("value")] + new + text[match.end("value") :]
        outputfiles.write_text(path, text)


def _offset(text: str, position: tuple[int, int]) -> int:
    """The index in ``text`` of a 1-based (line, column) as PyYAML counts them."""
    line, column = position
    index, at_line, at_column = 0, 1, 1
    if text.startswith("\ufeff"):
        index = 1  # PyYAML skips a byte order mark without counting it
    while index < len(text) and (at_line, at_column) != (line, column):
        char = text[index]
        if char in _BREAKS and not (char == "\r" and text[index + 1 : index + 2] == "\n"):
            at_line, at_column = at_line + 1, 1
        elif char != "\r":
            at_column += 1
        index += 1
    return index


def _check_exactly(expected: Ruleset, proposal: Ruleset, dest: Path) -> None:
    """The folder written holds exactly the edited ruleset, its name and title aside."""
    want, got = ruleset_to_data(expected), ruleset_to_data(proposal)
    for key in ("name", "title"):
        got["rules"][key] = want["rules"][key]
    if got != want:
        first = format_changes(diff_data(want, got))[0]
        raise DraftError(f"{dest}: writing the edits in place changed more than them ({first}); edit the files by hand")
