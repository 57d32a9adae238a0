"""Bots across two servers on one PostgreSQL database (server/desks/bots_across.py): a bot
connected to one server is online in the other's lobby, and a person there challenges
it; the bot answers through its own server, which opens the room."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from c4tui.server.fronts.bot_api import BotApi
from c4tui.server.wire.matchmaking_messages import Seek
from c4tui.server.wire.people_messages import ChallengeBot
from tests.community.two_servers import two_servers
from tests.rooms.support import login, next_of, room_where
from tests.rooms.test_bots import post, stream, token_of


@contextlib.asynccontextmanager
async def bot_on_first(postgres, tmp_path) -> AsyncIterator[tuple[Any, Any, TestClient]]:
    """Two servers; the first one's bot API over HTTP."""
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        app = web.Application()
        app.add_routes(BotApi(first.bots).routes())
        async with TestClient(TestServer(app)) as http:
            yield first, second, http


def bots(*names: str):
    return lambda m: m["bots"] == list(names)


async def test_a_person_on_the_other_server_sees_the_bot_and_plays_it_there(postgres, tmp_path):
    async with bot_on_first(postgres, tmp_path) as (first, second, http):
        alpha = token_of(first, "ann", "alpha")
        dan, eve = await login(second, "dan"), await login(second, "eve")
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        lobby = await next_of(dan, "lobby", bots("alpha"))
        assert "alpha" not in lobby["online"]

        await dan.send(ChallengeBot("Alpha"))  # dan plays first
        challenge = await events.next("challenge")
        assert challenge["from"] == {"name": "dan", "bot": False}
        assert challenge["color"] == "second"
        status, accepted = await post(http, f"/challenge/{challenge['id']}/accept", alpha)
        assert status == 200, accepted
        number = accepted["room"]
        assert number in first.host.rooms and second.host.rooms == {}
        # dan is summoned into the first server's room, through his own.
        shown = await room_where(dan, lambda m: m["room"] == number)
        assert shown["seat"] == 0 and shown["seats"][1]["name"] == "BOT alpha"
        game = await stream(http, f"/game/{number}/stream", alpha)
        assert (await game.next("gameFull"))["seat"] == 1

        await dan.send("drop", column=3, ply=0)
        assert (await game.next("gameState"))["moves"] == "4"
        assert (await post(http, f"/game/{number}/move/4?ply=1", alpha))[0] == 200
        await room_where(dan, lambda m: m["moves"] == "44")

        # The bot's account stream ends: it leaves the other server's lobby.
        events.response.close()
        await next_of(eve, "lobby", bots())
        for client in (dan, eve):
            await client.close()


async def test_a_declined_or_refused_challenge_is_told_on_the_challenger_s_server(
    postgres, tmp_path
):
    async with bot_on_first(postgres, tmp_path) as (first, second, http):
        alpha = token_of(first, "ann", "alpha")
        dan = await login(second, "dan")
        events = await stream(http, "/stream", alpha)
        await next_of(dan, "lobby", bots("alpha"))
        await dan.send(ChallengeBot("alpha"))
        challenge = await events.next("challenge")
        assert (await post(http, f"/challenge/{challenge['id']}/decline", alpha))[0] == 200
        await next_of(dan, "notice", lambda m: m["text"] == "BOT alpha declines your challenge.")
        # A board the bot's server refuses: the reason comes back over the bus.
        await dan.send(ChallengeBot("alpha", width=4, height=4, connect=6))
        await next_of(dan, "notice", lambda m: m["text"] == "connect 6 cannot fit on a 4x4 board")
        # A challenger who has left the other server by the time the bot accepts.
        await dan.send(ChallengeBot("alpha"))
        challenge = await events.next("challenge")
        eve = await login(second, "eve")  # sees dan go: his presence is gone by then
        await dan.close()
        await next_of(eve, "lobby", lambda m: "dan" not in m["online"])
        status, answer = await post(http, f"/challenge/{challenge['id']}/accept", alpha)
        assert status == 409 and "gone" in answer["error"] and first.host.rooms == {}
        # A bot on the second server cannot challenge one on the first.
        beta = token_of(second, "bob", "beta")
        app = web.Application()
        app.add_routes(BotApi(second.bots).routes())
        async with TestClient(TestServer(app)) as there:
            status, answer = await post(there, "/challenge/alpha", beta)
        assert status == 409 and "another server" in answer["error"]
        events.response.close()
        await eve.close()


async def test_a_bot_seeking_on_one_server_meets_a_person_of_the_other_there(postgres, tmp_path):
    async with bot_on_first(postgres, tmp_path) as (first, second, http):
        alpha = token_of(first, "ann", "alpha")
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        dan = await login(second, "dan")
        await next_of(dan, "lobby", bots("alpha"))
        assert (await post(http, "/seek?clock=3%2B2", alpha))[0] == 200
        await dan.send(Seek("3+2"))  # only the bot's server pairs it: it plays there
        number = (await events.next("gameStart"))["room"]
        assert number in first.host.rooms and second.host.rooms == {}
        shown = await room_where(dan, lambda m: m["room"] == number and m["seat"] is not None)
        assert shown["rated"] and "BOT alpha" in [s["name"] for s in shown["seats"]]
        game = await stream(http, f"/game/{number}/stream", alpha)
        assert (await game.next("gameFull"))["seat"] == 1 - shown["seat"]
        events.response.close()
        await dan.close()
