"""Taking a game home from a server: its game file, or its gamesolver.org link.

Over ssh, `c` and `l` copy them to the player's own clipboard (Textual sends OSC 52,
which the terminal at the far end of the connection acts on; the server's files are
never touched). In a browser `d` downloads the game file (Textual's delivery, which the
web front serves once at a private address). `c4tui --load FILE` opens the file. In a
room whose game is over, `e` does the same for the room's game, for its players and
its spectators alike.
"""

from __future__ import annotations

import io

from textual.app import App

from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.engine.board.notation import link_of
from c4tui.match.room_view import RoomView
from c4tui.records.kept_games import SUFFIX

SITE_BOARD = (7, 6, 4)  # the only board gamesolver.org plays


def record_of_room(room: RoomView) -> GameRecord:
    """The game a room shows, as its game file holds it: each side by name or engine spec,
    when it began (not when it was exported), and how it ended off the board, if it did."""
    ended = None
    if room.ended is not None:
        try:
            ended = Ending(room.ended, room.winner)
        except ValueError:  # an ending this c4tui's files do not know: the moves still tell
            ended = None
    players = (room.seats[0].ai or room.seats[0].name, room.seats[1].ai or room.seats[1].name)
    return GameRecord.of(room.position, players, room.date or None, ended=ended)


def export_room_game(app: App[object], room: RoomView) -> None:
    """A finished room's game: downloaded in a browser, else copied to the clipboard."""
    record = record_of_room(room)
    name = f"room{room.number}-{record.date.replace(':', '').replace('-', '')}"
    if app.is_web:
        download_game_file(app, name, record)
    else:
        copy_game_file(app, name, record)


def link_of_game(record: GameRecord) -> str | None:
    """The game's gamesolver.org link, None on a board the site does not play."""
    if (record.width, record.height, record.connect) != SITE_BOARD:
        return None
    return link_of(record.moves)


def copy_game_file(app: App[object], name: str, record: GameRecord) -> None:
    app.copy_to_clipboard(record.to_text())
    app.notify(
        f"Copied the game file of {name}: paste it into a file, and c4tui --load FILE opens it.",
        title="Clipboard",
        timeout=6,
    )


def copy_game_link(app: App[object], record: GameRecord) -> None:
    link = link_of_game(record)
    if link is None:
        app.notify("gamesolver.org plays only 7x6, four in a row: c copies the game file.")
        return
    app.copy_to_clipboard(link)
    app.notify(f"Copied the link: {link}", title="Clipboard", timeout=6)


def download_game_file(app: App[object], name: str, record: GameRecord) -> None:
    """The game file as a download (in a browser: a terminal copies instead)."""
    app.deliver_text(io.StringIO(record.to_text()), save_filename=f"{name}{SUFFIX}")
    app.notify(f"Downloading {name}{SUFFIX}: c4tui --load opens it.", timeout=6)
