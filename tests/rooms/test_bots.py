"""Bots on the server, in process: the bot API (server/fronts/bot_api.py) over a real room
service, two bots playing through HTTP while a person watches over the room protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from c4tui.engine.board.position import Position
from c4tui.engine.external.protocol import info_lines
from c4tui.engine.players.specs import make_engine
from c4tui.server.fronts.bot_api import WRONG_TOKENS, BotApi
from c4tui.server.service.service import RoomService
from c4tui.server.wire.identity import RoomLimits
from c4tui.server.wire.matchmaking_messages import MakeChallenge
from c4tui.server.wire.people_messages import AskProfile, ChallengeBot, MakeBotToken
from c4tui.server.wire.protocol import Watch
from tests.rooms.support import PATIENCE, Time, login, next_of, room_where, running


@contextlib.asynccontextmanager
async def bot_api(
    tmp_path, now: Time | None = None, **limits: Any
) -> AsyncIterator[tuple[Any, TestClient]]:
    async with running(tmp_path / "state", now, **limits) as service:
        api = BotApi(service.bots)
        app = web.Application(middlewares=[api.unknown_routes])
        app.add_routes(api.routes())
        async with TestClient(TestServer(app)) as http:
            yield service, http


def token_of(service, owner: str, name: str) -> dict[str, str]:
    _, token = service.bots.tokens.make(f"ssh-name:{owner}", name)
    return {"Authorization": f"Bearer {token}"}


class Stream:
    """An NDJSON stream of the API, read an event at a time."""

    def __init__(self, response) -> None:
        self.response = response

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        async def look() -> dict[str, Any]:
            while True:
                line = await self.response.content.readline()
                if not line:
                    raise ConnectionError(f"the stream ended waiting for {kind}")
                if line.strip():
                    event = json.loads(line)
                    if kind is None or event["type"] == kind:
                        return event

        return await asyncio.wait_for(look(), PATIENCE)

    async def end(self) -> dict[str, Any]:
        """The game's last state (the stream ends after it)."""
        state = await self.next("gameState")
        while not state["over"]:
            state = await self.next("gameState")
        return state


async def stream(http: TestClient, path: str, headers) -> Stream:
    response = await http.get(f"/api/bot{path}", headers=headers)
    assert response.status == 200, await response.text()
    return Stream(response)


async def post(http: TestClient, path: str, headers, body: str | bytes | None = None):
    response = await http.post(f"/api/bot{path}", headers=headers, data=body)
    return response.status, await response.json()


async def a_game(service, http, clock: str = "") -> tuple[dict, dict, Stream, Stream, int]:
    """alpha challenges beta (alpha plays first), beta accepts: both follow the game."""
    alpha, beta = token_of(service, "ann", "alpha"), token_of(service, "bob", "beta")
    alpha_events = await stream(http, "/stream", alpha)
    beta_events = await stream(http, "/stream", beta)
    assert (await beta_events.next())["type"] == "online"
    status, made = await post(http, f"/challenge/beta?color=first&clock={clock}", alpha)
    assert status == 200, made
    challenge = await beta_events.next("challenge")
    assert challenge["from"] == {"name": "alpha", "bot": True}
    assert challenge["color"] == "second"
    status, accepted = await post(http, f"/challenge/{challenge['id']}/accept", beta)
    assert status == 200, accepted
    room = (await alpha_events.next("gameStart"))["room"]
    assert (await beta_events.next("gameStart"))["room"] == room == accepted["room"]
    alpha_game = await stream(http, f"/game/{room}/stream", alpha)
    beta_game = await stream(http, f"/game/{room}/stream", beta)
    return alpha, beta, alpha_game, beta_game, room


