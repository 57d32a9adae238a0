"""How the board looks: its style (modern or classic) and falling discs, from the palette.

A mixin of ConnectFourApp. Each choice is kept in the settings at once (the settings
screen has the same fields); the board is redrawn with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object


class Looks(_Base):
    """Palette commands for the board's looks (mixed into the app)."""

    def looks_commands(self) -> Iterable[SystemCommand]:
        other = "modern" if self.settings.board_style == "classic" else "classic"
        yield SystemCommand(
            f"Board style: {other}",
            "Modern discs, or the classic blue frame with red and yellow discs",
            self.action_toggle_board_style,
        )
        now = "on" if self.settings.animation else "off"
        yield SystemCommand(
            "Falling discs",
            f"Draw each dropped disc falling into place (now {now})",
            self.action_toggle_animation,
        )

    def action_toggle_board_style(self) -> None:
        style = "modern" if self.settings.board_style == "classic" else "classic"
        self.remember(board_style=style)
        if style == "classic" and self.no_color:
            self.notify("The classic board needs colour: with NO_COLOR it stays modern.")
        self.refresh_view()

    def action_toggle_animation(self) -> None:
        on = not self.settings.animation
        self.remember(animation=on)
        self.board.land()
        said = "fall into place" if on else "appear at once"
        if on and self.animation_level != "full":
            said += f" (not while TEXTUAL_ANIMATIONS is {self.animation_level})"
        self.notify(f"Dropped discs {said}.", timeout=3)
        self.refresh_view()
