"""The library's exceptions, in one place so that callers can catch them by kind."""

from __future__ import annotations

from collections.abc import Sequence

import attrs


@attrs.frozen
class Problem:
    """One thing wrong with a ruleset, located so that a designer can go straight to it.

    ``file`` is the YAML file, ``line`` and ``column`` are 1-based (0 when unknown), ``path``
    is the place inside the document (``crew[3].skill[0].effect``), ``message`` says what is
    wrong and what was expected, and ``suggestion`` is the closest valid value for a misspelt
    name, if any.
    """

    file: str
    line: int
    column: int
    path: str
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        text = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        if self.suggestion is not None:
            text += f" (did you mean {self.suggestion!r}?)"
        return text


class RulesetError(ValueError):
    """A ruleset folder could not be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the ruleset:"
        super().__init__("\n".join([head, *(f"  {p}" for p in self.problems)]))


class IllegalActionError(ValueError):
    """An action was applied that is not legal in the given state; the message says why."""


class SetupError(ValueError):
    """An explicit setup does not fit the ruleset: wrong counts, unknown or repeated cards."""


class SeedError(ValueError):
    """A seed that is not an integer from 0 to 2**64 - 1 (``engine.seeds``)."""


class RecordError(ValueError):
    """A game record or state document cannot be used: malformed, or made under other rules."""


class FolderBusy(OSError):
    """A run or cache folder is being written by another process; ``holder`` says which."""

    def __init__(self, folder: object, holder: str, hint: str = "wait for it to finish, or choose another --out") -> None:
        self.folder = folder
        self.holder = holder
        super().__init__(f"{folder} is being written by {holder}; {hint}")
