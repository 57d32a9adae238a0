"""Three new users over ssh, as issue 33 judges the community: a name cannot be taken
over; two players find each other through automatch and play a rated blitz game with
clocks that both screens and a spectator show; the ratings change; the leaderboard
lists them. One lean test on a real `c4tui serve`, its screens drawn by pyte; slow (four
ssh sessions and a whole game: 18 s on a loaded machine), so the default run checks
the same through the service and the app (tests/rooms/test_matchmaking.py,
tests/app/test_lobby_matchmaking.py)."""

from __future__ import annotations

import contextlib
import re

import asyncssh
import pytest

from c4tui.engine.board.notation import move_name
from tests.serve.browser import browser_tab, needs_chromium
from tests.serve.served import served
from tests.serve.terminal import screen_session
from tests.serve.test_play_together import GAME, LOBBY, SIZE, play

pytestmark = pytest.mark.slow
SEATS = re.compile(r"Room \d+ · ([\w-]+) ●  vs  ([\w-]+) ○ · rated")


async def test_two_new_players_meet_by_automatch_play_rated_blitz_and_top_the_leaderboard(
    tmp_path,
):
    async with served(tmp_path, "--no-web") as server, contextlib.AsyncExitStack() as stack:
        port = server.ssh_port
        ann, bob, cy = [
            await stack.enter_async_context(
                screen_session(port, name, asyncssh.generate_private_key("ssh-ed25519"), **SIZE)
            )
            for name in ("ann", "bob", "cy")
        ]
        # Another key cannot take ann's name.
        impostor = asyncssh.generate_private_key("ssh-ed25519")
        async with screen_session(port, "ann", impostor, **SIZE) as other:
            await other.wait_for("the name ann belongs to another ssh key")
        for player in (ann, bob):  # f: find a game; Enter: 3+2 blitz, the one offered first
            await player.wait_for(LOBBY)
            await player.press("f")
            await player.wait_for("Find a rated game with")
            player.type("\r")
        first, second = SEATS.search(await ann.wait_for(SEATS)).groups()
        players = {"ann": ann, "bob": bob}
        await cy.wait_for(re.compile(rf"1\s+{first}\s+{second}"))  # the room listed: watch it
        cy.type("w")
        await cy.wait_for("you are watching")
        for screen in (ann, bob, cy):  # the clocks, on both screens and the spectator's
            await screen.wait_for("3+2 blitz")
            await screen.wait_for(re.compile(rf"○ {second} 3:00"))
        await play(GAME, 1, (players[first], players[second]), (ann, bob, cy))
        for screen in (ann, bob, cy):
            await screen.wait_for(f"Ratings: {first} 1662 (+162), {second} 1338 (-162).")
        cy.type("\x1b")  # back to the lobby: k, the leaderboard
        await cy.wait_for(LOBBY)
        cy.type("k")
        # The board's rows, not its title: a loaded machine paints the modal in pieces,
        # and the title alone came before the rows (the full slow run, load 2-3).
        board = await cy.wait_for(re.compile(rf"2\s+{second}\s+1338\?"))
        assert re.search(rf"1\s+{first}\s+1662\?", board), board
    assert not server.tracebacks(), server.tracebacks()


async def test_a_browser_player_meets_an_ssh_player_by_automatch_in_a_rated_game(tmp_path):
    """The same screens in a browser: its player finds the ssh player, both see the
    clocks, and the rated result moves both ratings."""
    needs_chromium()
    async with (
        served(tmp_path) as server,
        screen_session(
            server.ssh_port, "ann", asyncssh.generate_private_key("ssh-ed25519"), **SIZE
        ) as ann,
        browser_tab(f"http://127.0.0.1:{server.web_port}/") as tab,
    ):
        await meet_and_play_rated(ann, tab)
    assert "Traceback" not in server.log.decode()


async def meet_and_play_rated(ann, tab) -> None:
    """ann over ssh and a browser tab find each other by automatch (3+2 blitz), both see
    the clocks, play GAME, and both see the rated result."""
    await ann.wait_for(LOBBY)
    await ann.press("f")
    await ann.wait_for("Find a rated game with")
    ann.type("\r")
    await tab.wait_for(LOBBY)
    await tab.press("f")
    await tab.wait_for("Find a rated game with")
    await tab.press("Enter")
    first, second = SEATS.search(await ann.wait_for(SEATS)).groups()
    await tab.wait_for(f"{second} 3:00")
    await ann.wait_for(f"{second} 3:00")
    for ply, column in enumerate(GAME):
        mover = (first, second)[ply % 2]
        if mover == "ann":
            await ann.wait_for("Your turn")
            ann.type(column)
        else:
            await tab.wait_for("Your turn")
            await tab.press(column)
        await ann.wait_for(f"Moves to {move_name(ply)}")
    await tab.wait_for(f"Ratings: {first} 1662 (+162), {second} 1338 (-162).")
    await ann.wait_for(f"Ratings: {first} 1662 (+162), {second} 1338 (-162).")
