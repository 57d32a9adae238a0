"""`c4tui serve` as one object: the room service and the fronts, started and stopped together."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from math import inf
from pathlib import Path

from c4tui.server.fronts.client_process import (
    CLIENT_ARGV,
    CLIENTS_DIR,
    SOCKET_ENV,
    TOKEN_ENV,
    ClientCommand,
    sweep_private_homes,
)
from c4tui.server.fronts.forks import SERVED_ENTRY, SERVED_PRELOAD, SERVED_REREAD, Forks
from c4tui.server.fronts.players import NAMES_FILE, Player
from c4tui.server.fronts.refusal_log import RefusalLog
from c4tui.server.fronts.session_limits import Gate, ServeLimits
from c4tui.server.fronts.ssh import SshFront
from c4tui.server.fronts.ssh_keys import HOST_KEY_NAME
from c4tui.server.fronts.web import WebFront
from c4tui.server.rooms.old_state import ASIDE
from c4tui.server.service.service import RoomService
from c4tui.server.store.store import DATABASE_NAME, StoreGone
from c4tui.server.wire.identity import Identity, RoomLimits

log = logging.getLogger("c4tui.server")

STATE_MARKER = ".c4tui-serve"
# What a state directory of an earlier version (before the marker) may hold.
STATE_NAMES = {
    STATE_MARKER,
    HOST_KEY_NAME,
    f".{HOST_KEY_NAME}.new",
    NAMES_FILE,
    DATABASE_NAME,
    f"{DATABASE_NAME}-wal",
    f"{DATABASE_NAME}-shm",
    ASIDE,
    "rooms",
    "players",
    "run",
    CLIENTS_DIR,
}
REFUSING_LOGGER = "c4tui.server"  # its floods summarised (refusal_log.py)
STOPPING = "the server is stopping; your game is kept. Come back when it is up again."
DATABASE_LINE = f"Its database {DATABASE_NAME} was made: the server never starts without it.\n"
BROKEN = "the server has stopped: its database is gone. Your last moves may be lost."


@dataclass(frozen=True)
class ServeConfig:
    """Everything `c4tui serve` was asked for."""

    state_dir: Path
    host: str = "127.0.0.1"
    ssh_port: int | None = 2222  # None: no ssh front
    web_port: int | None = 8080  # None: no web front
    limits: ServeLimits = field(default_factory=ServeLimits)
    room_limits: RoomLimits = field(default_factory=RoomLimits)
    authorized: frozenset[str] | None = None  # key identities admitted; None: anyone
    client_argv: tuple[str, ...] = CLIENT_ARGV
    store_url: str | None = None  # a PostgreSQL database; None: the state directory's SQLite


class StateDirError(Exception):
    """A --state directory the server will not use; the message says why."""


def claim_state_dir(state_dir: Path) -> None:
    """Make the state directory (0700), or take one that is ours or empty.

    A directory that holds anything else is refused: the server keeps private files in
    it and removes what its clients leave, so it must never be a directory of the
    user's. One it did not make keeps its own permissions (what the server keeps in it
    is private by its own modes).
    """
    marker = state_dir / STATE_MARKER
    if not state_dir.exists():
        state_dir.mkdir(mode=0o700, parents=True)
    elif not state_dir.is_dir():
        raise StateDirError(f"{state_dir} is not a directory")
    elif not marker.is_file():
        names = {p.name for p in state_dir.iterdir()}
        others = sorted(names - STATE_NAMES)
        # One of an earlier version has rooms/ and players/: every start made them.
        earlier = {"rooms", "players"} <= names
        # A host key alone was put there by the operator: several servers behind one
        # address share one key (docs/deployment.md).
        if others or (names and not earlier and names != {HOST_KEY_NAME}):
            shown = ", ".join((others or sorted(names))[:3]) + (", ..." if len(names) > 3 else "")
            raise StateDirError(
                f"{state_dir} is not empty and not a state directory of c4tui serve "
                f"(it holds {shown}): give a new or empty directory"
            )
    if not marker.is_file():
        marker.write_text(
            "A state directory of c4tui serve: its database (players, rooms, games), its "
            "host key.\n"
        )


def hold_state_dir(state_dir: Path) -> int:
    """Lock the state directory for this server (an open file of its marker, flocked):
    a second server there would take its rooms back and forth and break its logins.
    StateDirError when another holds it. The lock goes with the process, however it
    ends; the file is close-on-exec, and every child of the server is exec'd."""
    held = os.open(state_dir / STATE_MARKER, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(held)
        raise StateDirError(
            f"{state_dir} is in use by another c4tui serve: a state directory is one "
            "server's (give each server its own)"
        ) from None
    return held


def database_still_there(state_dir: Path) -> None:
    """StoreGone when the state directory's marker says a database was made here and
    it is gone: starting afresh would hand every player's name to whoever logs in
    first. Otherwise the marker is told the database is here (made now, or before
    the marker knew of databases)."""
    marker = state_dir / STATE_MARKER
    said = marker.read_text(errors="replace")
    if (state_dir / DATABASE_NAME).exists():
        if DATABASE_LINE not in said:
            with marker.open("a") as out:
                out.write(DATABASE_LINE)
        return
    if DATABASE_LINE in said:
        raise StoreGone(
            f"{state_dir / DATABASE_NAME}: the database is gone from a state directory "
            "that had one; the server does not start a new community under players' names"
        )


class Server:
    """The room service and the ssh and web fronts of one `c4tui serve`."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.state_dir = config.state_dir
        self._held: int | None = None  # the state directory's lock (hold_state_dir)
        # Called once when the server must stop on its own (its database gone): the
        # serve command stops it as for Ctrl-C, and exits with status 1.
        self.on_broken: Callable[[str], None] | None = None
        self.broken = False  # the database went while the server ran: it stops
        self.refusal_log = RefusalLog(config.limits.refusal_lines)
        self._summaries: asyncio.Task[None] | None = None
        self.rooms = RoomService(config.state_dir, config.room_limits, store_url=config.store_url)
        self.gate = Gate(config.limits)
        command = ClientCommand(
            config.client_argv,
            memory=config.limits.client_memory,
            nice=config.limits.client_nice,
        )
        # The clients of the app itself, ssh sessions' and browser tabs' alike, come from
        # one fork server that imported it once (forks.py); another client program, a
        # test's, is started by exec.
        self.forks = (
            Forks(command, SERVED_ENTRY, SERVED_PRELOAD, SERVED_REREAD)
            if config.client_argv == CLIENT_ARGV
            else None
        )
        fronts = dict(
            state_dir=config.state_dir,
            host=config.host,
            gate=self.gate,
            command=command,
            credentials=self.credentials,
            forks=self.forks,
        )
        self.ssh = (
            None
            if config.ssh_port is None
            else SshFront(port=config.ssh_port, authorized=config.authorized, **fronts)
        )
        self.web = (
            None
            if config.web_port is None
            else WebFront(port=config.web_port, bots=self.rooms.bots, **fronts)
        )

    async def start(self) -> None:
        """Bring the rooms back from the state directory, then open the fronts."""
        claim_state_dir(self.state_dir)
        self._held = hold_state_dir(self.state_dir)
        try:
            sqlite = self.config.store_url is None
            if sqlite:
                database_still_there(self.state_dir)
            sweep_private_homes(self.state_dir / CLIENTS_DIR)
            await self.rooms.start()
            if sqlite:
                database_still_there(self.state_dir)  # made now: the marker says so
        except BaseException:
            self._let_go()
            raise
        self.rooms.host.store.on_gone = self._store_gone
        logging.getLogger(REFUSING_LOGGER).addFilter(self.refusal_log)
        self._summaries = asyncio.create_task(self._summarise_refusals())
        if self.ssh is not None:  # the names are the community's, in the rooms' store
            self.ssh.store = self.rooms.host.store
            self.ssh.elsewhere = self.rooms.requests.others.online
        if self.web is not None:  # and a browser's chosen name
            self.web.store = self.rooms.host.store
        try:
            for front in (self.ssh, self.web):
                if front is not None:
                    await front.start()
            # Listening already: a client that comes before the fork server is ready
            # (its imports take a second or so) is started by exec.
            if self.forks is not None:
                await self.forks.start()
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Tell everyone, keep every game, end every client process."""
        log.info("stopping: telling %d sessions", self.gate.total)
        await self.rooms.close()
        for front in (self.ssh, self.web):
            if front is not None:
                await front.stop(BROKEN if self.broken else STOPPING)
        if self.forks is not None:  # after the fronts: its children are their clients
            await self.forks.stop()
        if self._summaries is not None:
            self._summaries.cancel()
        self.refusal_log.flush(now=inf)
        logging.getLogger(REFUSING_LOGGER).removeFilter(self.refusal_log)
        self._let_go()

    async def _summarise_refusals(self) -> None:
        while True:  # a flood's summary said within seconds of its minute, even if quiet
            await asyncio.sleep(5.0)
            self.refusal_log.flush()

    def _store_gone(self, error: StoreGone) -> None:
        self.broken = True
        log.critical("STOPPING: %s", error)
        if self.on_broken is not None:
            self.on_broken(str(error))

    def _let_go(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def credentials(self, player: Player) -> dict[str, str]:
        """A new client's way in: the room socket and a one-time token for this player."""
        token = self.rooms.issue_token(Identity(player.key, player.name, player.address))
        return {SOCKET_ENV: str(self.rooms.socket_path), TOKEN_ENV: token}
