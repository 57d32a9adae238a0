"""What every outside engine shares: its settings, its process, and how it loses.

An outside engine is an engine like ours to its callers (`search` gives a move and
SearchInfo) whose thinking is done by another program in a child process (child.py),
started at its first search and ended by `close()`, by `new_game()` where the protocol
knows no new game, and by any failure. A failure is a `Forfeit`: the program crashed,
hung, printed junk, answered an illegal column or overran its time; the reason says
which, and the caller (the arena, the match) scores the game as lost.

Time: every move has a budget (the spec's `time=`, or the caller's limits); an answer
may come up to `margin=` seconds after it (pipes and a loaded machine take time), and
none by then loses on time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.external.child import MAX_UNREAD, Child, ChildFlooded, ChildGone
from c4tui.engine.players.base import BaseEngine, Clock, empty_columns
from c4tui.engine.players.contract import (
    Bundle,
    Forfeit,
    InfoCallback,
    Limits,
    SearchInfo,
)
from c4tui.engine.players.options import TIME, TITLE, Option
from c4tui.engine.players.outside_specs import default_title

log = logging.getLogger("c4tui.engine.external")

DEFAULT_MARGIN = 0.5
MIN_CLOCK_SECONDS = 0.001  # a clock run down to 0 still asks (the answer comes too late)
START_SECONDS = 10.0  # to start and greet: a Python bot importing numpy takes seconds
MARGIN = Option(float, 0, 60, help="seconds an answer may come after the budget")
POLL = 0.02  # seconds between looks at the stop event while waiting for a line
# Lines an answer may take: an engine says a few hundred a move; more is a flood. (The
# reader also stops at MAX_UNREAD lines not yet read, which guards the memory.)
MAX_LINES = MAX_UNREAD


class OutsideEngine(BaseEngine):
    """Subclasses say how to start their program (`argv`) and how to ask it (`ask`)."""

    OPTIONS: ClassVar[dict[str, Option]] = {"time": TIME, "margin": MARGIN, "name": TITLE}
    FAREWELL: ClassVar[str | None] = None  # said before the process is ended
    # The protocol has no word for a new game: each game gets a process of its own.
    PROCESS_PER_GAME: ClassVar[bool] = False
    DEFAULT_TIME: ClassVar[float] = 1.0  # seconds a move when neither spec nor caller says

    def __init__(
        self,
        *,
        target: str = "",
        seed: int | None = None,
        limits: Limits | None = None,
        time: float | None = None,
        margin: float = DEFAULT_MARGIN,
        name: str | None = None,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time)
        self.target = target
        self.margin = margin
        self.title = name or default_title(self.name, target)
        self.named = name is not None  # else the program's own name may become the title
        self.child: Child | None = None
        self.played = False  # a move was asked in this game

    def budget(self, limits: Limits) -> Limits:
        """Always a time: an outside program is never waited on without an end. On a
        clock, that is all the time its clock has left (the caller's time is for
        engines of ours; a program shares out its clock itself)."""
        if limits.clock is not None:
            return replace(limits, time=max(limits.clock.own, MIN_CLOCK_SECONDS))
        if limits.time is not None:
            return limits
        own = getattr(self, "limits", limits)  # while __init__ runs: the spec's own
        spec_time = own.time if own.time is not None else self.DEFAULT_TIME
        return replace(limits, time=spec_time)

    def argv(self) -> list[str]:
        raise NotImplementedError

    @classmethod
    def bundle(cls, options: Mapping[str, object]) -> Bundle | None:
        return None  # another program: nothing of it can be carried in an agent file

    def new_game(self) -> None:
        super().new_game()
        if self.PROCESS_PER_GAME and self.played:
            self.close()
        self.played = False

    def greet(self, child: Child, position: Position) -> None:
        """Whatever the protocol says once the program has started."""

    def ask(
        self,
        child: Child,
        position: Position,
        limits: Limits,
        clock: Clock,
        on_info: InfoCallback | None,
    ) -> SearchInfo:
        """The program's answer for `position`: a SearchInfo whose `best` is its column
        (checked by the caller). Raises Forfeit, or ChildGone when it ended."""
        raise NotImplementedError

    def choice(self, position: Position, move: int, clock: Clock) -> SearchInfo:
        """The SearchInfo of a program that tells only its column: that, and the time."""
        return SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            columns=empty_columns(position),
            best=move,
            pv=(move,),
        )

    def close(self) -> None:
        if self.child is not None:
            child, self.child = self.child, None
            if left := child.close(self.FAREWELL):
                self.left_running = f"left {processes(left)} of its own running (killed)"

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        try:
            if self.child is None:
                self.child = Child(self.argv(), self.title, cwd=self.cwd())
                self.greet(self.child, position)
            self.played = True
            info = self.ask(self.child, position, limits, clock, on_info)
        except ChildFlooded:
            self.close()
            raise Forfeit("printed junk (a flood of lines nobody asked for)") from None
        except ChildGone:
            words = self.child.exit_words() if self.child is not None else "ended"
            self.close()
            raise Forfeit(f"crashed ({words})") from None
        except OSError as error:
            self.close()
            raise Forfeit(f"could not be started: {error.strerror or error}") from None
        except Forfeit:
            self.close()
            raise
        move = info.best
        if move is None or not position.can_play(move):
            self.close()
            raise Forfeit(f"played an illegal column ({illegal_words(position, move)})")
        return info

    def cwd(self) -> str | None:
        return None


def processes(count: int) -> str:
    return "a process" if count == 1 else f"{count} processes"


def illegal_words(position: Position, move: int | None) -> str:
    if move is None:
        return "none given"
    if not 0 <= move < position.width:
        return f"column {move + 1} is not on the {position.width}-column board"
    return f"column {move + 1} is full"


class Deadline:
    """When an answer must have come: the budget plus the margin, earlier once stopped."""

    def __init__(self, seconds: float, margin: float, clock: Clock) -> None:
        self.allowed = seconds + margin
        self.margin = margin
        self.clock = clock
        self.at = time.monotonic() + self.allowed
        self.stopped = False
        self.lines = 0  # read for this answer

    def stop_requested(self) -> bool:
        """True once, when the caller's stop event is first seen: the answer is due
        within the margin from now."""
        stop = self.clock.stop
        if self.stopped or stop is None or not stop.is_set():
            return False
        self.stopped = True
        self.at = min(self.at, time.monotonic() + self.margin)
        return True

    def next_line(self, child: Child, on_stop: Callable[[], None] | None = None) -> str:
        """The child's next line that is not blank; `on_stop` is called when the
        caller's stop is first seen; Forfeit once the deadline has passed; ChildFlooded
        past MAX_LINES (counted as read, so a flood is called one whatever our pace)."""
        while True:
            if self.stop_requested() and on_stop is not None:
                on_stop()
            left = self.at - time.monotonic()
            if left <= 0:
                raise Forfeit(f"overran its time (no move within {self.allowed:.2f} s)")
            line = child.read_line(min(POLL, left))
            if line is not None:
                self.lines += 1
                if self.lines > MAX_LINES:
                    raise ChildFlooded
                if line.strip():
                    return line


def starting_lines(child: Child, waiting_for: str) -> Iterator[str]:
    """The child's lines that are not blank while it starts; Forfeit when it has not
    done `waiting_for` ("answer c4e") within START_SECONDS."""
    deadline = time.monotonic() + START_SECONDS
    while (left := deadline - time.monotonic()) > 0:
        line = child.read_line(left)
        if line is not None and line.strip():
            yield line
    raise Forfeit(f"did not {waiting_for} within {START_SECONDS:g} s")


def junk(who: str, line: str, why: str = "") -> Forfeit:
    """The forfeit of a line that is not the protocol's, named in one log line."""
    shown = line if len(line) <= 60 else line[:57] + "..."
    because = f" ({why})" if why else ""
    log.info("%s printed junk %r%s", who, shown, because)
    return Forfeit(f"printed junk: {shown!r}{because}")
