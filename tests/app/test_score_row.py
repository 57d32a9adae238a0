"""The scores overlay's lines: readable on narrow boards, never run together."""

from __future__ import annotations

from rich.style import Style

from c4tui.app.widgets.score_row import rows_needed, score_cell, score_lines

PLAIN = Style()


def test_narrow_words_shorten_and_numbers_stay():
    assert score_cell("win 7", 6) == "win 7"
    assert score_cell("loss 17", 3) == "L17"
    assert score_cell("-18", 3) == "-18"


def test_texts_that_do_not_fit_take_two_staggered_lines():
    scores = ("loss 17",) * 7
    assert rows_needed(scores, 3) == 2
    lines = [line.plain for line in score_lines(scores, 3, 2, PLAIN, PLAIN)]
    assert [line.split() for line in lines] == [["L17"] * 4, ["L17"] * 3]
    numbers = ("-2", "-1", "0", "1", "0", "-1", "-2")
    assert rows_needed(numbers, 5) == 1
    assert score_lines(numbers, 5, 1, PLAIN, PLAIN)[0].plain.split() == list(numbers)
