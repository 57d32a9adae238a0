"""Game: the moves of one game as a tree of lines, with undo, redo, jumps and its result.

The game is a tree: every move played from a position is a child of it, the first child
the main line's continuation and the others variations, as chess programs keep them.
Undo then a different move starts a variation and the old line stays; redo follows the
line last walked. A move is named by its path: the 0-based columns from the start, which
is also the path of the position after it. The file format is gamefile.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c4tui.engine.board.position import Position

Path = tuple[int, ...]


@dataclass(frozen=True)
class Result:
    """How a finished game ended: `winner` is 0, 1, or None for a draw."""

    winner: int | None
    cells: tuple[tuple[int, int], ...] = ()  # the winning line(s), (col, row)


@dataclass(frozen=True)
class Evaluation:
    """What the engine that played a move said it was worth: its spec, and its value of
    the move in [-1, 1] from the first player's side; `exact` when that value is a
    proven result (1 ● wins, 0 a draw, -1 ○ wins), not an estimate."""

    spec: str
    value: float
    exact: bool = False


@dataclass(eq=False)
class Node:
    """A position of the game and the moves played from it, main continuation first."""

    position: Position
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    walked: Node | None = None  # the child redo goes to: the one last walked
    evaluation: Evaluation | None = None  # the move's, when an engine played it

    @property
    def column(self) -> int:
        """The 0-based column of the move that led here (the root has none)."""
        return self.position.path[-1]

    def child(self, col: int) -> Node | None:
        return next((c for c in self.children if c.column == col), None)

    def next_in_line(self) -> Node | None:
        """Where redo goes: the child last walked, else the main continuation."""
        return self.walked or (self.children[0] if self.children else None)

    def is_main(self) -> bool:
        """Whether this move is on the game's main line."""
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True


class Game:
    """A game: its tree of lines and the position on the board (see the module docstring)."""

    def __init__(self, start: Position | None = None) -> None:
        self.root = Node(start or Position.start())
        self.node = self.root

    @classmethod
    def from_moves(cls, moves: str, width: int = 7, height: int = 6, connect: int = 4) -> Game:
        game = cls(Position.start(width, height, connect))
        for col in Position.from_moves(moves, width, height, connect).path:
            game.play(col)
        return game

    # ---- the position on the board -----------------------------------------------

    @property
    def position(self) -> Position:
        return self.node.position

    @property
    def start(self) -> Position:
        return self.root.position

    @property
    def moves(self) -> Path:
        """0-based columns played since the start to reach the position on the board."""
        return self.position.path[len(self.start.path) :]

    @property
    def path(self) -> Path:
        """The board position's path (the start's moves included): its name in the tree."""
        return self.position.path

    def play(self, col: int) -> Position:
        """Drop a stone for the side to move: follows the line that already has this move,
        else starts one (the main line when the position had no move yet)."""
        child = self.node.child(col)
        if child is None:
            child = Node(self.position.play(col), self.node)
            self.node.children.append(child)
        self.node.walked = child
        self.node = child
        return self.position

    def go_on_to(self, position: Position) -> bool:
        """Play `position`'s moves beyond the board's, where it goes on from the board
        of a game with one line from the empty board (a game followed move by move, not
        made again from all its moves); False, and nothing played, otherwise."""
        board = self.position
        same = (board.width, board.height, board.connect) == (
            position.width,
            position.height,
            position.connect,
        )
        path = position.path
        if not same or self.start.path or self.has_variations():
            return False
        if path[: len(board.path)] != board.path:
            return False
        for column in path[len(board.path) :]:
            self.play(column)
        return True

    def can_undo(self) -> bool:
        return self.node.parent is not None

    def can_redo(self) -> bool:
        return bool(self.node.children)

    def undo(self) -> int:
        """Step back one move (the line stays); returns its column."""
        if self.node.parent is None:
            raise IndexError("nothing to undo")
        col = self.node.column
        self.node.parent.walked = self.node
        self.node = self.node.parent
        return col

    def redo(self) -> int:
        """Step forward along the line last walked; returns the column."""
        following = self.node.next_in_line()
        if following is None:
            raise IndexError("nothing to redo")
        self.node = following
        return following.column

    # ---- the tree ------------------------------------------------------------------

    def find(self, path: Path) -> Node | None:
        """The node whose position has this path, or None when it is not in the game."""
        start = len(self.start.path)
        if path[:start] != self.start.path:
            return None
        node: Node | None = self.root
        for col in path[start:]:
            node = node.child(col) if node is not None else None
        return node

    def jump(self, path: Path) -> Position:
        """Show the position with this path; redo then follows the line it is on."""
        node = self.find(path)
        if node is None:
            raise KeyError(f"no move {path!r} in this game")
        self.node = node
        while node.parent is not None:
            node.parent.walked = node
            node = node.parent
        return self.position

    def line(self) -> list[Node]:
        """The nodes from after the start to the position on the board, in order."""
        nodes, node = [], self.node
        while node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def main_line(self) -> list[Node]:
        """The main line's nodes after the start, in order."""
        nodes, node = [], self.root
        while node.children:
            node = node.children[0]
            nodes.append(node)
        return nodes

    @property
    def main_position(self) -> Position:
        """The position at the end of the main line (what review and the result judge)."""
        line = self.main_line()
        return line[-1].position if line else self.start

    def line_ends(self) -> list[Node]:
        """The last node of every line, main line first, then each variation in the
        order the tree holds it (depth first)."""
        ends: list[Node] = []

        def walk(node: Node) -> None:
            if not node.children:
                ends.append(node)
            for child in node.children:
                walk(child)

        walk(self.root)
        return ends if ends[0] is not self.root else []

    def has_variations(self) -> bool:
        return len(self.line_ends()) > 1

    def promote(self, path: Path | None = None) -> bool:
        """Make the line through `path` (default: the board's) the main line; False when it
        already is."""
        node = self.find(path) if path is not None else self.node
        if node is None or node.is_main():
            return False
        while node.parent is not None:
            siblings = node.parent.children
            siblings.remove(node)
            siblings.insert(0, node)
            node = node.parent
        return True

    def variation_start(self, path: Path | None = None) -> Node | None:
        """The first move of the variation through `path` (default: the board's): where
        it leaves its parent line; None on the main line (or no such move)."""
        node = self.find(path) if path is not None else self.node
        if node is None or node.is_main():
            return None
        while node.parent is not None and node.parent.children[0] is node:
            node = node.parent
        return node

    def delete(self, path: Path | None = None) -> bool:
        """Remove the variation through `path` (default: the board's) from where it leaves
        its parent line; the main line cannot be deleted. Returns False when nothing was
        removed. A board inside the removed moves goes back to the branch point."""
        node = self.variation_start(path)
        if node is None:
            return False
        parent = node.parent
        assert parent is not None  # a non-main node has a branch point above it
        parent.children.remove(node)
        if parent.walked is node:
            parent.walked = None
        if self.position.path[: len(node.position.path)] == node.position.path:
            self.node = parent
        return True

    def result(self) -> Result | None:
        """The board position's result; None while the game goes on."""
        pos = self.position
        winner = pos.winner()
        if winner is not None:
            return Result(winner, pos.winning_cells())
        if pos.is_draw():
            return Result(None)
        return None
