"""Match: one game between two sides, without any UI.

The match owns the `Game`, the engines, whose turn it is, undo and redo by turns, pausing
and stepping when two engines play, the AI's search lifecycle, hints, and keeping the game
on disk after every move. A UI (the Textual app, or a test) asks it what to do and runs
the searches it hands out, wherever it likes (the app: a thread worker).

Stale results: every search and every hint gets an id. `finish_search` and
`finish_hint` ignore a result whose id is not the current one, and every change of the
game (a move, new game, undo, redo, new sides, quit) first cancels the running search:
sets its stop event and forgets its id. So a cancelled search can never play a move.

Match implements the match interface (interface.py): the UI sends intents, hears
events (what to tell the person among them, as `Notice` events), and gives the match a
`runner` (at construction or with `attach`) on which the match starts its engines'
searches and hints itself. Without a runner no engine moves.

The match is made of parts with their own state: the engines' turns (turns.py), the
search desk (search ids, the running search), the hint desk (hints.py), navigation
(undo, redo, the game's lines), watching (two engines playing), the keeper (the game on
disk) and its view (local_view.py, what the screen draws).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from c4tui.engine.board.game import Evaluation, Game
from c4tui.engine.board.gamefile import Ending, GameRecord, lost_words
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, SearchInfo, SearchResult
from c4tui.engine.players.specs import make_engine
from c4tui.engine.turns import column_refusal
from c4tui.match.hints import HintDesk
from c4tui.match.interface import (
    GameOver,
    Listener,
    MatchEvent,
    MatchInterface,
    MatchView,
    PositionChanged,
    SearchRunner,
)
from c4tui.match.keeping import GameKeeper
from c4tui.match.local_view import view_of
from c4tui.match.navigation import Navigation
from c4tui.match.opponents import Judge, engine_name, engines_for, evaluation_line, hint_spec
from c4tui.match.search_desk import SearchDesk
from c4tui.match.search_requests import GAME_OVER, Notice, Search, Severity
from c4tui.match.sides import UNNAMED, Sides, engine_spec_or_none
from c4tui.match.turns import EngineTurns
from c4tui.match.watching import WATCH_DELAYS, Watching
from c4tui.records.kept_games import GameLibrary


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
        setup: str = "",
    ) -> None:
        """`make_stop` makes each search's stop event (the app's pauses for keys);
        `keeper` keeps the game on disk after every move, under `name`; `delay` is the
        pause in seconds between moves when two engines play; `runner` runs the
        searches and hints the match starts (see the module docstring); `setup`, the
        moves `game` was set up with (`--position`): such a game never counts (keeping.py)."""
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
        self._listeners: list[Listener] = []
        self.runner = runner
        self.resigned: int | None = None  # the player who resigned this game
        self.setup = setup  # the moves the game was set up with (pasted), not played here
        # How a game ended off the board, in words after the loser's name ("resigned",
        # "lost: it crashed (exit status 1)"); None while it goes on or ended on it.
        self.ending: str | None = None  # how a game ended off the board, in words
        self.ended_how = "resigned"  # ... and as its game file says it (gamefile.ENDINGS)
        self.navigation = Navigation(self)
        self.watching = Watching(self)
        self.turns = EngineTurns(self)
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

    def notify(self, text: str, severity: Severity = "information", **options: Any) -> None:
        self._tell([Notice(text, severity, **options)])

    def listen(self, listener: Listener) -> None:
        """Hear every event from now on (interface.py)."""
        self._listeners.append(listener)

    def emit(self, event: MatchEvent) -> None:
        for listener in self._listeners:
            listener(event)

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

    # ---- the engines' turns (turns.py) -------------------------------------------

    def attach(self, runner: SearchRunner) -> None:
        """Run this match's searches and hints on `runner` from now on, starting with
        the engine to move (the app's runner needs the app running first)."""
        self.runner = runner
        self.let_engine_play()

    def let_engine_play(self) -> None:
        """After a change: the engine to move starts, when the match has a runner."""
        self.turns.run(self.turns.engine_to_move())

    def run(self, engine: Engine | None) -> bool:
        return self.turns.run(engine)

    def progress(self, search_id: int, info: SearchInfo) -> bool:
        return self.turns.progress(search_id, info)

    def finish_search(self, search_id: int, result: SearchResult) -> bool:
        return self.turns.finish(search_id, result)

    def search_failed(self, search_id: int, error: str, forfeit: bool = False) -> bool:
        if forfeit:
            return self.turns.forfeited(search_id, error)
        return self.turns.failed(search_id, error)

    def forfeit(self, player: int, reason: str) -> None:
        """`player`'s engine failed (an outside program): the game is over, won by the
        other side, as a resignation is."""
        self.resigned = player
        self.ending, self.ended_how = f"lost: it {reason}", "forfeit"
        self.emit(GameOver(1 - player, "forfeit"))

    def hold(self) -> None:
        """No engine starts after the move being made (a step, an illegal move)."""
        self._paused = True

    def cancel_search(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        self.searches.cancel()

    def hurry(self) -> bool:
        """Ask the running search for its best move now (played when it returns);
        False when none runs."""
        return self.searches.hurry()

    def evaluation_line(self) -> tuple[list[float], Judge | None]:
        """The values the evaluation graph plots, and whose (opponents.py)."""
        names = {engine.spec: engine_name(engine) for engine in self.engines.values()}
        return evaluation_line(self.game, (self.sides.spec(0), self.sides.spec(1)), names)

    def view(self) -> MatchView:
        """The match now, as a UI draws it (interface.py, local_view.py)."""
        return view_of(self)

    def forget_search(self) -> None:
        """Clear what the last search saw: it was of a position no longer on the board."""
        self.searches.forget()

    # ---- on disk --------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game as a game file holds it, with its variations."""
        players = (self.sides.recorded(0), self.sides.recorded(1))
        ended = None if self.resigned is None else Ending(self.ended_how, 1 - self.resigned)
        record = GameRecord.of_game(self.game, players, self.date, ended, self.setup)
        self.date = record.date
        return record

    def save(self) -> None:
        """Keep the game on disk, when the match has a keeper (keeping.py)."""
        if self.keeper is not None:
            self._tell(self.keeper.save(self.name, self.game, self.record))

    def running_score(self) -> str | None:
        return None if self.keeper is None else self.keeper.running_score(self.sides)

    def _tell(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.emit(notice)

    # ---- moves ----------------------------------------------------------------------

    def play_move(self, col: int, evaluation: Evaluation | None = None) -> None:
        """Play a move (a person's or an engine's), keep it, and say so."""
        self.hints.cancel()
        self.game.play(col)
        self.game.node.evaluation = evaluation
        self.save()
        result = self.game.result()
        if result is not None:
            self._count(result.winner)
        self.emit(PositionChanged(self.position))
        if result is not None:
            self.emit(GameOver(result.winner, "full" if result.winner is None else "line"))

    def _count(self, winner: int | None) -> None:
        """The running score counts the game that just ended, when the match keeps one
        and the game was played from the empty board (keeping.py)."""
        if self.keeper is not None:
            self._tell(self.keeper.count(self.name, winner, self.sides, set_up=bool(self.setup)))

    @property
    def over(self) -> bool:
        """The game has ended, on the board or by a resignation."""
        return self.position.is_over() or self.resigned is not None

    def drop(self, column: int) -> None:
        """A person drops a disc in `column` (refused with a notice when they may not),
        then the engine answers."""
        if self._may_drop(column):
            self._paused = False
            self.play_move(column)
            self.let_engine_play()

    def _may_drop(self, col: int) -> bool:
        """Whether the person to move may drop in `col`; a notice says why not."""
        pos = self.position
        if self.over:
            self.notify(GAME_OVER, timeout=2)
            return False
        if self.thinking or self.is_ai(pos.to_move):
            self.notify(
                "Wait for the AI's move, or press {move_now} to make it move now.", timeout=2
            )
            return False
        refusal = column_refusal(pos, col)
        if refusal is not None:
            self.notify(refusal, timeout=2, bell=True)
            return False
        return True

    def move_now(self) -> None:
        """`m`: hurry the running search, or an engine plays the side to move now: its
        own, or for a person the opponent, or with two people the hint's engine (the
        strongest helper in time)."""
        if self.over:
            self.notify(GAME_OVER, timeout=2)
        elif not self.hurry():
            self._paused = False
            mover = self.position.to_move
            helper = next(iter(self.engines.values()), None)
            if helper is None:
                helper = make_engine(hint_spec(self.position), seed=self.seed)
            self.run(self.engines.get(mover) or helper)

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
        self.save()  # kept with its result: "Result: 0-1", "Ended: resigned"
        self._count(1 - mover)
        self.ending, self.ended_how = "resigned", "resigned"
        self.emit(GameOver(1 - mover, "resigned"))

    def new_game(self, game: Game | None = None, sides: Sides | None = None) -> None:
        """A fresh game, or `game` (moves already played) to go on from, between
        `sides` (else the same sides); the previous game stays among the kept games."""
        g = self.position.geometry
        if sides is not None:
            self._sides = sides
        self._begin(game or Game(Position.start(g.width, g.height, g.connect)))
        # A game set up from a position is practice: it never counts (keeping.py).
        self.setup = self.game.position.to_moves()
        self.save()
        self.emit(PositionChanged(self.position))
        self.let_engine_play()

    def pause(self) -> None:
        """Hold the match while the person is elsewhere (settings, a review), or two
        engines playing: the running search and hint stop, and no engine starts until
        `resume()`. The last search stays on show: the board has not changed."""
        self.interrupt()
        self._paused = True

    def resume(self) -> None:
        """Let the engines play again after `pause()`."""
        self._paused = False
        self.let_engine_play()

    def open(self, record: GameRecord, name: str | None = None) -> None:
        """Go on with a kept game: its board, its sides (engine specs stay engines,
        anyone else is a person) and its moves; `name` keeps it in the same file."""
        game = record.game()
        specs = [engine_spec_or_none(player) for player in record.players]
        # A person's name from the file ("ann"), not the words the app gives a person.
        people = tuple(
            "" if spec is not None or player in UNNAMED else player
            for spec, player in zip(specs, record.players, strict=True)
        )
        self._sides = Sides(specs[0], specs[1], people=(people[0], people[1]))
        self._begin(game, name, record.date)
        self.setup = record.start
        ended = record.ended
        if ended is not None and ended.winner is not None:
            self.resigned = 1 - ended.winner  # over, as it was left
            self.ended_how, self.ending = ended.how, lost_words(ended.how)
        # Reopened at an engine's turn: it waits for `m`, as after undo.
        self._paused = self.is_ai(self.position.to_move) and not self.sides.watching
        self.emit(PositionChanged(self.position))
        self.let_engine_play()

    def _begin(self, game: Game, name: str | None = None, date: str | None = None) -> None:
        self.interrupt()
        self.game = game
        self.forget_search()
        self.resigned = None
        self.setup = ""
        self.ending = None
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

    def interrupt(self) -> None:
        """The game is about to change: the running search and hint stop, stale."""
        self.cancel_search()
        self.hints.cancel()

    def moved(self, *, paused: bool) -> None:
        """The board changed without a move being played (undo, redo, a jump): whether
        an engine to move now waits, then keep the game and say so."""
        self._paused = paused
        self.save()
        self.emit(PositionChanged(self.position))

    def stop(self) -> None:
        """The UI is closing: nothing may keep searching, and another c4tui may play
        this game now."""
        self.interrupt()
        if self.keeper is not None:
            self.keeper.library.release()

    # ---- hints ----------------------------------------------------------------------

    def hint(self) -> None:
        """The helper engine's column for the person to move, looked for on the runner."""
        self.hints.ask(self)

    def finish_hint(self, hint_id: int, column: int | None, reason: str) -> bool:
        """Show the hint; False when it is stale."""
        return self.hints.finish(self, hint_id, column, reason)

    def step(self) -> None:
        """The engine to move plays one move, then two engines pause (watching.py)."""
        self.watching.step()


if TYPE_CHECKING:  # the type checker holds Match to the interface the screen talks to
    _CONFORMS: type[MatchInterface] = Match
