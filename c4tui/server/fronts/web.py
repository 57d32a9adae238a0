"""The web front: a page with a terminal, and one client process per browser tab.

textual-serve provides the browser side (its bundled terminal script, styles and font)
and `AppService`, which runs a Textual app behind a websocket (its process forked by the
fork server where it runs: web_service.py). The handler here is our
own so that each tab is treated like an ssh session: the same limits, a private home, a
one-time token bound to the visitor (a private cookie makes the same browser the same
player, so a reload finds its seat), an idle timeout, and the process group ended when
the tab goes. The page needs nothing from the internet (textual-serve's own page loads
its font from Google; ours serves the bundled copy).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import signal
import time
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from c4tui.community.chosen_names import WEB_NAMES
from c4tui.server.desks.bots import BotDesk
from c4tui.server.fronts.bot_api import BotApi
from c4tui.server.fronts.client_process import CLIENTS_DIR, PrivateHome, kill_group
from c4tui.server.fronts.front import Front
from c4tui.server.fronts.players import Player
from c4tui.server.fronts.ssh_keys import load_or_create_host_key
from c4tui.server.fronts.web_guard import OpenConnections, guarded
from c4tui.server.fronts.web_service import PID_FILE, TabService
from c4tui.server.store.chosen_names import ChosenNames
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.codec import ShapeError, loads
from c4tui.server.wire.protocol import escaped

log = logging.getLogger("c4tui.server")

COOKIE = "c4tui_player"
PAGE = Template(files("c4tui.server.fronts").joinpath("page.html").read_text(encoding="utf-8"))
STATIC = Path(str(files("textual_serve").joinpath("static")))
# Browser messages are small (keys, sizes, a paste); anything bigger is not ours.
MAX_MESSAGE = 16 * 1024
# Keys a tab may send: a burst, then so many bytes a second (typing and the mouse are a
# few hundred); more is a flood, and the tab is closed.
INPUT_BURST, INPUT_PER_SECOND = 32 * 1024, 4 * 1024
# Keys the client has not read yet: past this it is hung or flooded, and the tab closes.
MAX_UNREAD_INPUT = 64 * 1024


class AiohttpRefusals(logging.Filter):
    """Turns aiohttp's traceback for a request it refuses (headers too long, not HTTP)
    into one line of ours; aiohttp has already answered 400."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            address = record.getMessage().rpartition(" from ")[2] or "?"
            why = " ".join(str(error.message).split())
            log.warning("web %s: refused a request: %s", escaped(address, 60), escaped(why))
            return False
        return True


def same_origin(request: web.Request) -> bool:
    """Whether a websocket comes from our own page (or from no page: not a browser).

    A browser says which page opened a websocket in `Origin`; any other site's page
    that a visitor opens could otherwise run a client in their name.
    """
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == request.host.lower()


def issued(cookie: str | None) -> bool:
    """Whether a visitor's cookie has the form of one this server gives (32 hex digits)."""
    return cookie is not None and len(cookie) == 32 and all(c in "0123456789abcdef" for c in cookie)


def names_secret(state_dir: Path) -> bytes:
    """The key of the browsers' shown names: a hash of the server's host key, made here
    if the ssh front has not (one file, kept private, shared by servers behind one
    address as docs/deployment.md says)."""
    host_key = load_or_create_host_key(state_dir)
    return hashlib.sha256(b"c4tui web names\0" + host_key.export_private_key("pkcs8-der")).digest()


def to_int(text: str | None, default: int, low: int, high: int) -> int:
    if text is None or not (text.isascii() and text.isdigit()):  # int() takes "٤" for 4
        return default
    return max(low, min(high, int(text)))


