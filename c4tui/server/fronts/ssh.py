"""The ssh front: interactive sessions with a PTY, each running its own client; nothing else.

A player types `ssh -p 2222 name@host`. Authentication is open by default: any name is
let in; a public key the ssh client offers becomes the player's identity (so the same
key finds its seat again after a dropped connection), else the name does. With
`--authorized-keys` only the listed keys get in. Commands (`ssh host ls`), subsystems
(sftp), sessions without a terminal, port forwarding both ways, agent and X11
forwarding are refused, each with one log line. Each session, its PTY and the client it
runs, is a PlayerSession (ssh_session.py).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncssh

from c4tui.community.passwords import matches
from c4tui.server.fronts.front import Front
from c4tui.server.fronts.players import (
    NameBook,
    Player,
    Players,
    guard_login_names,
)
from c4tui.server.fronts.ssh_keys import key_identity, load_or_create_host_key
from c4tui.server.fronts.ssh_session import PlayerSession
from c4tui.server.rooms.access import GuessLimit
from c4tui.server.store.opening import open_store
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.protocol import escaped

log = logging.getLogger("c4tui.server")


class AsyncsshRefusals(logging.Filter):
    """Turns asyncssh's own refusals of agent and X11 forwarding into our log lines.

    asyncssh refuses them itself (agent_forwarding/x11_forwarding off) and says so only
    in its log, tagged `[conn=N, ...]`; of everything else it logs (a line or more for
    every connection and channel), only warnings and errors pass.
    """

    DENIED = re.compile(r"\[conn=(\d+)[^\]]*\] (Agent|X11) forwarding request denied")

    def __init__(self, addresses: dict[str, str]) -> None:
        super().__init__()
        self.addresses = addresses

    def filter(self, record: logging.LogRecord) -> bool:
        match = self.DENIED.match(record.getMessage())
        if match:
            address = self.addresses.get(match[1], "?")
            log.warning("ssh %s: refused %s forwarding", address, match[2].lower())
            return False
        return record.levelno >= logging.WARNING


class SshFront(Front):
    """Listens for ssh connections and runs a client in a PTY for each session."""

    kind = "ssh"

    def __init__(self, *, authorized: frozenset[str] | None = None, **ground: Any) -> None:
        """`ground`: what every front takes (front.py); `authorized`: the public keys
        let in, or None for anyone."""
        super().__init__(**ground)
        # The community's store, which holds the names: the server hands it the room
        # service's before start; a front alone opens the state directory's own.
        self.store: Store | None = None
        self._own_store: Store | None = None
        # Who is online on the other servers sharing the store (the server hands it the
        # room service's: server/rooms/other_servers.py), for the names in use right now.
        self.elsewhere: Callable[[], dict[str, str]] = dict
        self.authorized = authorized
        self.sessions: set[PlayerSession] = set()
        self.addresses: dict[str, str] = {}  # asyncssh's connection number -> peer address
        self.server: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.tasks: set[asyncio.Task[None]] = set()  # held, so none is collected half-way
        self.refusals = AsyncsshRefusals(self.addresses)
        # Wrong passwords, per login name and per address: a few at once, then one each
        # --password-wait; while waiting even the right one is refused, unchecked.
        limits = self.gate.limits
        self.password_guesses = GuessLimit(limits.password_guesses, limits.password_wait)
        # Passwords are checked one at a time, on a thread of their own: scrypt takes
        # 16 MB a check, and glibc keeps what each thread's arena once held, so checks
        # spread over the default pool's threads grew the server from 63 to 160 MB for
        # good after 20 guesses at once. (It also keeps a flood to one core.)
        self.password_checks = ThreadPoolExecutor(1, thread_name_prefix="c4tui-passwords")

    async def start(self) -> None:
        if self.store is None:
            self.store = self._own_store = open_store(self.state_dir)
        self.players = Players(NameBook(PlayerRecords(self.store)), self.elsewhere)
        self.host_key = host_key = load_or_create_host_key(self.state_dir)
        asyncssh_log = logging.getLogger("asyncssh")
        asyncssh_log.setLevel(logging.INFO)
        asyncssh_log.addFilter(self.refusals)
        open_auth = self.authorized is None
        self.server = await asyncssh.create_server(
            lambda: PlayerConnection(self),
            self.host,
            self.port,
            server_host_keys=[host_key],
            encoding=None,  # bytes both ways: the PTY carries the terminal's own bytes
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            password_auth=open_auth,  # asked only of a keyless name with a password
            gss_auth=False,
            host_based_auth=False,
            kbdint_auth=open_auth,
            public_key_auth=True,
            login_timeout=self.gate.limits.login_timeout,
            keepalive_interval=30,
        )
        self.port = self.server.get_port()
        self.watch_idle(self.sessions)

    async def stop(self, message: str) -> None:
        """Stop listening; end every session with `message` on its screen."""
        if self.server is not None:
            self.server.close()
        await self.end_all(self.sessions, message)
        if self.server is not None:
            await self.server.wait_closed()
        logging.getLogger("asyncssh").removeFilter(self.refusals)
        self.password_checks.shutdown(wait=False, cancel_futures=True)
        if self._own_store is not None:
            self._own_store.close()

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def refuse(self, address: str, what: str) -> None:
        log.warning("ssh %s: refused %s", address, what)

    def password_of(self, name: str) -> str | None:
        """The kept password (community/passwords.py) a keyless login as `name` must give,
        None when it needs none; a store that cannot say is asked again next login."""
        if self.store is None:
            return None
        try:
            return PeopleRecords(self.store).password_of(name)
        except StoreError as error:
            log.warning("ssh: the password of %s not read: %s", escaped(name), error)
            return None


class PlayerConnection(asyncssh.SSHServer):
    """One ssh connection: flood check, authentication, and what it may open."""

    def __init__(self, front: SshFront) -> None:
        self.front = front
        self.address = "?"
        self.tag = ""
        self.key: str | None = None
        self.refusal: str | None = None  # over the limit: said after the key exchange
        self.password: str | None = None  # the kept password of the login name, if any
        self.counted = False  # towards the connections per minute

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        # LoggerAdapter.process gives asyncssh's "[conn=N] " tag of this connection.
        match = re.match(r"\[conn=(\d+)", conn.logger.process("", {})[0])
        if match:
            self.tag = match[1]
            self.front.addresses[self.tag] = self.address
        refusal = self.front.gate.flooding(self.address)
        if refusal is not None:
            log.warning("ssh %s: refused a connection: %s", self.address, refusal)
            if self.front.gate.refuse_politely(self.address):
                # Said once the key exchange is done, where ssh shows it ("Received
                # disconnect ... too many connections"); before our version line it is
                # "banner line contains invalid characters".
                self.refusal = refusal
            else:  # a flood: dropped at once, no cryptography spent on it
                conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, refusal)
        guard_login_names(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.addresses.pop(self.tag, None)
        if isinstance(exc, asyncssh.IllegalUserName):
            log.warning("ssh %s: refused a login name ssh cannot carry (an emoji?)", self.address)
        # A connection that spoke ssh (and so cost a key exchange) but never asked to log
        # in counts now; a bare TCP connect never does, so it cannot lock an address out.
        if not self.counted and self.refusal is None and self.conn.get_extra_info("client_version"):
            self.front.gate.count(self.address)

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"c4tui: {self.refusal}")
            return True
        if not self.counted:
            self.counted = True
            self.front.gate.count(self.address)
        if self.front.authorized is None:
            self.password = self.front.password_of(username)
        return True  # ask, so that a client offers its keys: a key is a stable identity

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        identity = key_identity(key)
        if self.front.authorized is not None and identity not in self.front.authorized:
            return False
        # asyncssh checks the signature after this; the identity counts only if the
        # authentication then succeeds with this same key (the last one validated).
        self.key = identity
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.front.authorized is None

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> bool | tuple[str, str, str, tuple[tuple[str, bool], ...]]:
        self.key = None  # no key proven: the name is the identity
        if self.password is None:
            return True  # no questions: open authentication
        words = f"c4tui: the name {username} has a password; give it, or log in with another name."
        return "", words, "", (("Password: ", False),)

    async def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        return len(responses) == 1 and await self.validate_password(username, responses[0])

    def password_auth_supported(self) -> bool:
        return self.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        """The password of a keyless name: scrypt on a worker thread, not the event loop."""
        self.key = None
        kept = self.password
        if kept is None:
            return False
        guesses = self.front.password_guesses
        name, address = f"name:{username.casefold()}", f"address:{self.address}"
        wait = max(guesses.wait(name), guesses.wait(address))
        if wait > 0:
            log.warning(
                "ssh %s: refused a password for %s: too many wrong ones",
                self.address,
                escaped(username),
            )
            self.conn.disconnect(
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                f"c4tui: too many wrong passwords for {username}: try again in {wait:.0f} s",
            )
            return False
        right = await asyncio.get_running_loop().run_in_executor(
            self.front.password_checks, matches, password, kept
        )
        if not right:
            guesses.missed(name)
            guesses.missed(address)
            log.warning("ssh %s: a wrong password for %s", self.address, escaped(username))
        return right

    def auth_completed(self) -> None:
        username = self.conn.get_extra_info("username") or "player"
        self.player = Player(self.key or f"ssh-name:{username}", username, self.address)
        log.info(
            "ssh %s: %s logged in as %s", self.address, escaped(username), escaped(self.player.key)
        )

    def session_requested(self) -> PlayerSession:
        return PlayerSession(self.front, self.player)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        self.front.refuse(
            self.address, f"local port forwarding to {escaped(dest_host)}:{dest_port}"
        )
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.front.refuse(
            self.address, f"remote port forwarding of {escaped(listen_host)}:{listen_port}"
        )
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.front.refuse(self.address, f"socket forwarding to {escaped(dest_path)}")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        self.front.refuse(self.address, f"remote socket forwarding of {escaped(listen_path)}")
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.front.refuse(self.address, "a tunnel device")
        return False

    def tap_requested(self, unit: int | None) -> bool:
        self.front.refuse(self.address, "a tunnel device")
        return False
