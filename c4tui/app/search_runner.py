"""WorkerSearchRunner: the match's searches and hints, each in a thread worker.

The match hands out every search with its id and stop event and judges every result (a
stale one is dropped). The runner runs them off the UI thread and talks back only
through messages to the app: progress at most ~10 times a second (a newer snapshot
replaces an older one still queued), then the result or the engine's failure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial

from c4tui.app.messages import HintFinished, SearchFailed, SearchFinished, SearchProgressed
from c4tui.app.part_host import Host
from c4tui.engine import gil
from c4tui.engine.players.contract import Forfeit, SearchInfo
from c4tui.match.hints import hint_reason
from c4tui.match.search_requests import HintRequest, SearchRequest

PROGRESS_INTERVAL = 0.1  # seconds between progress messages: at most ~10 a second


class WorkerSearchRunner:
    """Runs searches and hints for the app; one search per engine at a time."""

    def __init__(self, app: Host) -> None:
        self._app = app
        # A cancelled search still unwinding keeps the engine's tree until it sees its
        # stop event: the next search of that engine waits for it.
        self._engine_lock = threading.Lock()

    def search(self, request: SearchRequest) -> None:
        self._in_thread(partial(self._search, request), name="search", group="ai")

    def cancel(self) -> None:
        """Cancel the search worker (the match has set its stop event already)."""
        self._app.workers.cancel_group(self._app, "ai")  # type: ignore[arg-type]  # Textual types the node as DOMNode; the app is one

    def hint(self, request: HintRequest) -> None:
        self._in_thread(partial(self._hint, request), name="hint", group="hint")

    def _in_thread(self, work: Callable[[], None], *, name: str, group: str) -> None:
        """Run `work` in a thread worker, the only one of its group (a newer one
        replaces it); an engine's error is reported by the work, never the app's end."""
        self._app.run_worker(
            work, name=name, group=group, thread=True, exclusive=True, exit_on_error=False
        )

    def _search(self, request: SearchRequest) -> None:
        post = self._app.post_message
        last_post = 0.0
        search_id = request.search_id

        def on_info(info: SearchInfo) -> None:
            nonlocal last_post
            now = time.monotonic()
            if now - last_post >= PROGRESS_INTERVAL:
                last_post = now
                post(SearchProgressed(search_id, info))
                gil.step_aside()

        if request.delay and not self._app.steady:
            # Two engines playing: a pause to follow them (none when nothing on screen
            # may depend on time).
            request.stop.wait(request.delay)
        with self._engine_lock:
            # Even when its stop is set already, the engine is asked: a search hurried
            # (`m`, `.`) before its thread started still owes the match a move, its
            # quickest; a cancelled one's result carries a stale id and is dropped.
            try:
                result = request.engine.search(request.position, on_info=on_info, stop=request.stop)
            except Forfeit as forfeit:  # an outside engine crashed, hung, printed junk...
                post(SearchFailed(search_id, str(forfeit), forfeit=True))
                return
            except Exception as error:  # an engine bug must not take the game down
                post(SearchFailed(search_id, f"{type(error).__name__}: {error}"))
                return
        post(SearchFinished(search_id, result))

    def _hint(self, request: HintRequest) -> None:
        try:
            column, reason = hint_reason(
                request.spec, request.position, request.stop, seed=request.seed
            )
        except Exception as error:  # no hint is better than a crash
            message = HintFinished(request.hint_id, None, f"{type(error).__name__}: {error}")
        else:
            message = HintFinished(request.hint_id, column, reason)
        self._app.post_message(message)
