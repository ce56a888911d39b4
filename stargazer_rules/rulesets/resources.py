"""Where the bundled rulesets and schemas are, in a source checkout and in an installed wheel.

The designer edits ``data/cards`` and ``schemas`` at the top of the repository; the wheel carries
copies inside the package as ``_bundled/cards`` and ``_bundled/schemas`` (pyproject.toml's
``[tool.maturin] include``). Everything that reads a bundled file asks this module, so that both layouts work.
"""

from __future__ import annotations

import os
from pathlib import Path

from stargazer_rules.rulesets.printable import printable

_PACKAGE = Path(__file__).resolve().parent.parent  # stargazer_rules/, above rulesets/
_BUNDLED = _PACKAGE / "_bundled"
_CHECKOUT = _PACKAGE.parent

#: The files that make up a ruleset folder, in the order they are read and reported.
RULESET_FILES = ("rules.yaml", "planets.yaml", "crew.yaml")

#: The designer's design targets, beside those files when the ruleset has them (not part of the
#: ruleset: they say what the game should be, not how it plays; ``analysis.targets_file``).
TARGETS_FILE = "targets.yaml"

#: The values ``stargazer tune`` may change, beside those files when the ruleset has them (not part
#: of the ruleset either: what may change, not what is; ``tuning.space``).
TUNE_FILE = "tune.yaml"

#: The designer's files beside a ruleset's, each with its schema: they travel with a new draft.
BESIDE_FILES = {TARGETS_FILE: "targets.schema.json", TUNE_FILE: "tune.schema.json"}

#: The ruleset loaded when none is named.
DEFAULT_RULESET = "draft7"


def _located(bundled: Path, checkout: Path) -> Path:
    """The wheel's copy when there is one, else the source checkout's folder.

    In a checkout ``_bundled/cards`` and ``_bundled/schemas`` are symlinks to the top-level
    folders (so that maturin puts the files behind them in the wheel); paths then name the
    folders the designer edits."""
    return bundled if bundled.is_dir() and not bundled.is_symlink() else checkout


def cards_dir() -> Path:
    """The folder holding one sub-folder per bundled ruleset (``draft7``, ``base``, ...)."""
    return _located(_BUNDLED / "cards", _CHECKOUT / "data" / "cards")


def schemas_dir() -> Path:
    """The folder holding the JSON Schemas of the ruleset files."""
    return _located(_BUNDLED / "schemas", _CHECKOUT / "schemas")


def bundled_ruleset_names() -> tuple[str, ...]:
    """The bundled rulesets, sorted: the sub-folders of ``cards_dir()`` with a rules.yaml."""
    root = cards_dir()
    if not root.is_dir():
        return ()
    return tuple(
        sorted(entry.name for entry in root.iterdir() if (entry / RULESET_FILES[0]).is_file())
    )


def shown_path(path: str | os.PathLike[str]) -> str:
    """How a file is named to a person: a file of a bundled ruleset by that ruleset's name
    (``bundled draft7/targets.yaml``), since the folder it sits in is an installation's detail
    (deep inside site-packages); any other path as given, a control character or direction
    override in it written as its escape (``printable``): it is printed."""
    try:
        inside = Path(path).resolve().relative_to(cards_dir().resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python before 3.13)
        return printable(os.fspath(path))
    return f"bundled {inside.as_posix()}"
