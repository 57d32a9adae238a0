"""Served play end to end: real ssh sessions, drawn by pyte, on a real `c4tui serve`.

Two players pair through a room code and play a whole game while a third watches; one
player's connection dies mid-game and the same key finds its seat again; Ctrl-C's
SIGTERM tells everyone and leaves no process behind; a SIGKILLed server brings the
game back, move for move (slow).
"""

from __future__ import annotations

import contextlib
import re
import signal

import asyncssh
import pytest

from c4tui.engine.board.notation import move_name
from tests.serve.browser import browser_tab, needs_chromium
from tests.serve.served import served
from tests.serve.terminal import screen_session, wait_gone

CODE = re.compile(r"code ([A-Z0-9]{3}-[A-Z0-9]{3})")
LOBBY = "Play together"
CODE_FIELD = re.compile(r"\n +▏\^p palette\Z")  # the key bar while a field is typed in
# ● plays column 4 four times, ○ column 5 three times: ● wins on the seventh ply.
GAME = "4545454"
SIZE = {"columns": 120, "rows": 40}


async def open_room(host) -> str:
    """The host makes a room for two in the lobby; the code to pass on."""
    await host.wait_for(LOBBY)
    host.type("r")
    return CODE.search(await host.wait_for("your seat code"))[1]


async def join(guest, code: str) -> None:
    await guest.wait_for(LOBBY)
    guest.type("j")
    # The code field has the keys once the key bar is bare; any redraw is not enough: a
    # lobby update (another server's room, say) may come first, and the code's letters
    # would go to the lobby's keys.
    await guest.wait_for(CODE_FIELD)
    guest.type(code)
    await guest.wait_for(code)
    guest.type("\r")
    await guest.wait_for("you are playing")


async def watch(spectator) -> None:
    """The spectator watches the room the lobby lists first."""
    await spectator.wait_for(LOBBY)
    spectator.type("w")
    await spectator.wait_for("you are watching")


async def play(game: str, first: int, players, screens) -> None:
    """Play `game`'s moves from ply `first` (1-based), each seen on every screen."""
    for ply, column in enumerate(game[first - 1 :], start=first):
        mover = players[(ply - 1) % 2]
        await mover.wait_for("Your turn")
        mover.type(column)
        for screen in screens:
            await screen.wait_for(f"Moves to {move_name(ply - 1)}")


def client_pids(server) -> list[int]:
    return server.client_pids()


async def test_two_play_a_whole_game_while_a_third_watches_then_all_are_told_of_the_stop(
    tmp_path,
):
    async with served(tmp_path, "--no-web") as server, contextlib.AsyncExitStack() as stack:
        ann, bob, cy = [
            await stack.enter_async_context(screen_session(server.ssh_port, name, **SIZE))
            for name in ("ann", "bob", "cy")
        ]
        await join(bob, await open_room(ann))
        await watch(cy)
        await play(GAME, 1, (ann, bob), (ann, bob, cy))
        assert "You win with ●!" in await ann.wait_for("You win")
        await bob.wait_for("ann ● wins.")
        await cy.wait_for("ann ● wins.")

        assert f"ssh -p {server.ssh_port} 127.0.0.1" in server.log.decode()
        clients = client_pids(server)
        assert len(clients) == 3
        assert await server.stop(signal.SIGTERM) == 0
        for session in (ann, bob, cy):
            await session.wait_end()
            assert "server is stopping" in session.raw.decode(errors="replace")
        await wait_gone(*clients)
    assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_player_whose_connection_dies_comes_back_to_the_seat_by_key(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with served(tmp_path, "--no-web") as server, contextlib.AsyncExitStack() as stack:
        port = server.ssh_port
        ann = await stack.enter_async_context(screen_session(port, "ann", **SIZE))
        bob = await stack.enter_async_context(screen_session(port, "bob", key, **SIZE))
        await join(bob, await open_room(ann))
        await play(GAME[:3], 1, (ann, bob), (ann, bob))
        client = client_pids(server)[-1]
        bob.conn.abort()  # as if bob's ssh process were killed mid-game
        await ann.wait_for("dropped, seat held")
        await wait_gone(client)
        # Another name, the same key: straight back to the seat, the game as it was.
        async with screen_session(port, "robert", key, **SIZE) as bob:
            await bob.wait_for("Moves to 2 ●")
            await ann.wait_for("● ann (you)   ○ bob")  # both seats settled: one line
            await play(GAME, 4, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")


@pytest.mark.slow
async def test_a_game_comes_back_move_for_move_after_the_server_is_killed(tmp_path):
    async with served(tmp_path, "--no-web") as server:
        port = server.ssh_port
        async with (
            screen_session(port, "ann", **SIZE) as ann,
            screen_session(port, "bob", **SIZE) as bob,
        ):
            await join(bob, await open_room(ann))
            await play("4455", 1, (ann, bob), (ann, bob))
            clients = client_pids(server)
            await server.stop(signal.SIGKILL)
            await wait_gone(*clients)
    async with served(tmp_path, "--no-web") as server:
        assert not list((tmp_path / "clients").iterdir())
        async with screen_session(server.ssh_port, "ann", **SIZE) as ann:
            text = await ann.wait_for(re.compile(r"2\.\s+● 5\s+○ 5"))
            assert "Moves to 2 ○" in text
            assert re.search(r"1\.\s+● 4\s+○ 4", text)


async def test_a_browser_shows_the_lobby_plays_a_move_and_a_reload_is_back_in_the_game(
    tmp_path,
):
    needs_chromium()
    async with served(tmp_path, "--no-ssh", "--max-ai-seconds", "0.1") as server:
        url = f"http://127.0.0.1:{server.web_port}/"
        async with browser_tab(url) as tab:
            await tab.wait_for(LOBBY)
            await tab.press("a")  # play the AI at the lobby's level
            await tab.wait_for("Your turn")
            await tab.press("4")
            # The AI answers: two moves, both drawn in the browser.
            await tab.wait_for("Moves to 1 ○")
            # A reload is the same player (its cookie): back in the game, not the lobby.
            await tab.page.reload()
            await tab.wait_for("Moves to 1 ○")
            await tab.wait_for("Your turn")
            assert all(request.startswith(url) for request in tab.requests)
