"""A modal screen built ahead (prewarm.py) keeps the styles it was built with when shown.

Textual restyles a screen's every node when it is shown: for the settings form (about
300 nodes with the selects' overlays) that was a third of its first paint. Styles
computed when it was built ahead still hold while the app's CSS is the same; a class or
focus change restyles its own node as usual.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.screen import ModalScreen

from c4tui.app.textual_internals import css_generation

Result = TypeVar("Result")


class BuiltAheadScreen(ModalScreen[Result]):
    """A modal screen that may be mounted ahead, then shown without restyling."""

    _styled_for: object = None  # what its styles were computed under (see mark_styled)

    def _style_context(self) -> object:
        # Textual counts every change of the app's CSS (a theme, a variable); focus of
        # the terminal window is the one app-wide pseudo-class a form reads.
        return (css_generation(self.app), self.app.app_focus)

    def mark_styled(self) -> None:
        """Called once the screen has been mounted ahead (prewarm.py): its styles are
        fresh for the app's CSS as it is now."""
        self._styled_for = self._style_context()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._styled_for is not None and self._styled_for == self._style_context():
            event.refresh_styles = False
        self._styled_for = None
