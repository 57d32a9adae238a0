"""The lines of our engine protocol, c4e (docs/engine-protocol.md), read and written.

Both ends use this module: the server (`c4tui engine SPEC`) writes `info` lines from a
SearchInfo and reads `go` budgets; the host (`cmd:` specs) writes `go` lines and reads
`info` lines back into SearchInfo snapshots. Columns are 1-based on the wire.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from c4tui.engine.board.scores import proven_of
from c4tui.engine.players.contract import ColumnStat, Limits, SearchInfo, win_rate

NAME = "c4e"  # the hello word; the engine answers with NAME + "ok"
VERSION = 1
MAX_BUDGET = 10**12  # any count or millisecond figure above this is refused as nonsense


class ProtocolError(ValueError):
    """A line that breaks the protocol; the message says which word and why."""


@dataclass(frozen=True)
class Budget:
    """What `go` asks for. Any mix; the engine stops at the first reached, or at `stop`."""

    movetime: int | None = None  # milliseconds
    iterations: int | None = None
    depth: int | None = None
    nodes: int | None = None
    # A game on a clock: milliseconds left to the first player (w) and the second (b),
    # and each one's increment a move.
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    infinite: bool = False

    def line(self) -> str:
        """The `go` line of this budget."""
        words = ["go"]
        for key in BUDGET_WORDS:
            value = getattr(self, key)
            if value is not None:
                words += [key, str(value)]
        if self.infinite:
            words.append("infinite")
        return " ".join(words)

    @classmethod
    def of_limits(cls, limits: Limits, to_move: int = 0) -> Budget:
        """The budget that asks an engine for our Limits; `to_move` 0 is the first player.
        On a clock the engine gets the clocks, not a move time: it shares them out."""
        clock = limits.clock
        if clock is None:
            movetime = None if limits.time is None else _ms(limits.time)
            return cls(movetime, limits.iterations, limits.depth, limits.nodes)
        times = (_ms(clock.own), _ms(clock.opponent))
        wtime, btime = times if to_move == 0 else times[::-1]
        inc = round(clock.increment * 1000)
        return cls(None, limits.iterations, limits.depth, limits.nodes, wtime, btime, inc, inc)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


BUDGET_WORDS = ("movetime", "iterations", "depth", "nodes", "wtime", "btime", "winc", "binc")


def parse_go(words: list[str]) -> Budget:
    """The budget of a `go` line's words after `go`."""
    values: dict[str, int] = {}
    infinite = False
    index = 0
    while index < len(words):
        key = words[index]
        if key == "infinite":
            infinite = True
            index += 1
            continue
        if key not in BUDGET_WORDS:
            raise ProtocolError(f"go: unknown budget {key!r}")
        if index + 1 == len(words):
            raise ProtocolError(f"go: {key} needs a number")
        values[key] = positive(key, words[index + 1], zero=key in ("winc", "binc"))
        index += 2
    return Budget(infinite=infinite, **values)


def positive(key: str, text: str, *, zero: bool = False) -> int:
    """A budget's number: 1..MAX_BUDGET (0 too, for an increment)."""
    try:
        value = int(text)
    except ValueError:
        raise ProtocolError(f"{key} {text!r} is not a whole number") from None
    if not (0 if zero else 1) <= value <= MAX_BUDGET:
        raise ProtocolError(f"{key} {value} must be from {0 if zero else 1} to {MAX_BUDGET}")
    return value


# ---- info lines -----------------------------------------------------------------------


def info_lines(info: SearchInfo) -> list[str]:
    """The `info` lines of a snapshot: one per column with figures, then the summary."""
    lines = []
    for col, stat in enumerate(info.columns):
        words = column_words(stat, info.exact)
        if words:
            lines.append(f"info col {col + 1} " + " ".join(words))
    summary = ["info", "time", str(round(info.elapsed * 1000))]
    for key, value in (("depth", info.depth), ("nodes", info.nodes)):
        if value is not None:
            summary += [key, str(value)]
    if info.iterations is not None:
        summary += ["iterations", str(info.iterations)]
    if info.rate is not None:
        summary += ["nps", str(round(info.rate))]
    if info.pv:
        summary += ["pv", *(str(col + 1) for col in info.pv)]
    lines.append(" ".join(summary))
    return lines


def column_words(stat: ColumnStat | None, exact: bool) -> list[str]:
    if stat is None:
        return []
    words: list[str] = []
    if stat.visits is not None:
        words += ["visits", str(stat.visits)]
    if stat.value is not None:
        words += ["winrate", f"{win_rate(stat.value):.4f}"]
    if stat.uct is not None and math.isfinite(stat.uct):
        words += ["uct", f"{stat.uct:.4f}"]
    if stat.score is not None:
        words += ["exact" if exact or stat.proven is not None else "score", str(stat.score)]
    elif stat.proven is not None:
        words += ["result", stat.proven]
    if stat.depth is not None:
        words += ["depth", str(stat.depth)]
    return words


COLUMN_KEYS = {"visits", "winrate", "uct", "score", "exact", "result", "depth"}
SUMMARY_KEYS = {"time", "depth", "nodes", "iterations", "nps"}


