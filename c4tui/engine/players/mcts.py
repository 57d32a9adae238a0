"""MCTS-UCT: Monte Carlo tree search that proves wins and losses and keeps its tree.

Each iteration walks down the tree choosing children by UCT (mean result plus an
exploration bonus), expands the leaf it reaches, plays one random game from there and
backs the result up the path.

Three additions make it sharper than plain UCT:
- Tactics at expansion: a child that wins at once, fills the board, ignores an opponent
  threat or drops a stone right under one is proven on the spot, so the tree never
  wastes playouts on one-move tactics and never misses them at any budget.
- MCTS-solver: proofs are backed up (a child that wins proves its parent lost for the
  player who moved into it; a node whose children are all proven is proven too), and
  proven-lost children are never selected again.
- Tree reuse: after our move and the opponent's reply the grandchild that matches the
  game becomes the new root, with its statistics; `new_game()` forgets the tree.

And in the opening of the standard board, where random games cannot see that far,
the opening book rules out the root columns it proves worse than the best (`book=1`,
the default; see `opening.py`): the search then spends its budget among the columns
that keep the result. Measured with benchmarks/mcts_strength.py, this is where
plain MCTS at 0.15 s loses most of its results (plies 0-9: 83% kept, 99% after).
A move on a clock asks past the book too (the same weak search, with no book below
it, within the same share of the budget): the middle game's lone winning columns,
which random games miss, were the rest of what it lost. A verdict cut short by the
clock still counts (`Tree.rule_out`): a column proven lost beside one not yet settled
is ruled out, and a column proven to win is played.

Speed matters (the iteration rate is a headline figure), so the tree (`mcts_tree.py`)
lives in flat lists indexed by node id instead of node objects, and the random game
(`playout.py`) is a generated tight loop, or C where it is built. The random games stay
uniformly random: games that take every win and block every threat were measured
(benchmarks/mcts_strength.py) to be 2.2 times slower per iteration for the same
strength per second.
"""

from __future__ import annotations

import math
import time
from typing import ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, Clock, rate, timed_by_default
from c4tui.engine.players.contract import Figures, InfoCallback, Limits, Reading, SearchInfo
from c4tui.engine.players.mcts_native import new_tree
from c4tui.engine.players.mcts_tree import Tree
from c4tui.engine.players.opening import column_bounds, in_reach
from c4tui.engine.players.options import COUNT, TIME, Option
from c4tui.engine.players.tactics import forced_move

# UCT exploration constant for results in [-1, 1]: sqrt(2) here is 1/sqrt(2) on the
# [0, 1] scale of the seed notebooks (the bonus scales with the range of the results).
# Measured with benchmarks/mcts_strength.py on 800 random-play positions at 2000
# iterations: c from 1 to 2 keeps the result equally often (92.0-92.3%), 0.5 is worse
# (90.2%), and sqrt(2) sits in the middle of that plateau.
DEFAULT_C = math.sqrt(2)
DEFAULT_TIME = 1.0  # seconds per move when the spec gives no budget

# The verdict (the opening book's, or past it the weak search's) may take this share of
# a time budget; almost always it takes one or two milliseconds. A verdict that comes in
# time settles the move's result, which no amount of random games does as surely, so it
# gets most of the budget: at 0.15 s a move on a machine whose cores were shared ten
# ways, 0.8 kept the result in 99.7% of 1,200 random positions (three sets of 400), 0.5
# in 99.0% of 1,600 and 0.9 in 99.4% of 1,200 (benchmarks/mcts_strength.py, the misses
# were verdicts cut off by the deadline). Under an iteration budget it has no clock.
BOOK_SHARE = 0.8

INFO_EVERY = 0.05  # seconds between progress reports


class MctsEngine(BaseEngine):
    """Monte Carlo tree search with UCT selection, proven results and tree reuse."""

    name = "mcts"
    TITLE = "MCTS"
    READING = Reading(figures=Figures.MCTS, keeps_tree=True)
    OPTIONS: ClassVar[dict[str, Option]] = {
        "time": TIME,
        "iterations": COUNT,
        "c": Option(float, 0, 100, help="UCT exploration constant (results in [-1, 1])"),
        "book": Option(int, 0, 1, help="1: the opening book rules out worse columns (7x6)"),
    }

    def __init__(
        self,
        *,
        seed: int | None = None,
        time: float | None = None,
        iterations: int | None = None,
        c: float = DEFAULT_C,
        book: int = 1,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time, iterations=iterations)
        self.c = c
        self.book = bool(book)
        self.tree: Tree | None = None

    def new_game(self) -> None:
        super().new_game()
        self.tree = None

    def budget(self, limits: Limits) -> Limits:
        return timed_by_default(limits, DEFAULT_TIME)

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        tree = self.tree.reroot(position) if self.tree is not None else None
        if tree is None:
            tree = new_tree(position)
        self.tree = tree
        tree.expand_root()
        timed = limits.time is not None
        if (
            self.book
            and not tree.book_checked
            and not tree.solved()
            and in_reach(position, clock=timed)
        ):
            tree.book_checked = True
            if limits.time is not None:  # timed
                # BOOK_SHARE of the budget at most: a verdict too late is no use.
                deadline = clock.start + BOOK_SHARE * limits.time
                verdict = column_bounds(position, deadline, clock.stop)
            else:
                # No clock in a move counted in iterations: the same tree on any machine.
                verdict = column_bounds(position, None, clock.stop, wait=True)
            if verdict is not None:
                tree.rule_out(verdict)

        budget = limits.iterations
        done = 0
        next_info = clock.start + INFO_EVERY
        # Slices of iterations between looks at the clock, the stop and the progress
        # report: the same iterations, and so the same tree, whatever the slices.
        chunk = tree.SLICE
        while not tree.solved() and (budget is None or done < budget):
            count = chunk if budget is None else min(chunk, budget - done)
            done += tree.grow(count, self.c, self.rng)
            if clock.expired():
                break
            if on_info is not None and time.perf_counter() >= next_info:
                on_info(self._info(tree, position, clock, done))
                next_info = time.perf_counter() + INFO_EVERY
        return self._info(tree, position, clock, done)

    def _info(self, tree: Tree, position: Position, clock: Clock, done: int) -> SearchInfo:
        elapsed = clock.elapsed()
        best = tree.best_column()
        # One-move tactics are a guarantee, whatever the statistics say.
        forced = forced_move(position)
        if forced is not None:
            best = forced
        return SearchInfo(
            engine=self.name,
            elapsed=elapsed,
            iterations=done,
            nodes=tree.size(),
            depth=tree.max_depth,
            rate=rate(done, elapsed),
            columns=tree.column_stats(self.c),
            best=best,
            pv=tree.principal_variation(best),
            exact=tree.every_column_proven(),
        )
