"""The screen-reader mode over ssh, end to end: a player and a spectator follow a whole
game in a served room from plain lines, with no box drawing and the cursor shown.

The mode is asked by the players' ssh (`SetEnv C4TUI_SCREEN_READER=1`); the other player
plays in the normal mode. Real ssh sessions on a real `c4tui serve`, drawn by pyte.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from c4tui.engine.board.notation import move_name
from tests.serve.served import served
from tests.serve.terminal import ScreenSession, connect, screen_session
from tests.serve.test_play_together import join

SIZE = {"columns": 80, "rows": 24}
CODE = re.compile(r"code ([A-Z0-9]{3}-[A-Z0-9]{3}) to pass on")
GAME = "4545454"  # ● wins in column 4 on the seventh ply
BOX_DRAWING = re.compile("[\u2500-\u257f]")


@contextlib.asynccontextmanager
async def reading_session(port: int, name: str):
    """An ssh player whose ssh asks for the screen-reader mode."""
    async with await connect(port, name) as conn:
        process = await conn.create_process(
            term_type="xterm-256color",
            term_size=(SIZE["columns"], SIZE["rows"]),
            encoding=None,
            env={"C4TUI_SCREEN_READER": "1"},
        )
        session = ScreenSession(process, SIZE["columns"], SIZE["rows"])
        try:
            yield session
        finally:
            process.close()
            session.reader.cancel()


def move_line(ply: int, column: str) -> str:
    row = GAME[:ply].count(column) + 1
    return f"{'●○'[ply % 2]} plays column {column}, row {row}"


@pytest.mark.slow  # three ssh clients and a whole game: ~10 s of CPU
async def test_a_reader_plays_and_a_reader_watches_a_whole_served_game(tmp_path):
    async with served(tmp_path, "--no-web") as server, contextlib.AsyncExitStack() as stack:
        port = server.ssh_port
        ann = await stack.enter_async_context(reading_session(port, "ann"))
        bob = await stack.enter_async_context(screen_session(port, "bob", **SIZE))
        cy = await stack.enter_async_context(reading_session(port, "cy"))
        await ann.wait_for("lobby: you are ann")
        ann.type("room\r")
        code = CODE.search(await ann.wait_for(CODE))[1]
        await join(bob, code)  # waits for the code field's focus before typing
        await cy.wait_for("lobby: you are cy")
        cy.type("watch 1\r")
        await cy.wait_for("you are watching")
        await ann.wait_for("cy is watching")
        for ply, column in enumerate(GAME):
            if ply % 2 == 0:  # after the last move showed on every screen
                ann.type(f"{column}\r")
            else:
                await bob.wait_for("Your turn")
                bob.type(column)
            for reader in (ann, cy):
                await reader.wait_for(move_line(ply, column))
            await bob.wait_for(f"Moves to {move_name(ply)}")
        four = "four in a column, rows 1 to 4 in column 4"
        await ann.wait_for(f"● you win: {four}")
        await cy.wait_for(f"● ann wins: {four}")
        for reader in (ann, cy):
            assert not BOX_DRAWING.search(reader.text())
            assert not reader.screen.cursor.hidden  # the terminal's cursor is shown
            assert reader.screen.cursor.y == SIZE["rows"] - 1  # on the command line
    assert "Traceback" not in server.log.decode()
