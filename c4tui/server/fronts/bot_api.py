"""The bot API of the web front: HTTP for programs that play with a bot token.

Every request names its bot with `Authorization: Bearer TOKEN`; the streams are
newline-delimited JSON (one event a line, an empty line now and then to keep the
connection open). docs/bot-api.md is the contract; server/desks/bots.py (the BotDesk) decides.

Everything a bot sends is untrusted: the token (wrong ones are limited per address),
the path's numbers, the query's values, a body's size and lines, and the rate of its
requests; each refusal is an HTTP status, a JSON `{"error": ...}`, and one log line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from c4tui.community.bot_tokens import BotAccount
from c4tui.community.clocks import TimeControl
from c4tui.server.desks.bot_feeds import Feed
from c4tui.server.desks.bot_play import BotRefused, Bucket
from c4tui.server.desks.bots import BotDesk
from c4tui.server.rooms.access import GuessLimit
from c4tui.server.rooms.hooks import Refused
from c4tui.server.store.store import StoreError
from c4tui.server.wire.protocol import escaped

log = logging.getLogger("c4tui.server")

PREFIX = "/api/bot"
MAX_BODY = 8 * 1024  # bytes of a thinking request (info lines of a 10-column board: ~1 KB)
MAX_TOKEN = 200  # characters of an Authorization header's token
KEEPALIVE = 10.0  # seconds between empty lines on a quiet stream
LOOK = 1.0  # seconds between looks at whether a stream's reader is still there
REQUEST_BURST, REQUESTS_PER_SECOND = 30, 10.0  # requests of one bot
WRONG_TOKENS = 10  # wrong tokens one address may try at once, then one every 12 s

Handler = Callable[[web.Request, BotAccount], Awaitable[web.StreamResponse]]


def number(text: str | None, what: str, low: int, high: int) -> int:
    """A whole number from a path or a query, within its range; BotRefused(400) if not.
    ASCII digits only: Python's int() also reads "٤" (Arabic-Indic) as 4."""
    if (
        text is None
        or not (text.isascii() and text.isdigit())
        or len(text) > 10
        or not low <= int(text) <= high
    ):
        raise BotRefused(400, f"{what} is a whole number from {low} to {high}.")
    return int(text)


def read_clock(text: str) -> str:
    """A time control from a query (`5+3`, `3d`), checked; BotRefused(400) if it is not one."""
    try:
        return TimeControl.parse(text[:20]).text
    except ValueError as error:
        raise BotRefused(400, f"clock: {error} (a + in a URL is written %2B)") from None


