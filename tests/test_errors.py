"""The library's public exception types live together in ``stargazer_rules/errors.py``.

Read from the source with ``ast``: a module-level class whose base is a built-in exception, or
one of ``errors.py``'s, is an exception type; only ``errors.py`` defines public ones (a private
one, such as the terminal's ``_Quit``, ends a loop inside its module and never escapes it).
The modules that raised them before still offer them where docs and tests import them.
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

import stargazer_rules
from stargazer_rules import errors

PACKAGE = Path(stargazer_rules.__file__).resolve().parent
BUILT_IN_EXCEPTIONS = {
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
}
OURS = {name for name, value in vars(errors).items() if isinstance(value, type) and issubclass(value, BaseException)}


def _base_name(base: ast.expr) -> str:
    return base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")


def public_exception_types() -> dict[str, list[str]]:
    """Module path (relative to the package) -> the public exception classes it defines."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            node.name
            for node in tree.body
            if isinstance(node, ast.ClassDef)
            and not node.name.startswith("_")
            and any(_base_name(base) in BUILT_IN_EXCEPTIONS | OURS for base in node.bases)
        ]
        if names:
            found[str(path.relative_to(PACKAGE))] = names
    return found


def test_every_public_exception_type_is_defined_in_errors_py():
    """No other module defines one: callers find every kind of refusal in one module."""
    assert public_exception_types() == {
        "errors.py": [
            "RulesetError",
            "TargetsError",
            "SpaceError",
            "PlaytestError",
            "FileRefused",
            "StudyError",
            "IllegalActionError",
            "SetupError",
            "SeedError",
            "RecordError",
            "FolderBusy",
            "DraftError",
            "BotSpecError",
            "BotTimeout",
            "SimulationError",
            "SeatsError",
            "ReplayError",
            "RequestError",
            "FontError",
            "CommandStopped",
        ]
    }


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("stargazer_rules.bots", "BotSpecError"),
        ("stargazer_rules.bots", "BotTimeout"),
        ("stargazer_rules.rulesets.drafts", "DraftError"),
        ("stargazer_rules.simulation", "SimulationError"),
        ("stargazer_rules.simulation.runner", "SimulationError"),
        ("stargazer_rules.frontends.terminal", "ReplayError"),
        ("stargazer_rules.frontends.terminal", "SeatsError"),
        ("stargazer_rules.frontends.server", "RequestError"),
    ],
)
def test_the_modules_docs_and_tests_import_them_from_offer_the_same_class(module: str, name: str):
    """A re-export, not a second class: ``except`` catches what the other module raises."""
    imported = __import__(module, fromlist=[name])
    assert getattr(imported, name) is getattr(errors, name)


def test_a_count_is_worded_with_the_singular_for_one_and_the_plural_otherwise():
    """The one plural rule of every message: ``counted`` and the catalogues' {n:cube|cubes}."""
    from stargazer_rules.errors import counted
    from stargazer_rules.text.messages import fill

    assert [counted(n, "seat|seats") for n in (0, 1, 2)] == ["0 seats", "1 seat", "2 seats"]
    assert counted(1.5, "step|steps", "g") == "1.5 steps" and counted(1.0, "step|steps", "g") == "1 step"
    assert counted(12345, "game|games", ",") == "12,345 games" and counted(3, "per game") == "3 per game"
    # a whole number reads with its thousands separator without being told (#36: numbers one way)
    assert counted(1800, "game|games") == "1,800 games"
    assert [fill("{n:cube|cubes}", {"n": n}) for n in (1, 2)] == ["1 cube", "2 cubes"]
    assert str(errors.RulesetError([errors.Problem("f.yaml", 1, 1, "", "bad")])).startswith("1 problem in the ruleset:")
