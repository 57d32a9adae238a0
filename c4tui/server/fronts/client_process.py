"""One served client: its command, its private directory and environment, and its PTY.

Every session (ssh or web) runs its own `c4tui --served` process, so a client that
crashes or hangs touches nobody else. The process is started through
`c4tui.server.fronts.confine` (own session, limits, death with the server) with a fresh private
directory as its home, config and data directory, which is removed when it ends; the
server sweeps leftovers (after a SIGKILL) at its next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import pty
import shutil
import signal
import struct
import sys
import sysconfig
import tempfile
import termios
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import c4tui
from c4tui.server.wire.client_errors import ERRORS_ENV

log = logging.getLogger("c4tui.server")
CLIENTS_DIR = "clients"  # in the state directory: a private home for each client
HOME_PREFIX = "client-"
# -P: the working directory is not put first on the module path. The server's programs
# (the confinement, the fork server, the client) run with the directory the server was
# started in as theirs; with it on the path, a `c4tui/` there would run as the client
# (or, unreadable in the sandbox, every login would fail).
PYTHON = (sys.executable, "-P")
CLIENT_ARGV = (*PYTHON, "-m", "c4tui", "--served")
SOCKET_ENV = "C4TUI_ROOMS_SOCKET"
TOKEN_ENV = "C4TUI_ROOMS_TOKEN"
WEB_SECRET_ENV = "C4TUI_ROOMS_WEB_SECRET"
# Input a client has not read yet beyond this is dropped: it is hung, not slow.
MAX_PENDING_INPUT = 256 * 1024
ERRORS_FILE = "errors.txt"  # in a client's private home: what stopped it, for the log
MAX_ERRORS_LOGGED = 64 * 1024  # bytes of it: a traceback, not whatever a client wrote


@dataclass(frozen=True)
class ClientCommand:
    """How a client process is started: its argv and the limits it runs under."""

    argv: tuple[str, ...] = CLIENT_ARGV
    memory: int = 0  # address-space cap in bytes (0: none)
    nice: int = 0

    def confined(
        self,
        home: Path,
        *,
        terminal: bool,
        env_file: Path | None = None,
        pid_file: Path | None = None,
    ) -> list[str]:
        """The argv that starts the client through `c4tui.server.fronts.confine`, writing only in
        `home`."""
        argv = [*PYTHON, "-m", "c4tui.server.fronts.confine", "--parent", str(os.getpid())]
        argv += ["--memory", str(self.memory), "--nice", str(self.nice), "--home", str(home)]
        for place in readable_places(self.argv, home):
            argv += ["--read", place]
        if terminal:
            argv.append("--terminal")
        if env_file is not None:
            argv += ["--env-file", str(env_file)]
        if pid_file is not None:
            argv += ["--pid-file", str(pid_file)]
        return [*argv, "--", *self.argv]


def readable_places(client_argv: Sequence[str], home: Path) -> list[str]:
    """What a client reads besides its home and the system: Python, its libraries, c4tui
    and the client program's own files; never a place that holds the state directory
    (the host key, the rooms, the games, the other clients' homes)."""
    state = home.resolve().parent.parent
    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    places |= {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    places |= {entry for entry in sys.path if entry and os.path.isdir(entry)}
    places.add(str(Path(c4tui.__file__).parent))
    places |= {word for word in client_argv if os.path.isfile(word)}
    readable = []
    for place in sorted(places):
        real = Path(place).resolve()
        if real.exists() and not state.is_relative_to(real):
            readable.append(str(real))
    return readable


class PrivateHome:
    """A fresh directory of one client (mode 0700), its home for every file it keeps."""

    def __init__(self, clients_dir: Path) -> None:
        clients_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix=HOME_PREFIX, dir=clients_dir))

    def environment(self) -> dict[str, str]:
        """Variables that point every place a client could write into this directory."""
        places = {
            "HOME": "home",
            "C4TUI_CONFIG_DIR": "config",
            "C4TUI_DATA_DIR": "data",
            "XDG_CONFIG_HOME": "home/.config",
            "XDG_DATA_HOME": "home/.local/share",
            "XDG_CACHE_HOME": "home/.cache",
            "TMPDIR": "tmp",
        }
        for relative in places.values():
            (self.root / relative).mkdir(mode=0o700, parents=True, exist_ok=True)
        environment = {name: str(self.root / relative) for name, relative in places.items()}
        return {**environment, ERRORS_ENV: str(self.root / ERRORS_FILE)}

    def keep_environment(self, environment: dict[str, str]) -> Path:
        """Write a client's environment to a file here (0600) that the client reads once
        and removes (`confine.client_environment`): its token never shows in `ps`, nor
        stays in the memory of the fork server, which later children inherit."""
        env_file = self.root / "environment.json"
        descriptor = os.open(env_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(environment, handle)
        return env_file

    def remove(self, who: str) -> None:
        """Log what stopped the client, if anything did (`who`: the session, as the
        front's log lines name it), then remove the directory. The player was told in one
        line (server/wire/client_errors.py); the details are the operator's."""
        errors = self.root / ERRORS_FILE
        with contextlib.suppress(OSError), errors.open("rb") as kept:
            details = kept.read(MAX_ERRORS_LOGGED).decode("utf-8", "replace").rstrip()
            if details:
                # Each line escaped: a local value shown in a traceback may hold what a
                # player typed, and no escape sequence reaches the operator's terminal.
                lines = "\n".join("  " + _printable(line) for line in details.splitlines())
                log.error("%s: its client stopped on an error:\n%s", who, lines)
        shutil.rmtree(self.root, ignore_errors=True)


def _printable(line: str) -> str:
    """A line with every control or invisible character escaped, as repr writes it."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


def sweep_private_homes(clients_dir: Path) -> None:
    """Remove the private directories a killed server left behind (its own only: a
    `client-*` directory; anything else there is not the server's to delete)."""
    if clients_dir.is_dir():
        for leftover in clients_dir.glob(f"{HOME_PREFIX}*"):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)


def client_environment(
    home: PrivateHome, rooms: dict[str, str], term: str | None = None
) -> dict[str, str]:
    """A client's whole environment: its home, the room service's address and credential."""
    environment = {"PATH": os.defpath, "LANG": "C.UTF-8", **home.environment(), **rooms}
    if term:
        environment["TERM"] = term
    return environment


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """Tell a PTY its size; the kernel sends SIGWINCH to the client when it changes."""
    columns, rows = max(1, min(columns, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def kill_group(pid: int, sig: int) -> None:
    """Signal a client's whole process group (it leads its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


class ClientProcess(Protocol):
    """A running client as the server sees it: an asyncio process, or one the fork
    server started (forks.py)."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...
    async def wait(self) -> int: ...


class Spawner(Protocol):
    """What starts a client without exec: the fork server (forks.py); None when it cannot."""

    async def spawn(
        self, home: Path, env_file: Path, streams: Sequence[int]
    ) -> ClientProcess | None: ...


class TerminalClient:
    """A client process in a PTY of its own: bytes in and out, size changes, an end."""

    def __init__(
        self,
        command: ClientCommand,
        home: PrivateHome,
        environment: dict[str, str],
        on_output: Callable[[bytes], None],
        forks: Spawner | None = None,
    ) -> None:
        self.command = command
        self.home = home
        self.environment = environment
        self.on_output = on_output
        self.forks = forks
        self.process: ClientProcess | None = None
        self.master: int | None = None
        self.pending = bytearray()
        self.paused = False
        self.output_done = asyncio.Event()

    async def start(self, columns: int, rows: int) -> None:
        master, slave = pty.openpty()
        try:
            set_window_size(master, columns, rows)
            if self.forks is not None:
                env_file = self.home.keep_environment(self.environment)
                self.process = await self.forks.spawn(self.home.root, env_file, [slave])
                if self.process is None:  # started by exec below: nobody will read it
                    env_file.unlink()
            if self.process is None:
                self.process = await asyncio.create_subprocess_exec(
                    *self.command.confined(self.home.root, terminal=True),
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=self.environment,
                    start_new_session=True,
                )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        self.master = master
        asyncio.get_running_loop().add_reader(master, self._read)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def _read(self) -> None:
        try:
            assert self.master is not None  # read only while the client runs
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: nobody holds the PTY's other end any more
            data = b""
        if data:
            self.on_output(data)
            return
        asyncio.get_running_loop().remove_reader(self.master)  # type: ignore[arg-type]  # set
        self.output_done.set()

    def pause_output(self) -> None:
        """The reader is slow: stop reading, so the client blocks instead of memory growing."""
        if self.master is not None and not self.paused and not self.output_done.is_set():
            self.paused = True
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_output(self) -> None:
        if self.master is not None and self.paused and not self.output_done.is_set():
            self.paused = False
            asyncio.get_running_loop().add_reader(self.master, self._read)

    def write(self, data: bytes) -> None:
        """Send key presses to the client."""
        if self.master is None or self.output_done.is_set():
            return
        waiting = bool(self.pending)
        self.pending += data[: max(0, MAX_PENDING_INPUT - len(self.pending))]
        if not waiting:
            self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        assert self.master is not None  # written only while the client runs
        try:
            written = os.write(self.master, self.pending)
        except BlockingIOError:
            written = 0
        except OSError:
            self.pending.clear()
            written = 0
        del self.pending[:written]
        loop.remove_writer(self.master)
        if self.pending:
            loop.add_writer(self.master, self._flush)

    def resize(self, columns: int, rows: int) -> None:
        if self.master is not None and not self.output_done.is_set():
            set_window_size(self.master, columns, rows)

    async def wait(self) -> int:
        """Wait for the client to end; its status. Its output is all delivered by then."""
        assert self.process is not None
        status = await self.process.wait()
        # Whatever the client left running in its group ends with it.
        kill_group(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.output_done.wait(), 5.0)
        self._close_master()
        return status

    async def stop(self, grace: float = 2.0) -> None:
        """End the client: SIGTERM to its group, then SIGKILL after `grace` seconds."""
        if self.process is None or self.process.returncode is not None:
            self._close_master()
            return
        kill_group(self.process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(self.process.wait()), grace)
        except TimeoutError:
            kill_group(self.process.pid, signal.SIGKILL)
            await self.process.wait()
        kill_group(self.process.pid, signal.SIGKILL)
        self._close_master()

    def _close_master(self) -> None:
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.master)
        loop.remove_writer(self.master)
        os.close(self.master)
        self.master = None
        self.output_done.set()
