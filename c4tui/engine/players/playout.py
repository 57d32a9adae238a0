"""The uniformly random game to the end: MCTS's playout and flat Monte Carlo's.

Speed matters (the playout rate is a headline figure of both engines), so the Python
game is one tight loop over bitboards in locals, generated per board size: no
function call on most moves, and a line test of the mover's stones only. Where the C
library is built (`c4tui.engine.kernels`), the same game runs in C (playout.c plays the same
moves from the same random number, so a seeded search does not depend on it), about
twice MCTS's iterations a second on 7x6 (benchmarks: 57,000 against 29,000).

`random_game(me, mask, random_bits)`: `me` are the stones of the side to move, `mask`
all stones, `random_bits` is `Random.getrandbits`; 1 if the side to move wins, -1 if
it loses, 0 for a draw.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from functools import cache
from typing import cast

from c4tui.engine.board.geometry import Geometry

# The random game, written out per board size by `python_random_game_for`: the shifts
# of the line test become literals and the tables default arguments, so that the loop
# runs on constants and locals only (the solver is built the same way, for the same reason).
# The loop body holds two moves, one per player, so that a line returns its winner
# at once, with no turn counter to keep.
_RANDOM_GAME_SOURCE = """
def random_game(me, mask, random_bits, free_columns=FREE_COLUMNS, bottoms=BOTTOMS,
                columns=COLUMNS, all_tops=ALL_TOPS):
    them = me ^ mask
    free = [*free_columns[mask & all_tops]]
    n = len(free)
    # One random number for the whole game; each move takes its next base-n digit.
    r = random_bits(RANDOM_BITS)
    while True:
{first_move}
{second_move}
"""

_MOVE_SOURCE = """
c = free[r % n]
r //= n
stone = (mask + bottoms[c]) & columns[c]
mask |= stone
{mover} |= stone
{line_tests}
if stone & all_tops:
    free.remove(c)
    n -= 1
    if not n:
        return 0
"""


def _line_tests(mover: str, steps: tuple[int, ...], connect: int, result: int) -> str:
    """Source that returns `result` when `mover` has `connect` in a row along a step.

    Runs are doubled rather than extended one stone at a time: runs of 2, then (for
    connect 5 and 6) of 3, then two runs overlapping into one of `connect`.
    """
    lines = []
    for step in steps:
        lines.append(f"m = {mover} & ({mover} >> {step})")
        if connect > 4:
            lines.append(f"m &= m >> {step}")
        reach = connect - 3 if connect > 4 else connect - 2
        lines += [f"if m & (m >> {reach * step}):", f"    return {result}"]
    return "\n".join(lines)


RandomGame = Callable[[int, int, Callable[[int], int]], int]


def random_bits_per_game(g: Geometry) -> int:
    """Enough for a base-`width` digit per cell, with 64 bits to spare so that the last
    digits are as uniform as the first."""
    return g.cells * g.width.bit_length() + 64


@cache
def random_game_for(g: Geometry) -> RandomGame:
    """The random game for board size `g`: in C when it is built (playout.c plays the
    same game, move for move, about ten times faster), else in Python."""
    return _native_random_game(g) or python_random_game_for(g)


def _native_random_game(g: Geometry) -> RandomGame | None:
    """`random_game` calling playout.c, or None when C cannot serve this board."""
    from c4tui.engine.kernels import library

    lib = library.library()
    if lib is None or g.width * (g.height + 1) > 64 or sys.byteorder != "little":
        return None
    bits = random_bits_per_game(g)
    limbs = (bits + 63) // 64
    # One per board size for the process (random_game_for is cached): never freed.
    handle = lib.c4p_new(g.width, g.height, g.connect, limbs)
    if not handle:
        return None

    def random_game(
        me: int,
        mask: int,
        random_bits: Callable[[int], int],
        play: Callable[[int, int, int, bytes], int] = lib.c4p_game,
        size: int = 8 * limbs,
    ) -> int:
        # The same random number as the Python game draws, as little-endian words.
        return play(handle, me, mask, random_bits(bits).to_bytes(size, "little"))

    return random_game


@cache
def python_random_game_for(g: Geometry) -> RandomGame:
    """`random_game(me, mask, random_bits)` for board size `g`, in Python.

    Plays uniformly random moves to the end from the position with `me` the stones of
    the side to move; `random_bits` is `Random.getrandbits`. Returns 1 if the side to
    move wins, -1 if it loses, 0 for a draw. Only the mover's stones are tested for a
    line after each move.
    """
    moves = []
    for mover, result in (("me", 1), ("them", -1)):
        tests = _line_tests(mover, g.directions, g.connect, result)
        move = _MOVE_SOURCE.format(mover=mover, line_tests=tests)
        moves.append(textwrap.indent(move.strip("\n"), " " * 8))
    source = _RANDOM_GAME_SOURCE.format(first_move=moves[0], second_move=moves[1])
    namespace = {
        # The columns still open, by the set of filled top cells (a table, not a loop).
        "FREE_COLUMNS": {
            full: tuple(col for col, top in enumerate(g.top_masks) if not full & top)
            for full in _subsets(g.top_masks)
        },
        "BOTTOMS": g.bottom_masks,
        "COLUMNS": g.column_masks,
        "ALL_TOPS": sum(g.top_masks),
        "RANDOM_BITS": random_bits_per_game(g),
    }
    exec(compile(source, f"<random game {g.width}x{g.height}c{g.connect}>", "exec"), namespace)
    return cast(RandomGame, namespace["random_game"])


def _subsets(bits: tuple[int, ...]) -> list[int]:
    """Every union of some of `bits` (2 ** len(bits) of them)."""
    unions = [0]
    for bit in bits:
        unions += [union | bit for union in unions]
    return unions
