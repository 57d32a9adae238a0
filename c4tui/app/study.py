"""The app's study commands: kept games, positions in and out, saving a game to a file.

A part of the app, so that app.py stays about playing. The match keeps the game
on disk after every move (c4tui/records/kept_games.py); here are the keys, palette commands
and dialogs around it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.app import SystemCommand

from c4tui.app.keys import cursor_start, keyed_command
from c4tui.app.part_host import Host
from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.notation import link_of, move_name
from c4tui.engine.board.position import Position
from c4tui.engine.study.review import MoveReview
from c4tui.files import atomic_write
from c4tui.match.sides import engine_spec_or_none
from c4tui.records.kept_games import DamagedGame, GameHeldElsewhere
from c4tui.records.lessons import Learned
from c4tui.records.trainer import Trainer


class StudyActions:
    """Kept games, reviews, puzzles, positions in and out, for the app it is given."""

    def __init__(self, app: Host) -> None:
        self._app = app

    def commands(self) -> Iterable[SystemCommand]:
        yield keyed_command(
            "Games", "Kept games: open one to go on", "part('study', 'games')", self.games
        )
        yield keyed_command(
            "Copy position",
            "Copy the move string to the clipboard",
            "part('study', 'copy_position')",
            self.copy_position,
        )
        yield keyed_command(
            "Copy gamesolver.org link",
            "Copy the position as a connect4.gamesolver.org link",
            "part('study', 'copy_link')",
            self.copy_link,
        )
        yield keyed_command(
            "Enter position",
            "Type or paste a move string to play from",
            "part('study', 'enter_position')",
            self.enter_position,
        )
        yield keyed_command(
            "Review",
            "Every move judged by the exact solver",
            "part('study', 'review_game')",
            self.review_game,
        )
        yield keyed_command(
            "Puzzles",
            "One column keeps the result: find it",
            "part('study', 'puzzles')",
            self.puzzles,
        )
        yield SystemCommand(
            "Alternate who moves first",
            "Against the AI, take turns to start new games (on/off)",
            self.toggle_alternate,
        )
        yield SystemCommand("Save game as…", "Write this game to a file", self.save_game_as)

    # ---- kept games -----------------------------------------------------------------

    def resume_kept_game(self) -> None:
        """Bring back the game that was in progress when the app last stopped."""
        try:
            kept = self._app.library.current()
        except GameHeldElsewhere:
            self._app.match.notify(
                "Your game in progress is open in another c4tui: a new game starts here.",
                "warning",
                title="Game not resumed",
                timeout=8,
            )
            return
        except DamagedGame as error:
            self._app.match.notify(str(error), "warning", title="Game not resumed", timeout=12)
            return
        if kept is None or not kept.record.moves or kept.record.finished:
            return
        self._app.match.open(kept.record, kept.name)
        self.follow_open_game()
        self._app.match.notify(
            f"Your game of {kept.record.date[:10]} is back (to move "
            f"{move_name(kept.record.plies - 1)}). "
            "n starts a new one; g lists the kept games.",
            title="Game resumed",
            timeout=6,
        )

    def follow_open_game(self) -> None:
        """The session's settings take the opened game's sides and board (not saved)."""
        position = self._app.match.position
        self._app.settings = self._app.settings.playing(
            self._app.match.sides, position.width, position.height, position.connect
        )

    def open_file(self, record: GameRecord, path: Path) -> None:
        """A game file opened with --load: one of the kept games goes on in its own file
        (else each --load of it kept another copy), any other is kept as a new game."""
        self.open_record(record, self._app.library.name_of(path))

    def open_record(self, record: GameRecord, name: str | None = None) -> None:
        """Go on from a game: kept (same file) or loaded from elsewhere (a new one)."""
        self._app.cancel_search()
        self._app.match.open(record, name)
        self.follow_open_game()
        self._app.cursor = cursor_start(record.width)
        self._app.match.save()
        self._app.update()

    def games(self) -> None:
        from c4tui.app.screens.kept_games import GamesScreen

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is None:
                return
            what, name = choice
            try:
                # A review only reads the game: yours stays on the board, and comes back.
                library = self._app.library
                record = library.load(name) if what == "review" else library.take(name)
            except (OSError, ValueError) as error:
                self._app.notify(f"Could not open that game: {error}", severity="error")
                return
            if what == "review":
                people = {p for p in (0, 1) if engine_spec_or_none(record.players[p]) is None}
                self.review(record.game().main_position, people)
                return
            self.open_record(record, name)
            self._app.notify(f"Game of {record.date[:10]} opened: u and r step through it.")

        self._app.push_screen(GamesScreen(self._app.library, current=self._app.match.name), chosen)

    def review_game(self) -> None:
        """Review the main line of the game on the board."""
        if not self._app.match.game.main_line():
            self._app.notify("No moves to review yet.", timeout=2)
            return
        people = {p for p in (0, 1) if not self._app.match.is_ai(p)}
        self.review(self._app.match.game.main_position, people)

    def review(self, game: Position, people: set[int]) -> None:
        """Review the game that led to `game`; the mistakes of `people` (0 ●, 1 ○: the
        sides a person played) become puzzles, an engine's never."""
        from c4tui.app.screens.review import ReviewScreen

        if self._app.review_in_lines(game, people):  # no board nor graph in that mode
            return
        self._app.cancel_search()
        self._app.match.pause()  # back from the review, the AI waits for m

        def back(_: None) -> None:
            self._app.match.resume()
            self._app.update()

        def reviewed(reviews: list[MoveReview]) -> None:  # a person's mistakes: puzzles
            theirs = [r for r in reviews if r.player - 1 in people]
            if not theirs:
                return
            trainer = self.trainer()
            trainer.add_mistakes(theirs, game)
            for text in trainer.take_notices():
                self._app.notify(text, title="Puzzles", severity="warning", timeout=10)

        # The review has the whole screen: a notice (the running score, as the game
        # ended) would cover its moves.
        self._app.clear_notifications()
        learned = Learned(self._app.library.directory)
        if learned.notice:
            self._app.notify(learned.notice, title="Learn", severity="warning", timeout=10)
        screen = ReviewScreen(
            game,
            self._app.activity,
            reviewed,
            board_style=self._app.settings.board_style,
            learners=people,
            learned=learned,
        )
        self._app.push_screen(screen, back)

    def trainer(self) -> Trainer:
        return Trainer(self._app.library.directory, seed=self._app.match.seed)

    def puzzles(self) -> None:
        from c4tui.app.screens.puzzle import PuzzleScreen

        self._app.cancel_search()
        self._app.match.pause()

        def back(_: None) -> None:
            self._app.match.resume()
            self._app.update()

        style = self._app.settings.board_style
        g = self._app.match.position.geometry  # the puzzles follow the board played
        board = (g.width, g.height, g.connect)
        self._app.push_screen(PuzzleScreen(self.trainer(), board_style=style, board=board), back)

    def toggle_alternate(self) -> None:
        on = not self._app.settings.alternate_first
        self._app.remember(alternate_first=on)
        said = "take turns to move first" if on else "keep who moves first"
        self._app.notify(f"New games against the AI {said}.", timeout=3)

    # ---- positions in and out -------------------------------------------------------

    def copy_position(self) -> None:
        moves = self._app.match.game.position.to_moves()
        self._app.copy_to_clipboard(moves)
        shown = moves or "(the empty board)"
        more = " C copies its gamesolver.org link." if self.on_gamesolver_board() else ""
        self._app.notify(f"Copied the position: {shown}.{more}", title="Clipboard", timeout=5)

    def on_gamesolver_board(self) -> bool:
        g = self._app.match.position.geometry
        return (g.width, g.height, g.connect) == (7, 6, 4)

    def copy_link(self) -> None:
        """The position as a connect4.gamesolver.org link (7x6, four in a row only)."""
        if not self.on_gamesolver_board():
            self._app.notify("gamesolver.org plays only 7x6, four in a row: c copies the moves.")
            return
        link = link_of(self._app.match.position.to_moves())
        self._app.copy_to_clipboard(link)
        self._app.notify(f"Copied the link: {link}", title="Clipboard", timeout=5)

    def enter_position(self) -> None:
        from c4tui.app.screens.position_entry import PositionScreen

        g = self._app.match.game.position.geometry

        def chosen(moves: str | None) -> None:
            if moves is None:
                return
            self._app.cancel_search()
            self._app.match.new_game(Game.from_moves(moves, g.width, g.height, g.connect))
            self._app.cursor = cursor_start(g.width)
            if self._app.match.game.position.is_over():
                self._app.notify(f"{moves}: the game is over; v reviews it.", timeout=3)
            else:
                self._app.notify(f"Playing on from {moves or 'the empty board'}.", timeout=3)
            self._app.update()

        self._app.push_screen(PositionScreen(g), chosen)

    def save_game_as(self) -> None:
        from c4tui.app.screens.save_as import SaveAsScreen

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                atomic_write(path, self._app.match.record().to_text())
            except OSError as error:
                self._app.notify(
                    f"Could not save to {path}: {error.strerror or error}", severity="error"
                )
                return
            self._app.notify(f"Game saved to {path}.", title="Saved", timeout=5)

        self._app.push_screen(SaveAsScreen(Path.cwd() / f"c4tui-{self._app.match.name}.c4"), chosen)
