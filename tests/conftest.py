"""Every test: the command line's width does not depend on the runner's environment."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_columns_from_the_runner(monkeypatch):
    # Piped output is 120 columns wide unless COLUMNS says otherwise, and pytest-xdist's
    # workers inherit a COLUMNS; a test that wants a width sets it.
    monkeypatch.delenv("COLUMNS", raising=False)
