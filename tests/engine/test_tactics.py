"""One-move tactics (win now, block, do not play under a threat) against the reference."""

from __future__ import annotations

from hypothesis import given, settings

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import ColumnStat
from c4tui.engine.players.tactics import (
    forced_move,
    hands_over_a_win,
    safe_columns,
    tactical_stats,
    threatened_columns,
    winning_columns,
)
from tests.engine.reference_board import ReferenceBoard
from tests.engine.test_position import games, position_of


def opponent_wins_with(board: ReferenceBoard, col: int) -> bool:
    """True when the player not to move would make a line by dropping in `col` now."""
    passed = board.copy()
    passed.moves += 1  # hand the turn over without a stone
    return passed.wins_with(col)


@settings(max_examples=150, deadline=None)
@given(games())
def test_tactics_match_the_reference(game):
    size, columns, board = game
    if board.is_over():
        return
    pos = position_of(size, columns)
    legal = board.legal_moves()
    wins = [c for c in legal if board.wins_with(c)]
    threats = [c for c in legal if opponent_wins_with(board, c)]
    assert winning_columns(pos) == wins
    assert threatened_columns(pos) == threats
    assert forced_move(pos) == (wins or threats or [None])[0]
    if not wins:
        unsafe = []
        for col in legal:
            after = board.copy()
            after.play(col)
            if col in after.legal_moves() and after.wins_with(col):
                unsafe.append(col)
        assert safe_columns(pos) == [c for c in legal if c not in unsafe]


def test_win_beats_block():
    # Both sides have three in a row on their own row; the mover wins instead of blocking.
    pos = Position.from_moves("445566")
    assert winning_columns(pos) == [2, 6]
    assert threatened_columns(pos) == []  # their row-2 spots are not playable yet
    assert forced_move(pos) == 2


def test_block_when_no_win():
    pos = Position.from_moves("47516")  # the first player threatens column 3
    assert winning_columns(pos) == []
    assert threatened_columns(pos) == [2]
    assert forced_move(pos) == 2


def test_no_tactics_on_a_quiet_board():
    pos = Position.from_moves("44")
    assert forced_move(pos) is None
    assert safe_columns(pos) == list(range(7))


def test_playing_under_a_threat_is_unsafe():
    # The first player has a spot on row 2 of the empty column 4 (index 3).
    pos = Position.from_moves("5256233")
    assert safe_columns(pos) == [0, 1, 2, 4, 5, 6]
    assert forced_move(pos) is None


def test_tactical_stats_prove_wins_and_losses_in_one():
    win = tactical_stats(Position.from_moves("445566"))
    assert win[2] == ColumnStat(score=18, proven="win")
    assert win[0] == ColumnStat()
    lose = tactical_stats(Position.from_moves("47516"))
    assert lose[2] == ColumnStat()  # the block
    assert lose[0] == ColumnStat(score=-18, proven="loss")
    double = tactical_stats(Position.from_moves("41526"))  # threats in columns 3 and 7
    assert all(stat.proven == "loss" for stat in double)
    under = tactical_stats(Position.from_moves("5256233"))
    assert under[3] == ColumnStat(score=-17, proven="loss")  # their fifth stone wins
    assert under[0] == ColumnStat()
    full = tactical_stats(Position.from_moves("111111"))
    assert full[0] is None


@settings(max_examples=150, deadline=None)
@given(games())
def test_hands_over_a_win_matches_playing_every_reply(game):
    size, columns, board = game
    if board.is_over():
        return
    pos = position_of(size, columns)
    expected = []
    for col in board.legal_moves():
        if board.wins_with(col):
            continue
        after = board.copy()
        after.play(col)
        if not after.is_over() and any(after.wins_with(reply) for reply in after.legal_moves()):
            expected.append(col)
    assert hands_over_a_win(pos) == expected
