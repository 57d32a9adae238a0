"""A built-in engine served over our engine protocol, c4e (`c4tui engine SPEC`).

`EngineServer.serve(lines)` reads the host's commands one line at a time and writes
answers through `write` (one call a line). A search runs on a thread of its own, so
`stop`, `isready` and `quit` are heard while it thinks; its `info` lines are sent at
most ten times a second, and its final one always, just before `bestmove`. A line
that is not understood is answered by one `info string error: ...` line naming it, and
changes nothing. At the end of the input the running search is finished and answered
before the server returns (`printf 'position 4453\\ngo movetime 300\\n' | c4tui engine
level:3` prints its move).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from c4tui.engine.board.notation import NotationError
from c4tui.engine.board.position import Position
from c4tui.engine.external import protocol
from c4tui.engine.external.protocol import Budget, ProtocolError
from c4tui.engine.players.base import share_of_clock
from c4tui.engine.players.contract import Engine, Limits, SearchInfo
from c4tui.engine.players.options import NOISE, SpecError
from c4tui.engine.players.specs import EngineSpec, engine_class, make_engine, parse_spec

INFO_EVERY = 0.1  # seconds between progress lines
INFINITE_SECONDS = 365 * 24 * 3600.0  # `go infinite`: searched until `stop`
AUTHOR = "the c4tui authors"


class EngineServer:
    """One engine, one host, one conversation."""

    def __init__(self, spec: str, write: Callable[[str], None], seed: int | None = None) -> None:
        self.text = spec
        self.spec = parse_spec(spec)
        self.seed = seed
        self.engine: Engine = make_engine(spec, seed=seed)
        self._write = write
        self._lock = threading.Lock()
        self.board = (7, 6, 4)
        self.position = Position.start()
        self.stop = threading.Event()
        self.search: threading.Thread | None = None

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def serve(self, lines: Iterable[str]) -> None:
        """Answer every line until `quit` or the end of the input."""
        try:
            for raw in lines:
                line = raw.strip()
                if line == "quit":
                    self.stop.set()
                    break
                if line:
                    self.handle(line)
        finally:
            self.finish()

    def finish(self) -> None:
        """Wait for the running search (it answers) and end the engine."""
        if self.search is not None:
            self.search.join()
        self.engine.close()

    def handle(self, line: str) -> None:
        words = line.split()
        handler = COMMANDS.get(words[0])
        try:
            if handler is None:
                raise ProtocolError("unknown command")
            handler(self, words[1:])
        except (ProtocolError, SpecError, NotationError, ValueError) as error:
            self.say(f"info string error: {line[:80]!r}: {error}")

    # ---- the commands -------------------------------------------------------------

    def hello(self, words: list[str]) -> None:
        self.say(f"id name c4tui {self.text}")
        self.say(f"id author {AUTHOR}")
        for line in self.option_lines():
            self.say(line)
        self.say(f"{protocol.NAME}ok {protocol.VERSION}")

    def option_lines(self) -> list[str]:
        """One `option` line for each setting the served engine takes."""
        table = {**engine_class(self.spec.name).OPTIONS, "noise": NOISE}
        # What the engine runs with: the spec's settings, else its own budget's figures.
        limits = self.engine.limits
        running: dict[str, object] = {
            "time": limits.time,
            "iterations": limits.iterations,
            "depth": limits.depth,
        }
        running.update(noise=0, **self.spec.options)
        lines = []
        for key, option in table.items():
            kind = {int: "int", float: "float", str: "string"}[option.kind]
            low = None if option.kind is str else option.minimum
            high = None if option.kind is str else option.maximum
            lines.append(protocol.option_line(key, kind, low, high, running.get(key)))
        return lines

    def setoption(self, words: list[str]) -> None:
        if len(words) < 4 or words[0] != "name" or "value" not in words:
            raise ProtocolError("setoption name NAME value VALUE")
        at = words.index("value")
        key, value = " ".join(words[1:at]), " ".join(words[at + 1 :])
        self.require_idle()
        spec: EngineSpec = self.spec.replace(**{key.lower(): value})
        self.engine.close()
        self.spec, self.text = spec, str(spec)
        self.engine = make_engine(spec, seed=self.seed)

    def isready(self, words: list[str]) -> None:
        self.say("readyok")

    def set_board(self, words: list[str]) -> None:
        if len(words) != 3:
            raise ProtocolError("board WIDTH HEIGHT CONNECT")
        try:
            width, height, connect = (int(word) for word in words)
        except ValueError:
            raise ProtocolError("board takes three whole numbers") from None
        self.require_idle()
        self.position = Position.start(width, height, connect)
        self.board = (width, height, connect)

    def newgame(self, words: list[str]) -> None:
        self.require_idle()
        self.engine.new_game()

    def set_position(self, words: list[str]) -> None:
        if len(words) > 1:
            raise ProtocolError("position MOVES (one move string, no blanks)")
        self.require_idle()
        self.position = Position.from_moves(words[0] if words else "", *self.board)

    def go(self, words: list[str]) -> None:
        budget = protocol.parse_go(words)
        self.require_idle()
        if self.position.is_over():
            raise ProtocolError("the game is over: there is no move to make")
        self.stop.clear()
        self.search = threading.Thread(
            target=self.think, args=(self.position, budget), daemon=True, name="search"
        )
        self.search.start()

    def stop_search(self, words: list[str]) -> None:
        self.stop.set()

    def require_idle(self) -> None:
        if self.search is not None and self.search.is_alive():
            raise ProtocolError("the engine is searching (send stop first)")

    # ---- the search ---------------------------------------------------------------

    def think(self, position: Position, budget: Budget) -> None:
        last = 0.0
        shown: list[SearchInfo] = []

        def progress(info: SearchInfo) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= INFO_EVERY:
                last = now
                shown[:] = [info]
                for line in protocol.info_lines(info):
                    self.say(line)

        limits = limits_of(budget, position.to_move)
        result = self.engine.search(position, limits, on_info=progress, stop=self.stop)
        if budget.infinite:
            self.stop.wait()  # in infinite mode the answer waits for `stop`
        if shown[:1] != [result.info]:  # the final snapshot, unless just sent
            for line in protocol.info_lines(result.info):
                self.say(line)
        self.say(f"bestmove {result.move + 1}")


def limits_of(budget: Budget, to_move: int = 0) -> Limits | None:
    """Our Limits for a `go` budget; None (the engine's own budget) for a bare `go`.
    Our engines count iterations (or playouts, or nodes): `nodes` is that count."""
    if budget.infinite:
        return Limits(time=INFINITE_SECONDS)
    count = budget.iterations if budget.iterations is not None else budget.nodes
    time_limit = None if budget.movetime is None else budget.movetime / 1000
    if time_limit is None and budget.wtime is not None and budget.btime is not None:
        left, increment = (
            (budget.wtime, budget.winc) if to_move == 0 else (budget.btime, budget.binc)
        )
        time_limit = share_of_clock((left or 0) / 1000, (increment or 0) / 1000)
    if time_limit is None and count is None and budget.depth is None:
        return None
    return Limits(time=time_limit, iterations=count, depth=budget.depth)


COMMANDS: dict[str, Callable[[EngineServer, list[str]], None]] = {
    protocol.NAME: EngineServer.hello,
    "setoption": EngineServer.setoption,
    "isready": EngineServer.isready,
    "board": EngineServer.set_board,
    "newgame": EngineServer.newgame,
    "position": EngineServer.set_position,
    "go": EngineServer.go,
    "stop": EngineServer.stop_search,
}
