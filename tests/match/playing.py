"""Playing a Match in tests as the app does: intents in, a runner the test drives, the
notices heard."""

from __future__ import annotations

from c4tui.match.controller import Match
from c4tui.match.search_requests import HintRequest, Notice, SearchRequest


class QueuedRunner:
    """Keeps the requests; the test runs them when it likes, as the app's worker would."""

    def __init__(self) -> None:
        self.searches: list[SearchRequest] = []
        self.hints: list[HintRequest] = []
        self.cancelled = 0

    def search(self, request: SearchRequest) -> None:
        self.searches.append(request)

    def hint(self, request: HintRequest) -> None:
        self.hints.append(request)

    def cancel(self) -> None:
        self.cancelled += 1

    def run_search(self, match: Match) -> bool:
        """Run the oldest search asked for and hand its result back; whether it played."""
        request = self.searches.pop(0)
        result = request.engine.search(
            request.position,
            on_info=lambda info: match.progress(request.search_id, info),
            stop=request.stop,
        )
        return match.finish_search(request.search_id, result)


class Heard:
    """The notices a match told, in order."""

    def __init__(self, match: Match) -> None:
        self.notices: list[Notice] = []
        match.listen(lambda event: isinstance(event, Notice) and self.notices.append(event))

    def texts(self) -> list[str]:
        texts = [notice.text for notice in self.notices]
        self.notices.clear()
        return texts


def dropped(match: Match, column: int) -> bool:
    """A person's drop, and whether the match took it."""
    before = match.position.moves
    match.drop(column)
    return match.position.moves == before + 1


def attached(match: Match) -> QueuedRunner:
    """The match with a runner the test drives (the engine to move is asked at once)."""
    runner = QueuedRunner()
    match.attach(runner)
    return runner