async def test_two_bots_play_while_a_person_watches_their_thinking(tmp_path):
    async with bot_api(tmp_path) as (service, http):
        alpha, beta, alpha_game, beta_game, room = await a_game(service, http)
        full = await alpha_game.next("gameFull")
        assert full["seat"] == 0 and full["moves"] == "" and not full["over"]
        assert [p["name"] for p in full["players"]] == ["alpha", "beta"]
        assert all(p["bot"] for p in full["players"])
        assert (await beta_game.next("gameFull"))["seat"] == 1

        watcher = await login(service, "carol")
        await watcher.send(Watch(room))
        shown = await room_where(watcher, lambda m: m["thinking"])
        assert [s["name"] for s in shown["seats"]] == ["BOT alpha", "BOT beta"]
        assert shown["thinking_spec"] == "BOT alpha"

        # alpha thinks (an engine's info lines, as `c4tui bot` sends them), then moves.
        engine = make_engine("mcts:iterations=300", seed=1)
        result = engine.search(Position.start())
        status, _ = await post(
            http, f"/game/{room}/thinking", alpha, "\n".join(info_lines(result.info))
        )
        assert status == 200
        progress = await next_of(watcher, "progress")
        assert progress["info"]["engine"] == "alpha"
        assert progress["info"]["iterations"] == result.info.iterations
        assert progress["info"]["best"] == result.move

        assert (await post(http, f"/game/{room}/move/{result.move + 1}?ply=0", alpha))[0] == 200
        state = await beta_game.next("gameState")
        assert state["moves"] == str(result.move + 1) and not state["over"]
        moved = await room_where(watcher, lambda m: m["moves"] and m["thinking"])
        assert moved["thinking_spec"] == "BOT beta"  # beta's turn: the room shows it thinking

        # Why, in the bot's words (`c4tui bot` says its engine's forfeit): one line.
        reason = "its%20engine%20crashed%0A%1B%5B2J(exit%20status%201)"
        assert (await post(http, f"/game/{room}/resign?reason={reason}", beta))[0] == 200
        end = await alpha_game.end()
        assert end["winner"] == 0 and end["ended"] == "resigned"
        told = await next_of(watcher, "notice", lambda m: "resigns" in m["text"])
        assert told["text"] == "BOT beta resigns: its engine crashed [2J(exit status 1)."
        await watcher.close()


async def test_every_refusal_is_a_status_and_one_log_line(tmp_path, caplog):
    caplog.set_level(logging.WARNING, "c4tui.server")
    async with bot_api(tmp_path, bot_moves_per_second=0.01) as (service, http):
        alpha, beta, alpha_game, _, room = await a_game(service, http)
        await alpha_game.next("gameFull")
        checks = [
            (post(http, "/challenge/beta", {}), 401),
            (post(http, "/challenge/beta", {"Authorization": "Bearer nonsense"}), 401),
            (post(http, f"/game/{room}/move/4", beta), 409),  # not beta's turn
            (post(http, f"/game/{room}/move/11", alpha), 400),  # no such column
            (post(http, f"/game/{room}/move/\u0664", alpha), 400),  # an Arabic-Indic 4
            (post(http, f"/game/{room + 1}/resign", alpha), 404),  # not its room
            (post(http, "/challenge/nobody", alpha), 409),  # no such bot online
            (post(http, "/challenge/beta?clock=1+0", alpha), 400),  # the + not written %2B
            (post(http, f"/game/{room}/thinking", alpha, "bestmove 4"), 400),
            (post(http, f"/game/{room}/thinking", alpha, "info col 9 visits 3\ninfo"), 400),
            (post(http, f"/game/{room}/thinking", alpha, b"info " + b"x" * 9000), 413),
            (post(http, "/seek?clock=3%2B2", alpha, b"x" * 50_000), 413),  # before reading
            (post(http, "/seek", {}, b"x" * 50_000), 413),  # whoever sends it
            (post(http, "/no/such/route", alpha), 404),  # in JSON too
            (post(http, "/account", alpha), 405),  # a GET route
            (post(http, f"/game/{room}/move/4?ply=banana", alpha), 400),
            (post(http, f"/game/{room}/move/4", alpha), 200),
            (post(http, f"/game/{room}/move/4", beta), 200),
            (post(http, f"/game/{room}/move/4", alpha), 200),
            # Two at once, then 0.01 a second (a refused move counts too).
            (post(http, f"/game/{room}/move/4", beta), 429),
        ]
        for request, expected in checks:
            caplog.clear()
            status, answer = await request
            assert status == expected, answer
            if status != 200:
                assert answer["error"]
                refused = [r for r in caplog.records if "refused" in r.getMessage()]
                assert len(refused) == 1, caplog.text


