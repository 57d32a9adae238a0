"""MyGamesScreen: a served player's finished games, kept by the server; Enter reviews one."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from c4tui.app.screens.kept_games import GAME_COLUMNS, compose_games_list, game_cells
from c4tui.app.screens.review import ReviewScreen
from c4tui.engine.board.gamefile import GameRecord


class MyGamesScreen(ModalScreen[None]):
    """The games the server keeps for this player, newest first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,g", "app.pop_screen", "Close"),
    ]

    def __init__(self, games: tuple[tuple[str, GameRecord], ...]) -> None:
        super().__init__()
        self.games = dict(games)

    def compose(self) -> ComposeResult:
        return compose_games_list()

    def on_mount(self) -> None:
        self.query_one("#games-body").border_title = "Your games on this server"
        table = self.query_one(DataTable)
        table.add_columns("started (UTC)", *GAME_COLUMNS)
        for name, record in self.games.items():
            table.add_row(record.date.replace("T", " ").rstrip("Z"), *game_cells(record), key=name)
        summary = f"{len(self.games)} games, the newest first: Enter reviews one."
        if not self.games:
            summary = "No games yet: every game you play here is kept for you."
        self.query_one("#games-summary", Static).update(summary)
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        record = self.games[str(event.row_key.value)]
        self.app.push_screen(ReviewScreen(record.position))
