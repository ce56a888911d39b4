"""The everyday tier (``pytest -m "not slow"``) keeps a test of every file, and most tests.

The counts come from the run's own collection (tests/conftest.py counts the tiers before ``-m``
deselects any), so the check costs nothing and sees a new test file as soon as it is collected:
a file with no ``slow`` mark is all in the everyday tier.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TIERS
from suite_tiers import LEAST_QUICK_SHARE, count_tiers, files_without_a_quick_test, quick_share


class _Item:
    """The two things the count reads of a collected test: its file and its ``slow`` mark."""

    def __init__(self, path: Path, slow: bool) -> None:
        self.path = path
        self._slow = slow

    def get_closest_marker(self, name: str):
        return pytest.mark.slow.mark if name == "slow" and self._slow else None


def test_every_collected_file_keeps_a_test_in_the_everyday_tier(request):
    """No test file is all ``slow``: give it a cheaper test of the same behaviour (a smaller
    instance of the same property) that the everyday tier runs. Run as the whole suite (plain
    ``pytest``, with or without ``-m``), at least 60% of the tests are in the everyday tier."""
    tiers = request.config.stash[TIERS]
    assert "tests/test_suite_tiers.py" in tiers["files"]
    assert files_without_a_quick_test(tiers["files"]) == []
    if tiers["whole"]:
        assert quick_share(tiers["files"]) >= LEAST_QUICK_SHARE


def test_the_count_finds_a_file_whose_every_test_is_slow(tmp_path):
    """The check would catch a file made all slow, and counts a file without marks as quick."""
    items = [
        _Item(tmp_path / "tests" / "test_all_slow.py", slow=True),
        _Item(tmp_path / "tests" / "test_all_slow.py", slow=True),
        _Item(tmp_path / "tests" / "test_mixed.py", slow=True),
        _Item(tmp_path / "tests" / "test_mixed.py", slow=False),
        _Item(tmp_path / "tests" / "test_new.py", slow=False),
    ]
    counts = count_tiers(items, tmp_path)
    assert counts == {"tests/test_all_slow.py": (0, 2), "tests/test_mixed.py": (1, 1), "tests/test_new.py": (1, 0)}
    assert files_without_a_quick_test(counts) == ["tests/test_all_slow.py"]
    assert quick_share(counts) == 2 / 5
