"""NegaMax's heuristic: its bitboard counts against cell-by-cell counting."""

from __future__ import annotations

from hypothesis import given, settings

from c4tui.engine.board.heuristic import GOOD_ROW_THREAT, STONE_RATIO, TEMPO, THREAT, heuristic_for
from c4tui.engine.board.position import Position
from tests.engine.reference_board import DIRECTIONS, ReferenceBoard
from tests.engine.test_position import games, position_of


def naive_windows(board: ReferenceBoard, player: int) -> int:
    """Open windows of `player` (none of the other's stones), weighted by their stones."""
    n = board.connect
    total = 0
    for col in range(board.width):
        for row in range(board.height):
            for dc, dr in DIRECTIONS.values():
                cells = [(col + i * dc, row + i * dr) for i in range(n)]
                if not all(0 <= c < board.width and 0 <= r < board.height for c, r in cells):
                    continue
                owners = [board.cell(c, r) for c, r in cells]
                if (1 - player) not in owners and player in owners:
                    total += STONE_RATIO ** (owners.count(player) - 1)
    return total


def naive_spots(board: ReferenceBoard, player: int) -> set[tuple[int, int]]:
    """Empty cells (reachable or not) where a stone of `player` would make a line."""
    spots = set()
    for col in range(board.width):
        for row in range(len(board.columns[col]), board.height):
            filled = board.copy()
            filled.columns[col] = [*filled.columns[col], *[None] * (row - len(filled.columns[col]))]
            filled.columns[col].append(player)
            if any(owner == player for _, owner, _ in filled.lines()):
                spots.add((col, row))
    return spots


def bits_of(pos: Position, cells: set[tuple[int, int]]) -> int:
    return sum(pos.geometry.bit(c, r) for c, r in cells)


@settings(max_examples=80, deadline=None)
@given(games())
def test_spots_and_evaluation_match_counting_cell_by_cell(game):
    size, columns, board = game
    if board.is_over():
        return
    pos = position_of(size, columns)
    h = heuristic_for(pos.geometry)
    empty = pos.geometry.board ^ pos.mask
    me, them = pos.to_move, 1 - pos.to_move
    my_spots = h.spots(pos.current, empty)
    their_spots = h.spots(pos.opponent_stones, empty)
    assert my_spots == bits_of(pos, naive_spots(board, me))
    assert their_spots == bits_of(pos, naive_spots(board, them))
    assert their_spots == pos.geometry.winning_spots(pos.opponent_stones, pos.mask)
    assert h.spot_pair(pos.current, pos.opponent_stones, empty) == (my_spots, their_spots)
    windows = naive_windows(board, me) - naive_windows(board, them)
    threats = THREAT * (my_spots.bit_count() - their_spots.bit_count())
    good_mine, good_theirs = h.good_rows[me], h.good_rows[them]
    parity = GOOD_ROW_THREAT * (
        (my_spots & good_mine).bit_count() - (their_spots & good_theirs).bit_count()
    )
    value = h.evaluate(pos.current, pos.opponent_stones, empty, me, my_spots, their_spots)
    assert value == TEMPO + windows + threats + parity


def test_good_rows_follow_the_zugzwang():
    h = heuristic_for(Position.start().geometry)
    g = Position.start().geometry
    first, second = h.good_rows
    assert first & g.bit(0, 0) and first & g.bit(3, 2) and not first & g.bit(3, 1)
    assert second & g.bit(6, 5) and not second & g.bit(6, 4)
    assert heuristic_for(Position.start(7, 7, 4).geometry).good_rows == (0, 0)


def test_the_evaluation_is_antisymmetric_but_for_the_tempo_and_mirror_blind():
    pos = Position.from_moves("4453362")
    g = pos.geometry
    h = heuristic_for(g)

    def value(p: Position, mover: int) -> int:
        empty = g.board ^ p.mask
        mine, theirs = (p.current, p.opponent_stones)
        return h.evaluate(mine, theirs, empty, mover, h.spots(mine, empty), h.spots(theirs, empty))

    assert value(pos, pos.to_move) == value(pos.mirror(), pos.to_move)
    swapped = Position(pos.opponent_stones, pos.mask, pos.moves, g)
    assert value(swapped, 1 - pos.to_move) - TEMPO == -(value(pos, pos.to_move) - TEMPO)
