"""Plays an agent file as Kaggle's runner does, in an interpreter with nothing but the
standard library (run with `python -I -S`): c4tui must not be importable, the file is
read and its last callable is the agent, which plays ● against a player of the centre
columns until a line or `plies` moves. Prints one JSON line: the agent's columns, its
slowest step in seconds, and each module it used beside the standard library's, with
the loader that brought it."""

import importlib.util
import json
import sys
import time

WIDTH, HEIGHT = 7, 6


class Struct(dict):
    """Kaggle's observation and configuration: keys that are attributes too."""

    __getattr__ = dict.__getitem__


def wins(board: list, mark: int) -> bool:
    """Whether `mark` has four in a line: the game ends there, as Kaggle's does."""

    def at(col: int, row: int) -> int:
        inside = 0 <= col < WIDTH and 0 <= row < HEIGHT
        return board[row * WIDTH + col] if inside else 0

    return any(
        all(at(col + dc * i, row + dr * i) == mark for i in range(4))
        for col in range(WIDTH)
        for row in range(HEIGHT)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    )


def main(path: str, plies: int) -> None:
    assert importlib.util.find_spec("c4tui") is None, "c4tui is importable here"
    namespace: dict = {}
    with open(path, encoding="utf-8") as file:
        exec(compile(file.read(), path, "exec"), namespace)
    agent = [value for value in namespace.values() if callable(value)][-1]
    board = [0] * (WIDTH * HEIGHT)
    configuration = Struct(columns=WIDTH, rows=HEIGHT, inarow=4, actTimeout=2, timeout=2)
    played, slowest = [], 0.0
    for step in range(plies):
        mark = 1 + step % 2
        if mark == 1:  # the agent; its opponent fills the centre first
            seen = Struct(board=list(board), mark=mark, step=step, remainingOverageTime=60)
            start = time.perf_counter()
            column = agent(seen, configuration)
            slowest = max(slowest, time.perf_counter() - start)
            played.append(column)
        else:
            column = next(col for col in (3, 2, 4, 1, 5, 0, 6) if board[col] == 0)
        assert isinstance(column, int) and 0 <= column < WIDTH and board[column] == 0, column
        row = max(row for row in range(HEIGHT) if board[row * WIDTH + column] == 0)
        board[row * WIDTH + column] = mark
        if wins(board, mark):
            break
    used = {
        name: type(getattr(module, "__loader__", None)).__name__
        for name, module in sys.modules.items()
        if name.split(".")[0] not in sys.stdlib_module_names
    }
    print(json.dumps({"played": played, "slowest": slowest, "modules": used}))


if __name__ == "__main__":
    # A third argument: a folder of packages Kaggle has too (NumPy, for the learned
    # engine's agent), put on the path without its .pth files: c4tui stays out of reach.
    if len(sys.argv) > 3:
        sys.path.append(sys.argv[3])
    main(sys.argv[1], int(sys.argv[2]))
