"""The served client's input thread sleeps while no key comes (app/quiet_driver.py).

Textual's own thread wakes ten times a second, which was most of what an idle served
client cost. These run the served app's driver's input thread on a PTY of their own and
watch how it waits: with no timeout once the keys typed are read, and still telling a
lone Esc apart, and ending when told to.
"""

from __future__ import annotations

import os
import pty
import selectors
import signal
import threading
import tty
from collections.abc import AsyncIterator
from typing import Any, ClassVar, NamedTuple

import pytest
from textual import events

from c4tui.app import quiet_driver
from c4tui.app.served import ServedApp

GUARD = 30.0  # seconds: only stops a broken test


class Waits(selectors.PollSelector):
    """A selector that tells each wait's timeout as it begins."""

    timeouts: ClassVar[list[float | None]] = []
    forever: ClassVar[threading.Event] = threading.Event()  # a wait with no timeout began

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        Waits.timeouts.append(timeout)
        if timeout is None:
            Waits.forever.set()
        return super().select(timeout)


class Reading(NamedTuple):
    driver: Any
    thread: threading.Thread
    typing: int  # the PTY's other end: what is written there is typed
    made: list[Any]  # the messages the driver made of it
    arrived: threading.Event  # set at each


@pytest.fixture
async def driver(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Reading]:
    """The served app's driver's input thread, reading a PTY of its own (a driver is
    made on a running event loop, which these never give a turn: what it makes of the
    keys is kept here instead of being posted to the app)."""
    monkeypatch.setattr(quiet_driver.selectors, "PollSelector", Waits)
    Waits.timeouts, Waits.forever = [], threading.Event()
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    typing, terminal = pty.openpty()
    tty.setraw(terminal)  # each key as it is typed, as the app's terminal has them
    made: list[Any] = []
    arrived = threading.Event()
    app = ServedApp()
    made_driver = app.driver_class(app)

    def heard(message: Any) -> None:
        made.append(message)
        arrived.set()

    made_driver.fileno = terminal
    made_driver.process_message = heard
    thread = threading.Thread(target=made_driver.run_input_thread, daemon=True)
    thread.start()
    try:
        yield Reading(made_driver, thread, typing, made, arrived)
    finally:
        made_driver.exit_event.set()
        thread.join(GUARD)
        made_driver.close()
        os.close(typing)
        os.close(terminal)
        for sig, handler in kept.items():
            signal.signal(sig, handler)


def keys(made: list[Any]) -> list[str]:
    return [m.key for m in made if isinstance(m, events.Key)]


async def test_the_input_thread_waits_without_a_timeout_while_no_key_comes(driver):
    assert Waits.forever.wait(GUARD), f"never waited without a timeout: {Waits.timeouts}"
    os.write(driver.typing, b"a")
    assert driver.arrived.wait(GUARD)
    assert keys(driver.made) == ["a"]
    Waits.forever.clear()
    assert Waits.forever.wait(GUARD), "after a key it never slept again"


async def test_a_lone_escape_is_still_a_key(driver):
    assert Waits.forever.wait(GUARD)
    os.write(driver.typing, b"\x1b")
    assert driver.arrived.wait(GUARD), "a lone Esc was never said"
    assert keys(driver.made) == ["escape"]


async def test_the_thread_ends_when_told(driver):
    assert Waits.forever.wait(GUARD)
    driver.driver.exit_event.set()
    driver.thread.join(GUARD)
    assert not driver.thread.is_alive()


def test_a_browsers_client_keeps_the_driver_textual_serve_names(monkeypatch):
    """textual-serve runs a browser's client with its own driver (TEXTUAL_DRIVER): the
    quiet one is for terminals only (given to a browser's client, the tab never drew)."""
    monkeypatch.setattr("textual.constants.DRIVER", "textual.drivers.web_driver:WebDriver")
    assert ServedApp().driver_class.__name__ == "WebDriver"
    monkeypatch.setattr("textual.constants.DRIVER", None)
    assert ServedApp().driver_class is quiet_driver.QuietDriver
