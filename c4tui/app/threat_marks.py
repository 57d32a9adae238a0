"""Threat marks: each side's threats drawn on the board, with their parity and the zugzwang.

A part of the app. `z` (or the palette) toggles the marks for this session. The
engine finds the threats and settles the zugzwang (c4tui/engine/threats.py); here they
become marks in the holes (• a threat of ●, ◦ one of ○) and one line on the board's
frame: how many odd and even threats each side has and, on boards of even height, which
side the zugzwang favours.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import SystemCommand

from c4tui.app.keys import keyed_command
from c4tui.app.part_host import Host
from c4tui.engine.board.position import Position
from c4tui.engine.study.threats import Threat, threats, zugzwang
from c4tui.match.sides import GLYPHS


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


class ThreatMarks:
    """The threat marks on the board, for the app it is given."""

    def __init__(self, app: Host) -> None:
        self._app = app
        self.shown = False

    def commands(self) -> Iterable[SystemCommand]:
        yield keyed_command(
            "Threats on the board",
            "Mark each side's threats, their parity and the zugzwang",
            "part('threats', 'toggle')",
            self.toggle,
        )

    def marks(self, position: Position) -> tuple[tuple[tuple[int, int, int], ...], str]:
        """The marks for the board (player, column, row), and its frame's line; none
        while off."""
        if not self.shown or position.is_over():
            return (), ""
        found = threats(position)
        return tuple((t.player, t.col, t.row) for t in found), threat_caption(position, found)

    def toggle(self) -> None:
        self.shown = not self.shown
        if self.shown:
            self._app.notify(
                "Threats marked: • ●'s, ◦ ○'s. On even heights ● wants odd rows (1, 3, …), "
                "○ even ones. z hides them.",
                timeout=6,
            )
        self._app.refresh_view()
