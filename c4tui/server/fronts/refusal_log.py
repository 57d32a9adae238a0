"""RefusalLog: under a flood, refusals are counted and summarised, not logged one by one.

Every refusal of a front is one warning line (`ssh ADDRESS: ...`, `web ADDRESS: ...`,
`bot api WHO: ...`), which is what an operator wants of a few and not of a thousand: a
burst of refused requests once wrote over 1,000 lines in 5 s. So, per kind of line and
per address (its first value), `--refusal-lines` lines a minute pass; the rest of that
minute are counted, and said in one line when the minute is over (at the next line
logged, or the next `flush` of the server's watch).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

WINDOW = 60.0  # seconds over which --refusal-lines counts


@dataclass
class _Minute:
    until: float
    passed: int = 1
    held: int = 0


class RefusalLog(logging.Filter):
    """A filter of a logger's warnings: at most `lines` of one kind from one address a
    WINDOW; the others counted and summarised in one line."""

    def __init__(self, lines: int, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.lines, self.clock = lines, clock
        self._minutes: dict[tuple[str, str, str], _Minute] = {}  # (logger, line, address)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING or getattr(record, "summary", False):
            return True
        now = self.clock()
        self.flush(now)
        args = record.args if isinstance(record.args, tuple) else ()
        kind = (record.name, str(record.msg), str(args[0]) if args else "")
        minute = self._minutes.get(kind)
        if minute is None:
            self._minutes[kind] = _Minute(now + WINDOW)
            return True
        if minute.passed < self.lines:
            minute.passed += 1
            return True
        minute.held += 1
        return False

    def flush(self, now: float | None = None) -> None:
        """Say what each minute that is over held back, and forget it."""
        now = self.clock() if now is None else now
        over = [kind for kind, minute in self._minutes.items() if now >= minute.until]
        for kind in over:
            minute = self._minutes.pop(kind)
            if minute.held:
                logger, what, who = kind
                logging.getLogger(logger).warning(
                    "%s: %d more refusals like %r in the last minute (not logged one by one)",
                    who,
                    minute.held,
                    what.replace("%s", "…").replace("%d", "…"),
                    extra={"summary": True},
                )
