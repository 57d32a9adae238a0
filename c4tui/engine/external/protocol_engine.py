"""`cmd:COMMAND LINE`: an outside program that speaks our engine protocol, c4e.

The host's side of docs/engine-protocol.md: greet (`c4e 1`, read its name and options
until `c4eok`), then for every move `board` (when the size changes), `position MOVES`
and `go`, reading `info` lines into snapshots for the thinking panel until `bestmove`.
One process serves a whole run of games (`newgame` between them).
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.external import protocol
from c4tui.engine.external.child import Child
from c4tui.engine.external.outside import Deadline, OutsideEngine, junk, starting_lines
from c4tui.engine.external.protocol import Budget, InfoReader, ProtocolError
from c4tui.engine.players.base import Clock
from c4tui.engine.players.contract import (
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.outside_specs import ENGINE_OPTION, command_line

log = logging.getLogger("c4tui.engine.external")
BANNER_LINES = 3  # lines before the greeting noted in the log; the rest are passed over
TITLE_CHARS = 40  # of an `id name`, as of a name= (options.TITLE)


class ProtocolEngine(OutsideEngine):
    name: ClassVar[str] = "cmd"
    TITLE: ClassVar[str] = "Engine"
    # The protocol names nodes and iterations apart: its iterations are iterations.
    READING: ClassVar[Reading] = Reading()
    FAREWELL: ClassVar[str | None] = "quit"

    def __init__(self, **settings: Any) -> None:
        # option.NAME=VALUE from the spec: the program's own settings, set at its start.
        self.engine_settings = [
            (key.removeprefix(ENGINE_OPTION), str(settings.pop(key)))
            for key in [key for key in settings if key.startswith(ENGINE_OPTION)]
        ]
        super().__init__(**settings)
        self.engine_name = ""  # what the program calls itself (`id name`)
        self.author = ""
        self.options: list[str] = []  # its `option` lines, as it wrote them
        self.figures_skipped: set[str] = set()  # the figures named as left out this game
        self._board: tuple[int, int, int] | None = None

    def argv(self) -> list[str]:
        return command_line(self.name, self.target)

    def new_game(self) -> None:
        if self.child is not None and self.played:
            self.child.send("newgame")
        super().new_game()
        self.figures_skipped.clear()

    def close(self) -> None:
        super().close()
        self._board = None

    def greet(self, child: Child, position: Position) -> None:
        child.send(f"{protocol.NAME} {protocol.VERSION}")
        banner = 0
        for line in starting_lines(child, f"answer {protocol.NAME}"):
            words = line.split()
            if words[:2] == ["id", "name"]:
                said = " ".join(words[2:])
                self.engine_name = "".join(c for c in said if c.isprintable())[:TITLE_CHARS]
                if self.engine_name and not self.named:
                    self.title = self.engine_name  # what tables and lines call it
            elif words[:2] == ["id", "author"]:
                self.author = " ".join(words[2:])
            elif words[:1] == ["option"]:
                self.options.append(line)
            elif words[:1] == [protocol.NAME + "ok"]:
                for name, value in self.engine_settings:
                    child.send(f"setoption name {name} value {value}")
                return
            elif (banner := banner + 1) <= BANNER_LINES:
                # A banner before the greeting is common (UCI engines print one): noted.
                log.info("%s said before %sok: %r", self.title, protocol.NAME, line[:80])

    def ask(
        self,
        child: Child,
        position: Position,
        limits: Limits,
        clock: Clock,
        on_info: InfoCallback | None,
    ) -> SearchInfo:
        board = (position.width, position.height, position.connect)
        if board != self._board:
            child.send("board {} {} {}".format(*board))
            self._board = board
        child.send(f"position {position.to_moves()}")
        child.send(Budget.of_limits(limits, position.to_move).line())
        reader = InfoReader(
            self.name,
            position.width,
            tuple(position.can_play(col) for col in range(position.width)),
        )
        deadline = Deadline(limits.time or 0.0, self.margin, clock)
        while True:
            line = deadline.next_line(child, on_stop=lambda: child.send("stop"))
            words = line.split()
            if words[0] == "info":
                self.read_info(reader, line, on_info)
            elif words[0] == "bestmove":
                try:
                    move = protocol.bestmove(words[1:])
                except ProtocolError as error:
                    raise junk(self.title, line, str(error)) from None
                return self.final(reader, move, clock)
            else:
                raise junk(self.title, line, "not a line of the protocol")

    def read_info(self, reader: InfoReader, line: str, on_info: InfoCallback | None) -> None:
        """Show an `info` line's snapshot; one the host cannot read (a figure of a later
        version) is skipped, and a figure it cannot read (a bad number) is left out,
        each named in a log line (a figure once a game: an engine says it every move)."""
        try:
            snapshot = reader.read(line.split()[1:])
        except ProtocolError as error:
            log.info("%s: info line skipped (%s): %r", self.title, error, line[:80])
            return
        finally:
            for figure, why in reader.skipped:
                if figure not in self.figures_skipped:
                    self.figures_skipped.add(figure)
                    log.info("%s: %s left out (%s); said once a game", self.title, figure, why)
            reader.skipped.clear()
        if snapshot is not None and on_info is not None:
            on_info(snapshot)

    def final(self, reader: InfoReader, move: int, clock: Clock) -> SearchInfo:
        """The last snapshot, its best the column played, its time ours if it gave none."""
        info = reader.latest or reader.snapshot({}, ())
        pv = info.pv if info.pv[:1] == (move,) else (move,)
        elapsed = info.elapsed or clock.elapsed()
        return SearchInfo(
            engine=info.engine,
            elapsed=elapsed,
            nodes=info.nodes,
            iterations=info.iterations,
            depth=info.depth,
            rate=info.rate,
            columns=info.columns,
            best=move,
            pv=pv,
            exact=info.exact,
        )
