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
from c4tui.engine.board.scores import best_score
from c4tui.engine.study.threats import Threat, threats, zugzwang
from c4tui.match.exact_scores import ColumnScores, Solve
from c4tui.match.sides import GLYPHS


def threat_caption(
    position: Position, found: tuple[Threat, ...], exact: tuple[int | None, ...] = ()
) -> str:
    """ "Parity: ○ wins · threats ● 1 odd · ○ 2 even" (parity only on even heights);
    "Parity: a draw · no threats".

    The parity rule decides only who would win if the board filled up with today's
    threats and no new ones; the result with best play is the solver's. So when the
    solver's scores are on the board (`exact`, every column's) and its result differs,
    the caption says it too ("parity: a draw; solver: ● wins"): it never contradicts
    them. The notice shown with the marks says what "parity" means.
    """
    even_height = position.height % 2 == 0
    parts = []
    # A side without threats is left out ("threats ● 1 odd": ○ has none), and "no
    # threats" said once: "● none · ○ none" made the line too long for the board's
    # frame at 120 columns once the solver's result was on it.
    for player in (0, 1):
        mine = [t for t in found if t.player == player]
        if not mine:
            continue
        if even_height:
            odd = sum(t.odd for t in mine)
            counts = [f"{odd} odd"] * bool(odd) + [f"{len(mine) - odd} even"] * (odd < len(mine))
            parts.append(f"{GLYPHS[player]} {' '.join(counts)}")
        else:
            parts.append(f"{GLYPHS[player]} {len(mine)}")
    listed = "threats " + " · ".join(parts) if parts else "no threats"
    fill = zugzwang(position) if even_height else None
    if fill is not None:
        parity = result_words(fill.favours)
        words = f"parity: {parity}"
        solved = solver_words(position, exact)
        if solved is not None and solved != parity:
            words += f"; solver: {solved}"  # new threats decide: the solver's result
        # First: the frame cuts a long line at 80 columns, and the marks on the board
        # show the threats anyway.
        return f"{words[0].upper()}{words[1:]} · {listed}"
    return listed[0].upper() + listed[1:]


def caption_in(caption: str, room: int) -> str:
    """The caption in `room` characters: where it is longer (at 80 columns, with the
    solver's result), the threats' counts go, as the marks on the board show them; the
    parity and the solver's result stay ("Parity: a draw; solver: ○ wins")."""
    if len(caption) <= room or " · " not in caption or not caption.startswith("Parity"):
        return caption
    return caption.split(" · ")[0]


def result_words(winner: int | None) -> str:
    return "a draw" if winner is None else f"{GLYPHS[winner]} wins"


def solver_words(position: Position, exact: tuple[int | None, ...]) -> str | None:
    """The result with best play from every column's exact score ("● wins", "a draw");
    None when the scores are not known."""
    if not any(score is not None for score in exact):
        return None
    best = best_score(exact)
    if best == 0:
        return result_words(None)
    return result_words(position.to_move if best > 0 else 1 - position.to_move)


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

    def marks(
        self, position: Position, scores: ColumnScores | None = None
    ) -> tuple[tuple[tuple[int, int, int], ...], str]:
        """The marks for the board (player, column, row), and its frame's line; none
        while off. `scores`: the overlay's exact scores of the position, when shown."""
        if not self.shown or position.is_over():
            return (), ""
        found = threats(position)
        exact = scores.scores if scores is not None and scores.solve is Solve.SOLVED else ()
        marks = tuple((t.player, t.col, t.row) for t in found)
        return marks, threat_caption(position, found, exact)

    def toggle(self) -> None:
        self.shown = not self.shown
        if self.shown:
            self._app.notify(
                "Threats marked: • ●'s, ◦ ○'s. On even heights ● wants odd rows (1, 3, …), "
                "○ even ones. 'Parity' is who wins if the board fills with today's threats and "
                "no new ones; new threats can change it: the solver's result (o) decides. "
                "z hides them.",
                timeout=6,
            )
        self._app.refresh_view()
