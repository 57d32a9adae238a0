"""The learned engine: `alphazero:sims=N`, PUCT search over a policy/value network.

`sims=0` plays the network's own choice, its highest prior (read both ways: the board
and its mirror image), with no search at all: the network measured alone. Otherwise
each move runs N simulations (or, given `time=`, as many as fit) of the PUCT search in
`learned/puct.py`, keeps its tree for the next move, and uses the solver's proven
results where the search reaches them: leaves the solver settles at once, and on 7x6,
for a root within the opening book's reach, the book's verdict on each column (as
`mcts:book=1` does, `opening.py`).

The network is the one c4tui ships for the board (`learned/nets/`), or `net=FILE` (a
file `c4tui train` wrote). A board with no network is a forfeit that says so, not a crash.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import ClassVar

from c4tui.engine.board.geometry import Geometry, centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import Network, NetworkError, load, shipped, shipped_file
from c4tui.engine.learned.puct import DEFAULT_C, Prover, PuctTree
from c4tui.engine.players.base import BaseEngine, Clock, rate
from c4tui.engine.players.contract import (
    Bundle,
    ColumnStat,
    Figures,
    Forfeit,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.opening import column_bounds, in_reach
from c4tui.engine.players.options import TIME, Option, SpecError

DEFAULT_SIMS = 400  # simulations a move when the spec gives no budget
# The search solves leaves with this many empty cells or fewer (on 7x6, from the 14th
# stone). Each such proof costs 0.1 ms at the median and at most 34 ms on 150 random
# 7x6 positions of 28 empty cells (5 ms at 24), and the proofs cut the search short: at
# 64 simulations a move took 0.001-0.021 s on average on Pons's sets, against
# 0.04-0.06 s when only leaves of 12 were solved, and no move lost its position's
# result on any of the six sets (Middle-Medium: 3.3% at 12). docs/learned-engine.md.
# On a smaller board 28 empty cells are its opening, dear to prove (6x5: 18 ms at the
# median, a first move of 0.56 s): there the reach is two thirds of the cells.
ENDGAME = 28

INFO_EVERY = 0.05  # seconds between progress reports
# The opening book's verdict may take this share of a move's time (see mcts.BOOK_SHARE).
BOOK_SHARE = 0.5


def endgame_reach(g: Geometry) -> int:
    """The default reach of the search's proofs on a board (`endgame=` sets another)."""
    return min(ENDGAME, g.cells * 2 // 3)


class AlphaZeroEngine(BaseEngine):
    """PUCT search over a small policy/value network, with proven results and tree reuse."""

    name = "alphazero"
    TITLE = "AlphaZero"
    READING = Reading(figures=Figures.PUCT, counts="simulations", keeps_tree=True)
    OPTIONS: ClassVar[dict[str, Option]] = {
        "sims": Option(int, 0, 10**7, help="simulations a move; 0: the network's own choice"),
        "time": TIME,
        "c": Option(float, 0, 100, help="the exploration constant of the priors"),
        "book": Option(int, 0, 1, help="1: the opening book settles root columns (7x6)"),
        "net": Option(
            str,
            1,
            4096,
            help="a network file (c4tui train); default: the shipped one",
            names_file=True,
        ),
        "prove": Option(int, 0, 1, help="1: the solver settles leaves near the end (default)"),
        "endgame": Option(
            int,
            0,
            100,
            help=f"leaves with this many empty cells or fewer are solved (default {ENDGAME}, "
            "or two thirds of a smaller board's cells)",
        ),
    }

    def __init__(
        self,
        *,
        seed: int | None = None,
        sims: int | None = None,
        time: float | None = None,
        c: float = DEFAULT_C,
        book: int = 1,
        net: str | None = None,
        prove: int = 1,
        endgame: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.network_only = sims == 0
        super().__init__(seed=seed, limits=limits, time=time, iterations=sims or None)
        self.c = c
        self.book = bool(book)
        self.net_file = net
        self.prove = bool(prove)
        self.endgame = endgame  # None: the board's own (`endgame_reach`)
        self._network: Network | None = None
        if net is not None:
            try:
                self._network = load(net)
            except NetworkError as error:
                raise SpecError(f"alphazero: net={error}", "net") from None
        self.tree: PuctTree | None = None
        self._prover: Prover | None = None

    @classmethod
    def board_refusal(
        cls, options: Mapping[str, object], board: tuple[int, int, int]
    ) -> str | None:
        """Why this spec cannot play on `board` (no network for it), or None."""
        width, height, connect = board
        words = f"{width}x{height} connect {connect}"
        net = options.get("net")
        if net is None:
            if shipped_file(width, height, connect) is None:
                return f"no network for the {words} board: give one with net=FILE (c4tui train)"
            return None
        try:
            network = load(str(net))
        except NetworkError as error:
            return f"net={error}"
        if (network.width, network.height, network.connect) != board:
            return (
                f"net={net} is for the {network.width}x{network.height} connect "
                f"{network.connect} board, not {words}"
            )
        return None

    @classmethod
    def bundle(cls, options: Mapping[str, object]) -> Bundle | None:
        """The agent carries its network: net=FILE's, or the shipped 7x6 one (Kaggle's
        ConnectX board)."""
        net = options.get("net")
        if net is not None:
            try:  # checked here: a file that is no network would fail only on Kaggle
                load(str(net))
            except NetworkError as error:
                raise SpecError(f"alphazero: net={error}", "net") from None
        path = str(net) if net is not None else str(shipped_file(7, 6, 4))
        return Bundle(modules=(cls.__module__,), files=(("net", path),))

    def new_game(self) -> None:
        super().new_game()
        self.tree = None

    def budget(self, limits: Limits) -> Limits:
        if self.network_only:
            # No search, so nothing to spend: the panel showed "budget 0 of 400
            # simulations" (the default's) under the network's own choice, seen in tmux.
            return Limits()
        if limits.time is None and limits.iterations is None:
            return Limits(iterations=DEFAULT_SIMS)
        return limits

    def network_for(self, position: Position) -> Network:
        g = position.geometry
        network = self._network or shipped(g.width, g.height, g.connect)
        if network is None or not network.fits(g):
            board = f"{g.width}x{g.height} connect {g.connect}"
            have = (
                ""
                if network is None
                else f" (the network is for {network.width}x"
                f"{network.height} connect {network.connect})"
            )
            raise Forfeit(f"no network for the {board} board{have}: give one with net=FILE")
        return network

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        network = self.network_for(position)
        if self.network_only:
            return self._network_choice(network, position, clock)
        if self.tree is None or self.tree.network is not network or not self.tree.reroot(position):
            if self.prove and (
                self._prover is None or self._prover.solver.geometry != position.geometry
            ):
                reach = self.endgame
                if reach is None:  # not `or`: endgame=0 is a reach of its own
                    reach = endgame_reach(position.geometry)
                self._prover = Prover(position, reach)
            self.tree = PuctTree.start(position, network, self._prover, self.c)
        tree = self.tree
        if tree.prover is not None:  # on a clock a proof stops with it; else each finishes
            tree.prover.within(clock.deadline, clock.stop)
        tree.expand(tree.root)
        # Asked even when the root is proven already (a win in one, or the kept tree's
        # proof): the move is then settled, but the panel shows the book's verdict on
        # the other columns rather than nothing (a cheap lookup within the book's reach).
        if self.book and in_reach(position):
            if limits.time is not None:
                verdict = column_bounds(
                    position, clock.start + BOOK_SHARE * limits.time, clock.stop
                )
            else:  # no clock: the same verdict, and tree, on any machine
                verdict = column_bounds(position, None, clock.stop, wait=True)
            if verdict is not None:
                tree.rule_out(verdict)
        budget, done = limits.iterations, 0
        next_info = clock.start + INFO_EVERY
        while not tree.solved() and (budget is None or done < budget):
            tree.simulate()
            done += 1
            if clock.expired():
                break
            if on_info is not None and time.perf_counter() >= next_info:
                on_info(self._info(tree, position, clock, done))
                next_info = time.perf_counter() + INFO_EVERY
        return self._info(tree, position, clock, done)

    def _info(self, tree: PuctTree, position: Position, clock: Clock, done: int) -> SearchInfo:
        elapsed = clock.elapsed()
        best = tree.best_child()
        columns = tree.column_stats(position.width)
        return SearchInfo(
            engine=self.name,
            elapsed=elapsed,
            iterations=done,
            nodes=tree.nodes(),
            depth=tree.max_depth,
            rate=rate(done, elapsed),
            columns=columns,
            best=best.column,
            pv=tree.principal_variation(best),
            exact=all(s is None or s.proven is not None for s in columns),
            net_value=tree.root.net,
        )

    def _network_choice(self, network: Network, position: Position, clock: Clock) -> SearchInfo:
        """The network alone: the column of the highest prior (ties to the centre), the
        priors read from the board and from its mirror image (`Network.both_ways`)."""
        priors, value = network.evaluate_both_ways(position)
        legal = [c for c in centre_first(position.width) if position.can_play(c)]
        best = max(legal, key=lambda c: priors[c])
        return SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            iterations=0,
            columns=tuple(
                ColumnStat(prior=priors[c]) if position.can_play(c) else None
                for c in range(position.width)
            ),
            best=best,
            pv=(best,),
            net_value=value,
        )
