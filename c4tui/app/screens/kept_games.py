"""GamesScreen: the kept games, the last played first; Enter opens one to go on from it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, OptionList, Static

from c4tui.app.reader.games import GamesLines, game_sentence, when_words
from c4tui.app.reader.mode import reading
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.notation import move_name
from c4tui.records.kept_games import GameLibrary

RESULT_WORDS = {"1-0": "● won", "0-1": "○ won", "1/2-1/2": "draw", "*": "unfinished"}


def result_words(record: GameRecord) -> str:
    """ "● won", "draw", "unfinished"; with how it ended off the board: "○ won, ● resigned"."""
    words = RESULT_WORDS[record.result]
    if record.ended is None:
        return words
    if record.ended.winner is None:
        return "draw agreed"
    return f"{words}, {record.ended.words()}"


def moves_text(record: GameRecord) -> str:
    """How far a game went, moves counted as players count them (notation.py), and where
    its board stands when not at the end of it (after undo, or in a variation): "6 ○",
    "6 ○, at 2 ●", "-" for no move."""
    last = f"{move_name(record.plies - 1):>4}" if record.plies else "   -"
    if record.current is None:
        return last
    return f"{last}, at {move_name(len(record.current) - 1) if record.current else 'start'}"


def board_text(record: GameRecord) -> str:
    """A game's board for the list: "7x6", and the line length when it is not four."""
    size = f"{record.width}x{record.height}"
    return size if record.connect == 4 else f"{size} connect {record.connect}"


# The list's columns after the first (when the game was played, or started).
GAME_COLUMNS = ("board", "● first", "○ second", "result", "moves")


def game_cells(record: GameRecord) -> tuple[str | Text, ...]:
    """A game's row after its first cell: its board, players, result and length (a name
    such as "[b]" is a name, not markup)."""
    return (
        board_text(record),
        Text(record.players[0]),
        Text(record.players[1]),
        result_words(record),
        moves_text(record),
    )


def compose_games_list(lines: list[tuple[str, str]] | None = None) -> ComposeResult:
    """A list of games as both game screens show it: a summary over the table, the keys
    at the foot; in the screen-reader mode (`lines`: each game's name and sentence) a
    list of sentences instead of the table (reader/games.py)."""
    with Vertical(id="games-body"):
        yield Static("", id="games-summary")
        if lines is None:
            yield GamesTable(
                id="games-table", classes="games-list", cursor_type="row", zebra_stripes=True
            )
        else:
            yield GamesLines(lines, id="games-lines", classes="games-list")
    yield Footer()


def chosen_game(screen: Screen[Any]) -> str | None:
    """The name of the game under the list's cursor (the table's or the lines'), if any."""
    for lines in screen.query(GamesLines):
        return lines.chosen
    table = screen.query_one(DataTable)
    if table.row_count == 0:
        return None
    row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return row_key.value  # every row is added with its game's name as key


class GamesTable(DataTable[str]):
    """The list: Enter selects the row under the cursor (RowSelected), in turn with the
    keys typed before it. (A priority binding on the screen ran before queued Down keys
    had moved the cursor, and opened the row the cursor was leaving.)"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", key_display="⏎"),
        # The newest and the oldest game (a table's own Home and End go sideways).
        Binding("home", "scroll_top", show=False),
        Binding("end", "scroll_bottom", show=False),
    ]


class GamesScreen(ModalScreen[tuple[str, str] | None]):
    """Pick a kept game; returns ("open" or "review", its name), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,g", "dismiss_none", "Close"),
        Binding("v", "choose('review')", "Review"),
    ]

    def __init__(self, library: GameLibrary, current: str | None = None) -> None:
        super().__init__()
        self.library = library
        self.current = current
        self.games, self.damaged = library.listing()

    def compose(self) -> ComposeResult:
        if not reading(self.app):
            return compose_games_list()
        lines = []
        for number, game in enumerate(self.games, 1):
            played = when_words(datetime.fromtimestamp(game.played, UTC))
            said = game_sentence(number, game.record, "You", played)
            mark = self._mark(game.name)
            lines.append((game.name, said + (f", {mark}" if mark else "")))
        return compose_games_list(lines)

    def _mark(self, name: str) -> str:
        if name == self.current:
            return "now"
        if self.library.held_elsewhere(name):
            return "in use"  # another c4tui plays it: it would not open
        return ""

    def on_mount(self) -> None:
        body = self.query_one("#games-body")
        body.border_title = "Kept games"
        games, damaged = self.games, self.damaged
        for table in self.query(DataTable):
            table.add_columns("last played (UTC)", *GAME_COLUMNS)
            for game in games:
                mark = self._mark(game.name)
                shown = game.played_text + (f" ({mark})" if mark else "")
                table.add_row(shown, *game_cells(game.record), key=game.name)
        summary = f"{len(games)} games kept, the last played first: Enter opens one, v reviews it."
        if damaged:
            summary += f"; {damaged} damaged files skipped"
        if not games:
            summary = "No games kept yet: every game you play is kept here, move by move."
        self.query_one("#games-summary", Static).update(summary)
        self.query_one("#games-body").query(".games-list").first().focus()

    def action_choose(self, what: str) -> None:
        name = chosen_game(self)
        if name is not None:
            self.dismiss((what, name))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.dismiss(("open", event.row_key.value))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(("open", event.option.id))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
