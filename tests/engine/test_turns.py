"""The rules of taking turns that the match and the served rooms share."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.turns import SearchIds, column_refusal


def test_a_column_outside_the_board_or_full_is_refused_in_words():
    full = Position.from_moves("444444")
    assert column_refusal(full, 3) == "Column 4 is full."
    assert column_refusal(full, 7) == "There is no column 8: the board has 7."
    assert column_refusal(full, -1) == "There is no column 0: the board has 7."
    assert column_refusal(full, 0) is None


def test_a_cancelled_or_older_search_is_never_current():
    ids = SearchIds()
    first = ids.start()
    assert ids.is_current(first)
    second = ids.start()  # a new search makes the first one stale
    assert not ids.is_current(first) and ids.is_current(second)
    ids.cancel()
    assert not ids.is_current(second) and not ids.running
    third = ids.start()
    ids.end()  # answered: its id is the last, but nothing runs
    assert ids.last == third and not ids.is_current(third)


def test_the_match_and_the_rooms_use_these_rules_not_copies_of_them():
    # The words of the drop checks live in one module; the match's and the rooms' do not
    # spell them again.
    from pathlib import Path

    import c4tui

    root = Path(c4tui.__file__).parent
    for path in (*root.joinpath("match").glob("*.py"), *root.joinpath("rooms").glob("*.py")):
        text = path.read_text()
        assert "is full." not in text and "There is no column" not in text, path
        assert "search_id += 1" not in text, path
