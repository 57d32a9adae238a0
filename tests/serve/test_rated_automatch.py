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

from tests.serve.served import served
from tests.serve.terminal import screen_session
from tests.serve.test_play_together import GAME, LOBBY, SIZE, play

pytestmark = pytest.mark.slow
SEATS = re.compile(r"Room \d+ · (\w+) ●  vs  (\w+) ○ · rated")


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
        await cy.wait_for(f"{first}")  # the lobby lists the room: watch it
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
        board = await cy.wait_for("Top players")
        assert re.search(rf"1\s+{first}\s+1662\?", board), board
        assert re.search(rf"2\s+{second}\s+1338\?", board), board
    assert "Traceback" not in server.log.decode()
