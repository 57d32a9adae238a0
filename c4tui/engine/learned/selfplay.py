"""Self-play games: the network plays itself with PUCT, and every move becomes a lesson.

This is AlphaZero's data: each move of a game is searched with `sims` simulations of
the PUCT search (`puct.py`; by default with no solver, so the network learns from
nothing but the rules and its own games; with `solver`, the exact solver settles the
leaves it settles at once (`puct.Prover`: a dozen empty cells or fewer), and those
proofs become policy and value targets: a run that says so is no longer "from
nothing"), and the position is kept with the share of visits each
column got (the policy target) and a value target for the side to move there: the
search's own value (exact where the search proved the position) mixed with the game's
result, `search_value` of the first. Three things keep the games varied:
- a random opening: each game starts after a number of uniformly random plies drawn
  from 0 to `opening_plies` (none that wins), so self-play meets the lopsided
  positions random play makes, not only the balanced ones of its own strong games;
- Dirichlet noise mixed into the root's priors at every move (`noise` of the weight,
  from a Dirichlet(`dirichlet`) draw), so columns the network dismisses still get tried;
- for the first `sampled_plies` plies, the move is drawn in proportion to the visits
  (temperature 1) instead of the most visited column, so openings differ from game to
  game.

NumPy only: a task (`GamesTask`: the network, the settings, a seed, a count) is a pure
function of its fields, run in worker processes or on a Dask worker alike, and its
games are the same wherever it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import PLANES, Network, encode
from c4tui.engine.learned.puct import DEFAULT_C, LOSS, RESULT, WIN, Node, Prover, PuctTree


@dataclass(frozen=True)
class PlaySettings:
    """How self-play searches and explores."""

    sims: int = 64
    c: float = DEFAULT_C
    dirichlet: float = 1.0  # the Dirichlet draw's concentration (few columns: near 1)
    noise: float = 0.25  # the noise's share of the root's priors
    sampled_plies: int = 4  # plies drawn in proportion to the visits
    opening_plies: int = 0  # at most this many random plies before a game's first search
    search_value: float = 0.0  # the search's value's share of the value target
    solver: bool = False  # the exact solver proves the leaves it settles at once
    # The share of moves after the opening played uniformly at random, their positions
    # still searched and kept: self-play's own games stay near the paths its network
    # likes, and most of its mistakes were in positions it never met (see play_move).
    explore: float = 0.0


@dataclass(frozen=True)
class LearnerSettings:
    """The network's size and how it learns from the samples (`learner.py`, with JAX;
    here so that a run's settings are read without it)."""

    hidden: int = 128
    value_hidden: int = 32
    blocks: int = 2
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    planes: int = PLANES  # what the network reads (`network.inputs`)
    # The network that plays, is measured and is kept: a moving average of the weights
    # over about this many of the latest training steps (0: the latest weights).
    average: int = 0


@dataclass(frozen=True)
class Samples:
    """Positions of self-play games and what they teach (rows; NumPy arrays)."""

    planes: NDArray[np.uint8]  # network.encode of each position
    policy: NDArray[np.float32]  # the search's share of visits per column
    value: NDArray[np.float32]  # the value target for the side to move, in [-1, 1]
    results: NDArray[np.int8]  # per game: 1 first player won, 0 draw, -1 second won

    def __len__(self) -> int:
        return int(self.value.shape[0])

    @staticmethod
    def join(parts: list[Samples], width: int, cells: int) -> Samples:
        if not parts:
            return Samples(
                np.zeros((0, 3 * cells), np.uint8),
                np.zeros((0, width), np.float32),
                np.zeros(0, np.float32),
                np.zeros(0, np.int8),
            )
        return Samples(
            np.concatenate([p.planes for p in parts]),
            np.concatenate([p.policy for p in parts]),
            np.concatenate([p.value for p in parts]),
            np.concatenate([p.results for p in parts]),
        )


@dataclass(frozen=True)
class GamesTask:
    """One worker's share of a generation's games."""

    network: Network
    settings: PlaySettings
    seed: int
    games: int


def play_games(task: GamesTask) -> Samples:
    """Play the task's games (module level: sent to worker processes by name).

    The games are played side by side: each round, every game's search selects one leaf,
    and the leaves of all the games are evaluated in one pass of the network (one matrix
    product per layer for all of them, where one position a pass was mostly NumPy's
    overhead). Each game draws from its own generator, seeded by the task's seed and
    its number, so its moves do not depend on the other games."""
    net = task.network
    start = Position.start(net.width, net.height, net.connect)
    prover = Prover(start) if task.settings.solver else None  # one for the task's games
    games = [
        Game(net, task.settings, np.random.default_rng([task.seed, number]), prover)
        for number in range(task.games)
    ]
    waiting = list(games)
    while waiting:
        leaves = [(game, game.next_leaf()) for game in waiting]
        asked = [(game, path) for game, path in leaves if path is not None]
        if asked:
            priors, values = net.evaluate_many([path[-1].position for _, path in asked])
            for (game, path), prior, value in zip(asked, priors, values, strict=True):
                game.evaluated(path, prior, value)
        waiting = [game for game in waiting if not game.over]
    return Samples.join([game.samples() for game in games], net.width, net.width * net.height)


