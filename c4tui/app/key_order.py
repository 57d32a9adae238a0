"""Keys in the order typed: each key is handled, with all it sets going, before the next.

Textual hands a key to the focused widget's own queue at once, and a key bound on the
screen or the app acts only when it has bubbled back up to the app. Keys typed in one
burst (a terminal's read, a browser's message) are by then all handed
to the widget that had the focus: after `n` (the profile's name field) the name's first
letters went to the screen, after `c` (a challenge) they ran the lobby's own keys, and
an Input's Backspace acted after the letter typed behind it.

So the app lets one key (or paste) through at a time and holds the rest; the next goes
when the first has come to rest: every queue of the app and of the screen now on top
(a screen the key opened, with its field focused on mount, included) is empty at the
end of a round of callbacks through them all. A key typed slowly goes at once, and so
does a letter into a text field (the field takes it in its own turn, bubbling nowhere):
waiting for each to rest cost 6-7 ms of CPU a key, where typing one costs under 1 ms
(60 letters in one burst into the position field, 120x40).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from functools import partial
from typing import Any

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.widgets import Input, TextArea

from c4tui.app.textual_internals import exiting, holds_message, messages_waiting

# Rounds of callbacks before a held key goes anyway: a screen that is never quiet (a
# timer at every turn) must not swallow the keyboard; the keys of the tests in
# tests/app/test_key_order.py came to rest in 2 to 10 rounds.
MOST_ROUNDS = 50
# Seconds after a lone key when the app looks whether it has come to rest (and again,
# until it has): a key typed within it waits for the rounds, as one of a burst does.
SETTLE_AFTER = 0.01


class KeyOrder:
    """Holds keys while one is being handled; `holds(event)` in the app's `on_event`."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._held: deque[events.Event] = deque()
        self._busy = False  # a key has been let through and has not come to rest
        self._released: events.Event | None = None  # the held key let through now
        self._rounds = 0
        self._looking = False  # rounds under way, looking for rest (_round)
        self._going: events.Event | None = None  # the key let through last

    @property
    def quiet(self) -> bool:
        """No key held, and the last one let through has come to rest (or the app is
        closing: a key that quits it never comes to rest, its timers stopped)."""
        return not self._busy or exiting(self._app)

    def holds(self, event: events.Event) -> bool:
        """Whether the app must leave `event` alone now (it is held, and goes later)."""
        if not isinstance(event, (events.Key, events.Paste)) or event.is_forwarded:
            return False  # a key on its way back up from the widgets is being handled
        if event is self._released:
            self._released = None
        elif self._busy:
            self._held.append(event)
            self._look_for_rest()
            return True
        if self._typed_in_place(event):  # in the field at once, moving nothing
            self._next()  # so the key after it may follow it into the field's queue
            return False
        self._busy = True
        self._going = event
        if self._held:
            self._look_for_rest()
        else:
            # Nothing to wait for unless keys come in behind it (a burst: they reach the
            # app before it next looks). Rounds after every key kept the app from going
            # idle to paint: a lone arrow's cursor showed in 28-32 ms instead of 8-9 (a
            # pty, no search, load 7). A look a moment later on the app's own timer
            # costs nothing meanwhile; a callback after the screen's next paint was lost
            # when the key opened another screen (the one painted next), and the key
            # never came to rest.
            self._look_later(event)
        return False

    def _look_later(self, key: events.Event) -> None:
        # Not the app's set_timer: a one-shot Textual timer skips its only tick when the
        # process is held up past the delay before the timer first reads the clock (a
        # load of 15 on two cores), and the key never came to rest. The loop's own
        # timer always runs, late or not, and hands the look to the app's queue.
        asyncio.get_running_loop().call_later(
            SETTLE_AFTER, self._app.call_later, partial(self._settle, key)
        )

    def _look_for_rest(self) -> None:
        """Start the rounds that let the held keys go one by one (once)."""
        if not self._looking:
            self._looking = True
            self._rounds = 0
            self._app.call_later(self._round)  # after the app has handed the key on

    def _settle(self, key: events.Event) -> None:
        """A moment after `key` went, no key came behind it: the next key may
        go at once, once this one has come to rest. It may still wait in the focused
        widget's queue, its parents' or the app's, where its binding acts (a lobby
        button's `j`, on its way to focus the code box: the letter typed next went to
        the button and was lost); then the app looks again a moment later."""
        if key is not self._going or self._held or self._looking:
            return  # a later key went since, or keys wait behind this one (the rounds)
        if any(holds_message(node, key) for node in self._nodes()):
            self._look_later(key)
        else:
            self._busy = False

    def _typed_in_place(self, event: events.Event) -> bool:
        """Whether the focused text field takes `event` in its own turn, bubbling nowhere."""
        if not isinstance(self._app.focused, (Input, TextArea)):
            return False
        return isinstance(event, events.Paste) or (
            isinstance(event, events.Key) and event.is_printable
        )

    def _round(self) -> None:
        """Let the next key go if all is quiet; else look again once the nodes that may
        be at work have each had their turn: those with messages waiting, and the app and
        the focused widget and its ancestors (where a key goes, and where a screen opened
        mounts its own). A callback through every node instead cost 10 ms of CPU a
        cursor key on the game screen (60 in a burst, 120x40, load 7), where a key costs
        1.4 ms."""
        nodes = self._nodes()
        at_work = [node for node in nodes if messages_waiting(node)]
        self._rounds += 1
        if (self._rounds > 1 and not at_work) or self._rounds > MOST_ROUNDS:
            self._looking = False
            self._next()
            return
        waiting = [node for node in {*at_work, *self._key_path()} if node.is_running]
        left = len(waiting)

        def turn_taken() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                self._round()

        for node in waiting:
            if not node.call_later(turn_taken):
                turn_taken()

    def _key_path(self) -> Sequence[MessagePump]:
        """Where a key goes: the focused widget and its ancestors up to the app (or the
        app and the screen, when nothing has the focus)."""
        focused = self._app.focused
        if focused is None:
            return self._nodes()[:2]
        return focused.ancestors_with_self

    def _nodes(self) -> list[MessagePump]:
        """The app, then every node of the screen on top (the keys' next receivers)."""
        app = self._app
        try:
            screen = app.screen
        except Exception:  # no screen yet, or the app is closing: the app alone
            return [app]
        return [app, *screen.walk_children(with_self=True)]

    def _next(self) -> None:
        """The held key goes, through the app's queue as a key of its own would."""
        if not self._held:
            self._busy = False
            return
        self._released = self._held.popleft()
        self._app.post_message(self._released)