async def test_a_move_the_store_cannot_keep_is_never_answered_ok(tmp_path):
    async with bot_api(tmp_path) as (service, http):
        alpha, _, alpha_game, beta_game, room = await a_game(service, http)
        await alpha_game.next("gameFull")
        await beta_game.next("gameFull")
        store = service.host.store
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the database's lock
        try:
            status, answer = await post(http, f"/game/{room}/move/4?ply=0", alpha)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert status == 503 and "was not made" in answer["error"], answer
        assert service.host.rooms[room].position.moves == 0  # undone, as the answer says
        # As if the rest after a busy lock were over, for the connection that writes rooms.
        service.host.line.writers.of(room).store._busy_until = 0.0
        assert (await post(http, f"/game/{room}/move/4?ply=0", alpha))[0] == 200
        assert (await beta_game.next("gameState"))["moves"] == "4"


async def test_a_bots_streams_say_the_server_is_stopping_before_they_end(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(ai_workers=1))
    await service.start()
    app = web.Application()
    app.add_routes(BotApi(service.bots).routes())
    async with TestClient(TestServer(app)) as http:
        _, _, game, _, _ = await a_game(service, http)
        await game.next("gameFull")
        account = await stream(http, "/stream", token_of(service, "ann", "alpha"))
        await account.next("online")
        await service.close()
        for events in (account, game):
            said = await events.next("serverStopping")
            assert "stopping" in said["text"]


async def test_a_bot_that_does_not_come_back_loses_as_a_person_would(tmp_path):
    async with bot_api(tmp_path, seat_hold=0.5) as (service, http):
        alpha, _, alpha_game, beta_game, room = await a_game(service, http)
        await alpha_game.next("gameFull")
        await beta_game.next("gameFull")
        assert (await post(http, f"/game/{room}/move/4", alpha))[0] == 200
        beta_game.response.close()  # beta's program is gone, before its first move
        end = await alpha_game.end()
        assert end["winner"] == 0 and end["ended"] == "forfeit"  # never moved: a forfeit


async def test_a_bot_left_alone_wins_at_once_when_its_opponent_does_not_come_back(tmp_path):
    # Both have moved: no forfeit. A person who stays claims the win with a key; a bot
    # that stays wins at once, as the AI seat does (nobody would press the key).
    quick = {"seat_hold": 0.5, "grace_share": 0.001, "grace_least": 0.5}  # the hold on a clock
    async with bot_api(tmp_path, **quick) as (service, http):
        alpha, beta, alpha_game, beta_game, room = await a_game(service, http, clock="1%2B0")
        full = await beta_game.next("gameFull")
        assert full["clock"]["control"] == "1+0" and full["clock"]["running"] == 0
        assert 0 < full["clock"]["left"][0] <= full["clock"]["left"][1] == 60
        assert (await post(http, f"/game/{room}/move/4", alpha))[0] == 200
        assert (await post(http, f"/game/{room}/move/4", beta))[0] == 200
        alpha_game.response.close()  # alpha's program is gone
        end = await beta_game.end()
        assert end["winner"] == 1 and end["ended"] == "abandoned"


async def test_a_bots_move_after_its_flag_fell_is_refused_as_a_persons_is(tmp_path):
    # A person's move is looked at against the clock first (requests.py); a bot's was
    # not, so a bot could move up to a tick after its time ran out and the move stood.
    time = Time()
    async with bot_api(tmp_path, time) as (service, http):
        alpha, beta, _, beta_game, room = await a_game(service, http, clock="1%2B1")
        await beta_game.next("gameFull")
        assert (await post(http, f"/game/{room}/move/4", alpha))[0] == 200
        assert (await post(http, f"/game/{room}/move/4", beta))[0] == 200
        time.moved(61.5)  # alpha's minute and a second run out, before the next tick
        status, answer = await post(http, f"/game/{room}/move/3", alpha)
        assert status == 409, answer
        end = await beta_game.end()
        assert end["winner"] == 1 and end["ended"] == "time" and end["moves"] == "44"


