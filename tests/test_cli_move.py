"""`c4tui move`: the table, the JSON shape, stdin lines, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from c4tui.cli import main

COLUMN_KEYS = ["visits", "value", "uct", "score", "proven", "chance", "prior"]
KEYS = [
    "position",
    "column",
    "engine",
    "elapsed",
    "iterations",
    "nodes",
    "depth",
    "net_value",
    "columns",
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["move", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json_lines(capsys, *argv: str) -> list[dict]:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def test_json_has_exactly_the_issue_shape(capsys):
    [data] = run_json_lines(capsys, "4453", "--engine", "flat:playouts=140", "--seed", "1")
    assert list(data) == KEYS
    assert data["position"] == "4453"
    assert data["engine"] == "flat:playouts=140"
    assert 1 <= data["column"] <= 7
    assert data["iterations"] == 140 and data["nodes"] is None and data["depth"] is None
    assert isinstance(data["elapsed"], float) and data["elapsed"] >= 0
    assert len(data["columns"]) == 7
    for stat in data["columns"]:
        assert list(stat) == COLUMN_KEYS
        assert stat["visits"] == 20 and -1 <= stat["value"] <= 1
        assert stat["uct"] is None and stat["score"] is None


def test_json_of_negamax_has_nodes_depth_and_proven_scores(capsys):
    [data] = run_json_lines(capsys, "4455", "--engine", "negamax:depth=3")
    assert data["column"] in (3, 6)
    assert data["iterations"] is None and data["nodes"] > 0 and data["depth"] >= 1
    assert data["columns"][2] == {
        "visits": None,
        "value": None,
        "uct": None,
        "score": 18,
        "proven": "win",
        "chance": None,
        "prior": None,
    }


def test_json_of_the_learned_engine_carries_priors_visits_values_and_the_networks_value(
    capsys,
):
    [data] = run_json_lines(capsys, "4453", "--engine", "alphazero:sims=64,book=0")
    assert data["iterations"] == 64 and -1 <= data["net_value"] <= 1
    stats = data["columns"]
    assert sum(s["prior"] for s in stats) == pytest.approx(1, abs=1e-3)
    assert sum(s["visits"] for s in stats) == 64
    assert all(-1 <= s["value"] <= 1 for s in stats if s["visits"])


def test_full_columns_are_null(capsys):
    [data] = run_json_lines(capsys, "444444", "--engine", "greedy", "--seed", "1")
    assert data["columns"][3] is None
    assert data["column"] != 4
    assert sum(stat is not None for stat in data["columns"]) == 6


def test_the_same_seed_gives_the_same_answer(capsys):
    first = run_json_lines(capsys, "4453", "--engine", "flat:playouts=70", "--seed", "5")
    second = run_json_lines(capsys, "4453", "--engine", "flat:playouts=70", "--seed", "5")
    for data in (*first, *second):
        data.pop("elapsed")
    assert first == second


def test_stdin_lines_in_order_and_an_empty_line_is_the_empty_board(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("4453\n\n  44  \n445566\n"))
    lines = run_json_lines(capsys, "-", "--engine", "greedy", "--seed", "1")
    assert [data["position"] for data in lines] == ["4453", "", "44", "445566"]
    assert lines[3]["column"] in (3, 7)  # the win


def test_a_bad_stdin_line_gets_an_error_in_its_place_and_the_batch_goes_on(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("4453\n8\n44\n"))
    code = main(["move", "-", "--engine", "greedy", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [line.get("position") for line in lines] == ["4453", None, "44"]
    assert lines[1] == {"line": 2, "error": lines[1]["error"]}
    assert err.splitlines() == [f"c4tui move: stdin line 2: {lines[1]['error']}"]


def test_stdin_answers_do_not_depend_on_the_lines_before(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("4453\n44\n"))
    both = run_json_lines(capsys, "-", "--engine", "flat:playouts=70", "--seed", "2")
    monkeypatch.setattr(sys, "stdin", io.StringIO("44\n"))
    alone = run_json_lines(capsys, "-", "--engine", "flat:playouts=70", "--seed", "2")
    assert both[1]["columns"] == alone[0]["columns"]


def test_table_names_the_move_and_the_figures(capsys):
    code, out, err = run(capsys, "4455", "--engine", "negamax:depth=2")
    assert code == 0 and err == ""
    assert out.splitlines()[0] in (
        "negamax:depth=2 plays column 3 in '4455'",
        "negamax:depth=2 plays column 6 in '4455'",
    )
    assert "win in 2" in out
    code, out, _ = run(capsys, "4453", "--engine", "negamax:depth=2")
    assert code == 0
    assert "nodes" in out and "depth 2" in out and "pv " in out


def test_table_of_flat_shows_visits_and_win_rates(capsys):
    code, out, _ = run(capsys, "", "--engine", "flat:playouts=70", "--seed", "1")
    assert code == 0
    assert "the empty board" in out.splitlines()[0]
    assert "visits" in out and "win rate" in out and "70 iterations" in out


def test_table_of_mcts_shows_uct_on_the_win_rates_scale_as_the_panel_does(capsys):
    code, out, _ = run(capsys, "4453", "--engine", "mcts:iterations=500", "--seed", "1")
    assert code == 0
    rows = [
        line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()
    ]
    assert len(rows) == 7
    for row in rows:
        win, uct = row[-2], row[-1]  # both percentages, as in the thinking panel
        assert win.endswith("%") and uct.endswith("%"), row
        assert float(uct[:-1]) >= float(win[:-1])  # the rate plus a bonus


def test_random_says_what_the_app_says_instead_of_an_empty_table(capsys):
    code, out, _ = run(capsys, "4453", "--engine", "random", "--seed", "1")
    assert code == 0
    first, second = out.splitlines()
    column = first.split("plays column ")[1].split()[0]
    assert second == f"picked {column} at random"


def test_table_marks_full_columns(capsys):
    code, out, _ = run(capsys, "444444", "--engine", "greedy", "--seed", "1")
    assert code == 0
    assert "full" in out


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["44x"], None, "c4tui move: position: move 3 ('x') of '44x': not a column"),
        (["48"], None, "c4tui move: position: move 2 ('8') of '48': column 8 is outside"),
        (["1111111"], None, "c4tui move: position: move 7 ('1') of '1111111': column 1 is full"),
        (["12121212"], None, "c4tui move: position: move 8 ('2') of '12121212': the game is"),
        (["1212121"], None, "c4tui move: position: '1212121' is a finished game (won)"),
        (["-"], "44\n4z\n", "c4tui move: stdin line 2: move 2 ('z') of '4z': not a column"),
    ],
)
def test_bad_positions_exit_2_with_one_line(capsys, monkeypatch, argv, stdin, message):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, out, err = run(capsys, *argv, "--engine", "greedy", "--json")
    assert code == 2
    assert err.startswith(message)
    assert err.count("\n") == 1 and "Traceback" not in err
    # The line before the bad one was answered, and the bad one has its error object.
    assert len(out.splitlines()) == (2 if stdin else 0)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chess", "c4tui move: --engine: unknown engine 'chess'"),
        ("negamax:depth=-1", "c4tui move: --engine: negamax: depth=-1 must be from 1 to 100"),
        ("flat:playouts=x", "c4tui move: --engine: flat: playouts='x' is not a whole number"),
        ("flat:sims=3", "c4tui move: --engine: flat: unknown setting 'sims'"),
        ("negamax:depth", "c4tui move: --engine: negamax: setting 'depth' should look like"),
    ],
)
def test_bad_engine_specs_exit_2_with_one_line(capsys, spec, message):
    code, out, err = run(capsys, "44", "--engine", spec)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_usage_errors_exit_2_with_one_line(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["move", "44"])  # --engine is required
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "--engine" in err and err.count("\n") == 1


def test_the_installed_command_runs_in_a_process():
    done = subprocess.run(
        [sys.executable, "-m", "c4tui.cli", "move", "-", "--engine", "greedy", "--json"],
        input="4453\n9\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout.splitlines()[0])["position"] == "4453"
    assert done.stderr.splitlines() == [
        "c4tui move: stdin line 2: move 1 ('9') of '9': column 9 is outside the 7-column board"
    ]


def test_other_boards_and_gamesolver_links(capsys):
    [data] = run_json_lines(
        capsys, "55", "--engine", "perfect", "--width", "5", "--height", "4", "--connect", "3"
    )
    assert len(data["columns"]) == 5
    [linked] = run_json_lines(
        capsys, "https://connect4.gamesolver.org/?pos=44", "--engine", "greedy", "--seed", "1"
    )
    [plain] = run_json_lines(capsys, "44", "--engine", "greedy", "--seed", "1")
    assert linked["position"] == "44" and linked["column"] == plain["column"]


def test_alphazero_on_a_board_without_a_network_is_refused_in_one_line(capsys):
    code = main(["move", "44", "--width", "5", "--height", "4", "--engine", "alphazero"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "no network for the 5x4 connect 4 board: give one with net=FILE" in err