class WebFront(Front):
    """Serves the page, the terminal's files, and a websocket per tab running a client."""

    kind = "web"

    def __init__(self, bots: BotDesk | None = None, **ground: Any) -> None:
        """`ground`: what every front takes (front.py); `bots`: the bot API's desk."""
        super().__init__(**ground)
        self.bot_api = None if bots is None else BotApi(bots)
        # The community's store, where a browser's chosen name is kept (the server hands
        # it the room service's); None: every browser is its web-1a2b name.
        self.store: Store | None = None
        self.downloads = DownloadManager()
        self.tabs: set[WebTab] = set()
        self.runner: web.AppRunner | None = None
        # What the browsers' names are made with (`player`): from the host key at start,
        # so they stay across restarts and servers that share one key.
        self.name_secret = secrets.token_bytes(32)
        self.listener: asyncio.Server | None = None
        limits = self.gate.limits
        self.connections = OpenConnections(limits.connections_per_address, limits.request_timeout)
        self.refusals = AiohttpRefusals()

    async def start(self) -> None:
        logging.getLogger("aiohttp.server").addFilter(self.refusals)
        self.name_secret = names_secret(self.state_dir)
        app = web.Application(
            middlewares=[] if self.bot_api is None else [self.bot_api.unknown_routes]
        )
        app.add_routes(
            [
                web.get("/", self.page),
                web.get("/ws", self.websocket),
                web.get("/download/{key}", self.download),
                web.static("/static", STATIC),
                *(self.bot_api.routes() if self.bot_api is not None else ()),
            ]
        )
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        assert self.runner.server is not None  # made by setup
        # Listened on here, not by aiohttp's TCPSite, so that each connection is guarded
        # (web_guard.py) before aiohttp sees it; the runner still ends them at cleanup.
        self.listener = await asyncio.get_running_loop().create_server(
            guarded(self.runner.server, self.connections), self.host, self.port
        )
        self.port = self.listener.sockets[0].getsockname()[1]
        self.watch_idle(self.tabs)

    async def stop(self, message: str) -> None:
        await self.end_all(self.tabs, message)
        if self.listener is not None:
            self.listener.close()
        if self.runner is not None:
            await self.runner.cleanup()
        logging.getLogger("aiohttp.server").removeFilter(self.refusals)

    async def page(self, request: web.Request) -> web.Response:
        visitor = request.cookies.get(COOKIE)
        font_size = to_int(request.query.get("fontsize"), 16, 6, 48)
        text = PAGE.substitute(static="/static", font_size=font_size)
        response = web.Response(text=text, content_type="text/html")
        if not issued(visitor):
            response.set_cookie(
                COOKIE, secrets.token_hex(16), max_age=90 * 86400, httponly=True, samesite="Strict"
            )
        return response

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file a client delivers (a finished game's file), once, to the browser whose
        tab asked for it: the address is a random key the tab alone was told."""
        key = request.match_info["key"]
        try:
            delivery = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="c4tui: no such download (each is served once)\n") from None
        name = "".join(ch for ch in delivery.file_name or "game.c4" if ch.isalnum() or ch in "-_.")
        response = web.StreamResponse()
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        response.headers["X-Content-Type-Options"] = "nosniff"
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        if not same_origin(request):
            origin = request.headers.get("Origin", "")
            log.warning(
                "web %s: refused a websocket from another site's page %s", address, escaped(origin)
            )
            raise web.HTTPForbidden(text="c4tui: this game is played from its own page\n")
        websocket = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await websocket.prepare(request)
        refusal = self.gate.connect(address)
        if refusal is not None:
            log.warning("web %s: refused a connection: %s", address, refusal)
        else:
            refusal = self.gate.admit(address)
            if refusal is not None:
                log.warning("web %s: refused a session: %s", address, refusal)
            else:
                try:
                    await WebTab(self, self.player(request, address), websocket).run(request)
                finally:
                    self.gate.release(address)
                return websocket
        await websocket.send_bytes(f"c4tui: {refusal}\r\n".encode())
        await websocket.close()
        return websocket

    def player(self, request: web.Request, address: str) -> Player:
        """The visitor: its cookie (hashed, so logs and files never hold it) or a new one,
        called by the name it chose (community/chosen_names.py), else web-1a2b."""
        cookie = request.cookies.get(COOKIE)
        if cookie is None or not issued(cookie):  # one we never gave: a new visitor
            cookie = secrets.token_hex(16)
        digest = hashlib.sha256(cookie.encode()).hexdigest()
        # The shown name: keyed with the server's secret, so nobody can search offline
        # for a cookie whose name is someone else's (16 bits of a plain hash once was
        # matched in 25,187 tries), and 32 bits of it, so tries at the door are hopeless.
        shown = hmac.new(self.name_secret, cookie.encode(), hashlib.sha256).hexdigest()
        key, name = f"web:{digest[:32]}", f"{WEB_NAMES}{shown[:8]}"
        if self.store is not None:
            try:
                name = ChosenNames(self.store).held(key) or name
            except StoreError as error:
                log.warning("web %s: its chosen name not looked up: %s", address, error)
        return Player(key, name, address)


class WebTab:
    """One browser tab: its client process behind textual-serve's app service."""

    def __init__(self, front: WebFront, player: Player, websocket: web.WebSocketResponse):
        self.front = front
        self.player = player
        self.address = player.address
        self.websocket = websocket
        self.last_input = time.monotonic()
        self.ending: str | None = None
        self.home: PrivateHome | None = None
        self.done = asyncio.Event()
        self.entered = False  # whether self.player is entered in front.players

    async def run(self, request: web.Request) -> None:
        self.home = PrivateHome(self.front.state_dir / CLIENTS_DIR)
        self.player = self.front.players.enter(self.player)
        self.entered = True
        try:
            environment = {**self.home.environment(), **self.front.credentials(self.player)}
            environment |= {"PATH": os.defpath, "LANG": "C.UTF-8"}
            service = TabService(
                self.front.command,
                self.home,
                environment,
                self.front.forks,
                write_bytes=self.websocket.send_bytes,
                write_str=self.websocket.send_str,
                close=self.websocket.close,
                download_manager=self.front.downloads,
            )
            width = to_int(request.query.get("width"), 80, 20, 500)
            height = to_int(request.query.get("height"), 24, 10, 300)
            await service.start(width, height)
            self.front.tabs.add(self)
            log.info("web %s: %s started a client", self.player.address, self.player.key)
            try:
                await self.relay(service)
            finally:
                # The tab is gone: a reload's new tab is this player again, at once.
                self.leave()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(service.stop(), 3.0)
        finally:
            self.leave()
            self.front.tabs.discard(self)
            self.end_process_group()
            self.home.remove(f"web {self.address}")
            await self.websocket.close()
            self.done.set()

    async def relay(self, service: AppService) -> None:
        """Pass the browser's keys and sizes to the client until the tab goes.

        Keys are written without waiting for the client to read them (within
        MAX_UNREAD_INPUT), so a closed tab is seen at once even when its client is busy.
        """
        allowance, last = float(INPUT_BURST), time.monotonic()
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = loads(message.data)
            except ShapeError:
                envelope = None
            if not isinstance(envelope, list) or not envelope or len(envelope) > 2:
                log.warning("web %s: closed: a message that is not ours", self.player.address)
                return
            kind, data = envelope[0], envelope[-1]
            if kind == "stdin" and isinstance(data, str):
                keys = data.encode("utf-8")
                now = time.monotonic()
                allowance = min(INPUT_BURST, allowance + (now - last) * INPUT_PER_SECOND)
                allowance, last = allowance - len(keys), now
                stdin = service.stdin
                if allowance < 0 or stdin.transport.get_write_buffer_size() > MAX_UNREAD_INPUT:
                    log.warning("web %s: closed: more keys than a person types", self.address)
                    await self.say("closed: more keys than a person types")
                    return
                self.last_input = now
                stdin.write(service.encode_packet(b"D", keys))
            elif kind == "resize" and isinstance(data, dict):
                width = to_int(str(data.get("width")), 80, 20, 500)
                height = to_int(str(data.get("height")), 24, 10, 300)
                await service.set_terminal_size(width, height)
            elif kind == "ping":
                await self.websocket.send_json(["pong", data])
            elif kind == "focus":
                await service.focus()
            elif kind == "blur":
                await service.blur()

    def leave(self) -> None:
        """This tab's player has gone (once: a later tab may be the same player)."""
        if self.entered:
            self.entered = False
            self.front.players.leave(self.player)

    def end_process_group(self) -> None:
        """SIGKILL whatever is left of the client (it has had its chance to quit)."""
        assert self.home is not None
        with contextlib.suppress(OSError, ValueError):
            kill_group(int((self.home.root / PID_FILE).read_text()), signal.SIGKILL)

    async def say(self, message: str) -> None:
        """Words on the tab's screen alone (cleared, so they stand above the page's
        "ended" note)."""
        with contextlib.suppress(ConnectionError):
            await self.websocket.send_bytes(f"\x1b[2J\x1b[Hc4tui: {message}\r\n".encode())

    async def end(self, message: str) -> None:
        """End this tab from the server's side, telling the visitor why."""
        if self.ending is None:
            self.ending = message
            await self.say(message)
            await self.websocket.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.done.wait(), 10.0)
