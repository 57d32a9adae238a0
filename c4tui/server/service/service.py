"""RoomService: the room service of `c4tui serve`, listening on a Unix socket for clients.

The seam with the fronts (c4tui/server/fronts, see also docs/serve-contract.md):

    service = RoomService(state_dir, RoomLimits(...))
    await service.start()                  # the store opened, rooms back; listening
    token = service.issue_token(Identity("ssh-key:SHA256:...", "ann", "10.0.0.7"))
    # the front starts [sys.executable, "-m", "c4tui", "--served"] with the environment
    #   C4TUI_ROOMS_SOCKET=service.socket_path, C4TUI_ROOMS_TOKEN=token (never in argv),
    #   TERM, and C4TUI_CONFIG_DIR / C4TUI_DATA_DIR in a fresh private temp dir; web
    #   clients the same, with a "web:<id>" identity from a private cookie (a seat code,
    #   shown in the room, reclaims a seat from another browser).
    await service.close()                  # clients told; rooms kept; workers stopped

Each connection is one client process. Its first line must be a `hello` with a valid
one-time token within LOGIN_SECONDS; every line is checked by the
protocol (size, JSON, kind, schema), and a client that breaks it, floods, or stops
reading is cut off with one log line while everyone else plays on. What clients ask of
rooms is decided in requests.py and kept by the RoomHost (host.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from c4tui.server.desks.bots import BotDesk
from c4tui.server.desks.tournaments import TournamentDesk
from c4tui.server.rooms.access import Tokens
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.relay import Relays
from c4tui.server.service.relay_standins import StandIns
from c4tui.server.service.requests import Requests
from c4tui.server.store.store import Store
from c4tui.server.wire.identity import Identity, RoomLimits, display_name
from c4tui.server.wire.kinds import parse_client_line
from c4tui.server.wire.protocol import VERSION, Bye, Hello, Message, ProtocolError, encode

log = logging.getLogger("c4tui.server")
LOGIN_SECONDS = 10.0  # a client that does not say hello by then is closed
OUT_CAP = 512 * 1024  # bytes waiting for a client that does not read: past this, cut off
BURST, PER_SECOND = 60, 20.0  # messages a client may send at once, and on average
DRAIN_SECONDS = 10.0  # a client's replies not read by then: it is cut off
SOCKET_PATH_MAX = 100  # a Unix socket's path must fit in about 104 bytes


class Connection(Client):
    """One client process's connection: sends lines, and is cut off if it stops reading."""

    def __init__(self, writer: asyncio.StreamWriter, identity: Identity) -> None:
        super().__init__(identity.key, display_name(identity.name), identity.address)
        self.writer = writer
        self.closed = False

    def send(self, message: Message) -> None:
        self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        if self.closed or self.writer.is_closing():
            # Gone (a write failed, or it hung up): asyncio would log every write after.
            self.closed = True
            return
        if self.writer.transport.get_write_buffer_size() > OUT_CAP:
            log.warning("client %s cut off: it does not read what it is sent", self.who)
            self.close()
            return
        self.writer.write(line)

    def close(self) -> None:
        self.closed = True
        self.writer.close()