class Game:
    """One self-play game, searched one simulation at a time by `play_games`' rounds."""

    def __init__(
        self,
        network: Network,
        settings: PlaySettings,
        rng: np.random.Generator,
        prover: Prover | None = None,
    ) -> None:
        self.network = network
        self.settings = settings
        self.rng = rng
        self.prover = prover
        start = Position.start(network.width, network.height, network.connect)
        plies = int(rng.integers(0, settings.opening_plies + 1))
        self.position = random_opening(start, plies, rng)
        self.tree = PuctTree.start(self.position, network, prover, settings.c)
        self.done = 0  # simulations of this move so far
        self.over = False
        self.planes: list[NDArray[np.uint8]] = []
        self.policies: list[NDArray[np.float32]] = []
        self.movers: list[int] = []
        self.proven: list[float | None] = []  # the root's proven result, the mover's view
        self.searched: list[float] = []  # the root's mean value, the mover's view
        self.explored: list[bool] = []  # whether the move played there was a random one

    def next_leaf(self) -> list[Node] | None:
        """The path to the next leaf the network must evaluate; None when this game's
        round needed none (a proven leaf, or a move made)."""
        root = self.tree.root
        if root.children is None:
            return [root]  # a new root: its evaluation comes before any simulation
        if self.done >= self.settings.sims or self.tree.solved():
            self.move()
            return None
        path = self.tree.descend()
        leaf = path[-1]
        if leaf.proof:
            self.tree.back_up(path, RESULT[leaf.proof])
            self.done += 1
            return None
        return path

    def evaluated(self, path: list[Node], priors: list[float], value: float) -> None:
        leaf = path[-1]
        self.tree.expand_with(leaf, priors, value)
        if leaf is self.tree.root and len(path) == 1 and self.done == 0 and not leaf.visits:
            add_noise(leaf, self.settings, self.rng)
            return
        self.tree.back_up(path, -value)
        self.done += 1

    def move(self) -> None:
        """Keep the position's lesson, play the move, and root the tree at the reply."""
        width = self.network.width
        target = visit_shares(self.tree.root, width)
        self.planes.append(encode(self.position))
        self.policies.append(target)
        self.movers.append(self.position.to_move)
        root = self.tree.root
        # The root's figures are the view of the player who moved into it: reversed.
        self.proven.append(-RESULT[root.proof] if root.proof else None)
        self.searched.append(-root.mean())
        sampled = self.position.moves < self.settings.sampled_plies
        # No draw without exploring: the games of a run without it stay as they were.
        explored = self.settings.explore > 0 and bool(self.rng.random() < self.settings.explore)
        self.explored.append(explored)
        column = choose(self.tree, target, sampled, self.rng)
        if explored:
            column = int(self.rng.choice(self.position.legal_moves()))
        self.position = self.position.play(column)
        self.done = 0
        if self.position.is_over():
            self.over = True
            return
        if not self.tree.reroot(self.position):
            self.tree = PuctTree.start(self.position, self.network, self.prover, self.settings.c)
        elif self.tree.root.children is not None:
            add_noise(self.tree.root, self.settings, self.rng)

    def samples(self) -> Samples:
        winner = self.position.winner()
        result = 0 if winner is None else (1 if winner == 0 else -1)
        values = []
        # A random move says nothing of who should have won: before one, the search's
        # value alone (a move from the end backwards: whether one came at or after it).
        random_after = np.logical_or.accumulate(np.array(self.explored[::-1], dtype=bool))[::-1]
        rows = zip(self.movers, self.proven, self.searched, random_after, strict=True)
        for mover, proven, searched, unplayed in rows:
            share = 1.0 if unplayed else self.settings.search_value
            played = 0.0 if winner is None else (1.0 if mover == winner else -1.0)
            # A proof is exact (the rules settled it); else the search's value and the
            # game's result, which a sampled move late in the game can have thrown away.
            values.append(proven if proven is not None else share * searched + (1 - share) * played)
        return Samples(
            np.array(self.planes, dtype=np.uint8),
            np.array(self.policies, dtype=np.float32),
            np.array(values, dtype=np.float32),
            np.array([result], dtype=np.int8),
        )


def random_opening(position: Position, plies: int, rng: np.random.Generator) -> Position:
    """`plies` uniformly random moves from `position`, none that wins or fills the board
    (fewer where only such moves are left): the game a random player would have played
    so far, had it not ended."""
    g = position.geometry
    for _ in range(plies):
        if position.moves + 1 >= g.cells:
            break
        safe = [c for c in position.legal_moves() if not position.is_winning_move(c)]
        if not safe:
            break
        position = position.play(safe[int(rng.integers(len(safe)))])
    return position


def add_noise(root: Node, settings: PlaySettings, rng: np.random.Generator) -> None:
    """Mix Dirichlet noise into the root's children's priors."""
    children = root.children or []
    if settings.noise <= 0 or len(children) < 2:
        return
    draw = rng.dirichlet([settings.dirichlet] * len(children))
    for child, eta in zip(children, draw, strict=True):
        child.prior = (1 - settings.noise) * child.prior + settings.noise * float(eta)


def visit_shares(root: Node, width: int) -> NDArray[np.float32]:
    """The policy target: each column's share of the root's visits. Where the search
    stopped on a proof (a win at once, or every column settled), the proven best
    columns share it."""
    shares = np.zeros(width, dtype=np.float32)
    children = root.children or []
    wins = [c for c in children if c.proof == WIN]
    counted = [c for c in children if c.visits and c.proof != LOSS] if not wins else []
    if counted:
        for child in counted:
            shares[child.column] = child.visits
    else:
        best = wins or [c for c in children if c.proof != LOSS] or children
        for child in best:
            shares[child.column] = 1.0
    return np.asarray(shares / shares.sum(), dtype=np.float32)


def choose(
    tree: PuctTree, shares: NDArray[np.float32], sampled: bool, rng: np.random.Generator
) -> int:
    """The column to play: drawn in proportion to the visits early on, else the search's."""
    if sampled:
        return int(rng.choice(len(shares), p=shares))
    return tree.best_child().column