async def test_a_person_makes_a_token_and_challenges_the_bot_from_the_lobby(tmp_path):
    async with bot_api(tmp_path, bot_games=1) as (service, http):
        person = await login(service, "dan")
        await person.send(MakeBotToken("Danbot"))
        made = await next_of(person, "bot_token")
        assert made["name"] == "Danbot" and made["token"]
        headers = {"Authorization": f"Bearer {made['token']}"}
        events = await stream(http, "/stream", headers)
        lobby = await next_of(person, "lobby", lambda m: m["bots"])
        assert lobby["bots"] == ["Danbot"] and "Danbot" not in lobby["online"]

        await person.send(ChallengeBot("danbot", second=True))
        challenge = await events.next("challenge")
        assert challenge["from"] == {"name": "dan", "bot": False}
        assert challenge["color"] == "first"
        assert (await post(http, f"/challenge/{challenge['id']}/accept", headers))[0] == 200
        room = await room_where(person, lambda m: True)
        assert room["seat"] == 1 and room["seats"][0]["name"] == "BOT Danbot"
        game = await stream(http, f"/game/{room['room']}/stream", headers)
        assert (await game.next("gameFull"))["seat"] == 0

        # Its profile says it is a bot; the person's says whom they play.
        await person.send(AskProfile("danbot"))
        assert (await next_of(person, "profile"))["bot"]
        await person.send(AskProfile("dan"))
        mine = await next_of(person, "profile")
        assert not mine["bot"] and mine["playing"][0]["opponent"] == "BOT Danbot"

        # Its one game at once is under way: a second challenger's is accepted in vain.
        other = await login(service, "eve")
        await other.send(ChallengeBot("Danbot"))
        second = await events.next("challenge")
        status, answer = await post(http, f"/challenge/{second['id']}/accept", headers)
        assert status == 409 and "1 games at once" in answer["error"]

        # A new token for the bot: the old one no longer signs in.
        await person.send(MakeBotToken("danbot"))
        await next_of(person, "bot_token")
        assert (await post(http, "/challenge/x", headers))[0] == 401
        for client in (person, other):
            await client.close()


async def test_wrong_or_missing_tokens_from_one_address_are_limited(tmp_path):
    async with bot_api(tmp_path) as (service, http):
        alpha = token_of(service, "ann", "alpha")
        for n in range(WRONG_TOKENS):
            headers = {"Authorization": f"Bearer wrong-{n}"} if n % 2 else {}
            assert (await post(http, "/challenge/beta", headers))[0] == 401
        status, answer = await post(http, "/challenge/beta", alpha)
        assert status == 429 and "Too many wrong tokens" in answer["error"]


async def test_the_lobbys_challenge_by_name_reaches_the_bots_stream(tmp_path):
    """`c` in the lobby challenges by name: to a bot, it is the bot's challenge (on its
    event stream, with the time control asked), not a person's that it never hears."""
    async with bot_api(tmp_path) as (service, http):
        headers = token_of(service, "bob", "bobbot")
        events = await stream(http, "/stream", headers)
        person = await login(service, "dan")
        await next_of(person, "lobby", lambda m: m["bots"])
        await person.send(MakeChallenge("bobbot", "3+2", rated=True))
        challenge = await events.next("challenge")
        assert challenge["from"] == {"name": "dan", "bot": False}
        assert challenge["clock"] == "3+2"
        said = await next_of(person, "notice")
        assert "bobbot" in said["text"] and "casual" in said["text"]
        status, accepted = await post(http, f"/challenge/{challenge['id']}/accept", headers)
        assert status == 200, accepted
        room = await room_where(person, lambda m: m["seat"] is not None)
        assert "BOT bobbot" in [seat["name"] for seat in room["seats"]]
        await person.close()
