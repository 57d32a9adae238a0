"""Several servers on one PostgreSQL, end to end (issue 36): real `c4tui serve` processes
with `--store`, their ssh players' screens drawn by pyte, the database started by the
tests (the `postgres` fixture). The judged scenarios: a player on each server sees the
other online, they meet by automatch and play a rated game a spectator watches, rated
once on both servers' leaderboards; a server killed with SIGKILL mid-game, its player
sent to the other server, and the game goes on there move for move. Also: a server on
PostgreSQL killed and started again brings its game back; two servers answer with one
host key (the lean check of the default run); a player on each plays the other through
a room joined by code, or by a challenge; a browser on one server's web front meets an
ssh player on the other; a clean stop; the relaying server's death; the dead server
started again, while the other holds its room or before its lease ran out.
"""

from __future__ import annotations

import contextlib
import re
import signal

import pytest
from asyncssh import generate_private_key

from tests.serve.browser import browser_tab, needs_chromium
from tests.serve.served import served, two_served
from tests.serve.terminal import connect, screen_session, wait_gone
from tests.serve.test_play_together import (
    GAME,
    LOBBY,
    SIZE,
    client_pids,
    join,
    open_room,
    play,
    watch,
)
from tests.serve.test_rated_automatch import SEATS, meet_and_play_rated

FINGERPRINT = re.compile(r"host key (SHA256:\S+)\)")
SEAT_CODE = re.compile(r"your seat code ([A-Z0-9]{3}-[A-Z0-9]{3})")


async def four_moves(ann, bob) -> None:
    """ann makes a room, bob joins it by its code, and they play GAME's first four moves."""
    await join(bob, await open_room(ann))
    await play(GAME[:4], 1, (ann, bob), (ann, bob))


async def four_moves_shown(screen) -> str:
    """The screen once it shows those four moves, each as it was played."""
    text = await screen.wait_for(re.compile(r"2\.\s+● 4\s+○ 5"))
    assert re.search(r"1\.\s+● 4\s+○ 5", text), text
    return text


async def stopped(server, stop: int) -> None:
    """The server stopped by the signal `stop`, and its client processes gone."""
    clients = client_pids(server)
    await server.stop(stop)
    await wait_gone(*clients)


async def meet_by_automatch(ann, bob) -> tuple[str, str]:
    """Both seek a rated game (f, then Enter: 3+2 blitz, the one offered first); the
    names on the first and second seat of the room they are sent to."""
    for player in (ann, bob):
        await player.press("f")
        await player.wait_for("Find a rated game with")
        player.type("\r")
    first, second = SEATS.search(await ann.wait_for(SEATS)).groups()
    assert SEATS.search(await bob.wait_for(SEATS)).groups() == (first, second)
    return first, second


async def leaderboard(screen, first: str, second: str) -> None:
    """From the room, back to the lobby and its leaderboard (k), as the store has it on
    the screen's server: one game each, rated once (waited for: the board may draw before
    its rows come)."""
    screen.type("\x1b")
    await screen.wait_for(LOBBY)
    screen.type("k")
    board = await screen.wait_for(re.compile(rf"1\s+{first}\s+1662\?\s+\d+\s+1 "))
    assert re.search(rf"2\s+{second}\s+1338\?\s+\d+\s+1 ", board), board


