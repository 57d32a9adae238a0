"""The MCTS tree: flat lists indexed by node id, UCT selection, proofs backed up, reuse.

The search around it (budgets, the opening book, progress reports) is in `mcts.py`.
Speed matters here: the hot loop in `grow` reads lists into locals, and nodes are ids
into parallel lists rather than objects.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from c4tui.engine.board.geometry import centre_first, non_losing
from c4tui.engine.board.heuristic import heuristic_for
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import Proven, proven_of
from c4tui.engine.players.contract import ColumnStat
from c4tui.engine.players.playout import random_game_for

# A node's proof, from the view of the player who moved into it. Every proof is an
# exact game result; UNKNOWN is falsy so `if proof[node]` asks "is it settled?".
UNKNOWN, WIN, DRAW, LOSS = 0, 1, 2, 3
RESULT = (0.0, 1.0, 0.0, -1.0)  # the result a proof guarantees, indexed by proof
PROVEN_NAME: tuple[Proven | None, ...] = (None, "win", "draw", "loss")
# A verdict's bounds on a column's outcome, as a proof when they meet.
VERDICT_PROOF = {(1, 1): WIN, (0, 0): DRAW, (-1, -1): LOSS}
UNSETTLED = (-1, 1)

# Memory guard: past this many nodes the tree stops growing and leaves only collect
# more random games (about 200 bytes a node, so some 200 MB at the cap).
MAX_NODES = 1_000_000

# A leaf is expanded once it has EXPAND_AT visits; until then it only plays random
# games. Expanding a little later keeps the tree smaller and the iterations faster.
EXPAND_AT = 2


class Tree:
    """The search tree below one root position, in flat lists indexed by node id.

    `grow` runs up to SLICE iterations at a time between the search's looks at its
    clock (about 1 ms on 7x6, 5 ms on 10x10 connect 6).

    Node 0 is the root. A node's statistics are from the view of the player who moved
    into it, so a parent always picks the child with the highest UCT value. Children of
    a node get consecutive ids, created all at once when the node is expanded.
    """

    SLICE = 16

    def __init__(self, position: Position) -> None:
        g = position.geometry
        self.position = position
        self.geometry = g
        self.random_game = random_game_for(g)
        self.spot_pair = heuristic_for(g).spot_pair
        self.center_first = [g.column_masks[col] for col in centre_first(g.width)]
        self.max_depth = 0
        self.visits = [0]
        self.mean = [0.0]  # mean result of the games through the node
        # 1 / sqrt(visits), the exploration factor; infinite while unvisited, so that
        # unvisited children are tried first.
        self.spread = [math.inf]
        self.stone = [0]  # the bit of the stone played into the node
        self.proof = [UNKNOWN]
        self.open: list[list[int] | None] = [None]  # children still worth selecting
        # Only for expanded nodes: all their children, and how many have no proof.
        self.children: dict[int, range] = {}
        self.unsettled: dict[int, int] = {}
        # Root children the opening book proved worse than another: never selected
        # nor played, shown with their outcome (1, 0, -1 for the side to move).
        self.ruled_out: dict[int, int] = {}
        # What the verdict knows of each root child's outcome, (low, high), ruled out or
        # not: a settled win or draw counts as the search's own proof when the move is
        # chosen, and a column proven not to lose as well as a proven draw.
        self.verdict: dict[int, tuple[int, int]] = {}
        self.book_checked = False

    def expand_root(self) -> None:
        """Create the root's children (with their tactical proofs), once."""
        if self.open[0] is None:
            root = self.position
            self._expand([0], root.current, root.mask)

    def size(self) -> int:
        return len(self.visits)

    def solved(self) -> bool:
        """True once the root's result is proven: more iterations cannot change the move."""
        return bool(self.proof[0])

    def every_column_proven(self) -> bool:
        kids = self.children.get(0, ())
        return all(self.proof[kid] or kid in self.ruled_out for kid in kids)

    def rule_out(self, bounds: Sequence[tuple[int, int] | None]) -> None:
        """Take out of the search the root columns the verdict proves no better than another.

        `bounds` holds each column's outcome range (1, 0, -1 for the side to move; None
        for a full column), exact where the verdict settled the column, wider where it
        was cut short. A settled column is ruled out when it is below the best outcome
        proven so far (`floor`), or at it while another column is proven to reach it and
        may do better: a proven loss beside an unsettled column (outcomes start at a
        loss), a proven draw beside a column proven not to lose. Playing the other one
        never gives up the result. Columns settled equally good all stay, for the search
        to choose among.
        """
        known = [b for b in bounds if b is not None]
        floor = max(low for low, _ in known)
        rising = any(low == floor < high for low, high in known)
        for kid in self.children[0]:
            column = bounds[self.column_of(kid)]
            if column is None:
                continue
            self.verdict[kid] = column
            outcome, high = column
            if outcome == high and (outcome < floor or (outcome == floor and rising)):
                self.ruled_out[kid] = outcome
                self._close(kid)

    def _close(self, kid: int) -> None:
        """Take root child `kid` out of selection."""
        selectable = self.open[0]
        if selectable is not None and kid in selectable:
            selectable.remove(kid)

    # ---- growing ------------------------------------------------------------------

    def grow(self, count: int, c: float, rng: random.Random) -> int:
        """Run up to `count` iterations; fewer once the root is proven. Returns how many."""
        random_bits = rng.getrandbits
        visits, mean, spread, stone, proof, opened = (
            self.visits,
            self.mean,
            self.spread,
            self.stone,
            self.proof,
            self.open,
        )
        root = self.position
        root_me, root_mask = root.current, root.mask
        random_game = self.random_game
        log, sqrt, inf = math.log, math.sqrt, math.inf
        expand_at, max_nodes = EXPAND_AT, MAX_NODES
        expand = self._expand
        max_depth = self.max_depth
        done = 0
        while done < count and not proof[0]:
            done += 1
            node, me, mask = 0, root_me, root_mask
            path = [0]
            while True:
                settled = proof[node]
                if settled:
                    result = RESULT[settled]
                    break
                kids = opened[node]
                if kids is None:
                    if visits[node] < expand_at or len(visits) >= max_nodes:
                        result = -random_game(me, mask, random_bits)
                        break
                    expand(path, me, mask)
                    continue
                # UCT: the exploration weight c * sqrt(ln N) is shared by all children;
                # the tiny term keeps 0 * inf (an unvisited child) from becoming nan.
                weight = c * sqrt(log(visits[node] or 1)) + 1e-12
                best_value = -inf
                for kid in kids:
                    value = mean[kid] + weight * spread[kid]
                    if value > best_value:
                        best_value, node = value, kid
                me, mask = me ^ mask, mask | stone[node]
                path.append(node)
            if len(path) > max_depth + 1:
                max_depth = len(path) - 1  # plies below the root
            for node in reversed(path):
                n = visits[node] + 1
                visits[node] = n
                mean[node] += (result - mean[node]) / n
                spread[node] = n**-0.5
                result = -result
        self.max_depth = max_depth
        return done

    def _expand(self, path: list[int], me: int, mask: int) -> None:
        """Create the children of the last node of `path`, proving what tactics prove."""
        node = path[-1]
        g = self.geometry
        playable = g.playable(mask)
        # Both sides' winning spots in one pass (the NegaMax heuristic's helper).
        my_spots, their_spots = self.spot_pair(me, me ^ mask, g.board ^ mask)
        wins = my_spots & playable
        safe = non_losing(playable, their_spots)
        last_cell = mask.bit_count() + 1 == g.cells
        visits, mean, spread, stones, proofs = (
            self.visits,
            self.mean,
            self.spread,
            self.stone,
            self.proof,
        )
        first = len(visits)
        kids = []
        unsettled = 0
        won = False
        for column in self.center_first:
            stone = playable & column
            if not stone:
                continue
            if stone & wins:
                proof = WIN
                won = True
            elif last_cell:
                proof = DRAW
            elif not stone & safe:
                # The opponent completes a line with the next stone.
                proof = LOSS
            else:
                proof = UNKNOWN
                unsettled += 1
            if proof != LOSS:
                kids.append(len(visits))
            visits.append(0)
            mean.append(0.0)
            spread.append(math.inf)
            stones.append(stone)
            proofs.append(proof)
        self.open.extend([None] * (len(visits) - first))
        self.open[node] = kids
        self.children[node] = range(first, len(visits))
        self.unsettled[node] = unsettled
        if won or not unsettled:
            self._back_up_proof(path, self._settle(node))

    def _settle(self, node: int) -> int:
        """The proof that the children of `node` give it (UNKNOWN when they give none)."""
        proofs = [self.proof[kid] for kid in self.children[node]]
        if WIN in proofs:
            return LOSS  # the player to move here has a winning move
        if self.unsettled[node]:
            return UNKNOWN
        return DRAW if DRAW in proofs else WIN

    def _back_up_proof(self, path: list[int], settled: int) -> None:
        """Record that path[-1] is proven and carry the consequences up the path."""
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            self.proof[node] = settled
            if depth == 0:
                return
            parent = path[depth - 1]
            siblings = self.open[parent]
            if settled == LOSS and siblings is not None and node in siblings:
                siblings.remove(node)  # a ruled-out one is gone
            self.unsettled[parent] -= 1
            settled = self._settle(parent)
            if not settled:
                return

    # ---- reading ------------------------------------------------------------------

    def column_of(self, node: int) -> int:
        return self.geometry.column_of(self.stone[node])

    def best_child(self, node: int = 0) -> int | None:
        """The child to play at `node`: a proven win, else the most visited non-losing one.

        A proven draw is preferred to an unproven child whose games are mostly lost;
        when every child is proven lost, the one the search found hardest to refute.
        At the root, what the verdict settled is proven as well, and a column it proved
        not to lose is as good as a proven draw.
        """
        kids: Sequence[int] | None = self.children.get(node)
        if not kids:
            return None
        if node == 0 and self.ruled_out:
            kids = [k for k in kids if k not in self.ruled_out]
        proof, visits, mean = self.proof, self.visits, self.mean
        verdict = self.verdict
        known = {k: verdict.get(k, UNSETTLED) for k in kids}
        settled = {k: proof[k] or VERDICT_PROOF.get(known[k], UNKNOWN) for k in kids}
        wins = [k for k in kids if settled[k] == WIN]
        if wins:
            return max(wins, key=lambda k: visits[k])
        alive = [k for k in kids if settled[k] != LOSS] or list(kids)
        best = max(alive, key=lambda k: (visits[k], mean[k]))
        # Sure to draw at least: proven draws, and columns the verdict proved not to lose.
        safe = [k for k in alive if settled[k] == DRAW or known[k][0] >= 0]
        if safe and best not in safe and mean[best] < 0:
            return safe[0]
        return best

    def best_column(self) -> int | None:
        kid = self.best_child()
        return None if kid is None else self.column_of(kid)

    def principal_variation(self, first_column: int | None) -> tuple[int, ...]:
        """The expected line: `first_column`, then the best child at each step."""
        if first_column is None:
            return ()
        line = [first_column]
        node = next(k for k in self.children[0] if self.column_of(k) == first_column)
        while True:
            best = self.best_child(node)
            if best is None or not (self.visits[best] or self.proof[best]):
                return tuple(line)
            node = best
            line.append(self.column_of(node))

    def column_stats(self, c: float) -> tuple[ColumnStat | None, ...]:
        """One ColumnStat per board column for the root's children, None where full."""
        stats: list[ColumnStat | None] = [None] * self.geometry.width
        parent_visits = self.visits[0]
        for kid in self.children.get(0, ()):
            n = self.visits[kid]
            uct = None
            if n and parent_visits:
                uct = self.mean[kid] + c * math.sqrt(math.log(parent_visits) / n)
            proof = self.proof[kid]
            if kid in self.ruled_out:
                # What the book proved, and nothing else: this search never tried the
                # column (visits a reused tree holds from before are not this search's).
                outcome = self.ruled_out[kid]
                stats[self.column_of(kid)] = ColumnStat(proven=proven_of(outcome), by_book=True)
                continue
            value = RESULT[proof] if proof else (self.mean[kid] if n else None)
            stats[self.column_of(kid)] = ColumnStat(
                visits=n, value=value, uct=uct, proven=PROVEN_NAME[proof]
            )
        return tuple(stats)

    # ---- reuse --------------------------------------------------------------------

    def reroot(self, position: Position) -> Tree | None:
        """The subtree for `position` as a new tree, if the game followed this tree.

        Follows the stones added since the root (usually our move and the reply); None
        when `position` is not reached that way (another game, a size change, an undo).
        """
        root = self.position
        if position.geometry is not root.geometry or position.mask & root.mask != root.mask:
            return None
        node, me, mask, moves = 0, root.current, root.mask, root.moves
        while moves < position.moves:
            # The new stones, in `position`, of the player to move at `node`.
            if (position.moves - moves) % 2 == 0:
                new = position.current & ~mask
            else:
                new = position.opponent_stones & ~mask
            kids = self.children.get(node, ())
            node = next((k for k in kids if self.stone[k] & new), -1)
            if node < 0:
                return None
            me, mask, moves = me ^ mask, mask | self.stone[node], moves + 1
        if (me, mask) != (position.current, position.mask):
            return None
        if node == 0:
            return self  # the same position again: keep adding to this tree
        return self._copy_below(node, position)

    def _copy_below(self, top: int, position: Position) -> Tree:
        """A new tree holding the subtree of `top`, renumbered so that `top` is 0."""
        tree = Tree(position)
        tree.visits[0] = self.visits[top]
        tree.mean[0] = self.mean[top]
        tree.spread[0] = self.spread[top]
        tree.proof[0] = self.proof[top]
        pending = [(top, 0)]
        for old, new in pending:  # grows while it is read: a breadth-first walk
            kids = self.children.get(old)
            if kids is None:
                continue
            first = len(tree.visits)
            for kid in kids:
                pending.append((kid, len(tree.visits)))
                tree.visits.append(self.visits[kid])
                tree.mean.append(self.mean[kid])
                tree.spread.append(self.spread[kid])
                tree.stone.append(self.stone[kid])
                tree.proof.append(self.proof[kid])
                tree.open.append(None)
            tree.children[new] = range(first, len(tree.visits))
            tree.unsettled[new] = self.unsettled[old]
            tree.open[new] = [first + kid - kids.start for kid in self.open[old] or ()]
        return tree
