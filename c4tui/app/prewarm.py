"""Prewarm: what a key opens later is made ready while nobody waits for it.

Measured with benchmarks/app_latency.py, the first `?` took 0.2-0.4 s and every `s`
0.1-0.4 s (the settings form is about a hundred widgets: composing, styling and laying
them out is most of it). So, after the first frame:
- a thread imports the screens' modules and parses the help page (Python compiles
  them from source when there is no bytecode cache); a key pressed meanwhile still
  comes first, as the GIL switches every few milliseconds (gil.py);
- a settings screen for the current settings is built ahead (mounted and laid out,
  then taken off the stack, under one batch so nothing is drawn), and `s` shows that
  one without restyling its ~300 nodes again (screens/built_ahead.py): what
  is left for the key is painting it. After each use, or when the settings change,
  the next one is built once no key has come for a second (QUIET);
- once the first is built, what is alive then is frozen out of the garbage collector's
  sight (gc.freeze), so that a full collection in the middle of a key is short.
A key pressed while a spare is being built waits for it (0.1-0.3 s, on the main thread),
then goes to the game as usual; so does quitting. Waiting for a quiet second first makes
that rare: someone typing is not interrupted. Headless apps (the
tests) build no spare unless asked: nobody looks at them, and a test's forced shutdown
in the middle of a build would find the form's widgets half mounted.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from textual.geometry import Size
from textual.screen import Screen

from c4tui.app.part_host import Host
from c4tui.app.textual_internals import lay_out

if TYPE_CHECKING:
    from c4tui.app.screens.settings_form import SettingsScreen

# Every screen a key opens, and what each imports with it (Select, Input, DataTable).
SCREENS = (
    "c4tui.app.screens.help",
    "c4tui.app.screens.settings_form",
    "c4tui.app.screens.kept_games",
    "c4tui.app.screens.review",
    "c4tui.app.screens.puzzle",
    "c4tui.app.screens.position_entry",
    "c4tui.app.screens.save_as",
)
SPARE = "spare-settings"  # the name the spare settings screen is installed under
QUIET = 1.0  # seconds without a key (or since the first frame) before a spare is built


def load_screens() -> None:
    """Import the screens' modules and parse the help page (both kept by Python)."""
    for name in SCREENS:
        importlib.import_module(name)
    from c4tui.app.screens.help import help_page

    help_page()


class PrewarmHost(Host, Protocol):
    """What the prewarmer uses of the app besides a part's Host: its screens' stack and
    the Textual calls that build a screen ahead, off screen."""

    @property
    def is_headless(self) -> bool: ...
    @property
    def is_running(self) -> bool: ...
    @property
    def screen_stack(self) -> list[Screen[Any]]: ...
    @property
    def size(self) -> Size: ...
    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...
    def install_screen(self, screen: Screen[Any], name: str) -> None: ...
    def uninstall_screen(self, screen: Screen[Any] | str) -> str | None: ...
    def batch_update(self) -> AbstractContextManager[None]: ...
    def pop_screen(self) -> Awaitable[Any]: ...


class Prewarmer:
    """Screens made ready ahead of their keys, for the app it is given."""

    def __init__(self, app: PrewarmHost) -> None:
        self._app = app
        self._spare: tuple[SettingsScreen, object] | None = None  # the screen, its key
        self.spare_settings: bool | None = None  # build spares; None: unless headless
        self._frozen = False  # gc.freeze() done
        self._started = 0.0  # time.perf_counter() of the first frame

    @property
    def spare(self) -> SettingsScreen | None:
        """The spare settings screen built ahead, if any."""
        return None if self._spare is None else self._spare[0]

    def _new_settings_screen(self) -> SettingsScreen:
        from c4tui.app.screens.settings_form import SettingsScreen

        app = self._app
        return SettingsScreen(app.settings, sorted(app.available_themes), steady=app.steady)

    def _spare_key(self) -> object:
        """What a settings screen built ahead shows: stale once this changes."""
        app = self._app
        return (app.settings, tuple(sorted(app.available_themes)), app.steady)

    def _wants_spare(self) -> bool:
        if self.spare_settings is None:
            return not self._app.is_headless
        return self.spare_settings

    def start(self) -> None:
        """After the first frame: load the screens, then build the spare settings screen."""
        self._started = time.perf_counter()
        self._app.run_worker(
            self._load, name="prewarm", group="prewarm", thread=True, exit_on_error=False
        )

    def _load(self) -> None:
        load_screens()
        self._app.call_from_thread(self._app.call_after_refresh, self.build_spare)

    async def build_spare(self) -> None:
        """Mount a settings screen for the current settings, off screen, for the next `s`."""
        app = self._app
        if not (app.is_running and self._wants_spare()):
            return
        quiet = min(app.activity.idle_for(), time.perf_counter() - self._started)
        if len(app.screen_stack) != 1 or quiet < QUIET:  # a screen is open, or keys come
            app.set_timer(max(0.1, QUIET - quiet), self.build_spare)
            return
        if self._spare is not None and self._spare[1] == self._spare_key():
            return
        self._drop_spare()
        screen = self._new_settings_screen()
        app.install_screen(screen, SPARE)
        with app.batch_update():
            await app.push_screen(SPARE)
            # Laid out now, while nobody waits: shown at the same size, it only paints.
            lay_out(screen, app.size)
            await app.pop_screen()
        screen.mark_styled()
        self._spare = (screen, self._spare_key())
        if not self._frozen:
            # What is alive once the app is ready (the modules, the app, its screens)
            # lives as long as the app: out of the garbage collector's sight, a full
            # collection no longer walks it all (one cost the second `?` 0.1 s). Once
            # only: a frozen screen's cycles are never collected after it is closed.
            self._frozen = True
            gc.freeze()

    def take_settings_screen(self) -> SettingsScreen:
        """The spare settings screen when it shows the current settings, else a new one."""
        spare = self._spare
        if spare is None or spare[1] != self._spare_key():
            self._drop_spare()
            return self._new_settings_screen()
        # No longer installed: closing it removes it, as any screen (the next spare is
        # built when the app is idle again).
        self._spare = None
        self._app.uninstall_screen(SPARE)
        return spare[0]

    def _drop_spare(self) -> None:
        spare, self._spare = self._spare, None
        if spare is not None:
            self._app.uninstall_screen(SPARE)
            spare[0].remove()
