"""Why a move loses: the refutation line and the threat it names."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.study.explain import refutation, why_it_loses
from c4tui.engine.study.threats import Threat, double_threat

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


def test_a_double_threat_is_named_as_both_threats_whatever_the_line():
    # ● has 3 and 4 on the bottom row; ○ plays elsewhere (7 or 1) and ● answers 5:
    # threats at columns 2 and 6, both playable, and ○ can stop only one.
    before = Position.from_moves("413")
    for col in (6, 0):
        reason = why_it_loses(before, col, refutation(before.play(col)))
        assert reason is not None and reason.kind == "double"
        assert {reason.threat, reason.other} == {Threat(0, 1, 0), Threat(0, 5, 0)}
        assert reason.words(GLYPHS) == (
            "It allows ● a double threat, at column 2, row 1 and column 6, row 1: "
            "stopping one leaves the other."
        )
        # The refutation played against both blocks, as the lesson shows it.
        assert reason.against_both(GLYPHS) == (
            "If ○ blocks column 2, ● wins at column 6; if ○ blocks column 6, ● wins at column 2."
        )
    # Either line the solver finds names the same two cells.
    for line in ((4, 1, 5), (4, 5, 1)):
        reason = why_it_loses(before, 6, line)
        assert reason is not None and (reason.threat, reason.other) == (
            Threat(0, 1, 0),
            Threat(0, 5, 0),
        )


def test_a_threat_right_above_another_is_a_double_threat():
    from c4tui.engine.study.explain import Reason

    # ● has three in a row on rows 1 and 2 (columns 1-3): column 4 is a threat at
    # row 1, playable now, and at row 2 right above it: blocking the lower one lets ●
    # drop on top of it.
    position = Position.from_moves("16263717213")
    assert position.to_move == 1
    lower, upper = Threat(0, 3, 0), Threat(0, 3, 1)
    assert double_threat(position, 0) == (lower, upper)
    assert double_threat(position, 1) is None
    reason = Reason("double", lower, (), upper)
    assert reason.against_both(GLYPHS) == (
        "If ○ blocks column 4, ● drops on top of it and wins at row 2."
    )
