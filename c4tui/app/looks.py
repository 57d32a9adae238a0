"""Looks: how the board looks, its style (modern or classic) and falling discs, from the
palette.

A part of the app. Each choice is kept in the settings at once (the settings screen has
the same fields); the board is redrawn with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.app import SystemCommand

from c4tui.app.part_host import Host


class Looks:
    """Palette commands for the board's looks, for the app it is given."""

    def __init__(self, app: Host, land: Callable[[], None]) -> None:
        """`land()` puts every falling disc in its cell now."""
        self._app = app
        self._land = land

    def commands(self) -> Iterable[SystemCommand]:
        settings = self._app.settings
        other = "modern" if settings.board_style == "classic" else "classic"
        yield SystemCommand(
            f"Board style: {other}",
            "Modern discs, or the classic blue frame with red and yellow discs",
            self.toggle_board_style,
        )
        now = "on" if settings.animation else "off"
        yield SystemCommand(
            "Falling discs",
            f"Draw each dropped disc falling into place (now {now})",
            self.toggle_animation,
        )

    def toggle_board_style(self) -> None:
        style = "modern" if self._app.settings.board_style == "classic" else "classic"
        self._app.remember(board_style=style)
        if style == "classic" and self._app.no_color:
            self._app.notify("The classic board needs colour: with NO_COLOR it stays modern.")
        self._app.refresh_view()

    def toggle_animation(self) -> None:
        """Falling discs on or off; they fall only at Textual's `full` animation level."""
        animation_level = self._app.animation_level
        on = not self._app.settings.animation
        self._land()
        self._app.remember(animation=on)
        said = "fall into place" if on else "appear at once"
        if on and animation_level != "full":
            said += f" (not while TEXTUAL_ANIMATIONS is {animation_level})"
        self._app.notify(f"Dropped discs {said}.", timeout=3)
        self._app.refresh_view()
