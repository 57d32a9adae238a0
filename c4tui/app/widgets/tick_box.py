"""A check box whose mark says on or off by its shape, not only by its colour.

Textual's Checkbox draws the same "X" whether it is on or off and tells them apart by
colour alone, which a colour-blind player, a monochrome terminal or `NO_COLOR` cannot
read. This one draws "✓" when on and a blank when off.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Checkbox

ON_MARK = "✓"
OFF_MARK = " "


class TickBox(Checkbox):
    """A Checkbox marked ✓ when on and left blank when off."""

    def __init__(self, label: str, value: bool = False, **options: Any) -> None:
        super().__init__(label, value, **options)
        self.BUTTON_INNER = ON_MARK if value else OFF_MARK

    def watch_value(self) -> None:
        # Checkbox's own watcher posts Changed; this one only redraws the mark.
        super().watch_value()
        self._mark(self.value)

    def _mark(self, on: bool) -> None:
        self.BUTTON_INNER = ON_MARK if on else OFF_MARK
        self.refresh()
