"""The headless Chromium the browser tests drive with Playwright (tests only): Debian's
Chromium at ``/usr/bin/chromium`` (no browser is downloaded: .ci/run installs the package),
the flags it needs on these machines, and the failure that says how to install it."""

from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
#: What Chromium needs on these machines; Playwright adds --headless (headless=True) and the
#: fresh --user-data-dir (the persistent context's folder) itself.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium() -> None:
    """Fail the test, saying how to install Chromium, when it is missing."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}; install Debian's package with "
            "'apt-get update && apt-get install -y --no-install-recommends chromium' (as .ci/run does)",
            pytrace=False,
        )
