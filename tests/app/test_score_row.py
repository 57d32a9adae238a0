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
    lines = [line.plain for line in score_lines(scores, (-5,) * 7, 3, 2, PLAIN, PLAIN)]
    assert [line.split() for line in lines] == [["L17"] * 4, ["L17"] * 3]
    numbers = ("-2", "-1", "0", "1", "0", "-1", "-2")
    assert rows_needed(numbers, 5) == 1
    values = tuple(int(n) for n in numbers)
    assert score_lines(numbers, values, 5, 1, PLAIN, PLAIN)[0].plain.split() == list(numbers)


def test_the_best_columns_are_picked_by_their_scores():
    best = Style(bold=True)

    def in_best(line) -> str:
        return "".join(line.plain[s.start : s.end] for s in line.spans if s.style == best)

    texts = ("draw", "win 7", "loss 3")
    assert in_best(score_lines(texts, (0, 5, -3), 8, 1, PLAIN, best)[0]) == "win 7"
    # No win: the draw is the best result.
    assert in_best(score_lines(texts, (0, -1, -3), 8, 1, PLAIN, best)[0]) == "draw"
