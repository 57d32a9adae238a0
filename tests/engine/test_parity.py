"""The follow-up's bounds (solver/parity.py) against brute force, and in the solver."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import TABLE_SIZE, Solver
from c4tui.engine.solver.parity import follow_up_for, pair_lows
from tests.engine.brute_force import brute_force_score
from tests.engine.test_solver import random_position


def test_pair_lows_are_the_rows_an_even_number_below_the_top():
    g = geometry(7, 6, 4)
    assert pair_lows(g) == sum(g.bit(c, r) for c in range(7) for r in (0, 2, 4))
    g = geometry(5, 5, 4)
    assert pair_lows(g) == sum(g.bit(c, r) for c in range(5) for r in (1, 3))


@pytest.mark.parametrize(
    ("w", "h", "n", "low", "high"),
    [(5, 4, 4, 9, 16), (4, 5, 4, 9, 16), (5, 5, 4, 14, 21), (6, 5, 4, 18, 26), (7, 6, 4, 30, 38)],
)
def test_the_bounds_hold_against_brute_force(w, h, n, low, high):
    """Every ceiling and floor the follow-up gives is on the right side of the exact
    score, and each kind of bound is met (so the check is not vacuous)."""
    g = geometry(w, h, n)
    follow_up = follow_up_for(g)
    rng = random.Random(f"parity {w}x{h}c{n}")
    memo: dict = {}
    seen: Counter[str] = Counter()
    tried = 0
    while tried < 200:
        position = random_position(rng, w, h, n, rng.randint(low, high))
        if position is None:
            continue
        tried += 1
        exact = brute_force_score(position, memo)
        cur, mask = position.current, position.mask
        playable = g.playable(mask)
        if (g.cells - position.moves) % 2 == 0:
            found = {
                "leader ceiling": follow_up.leader_ceiling(cur, mask),
                "odd threat floor": follow_up.odd_threat_floor(cur, mask, playable),
            }
        else:
            found = {
                "follower floor": follow_up.follower_floor(cur, mask, playable),
                "odd threat ceiling": follow_up.odd_threat_ceiling(
                    cur, mask, follow_up.spots(cur ^ mask)
                ),
            }
        for kind, bound in found.items():
            if bound is None:
                continue
            if "ceiling" in kind:
                assert exact <= bound, (kind, position.to_moves())
            else:
                assert exact >= bound, (kind, position.to_moves())
            seen[f"{kind} {bound}"] += 1
        floor, ceiling = follow_up.bounds(cur, mask, position.moves)
        assert floor is None or floor <= exact
        assert ceiling is None or exact <= ceiling
    # Each kind of bound is met, the odd threats' at several distances.
    kinds = {key.rsplit(" ", 1)[0] for key in seen}
    assert kinds == {"leader ceiling", "follower floor", "odd threat ceiling", "odd threat floor"}
    assert {"leader ceiling 0", "leader ceiling -1", "follower floor 0", "follower floor 1"} <= set(
        seen
    )


@pytest.mark.parametrize(
    ("w", "h", "n", "low", "high"),
    [(5, 4, 4, 6, 14), (5, 5, 4, 11, 19), (6, 5, 4, 16, 24), (7, 6, 4, 26, 36)],
)
def test_the_aftereven_s_ceiling_holds_against_brute_force(w, h, n, low, high):
    """Where the leader's cells hold a line and the follower's lines refute every one
    (Allis's aftereven), the leader loses: brute force agrees on 12 such positions a
    board."""
    g = geometry(w, h, n)
    follow_up = follow_up_for(g)
    rng = random.Random(f"aftereven {w}x{h}c{n}")
    memo: dict = {}
    found = 0
    while found < 12:
        position = random_position(rng, w, h, n, rng.randint(low, high))
        if position is None or (g.cells - position.moves) % 2:
            continue
        cur, mask = position.current, position.mask
        empty = g.board ^ mask
        lead = cur | (empty & follow_up.lows) | (g.playable(mask) & ~follow_up.lows)
        if not g.has_alignment(lead):
            continue  # the follow-up alone decides: the test above
        ceiling = follow_up.leader_ceiling(cur, mask)
        if ceiling is None:
            continue
        found += 1
        assert ceiling == -1
        assert brute_force_score(position, memo) <= -1, position.to_moves()


# 28 plies (14 empty cells, the first player to move): the second player answering on
# top keeps the first from every line and completes one of its own.
LEADER_LOSES = "1352721322574661424414356426"


def test_a_position_s_bounds_before_any_search_include_the_follow_up():
    solver = Solver(geometry(7, 6, 4), book=False)
    position = Position.from_moves(LEADER_LOSES)
    bounds = solver.bounds(position)
    assert bounds.high == -1
    assert solver.solve(position) <= -1


def test_the_search_agrees_with_brute_force_where_the_floor_decides():
    """Late 7x6 positions with an odd number of empty cells whose floor the follow-up
    gives: the solver's every column equals brute force's."""
    g = geometry(7, 6, 4)
    follow_up = follow_up_for(g)
    rng = random.Random("parity search")
    solver = Solver(g, book=False)
    found = 0
    while found < 8:
        position = random_position(rng, 7, 6, 4, 31 + 2 * rng.randrange(3))
        if position is None:
            continue
        if (
            follow_up.follower_floor(position.current, position.mask, g.playable(position.mask))
            is None
        ):
            continue
        found += 1
        assert solver.solve(position) == brute_force_score(position), position.to_moves()


@pytest.mark.parametrize(
    ("w", "h", "n", "plies"), [(7, 6, 4, 24), (7, 6, 4, 27), (6, 5, 4, 14), (9, 7, 4, 46)]
)
def test_c_and_python_use_the_follow_up_alike(w, h, n, plies):
    """The C analysis (kernels: the 7x6, 64-bit and 128-bit searches, and the bounds of
    each column before any search) against the Python one, node for node. The 7x6
    positions of 27-30 plies and the 6x5 ones meet the aftereven."""
    g = geometry(w, h, n)
    # One table size, so that both tables keep the same entries.
    c_solver = Solver(g, threads=1, table_size=TABLE_SIZE)
    py_solver = Solver(g, native=False, table_size=TABLE_SIZE)
    if not c_solver.uses_native:
        pytest.skip("no C kernels")
    rng = random.Random(f"parity native {w}x{h}c{n}")
    checked = 0
    while checked < 4:
        position = random_position(rng, w, h, n, plies + rng.randrange(4))
        if position is None:
            continue
        answers = []
        for solver in (c_solver, py_solver):
            solver.reset()
            before = solver.nodes
            scores = [None if b is None else b.low for b in solver.analyze(position)]
            answers.append((scores, solver.nodes - before))
        assert answers[0] == answers[1], position.to_moves()
        checked += 1
