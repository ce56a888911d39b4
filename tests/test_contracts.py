"""The analysis's files as contracts: games.jsonl lines and summary.json against their schemas,
the docs' field tables against the schemas, the typed view of a summary against the summary,
and the analysis's modules reaching each other only through public names."""

from __future__ import annotations

import ast
from pathlib import Path

import stargazer_rules.analysis

ANALYSIS = Path(stargazer_rules.analysis.__file__).parent


def _private_imports(folder: Path) -> list[str]:
    """Every ``from stargazer_rules.x import _name`` in the modules under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stargazer_rules"):
                found += [f"{path.name}: {node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
    return found


def test_no_analysis_module_imports_a_private_helper_of_another() -> None:
    """compare, sequential and the rest reach the figures they share through public names."""
    assert _private_imports(ANALYSIS) == []
