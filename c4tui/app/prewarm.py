"""Prewarm: what a key opens later is made ready while nobody waits for it.

Measured with benchmarks/app_latency.py, the first `?` took 0.2-0.4 s and every `s`
0.1-0.4 s (the settings form is about a hundred widgets: composing, styling and laying
them out is most of it). So, after the first frame:
- a thread imports the screens' modules and parses the help page (Python compiles
  them from source when there is no bytecode cache); a key pressed meanwhile still
  comes first, as the GIL switches every few milliseconds (gil.py);
- a settings screen for the current settings is built ahead (mounted and laid out,
  then taken off the stack, under one batch so nothing is drawn), and `s` shows that
  one without restyling its ~300 nodes again (SettingsScreen.on_screen_resume): what
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
from typing import TYPE_CHECKING

from textual import work

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp
    from c4tui.app.screens.settings import SettingsScreen

    _Base = ConnectFourApp
else:
    _Base = object

# Every screen a key opens, and what each imports with it (Select, Input, DataTable).
SCREENS = (
    "c4tui.app.screens.help",
    "c4tui.app.screens.settings",
    "c4tui.app.screens.games",
    "c4tui.app.screens.review",
    "c4tui.app.screens.puzzle",
    "c4tui.app.screens.position",
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


class Prewarm(_Base):
    """Screens made ready ahead of their keys (mixed into the app)."""

    _spare: tuple[SettingsScreen, object] | None = None  # the screen, what it was built for
    spare_settings: bool | None = None  # build spares; None: unless headless
    _frozen = False  # gc.freeze() done
    _started = 0.0  # time.perf_counter() of the first frame

    def _wants_spare(self) -> bool:
        return not self.is_headless if self.spare_settings is None else self.spare_settings

    def start_prewarm(self) -> None:
        """After the first frame: load the screens, then build the spare settings screen."""
        self._started = time.perf_counter()
        self.prewarm_imports()

    @work(thread=True, group="prewarm", exit_on_error=False)
    def prewarm_imports(self) -> None:
        load_screens()
        self.call_from_thread(self.call_after_refresh, self.build_spare_settings)

    def _spare_key(self) -> object:
        return (self.settings, tuple(sorted(self.available_themes)), self.steady)

    def new_settings_screen(self) -> SettingsScreen:
        from c4tui.app.screens.settings import SettingsScreen

        return SettingsScreen(self.settings, sorted(self.available_themes), steady=self.steady)

    async def build_spare_settings(self) -> None:
        """Mount a settings screen for the current settings, off screen, for the next `s`."""
        if not (self.is_running and self._wants_spare()):
            return
        quiet = min(self.activity.idle_for(), time.perf_counter() - self._started)
        if len(self.screen_stack) != 1 or quiet < QUIET:  # a screen is open, or keys come
            self.set_timer(max(0.1, QUIET - quiet), self.build_spare_settings)
            return
        if self._spare is not None and self._spare[1] == self._spare_key():
            return
        self._drop_spare()
        screen = self.new_settings_screen()
        self.install_screen(screen, SPARE)
        with self.batch_update():
            await self.push_screen(SPARE)
            # Laid out now, while nobody waits: shown at the same size, it only paints.
            screen._refresh_layout(self.size)
            await self.pop_screen()
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
            return self.new_settings_screen()
        # No longer installed: closing it removes it, as any screen (the next spare is
        # built when the app is idle again).
        self._spare = None
        self.uninstall_screen(SPARE)
        return spare[0]

    def _drop_spare(self) -> None:
        spare, self._spare = self._spare, None
        if spare is not None:
            self.uninstall_screen(SPARE)
            spare[0].remove()
