"""PlayerSession: one player's interactive ssh session, a PTY and the client it runs.

The ssh front (ssh.py) lets a connection in; each session it asks for is one of these:
a PTY request (its TERM checked), then a shell request that starts the player's own
client process (client_process.py) with the player's credentials, its output written
to the channel and the player's keys and window size passed on. Commands, subsystems
and sessions without a terminal are refused, each with one log line. A session the
server ends (`end`) tells the player why and gives them their terminal back.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from c4tui.server.fronts.client_process import (
    CLIENTS_DIR,
    ClientCommand,
    PrivateHome,
    TerminalClient,
    client_environment,
)
from c4tui.server.fronts.forks import Forks
from c4tui.server.fronts.players import Credentials, NameTaken, Player, Players
from c4tui.server.fronts.session_limits import Gate
from c4tui.server.wire.protocol import escaped

log = logging.getLogger("c4tui.server")

# What a TERM value may be ("xterm-256color", "screen.xterm", "rxvt-unicode"); anything
# else (a NUL, an escape sequence, a page of text) is not passed on to the client.
TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
DEFAULT_TERM = "xterm-256color"
# The screen-reader mode, asked by the player's ssh (`ssh -o SetEnv=C4TUI_SCREEN_READER=1`):
# the one variable of theirs a client is given (the app reads it, c4tui/app/reader/mode.py).
READER_ENV = "C4TUI_SCREEN_READER"
# Leave the alternate screen, stop mouse reports and bracketed paste, show the cursor:
# a client ended by the server cannot restore the player's terminal itself.
RESTORE_TERMINAL = (
    b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[0m\r\n"
)


class SessionFront(Protocol):
    """What a session asks of its front (ssh.py's SshFront)."""

    state_dir: Path
    gate: Gate
    command: ClientCommand
    credentials: Credentials
    players: Players
    forks: Forks | None
    sessions: set[PlayerSession]
    tasks: set[asyncio.Task[None]]

    def refuse(self, address: str, what: str) -> None: ...
    def spawn(self, job: Coroutine[Any, Any, None]) -> None: ...


class PlayerSession(asyncssh.SSHServerSession[bytes]):
    """One interactive session: a PTY request, then a shell request that starts a client."""

    def __init__(self, front: SessionFront, player: Player) -> None:
        self.front = front
        self.player = player
        self.address = player.address
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.client: TerminalClient | None = None
        self.closed = False
        self.ending: str | None = None
        self.entered = False  # whether self.player is entered in front.players
        self.last_input = time.monotonic()
        self.task: asyncio.Task[None] | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object
    ) -> bool:
        if TERM_NAME.fullmatch(term_type):
            self.term = term_type
        else:
            log.warning(
                "ssh %s: TERM %s is not a terminal's name: %s instead",
                self.address,
                escaped(term_type, 40),
                DEFAULT_TERM,
            )
            self.term = DEFAULT_TERM
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        if self.term is None:
            self.front.refuse(self.player.address, "a session without a terminal (sessions only)")
            return False
        return True

    def exec_requested(self, command: str) -> bool:
        self.front.refuse(self.player.address, f"command {escaped(command, 60)} (sessions only)")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self.front.refuse(
            self.player.address, f"subsystem {escaped(subsystem, 30)} (sessions only)"
        )
        return False

    def session_started(self) -> None:
        self.task = asyncio.create_task(self.run())
        self.front.tasks.add(self.task)
        self.task.add_done_callback(self.front.tasks.discard)

    async def run(self) -> None:
        refusal = self.front.gate.admit(self.player.address)
        if refusal is not None:
            log.warning("ssh %s: refused a session: %s", self.player.address, refusal)
            self.say(f"c4tui: {refusal}")
            self.finish(1)
            return
        try:
            self.player = self.front.players.enter(self.player)
        except NameTaken as taken:
            log.warning("ssh %s: refused a name: %s", self.address, taken)
            self.say(f"c4tui: {taken}")
            self.finish(1)
            self.front.gate.release(self.player.address)
            return
        self.entered = True
        home = PrivateHome(self.front.state_dir / CLIENTS_DIR)
        try:
            environment = client_environment(home, self.front.credentials(self.player), self.term)
            asked = self.chan.get_environment() if self.chan is not None else {}
            if str(asked.get(READER_ENV, "")).strip() not in ("", "0"):
                environment[READER_ENV] = "1"
            self.client = TerminalClient(
                self.front.command, home, environment, self.output, self.front.forks
            )
            await self.client.start(*self.size)
            self.front.sessions.add(self)
            log.info(
                "ssh %s: %s started a client (pid %s)",
                self.address,
                self.player.name,
                self.client.pid,
            )
            status = await self.client.wait()
            # A client that ended by itself (the room service said goodbye) has told
            # the player; one the server ended (a signal) has not.
            if self.ending is not None and status < 0:
                self.say(RESTORE_TERMINAL.decode() + f"c4tui: {self.ending}")
            self.finish(status)
        except Exception as error:
            log.exception("ssh %s: the client could not run", self.player.address)
            self.say(f"c4tui: the game could not start ({error})")
            self.finish(1)
        finally:
            self.front.sessions.discard(self)
            self.leave()
            self.front.gate.release(self.player.address)
            if self.client is not None:
                await self.client.stop()
            home.remove(f"ssh {self.player.address}")

    def leave(self) -> None:
        """This session's player has gone (once: a later session may be the same player)."""
        if self.entered:
            self.entered = False
            self.front.players.leave(self.player)

    def output(self, data: bytes) -> None:
        if self.closed:
            return
        if self.chan is None:
            return  # no channel yet: nothing can be shown
        try:
            self.chan.write(data)
        except BrokenPipeError:  # the player's side closed the channel
            self.closed = True
            if self.client is not None:
                self.front.spawn(self.client.stop())

    def say(self, line: str) -> None:
        self.output(f"{line}\r\n".encode())

    def finish(self, status: int) -> None:
        if not self.closed:
            self.closed = True
            if self.chan is not None:
                self.chan.exit(status if 0 <= status < 256 else 1)

    async def end(self, message: str) -> None:
        """End this session from the server's side, telling the player why."""
        self.ending = message
        if self.client is not None:
            await self.client.stop()
        if self.task is not None:
            await asyncio.wait({self.task})

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_input = time.monotonic()
        if self.client is not None:
            self.client.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or 80, height or 24)
        if self.client is not None:
            self.client.resize(*self.size)

    def pause_writing(self) -> None:
        if self.client is not None:
            self.client.pause_output()

    def resume_writing(self) -> None:
        if self.client is not None:
            self.client.resume_output()

    def eof_received(self) -> bool:
        return True  # no more keys (`ssh -tt host < file`); the game may still draw

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        # The player is gone now: coming straight back is this player again (the seat),
        # even while the old client is still being ended.
        self.leave()
        if self.client is not None:
            self.front.spawn(self.client.stop())
