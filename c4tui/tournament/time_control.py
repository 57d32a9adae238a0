"""What a run's engines may spend on a move: a clock (base plus increment), a move time
or a node count, the same for every game of the run.

`--tc BASE+INC` (seconds, as cutechess-cli's `tc=40+0.4`): each side's clock starts at
BASE; a move's time comes off the mover's clock and INC goes back on; a side whose clock
runs out loses the game on time (a forfeit, with the reason). Engines of ours are asked
to spend `share_of_clock` of theirs; outside programs are handed the clocks (c4e's `go
wtime btime winc binc`, "Four In A Row"'s time bank, ConnectX's step time and overage)
and share them out themselves. `--movetime S`: S seconds every move. `--nodes N`: N
nodes every move (c4e's `go nodes N`; our engines count iterations). A limit given
here replaces the one in an engine's spec.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from c4tui.engine.external.outside import OutsideEngine
from c4tui.engine.players.base import share_of_clock
from c4tui.engine.players.contract import Engine, GameClock, Limits

MAX_SECONDS = 86_400.0


@dataclass(frozen=True)
class MoveLimits:
    """A run's limits (see the module docstring); all None: each engine's own."""

    base: float | None = None
    increment: float = 0.0
    movetime: float | None = None
    nodes: int | None = None

    def clocks(self) -> list[float] | None:
        """Both sides' clocks at the start of a game; None without a clock."""
        return None if self.base is None else [self.base, self.base]

    def limits(self, engine: Engine, clocks: list[float] | None, side: int) -> Limits | None:
        """What `engine`, moving for `side`, is asked to keep to; None: its spec's."""
        if self.base is None and self.movetime is None and self.nodes is None:
            return None
        outside = isinstance(engine, OutsideEngine)
        nodes = self.nodes if outside else None
        iterations = None if outside else self.nodes
        if clocks is None:
            return Limits(time=self.movetime, iterations=iterations, nodes=nodes)
        own, opponent = clocks[side], clocks[1 - side]
        clock = GameClock(max(own, 0.0), max(opponent, 0.0), self.increment)
        return Limits(
            time=share_of_clock(own, self.increment),
            iterations=iterations,
            nodes=nodes,
            clock=clock if outside else None,
        )


def parse_tc(text: str) -> tuple[float, float]:
    """`40+0.4` (or `40`): base and increment in seconds; ValueError saying why not."""
    base_text, _, increment_text = text.strip().partition("+")
    try:
        base = float(base_text)
        increment = float(increment_text) if increment_text else 0.0
    except ValueError:
        raise ValueError(f"{text!r} is not BASE+INC in seconds (e.g. 10+0.1)") from None
    if not (0 < base <= MAX_SECONDS and 0 <= increment <= MAX_SECONDS):
        raise ValueError(
            f"{text!r}: the base is more than 0 and the increment 0 or more, in seconds"
        )
    if not (math.isfinite(base) and math.isfinite(increment)):
        raise ValueError(f"{text!r} is not BASE+INC in seconds")
    return base, increment
