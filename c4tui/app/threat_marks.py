"""Threat marks: each side's threats drawn on the board, with their parity and the zugzwang.

A part of ConnectFourApp. `z` (or the palette) toggles the marks for this session. The
engine finds the threats and settles the zugzwang (c4tui/engine/threats.py); here they
become marks in the holes (• a threat of ●, ◦ one of ○) and one line on the board's
frame: how many odd and even threats each side has and, on boards of even height, which
side the zugzwang favours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding

from c4tui.engine.board.position import Position
from c4tui.engine.study.threats import Threat, threats, zugzwang
from c4tui.match.sides import GLYPHS

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object


def threat_caption(position: Position, found: tuple[Threat, ...]) -> str:
    """ "● 1 odd · ○ 2 even · zugzwang: ○" (parity and zugzwang only on even heights)."""
    even_height = position.height % 2 == 0
    parts = []
    for player in (0, 1):
        mine = [t for t in found if t.player == player]
        if not mine:
            parts.append(f"{GLYPHS[player]} none")
        elif even_height:
            odd = sum(t.odd for t in mine)
            counts = [f"{odd} odd"] * bool(odd) + [f"{len(mine) - odd} even"] * (odd < len(mine))
            parts.append(f"{GLYPHS[player]} {' '.join(counts)}")
        else:
            parts.append(f"{GLYPHS[player]} {len(mine)}")
    fill = zugzwang(position) if even_height else None
    if fill is not None:
        parts.append(
            "fills to a draw" if fill.favours is None else f"zugzwang: {GLYPHS[fill.favours]}"
        )
    return "Threats " + " · ".join(parts)


class ThreatMarks(_Base):
    """The threat marks on the board (mixed into the app)."""

    THREAT_BINDINGS = (Binding("z", "toggle_threats", "Threats", show=False),)
    threats_shown = False

    def threat_commands(self):
        yield SystemCommand(
            "Threats on the board",
            "Mark each side's threats, their parity and the zugzwang (z)",
            self.action_toggle_threats,
        )

    def threat_marks(self) -> tuple[tuple[int, int, int], ...]:
        """The marks for the board now, and its frame's line (empty when off)."""
        pos = self.game.position
        if not self.threats_shown or pos.is_over():
            self.board.border_subtitle = ""
            return ()
        found = threats(pos)
        self.board.border_subtitle = threat_caption(pos, found)
        return tuple((t.player, t.col, t.row) for t in found)

    def action_toggle_threats(self) -> None:
        self.threats_shown = not self.threats_shown
        if self.threats_shown:
            self.notify(
                "Threats marked: • ●'s, ◦ ○'s. On even heights ● wants odd rows (1, 3, …), "
                "○ even ones. z hides them.",
                timeout=6,
            )
        self.refresh_view()
