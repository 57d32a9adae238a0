"""A fresh store in a temporary directory for each test."""

from __future__ import annotations

import pytest

from c4tui.community.store import open_store


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path) as store:
        yield store
