"""The test tiers: ``pytest -m "not slow"`` is the everyday tier, plain ``pytest`` the whole suite.

Every test file keeps at least one test in the everyday tier, so that a change anywhere is
tried by some test of its file before the whole suite runs; tests/test_suite_tiers.py holds it
over the tests a run collects (counted by tests/conftest.py before ``-m`` deselects any).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

#: The least share of the whole suite's tests that the everyday tier keeps.
LEAST_QUICK_SHARE = 0.6


def count_tiers(items: Iterable[Any], root: Path) -> dict[str, tuple[int, int]]:
    """``{file relative to root: (quick tests, slow tests)}`` of collected test items."""
    counts: dict[str, list[int]] = {}
    for item in items:
        path = Path(item.path)
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        counts.setdefault(name, [0, 0])[item.get_closest_marker("slow") is not None] += 1
    return {name: (quick, slow) for name, (quick, slow) in sorted(counts.items())}


def files_without_a_quick_test(counts: dict[str, tuple[int, int]]) -> list[str]:
    """The files whose every collected test is slow: the everyday tier would not try them."""
    return [name for name, (quick, _slow) in counts.items() if quick == 0]


def quick_share(counts: dict[str, tuple[int, int]]) -> float:
    """The everyday tier's share of the collected tests."""
    quick = sum(q for q, _ in counts.values())
    total = sum(q + s for q, s in counts.values())
    return quick / total if total else 1.0


def generated_in_the_slow_tier(sources: Iterable[str]) -> list[Any]:
    """``sources`` as pytest parameters, ``"generated"`` marked ``slow``: a property over
    generated rulesets draws and loads a ruleset per example (seconds a test), while the
    bundled rulesets' runs of the same property stay in the everyday tier."""
    return [pytest.param(source, marks=pytest.mark.slow) if source == "generated" else source for source in sources]
