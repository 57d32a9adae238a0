"""`connectx:FILE.py`: a Kaggle ConnectX agent, run in a child process.

The file is loaded by `connectx_runner.py` (no part of c4tui is imported into the
agent's process); each move, the runner gets the observation and configuration Kaggle
would give (`board` as rows x columns cells from the top row, 0 empty, 1 and 2 the
players' marks; `mark`; `step`; `remainingOverageTime`; `columns`, `rows`, `inarow`,
`actTimeout`) and answers the agent's column, 0-based. As on Kaggle, a step may take
the time a move (`time=`, Kaggle's actTimeout, 2 s by default) plus what is left of the
overage (`overage=`, Kaggle's 60 s a game by default, so an agent rated here loses on
time where it would on Kaggle and nowhere else; `overage=0` makes a hung agent lose at
once); the agent keeps its state through a game and starts afresh in the next.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.external.child import Child
from c4tui.engine.external.outside import (
    START_SECONDS,
    Deadline,
    OutsideEngine,
    junk,
    starting_lines,
)
from c4tui.engine.players.base import Clock
from c4tui.engine.players.contract import Forfeit, InfoCallback, Limits, SearchInfo
from c4tui.engine.players.options import Option

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "connectx_runner.py")
KAGGLE_OVERAGE = 60.0  # seconds a game that Kaggle's ConnectX lets an agent's steps overrun
OVERAGE = Option(float, 0, 600, help="seconds of overage for the whole game (Kaggle's 60)")


def observation(position: Position, overage: float) -> dict[str, Any]:
    """What Kaggle's ConnectX tells the agent about `position`."""
    board = [
        0 if (cell := position.cell(col, row)) is None else cell + 1
        for row in reversed(range(position.height))
        for col in range(position.width)
    ]
    return {
        "board": board,
        "mark": position.to_move + 1,
        "step": position.moves,
        "remainingOverageTime": overage,
    }


def configuration(position: Position, seconds: float) -> dict[str, Any]:
    return {
        "columns": position.width,
        "rows": position.height,
        "inarow": position.connect,
        "actTimeout": seconds,
        "agentTimeout": START_SECONDS,
        "runTimeout": 1200,
        "episodeSteps": 1000,
        "timeout": seconds,
    }


class ConnectXEngine(OutsideEngine):
    name: ClassVar[str] = "connectx"
    TITLE: ClassVar[str] = "ConnectX agent"
    DEFAULT_TIME: ClassVar[float] = 2.0  # Kaggle's actTimeout
    OPTIONS: ClassVar[dict[str, Option]] = {**OutsideEngine.OPTIONS, "overage": OVERAGE}

    PROCESS_PER_GAME: ClassVar[bool] = True  # Kaggle loads the agent afresh each episode

    def __init__(self, *, overage: float = KAGGLE_OVERAGE, **settings: Any) -> None:
        super().__init__(**settings)
        self.overage = overage
        self.overage_left = overage

    def argv(self) -> list[str]:
        return [sys.executable, "-u", RUNNER, os.path.abspath(self.target)]

    def new_game(self) -> None:
        super().new_game()
        self.overage_left = self.overage

    def greet(self, child: Child, position: Position) -> None:
        for line in starting_lines(child, "load"):
            if line.strip() != "ready":
                raise junk(self.title, line)
            return

    def ask(
        self,
        child: Child,
        position: Position,
        limits: Limits,
        clock: Clock,
        on_info: InfoCallback | None,
    ) -> SearchInfo:
        seconds = limits.time or self.DEFAULT_TIME
        if limits.clock is not None:
            # On the host's clock: the increment is the step's time, the rest overage.
            seconds = min(limits.clock.increment, limits.clock.own)
            self.overage_left = limits.clock.own - seconds
        asked = {
            "observation": observation(position, self.overage_left),
            "configuration": configuration(position, seconds),
        }
        child.send(json.dumps(asked))
        start = time.monotonic()
        deadline = Deadline(seconds + self.overage_left, self.margin, clock)
        while True:
            line = deadline.next_line(child)
            try:
                action = json.loads(line)["action"]
            # RecursionError: a line of 64 KB of "[" (the agent's code shares our runner's
            # process, and can write where the runner answers).
            except (ValueError, KeyError, TypeError, RecursionError):
                raise junk(self.title, line) from None
            over = max(0.0, time.monotonic() - start - seconds)
            self.overage_left = max(0.0, self.overage_left - over)
            if not isinstance(action, int):
                raise Forfeit(f"played an illegal column (the agent returned {action})")
            return self.choice(position, action, clock)