@dataclass
class InfoReader:
    """Gathers one search's `info` lines into SearchInfo snapshots.

    A column line updates that column's figures; a summary line (no `col`) makes a
    snapshot of everything known so far, which `read` returns.
    """

    engine: str
    width: int
    playable: tuple[bool, ...]
    columns: list[ColumnStat] = field(default_factory=list)
    latest: SearchInfo | None = None
    # The figures of column lines skipped, (figure, why): a score not whole, say; the
    # line's other figures are kept. The host names them and empties the list.
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.columns = [ColumnStat() for _ in range(self.width)]

    def read(self, words: list[str]) -> SearchInfo | None:
        """Take the words after `info`; the new snapshot after a summary line."""
        if not words or words[0] == "string":
            return None
        if words[0] == "col":
            self._read_column(words[1:])
            return None
        self.latest = self._read_summary(words)
        return self.latest

    def _read_column(self, words: list[str]) -> None:
        if not words:
            raise ProtocolError("info col needs a column")
        col = self._column(words[0])
        stat = self.columns[col]
        for key, value in pairs(words[1:], COLUMN_KEYS):
            try:
                stat = self._figure(stat, key, value)
            except ProtocolError as error:
                self.skipped.append((key, f"column {col + 1}: {error}"))
        self.columns[col] = stat

    def _figure(self, stat: ColumnStat, key: str, value: str) -> ColumnStat:
        """`stat` with one figure of a column line taken in."""
        if key == "visits":
            return replace(stat, visits=count(key, value))
        if key == "winrate":
            return replace(stat, value=2 * fraction(key, value) - 1)
        if key == "uct":
            return replace(stat, uct=number(key, value))
        if key == "score":
            return replace(stat, score=integer(key, value), proven=None)
        if key == "exact":
            score = integer(key, value)
            return replace(stat, score=score, proven=proven_of(score))
        if key == "result":
            if value not in ("win", "draw", "loss"):
                raise ProtocolError(f"result {value!r} is not win, draw or loss")
            return replace(stat, proven=value)  # type: ignore[arg-type]  # one of the three, checked just above
        return replace(stat, depth=count(key, value))

    def _column(self, text: str) -> int:
        try:
            col = int(text) - 1
        except ValueError:
            raise ProtocolError(f"column {text!r} is not a number") from None
        if not 0 <= col < self.width:
            raise ProtocolError(f"column {text} is not on the {self.width}-column board")
        return col

    def _read_summary(self, words: list[str]) -> SearchInfo:
        figures: dict[str, int] = {}
        pv: tuple[int, ...] = ()
        if "pv" in words:
            at = words.index("pv")
            pv = tuple(self._column(text) for text in words[at + 1 :])
            words = words[:at]
        for key, value in pairs(words, SUMMARY_KEYS):
            figures[key] = count(key, value)
        return self.snapshot(figures, pv)

    def snapshot(self, figures: dict[str, int], pv: tuple[int, ...]) -> SearchInfo:
        columns = tuple(
            stat if playable else None
            for stat, playable in zip(self.columns, self.playable, strict=True)
        )
        shown = [stat for stat in columns if stat is not None]
        exact = bool(shown) and all(stat.proven is not None for stat in shown)
        elapsed = figures.get("time", 0) / 1000
        return SearchInfo(
            engine=self.engine,
            elapsed=elapsed,
            nodes=figures.get("nodes"),
            iterations=figures.get("iterations"),
            depth=figures.get("depth"),
            rate=float(figures["nps"]) if "nps" in figures else None,
            columns=columns,
            best=pv[0] if pv else None,
            pv=pv,
            exact=exact,
        )


def pairs(words: list[str], keys: set[str]) -> list[tuple[str, str]]:
    """`key value key value ...` as pairs, each key one of `keys`."""
    if len(words) % 2:
        raise ProtocolError(f"{words[-1]!r} has no value")
    found = list(zip(words[::2], words[1::2], strict=True))
    for key, _ in found:
        if key not in keys:
            raise ProtocolError(f"unknown figure {key!r}")
    return found


def count(key: str, text: str) -> int:
    value = integer(key, text)
    if value < 0:
        raise ProtocolError(f"{key} {text} is negative")
    return value


def integer(key: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ProtocolError(f"{key} {text!r} is not a whole number") from None
    if abs(value) > MAX_BUDGET:
        raise ProtocolError(f"{key} {text} is out of range")
    return value


def number(key: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ProtocolError(f"{key} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ProtocolError(f"{key} {text!r} is not a finite number")
    return value


def fraction(key: str, text: str) -> float:
    value = number(key, text)
    if not 0 <= value <= 1:
        raise ProtocolError(f"{key} {text} is not between 0 and 1")
    return value


def bestmove(words: list[str]) -> int:
    """The 0-based column of a `bestmove C` line's words after `bestmove` (whether it
    is on the board and not full is the caller's to judge)."""
    if not words:
        raise ProtocolError("bestmove needs a column")
    try:
        return int(words[0]) - 1
    except ValueError:
        raise ProtocolError(f"bestmove {words[0]!r} is not a column") from None


def option_line(
    name: str, kind: str, low: float | None, high: float | None, default: object
) -> str:
    """`option name N type T [min A] [max B] [default D]`."""
    words = ["option", "name", name, "type", kind]
    if low is not None:
        words += ["min", _plain(low)]
    if high is not None:
        words += ["max", _plain(high)]
    if default is not None:
        words += ["default", _plain(default)]
    return " ".join(words)


def _plain(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
