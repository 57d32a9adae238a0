"""`c4tui train`: labelling by command, its seeds, and one clear line for bad input."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from c4tui.cli import main
from c4tui.engine.learned.labels import Labelled, batches, label_in_parallel

SMALL = ["--width", "5", "--height", "4", "--connect", "3", "--workers", "1"]


def test_label_writes_the_positions_its_seed_makes(tmp_path, capsys):
    out = tmp_path / "late.npz"
    code = main(
        [
            "train",
            "label",
            "--kinds",
            "late",
            "--games",
            "3",
            "--seed",
            "7",
            "--out",
            str(out),
            *SMALL,
        ]
    )
    assert code == 0 and "wrote" in capsys.readouterr().out
    # The late kind's games are seeded from --seed plus 1000 for each kind before it.
    expected = label_in_parallel(list(batches(2007, 3, "late", width=5, height=4, connect=3)), 1)
    assert np.array_equal(Labelled.load(out).scores, expected.scores)


def test_kinds_are_checked_with_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["train", "label", "--kinds", "random,chess", "--out", "x.npz"])
    assert stopped.value.code == 2
    assert "give some of random, guided, late" in capsys.readouterr().err


def test_distill_without_the_train_extra_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    import c4tui.engine.learned

    # As if JAX were missing: the module cannot be imported (nor found on its package).
    monkeypatch.setitem(sys.modules, "c4tui.engine.learned.training", None)
    monkeypatch.delattr(c4tui.engine.learned, "training", raising=False)
    code = main(["train", "distill", "--out", str(tmp_path / "n.npz"), "--games", "1", *SMALL])
    assert code == 2
    assert "uv sync --extra train" in capsys.readouterr().err


def test_data_that_is_not_labelled_positions_is_one_line(tmp_path, capsys):
    pytest.importorskip("jax")
    bad = tmp_path / "bad.npz"
    bad.write_text("junk")
    code = main(["train", "distill", "--out", str(tmp_path / "n.npz"), "--data", str(bad)])
    assert code == 2
    assert capsys.readouterr().err.endswith("bad.npz: not a NumPy archive (.npz)\n")
    os.mkfifo(tmp_path / "fifo")  # an open that waited for a writer would hang the run
    code = main(
        ["train", "distill", "--out", str(tmp_path / "n.npz"), "--data", str(tmp_path / "fifo")]
    )
    assert code == 2 and "fifo: not a regular file (a FIFO)" in capsys.readouterr().err


def test_data_of_another_board_is_one_line(tmp_path, capsys):
    pytest.importorskip("jax")
    data = tmp_path / "5x4.npz"
    assert main(["train", "label", "--games", "2", "--out", str(data), *SMALL]) == 0
    capsys.readouterr()
    code = main(["train", "distill", "--out", str(tmp_path / "n.npz"), "--data", str(data)])
    assert code == 2
    assert "positions of a 5-column board, not 7x6 (give --width and --height)" in (
        capsys.readouterr().err
    )


def test_an_output_that_is_a_directory_is_refused_before_any_work(tmp_path, capsys):
    for kind in ("label", "distill"):
        with pytest.raises(SystemExit) as stopped:
            main(["train", kind, "--out", str(tmp_path), "--games", "1000000", *SMALL])
        assert stopped.value.code == 2
        assert "is a directory, not a file to write" in capsys.readouterr().err


def test_no_positions_to_train_on_is_one_line(tmp_path, capsys):
    pytest.importorskip("jax")
    # The hard kind keeps only what the solver works for; on 5x4 that is nothing.
    out = tmp_path / "n.npz"
    code = main(["train", "distill", "--out", str(out), "--kinds", "hard", "--games", "20", *SMALL])
    assert code == 2 and not out.exists()
    assert "no positions to train on" in capsys.readouterr().err


def test_start_from_checks_the_network_against_the_board_and_sizes(tmp_path, capsys):
    pytest.importorskip("jax")
    from c4tui.engine.learned.network import save
    from tests.engine.learned.nets import random_network

    net = tmp_path / "net.npz"
    save(net, random_network(width=5, height=4, connect=3, hidden=16, blocks=1))
    out = ["--out", str(tmp_path / "n.npz"), "--games", "1"]
    code = main(["train", "distill", *out, "--start-from", str(net)])
    assert code == 2
    assert "is for the 5x4 connect 3 board, not 7x6 connect 4" in capsys.readouterr().err
    code = main(["train", "distill", *out, "--start-from", str(net), "--hidden", "32", *SMALL])
    assert code == 2
    assert "is 16 wide with 1 blocks; leave out --hidden" in capsys.readouterr().err
    code = main(["train", "distill", *out, "--start-from", str(tmp_path / "none.npz"), *SMALL])
    assert code == 2
    assert "--start-from:" in capsys.readouterr().err


def test_a_learning_rate_out_of_range_is_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["train", "distill", "--out", "n.npz", "--learning-rate", "0"])
    assert stopped.value.code == 2
    assert "give a number above 0 and at most 1" in capsys.readouterr().err


@pytest.mark.slow  # two trainings: about 10 s
def test_the_header_counts_games_only_when_the_run_labelled_them(tmp_path):
    pytest.importorskip("jax")
    import json

    data, net = tmp_path / "d.npz", tmp_path / "n.npz"
    tiny = ["--hidden", "16", "--blocks", "1", "--epochs", "1", "--games", "3", *SMALL]

    def about() -> dict:
        with np.load(net) as archive:
            return json.loads(str(archive["header"]))["about"]

    assert main(["train", "distill", "--out", str(net), "--data", str(data), *tiny]) == 0
    assert about()["games"] == 3 and data.exists()
    assert main(["train", "distill", "--out", str(net), "--data", str(data), *tiny]) == 0
    assert "games" not in about() and about()["positions"] == len(Labelled.load(data))


def test_a_teacher_is_checked_like_a_starting_network(tmp_path, capsys):
    pytest.importorskip("jax")
    from tests.engine.learned.nets import network_file

    data = tmp_path / "5x4.npz"
    assert main(["train", "label", "--games", "2", "--out", str(data), *SMALL]) == 0
    capsys.readouterr()
    base = ["train", "distill", "--out", str(tmp_path / "n.npz"), "--data", str(data), *SMALL]
    assert main([*base, "--teacher-share", "0.5"]) == 2
    assert "--teacher-share: give the teacher with --teacher NET" in capsys.readouterr().err
    seven = network_file(tmp_path)  # a 7x6 network teaching on 5x4
    assert main([*base, "--teacher", str(seven)]) == 2
    assert "is for the 7x6 connect 4 board, not 5x4 connect 3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--teacher", str(seven), "--teacher-share", "1.5"])
    assert "give a number above 0 and at most 1" in capsys.readouterr().err
    capsys.readouterr()
    five = network_file(tmp_path / "five", width=5, height=4, connect=3)
    assert main([*base, "--teacher", str(five), "--epochs", "1"]) == 0
    from c4tui.engine.learned.network import load

    config = load(tmp_path / "n.npz").about["config"]
    assert config["teacher_share"] == 0.5 and len(config["teacher"]) == 64  # its SHA-256
