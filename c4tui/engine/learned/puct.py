"""PUCT: the tree search of AlphaZero, guided by the network's priors and values.

Each simulation walks down from the root choosing, at every node, the child with the
highest  Q + c * P * sqrt(N) / (1 + n)  (Q: the child's mean result for the player who
chooses; P: the network's prior of that column; N, n: the parent's and the child's
visits), expands the leaf it reaches with one network evaluation, and backs the
network's value up the path, its sign flipping at each ply. There are no random games:
the network's value stands in for them.

Proven results, as in `mcts_tree.py`, are exact game results from the view of the
player who moved into a node:
- a stone that wins, or fills the board, is proven when its node is made, and so is
  a stone that loses at once (it leaves the opponent a winning cell they can play, or
  fills the cell below one: `geometry.non_losing`), by the rules alone;
- a child with few empty cells (at most the prover's `endgame`, ENDGAME_EMPTY unless
  told) or at one of the opening book's plies (8 and 12 on 7x6) is solved when its
  parent is expanded, by an exact solver of the search's own (`Prover`; within the
  search's deadline when it has one, else deterministic): the root's columns are proven
  one by one, never the root as a whole, so the search still knows which column keeps
  the result;
- proofs are backed up: a node with a child that wins is lost; a node whose children
  are all proven takes the best of them. A child proven lost is never chosen again.

The tree is kept between moves: after our move and the opponent's reply the node of
the position reached becomes the new root, with everything learned below it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from c4tui.engine.board.geometry import centre_first, non_losing
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import Proven
from c4tui.engine.learned.network import Network
from c4tui.engine.players.contract import ColumnStat

UNKNOWN, WIN, DRAW, LOSS = 0, 1, 2, 3  # from the view of the player who moved in
RESULT = (0.0, 1.0, 0.0, -1.0)
PROVEN_NAME: tuple[Proven | None, ...] = (None, "win", "draw", "loss")
OPPOSITE = (UNKNOWN, LOSS, DRAW, WIN)

DEFAULT_C = 1.5  # the exploration constant of the priors' bonus
# An unvisited child's Q: its parent's mean less this, so that a search with a few
# simulations looks deeper at the network's favourites instead of trying every column.
FIRST_PLAY_REDUCTION = 0.25
# Leaves with at most this many empty cells are solved exactly, by default: a millisecond
# or less each, for self-play's many small searches (the engine reaches further).
ENDGAME_EMPTY = 12


class Node:
    """One position of the tree; statistics from the view of the player who moved in."""

    __slots__ = ("children", "column", "net", "position", "prior", "proof", "total", "visits")

    def __init__(self, position: Position, column: int, prior: float, proof: int) -> None:
        self.position = position
        self.column = column  # the column played into this node (-1 at a first root)
        self.prior = prior
        self.proof = proof
        self.visits = 0
        self.total = 0.0
        self.children: list[Node] | None = None  # made when the node is expanded
        self.net: float | None = None  # the network's value, the side to move's view

    def mean(self) -> float:
        if self.proof:
            return RESULT[self.proof]
        return self.total / self.visits if self.visits else 0.0


class Prover:
    """Exact results of the leaves within its reach (`endgame` empty cells or fewer, or
    at the book's plies); None for the others, and for one the search's time ran out on."""

    def __init__(self, position: Position, endgame: int = ENDGAME_EMPTY) -> None:
        from c4tui.engine.players.opening import TABLE_SIZE
        from c4tui.engine.solver import Solver

        self.solver = Solver(position.geometry, table_size=TABLE_SIZE, threads=1)
        self.book_plies = (8, 12) if self.solver.book is not None else ()
        # Without the C kernel (a ConnectX agent, C4TUI_PURE_PYTHON) a proof costs tens of
        # times more, and one of 28 empty cells overran a 1 s move by 0.27 s: keep to 12.
        self.endgame = endgame if self.solver.uses_native else min(endgame, ENDGAME_EMPTY)
        self.deadline: float | None = None  # perf_counter; None: every proof is finished
        self.stop: threading.Event | None = None

    def within(self, deadline: float | None, stop: threading.Event | None) -> None:
        """The limits of the search that asks next: a proof cut short by them is None."""
        self.deadline, self.stop = deadline, stop

    def outcome(self, position: Position) -> int | None:
        """The result for the side to move (1, 0, -1) where it is in reach, else None."""
        empty = position.geometry.cells - position.moves
        if empty > self.endgame and position.moves not in self.book_plies:
            return None
        from c4tui.engine.solver.search import SearchStopped

        try:
            score = self.solver.solve(position, weak=True, deadline=self.deadline, stop=self.stop)
        except SearchStopped:
            return None
        return (score > 0) - (score < 0)


@dataclass
class PuctTree:
    """The search tree below one root; `simulate` grows it by one network evaluation."""

    root: Node
    network: Network
    prover: Prover | None
    c: float = DEFAULT_C
    evaluations: int = 0
    max_depth: int = 0
    # Root columns the opening book proved worse than another, and their outcome (1, 0,
    # -1 for the side to move): never selected nor played.
    ruled_out: dict[int, int] = field(default_factory=dict)

    @classmethod
    def start(
        cls, position: Position, network: Network, prover: Prover | None, c: float
    ) -> PuctTree:
        return cls(Node(position, -1, 1.0, UNKNOWN), network, prover, c)

    def reroot(self, position: Position) -> bool:
        """Move the root to `position` if the tree holds it within two plies; False when not."""
        self.ruled_out = {}
        if self.root.position == position:
            return True
        for child in self.root.children or ():
            if child.position == position:
                self.root = child
                self._reopen_root()
                return True
            for grandchild in child.children or ():
                if grandchild.position == position:
                    self.root = grandchild
                    self._reopen_root()
                    return True
        return False

    def _reopen_root(self) -> None:
        """Forget a new root's proof unless its children carry it: the solver's proof of
        a node says who wins, not which column does, and the root must choose one."""
        self.root.proof = UNKNOWN
        self._settle(self.root)

    def solved(self) -> bool:
        return self.root.proof != UNKNOWN

    def rule_out(self, outcomes: Sequence[tuple[int, int] | None]) -> None:
        """Take the opening book's verdict on the root's columns, (low, high) outcomes
        for the side to move: a column proven worse than another is never searched nor
        played. The best columns stay open, so the search still chooses among them."""
        best = max((b[0] for b in outcomes if b is not None), default=-1)
        for col, bounds in enumerate(outcomes):
            if bounds is not None and bounds[1] < best:
                self.ruled_out[col] = bounds[0] if bounds[0] == bounds[1] else bounds[1]

    def expand(self, node: Node) -> float:
        """Make a node's children and read its value: the side to move's view."""
        if node.children is not None:
            return node.net or 0.0
        priors, value = self.network.evaluate(node.position)
        return self.expand_with(node, priors, value)

    def expand_with(self, node: Node, priors: Sequence[float], value: float) -> float:
        """`expand` with the network's answer for the node already in hand (self-play
        evaluates the leaves of many games' trees in one pass)."""
        position = node.position
        self.evaluations += 1
        node.net = value
        g = position.geometry
        # The stones that do not hand the opponent a win at once: a column outside them
        # is a loss the search need not spend an evaluation on (nor learn the hard way).
        safe = non_losing(
            g.playable(position.mask), g.winning_spots(position.opponent_stones, position.mask)
        )
        children = []
        for col in centre_first(position.width):
            if not position.can_play(col):
                continue
            child = position.play(col)
            proof = UNKNOWN
            if position.is_winning_move(col):
                proof = WIN
            elif child.is_draw():
                proof = DRAW
            elif not safe & g.column_masks[col]:
                proof = LOSS
            if not proof and self.prover is not None:
                outcome = self.prover.outcome(child)
                if outcome is not None:  # the child's mover's result: ours reversed
                    proof = {1: LOSS, 0: DRAW, -1: WIN}[outcome]
            children.append(Node(child, col, priors[col], proof))
        node.children = children
        self._settle(node)
        return value

    def simulate(self) -> None:
        """One simulation: select to a leaf, expand it, back its value up."""
        path = self.descend()
        leaf = path[-1]
        # The leaf's value for the player who moved into it.
        self.back_up(path, RESULT[leaf.proof] if leaf.proof else -self.expand(leaf))

    def descend(self) -> list[Node]:
        """The path a simulation selects, from the root to a leaf (unexpanded or proven)."""
        node, path = self.root, [self.root]
        while node.children is not None and not node.proof:
            node = self._select(node)
            path.append(node)
        self.max_depth = max(self.max_depth, len(path) - 1)
        return path

    def back_up(self, path: list[Node], value: float) -> None:
        """Count the leaf's value (for the player who moved into it) along the path."""
        for step in reversed(path):
            step.visits += 1
            step.total += value
            value = -value
        for step in reversed(path[:-1]):
            if not self._settle(step):
                break

    def _select(self, node: Node) -> Node:
        children = node.children or []
        sqrt_n = math.sqrt(max(node.visits, 1))
        # The parent's mean for the side to move there (its own stats are the mover-in's).
        first_play = -node.mean() - FIRST_PLAY_REDUCTION
        best, best_score = None, -math.inf
        ruled_out = self.ruled_out if node is self.root else {}
        for child in children:
            if child.proof == LOSS or child.column in ruled_out:
                continue
            q = child.mean() if (child.visits or child.proof) else first_play
            score = q + self.c * child.prior * sqrt_n / (1 + child.visits)
            if score > best_score:
                best, best_score = child, score
        # Every child proven lost makes the node proven, so it is never selected from;
        # the book never rules out every column.
        assert best is not None
        return best

    @staticmethod
    def _settle(node: Node) -> bool:
        """Back the children's proofs up into `node`; True when it is proven."""
        if node.proof or node.children is None:
            return bool(node.proof)
        proofs = [child.proof for child in node.children]
        if WIN in proofs:  # the side to move wins: the player who moved in lost
            node.proof = LOSS
        elif UNKNOWN not in proofs:
            node.proof = WIN if all(p == LOSS for p in proofs) else DRAW
        return bool(node.proof)

    # ---- what the search says -----------------------------------------------------

    def best_child(self) -> Node:
        """The child to play: a proven win, else the most visited of those not proven
        lost (a proven draw counts as its visits), ties to the higher prior."""
        children = self.root.children or []
        wins = [c for c in children if c.proof == WIN]
        if wins:
            # A win at once, else the network's favourite: the proofs say only who wins,
            # and the quickest win is most often the one the network likes best (the
            # first proven win in the centre-first order lost the best score in 15% of
            # Middle-Easy at 64 simulations; docs/learned-engine.md).
            return max(wins, key=lambda c: (c.position.is_over(), c.prior))
        open_ = [c for c in children if c.column not in self.ruled_out] or children
        alive = [c for c in open_ if c.proof != LOSS] or open_
        return max(alive, key=lambda c: (c.visits, c.proof == DRAW, c.prior))

    def column_stats(self, width: int) -> tuple[ColumnStat | None, ...]:
        stats: list[ColumnStat | None] = [None] * width
        for child in self.root.children or []:
            if child.column in self.ruled_out:
                outcome = self.ruled_out[child.column]
                proven = PROVEN_NAME[{1: WIN, 0: DRAW, -1: LOSS}[outcome]]
                stats[child.column] = ColumnStat(proven=proven, by_book=True, prior=child.prior)
                continue
            seen = child.visits > 0 or child.proof != UNKNOWN
            stats[child.column] = ColumnStat(
                visits=child.visits,
                value=child.mean() if seen else None,
                proven=PROVEN_NAME[child.proof],
                prior=child.prior,
            )
        return tuple(stats)

    def principal_variation(self, first: Node) -> tuple[int, ...]:
        line, node = [first.column], first
        while node.children:
            node = max(node.children, key=lambda c: (c.proof == WIN, c.visits, c.prior))
            if not node.visits and not node.proof:
                break
            line.append(node.column)
        return tuple(line)

    def nodes(self) -> int:
        count, stack = 0, [self.root]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children or ())
        return count
