"""A Swiss tournament end to end over ssh: a real `c4tui serve`, its screens drawn by pyte.

ann makes a three-round Swiss on the tournaments screen, bob and cy enter it, ann
begins it; eve follows it and watches each round's game from its row. Each game is played
with keys; its last move and result stay on its players' screens through the pause
between rounds ("round 2 starts in ..."), then round 2 takes its players to their new
room; after the last the standings are final. Three players: a game and a bye a round.
Then the same across two servers on one PostgreSQL database (issue 36): made on one,
entered and followed on the other, played through the room's server.
Slow (real servers and ssh sessions, whole games): the default run checks the same
through the service and the app (tests/rooms/test_tournaments.py,
tests/app/test_tournament_screen.py, tests/community/test_tournaments_on_postgresql.py).
"""

from __future__ import annotations

import contextlib
import re

import asyncssh
import pytest

from tests.serve.served import served, two_served
from tests.serve.terminal import ScreenSession, screen_session
from tests.serve.test_play_together import GAME, LOBBY, SIZE, play

pytestmark = pytest.mark.slow
# The games of a round on the tournament screen: round, ● and ○ (names are cut at 9).
BOARD = r"│\s*{round}\s+(\w+)\s+(\w+)\s+(?:waiting|at )"


async def tournaments(screen: ScreenSession) -> None:
    """From the lobby to the tournaments screen, its keys in the footer."""
    await screen.wait_for(LOBBY)
    screen.type("t")
    await screen.wait_for("m Make one")


async def pairing(eve: ScreenSession, round_number: int) -> tuple[str, str]:
    """The round's one game as eve's tournament screen lists it: (●, ○)."""
    found = re.compile(BOARD.format(round=round_number))
    first, second = found.search(await eve.wait_for(found)).groups()
    return first, second


async def test_a_swiss_over_ssh_pauses_between_rounds_and_ends_with_its_standings(tmp_path):
    async with (
        served(tmp_path, "--no-web", "--round-pause", "3") as server,
        contextlib.AsyncExitStack() as stack,
    ):
        screens = {
            name: await stack.enter_async_context(
                screen_session(
                    server.ssh_port, name, asyncssh.generate_private_key("ssh-ed25519"), **SIZE
                )
            )
            for name in ("ann", "bob", "cy", "eve")
        }
        ann, eve = screens["ann"], screens["eve"]
        await tournaments(ann)
        ann.type("n")  # the new one's name; its control (5+3), rounds (3), minutes as offered
        await ann.wait_for(re.compile(r"esc Lobby\s+▏"))  # the keys go to the field now
        ann.type("Night Swiss")
        await ann.wait_for("│Night Swiss")
        ann.type("\r")
        await ann.wait_for(re.compile(r"Night Swiss\s+5\+3\s+3\s+✓ starts"))
        for name in ("bob", "cy"):
            await tournaments(screens[name])
            await screens[name].wait_for("Night Swiss")
            screens[name].type("e")
            await screens[name].wait_for("you are in it")
        await tournaments(eve)
        await eve.wait_for("3 players")
        ann.type("b")
        for round_number in (1, 2, 3):
            first, second = await pairing(eve, round_number)
            eve.type("w")  # the latest round's game is the first row
            await eve.wait_for("you are watching")
            players = (screens[first], screens[second])
            await play(GAME, 1, players, (*players, eve))
            await eve.wait_for(f"{first} ● wins.")
            if round_number == 1:
                # The result stays in its room through the pause, told when round 2 starts.
                shown = await screens[second].wait_for("Night Swiss: round 2 starts in")
                assert f"{first} ● wins." in shown
            eve.type("\x1b")
            await tournaments(eve)
        final = await eve.wait_for("final standings")
        # Three rounds of three: each played two games and had a bye; ● won every game.
        assert re.findall(r"│\s*\d\s+\w+\s+(\d)\s", final) == ["2", "2", "2"], final
    assert "Traceback" not in server.log.decode()


async def test_a_swiss_spans_two_servers_on_one_database(postgres, tmp_path):
    """ann makes it on one server; bob enters it on the other, where eve follows it; the
    game (one round of two) is played through the room's server and watched from the
    other, and both servers show the final standings."""
    async with (
        two_served(tmp_path, postgres.fresh_url(), "--no-web") as (one, two),
        contextlib.AsyncExitStack() as stack,
    ):
        where = {"ann": one, "bob": two, "eve": two}
        screens = {
            name: await stack.enter_async_context(
                screen_session(
                    server.ssh_port, name, asyncssh.generate_private_key("ssh-ed25519"), **SIZE
                )
            )
            for name, server in where.items()
        }
        ann, bob, eve = screens["ann"], screens["bob"], screens["eve"]
        await tournaments(ann)
        ann.type("n")
        await ann.wait_for(re.compile(r"esc Lobby\s+▏"))
        ann.type("Two Servers")
        await ann.wait_for("│Two Servers")
        ann.type("\r")
        await ann.wait_for(re.compile(r"Two Servers\s+5\+3\s+3\s+✓ starts"))
        await tournaments(bob)
        await bob.wait_for("Two Servers")  # listed on the other server
        bob.type("e")
        await bob.wait_for("you are in it")
        await tournaments(eve)
        await eve.wait_for("2 players")
        ann.type("b")
        first, second = await pairing(eve, 1)
        eve.type("w")
        await eve.wait_for("you are watching")
        players = (screens[first], screens[second])
        await play(GAME, 1, players, (*players, eve))
        await eve.wait_for(f"{first} ● wins.")
        eve.type("\x1b")
        await tournaments(eve)
        await eve.wait_for("final standings")
        ann.type("\x1b")
        await tournaments(ann)
        await ann.wait_for("final standings")
    for server in (one, two):
        assert "Traceback" not in server.log.decode()
