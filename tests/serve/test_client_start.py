"""How the server starts its programs: never from the directory it was started in, and
confined clients can do what a player asks of them (a download names its file's type)."""

from __future__ import annotations

import mimetypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.server.fronts.client_process import CLIENT_ARGV, ClientCommand, PrivateHome

IMPOSTOR = "import sys; print('an impostor c4tui ran'); sys.exit(7)\n"


def impostor_checkout(tmp_path: Path) -> Path:
    """Another checkout's directory: a `c4tui/` package of its own."""
    checkout = tmp_path / "other-checkout"
    (checkout / "c4tui").mkdir(parents=True)
    for module in ("__init__.py", "__main__.py"):  # any import of c4tui runs it first
        (checkout / "c4tui" / module).write_text(IMPOSTOR)
    return checkout


def run_confined(tmp_path: Path, client: tuple[str, ...], cwd: Path) -> subprocess.CompletedProcess:
    home = PrivateHome(tmp_path / "state" / "clients")
    argv = ClientCommand(client).confined(home.root, terminal=False)
    environment = {"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": str(home.root)}
    return subprocess.run(
        argv, cwd=cwd, env=environment, capture_output=True, text=True, timeout=120
    )


def test_a_server_started_in_another_checkout_runs_its_own_client(tmp_path):
    checkout = impostor_checkout(tmp_path)
    version = (*CLIENT_ARGV[:-1], "--version")  # the client's program, asked its version
    ran = run_confined(tmp_path, version, cwd=checkout)
    assert "impostor" not in ran.stdout + ran.stderr
    assert ran.returncode == 0, ran.stderr
    assert (ran.stdout + ran.stderr).startswith("c4tui ")


def test_a_confined_client_can_name_a_downloads_type(tmp_path):
    known = [f for f in mimetypes.knownfiles if os.path.isfile(f)]
    if not known:
        pytest.skip("no mime.types on this machine: nothing the sandbox could refuse")
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from c4tui.server.fronts.confine import confine_files;"
            f" sys.exit(0 if confine_files({str(tmp_path)!r}) else 3)",
        ],
        capture_output=True,
    )
    if probe.returncode == 3:
        pytest.skip("no Landlock in this kernel: nothing is refused")
    guess = "import mimetypes; print(mimetypes.guess_type('game.txt')[0])"
    ran = run_confined(tmp_path, (sys.executable, "-P", "-c", guess), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "text/plain"
