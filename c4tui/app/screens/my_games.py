"""MyGamesScreen: a served player's finished games, kept by the server; Enter reviews one,
c copies its game file, l its gamesolver.org link, d downloads it (in a browser). A
profile's games (profile.py) are reviewed and taken home the same way."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, OptionList, Static

from c4tui.app.game_export import copy_game_file, copy_game_link, download_game_file
from c4tui.app.reader.games import game_sentence, when_words
from c4tui.app.reader.mode import reading
from c4tui.app.reader.study import ReaderStudy
from c4tui.app.screens.kept_games import (
    GAME_COLUMNS,
    chosen_game,
    compose_games_list,
    game_cells,
)
from c4tui.app.screens.review import ReviewScreen
from c4tui.engine.board.gamefile import GameRecord


def export_game(app: App[Any], how: str, name: str, record: GameRecord) -> None:
    """A served game taken home: `how` "file" copies its game file, "link" its
    gamesolver.org link, "download" downloads it (a browser)."""
    if how == "file":
        copy_game_file(app, name, record)
    elif how == "link":
        copy_game_link(app, record)
    else:
        download_game_file(app, name, record)


def review_game(screen: Screen[Any], record: GameRecord) -> None:
    """Review a served game from a list on `screen`: on a review screen, or in the
    screen-reader mode in lines, in the lobby's (the list closes: no board nor graph)."""
    app = screen.app
    if reading(app):
        app.pop_screen()
        # No lessons: the lobby has no game to play them on (learn is a game's).
        ReaderStudy(app.spoken.say, app).review(record.position, set())  # type: ignore[attr-defined]  # the served app's lines
        return
    app.push_screen(ReviewScreen(record.position))


class MyGamesScreen(ModalScreen[None]):
    """The games the server keeps for this player, newest first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,g", "app.pop_screen", "Close"),
        Binding("c", "export('file')", "Copy file"),
        Binding("l", "export('link')", "Copy link"),
        Binding("d", "export('download')", "Download"),
    ]

    def __init__(self, games: tuple[tuple[str, GameRecord], ...], me: str) -> None:
        """`me`: the player's name, the "you" of the screen-reader mode's sentences."""
        super().__init__()
        self.games = dict(games)
        self.me = me

    def compose(self) -> ComposeResult:
        if not reading(self.app):
            return compose_games_list()
        return compose_games_list(
            [
                (name, game_sentence(number, record, self.me, when_words(record.date)))
                for number, (name, record) in enumerate(self.games.items(), 1)
            ]
        )

    def on_mount(self) -> None:
        self.query_one("#games-body").border_title = "Your games on this server"
        for table in self.query(DataTable):
            table.add_columns("started (UTC)", *GAME_COLUMNS)
            for name, record in self.games.items():
                started = record.date.replace("T", " ").rstrip("Z")
                table.add_row(started, *game_cells(record), key=name)
        summary = (
            f"{len(self.games)} games, the newest first: Enter reviews one; c copies its"
            " game file, l its gamesolver.org link"
            + (", d downloads it." if self.app.is_web else ".")
        )
        if not self.games:
            summary = "No games yet: every game you play here is kept for you."
        self.query_one("#games-summary", Static).update(summary)
        self.query_one("#games-body").query(".games-list").first().focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export" and parameters == ("download",):
            return self.app.is_web  # a terminal copies instead
        return True

    def action_export(self, how: str) -> None:
        name = chosen_game(self)
        if name is not None:
            export_game(self.app, how, name, self.games[name])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        review_game(self, self.games[str(event.row_key.value)])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        review_game(self, self.games[str(event.option.id)])
