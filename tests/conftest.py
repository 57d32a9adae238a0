"""Every test: the command line's width does not depend on the runner's environment."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.community.postgres import running

# Bytecode is cached while the tests run, even where the environment says not to
# (PYTHONDONTWRITEBYTECODE=1 on some machines, this one included): the suite starts
# hundreds of Python processes (the CLI, served clients, engines), and each compiling
# textual and c4tui from source spent about 2 s of CPU more than reading the cache did.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

SLOW_LIST = Path(__file__).with_name("slow_tests.txt")


@pytest.hookimpl(tryfirst=True)  # before `-m 'not slow'` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests measured as costly (slow_tests.txt, scripts/slow_tests.py) are slow."""
    listed = {
        line
        for line in SLOW_LIST.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    }
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_columns_from_the_runner(monkeypatch):
    # Piped output is 120 columns wide unless COLUMNS says otherwise, and pytest-xdist's
    # workers inherit a COLUMNS; a test that wants a width sets it.
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture(scope="session")
def postgres():
    """PostgreSQL of the tests' own (tests/community/postgres.py), for the store's tests
    and the servers' (tests/serve/): one per test process, skipped where not installed."""
    with running() as server:
        yield server


@pytest.fixture
def own_postgres():
    """A PostgreSQL of this test's own: the test stops and freezes it."""
    with running() as server:
        yield server
