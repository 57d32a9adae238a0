"""Preferences: where the session's settings come from and how they are kept.

A part of the app. The saved file gives the settings (a damaged file: the defaults and
a notice); the command line's choices win for this session only. A change made with a
key (speed, overlay, looks) is kept at once, and only that field; the settings form
saves all of it; a theme picked in the command palette is kept once, at exit, because
the palette previews every theme it passes over.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import cast

from c4tui.app import settings as settings_store
from c4tui.app.settings import First, Settings
from c4tui.match.search_requests import Notice


class Preferences:
    """The settings file of one session: loaded once, kept as they change."""

    def __init__(self, config_dir: str | Path | None, *, save: bool) -> None:
        self.config_dir = settings_store.config_dir(config_dir)
        self.save = save  # False: a test or a screenshot, whose settings are its own
        self.notice: str | None = None  # for the person, when the file was unusable
        self._theme_unsaved = False  # chosen in the command palette since the last save

    def load(self, settings: Settings | None, opponent: str | None, first: str | None) -> Settings:
        """`settings`, else the saved ones; with the command line's choices for this
        session. Both are about a game against the AI, so they also choose that mode:
        otherwise a saved two-people or AI-against-AI mode would silently ignore them."""
        if settings is None:
            settings, self.notice = settings_store.load(self.config_dir, set_damage_aside=self.save)
        if opponent is not None:
            settings = replace(settings, mode="human-ai", opponent=opponent)
        if first is not None:
            # The command line's choices are "you" or "ai" (argparse's choices).
            settings = replace(settings, mode="human-ai", first=cast(First, first))
        return settings

    def keep(self, **changes: object) -> str | None:
        """Keep these fields in the saved settings, leaving the others as the file has
        them (not as this session has them); an error to tell, or None."""
        if not self.save:
            return None
        try:
            settings_store.save_changes(self.config_dir, **changes)
        except OSError as error:
            return f"Could not save settings: {error}"
        return None

    def keep_all(self, settings: Settings) -> Notice | None:
        """Save the whole form; what to tell the person (None: this session saves none)."""
        if not self.save:
            return None
        try:
            path = settings_store.save(settings, self.config_dir)
        except OSError as error:
            return Notice(f"Could not save settings: {error}", "error")
        self._theme_unsaved = False
        return Notice(f"Settings saved to {path}.", timeout=3)

    def palette_theme(self) -> None:
        """A theme was picked in the command palette: keep it at exit."""
        self._theme_unsaved = True

    def at_exit(self, settings: Settings) -> None:
        """Keep a palette-chosen theme for next time (only the theme)."""
        if self._theme_unsaved and self.save:
            with suppress(OSError):  # the app is closing: nowhere left to report it
                settings_store.save_changes(self.config_dir, theme=settings.theme)
