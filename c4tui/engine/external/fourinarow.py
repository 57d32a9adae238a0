"""`fourinarow:COMMAND LINE`: a bot for the old "Four In A Row" competition protocol.

theaigames.com's engine (2016) told a bot its settings once, then before each of its
moves the round and the field, and asked `action move T` with T the milliseconds left
in its time bank; the bot answered `place_disc C`, C 0-based. The field lists the rows
from the top, `;` between rows and `,` between cells: 0 empty, 1 and 2 the bots' ids
(1 moves first). The bank starts full (20 moves' time: 10,000 ms for the usual 500 ms
a move), and after each move becomes min(bank - used + time a move, full).

A bot keeps its own picture of the game and has no word for a new one, so each game
runs in a process of its own. Riddles.io's successor speaks the same verbs; its bots
read our field too, as long as they take 0 as empty.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.external.child import Child
from c4tui.engine.external.outside import Deadline, OutsideEngine, junk
from c4tui.engine.players.base import Clock
from c4tui.engine.players.contract import InfoCallback, Limits, SearchInfo
from c4tui.engine.players.outside_specs import command_line

BANK_MOVES = 20  # a full bank holds this many moves' time


def field_text(position: Position) -> str:
    """The field as the protocol writes it: rows from the top, ids 1 (first) and 2."""
    rows = []
    for row in reversed(range(position.height)):
        cells = (position.cell(col, row) for col in range(position.width))
        rows.append(",".join("0" if cell is None else str(cell + 1) for cell in cells))
    return ";".join(rows)


class FourInARowEngine(OutsideEngine):
    name: ClassVar[str] = "fourinarow"
    TITLE: ClassVar[str] = "Four In A Row bot"
    DEFAULT_TIME: ClassVar[float] = 0.5  # the competition's time_per_move

    PROCESS_PER_GAME: ClassVar[bool] = True  # a bot keeps its own picture of one game

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.bank = 0.0  # seconds left in the bot's time bank

    def argv(self) -> list[str]:
        return command_line(self.name, self.target)

    def greet(self, child: Child, position: Position) -> None:
        per_move = self.budget(self.limits).time or self.DEFAULT_TIME
        self.bank = per_move * BANK_MOVES
        bot = position.to_move + 1
        for line in (
            f"settings timebank {round(self.bank * 1000)}",
            f"settings time_per_move {round(per_move * 1000)}",
            "settings player_names player1,player2",
            f"settings your_bot player{bot}",
            f"settings your_botid {bot}",
            f"settings field_columns {position.width}",
            f"settings field_rows {position.height}",
        ):
            child.send(line)

    def ask(
        self,
        child: Child,
        position: Position,
        limits: Limits,
        clock: Clock,
        on_info: InfoCallback | None,
    ) -> SearchInfo:
        per_move = limits.time or self.DEFAULT_TIME
        if limits.clock is not None:
            # On the host's clock the bank is that clock, and the increment its refill.
            self.bank, per_move = limits.clock.own, limits.clock.increment
        child.send(f"update game round {position.moves // 2 + 1}")
        child.send(f"update game field {field_text(position)}")
        child.send(f"action move {round(self.bank * 1000)}")
        start = time.monotonic()
        deadline = Deadline(self.bank, self.margin, clock)
        while True:
            line = deadline.next_line(child)
            words = line.split()
            if words[0] != "place_disc" or len(words) != 2 or not _is_int(words[1]):
                raise junk(self.title, line, "the answer to `action move` is `place_disc C`")
            used = time.monotonic() - start
            self.bank = min(max(self.bank - used, 0.0) + per_move, per_move * BANK_MOVES)
            move = int(words[1])
            return self.choice(position, move, clock)


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True
