"""Shared fixtures: every app test gets its own config directory, never the user's."""

from __future__ import annotations

import pytest

from c4tui.app.app import ConnectFourApp
from c4tui.app.settings import CONFIG_ENV, Settings


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Point the settings at a temporary directory, even for apps built without one."""
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "env-config"))
    return tmp_path / "env-config"


@pytest.fixture
def make_app(tmp_path):
    """Build an app on a temporary config dir with a fixed seed and fast opponent."""

    def build(**options) -> ConnectFourApp:
        options.setdefault("config_dir", tmp_path / "config")
        options.setdefault("seed", 1)
        options.setdefault("steady", True)
        if "settings" not in options and "opponent" not in options:
            options["settings"] = Settings(opponent="random", theme="textual-dark")
        return ConnectFourApp(**options)

    return build


CHARACTERS = {"space": " ", "enter": "\r", "question_mark": "?", "escape": "\x1b"}


def post_key(pilot, key: str) -> None:
    """Queue one key press for the app, as the terminal driver would."""
    from textual import events

    char = CHARACTERS.get(key, key if len(key) == 1 else None)
    pilot.app.post_message(events.Key(key, char))


async def type_keys(pilot, *keys: str) -> None:
    """Press keys without Pilot.press's wait for an idle process.

    Pilot.press waits until the whole process stops using the CPU, up to a second per
    key, which never happens while an engine thread searches. Here each key waits only
    until the app and its widgets have handled their pending messages.
    """
    for key in keys:
        post_key(pilot, key)
        await pilot.pause(0)
