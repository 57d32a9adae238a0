"""`c4tui train selfplay` and its run (tournament/selfplay_run.py): generations that
resume where they stopped, the same as an unbroken run; bad input in one line."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

from c4tui.cli import main
from c4tui.tournament.selfplay_run import Generation

TINY = [
    "train", "selfplay", "--board", "5x4", "--games", "4", "--sims", "4", "--steps", "3",
    "--positions", "40", "--hidden", "16", "--blocks", "1", "--gate-sims", "2",
    "--gate-games", "8", "--workers", "1", "--seed", "2", "--no-screen",
]  # fmt: skip


def history(directory) -> list[dict]:
    rows = json.loads((directory / "run.json").read_text())["history"]
    return [{k: v for k, v in row.items() if k not in ("seconds", "cpu_seconds")} for row in rows]


@pytest.mark.slow
def test_a_resumed_run_ends_where_an_unbroken_one_does(tmp_path, capsys):
    pytest.importorskip("jax")
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    assert main([*TINY, "--generations", "2", "--run", str(whole)]) == 0
    assert main([*TINY, "--generations", "1", "--run", str(parts)]) == 0
    assert main([*TINY, "--generations", "2", "--run", str(parts), "--resume"]) == 0
    out = capsys.readouterr().out
    assert "generation 2:" in out and "alphazero:net=" in out
    rows = history(whole)
    fewest = min(rows[1:], key=lambda r: (r["mistakes"], -r["number"]))
    fewest_file = parts / f"gen-{fewest['number']}.npz"
    assert f"net={fewest_file} (the fewest mistakes" in out
    assert history(whole) == history(parts) and len(history(whole)) == 3
    with np.load(whole / "best.npz") as one, np.load(parts / "best.npz") as two:
        assert all(np.array_equal(one[name], two[name]) for name in one.files)
    # the finished run's network plays
    assert main(["move", "33", "--width", "5", "--height", "4", "--engine",
                 f"alphazero:sims=8,net={whole / 'best.npz'}"]) == 0  # fmt: skip


def test_a_run_directory_in_use_needs_resume(tmp_path, capsys):
    (tmp_path / "run.json").write_text("{}")
    assert main([*TINY, "--run", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "holds a run: give --resume" in err and err.count("\n") == 1
    assert main([*TINY, "--run", str(tmp_path / "none"), "--resume"]) == 2
    assert "no run to resume" in capsys.readouterr().err
    # A file where the folder should be: bad input (2), not mkdir's "File exists" (1).
    assert main([*TINY, "--run", str(tmp_path / "run.json")]) == 2
    assert "run.json is not a directory" in capsys.readouterr().err
    # A run.json that is a FIFO is refused, not waited on.
    (tmp_path / "run.json").unlink()
    os.mkfifo(tmp_path / "run.json")
    assert main([*TINY, "--run", str(tmp_path), "--resume"]) == 2
    assert "run.json: not a regular file (a FIFO)" in capsys.readouterr().err


@pytest.mark.parametrize("board", ["5", "3x4", "5x11", "axb"])
def test_a_bad_board_is_one_line(board, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["train", "selfplay", "--board", board])
    assert stopped.value.code == 2
    assert "--board" in capsys.readouterr().err


def test_a_line_longer_than_the_board_is_one_line(tmp_path, capsys):
    assert (
        main(["train", "selfplay", "--board", "4x4", "--connect", "5", "--run", str(tmp_path)]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("c4tui train: --connect:") and err.count("\n") == 1


def test_selfplay_without_the_train_extra_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    import c4tui.engine.learned

    monkeypatch.setitem(sys.modules, "c4tui.engine.learned.learner", None)
    monkeypatch.delattr(c4tui.engine.learned, "learner", raising=False)
    assert main([*TINY, "--run", str(tmp_path)]) == 2
    assert "uv sync --extra train" in capsys.readouterr().err


def test_a_resumed_run_keeps_its_settings_and_refuses_other_ones(tmp_path, capsys):
    from dataclasses import asdict, replace

    from c4tui.tournament.selfplay_run import FILE_FORMAT, defaults

    started = replace(defaults((5, 4, 4)), games=4, seed=2)  # the defaults may change later
    data = {"format": FILE_FORMAT, "settings": asdict(started), "history": []}
    (tmp_path / "run.json").write_text(json.dumps(data))
    assert main(["train", "selfplay", "--run", str(tmp_path), "--resume", "--games", "6"]) == 2
    err = capsys.readouterr().err
    assert "was started with other games: give the same" in err and err.count("\n") == 1


@pytest.mark.slow
def test_without_a_gate_every_generation_becomes_the_best(tmp_path, capsys):
    pytest.importorskip("jax")
    run = tmp_path / "run"
    assert main([*TINY, "--gate-games", "0", "--generations", "2", "--run", str(run)]) == 0
    out = capsys.readouterr().out
    assert out.count("no gate; best: generation") == 2
    rows = json.loads((run / "run.json").read_text())["history"]
    assert [row["best"] for row in rows] == [0, 1, 2]
    assert [row["gate_games"] for row in rows] == [0, 0, 0]
    # the run's processor time is counted and grows with each generation
    assert 0 < rows[0]["cpu_seconds"] < rows[1]["cpu_seconds"] < rows[2]["cpu_seconds"]


def test_the_run_ends_with_the_first_network_without_a_mistake_kept_by_the_gate_or_not():
    def row(number, mistakes, verdict, best, best_mistakes):
        return Generation(
            number,
            0,
            (0, 0, 0),
            0.0,
            0.0,
            mistakes,
            100,
            verdict,
            0,
            (0, 0, 0),
            None,
            best,
            best_mistakes,
            0.0,
        )

    assert row(0, 0, "first", 0, 0).perfect() is None  # no run starts perfect
    assert row(5, 3, "H0", 4, 7).perfect() is None
    assert row(5, 0, "H1", 5, 0).perfect() == "best.npz"
    assert row(5, 0, "H0", 4, 7).perfect() == "gen-5.npz"  # the gate turned it down
    assert row(6, 2, "H0", 4, 0).perfect() == "best.npz"
