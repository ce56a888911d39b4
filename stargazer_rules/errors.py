"""The library's exceptions, in one place so that callers can catch them by kind.

Each subclasses the built-in it refines (a bad input is a ``ValueError``), and the modules
that raise them import them from here: rulesets (``Problem``, ``RulesetError``, ``DraftError``),
the files beside them (``TargetsError``, ``SpaceError``, ``PlaytestError``), any file read (``FileRefused``), a tuning study (``StudyError``), play (``IllegalActionError``,
``SetupError``), records and state documents (``RecordError``, ``ReplayError``), folders
(``FolderBusy``), bots (``BotSpecError``, ``BotTimeout``), runs (``SimulationError``), the front
ends (``SeatsError``, ``RequestError``) and printing (``FontError``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs


@attrs.frozen
class Problem:
    """One thing wrong with a ruleset, located so that a designer can go straight to it.

    ``file`` is the YAML file, ``line`` and ``column`` are 1-based (0 when unknown), ``path``
    is the place inside the document (``crew.quartermaster.skill[0].effect``), ``message`` says what is
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
        head = f"{counted(count, 'problem|problems')} in the ruleset:"
        super().__init__("\n".join([head, *(f"  {p}" for p in self.problems)]))


class TargetsError(RulesetError):
    """A targets file (targets.yaml, ``--targets``) could not be read; ``problems`` lists every
    problem found, each with its file and line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems)
        count = len(self.problems)
        head = f"{counted(count, 'problem|problems')} in the targets:"
        self.args = ("\n".join([head, *(f"  {p}" for p in self.problems)]),)


class SpaceError(RulesetError):
    """A tuning space (tune.yaml, ``--space``) could not be read; ``problems`` lists every
    problem found, each with its file and line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems)
        count = len(self.problems)
        head = f"{counted(count, 'problem|problems')} in the tuning space:"
        self.args = ("\n".join([head, *(f"  {p}" for p in self.problems)]),)


class PlaytestError(RulesetError):
    """A playtest log (``playtests/*.yaml`` beside a draft) could not be read; ``problems``
    lists every problem found, each with its file and line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems)
        count = len(self.problems)
        head = f"{counted(count, 'problem|problems')} in the playtest log:"
        self.args = ("\n".join([head, *(f"  {p}" for p in self.problems)]),)


class FileRefused(OSError):
    """A file named to be read is refused before it is read (``rulesets.boundedfiles``): not a
    regular file, a symlink out of its folder or in a loop, too large, not UTF-8 or not JSON;
    the message is one line and quotes none of the file."""


class StudyError(ValueError):
    """A tuning study file (``OUT/study.db``) is not a study of ``stargazer tune``, is damaged,
    or holds what its own games do not give; the message says how to start afresh."""


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


class DraftError(ValueError):
    """A new draft that cannot be made; the message is one line saying what to do instead."""


class BotSpecError(ValueError):
    """A bot spec names no known bot, or gives it parameters it does not take."""


class BotTimeout(RuntimeError):
    """A bot's search ran past the time limit it was given (``bots.time_limit``)."""


class SimulationError(ValueError):
    """A run cannot start or go on: a lineup that does not fit, a games file of another run,
    a missing optional dependency, an unreachable scheduler."""


class SeatsError(ValueError):
    """A ``--seats`` text that cannot seat the players: more seats than players, an empty entry."""


class ReplayError(ValueError):
    """A record file that cannot be played back; the message is one line."""


class RequestError(ValueError):
    """A request the API refuses: ``status`` (4xx), a short ``error`` kind, the reason, and
    ``at``, the JSON path in the body of the document the reason is about (or None)."""

    def __init__(self, status: int, error: str, message: str, at: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.at = at

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error, "message": self.message}
        if self.at is not None:
            body["at"] = self.at
        return body


class FontError(RuntimeError):
    """The font package is missing or does not hold the font file."""


class CommandStopped(Exception):
    """A ``stargazer`` command stops after it has said why in one line; ``status`` is the exit
    status its ``main`` returns (the command line's own signal, never raised by the library)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def install_line(extra: str) -> str:
    """The one way every message words the install of an optional extra of pyproject.toml."""
    return f"pip install 'stargazer-rules[{extra}]'"


def counted(count: Any, nouns: str, spec: str = "") -> str:
    """``count`` (formatted with ``spec``) and its noun, ``nouns`` written ``"seat|seats"``: the
    singular for exactly 1, the plural otherwise (``1 seat``, ``0 seats``, ``1.5 steps``). The one
    plural rule of every message, the catalogues' ``{n:cube|cubes}`` included. A whole number
    without ``spec`` reads with its thousands separator (``1,800 games``), as every count does."""
    one, _, many = nouns.partition("|")
    if not spec and isinstance(count, int) and not isinstance(count, bool):
        spec = ","
    return f"{format(count, spec)} {one if count == 1 else many or one}"
