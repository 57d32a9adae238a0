"""Match: one game between two sides, without any UI.

The match owns the `Game`, the engines, whose turn it is, undo and redo by turns, pausing
and stepping when two engines play, the AI's search lifecycle, hints, and keeping the game
on disk after every move. A UI (the Textual app, or a test) asks it what to do and runs
the searches it hands out, wherever it likes (the app: a thread worker).

Stale results: every search and every hint gets an id. `finish_search` and
`finish_hint` ignore a result whose id is not the current one, and every change of the
game (a move, new game, undo, redo, new sides, quit) first cancels the running search:
sets its stop event and forgets its id. So a cancelled search can never play a move.

What the UI should tell the person comes back as notices (`take_notices`), and as
`Notice` events to the listeners. Match implements the match interface (interface.py):
given a `runner`, it starts its engines' searches and hints itself; without one, the
UI asks `engine_to_move()` and runs `start_search()`'s requests (the app until it
hands the match its runner).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from c4tui.engine.board.game import Evaluation, Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, SearchInfo, SearchResult
from c4tui.engine.players.specs import make_engine
from c4tui.match.hints import HintDesk
from c4tui.match.interface import (
    GameOver,
    HintReady,
    Listener,
    MatchEvent,
    PositionChanged,
    SearchDone,
    SearchProgress,
    SearchRunner,
    SearchStarted,
)
from c4tui.match.keeping import GameKeeper
from c4tui.match.library import GameLibrary
from c4tui.match.navigation import Navigation
from c4tui.match.opponents import engines_for, evaluation_line, evaluation_of, hint_spec
from c4tui.match.requests import GAME_OVER, HintRequest, Notice, Search, SearchRequest, Severity
from c4tui.match.search_desk import SearchDesk
from c4tui.match.sides import Sides, engine_spec_or_none
from c4tui.match.watching import WATCH_DELAYS, Watching


class Match:
    """A game in progress between two sides (see the module docstring)."""

    def __init__(
        self,
        sides: Sides,
        game: Game | None = None,
        *,
        seed: int | None = None,
        make_stop: Callable[[], threading.Event] = threading.Event,
        keeper: GameKeeper | None = None,
        name: str | None = None,
        date: str | None = None,
        delay: float = WATCH_DELAYS[2],
        runner: SearchRunner | None = None,
    ) -> None:
        """`make_stop` makes each search's stop event (the app's pauses for keys);
        `keeper` keeps the game on disk after every move, under `name`; `delay` is the
        pause in seconds between moves when two engines play; `runner` runs the
        searches and hints the match starts (see the module docstring)."""
        self._sides = sides
        self.game = game or Game()
        self.seed = seed
        self.make_stop = make_stop
        self.keeper = keeper
        self.name = name or GameLibrary.new_name()
        self.date = date
        self.engines: dict[int, Engine] = {}
        self._paused = False
        self.delay = delay
        self.searches = SearchDesk(make_stop)
        self.hints = HintDesk(make_stop)
        self._notices: list[Notice] = []
        self._listeners: list[Listener] = []
        self.runner = runner
        self.resigned: int | None = None  # the player who resigned this game
        self.navigation = Navigation(self)
        self.watching = Watching(self)
        self.build_engines()

    # ---- who plays ------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def sides(self) -> Sides:
        """Who plays each colour; changed only by set_sides, new_game or open."""
        return self._sides

    @property
    def paused(self) -> bool:
        """No engine starts a search; changed only by the match's own intents."""
        return self._paused

    def is_ai(self, player: int) -> bool:
        return self.sides.is_ai(player)

    def build_engines(self) -> None:
        """Fresh engines for both AI sides (seeded, so a fixed seed replays a game)."""
        self.engines, notices = engines_for(self.sides, self.seed)
        self._tell(notices)

    def set_sides(self, sides: Sides) -> None:
        """New players for the game on the board (same moves)."""
        self.interrupt()
        self._sides = sides
        self.build_engines()
        self._paused = False
        self.save()
        self.let_engine_play()

    def assistant(self) -> Engine:
        """The engine that moves for a person when asked to (`m`): the opponent, or
        with two people the hint's engine (the strongest helper in time)."""
        if self.engines:
            return next(iter(self.engines.values()))
        return make_engine(hint_spec(self.position), seed=self.seed)

    # ---- notices --------------------------------------------------------------------

    def notify(self, text: str, severity: Severity = "information", **options) -> None:
        self._tell([Notice(text, severity, **options)])

    def listen(self, listener: Listener) -> None:
        """Hear every event from now on (interface.py)."""
        self._listeners.append(listener)

    def _emit(self, event: MatchEvent) -> None:
        for listener in self._listeners:
            listener(event)

    def take_notices(self) -> list[Notice]:
        """What to tell the person since the last call."""
        notices, self._notices = self._notices, []
        return notices

    # ---- the AI's search ------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self.searches.running

    @property
    def search(self) -> Search | None:
        """The search last started, running or not (the thinking panel shows it)."""
        return self.searches.search

    @property
    def search_id(self) -> int:
        return self.searches.search_id

    def engine_to_move(self) -> Engine | None:
        """The engine to start when it is an engine's turn and nobody is searching."""
        pos = self.position
        if self.thinking or self.over or self.paused or not self.is_ai(pos.to_move):
            return None
        return self.engines[pos.to_move]

    def start_search(self, engine: Engine) -> SearchRequest:
        request = self.searches.start(engine, self.position)
        self._emit(SearchStarted(self.search_id, engine.spec, self.position, engine.limits))
        return request

    def run(self, engine: Engine | None, delay: float = 0.0) -> bool:
        """Start `engine`'s search on the runner (after `delay` seconds), if the match
        has one; whether it did."""
        if engine is None or self.runner is None:
            return False
        request = self.start_search(engine)
        self.runner.search(replace(request, delay=delay))
        return True

    def hold(self) -> None:
        """No engine starts after the move being made (a step of two engines)."""
        self._paused = True

    def let_engine_play(self) -> None:
        """After a change: the engine to move starts, when the match has a runner."""
        self.run(self.engine_to_move())

    def cancel_search(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        self.searches.cancel()

    def hurry(self) -> bool:
        """Ask the running search for its best move now (played when it returns);
        False when none runs."""
        return self.searches.hurry()

    def progress(self, search_id: int, info: SearchInfo) -> bool:
        """A live snapshot of the search; False (and ignored) when it is stale."""
        if not self.searches.is_current(search_id):
            return False
        self.searches.report(info)
        self._emit(SearchProgress(search_id, info))
        return True

    def finish_search(self, search_id: int, result: SearchResult) -> bool:
        """Play the search's move; False (nothing played) when the result is stale."""
        if not self.searches.is_current(search_id) or self.search is None:
            return False
        position = self.search.position
        if position.path != self.position.path:
            return False
        self.searches.end(info=result.info)
        move = result.move
        if position.is_over() or not position.can_play(move):
            self._paused = True  # asking the same engine again would loop
            self.notify(f"The engine chose an illegal column {move + 1}.", "error")
            self._emit(SearchDone(search_id, None, result.info))
            return False
        value = evaluation_of(result.info, move, position.to_move)
        spec = self.sides.spec(position.to_move)
        self._emit(SearchDone(search_id, move, result.info))
        self._play(move, None if value is None or spec is None else Evaluation(spec, value))
        if self.runner is not None:
            watching = self.sides.watching and not self.paused
            self.run(self.engine_to_move(), self.delay if watching else 0.0)
        return True

    def evaluation_line(self) -> tuple[list[float], str | None]:
        """The values the evaluation graph plots, and whose (opponents.py)."""
        return evaluation_line(self.game)

    def search_failed(self, search_id: int, error: str) -> bool:
        """An engine raised: pause, and say so. False when the search was stale."""
        if search_id != self.search_id:
            return False
        self.searches.end()
        self._paused = True
        self.notify(
            f"The AI failed: {error}. Press {{move_now}} to retry, {{new_game}} for a new game.",
            "error",
        )
        self._emit(SearchDone(search_id, None, None))
        return True

    def forget_search(self) -> None:
        """Clear what the last search saw: it was of a position no longer on the board."""
        self.searches.forget()

    # ---- on disk --------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game as a game file holds it, with its variations."""
        players = (self.sides.recorded(0), self.sides.recorded(1))
        record = GameRecord.of_game(self.game, players, self.date)
        self.date = record.date
        return record

    def save(self) -> None:
        """Keep the game on disk, when the match has a keeper (keeping.py)."""
        if self.keeper is not None:
            self._tell(self.keeper.save(self.name, self.game, self.record))

    def count_result(self) -> None:
        """After a move: the running score counts a game it ended (keeping.py)."""
        if self.keeper is not None:
            self._tell(self.keeper.count(self.name, self.game, self.sides))

    def running_score(self) -> str | None:
        return None if self.keeper is None else self.keeper.running_score(self.sides)

    def _tell(self, notices: list[Notice]) -> None:
        for notice in notices:
            self._notices.append(notice)
            self._emit(notice)

    # ---- moves ----------------------------------------------------------------------

    def _play(self, col: int, evaluation: Evaluation | None = None) -> None:
        self.cancel_hint()
        self.game.play(col)
        self.game.node.evaluation = evaluation
        self.save()
        self.count_result()
        self._emit(PositionChanged(self.position))
        result = self.game.result()
        if result is not None:
            self._emit(GameOver(result.winner, "full" if result.winner is None else "line"))

    @property
    def over(self) -> bool:
        """The game has ended, on the board or by a resignation."""
        return self.position.is_over() or self.resigned is not None

    def human_move(self, col: int) -> bool:
        """A person drops a disc in `col`; False (with a notice) when they may not."""
        pos = self.position
        if self.over:
            self.notify(GAME_OVER, timeout=2)
            return False
        if self.thinking or self.is_ai(pos.to_move):
            self.notify(
                "Wait for the AI's move, or press {move_now} to make it move now.", timeout=2
            )
            return False
        if not 0 <= col < pos.width:
            self.notify(f"There is no column {col + 1}: the board has {pos.width}.", timeout=2)
            return False
        if not pos.can_play(col):
            self.notify(f"Column {col + 1} is full.", timeout=2, bell=True)
            return False
        self._paused = False
        self._play(col)
        return True

    def drop(self, column: int) -> None:
        """The interface's drop: `human_move`, then the engine answers."""
        if self.human_move(column):
            self.let_engine_play()

    def move_now(self) -> None:
        """The interface's `m`: hurry the running search, or an engine plays now."""
        self.run(self.ai_move())

    def take_back(self) -> None:
        """In a game of one's own, taking back is undoing."""
        self.undo()

    def resign(self) -> None:
        """The person to move gives up: the game is over, won by the other side."""
        mover = self.position.to_move
        if self.over or self.is_ai(mover):
            self.notify("Resigning is for your turn in a game going on.", timeout=2)
            return
        self.interrupt()
        self.resigned = mover
        self._emit(GameOver(1 - mover, "resigned"))

    def ai_move(self) -> Engine | None:
        """`m`: hurry the running search, or the engine to play the side to move now."""
        if self.over:
            self.notify(GAME_OVER, timeout=2)
            return None
        if self.hurry():
            return None
        self._paused = False
        return self.engines.get(self.position.to_move) or self.assistant()

    def new_game(self, game: Game | None = None, sides: Sides | None = None) -> None:
        """A fresh game, or `game` (moves already played) to go on from, between
        `sides` (else the same sides); the previous game stays among the kept games."""
        g = self.position.geometry
        if sides is not None:
            self._sides = sides
        self._begin(game or Game(Position.start(g.width, g.height, g.connect)))
        self.save()
        self._emit(PositionChanged(self.position))
        self.let_engine_play()

    def pause(self) -> None:
        """Hold the match while the person is elsewhere (settings, a review), or two
        engines playing: the running search and hint stop, and no engine starts until
        `resume()`."""
        self.interrupt()
        self.forget_search()
        self._paused = True

    def resume(self) -> None:
        """Let the engines play again after `pause()`."""
        self._paused = False
        self.let_engine_play()

    def open(self, record: GameRecord, name: str | None = None) -> None:
        """Go on with a kept game: its board, its sides (engine specs stay engines,
        anyone else is a person) and its moves; `name` keeps it in the same file."""
        game = record.game()
        self._sides = Sides(*(engine_spec_or_none(player) for player in record.players))
        self._begin(game, name, record.date)
        # Reopened at an engine's turn: it waits for `m`, as after undo.
        self._paused = self.is_ai(self.position.to_move) and not self.sides.watching
        self._emit(PositionChanged(self.position))
        self.let_engine_play()

    def _begin(self, game: Game, name: str | None = None, date: str | None = None) -> None:
        self.interrupt()
        self.game = game
        self.forget_search()
        self.resigned = None
        self._paused = False
        self.name = name or GameLibrary.new_name()
        self.date = date
        self.build_engines()

    # ---- through the game (navigation.py) -----------------------------------------

    def undo(self) -> bool:
        return self.navigation.undo()

    def redo(self) -> bool:
        return self.navigation.redo()

    def jump(self, path: tuple[int, ...]) -> bool:
        return self.navigation.jump(path)

    def promote(self) -> bool:
        return self.navigation.promote()

    def delete_variation(self) -> bool:
        return self.navigation.delete_variation()

    # ---- for the match's parts -------------------------------------------------------

    def interrupt(self) -> None:
        """The game is about to change: the running search and hint stop, stale."""
        self.cancel_search()
        self.cancel_hint()

    def moved(self, *, paused: bool) -> None:
        """The board changed without a move being played (undo, redo, a jump): whether
        an engine to move now waits, then keep the game and say so."""
        self._paused = paused
        self.save()
        self._emit(PositionChanged(self.position))

    def stop(self) -> None:
        """The UI is closing: nothing may keep searching, and another c4tui may play
        this game now."""
        self.interrupt()
        if self.keeper is not None:
            self.keeper.library.release()

    # ---- hints ----------------------------------------------------------------------

    @property
    def hint_column(self) -> int | None:
        """The column of the hint on show, if any."""
        return self.hints.column

    @property
    def hint_reason(self) -> str | None:
        return self.hints.reason

    def request_hint(self, spec: str) -> HintRequest | None:
        pos = self.position
        if pos.is_over() or self.thinking or self.is_ai(pos.to_move):
            self.notify("Hints are for your turn.", timeout=2)
            return None
        return self.hints.request(spec, pos, self.seed)

    def hint(self) -> None:
        """The interface's hint: the helper engine's column, on the runner."""
        request = self.request_hint(hint_spec(self.position))
        if request is not None and self.runner is not None:
            self.notify(f"Looking for a hint ({request.spec})…", timeout=2)
            self.runner.hint(request)

    def cancel_hint(self) -> None:
        self.hints.cancel()

    def finish_hint(self, hint_id: int, column: int | None, reason: str) -> bool:
        """Show the hint; False when it is stale."""
        if not self.hints.answer(hint_id, column, reason):
            return False
        if column is None:
            self.notify(f"No hint: {reason}", "error")
        else:
            # Said on the status line and marked on the board, not in a notice: a
            # notice covered the newest moves in the move list.
            self._emit(HintReady(column))
        return True

    # ---- two engines playing (watching.py) ----------------------------------------

    def toggle_pause(self) -> bool:
        return self.watching.toggle_pause()

    def step(self) -> Engine | None:
        return self.watching.step()

    def change_speed(self, steps: int) -> float:
        return self.watching.change_speed(steps)
