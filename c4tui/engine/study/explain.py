"""Why a move loses: the solver's refutation line, and the threat it shows.

After a move that loses (its exact score is negative for the mover), the refutation is
the opponent's best reply and perfect play after it (`refutation`). `why_it_loses`
reads the position and that line in threats' terms (threats.py) and names the reason
when it is one of these, checked in this order:
- `open`: the opponent had a threat playable now and the move did not block it;
- `under`: the move dropped a stone right under an opponent's threat;
- `kept`: the line ends on a threat the opponent already had after the move (the move
  failed to stop it);
- `double`: during the line the opponent makes two threats at once that cannot both be
  stopped (two playable now, or one right above the other); both are named, and the
  line plays on to the win on the one left;
- `new`: the line ends on a threat the opponent makes during it (the move allowed it);
- `zugzwang`: no line ends within reach, but with the threats after the move the
  zugzwang favours the opponent.
None when the line shows none of these (the loss lies deeper than the words reach).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal

from c4tui.engine.board.geometry import centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score
from c4tui.engine.solver import SearchStopped, exact_scores, shared_solver
from c4tui.engine.solver.line import best_line
from c4tui.engine.study.threats import (
    Threat,
    double_threat,
    playable_now,
    threat_cells,
    threats,
    zugzwang,
)

Kind = Literal["open", "under", "kept", "double", "new", "zugzwang"]
REFUTATION_PLIES = 14


@dataclass(frozen=True)
class Reason:
    """Why a move loses: what kind of reason, the opponent's threat it is about, and the
    refutation line (0-based columns, the opponent's reply first)."""

    kind: Kind
    threat: Threat
    line: tuple[int, ...]
    other: Threat | None = None  # a double threat's second cell
    made_at: int = 0  # a double threat: the moves of the line that lead to it

    def against_both(self, glyphs: tuple[str, str]) -> str:
        """A double threat played against both blocks: "If ● blocks column 2, ○ wins
        at column 6; if ● blocks column 6, ○ wins at column 2." Empty for other kinds."""
        if self.kind != "double" or self.other is None:
            return ""
        side, blocker = glyphs[self.threat.player], glyphs[1 - self.threat.player]
        one, two = self.threat, self.other
        if one.col == two.col:  # one above the other: blocking the lower gives the upper
            return (
                f"If {blocker} blocks column {one.col + 1}, {side} drops on top of it and "
                f"wins at row {two.row + 1}."
            )
        return (
            f"If {blocker} blocks column {one.col + 1}, {side} wins at column {two.col + 1}; "
            f"if {blocker} blocks column {two.col + 1}, {side} wins at column {one.col + 1}."
        )

    def words(self, glyphs: tuple[str, str]) -> str:
        """One sentence, the sides named by `glyphs` (● and ○ in the app)."""
        side = glyphs[self.threat.player]
        cell = self.threat.cell_words()
        parity = self.threat.parity
        if self.kind == "open":
            return f"It leaves {side}'s threat at {cell} open: {side} drops there and wins."
        if self.kind == "under":
            return f"It lets {side} drop on top of it, at {cell}, completing a line."
        if self.kind == "kept":
            return f"It does not stop {side}'s {parity} threat at {cell}; the line plays it out."
        if self.kind == "double" and self.other is not None:
            return (
                f"It allows {side} a double threat, at {cell} and {self.other.cell_words()}: "
                "stopping one leaves the other."
            )
        if self.kind == "new":
            return f"It allows {side} a new threat at {cell} that cannot be stopped."
        return (
            f"With the threats after it the zugzwang favours {side}: {side}'s {parity} "
            f"threat at {cell} is filled in at the end."
        )


def refutation(
    after: Position, plies: int = REFUTATION_PLIES, stop: threading.Event | None = None
) -> tuple[int, ...]:
    """The opponent's best reply to the move that led to `after`, and perfect play after
    it, up to `plies` moves (shorter when stopped; empty when the game is over)."""
    if after.is_over():
        return ()
    solver = shared_solver(after.geometry)
    with solver.working(stop=stop):
        try:
            columns = solver.analyze(after)
        except SearchStopped:
            return ()
        scores = exact_scores(columns)
        best = best_score(scores)
        # centre first among equals: the perfect player's own tie-break
        first = next(c for c in centre_first(after.width) if scores[c] == best)
        return best_line(solver, after, first, best, plies)


def why_it_loses(before: Position, column: int, line: tuple[int, ...]) -> Reason | None:
    """The reason the move `column` in `before` loses, read from the refutation `line`
    (see the module docstring); None when none of the reasons shows."""
    opponent = 1 - before.to_move
    after = before.play(column)
    open_threats = [t for t in threats(before) if t.player == opponent and playable_now(before, t)]
    if open_threats and column not in {t.col for t in open_threats}:
        return Reason("open", open_threats[0], line)
    above = Threat(opponent, column, before.column_height(column) + 1)
    if above.row < before.height and threat_cells(after, opponent) & after.geometry.bit(
        column, above.row
    ):
        return Reason("under", above, line)
    final, double, made_at = after, None, 0
    for index, col in enumerate(line):
        if final.is_over():
            break
        final = final.play(col)
        if double is None and final.to_move != opponent:  # the opponent just moved
            double, made_at = double_threat(final, opponent), index + 1
    if final.winner() == opponent and double is not None:
        return Reason("double", double[0], line, double[1], made_at)
    if final.winner() == opponent:
        last = final.path[-1]
        threat = Threat(opponent, last, final.column_height(last) - 1)
        kept = threat_cells(after, opponent) & after.geometry.bit(threat.col, threat.row)
        return Reason("kept" if kept else "new", threat, line)
    fill = zugzwang(after)
    if fill is not None and fill.favours == opponent:
        theirs = [t for t in threats(after) if t.player == opponent]
        good = [t for t in theirs if t.odd == (opponent == 0)] or theirs
        if good:
            return Reason("zugzwang", min(good, key=lambda t: (t.row, t.col)), line)
    return None
