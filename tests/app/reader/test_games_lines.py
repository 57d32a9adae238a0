"""A game in a list, in the screen-reader mode: one sentence that says what the normal
mode's table says in columns under a header (reader/games.py)."""

from __future__ import annotations

from c4tui.app.reader.games import game_sentence, when_words
from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.engine.board.position import Position

WON = Position.from_moves("4545454")  # ● wins with its 4th disc


def test_a_game_is_said_from_the_readers_side():
    record = GameRecord.of(WON, ("You", "level:4"), "2026-11-28T18:30:05Z")
    when = when_words(record.date)
    assert when == "28 November 2026 18:30 UTC"
    assert game_sentence(3, record, "You", when) == (
        "Game 3, against Level 4, you won with ● in 4 moves, 28 November 2026 18:30 UTC"
    )
    lost = GameRecord.of(WON, ("bob", "ann"), "2026-11-28T18:30:05Z")
    assert game_sentence(1, lost, "ann", "today") == (
        "Game 1, against bob, you lost with ○ in 4 moves, today"
    )


def test_endings_off_the_board_draws_and_other_boards_are_said():
    resigned = GameRecord.of(
        Position.from_moves("44"), ("ann", "bob"), "2026-11-28T18:30:05Z", Ending("resigned", 0)
    )
    assert game_sentence(2, resigned, "ann", "today") == (
        "Game 2, against bob, you won with ● in 1 move, bob resigned, today"
    )
    small = GameRecord.of(Position.from_moves("1", width=5, height=4), ("ann", "bob"), "x")
    assert game_sentence(1, small, "carol", when_words(small.date)) == (
        "Game 1, ann ● against bob ○, unfinished at move 1 ●, on 5 by 4, x"
    )
