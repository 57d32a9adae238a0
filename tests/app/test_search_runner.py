"""The search runner, driven without an app: what it posts for each request."""

from __future__ import annotations

import threading

from c4tui.app.messages import SearchFinished
from c4tui.app.search_runner import WorkerSearchRunner
from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import make_engine
from c4tui.match.search_requests import SearchRequest


class Recorder:
    """The little of a host the runner's thread body uses: it posts messages."""

    steady = True

    def __init__(self) -> None:
        self.posted: list[object] = []

    def post_message(self, message: object) -> bool:
        self.posted.append(message)
        return True


def test_a_search_hurried_before_its_thread_starts_still_answers_with_a_move():
    # `m` may be handled before the worker's thread first runs: the stop is set already.
    # The match waits for this search's move, so the engine must still be asked for its
    # quickest one (it once returned in silence and the app thought forever).
    host = Recorder()
    stop = threading.Event()
    stop.set()
    request = SearchRequest(7, make_engine("mcts:time=60", seed=1), Position.from_moves("4"), stop)
    WorkerSearchRunner(host)._search(request)  # type: ignore[arg-type]
    finished = [m for m in host.posted if isinstance(m, SearchFinished)]
    assert len(finished) == 1 and finished[0].search_id == 7
    assert Position.from_moves("4").can_play(finished[0].result.move)
