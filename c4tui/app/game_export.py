"""Taking a game home from a server: its game file, or its gamesolver.org link.

Over ssh, `c` and `l` copy them to the player's own clipboard (Textual sends OSC 52,
which the terminal at the far end of the connection acts on; the server's files are
never touched). In a browser `d` downloads the game file (Textual's delivery, which the
web front serves once at a private address). `c4tui --load FILE` opens the file.
"""

from __future__ import annotations

import io

from textual.app import App

from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.notation import link_of
from c4tui.records.kept_games import SUFFIX

SITE_BOARD = (7, 6, 4)  # the only board gamesolver.org plays


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
