"""`c4tui bench`: every engine measured (or reported unavailable), in JSON and as a table."""

from __future__ import annotations

import json
import platform

import pytest

from c4tui.cli import main


def bench_json(capsys, *argv: str) -> dict:
    assert main(["bench", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_timed_engines_report_a_rate_on_both_positions(capsys):
    data = bench_json(capsys, "--time", "0.05", "--only", "mcts", "--only", "negamax")
    assert data["python"] == platform.python_version()
    rows = {(f["engine"], f["position"]): f for f in data["figures"]}
    assert set(rows) == {
        (engine, position)
        for engine in ("mcts", "negamax")
        for position in ("empty board", "middle game")
    }
    for figure in rows.values():
        assert figure["python"] == platform.python_version()
        assert figure["status"] in ("ok", "unavailable")
        if figure["status"] == "ok":
            assert figure["value"] > 0 and figure["count"] > 0


def test_solver_sample_scores_are_right(capsys):
    data = bench_json(capsys, "--only", "solver")
    (figure,) = data["figures"]
    # A wrong score would set the status to name the position.
    assert figure["status"] == "ok"
    assert figure["value"] > 0 and figure["count"] > 0


def test_table_names_the_python_version(capsys):
    assert main(["bench", "--time", "0.02", "--only", "flat"]) == 0
    out = capsys.readouterr().out
    assert f"Python {platform.python_version()}" in out
    assert "playouts/s" in out


@pytest.mark.parametrize("seconds", ["0", "-1", "61"])
def test_bad_time_exits_2(capsys, seconds):
    assert main(["bench", "--time", seconds]) == 2
    assert "--time must be" in capsys.readouterr().err
