"""The few Textual internals the app needs where Textual has no public API, in one place.

Each is named here once, so that a Textual upgrade that renames one breaks this module's
test (tests/app/test_textual_internals.py) loudly, not the app quietly:
- the notifications on show (Textual can post and clear them, not list them): a notice
  the person is already reading is not stacked again;
- the count of CSS updates (a theme, a variable): a screen built ahead keeps its styles
  while it has not changed;
- laying out a screen at a size before it is shown (the spare settings form);
- the driver, to show the terminal's cursor (the screen-reader mode);
- whether an app runs yet (a part built with the app hears events before it runs);
- a footer key's words and state, to change a key in place (widgets/key_bar.py);
- a frame's title and subtitle set with only the frame's lines repainted (Textual's own
  setters repaint the whole widget: every line of the move list's panel at every move);
- the messages a node has yet to handle, with the one it has taken out of its queue to
  look at, and whether a given one is among them (keys in the order typed, key_order.py);
- whether the app has been told to exit (a key that quits never comes to rest);
- the line a list's option starts on (the reader's cursor on the highlighted item);
- the error that stopped the app (a served client logs it, never shows it);
- whether a timer runs or is paused (tests of timers that run only with work to do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual._context import NoActiveAppError
from textual.app import App
from textual.content import Content
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.message import Message
from textual.message_pump import MessagePump
from textual.notifications import Notification
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey


def notifications(app: App[Any]) -> list[Notification]:
    """The notifications on show now, oldest first."""
    return list(app._notifications)


def withdraw(app: App[Any], notification: Notification) -> None:
    """Take one notification off the screen (a newer one says the same thing better)."""
    app._unnotify(notification)


def css_generation(app: App[Any]) -> int:
    """A number that changes whenever the app's CSS does (a theme, a variable)."""
    return app._css_update_count


def lay_out(screen: Screen[Any], size: Size) -> None:
    """Lay the screen out at `size` now, as showing it would."""
    screen._refresh_layout(size)


def show_terminal_cursor(app: App[Any], show: bool) -> None:
    """Show (or hide again) the terminal's own cursor. Textual hides it when it starts
    and moves it to `app.cursor_position` after every frame (for the IME of a focused
    input); shown, a screen reader or braille display follows it."""
    driver = app._driver
    if driver is not None and not app.is_headless:
        driver.write("\x1b[?25h" if show else "\x1b[?25l")
        driver.flush()


def call_later_or_now(node: DOMNode, callback: Callable[[], None]) -> None:
    """Run `callback` on the running app's next turn; before the app runs, at once."""
    try:
        app = node.app
    except NoActiveAppError:
        callback()
        return
    app.call_later(callback)


def messages_waiting(node: MessagePump) -> int:
    """The messages `node` has yet to handle. Its queue's size alone misses one: a node
    about to handle a message takes the next out of the queue to see whether it
    replaces the first, and keeps it aside until then (a key on its way, unseen)."""
    return node.message_queue_size + (node._pending_message is not None)


def holds_message(node: MessagePump, message: Message) -> bool:
    """Whether `message` waits in `node`'s queue, or aside (see messages_waiting)."""
    waiting: Iterable[Message | None] = node._message_queue.values  # Textual's queue: a deque
    return node._pending_message is message or any(m is message for m in waiting)


def exiting(app: App[Any]) -> bool:
    """Whether the app was told to exit (App.exit) or runs no more."""
    return bool(app._exit) or not app.is_running


def stopping_error(app: App[Any]) -> BaseException | None:
    """The unhandled error that stopped the app (Textual keeps the first), or None."""
    error: BaseException | None = app._exception
    return error


def footer_key_face(key: FooterKey) -> tuple[object, ...]:
    """What a footer key shows and does: its key, words, action, state and tooltip."""
    return key.key, key.key_display, key.description, key.action, key._disabled, key.tooltip


def set_footer_key_face(key: FooterKey, face: tuple[object, ...]) -> None:
    """Make `key` show and do what `face` (footer_key_face's) says. Its `-disabled`
    class is left as it was: a key that dims by that class must have it set too."""
    key.key, key.key_display, key.description, key.action = face[:4]  # type: ignore[assignment]
    key._disabled = bool(face[4])
    if key.tooltip != face[5]:
        key.tooltip = face[5]  # type: ignore[assignment]


def option_line(options: OptionList, index: int) -> int:
    """The first line of option `index` in the list (an option may wrap to several)."""
    return options._index_to_line.get(index, index)


def timer_running(timer: Timer) -> bool:
    """Whether the timer runs (started and not paused)."""
    return timer._active.is_set()


def set_frame_words(widget: Widget, title: str, subtitle: str) -> None:
    """Set the widget's border title and subtitle (plain words, never markup), painting
    again only the frame's top line for a new title and its bottom line for a new
    subtitle."""
    lines: list[int] = []
    height = widget.outer_size.height
    for words, name, line in (
        (title, "_border_title", 0),
        (subtitle, "_border_subtitle", height - 1),
    ):
        shown = getattr(widget, name)
        new = Content(words) if words else None
        if (shown.plain if shown is not None else None) != (words or None):
            setattr(widget, name, new)
            lines.append(line)
    if not lines:
        return
    if not widget.is_mounted or not height:
        widget.refresh()
        return
    # Refresh takes regions from the content's corner: the frame lies above and left of it.
    left, top = widget.content_offset
    width = widget.outer_size.width
    widget.refresh(*(Region(-left, line - top, width, 1) for line in lines))
