"""`c4tui bench`: every engine measured against a yardstick, in JSON and as a table."""

from __future__ import annotations

import json
import platform

import pytest

from c4tui.cli import main
from c4tui.commands import bench


def bench_json(capsys, *argv: str) -> dict:
    assert main(["bench", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_timed_engines_report_a_rate_on_both_positions(capsys):
    argv = ("--time", "0.05", "--only", "mcts", "--only", "flat", "--only", "negamax")
    data = bench_json(capsys, *argv)
    assert data["python"] == platform.python_version()
    reference = data["reference"]["value"]
    assert reference > 0 and len(data["reference"]["runs"]) == 2
    rows = {(f["engine"], f["position"]): f for f in data["figures"]}
    assert set(rows) == {
        (engine, position)
        for engine in ("mcts", "flat", "negamax")
        for position in ("empty board", "middle game")
    }
    for figure in rows.values():
        assert figure["status"] == "ok"
        assert figure["python"] == platform.python_version()
        assert figure["value"] > 0 and figure["count"] > 0
        assert figure["relative"] == pytest.approx(figure["value"] / reference, rel=0.01)
    assert rows[("negamax", "middle game")]["depth"] >= 1


def test_solver_sample_scores_are_right(capsys):
    data = bench_json(capsys, "--only", "solver", "--time", "0.05")
    (figure,) = data["figures"]
    # A wrong score would set the status to name the position.
    assert figure["status"] == "ok"
    assert figure["value"] > 0 and figure["count"] > 0


def test_reference_rate_counts_whole_games():
    assert bench.reference_rate(0.02) > 0
    # Four in a row across the bottom, and no line with a gap.
    columns = [[0], [0], [0], [0], [], [], []]
    assert bench._connects_four(columns, 3, 0)
    assert not bench._connects_four([[0], [0], [], [0], [], [], []], 3, 0)


def test_table_names_the_python_version(capsys):
    assert main(["bench", "--time", "0.02", "--only", "flat"]) == 0
    out = capsys.readouterr().out
    assert f"Python {platform.python_version()}" in out
    assert "playouts/s" in out and "naive random games/s" in out
    from c4tui.engine.kernels.library import kernels

    assert f"kernels: {kernels()}" in out.splitlines()  # as the README says


def test_the_kernels_line_is_whole_however_long_the_projects_path(capsys, monkeypatch):
    # The path is the clone's: a long folder name wrapped it at 120 columns.
    long = f"compiled (/{'a-long-folder-name/' * 12}[bold]_kernels.so; 7x6 search: x)"
    monkeypatch.setattr(bench, "kernels", lambda: long)
    assert main(["bench", "--time", "0.02", "--only", "flat"]) == 0
    assert f"kernels: {long}" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("seconds", ["0", "-1", "61"])
def test_bad_time_exits_2(capsys, seconds):
    assert main(["bench", "--time", seconds]) == 2
    assert "--time must be" in capsys.readouterr().err


def test_every_measurement_is_a_progress_step_between_two_yardstick_runs():
    jobs = bench.steps(["negamax", "solver"], 0.05)
    labels = [label for label, _ in jobs]
    assert labels == [
        "reference",
        "negamax, empty board",
        "negamax, middle game",
        "solver, 7 positions",
        "reference",
    ]


def test_the_table_has_plain_rules_and_one_precision_for_relative(capsys):
    figures = [
        bench.Figure("flat", "empty board", "playouts/s", 297642.0, None, 60735, 0.2, 17.7),
        bench.Figure("flat", "middle game", "playouts/s", 353400.0, None, 70718, 0.2, 21.0),
        bench.Figure("solver", "7 positions", "s/position", 0.0152, None, 329553, 0.1, 2553.4),
    ]
    machine = {
        "python": "3.11.7",
        "implementation": "CPython",
        "platform": "Linux",
        "kernels": "compiled (test)",
        "reference": {"measure": "naive random games/s", "value": 16798.2},
    }
    bench.print_table(figures, machine)
    out = capsys.readouterr().out
    assert "┏" not in out and "│" not in out
    assert " 17.7 " in out and " 21.0 " in out and " 2,553.4 " in out
    assert "297,642" in out and "16,798 naive" in out
