"""A bot seeks through automatch (POST /api/bot/seek): paired with a person as people
are, rated, and told of its game on its account stream."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from c4tui.cli import main
from c4tui.server.wire.matchmaking_messages import Seek
from tests.rooms.support import PATIENCE, login, next_of, room_where
from tests.rooms.test_bots import bot_api, post, stream, token_of


async def test_a_bot_seeks_and_meets_a_person_in_a_rated_game(tmp_path):
    async with bot_api(tmp_path) as (service, http):
        alpha = token_of(service, "ann", "alpha")
        status, answer = await post(http, "/seek?clock=3%2B2", alpha)
        assert status == 409 and "account stream" in answer["error"]
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        assert (await post(http, "/seek?clock=3+2", alpha))[0] == 400  # a + unescaped: "3 2"
        assert (await post(http, "/seek", alpha))[0] == 400
        assert (await post(http, "/seek?clock=3%2B2", alpha))[0] == 200

        dan = await login(service, "dan")
        await dan.send(Seek("3+2"))
        room = await room_where(dan, lambda m: m["seat"] is not None)
        assert room["rated"] and "BOT alpha" in [s["name"] for s in room["seats"]]
        number = room["room"]
        assert (await events.next("gameStart"))["room"] == number
        # The account stream stays out of the room; the game's stream is the bot there.
        assert all(c.room is None for c in service.bots.accounts.values())
        bot_seat = 1 - room["seat"]
        game = await stream(http, f"/game/{number}/stream", alpha)
        full = await game.next("gameFull")
        assert full["seat"] == bot_seat and full["clock"]["control"] == "3+2"

        # The game ends rated: both have a blitz rating.
        assert (await post(http, f"/game/{number}/resign", alpha))[0] == 200
        ratings = await next_of(dan, "notice", lambda m: m["text"].startswith("Ratings:"))
        assert "alpha" in ratings["text"] and "dan" in ratings["text"]
        await dan.close()


async def test_a_bot_that_stops_seeking_is_not_paired(tmp_path):
    async with bot_api(tmp_path) as (service, http):
        alpha = token_of(service, "ann", "alpha")
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        assert (await post(http, "/seek?clock=1%2B0", alpha))[0] == 200
        assert (await post(http, "/seek/cancel", alpha))[0] == 200
        dan = await login(service, "dan")
        await dan.send(Seek("1+0"))
        waiting = await next_of(dan, "seeking", lambda m: m["control"] == "1+0")
        assert waiting["waiting"] == 0
        await dan.close()


async def test_a_bot_paired_that_never_opens_its_game_loses_it(tmp_path, monkeypatch):
    # Colours drawn so that dan, who seeks second, plays first.
    drawn = SimpleNamespace(randbelow=lambda n: 1)
    monkeypatch.setattr("c4tui.server.desks.matchmaking.secrets", drawn)
    async with bot_api(tmp_path, seat_hold=0.5) as (service, http):
        alpha = token_of(service, "ann", "alpha")
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        assert (await post(http, "/seek?clock=5%2B3", alpha))[0] == 200
        dan = await login(service, "dan")
        await dan.send(Seek("5+3"))
        await events.next("gameStart")  # and the bot's program never follows it
        room = await room_where(dan, lambda m: m["seat"] == 0 and m["seats"][1]["held"])
        assert 0 < room["seats"][1]["held"] <= 0.5  # its seat waits for its stream
        await dan.send("drop", column=3, ply=0)
        end = await room_where(dan, lambda m: m["over"])
        assert end["ended"] == "forfeit" and end["winner"] == 0
        await dan.close()


async def test_c4tui_bot_seeks_plays_and_stops_after_its_games(tmp_path, capsys):
    async with bot_api(tmp_path) as (service, http):
        _, token = service.bots.tokens.make("ssh-name:ann", "alpha")
        url = str(http.make_url("")).rstrip("/")
        argv = ["bot", "--server", url, "--token", token, "--engine", "greedy"]
        bot = asyncio.create_task(asyncio.to_thread(main, [*argv, "--seek", "1+0", "--games", "1"]))
        dan = await login(service, "dan")
        await next_of(dan, "lobby", lambda m: m["bots"] == ["alpha"])
        await dan.send(Seek("1+0"))
        room = await room_where(dan, lambda m: m["seat"] is not None)
        if room["seat"] == 1:  # the bot moves first: its move shows it plays
            await room_where(dan, lambda m: len(m["moves"]) == 1)
        await dan.send("resign")
        assert await asyncio.wait_for(bot, PATIENCE) == 0
        for feed in service.bots.accounts.values():  # as the process's end would close it
            feed.close()
        assert "seeking a 1+0 game" in capsys.readouterr().err
        await dan.close()


async def test_a_bot_with_a_game_not_begun_may_not_seek_another(tmp_path):
    """Paired, before the first move: its game is on, so a new seek is refused (409) and
    its seat in that game stays its own."""
    async with bot_api(tmp_path) as (service, http):
        alpha = token_of(service, "ann", "alpha")
        events = await stream(http, "/stream", alpha)
        await events.next("online")
        assert (await post(http, "/seek?clock=3%2B2", alpha))[0] == 200
        dan = await login(service, "dan")
        await dan.send(Seek("3+2"))
        room = await room_where(dan, lambda m: m["seat"] is not None)
        assert (await events.next("gameStart"))["room"] == room["room"]
        status, answer = await post(http, "/seek?clock=3%2B2", alpha)
        assert status == 409 and "game" in answer["error"], answer
        eve = await login(service, "eve")
        await eve.send(Seek("3+2"))
        waiting = await next_of(eve, "seeking", lambda m: m["control"] == "3+2")
        assert waiting["waiting"] == 0
        assert "BOT alpha" in [seat.title() for seat in service.host.rooms[room["room"]].seats]
        for client in (dan, eve):
            await client.close()
