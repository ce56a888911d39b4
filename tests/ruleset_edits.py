"""Helpers for the loader tests: copy a bundled ruleset and break it the way a designer might.

Each edit replaces exact text and fails loudly when that text is not in the file, so a change
of the bundled data cannot turn a test into one that checks nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from stargazer_rules.errors import Problem, RulesetError
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.resources import cards_dir
from stargazer_rules.vocabulary.effects import AFTER_SURVEY, EFFECT_TYPES, Effect, Param, extend_effect_types


def copy_ruleset(tmp_path: Path, name: str = "draft7", to: str | None = None) -> Path:
    """A copy of the bundled ruleset ``name`` in ``tmp_path`` (folder ``to``, default ``name``)."""
    folder = tmp_path / (to or name)
    shutil.copytree(cards_dir() / name, folder)
    return folder


def read(folder: Path, file: str) -> str:
    return (folder / file).read_text(encoding="utf-8")


def replace(folder: Path, file: str, old: str, new: str, *, count: int = 1) -> int:
    """Replace the first ``count`` occurrences of ``old``; return the line of the first one."""
    text = read(folder, file)
    assert text.count(old) >= count, f"{old!r} is not {count} times in {file}"
    line = text[: text.index(old)].count("\n") + 1
    (folder / file).write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def line_of(folder: Path, file: str, text: str) -> int:
    """The 1-based number of the first line containing ``text``."""
    for number, line in enumerate(read(folder, file).splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {file}")


def problems_of(folder: Path | str, **kwargs) -> tuple[Problem, ...]:
    """The problems ``load_ruleset(folder)`` raises; fails if it loads."""
    with pytest.raises(RulesetError) as caught:
        load_ruleset(folder, **kwargs)
    return caught.value.problems


def only_problem(folder: Path | str, **kwargs) -> Problem:
    problems = problems_of(folder, **kwargs)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


@attrs.frozen(kw_only=True)
class TakeCubesBack(Effect):
    """A custom effect for the test: declared like the built-in ones."""

    name: ClassVar[str] = "take_cubes_back"
    summary: ClassVar[str] = "Take cubes back into hand."
    timings: ClassVar[tuple[str, ...]] = (AFTER_SURVEY,)
    params: ClassVar[tuple[Param, ...]] = (
        Param("cubes", "integer", "How many cubes.", minimum=1, default=1),
    )

    cubes: int = 1

    def apply(self, table, seat, slot, choice):
        return ()


#: The built-in registry plus ``TakeCubesBack``.
CUSTOM_EFFECT_TYPES = extend_effect_types(EFFECT_TYPES, TakeCubesBack)