class RoomService:
    """The rooms, their games and their clients (see the module docstring)."""

    def __init__(
        self,
        state_dir: Path,
        limits: RoomLimits | None = None,
        store: Store | None = None,
        now: Callable[[], float] | None = None,
        store_url: str | None = None,
    ) -> None:
        """`store`: the community's store, or None to open one: the state directory's
        own, or the PostgreSQL database at `store_url`; `now`: the time of the clocks
        and holds (tests move it by hand)."""
        self.state_dir = Path(state_dir)
        self.limits = limits or RoomLimits()
        run = self.state_dir / "run"
        if len(str(run / "rooms.sock")) > SOCKET_PATH_MAX:
            run = Path(tempfile.mkdtemp(prefix="c4tui-rooms-"))  # mkdtemp makes it 0700
        self.socket_path = run / "rooms.sock"
        self.host = RoomHost(self.state_dir, self.limits, store, now, store_url)
        self.tournaments = TournamentDesk(self.host)
        self.bots = BotDesk(self.host)
        self.requests = Requests(self.host, self.tournaments, self.bots)
        # Other servers' rooms, through them; their clients in this one's (relay.py).
        self.host.elsewhere = Relays(self.host)
        self.stand_ins = StandIns(self.host, self.requests)
        self._tokens = Tokens()
        self._server: asyncio.AbstractServer | None = None
        self._connections: set[asyncio.Task[None]] = set()

    def issue_token(self, identity: Identity, ttl: float = 60.0) -> str:
        """A one-time token that lets one client process act as `identity`."""
        return self._tokens.issue(identity, ttl)

    async def start(self) -> None:
        run = self.socket_path.parent
        run.mkdir(parents=True, exist_ok=True)
        os.chmod(run, 0o700)  # nobody else may even reach the socket
        self.socket_path.unlink(missing_ok=True)  # left by a server that was killed
        await self.host.start()
        await self.tournaments.start()
        self._server = await asyncio.start_unix_server(
            self._serve, path=str(self.socket_path), limit=self.limits.max_line
        )
        log.info("room service listening on %s", self.socket_path)

    async def close(self) -> None:
        """Tell every client, stop listening, stop the AI; every room is on disk already."""
        if self._server is not None:
            self._server.close()
        for client in list(self.host.clients):
            client.send(Bye("The server is stopping. Your games are kept."))
            client.close()
        if self._connections:  # closed writers end their readers; stragglers are cancelled
            _, late = await asyncio.wait(self._connections, timeout=2.0)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self.tournaments.close()
        await self.host.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        self.socket_path.unlink(missing_ok=True)

    # ---- one connection ---------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        client: Connection | None = None
        try:
            line = await asyncio.wait_for(self._line(reader), LOGIN_SECONDS)
            client = Connection(writer, self._admit(line or b""))
            self.host.arrive(client)
            await self._follow(reader, client)
        except ProtocolError as error:
            who = client.who if client is not None else "(not logged in)"
            log.warning("client %s closed: %s", who, error)
            with contextlib.suppress(Exception):
                writer.write(encode(Bye(f"Protocol error: {error}")))
        except TimeoutError:
            log.warning("client closed: no hello within %g s", LOGIN_SECONDS)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away: its seat is held (host.depart)
        except asyncio.CancelledError:
            pass  # the service is closing (ending quietly: asyncio logs a cancelled handler)
        finally:
            self._connections.discard(task)
            if client is not None:
                client.closed = True
                self.host.depart(client)
            writer.close()

    async def _follow(self, reader: asyncio.StreamReader, client: Connection) -> None:
        allowance, last = float(BURST), time.monotonic()
        while not client.closed:
            line = await self._line(reader)
            if line is None:
                return
            now = time.monotonic()
            allowance = min(BURST, allowance + (now - last) * PER_SECOND) - 1
            last = now
            if allowance < 0:
                raise ProtocolError(f"more than {PER_SECOND:g} messages a second")
            self.requests.handle(client, parse_client_line(line))
            await writer_drained(client)

    async def _line(self, reader: asyncio.StreamReader) -> bytes | None:
        """The next line, None at the end; ProtocolError when it is too long."""
        try:
            line = await reader.readline()
        except ValueError:  # asyncio's word for a line over the limit
            raise ProtocolError(f"a line over {self.limits.max_line} bytes") from None
        if not line.endswith(b"\n"):
            return None  # end of the stream (a partial last line is not a message)
        return line

    def _admit(self, line: bytes) -> Identity:
        """The identity a hello line proves; ProtocolError when it proves none."""
        if not line.endswith(b"\n"):
            raise ProtocolError("no hello (or one over the size limit)")
        hello = parse_client_line(line)
        if not isinstance(hello, Hello):
            raise ProtocolError(f"the first message must be hello, not {hello.kind}")
        if hello.version != VERSION:
            raise ProtocolError(f"protocol version {hello.version}; this is {VERSION}")
        identity = self._tokens.redeem(hello.token)
        if not isinstance(identity, Identity):
            raise ProtocolError("a token that is unknown, used or expired")
        return identity


async def writer_drained(client: Connection) -> None:
    """Let the client's writes go out before reading more from it (back-pressure)."""
    if client.closed:
        return
    try:
        await asyncio.wait_for(client.writer.drain(), DRAIN_SECONDS)
    except TimeoutError:
        raise ProtocolError("it does not read what it is sent") from None
