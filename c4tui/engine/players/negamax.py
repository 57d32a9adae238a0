"""NegaMax: alpha-beta search to a depth or time limit, judging the horizon by threats.

The seed's NegaMax (a streak heuristic and a memo table) made strong:
- iterative deepening 1, 2, 3, ... plies until the depth limit, the time limit, the
  stop event, or until every column is proven; a stop mid-depth keeps the answer of
  the last finished depth;
- principal variation search with a transposition table (shared by the depths and
  the moves of one game): the table's move first, then, far from the leaves, moves
  ordered by the winning spots they create and, near them, by the history heuristic,
  centre columns first among equals;
- every node checks for a win in one, answers a single opponent threat at once, and
  never drops a stone right under an opponent's winning spot, so short wins and
  losses are seen beyond the nominal depth;
- the horizon is judged by `heuristic.py` (open windows and threats).

Scores inside the search: a proven result is MATE plus or minus the solver score of
`scores.py` (so it says how soon), anything smaller in size is a heuristic. At the
root each column is searched with a full window, so every ColumnStat.score is that
column's own value at the reached depth (a null-window root would reach about one ply
deeper in the same time, but could only say of the other columns "no better").

Budgets: spec options `depth` and `time`; `Limits.iterations`, when a caller gives
it, caps the nodes. Depth 1 always finishes, so a move is always backed by tactics.
"""

from __future__ import annotations

from typing import ClassVar

