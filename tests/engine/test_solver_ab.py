"""benchmarks/solver_ab.py: builds of the kernels loaded side by side in one process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.engine.kernels import library

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(library.library() is None, reason="installed without C kernels")
def test_two_loads_of_one_build_search_the_same_nodes(tmp_path):
    built = library.module_path()
    assert built is not None
    copy = tmp_path / Path(built).name  # a second file: loaded as a library of its own
    copy.write_bytes(Path(built).read_bytes())
    positions = tmp_path / "set.txt"
    positions.write_text("# two quick ones\n4453\n315237735272\n")
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "solver_ab.py"),
            "--set",
            str(positions),
            "--rounds",
            "1",
            f"one={built}",
            f"two={copy}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert lines[0].startswith("2 positions, least of 1 rounds")
    one, two = (line.split("nodes ")[1].split()[0] for line in lines[1:3])
    assert one == two and int(one.replace(",", "")) > 0, run.stdout
