"""PostgreSQL for the tests: the system's own binaries, started in a temporary directory
on a free port of 127.0.0.1, stopped after; the tests share one migrated schema, emptied
before each.

initdb refuses to run as root, so as root the server runs as the unprivileged `nobody`
(`runuser -u nobody`), in a directory made over to it. It trusts connections from
127.0.0.1 only (it listens nowhere else and makes no Unix socket). Skipped where there
are no binaries: on PATH, in /usr/local/bin, or Debian's /usr/lib/postgresql/N/bin
(`apt-get install postgresql` puts them there).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from c4tui.server.store.postgres_store import PostgresStore

RUN_AS = "nobody"
_schemas = itertools.count(1)


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl, None when PostgreSQL is not installed."""
    found = shutil.which("initdb") or shutil.which("initdb", path="/usr/local/bin")
    if found is None:
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        found = candidates[-1] if candidates else None
    return None if found is None else Path(found).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Postgres:
    """A PostgreSQL server of the tests' own (start, url, stop)."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="c4tui-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam(RUN_AS)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.as_user = ["runuser", "-u", RUN_AS, "--"]

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self.as_user, *argv], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"),
            "-D", str(self.data), "-U", "c4tui", "--auth=trust", "-E", "UTF8",
            "--no-sync", "--no-instructions",
        )  # fmt: skip
        self.start_again()

    @property
    def url(self) -> str:
        return f"postgresql://c4tui@127.0.0.1:{self.port}/postgres"

    def fresh_url(self) -> str:
        """A URL whose connections see a new, empty schema of their own."""
        import psycopg

        schema = f"test_{os.getpid()}_{next(_schemas)}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {schema}")
        return f"{self.url}?options=-csearch_path%3D{schema}"

    def emptied(self, store: PostgresStore) -> None:
        """Every table of the store's schema emptied (its migrations stay applied): a
        fresh store for a test at a fraction of migrating one."""
        tables = [
            name
            for (name,) in store.rows(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " AND tablename <> 'schema_version'"
            )
        ]
        if tables:
            store.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")

    def halt(self) -> None:
        """Stopped at once, as a crash would, its data kept (`start_again` brings it back)."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def start_again(self) -> None:
        """Started on its data (made by `start`, or kept through a `halt`)."""
        options = f"-h 127.0.0.1 -p {self.port} -k '' -F -c max_connections=50"
        self._run(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l",
            str(self.folder / "log"), "-w", "-o", options, "start",
        )  # fmt: skip

    def processes(self) -> list[int]:
        """The server's processes: the postmaster and every backend it started (none
        while it is halted)."""
        pid_file = self.data / "postmaster.pid"
        if not pid_file.exists():
            return []
        postmaster = int(pid_file.read_text().split()[0])
        found = [postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == postmaster:
                    found.append(int(entry.name))
        return found

    def freeze(self) -> None:
        """Every process of the server stopped (SIGSTOP), as a hung host would be."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        """Stopped and its folder removed; thawed first, since a frozen postmaster
        (`freeze`) would not hear pg_ctl."""
        self.thaw()
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running() -> Iterator[Postgres]:
    """A PostgreSQL of the tests' own, started, then stopped (even frozen); the test is
    skipped where PostgreSQL is not installed. The fixtures' one body (tests/conftest.py)."""
    import pytest

    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (initdb not found)")
    server = Postgres(bin_dir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
