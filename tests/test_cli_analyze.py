"""`c4tui analyze`: readable and JSON output, stdin, and one-line errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from c4tui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_gives_every_column_the_best_and_the_result(capsys):
    status, out, _ = run(capsys, "", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["position"] == ""
    assert data["scores"] == [-2, -1, 0, 1, 0, -1, -2]
    assert data["best"] == [4]
    assert data["result"] == "win"
    assert data["elapsed"] >= 0


def test_a_full_column_scores_null(capsys):
    status, out, _ = run(capsys, "444444", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["scores"][3] is None
    assert all(s is not None for i, s in enumerate(data["scores"]) if i != 3)


def test_stdin_gives_one_line_per_position_and_an_empty_line_is_the_empty_board(
    capsys, monkeypatch
):
    monkeypatch.setattr("sys.stdin", io.StringIO("4455\n\n"))
    status, out, _ = run(capsys, "-", "--json")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["position"] for line in lines] == ["4455", ""]
    assert max(s for s in lines[0]["scores"] if s is not None) == 18
    assert lines[0]["best"] == [3, 6]


def test_readable_output_names_the_result_of_each_column(capsys):
    status, out, _ = run(capsys, "4455")
    assert status == 0
    assert "win in 2" in out  # columns 3 and 6 threaten twice, then win
    assert "'4455'" in out
    assert out.count("*") >= 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["4x"], "move 2"),
        (["48"], "outside"),
        (["1212121"], "finished game"),
        (["4444444"], "full"),
    ],
)
def test_bad_input_and_finished_games_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_a_bad_stdin_line_is_named_and_the_lines_after_it_are_answered(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(f"4453\n8\n44\n{ONE_MOVE_LEFT}\n"))
    status, out, err = run(capsys, "-", "--json")
    assert status == 2
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line.get("position") for line in lines] == ["4453", None, "44", ONE_MOVE_LEFT]
    assert lines[1]["line"] == 2 and "column 8 is outside" in lines[1]["error"]
    assert err.splitlines() == [f"c4tui analyze: stdin line 2: {lines[1]['error']}"]


def test_text_mode_names_every_bad_stdin_line_on_stderr_only(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n44\n1212121\n"))
    status, out, err = run(capsys, "-")
    assert status == 2
    assert out.count("'44'") == 1 and "stdin line" not in out
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("c4tui analyze: stdin line 1: ")
    assert lines[1].startswith("c4tui analyze: stdin line 3: ") and "finished game" in lines[1]


ONE_MOVE_LEFT = "16322154225163161531266264734455753443777"
END_EASY = Path(__file__).resolve().parents[2] / "shared" / "testsets" / "pons" / "Test_L3_R1"


def test_a_position_with_one_move_left_is_solved(capsys):
    # The last move fills the board without a win: a draw, not "the game is over".
    status, out, err = run(capsys, ONE_MOVE_LEFT, "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["scores"] == [None] * 6 + [0]
    assert data["result"] == "draw"


def test_every_end_easy_position_gets_its_published_score(capsys, monkeypatch):
    if not END_EASY.is_file():
        pytest.skip(f"test set {END_EASY} is absent")
    pairs = [line.split() for line in END_EASY.read_text().splitlines() if line.strip()]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(moves + "\n" for moves, _ in pairs)))
    status, out, err = run(capsys, "-", "--json")
    assert (status, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(pairs) == 1000
    for (moves, score), answer in zip(pairs, answers, strict=True):
        best = max(s for s in answer["scores"] if s is not None)
        assert (answer["position"], best) == (moves, int(score))


def test_a_gamesolver_link_answers_as_its_moves(capsys, monkeypatch):
    _, plain, _ = run(capsys, "4453", "--json")
    for link in (
        "https://connect4.gamesolver.org/?pos=4453",
        "connect4.gamesolver.org/?lang=en&pos=4453",
    ):
        status, out, _ = run(capsys, link, "--json")
        assert status == 0
        assert {**json.loads(out), "elapsed": 0} == {**json.loads(plain), "elapsed": 0}
    monkeypatch.setattr("sys.stdin", io.StringIO("https://connect4.gamesolver.org/?pos=4453\n"))
    status, out, _ = run(capsys, "-", "--json")
    assert json.loads(out)["position"] == "4453"
    status, _, err = run(capsys, "https://example.org/?pos=4453")
    assert status == 2
    assert err == (
        "c4tui analyze: position: 'https://example.org/?pos=4453' is not a "
        "connect4.gamesolver.org link\n"
    )


def test_other_boards_answer_exactly(capsys):
    status, out, _ = run(capsys, "", "--width", "5", "--height", "4", "--json")
    assert status == 0
    assert json.loads(out)["scores"] == [-1, 0, 0, 0, -1]
    status, out, _ = run(capsys, "", "--width", "5", "--height", "4")
    assert out.startswith("the empty board: ● to move, draw with perfect play")


def test_a_position_not_solved_in_time_gives_what_is_proven_never_a_wrong_number(capsys):
    # 6x5 is a draw from every column; stopped early, each range must still hold 0.
    status, out, _ = run(capsys, "", "--width", "6", "--height", "5", "--time", "0.02", "--json")
    answer = json.loads(out)
    assert status == 0
    if answer.get("solved", True):
        assert answer["scores"] == [0] * 6
    else:
        assert all(low <= 0 <= high for low, high in answer["bounds"])
        assert all(score in (None, 0) for score in answer["scores"])
    status, out, _ = run(capsys, "", "--width", "8", "--height", "7", "--time", "0.01")
    assert status == 0
    assert out.startswith("the empty board: ● to move; gave up after 0.01 s with 0 of 8")
    assert "-28..27   not solved" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--width", "11"], "c4tui analyze: argument --width: 11 is outside 4..10 (see --help)"),
        (["--height", "²"], "argument --height: '²' is not a number from 4 to 10"),
        (["--connect", "6", "--width", "4", "--height", "5"], "connect 6 cannot fit on a 4x5"),
        (["--time", "nan"], "argument --time: nan: a time limit is more than 0 and at most"),
        (["--time", "0"], "argument --time: 0: a time limit is more than 0 and at most 86400"),
        (["4453", "--width", "4"], "column 5 is outside the 4-column board"),
    ],
)
def test_bad_board_options_are_one_line_and_status_2(capsys, argv, message):
    try:
        status = main(["analyze", *argv])
    except SystemExit as exit_info:  # argparse's own errors
        status = exit_info.code
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and err.count("\n") == 1


def test_the_table_is_readable_at_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = run(capsys, "4", "--width", "10", "--time", "0.01")
    lines = out.splitlines()
    assert status == 0 and max(len(line) for line in lines) <= 80
    assert "…" not in out
    assert sum(1 for line in lines if line.split()[:1] and line.split()[0].isdigit()) == 10
    status, out, _ = run(capsys, "4")
    assert max(len(line) for line in out.splitlines()) <= 80 and "loss in 20" in out


def test_a_column_known_nothing_of_spans_every_score_the_game_can_end_with():
    from c4tui.commands.analyze import unknown
    from c4tui.engine.board.position import Position

    # 42 cells, none played: from losing to ○'s first stone to winning with ●'s second.
    assert (unknown(Position.start()).low, unknown(Position.start()).high) == (-21, 20)
    bounds = unknown(Position.from_moves("4", 9, 8, 4))
    assert (bounds.low, bounds.high) == (-35, 35)
