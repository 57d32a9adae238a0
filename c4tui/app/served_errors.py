"""A served client's errors kept from the player: the app's part of server/wire/client_errors.py.

Textual prints an error that stops an app as a traceback with its local values, and
Python prints one for an error outside the app or in a thread; in a served client each
goes whole to the server's file instead, and the player reads one line.
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
import traceback
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from rich.console import Console
from textual.app import App

from c4tui.app.textual_internals import stopping_error
from c4tui.server.wire.client_errors import TOLD, keep


def _kept_exception(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    keep("".join(traceback.format_exception(kind, error, trace)))


def _kept_thread_exception(args: threading.ExceptHookArgs) -> None:
    keep("".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))


@contextlib.contextmanager
def kept_from_the_player(app: App[Any]) -> Iterator[None]:
    """Run a served client's app inside this: an error goes to the server's file, the
    player is told in one line, and the client exits 1."""
    shown = io.StringIO()
    # What Textual prints when the app ends (an error's traceback with its locals, or
    # the app's own last words) is written here rather than to the terminal.
    app.error_console = Console(file=shown, width=100, color_system=None, markup=False)
    sys.excepthook = _kept_exception
    threading.excepthook = _kept_thread_exception
    try:
        yield
    except Exception:
        keep(traceback.format_exc())
        print(TOLD, flush=True)
        raise SystemExit(1) from None
    error = stopping_error(app)
    if error is not None:  # logged as plain lines, not Textual's boxed drawing of them
        keep("".join(traceback.format_exception(error)))
        print(TOLD, flush=True)
    elif shown.getvalue():  # the app's own last words (it could not reach the service)
        sys.stderr.write(shown.getvalue())