from c4tui.engine.board.geometry import Geometry, centre_first, non_losing
from c4tui.engine.board.heuristic import heuristic_for
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import proven_of, win_now_score, win_score
from c4tui.engine.players.base import BaseEngine, Clock, rate
from c4tui.engine.players.contract import (
    ColumnStat,
    Figures,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.options import DEPTH, TIME, Option
from c4tui.engine.players.tactics import forced_move

MATE = 1 << 30  # above any heuristic score; a proven result is MATE + solver score
INFINITY = 1 << 40
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 250_000  # entries; cleared when full, to bound memory (about 50 MB)
CHECK_EVERY = 512  # nodes between looks at the clock and the stop event

DEFAULT_DEPTH = 20
DEFAULT_TIME = 1.0


class OutOfBudget(Exception):
    """Raised inside the search when the clock, the node budget or the stop event ends it."""


class NegamaxEngine(BaseEngine):
    name = "negamax"
    TITLE = "NegaMax"
    READING = Reading(figures=Figures.NEGAMAX)
    OPTIONS: ClassVar[dict[str, Option]] = {"depth": DEPTH, "time": TIME}

    def __init__(
        self,
        *,
        seed: int | None = None,
        depth: int | None = None,
        time: float | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time, depth=depth)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.table_geometry: Geometry | None = None

    def new_game(self) -> None:
        super().new_game()
        self.table = {}

    def budget(self, limits: Limits) -> Limits:
        if limits.is_unbounded():
            return Limits(time=DEFAULT_TIME, depth=DEFAULT_DEPTH)
        return limits

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        if self.table_geometry is not position.geometry or len(self.table) > TABLE_LIMIT:
            self.table = {}
            self.table_geometry = position.geometry
        return RootSearch(self, position, limits, clock, on_info).iterate()


class RootSearch:
    """One call of `search`: iterative deepening over the root columns."""

    def __init__(
        self,
        engine: NegamaxEngine,
        position: Position,
        limits: Limits,
        clock: Clock,
        on_info: InfoCallback | None,
    ) -> None:
        self.engine = engine
        self.position = position
        self.clock = clock
        self.on_info = on_info
        self.max_depth = position.geometry.cells - position.moves
        if limits.depth is not None:
            self.max_depth = min(self.max_depth, limits.depth)
        self.tree = AlphaBeta(position, engine.table, clock, limits.iterations)
        self.scores: dict[int, int] = {}  # of the last finished depth
        self.depth = 0
        self.best = position.legal_moves()[0]
        self.forced = forced_move(position)

    def iterate(self) -> SearchInfo:
        position = self.position
        order = self.tree.root_order(position.legal_moves())
        for depth in range(1, self.max_depth + 1):
            scores: dict[int, int] = {}
            try:
                for col in order:
                    scores[col] = self.tree.root_move(col, depth)
                    self.report(scores, depth, partial=True)
            except OutOfBudget:
                break
            finally:
                # Depth 1 always finishes; from then on the clock may stop the search.
                self.tree.arm()
            self.scores, self.depth = scores, depth
            self.best = self.choose(scores)
            self.report(scores, depth, partial=False)
            # Keep the best-first order: the next depth then refutes the others sooner.
            order = sorted(order, key=lambda c: -scores[c])
            if self.settled(scores):
                break
        return self.info(self.scores, self.depth)

    def choose(self, scores: dict[int, int]) -> int:
        """The best-scored column; equal best ones are told apart by the seeded random source.

        When every move loses alike, the block tactics dictate is still the one to play:
        it makes the opponent find the win.
        """
        top = max(scores.values())
        best = sorted(c for c, v in scores.items() if v == top)
        if self.forced in best:
            return self.forced
        return self.engine.rng.choice(best)

    def settled(self, scores: dict[int, int]) -> bool:
        """True when a deeper search can change nothing: a proven win, or all proven."""
        if max(scores.values()) >= MATE:
            return True
        return all(abs(v) >= MATE for v in scores.values())

    def report(self, scores: dict[int, int], depth: int, *, partial: bool) -> None:
        if self.on_info is None:
            return
        if not partial:
            self.on_info(self.info(scores, depth))
            return
        # Columns not yet searched at this depth show their last finished score, each
        # ColumnStat saying its own depth; the info's depth stays the last finished one.
        depths = {col: self.depth for col in self.scores} | dict.fromkeys(scores, depth)
        self.on_info(self.info({**self.scores, **scores}, self.depth, depths))

    def info(
        self, scores: dict[int, int], depth: int, depths: dict[int, int] | None = None
    ) -> SearchInfo:
        """The snapshot of `scores` (searched to `depth`, or per column to `depths`)."""
        position = self.position
        left = position.geometry.cells - position.moves
        columns: list[ColumnStat | None] = []
        for col in range(position.width):
            if not position.can_play(col):
                columns.append(None)
            elif col not in scores:
                columns.append(ColumnStat())
            else:
                searched = depth if depths is None else depths[col]
                columns.append(column_stat(scores[col], searched, searched >= left))
        elapsed = self.clock.elapsed()
        nodes = self.tree.nodes
        best = self.best if self.depth else None
        proven = [c for c in columns if c is not None and c.proven is not None]
        return SearchInfo(
            engine=self.engine.name,
            elapsed=elapsed,
            nodes=nodes,
            depth=depth or None,
            rate=rate(nodes, elapsed),
            columns=tuple(columns),
            best=best,
            pv=self.tree.principal_variation(best, depth) if best is not None else (),
            exact=len(proven) == len(scores) == len(position.legal_moves()),
        )


def column_stat(score: int, depth: int, complete: bool) -> ColumnStat:
    """A root column's figures: the solver score when proven, else the heuristic."""
    if abs(score) >= MATE:
        solver = score - MATE if score > 0 else score + MATE
        return ColumnStat(score=solver, proven=proven_of(solver), depth=depth)
    if complete:
        # Searched to the last cell without a win for anyone: a proven draw.
        return ColumnStat(score=0, proven="draw", depth=depth)
    return ColumnStat(score=score, depth=depth)


class AlphaBeta:
    """The tree below the root: negamax with alpha-beta, a table, and threat tactics."""

    def __init__(
        self,
        position: Position,
        table: dict[int, tuple[int, int, int, int]],
        clock: Clock,
        node_limit: int | None,
    ) -> None:
        g = position.geometry
        self.position = position
        self.geometry = g
        self.heuristic = heuristic_for(g)
        self.table = table
        self.clock = clock
        self.node_limit = node_limit
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.armed = False
        self.centre_order = centre_first(g.width)
        self.rank = {c: i for i, c in enumerate(self.centre_order)}
        self.history: dict[int, int] = {}

    def root_order(self, legal: tuple[int, ...]) -> list[int]:
        return sorted(legal, key=self.rank.__getitem__)

    def root_move(self, col: int, depth: int) -> int:
        """The value for the side to move of playing `col`, searched `depth` plies deep."""
        pos = self.position
        g = self.geometry
        self.nodes += 1
        if pos.is_winning_move(col):
            return MATE + win_now_score(pos)
        stone = (pos.mask + g.bottom_masks[col]) & g.column_masks[col]
        return -self.negamax(
            pos.current ^ pos.mask, pos.mask | stone, pos.moves + 1, depth - 1, -INFINITY, INFINITY
        )

    def arm(self) -> None:
        """Let the limits stop the search from the next node on."""
        if not self.armed:
            self.armed = True
            self.next_check = self.nodes + 1

    def check(self) -> None:
        """Called every CHECK_EVERY nodes: raise OutOfBudget when the search must end."""
        self.next_check = self.nodes + CHECK_EVERY
        if len(self.table) > TABLE_LIMIT:
            # Forget everything rather than grow without bound in a long search.
            self.table.clear()
        if not self.armed:
            return
        if self.node_limit is not None:
            if self.nodes >= self.node_limit:
                raise OutOfBudget
            self.next_check = min(self.next_check, self.node_limit)
        if self.clock.expired():
            raise OutOfBudget

    def negamax(
        self, current: int, mask: int, moves: int, depth: int, alpha: int, beta: int
    ) -> int:
        """The value of the position for its side to move, within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        g = self.geometry
        cells = g.cells
        if moves == cells:
            return 0
        empty = g.board ^ mask
        playable = (mask + g.bottom) & g.board
        opponent = current ^ mask
        my_spots, their_spots = self.heuristic.spot_pair(current, opponent, empty)
        if my_spots & playable:
            return MATE + win_score(cells, moves)
        # The loss if the opponent wins with their next stone.
        lose_next = -MATE - win_score(cells, moves + 1)
        playable = non_losing(playable, their_spots)
        if not playable:
            return lose_next
        if depth <= 0:
            return self.heuristic.evaluate(
                current, opponent, empty, moves & 1, my_spots, their_spots
            )
        # Best possible: a win with our stone after next (we cannot win with this one).
        best_possible = MATE + win_score(cells, moves + 2)
        if beta > best_possible:
            beta = best_possible
            if alpha >= beta:
                return beta

        key = current + mask
        entry = self.table.get(key)
        table_move = -1
        if entry is not None:
            entry_depth, flag, value, table_move = entry
            if entry_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value > alpha:
                        alpha = value
                elif value < beta:
                    beta = value
                if alpha >= beta:
                    return value

        history = self.history
        original_alpha = alpha
        best_value = -INFINITY
        best_move = -1
        first = True
        for col, stone in self.ordered(current, mask, playable, empty, depth, table_move):
            child_mask = mask | stone
            if first:
                value = -self.negamax(opponent, child_mask, moves + 1, depth - 1, -beta, -alpha)
                first = False
            else:
                # Null window: only ask whether the move beats alpha; search again if so.
                value = -self.negamax(
                    opponent, child_mask, moves + 1, depth - 1, -alpha - 1, -alpha
                )
                if alpha < value < beta:
                    value = -self.negamax(opponent, child_mask, moves + 1, depth - 1, -beta, -alpha)
            if value > best_value:
                best_value, best_move = value, col
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[stone] = history.get(stone, 0) + depth * depth
                        break
        if best_value <= original_alpha:
            flag = UPPER
        elif best_value >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (depth, flag, best_value, best_move)
        return best_value

    def ordered(
        self, current: int, mask: int, playable: int, empty: int, depth: int, table_move: int
    ) -> list[tuple[int, int]]:
        """(column, stone) of the moves to try, most promising first.

        The table's move leads; near the root (where ordering saves the most) the
        others are sorted by how many winning spots they leave us, centre first among
        equals; near the leaves centre order alone is cheaper than counting.
        """
        g = self.geometry
        column_masks = g.column_masks
        moves = [(col, playable & column_masks[col]) for col in self.centre_order]
        moves = [move for move in moves if move[1]]
        if depth >= 3 and len(moves) > 1:
            spots = self.heuristic.spots
            moves.sort(key=lambda move: -spots(current | move[1], empty ^ move[1]).bit_count())
        elif len(moves) > 1:
            # Near the leaves: moves that refuted other lines before (history heuristic).
            history = self.history
            moves.sort(key=lambda move: -history.get(move[1], 0))
        if table_move >= 0:
            for i, move in enumerate(moves):
                if move[0] == table_move:
                    if i:
                        moves.insert(0, moves.pop(i))
                    break
        return moves

    def principal_variation(self, first: int, depth: int) -> tuple[int, ...]:
        """The expected line: `first`, then the table's best moves while they stay legal."""
        pos = self.position
        line: list[int] = []
        col = first
        while len(line) < max(depth, 1) and col >= 0 and pos.can_play(col) and not pos.is_over():
            line.append(col)
            pos = pos.play(col)
            if pos.is_over():
                break
            entry = self.table.get(pos.current + pos.mask)
            col = entry[3] if entry is not None else -1
        return tuple(line)
