"""Our engines as a Kaggle ConnectX agent: the player an agent file written by
`c4tui connectx` calls (agent_file.py writes the file, which carries this module).

Kaggle hands an agent only the cells of the board, not the moves that made it, so the
player finds an order of moves that makes those cells (each player's stones
alternating, no game won before the last stone) and asks the engine about the position
it reaches; the engine lives as long as the agent's process, and starts a new game when
the board has fewer stones than the last one it saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, Limits
from c4tui.engine.players.specs import make_engine

SAFETY = 0.8  # the share of Kaggle's actTimeout a move may take (the rest is its overhead)


def figure(source: Any, name: str) -> Any:
    """A field of Kaggle's observation or configuration: an attribute or a key."""
    if isinstance(source, Mapping):
        return source[name]
    return getattr(source, name)


def stacks_of(board: Sequence[int], columns: int, rows: int) -> list[list[int]]:
    """Each column's marks from the bottom up (Kaggle's board lists rows from the top)."""
    stacks = []
    for col in range(columns):
        stack = []
        for row in reversed(range(rows)):
            mark = board[row * columns + col]
            if mark == 0:
                break
            stack.append(mark)
        stacks.append(stack)
    return stacks


def has_line(stacks: list[list[int]], mark: int, rows: int, inarow: int) -> bool:
    """Whether `mark` has `inarow` in a line among the stones of `stacks`."""

    def at(col: int, row: int) -> int:
        if 0 <= col < len(stacks) and 0 <= row < len(stacks[col]):
            return stacks[col][row]
        return 0

    for col in range(len(stacks)):
        for row in range(rows):
            if at(col, row) != mark:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(col + dc * i, row + dr * i) == mark for i in range(1, inarow)):
                    return True
    return False


def move_order(stacks: list[list[int]], rows: int, inarow: int) -> list[int] | None:
    """An order of moves (0-based columns) that builds `stacks`, first mover mark 1,
    with no line made before the last stone; None when there is none."""
    stones = sum(len(stack) for stack in stacks)
    failed: set[tuple[int, ...]] = set()

    def peel(left: int) -> list[int] | None:
        if left == 0:
            return []
        heights = tuple(len(stack) for stack in stacks)
        if heights in failed:
            return None
        mark = 1 if (left - 1) % 2 == 0 else 2  # who played stone number `left`
        for col, stack in enumerate(stacks):
            if not stack or stack[-1] != mark:
                continue
            stack.pop()
            # The position before this stone was still being played: nobody had a line.
            ok = left == 1 or not (
                has_line(stacks, 1, rows, inarow) or has_line(stacks, 2, rows, inarow)
            )
            order = peel(left - 1) if ok else None
            stack.append(mark)
            if order is not None:
                return [*order, col]
        failed.add(heights)
        return None

    return peel(stones)


def position_of(observation: Any, configuration: Any) -> Position:
    """The Position of Kaggle's observation; ValueError for a board no game makes."""
    columns, rows = figure(configuration, "columns"), figure(configuration, "rows")
    inarow = figure(configuration, "inarow")
    board = list(figure(observation, "board"))
    if len(board) != columns * rows:
        raise ValueError(f"a board of {len(board)} cells is not {columns}x{rows}")
    order = move_order(stacks_of(board, columns, rows), rows, inarow)
    if order is None:
        raise ValueError("no game of alternate moves makes this board")
    position = Position.start(columns, rows, inarow)
    for col in order:
        position = position.play(col)
    return position


class ConnectXPlayer:
    """One engine playing Kaggle's ConnectX, move after move, game after game."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.spec = spec
        self.engine: Engine = make_engine(spec, seed=seed)
        self.stones = -1  # on the board at the last move: fewer now is a new game

    def move(self, observation: Any, configuration: Any) -> int:
        position = position_of(observation, configuration)
        if position.moves <= self.stones:
            self.engine.new_game()
        self.stones = position.moves
        return self.engine.search(position, self.limits(configuration)).move

    def limits(self, configuration: Any) -> Limits:
        """The engine's own budget, its time cut to what Kaggle allows a move."""
        own = self.engine.limits
        try:
            allowed = float(figure(configuration, "actTimeout")) * SAFETY
        except (KeyError, AttributeError, TypeError, ValueError):
            return own
        time = allowed if own.time is None else min(own.time, allowed)
        return Limits(time=time, iterations=own.iterations, depth=own.depth)
