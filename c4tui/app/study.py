"""The app's study commands: kept games, positions in and out, saving a game to a file.

A mixin of ConnectFourApp, so that app.py stays about playing. The match keeps the game
on disk after every move (c4tui/match/library.py); here are the keys, palette commands
and dialogs around it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.notation import link_of
from c4tui.engine.board.position import Position
from c4tui.files import atomic_write
from c4tui.match.controller import engine_spec_or_none
from c4tui.match.learned import Learned
from c4tui.match.library import DamagedGame, GameHeldElsewhere
from c4tui.match.trainer import Trainer

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object


class StudyCommands(_Base):
    """Keys and palette commands for games and positions (mixed into the app)."""

    STUDY_BINDINGS = (
        Binding("g", "games", "Games", show=False),
        Binding("c", "copy_position", "Copy", show=False),
        Binding("C", "copy_link", "Copy link", show=False),
        Binding("p", "enter_position", "Position", show=False),
        Binding("v", "review", "Review", show=False),
        Binding("t", "puzzles", "Puzzles", show=False),
    )

    def study_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Games", "Kept games: open one to go on (g)", self.action_games)
        yield SystemCommand(
            "Copy position", "Copy the move string to the clipboard (c)", self.action_copy_position
        )
        yield SystemCommand(
            "Copy gamesolver.org link",
            "Copy the position as a connect4.gamesolver.org link (C)",
            self.action_copy_link,
        )
        yield SystemCommand(
            "Enter position",
            "Type or paste a move string to play from (p)",
            self.action_enter_position,
        )
        yield SystemCommand(
            "Review", "Every move judged by the exact solver (v)", self.action_review
        )
        yield SystemCommand(
            "Puzzles",
            "One column keeps the result: find it (t)",
            self.action_puzzles,
        )
        yield SystemCommand(
            "Scores on the board",
            "Show or hide every column's exact result (o)",
            self.action_toggle_scores,
        )
        yield SystemCommand(
            "Scores as numbers or words",
            "The solver's numbers, as gamesolver.org, or words (O)",
            self.action_toggle_score_numbers,
        )
        yield SystemCommand(
            "Alternate who moves first",
            "Against the AI, take turns to start new games (on/off)",
            self.action_toggle_alternate,
        )
        yield SystemCommand("Save game as…", "Write this game to a file", self.action_save_game_as)

    # ---- kept games -----------------------------------------------------------------

    def resume_kept_game(self) -> None:
        """Bring back the game that was in progress when the app last stopped."""
        try:
            kept = self.library.current()
        except GameHeldElsewhere:
            self.match.notify(
                "Your game in progress is open in another c4tui: a new game starts here.",
                "warning",
                title="Game not resumed",
                timeout=8,
            )
            return
        except DamagedGame as error:
            self.match.notify(str(error), "warning", title="Game not resumed", timeout=12)
            return
        if kept is None or not kept.record.moves or kept.record.position.is_over():
            return
        self.match.open(kept.record, kept.name)
        self.follow_open_game()
        self.match.notify(
            f"Your game of {kept.record.date[:10]} is back ({kept.record.plies} moves). "
            "n starts a new one; g lists the kept games.",
            title="Game resumed",
            timeout=6,
        )

    def follow_open_game(self) -> None:
        """The session's settings take the opened game's sides and board (not saved)."""
        position = self.match.position
        self.settings = self.settings.playing(
            self.match.sides, position.width, position.height, position.connect
        )

    def open_record(self, record: GameRecord, name: str | None = None) -> None:
        """Go on from a game: kept (same file) or loaded from elsewhere (a new one)."""
        self.cancel_search()
        self.match.open(record, name)
        self.follow_open_game()
        self.cursor = record.width // 2
        self.match.save()
        self.update()

    def action_games(self) -> None:
        from c4tui.app.screens.games import GamesScreen

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is None:
                return
            what, name = choice
            try:
                # A review only reads the game: yours stays on the board, and comes back.
                record = self.library.load(name) if what == "review" else self.library.take(name)
            except (OSError, ValueError) as error:
                self.notify(f"Could not open that game: {error}", severity="error")
                return
            if what == "review":
                people = {p for p in (0, 1) if engine_spec_or_none(record.players[p]) is None}
                self.review(record.game().main_position, people)
                return
            self.open_record(record, name)
            self.notify(f"Game of {record.date[:10]} opened: u and r step through it.")

        self.push_screen(GamesScreen(self.library, current=self.match.name), chosen)

    def action_review(self) -> None:
        """Review the main line of the game on the board."""
        if not self.game.main_line():
            self.notify("No moves to review yet.", timeout=2)
            return
        people = {p for p in (0, 1) if not self.match.is_ai(p)}
        self.review(self.game.main_position, people)

    def review(self, game: Position, people: set[int]) -> None:
        """Review the game that led to `game`; the mistakes of `people` (0 ●, 1 ○: the
        sides a person played) become puzzles, an engine's never."""
        from c4tui.app.screens.review import ReviewScreen

        self.cancel_search()
        self.match.cancel_hint()
        self.match.paused = True  # back from the review, the AI waits for m

        def back(_: None) -> None:
            self.match.paused = False
            self.update()

        def reviewed(reviews) -> None:  # a person's mistakes become their puzzles
            theirs = [r for r in reviews if r.player - 1 in people]
            if not theirs:
                return
            trainer = self.trainer()
            trainer.add_mistakes(theirs, game)
            for text in trainer.take_notices():
                self.notify(text, title="Puzzles", severity="warning", timeout=10)

        # The review has the whole screen: a notice (the running score, as the game
        # ended) would cover its moves.
        self.clear_notifications()
        learned = Learned(self.library.directory)
        if learned.notice:
            self.notify(learned.notice, title="Learn", severity="warning", timeout=10)
        screen = ReviewScreen(
            game,
            self.activity,
            reviewed,
            board_style=self.settings.board_style,
            learners=people,
            learned=learned,
        )
        self.push_screen(screen, back)

    def trainer(self) -> Trainer:
        return Trainer(self.library.directory, seed=self.match.seed)

    def action_puzzles(self) -> None:
        from c4tui.app.screens.puzzle import PuzzleScreen

        self.cancel_search()
        self.match.cancel_hint()
        self.match.paused = True

        def back(_: None) -> None:
            self.match.paused = False
            self.update()

        self.push_screen(PuzzleScreen(self.trainer(), board_style=self.settings.board_style), back)

    def action_toggle_alternate(self) -> None:
        on = not self.settings.alternate_first
        self.remember(alternate_first=on)
        said = "take turns to move first" if on else "keep who moves first"
        self.notify(f"New games against the AI {said}.", timeout=3)

    # ---- positions in and out -------------------------------------------------------

    def action_copy_position(self) -> None:
        moves = self.game.position.to_moves()
        self.copy_to_clipboard(moves)
        shown = moves or "(the empty board)"
        more = " C copies its gamesolver.org link." if self.on_gamesolver_board() else ""
        self.notify(f"Copied the position: {shown}.{more}", title="Clipboard", timeout=5)

    def on_gamesolver_board(self) -> bool:
        g = self.game.position.geometry
        return (g.width, g.height, g.connect) == (7, 6, 4)

    def action_copy_link(self) -> None:
        """The position as a connect4.gamesolver.org link (7x6, four in a row only)."""
        if not self.on_gamesolver_board():
            self.notify("gamesolver.org plays only 7x6, four in a row: c copies the moves.")
            return
        link = link_of(self.game.position.to_moves())
        self.copy_to_clipboard(link)
        self.notify(f"Copied the link: {link}", title="Clipboard", timeout=5)

    def action_enter_position(self) -> None:
        from c4tui.app.screens.position import PositionScreen

        g = self.game.position.geometry

        def chosen(moves: str | None) -> None:
            if moves is None:
                return
            self.cancel_search()
            self.match.new_game(Game.from_moves(moves, g.width, g.height, g.connect))
            self.cursor = g.width // 2
            self.notify(f"Playing on from {moves or 'the empty board'}.", timeout=3)
            self.update()

        self.push_screen(PositionScreen(g), chosen)

    def action_save_game_as(self) -> None:
        from c4tui.app.screens.save_as import SaveAsScreen

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                atomic_write(path, self.match.record().to_text())
            except OSError as error:
                self.notify(
                    f"Could not save to {path}: {error.strerror or error}", severity="error"
                )
                return
            self.notify(f"Game saved to {path}.", title="Saved", timeout=5)

        self.push_screen(SaveAsScreen(Path.cwd() / f"c4tui-{self.match.name}.c4"), chosen)
