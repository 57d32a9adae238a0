"""A game on a clock end to end over real ssh: a room made with a time control in the
lobby, the clock on both players' screens and a spectator's, a player who goes, and the
one who stayed claiming the win with a key once the grace is over."""

from __future__ import annotations

import contextlib

import pytest

from tests.serve.served import served
from tests.serve.terminal import screen_session
from tests.serve.test_play_together import LOBBY, SIZE, join, open_room, watch


@pytest.mark.slow  # three ssh sessions on a real server: about 14 s
async def test_a_timed_game_shows_its_clock_to_all_and_a_gone_player_is_claimed(tmp_path):
    grace = ("--grace-least", "1", "--grace-share", "0.001")  # a gone player is waited 1 s
    async with served(tmp_path, "--no-web", *grace) as server, contextlib.AsyncExitStack() as stack:
        ann, bob, cy = [
            await stack.enter_async_context(screen_session(server.ssh_port, name, **SIZE))
            for name in ("ann", "bob", "cy")
        ]
        await ann.wait_for(LOBBY)
        ann.type("mm")  # New room's time control: none, 1+0, 3+2
        await ann.wait_for("New room, 3+2 blitz (r)")
        await join(bob, await open_room(ann))
        await watch(cy)
        for screen in (ann, bob, cy):  # the clock runs for ● once both seats are taken
            await screen.wait_for("Room 1 · 3+2 blitz")
            await screen.wait_for("▸● ann")
        await ann.wait_for("Your turn")
        ann.type("4")
        for screen in (ann, bob, cy):
            await screen.wait_for("▸○ bob")
        await bob.wait_for("Your turn")
        bob.type("4")
        await cy.wait_for("▸● ann")
        bob.conn.close()  # bob goes for good
        said = await ann.wait_for("w claims the win")
        assert "bob is gone" in said
        ann.type("w")
        await ann.wait_for("You win")
        await cy.wait_for("ann ● wins")
    assert "Traceback" not in server.log.decode()
