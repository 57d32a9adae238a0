"""One AI worker process: runs the searches the pool sends it, one at a time.

It talks to the pool over one pipe. In: `("search", id, job)`, `("stop", id)` (that
search returns its best move now), or `None` (exit). Out: `("info", wire)` at most
`PROGRESS_INTERVAL` apart, then `("done", move, wire)` or `("failed", reason)`. Each
search also stops itself after the job's `seconds`, so a budget set too high in a spec
can never hold the worker longer than the server allows.
"""

from __future__ import annotations

import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from c4tui.engine.board.position import Position
from c4tui.engine.external.child import ignore_here
from c4tui.engine.players.contract import SearchInfo
from c4tui.engine.players.specs import make_engine
from c4tui.server.wire.protocol import info_to_wire

PROGRESS_INTERVAL = 0.1  # seconds: about 10 updates a second reach the room


@dataclass(frozen=True)
class SearchJob:
    """What to search: an engine spec, a position, and the most time it may take."""

    spec: str
    moves: str
    width: int
    height: int
    connect: int
    seconds: float
    seed: int | None = None


def serve(conn: Connection) -> None:
    """The worker's main loop (the process's target)."""
    # Ctrl-C on `c4tui serve` in a terminal reaches the whole process group, the workers
    # too; the server stops them itself, so they ignore it (each printed a traceback),
    # and the operator's outside engines they start must not inherit it ignored.
    ignore_here(signal.SIGINT)
    jobs: queue.Queue[tuple[SearchJob, threading.Event] | None] = queue.Queue()

    def listen() -> None:
        # The main thread is busy searching; stops must reach it meanwhile. Each stop
        # names its search, so a late stop can never cut the next search short.
        running: dict[int, threading.Event] = {}
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = None
            if message is None:
                for stop in running.values():
                    stop.set()
                jobs.put(None)
                return
            if message[0] == "stop":
                running.get(message[1], threading.Event()).set()
            else:
                running = {message[1]: threading.Event()}
                jobs.put((message[2], running[message[1]]))

    threading.Thread(target=listen, daemon=True).start()
    while (task := jobs.get()) is not None:
        job, stop = task
        try:
            conn.send(run(job, stop, lambda wire: conn.send(("info", wire))))
        except (BrokenPipeError, OSError):
            return


def run(
    job: SearchJob, stop: threading.Event, send_info: Callable[[dict[str, Any]], None]
) -> tuple[object, ...]:
    """One search: ("done", move, info) or ("failed", reason)."""
    timer = threading.Timer(job.seconds, stop.set)
    timer.start()
    last = 0.0

    def on_info(info: SearchInfo) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_INTERVAL:
            last = now
            send_info(info_to_wire(info))

    engine = None
    try:
        position = Position.from_moves(job.moves, job.width, job.height, job.connect)
        engine = make_engine(job.spec, seed=job.seed)
        result = engine.search(position, on_info=on_info, stop=stop)
    except Exception as error:  # an engine bug fails this search, not the worker
        return ("failed", f"{type(error).__name__}: {error}")
    finally:
        timer.cancel()
        if engine is not None:
            engine.close()  # an operator's outside engine: its process ends with the search
    return ("done", result.move, info_to_wire(result.info))
