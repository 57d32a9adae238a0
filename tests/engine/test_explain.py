"""Why a move loses: the refutation line and the threat it names."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.study.explain import refutation, why_it_loses
from c4tui.engine.study.threats import Threat

GLYPHS = ("●", "○")


def test_leaving_a_threat_open():
    before = Position.from_moves("1212124")  # ○ to move; ● threatens column 1, row 4
    after = before.play(6)
    line = refutation(after)
    assert line == (0,)
    reason = why_it_loses(before, 6, line)
    assert reason is not None and reason.kind == "open"
    assert reason.threat == Threat(0, 0, 3)
    assert reason.words(GLYPHS) == (
        "It leaves ●'s threat at column 1, row 4 open: ● drops there and wins."
    )


def test_dropping_under_a_threat():
    # Row 2 of the empty column 4 is a threat of ○:
    # ● dropping in the empty column 4 lets ○ play on top of it.
    before = Position.from_moves("3331636122")
    assert before.to_move == 0
    reason = why_it_loses(before, 3, refutation(before.play(3)))
    assert reason is not None and reason.kind == "under"
    assert reason.threat == Threat(1, 3, 1)
    assert reason.line == (3,)


def test_a_line_that_plays_out_a_threat_names_it():
    before = Position.from_moves("4444")
    for col in range(before.width):
        after = before.play(col)
        line = refutation(after)
        assert line and all(isinstance(c, int) for c in line)
        reason = why_it_loses(before, col, line)
        if reason is not None:
            assert reason.threat.player == 1 - before.to_move
            assert reason.words(GLYPHS).startswith(("It ", "With "))
