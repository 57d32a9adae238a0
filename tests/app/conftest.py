"""Shared fixtures: every app test gets its own config and data directories, never the user's."""

from __future__ import annotations

import pytest

from c4tui.app.app import ConnectFourApp
from c4tui.app.settings import CONFIG_ENV, Settings
from c4tui.files import DATA_ENV
from tests.rooms.support import clocked  # noqa: F401  # a fixture: a room service on a moved time


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Point the settings at a temporary directory, even for apps built without one."""
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "env-config"))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "env-data"))
    return tmp_path / "env-config"


@pytest.fixture
def make_app(tmp_path):
    """Build an app on a temporary config dir with a fixed seed and fast opponent."""

    def build(**options) -> ConnectFourApp:
        options.setdefault("config_dir", tmp_path / "config")
        options.setdefault("seed", 1)
        options.setdefault("steady", True)
        options.setdefault("resume", False)  # each test starts from its own board
        if "settings" not in options and "opponent" not in options:
            options["settings"] = Settings(opponent="random", theme="textual-dark")
        return ConnectFourApp(**options)

    return build