@pytest.mark.slow
async def test_a_game_on_postgresql_comes_back_move_for_move_after_a_sigkill(postgres, tmp_path):
    url = postgres.fresh_url()
    async with served(tmp_path, "--no-web", "--store", url) as server:
        port = server.ssh_port
        async with (
            screen_session(port, "ann", **SIZE) as ann,
            screen_session(port, "bob", **SIZE) as bob,
        ):
            await four_moves(ann, bob)
            await stopped(server, signal.SIGKILL)
    async with served(tmp_path, "--no-web", "--store", url) as server:
        port = server.ssh_port
        async with (
            screen_session(port, "ann", **SIZE) as ann,
            screen_session(port, "bob", **SIZE) as bob,
        ):
            for player in (ann, bob):  # both seats back, every move as it was shown
                text = await four_moves_shown(player)
                assert "Moves to 2 ○" in text
            await play(GAME, 5, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")
    assert "Traceback" not in server.log.decode()


@pytest.mark.slow  # two servers or a whole served app: 4-5 s of the default run
async def test_two_servers_on_one_database_answer_with_the_one_host_key(postgres, tmp_path):
    """The lean check of the default run: two real servers start on one database from one
    key, and an ssh handshake with each (no session, no client process) sees that key."""
    async with two_served(tmp_path, postgres.fresh_url(), "--no-web") as (one, two):
        for server in (one, two):
            shown = FINGERPRINT.search(server.log.decode())[1]
            async with await connect(server.ssh_port) as conn:
                assert conn.get_server_host_key().get_fingerprint("sha256") == shown
        assert FINGERPRINT.search(one.log.decode())[1] == shown
    for server in (one, two):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_killed_servers_game_goes_on_through_the_other_server(postgres, tmp_path):
    """Both players on the first server; it is killed mid-game; they connect to the
    second at once, as a balancer would send them, and sit back down once its lease ran
    out (4 s here: most likely after they reached the lobby, the case a test of the
    service pins, tests/community/test_rooms_taken_over.py); the game goes on move for
    move."""
    flags = ("--no-web", "--lease-seconds", "4")
    async with two_served(tmp_path, postgres.fresh_url(), *flags) as (one, two):
        async with (
            screen_session(one.ssh_port, "ann", **SIZE) as ann,
            screen_session(one.ssh_port, "bob", **SIZE) as bob,
        ):
            await four_moves(ann, bob)
            await stopped(one, signal.SIGKILL)
        async with (
            screen_session(two.ssh_port, "ann", **SIZE) as ann,
            screen_session(two.ssh_port, "bob", **SIZE) as bob,
        ):
            for player in (ann, bob):
                await four_moves_shown(player)
            await play(GAME, 5, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")
    assert "Traceback" not in two.log.decode()


@pytest.mark.slow
async def test_a_player_on_each_server_meets_the_other_and_plays_rated_while_one_watches(
    postgres, tmp_path
):
    """Issue 36's first judged scenario: ann on the first server and bob on the second
    see each other online, meet by automatch and play a rated game that cy, on the
    second, watches; the ratings change once (the leaderboard both servers read)."""
    async with (
        two_served(tmp_path, postgres.fresh_url(), "--no-web") as (one, two),
        contextlib.AsyncExitStack() as stack,
    ):
        ann, bob, cy = [
            await stack.enter_async_context(
                screen_session(server.ssh_port, name, generate_private_key("ssh-ed25519"), **SIZE)
            )
            for server, name in ((one, "ann"), (two, "bob"), (two, "cy"))
        ]
        for player in (ann, bob):
            await player.wait_for(re.compile(r"Online \(3\): ann, bob, cy"))
        first, second = await meet_by_automatch(ann, bob)
        players = {"ann": ann, "bob": bob}
        await cy.wait_for(re.compile(rf"\d+\s+{first}\s+{second}"))  # listed: watch it
        cy.type("w")
        await cy.wait_for("you are watching")
        await play(GAME, 1, (players[first], players[second]), (ann, bob, cy))
        for screen in (ann, bob, cy):
            await screen.wait_for(f"Ratings: {first} 1662 (+162), {second} 1338 (-162).")
        for screen in (cy, ann):  # the board on each server
            await leaderboard(screen, first, second)
    for server in (one, two):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_player_on_each_server_plays_the_other_while_one_watches(postgres, tmp_path):
    """ann makes a room on the first server, bob joins it from the second with its code
    (his requests relayed to the room's server, its news back), cy watches on the first."""
    async with (
        two_served(tmp_path, postgres.fresh_url(), "--no-web") as (one, two),
        screen_session(one.ssh_port, "ann", **SIZE) as ann,
        screen_session(two.ssh_port, "bob", **SIZE) as bob,
        screen_session(one.ssh_port, "cy", **SIZE) as cy,
    ):
        await join(bob, await open_room(ann))
        await watch(cy)
        await play(GAME, 1, (ann, bob), (ann, bob, cy))
        await ann.wait_for("You win with ●!")
        await bob.wait_for("ann ● wins.")
        await cy.wait_for("ann ● wins.")
    for server in (one, two):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "stop"])