class BotApi:
    """The routes of the bot API over one BotDesk."""

    def __init__(self, desk: BotDesk) -> None:
        self.desk = desk
        self.wrong_tokens = GuessLimit(WRONG_TOKENS)
        self.requests: dict[str, Bucket] = {}  # bot key -> its requests

    def routes(self) -> list[web.RouteDef]:
        api = PREFIX
        return [
            web.get(f"{api}/account", self._guarded(self.account)),
            web.get(f"{api}/stream", self._guarded(self.account_stream)),
            web.post(f"{api}/challenge/{{name}}", self._guarded(self.challenge)),
            web.post(f"{api}/challenge/{{id}}/accept", self._guarded(self.accept)),
            web.post(f"{api}/challenge/{{id}}/decline", self._guarded(self.decline)),
            web.post(f"{api}/seek", self._guarded(self.seek)),
            web.post(f"{api}/seek/cancel", self._guarded(self.unseek)),
            web.get(f"{api}/game/{{room}}/stream", self._guarded(self.game_stream)),
            web.post(f"{api}/game/{{room}}/move/{{column}}", self._guarded(self.move)),
            web.post(f"{api}/game/{{room}}/thinking", self._guarded(self.thinking)),
            web.post(f"{api}/game/{{room}}/resign", self._guarded(self.resign)),
        ]

    @web.middleware
    async def unknown_routes(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A path or method under the API that is none of its routes: answered in JSON
        as every other refusal of the API is (aiohttp's own 404 is plain text)."""
        try:
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed) as refused:
            if not request.path.startswith(PREFIX + "/") and request.path != PREFIX:
                raise
            log.warning(
                "bot api %s: %s %s refused (%d): no such route",
                request.remote or "?",
                request.method,
                escaped(request.path, 60),
                refused.status,
            )
            words = "No such route of the bot API (docs/bot-api.md lists them)."
            return web.json_response({"error": words}, status=refused.status)

    # ---- every request: who, how often, and a refusal in one line ----------------------

    def _guarded(self, handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def guarded(request: web.Request) -> web.StreamResponse:
            address = request.remote or "?"
            who = address
            try:
                if (request.content_length or 0) > MAX_BODY:  # refused before it is read
                    raise BotRefused(413, f"A request's body is at most {MAX_BODY} bytes.")
                account = self._bot(request, address)
                who = f"{account.name} ({address})"
                wait = self.requests.setdefault(
                    account.key, Bucket(REQUEST_BURST, REQUESTS_PER_SECOND)
                ).take()
                if wait > 0:
                    raise BotRefused(429, f"More than {REQUESTS_PER_SECOND:g} requests a second.")
                return await handler(request, account)
            except (BotRefused, Refused, StoreError) as refusal:
                # A store that cannot keep the change now (busy, full): 503, never ok.
                status = (
                    refusal.status
                    if isinstance(refusal, BotRefused)
                    else 503
                    if isinstance(refusal, StoreError)
                    else 409
                )
                log.warning(
                    "bot api %s: %s %s refused (%d): %s",
                    who,
                    request.method,
                    escaped(request.path, 60),
                    status,
                    refusal,
                )
                answer = web.json_response({"error": str(refusal)}, status=status)
                if status == 413:
                    answer.force_close()  # the rest of the body is not read, so not kept
                return answer

        return guarded

    def _bot(self, request: web.Request, address: str) -> BotAccount:
        wait = self.wrong_tokens.wait(address)
        if wait > 0:
            raise BotRefused(429, f"Too many wrong tokens: try again in {wait:.0f} s.")
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
            self.wrong_tokens.missed(address)  # a flood of these is as a flood of guesses
            raise BotRefused(401, "Give the bot's token as 'Authorization: Bearer TOKEN'.")
        account = self.desk.sign_in(token)
        if account is None:
            self.wrong_tokens.missed(address)
            raise BotRefused(401, "That token is not a bot's (made again, or never made).")
        return account

    # ---- the account ----------------------------------------------------------------

    async def account(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        limits = self.desk.host.limits
        return web.json_response(
            {
                "name": bot.name,
                "bot": True,
                "limits": {
                    "games": limits.bot_games,
                    "moves_per_second": limits.bot_moves_per_second,
                },
            }
        )

    async def account_stream(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        feed = self.desk.open_account(bot, request.remote or "?")
        try:
            return await self._stream(request, feed)
        finally:
            self.desk.close_account(feed)

    async def challenge(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        query = request.query
        color = query.get("color", "first")
        if color not in ("first", "second"):
            raise BotRefused(400, "color is first or second (the challenger's).")
        size = (
            number(query.get("width", "7"), "width", 4, 10),
            number(query.get("height", "6"), "height", 4, 10),
            number(query.get("connect", "4"), "connect", 3, 6),
        )
        name = request.match_info["name"]
        if len(name) > 20:
            raise BotRefused(400, "A bot's name has at most 20 characters.")
        clock = query.get("clock") or None
        if clock is not None:
            read_clock(clock)
        made = self.desk.challenge(bot, name, first=color == "first", size=size, clock=clock)
        return web.json_response({"id": str(made.id)})

    async def seek(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        clock = request.query.get("clock")
        if not clock:
            raise BotRefused(400, "Give the time control to seek: clock=3%2B2 (3+2).")
        self.desk.seek(bot, read_clock(clock))
        return web.json_response({"ok": True})

    async def unseek(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        self.desk.seek(bot, None)
        return web.json_response({"ok": True})

    async def accept(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        room = self.desk.accept(bot, request.match_info["id"][:40])
        return web.json_response({"room": room.number})

    async def decline(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        self.desk.decline(bot, request.match_info["id"][:40])
        return web.json_response({"ok": True})

    # ---- a game ---------------------------------------------------------------------

    def _room(self, request: web.Request) -> int:
        return number(request.match_info["room"], "room", 1, 1 << 31)

    async def game_stream(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        feed = self.desk.play.open_game(bot, self._room(request), request.remote or "?")
        try:
            return await self._stream(request, feed)
        finally:
            self.desk.play.close_game(feed)

    async def move(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        column = number(request.match_info["column"], "column", 1, 10) - 1
        ply = request.query.get("ply")
        seen = None if ply is None else number(ply, "ply", 0, 100)
        await self.desk.play.move(bot, self._room(request), column, seen)
        return web.json_response({"ok": True})

    async def thinking(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        room = self._room(request)
        if (request.content_length or 0) > MAX_BODY:
            raise BotRefused(413, f"Thinking is at most {MAX_BODY} bytes.")
        body = await request.content.read(MAX_BODY + 1)
        if len(body) > MAX_BODY:
            raise BotRefused(413, f"Thinking is at most {MAX_BODY} bytes.")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise BotRefused(400, "Thinking is UTF-8 text.") from None
        self.desk.play.think(bot, room, text)
        return web.json_response({"ok": True})

    async def resign(self, request: web.Request, bot: BotAccount) -> web.StreamResponse:
        await self.desk.play.resign(bot, self._room(request), request.query.get("reason", ""))
        return web.json_response({"ok": True})

    # ---- streams ----------------------------------------------------------------------

    async def _stream(self, request: web.Request, feed: Feed) -> web.StreamResponse:
        """The feed's events, one JSON line each, until it ends or its reader goes."""
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        quiet_since = time.monotonic()
        try:
            while True:
                try:
                    event = await asyncio.wait_for(feed.events.get(), LOOK)
                except TimeoutError:
                    transport = request.transport
                    if transport is None or transport.is_closing():
                        break  # the bot hung up
                    if time.monotonic() - quiet_since >= KEEPALIVE:
                        await response.write(b"\n")
                        quiet_since = time.monotonic()
                    continue
                if event is None:
                    break
                await response.write(json.dumps(event).encode() + b"\n")
                quiet_since = time.monotonic()
        except (ConnectionError, RuntimeError):
            pass  # the bot hung up mid-write (aiohttp says so with either)
        return response
