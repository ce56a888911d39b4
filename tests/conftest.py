"""Shared test configuration: the Hypothesis settings profiles.

The profile is chosen by the environment, as in Hypothesis' own ``tests/common/setup.py``:

- ``ci`` when ``CI`` is set (CI sets ``CI=true``): derandomized, so every run tests the same
  examples; no example database, so a run never depends on an earlier one; the failing
  example's reproduction blob printed.
- else the profile named by ``HYPOTHESIS_PROFILE`` (``dev``, ``ci`` or ``thorough``);
- else ``dev``: random examples, the database in ``.hypothesis/`` replaying earlier failures.

``max_examples`` is kept modest so that the whole property suite runs in about a minute on two
cores; ``HYPOTHESIS_PROFILE=thorough`` runs ten times as many examples for a deeper search.
Tests never touch the network, and every random choice they make comes from a seed that
Hypothesis draws.
"""

from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import settings

#: Examples per property in the ``ci`` and ``dev`` profiles.
EXAMPLES = 30

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    max_examples=EXAMPLES,
)
settings.register_profile("dev", deadline=None, max_examples=EXAMPLES)
settings.register_profile("thorough", deadline=None, max_examples=10 * EXAMPLES)


def _profile_name() -> str:
    if os.environ.get("CI"):
        return "ci"
    return os.environ.get("HYPOTHESIS_PROFILE") or "dev"


settings.load_profile(_profile_name())


def _preload_failure_patcher() -> None:
    """Import Hypothesis' failing-example patch writer now, its deprecation warnings ignored.

    When a property fails, Hypothesis' pytest plugin imports ``hypothesis.extra._patching``;
    where libcst is installed, that import warns (libcst uses the deprecated
    ``mypy_extensions.TypedDict``), and under ``filterwarnings = error`` the warning turns the
    failure report into a pytest INTERNALERROR that hides the falsifying example. Importing it
    here, once, keeps failures readable. Without libcst the import fails and nothing is needed.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import hypothesis.extra._patching  # noqa: F401
        except ImportError:
            pass


_preload_failure_patcher()


@pytest.fixture(autouse=True)
def _own_run_cache(tmp_path_factory, monkeypatch):
    """Every test has a cache of finished runs of its own (``$STARGAZER_CACHE``), inherited
    by the commands it starts: no test reads a run another test kept, or the user's cache."""
    monkeypatch.setenv("STARGAZER_CACHE", str(tmp_path_factory.mktemp("run-cache")))


#: Per test file, how many tests it has in the everyday tier and how many are ``slow``, and
#: whether the whole suite was collected: tests/test_suite_tiers.py reads it.
TIERS = pytest.StashKey[dict]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Count each file's tests by tier before ``-m`` deselects any, so that the tier check sees
    every collected test whichever tier runs."""
    from suite_tiers import count_tiers

    config.stash[TIERS] = {"files": count_tiers(items, session.config.rootpath), "whole": not config.option.file_or_dir}