async def test_the_room_of_a_killed_server_goes_on_through_the_other_move_for_move(
    postgres, tmp_path, stop
):
    """Issue 36's second judged scenario: ann on the first server plays bob on the
    second in a room the first holds; the first is killed with SIGKILL mid-game (or
    stopped cleanly, which hands the room over at once); ann connects to the second, as
    a balancer would send her, and within the lease (4 s here) the second takes the
    room: both play on from the last move shown. The first starts again, and ann, sent
    back there, plays the last move through it in the room the second now holds."""
    flags = ("--no-web", "--lease-seconds", "4")
    async with (
        two_served(tmp_path, postgres.fresh_url(), *flags) as (one, two),
        screen_session(two.ssh_port, "bob", **SIZE) as bob,
    ):
        async with screen_session(one.ssh_port, "ann", **SIZE) as ann:
            await four_moves(ann, bob)
            codes = [SEAT_CODE.search(player.text())[1] for player in (ann, bob)]
            await stopped(one, stop)
        async with screen_session(two.ssh_port, "ann", **SIZE) as ann:
            for player, code in zip((ann, bob), codes, strict=True):
                await four_moves_shown(player)
                await player.wait_for(
                    "● ann (you)   ○ bob" if player is ann else "● ann   ○ bob (you)"
                )
                assert f"your seat code {code}" in player.text()  # still the seat's key
            await play(GAME[:6], 5, (ann, bob), (ann, bob))
        async with (
            served(one.state_dir, *one.flags) as again,
            screen_session(again.ssh_port, "ann", **SIZE) as ann,
        ):
            text = await ann.wait_for(re.compile(r"3\.\s+● 4\s+○ 5"))
            assert "Moves to 3 ○" in text, text
            await play(GAME, 7, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")
    for server in (two, again):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_rated_game_whose_server_is_killed_goes_on_through_the_other_rated_once(
    postgres, tmp_path
):
    """The two judged scenarios at once: ann on the first server and bob on the second
    meet by automatch; the server that paired them holds the room; cy watches from the
    other. The room's server is killed with SIGKILL mid-game, its player comes back
    through the other, and the game goes on there move for move, on its clock, while cy
    watches; the result is rated once."""
    flags = ("--no-web", "--lease-seconds", "4")
    async with (
        two_served(tmp_path, postgres.fresh_url(), *flags) as (one, two),
        contextlib.AsyncExitStack() as stack,
    ):
        key = {name: generate_private_key("ssh-ed25519") for name in ("ann", "bob", "cy")}
        ann = await stack.enter_async_context(
            screen_session(one.ssh_port, "ann", key["ann"], **SIZE)
        )
        bob = await stack.enter_async_context(
            screen_session(two.ssh_port, "bob", key["bob"], **SIZE)
        )
        for player in (ann, bob):
            await player.wait_for(re.compile(r"Online \(2\): ann, bob"))
        first, second = await meet_by_automatch(ann, bob)
        holder, other = (one, two) if "automatch: " in one.log.decode() else (two, one)
        gone = "ann" if holder is one else "bob"
        cy = await stack.enter_async_context(
            screen_session(other.ssh_port, "cy", key["cy"], **SIZE)
        )
        await cy.wait_for(re.compile(rf"\d+\s+{first}\s+{second}"))
        cy.type("w")
        await cy.wait_for("you are watching")
        players = {"ann": ann, "bob": bob}
        await play(GAME[:4], 1, (players[first], players[second]), (ann, bob, cy))
        await stopped(holder, signal.SIGKILL)
        players[gone] = await stack.enter_async_context(
            screen_session(other.ssh_port, gone, key[gone], **SIZE)
        )
        seated = [players[first], players[second]]
        for screen in (*seated, cy):
            await four_moves_shown(screen)
        await play(GAME, 5, seated, (*seated, cy))
        for screen in (*seated, cy):
            await screen.wait_for(f"Ratings: {first} 1662 (+162), {second} 1338 (-162).")
        await leaderboard(cy, first, second)
    assert "Traceback" not in other.log.decode()


@pytest.mark.slow
async def test_a_killed_relaying_server_s_player_comes_back_through_the_room_s_server(
    postgres, tmp_path
):
    """The other death: the server that relays bob to the room (not the one holding it)
    is killed mid-game; ann plays on where she is, bob's seat is held, and bob, sent to
    the room's server, sits back down there: the game goes on move for move."""
    async with (
        two_served(tmp_path, postgres.fresh_url(), "--no-web", "--lease-seconds", "4") as (
            one,
            two,
        ),
        screen_session(one.ssh_port, "ann", **SIZE) as ann,
    ):
        async with screen_session(two.ssh_port, "bob", **SIZE) as bob:
            await four_moves(ann, bob)
            await stopped(two, signal.SIGKILL)
        await ann.wait_for("bob · dropped, seat held")
        async with screen_session(one.ssh_port, "bob", **SIZE) as bob:
            await four_moves_shown(bob)
            await ann.wait_for("● ann (you)   ○ bob")  # both seats settled: one line
            await play(GAME, 5, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")
    assert "Traceback" not in one.log.decode()


@pytest.mark.slow
async def test_a_player_challenges_one_on_the_other_server_from_the_lobby(postgres, tmp_path):
    """The other way to find someone: ann, on the first server, challenges bob, whom her
    lobby lists online on the second (c, his name offered; Enter); he accepts (y) and both
    sit down in one rated room."""
    async with (
        two_served(tmp_path, postgres.fresh_url(), "--no-web") as (one, two),
        screen_session(one.ssh_port, "ann", generate_private_key("ssh-ed25519"), **SIZE) as ann,
        screen_session(two.ssh_port, "bob", generate_private_key("ssh-ed25519"), **SIZE) as bob,
    ):
        await ann.wait_for(re.compile(r"Online \(2\): ann, bob"))
        ann.type("c")
        await ann.wait_for("Challenge a player")
        await ann.wait_for(re.compile(r"▊\s+bob\s+▎"))  # his name offered in the field
        ann.type("\r")
        await ann.wait_for("You challenged bob: 3+2 blitz, rated")
        await bob.wait_for("ann challenges you: 3+2 blitz, rated")
        bob.type("y")
        seats = SEATS.search(await ann.wait_for(SEATS)).groups()
        assert SEATS.search(await bob.wait_for(SEATS)).groups() == seats
        assert sorted(seats) == ["ann", "bob"]
    for server in (one, two):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_killed_server_back_before_its_lease_ran_out_plays_its_room_on(postgres, tmp_path):
    """The room's server is killed and started again at once (a supervisor's restart),
    well within its lease (30 s here): it holds its room again, bob's relay from the
    other server finds it, and ann, sent to the other server, plays on through it."""
    flags = ("--no-web", "--lease-seconds", "30")
    async with (
        two_served(tmp_path, postgres.fresh_url(), *flags) as (one, two),
        screen_session(two.ssh_port, "bob", **SIZE) as bob,
    ):
        async with screen_session(one.ssh_port, "ann", **SIZE) as ann:
            await four_moves(ann, bob)
            await stopped(one, signal.SIGKILL)
        async with (
            served(one.state_dir, *one.flags) as again,
            screen_session(two.ssh_port, "ann", **SIZE) as ann,
        ):
            await four_moves_shown(ann)
            await play(GAME, 5, (ann, bob), (ann, bob))
            await bob.wait_for("ann ● wins.")
    for server in (again, two):
        assert "Traceback" not in server.log.decode()


@pytest.mark.slow
async def test_a_browser_on_one_server_meets_an_ssh_player_on_the_other(postgres, tmp_path):
    """The web front spans the servers too: a visitor of the first server's page and an
    ssh player on the second meet by automatch and play a rated game to its end."""
    needs_chromium()
    async with (
        two_served(tmp_path, postgres.fresh_url()) as (one, two),
        screen_session(two.ssh_port, "ann", generate_private_key("ssh-ed25519"), **SIZE) as ann,
        browser_tab(f"http://127.0.0.1:{one.web_port}/") as tab,
    ):
        await meet_and_play_rated(ann, tab)
    for server in (one, two):
        assert "Traceback" not in server.log.decode()
