"""Notices: what the match asks the app to tell the person, shown once the parts have
acted (`show`), worded with the app's keys, never twice at once.

A part of the app: it hears the match's `Notice` events and keeps them until the next
`show`, so a notice said while the app starts (a kept game that could not be resumed)
waits for the screen.
"""

from __future__ import annotations

from typing import Any

from c4tui.app.status_words import worded
from c4tui.app.textual_internals import notifications, withdraw
from c4tui.match.interface import MatchEvent
from c4tui.match.search_requests import Notice

# How long a notice stays in the app's steady mode, which has no clock on screen: until a
# newer one replaces it (a day stands for that: Textual's notices take no "never").
STEADY_NOTICE_SECONDS = 24 * 3600.0


class Notices:
    """The match's notices waiting to be shown, for the app it is given."""

    def __init__(self, app: Any) -> None:
        self._app = app
        self.pending: list[Notice] = []

    def hear(self, event: MatchEvent) -> None:
        """A listener of the match: its notices wait; the rest is drawn from its state."""
        if isinstance(event, Notice):
            self.pending.append(event)

    def show(self) -> None:
        notices, self.pending = self.pending, []
        app = self._app
        for notice in notices:
            if notice.bell:
                app.bell()
            # A column pressed five times after the end gives one notice, not five; a
            # newer notice on the same subject (its title) replaces the older.
            shown = notifications(app)
            text = worded(notice.text)
            if any(n.message == text for n in shown):
                continue
            for old in (n for n in shown if notice.title and n.title == notice.title):
                withdraw(app, old)
            app.notify(text, title=notice.title, severity=notice.severity, timeout=notice.timeout)
