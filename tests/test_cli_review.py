"""`c4tui review`: JSON lines, the table and its summary, inputs and one-line errors."""

from __future__ import annotations

import io
import json

import pytest

from c4tui.cli import main
from c4tui.engine.board.position import Position
from c4tui.engine.solver import analyze

GAME = "2552354651517435227466447223"  # a random game, won by the second player


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["review", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_gives_one_object_per_move_with_1_based_columns_and_nothing_else(capsys):
    status, out, err = run(capsys, GAME, "--json")
    assert status == 0
    assert err == ""  # no progress when stderr is not a terminal
    moves = [json.loads(line) for line in out.splitlines()]
    assert [m["ply"] for m in moves] == list(range(1, len(GAME) + 1))
    assert [m["column"] for m in moves] == [int(c) for c in GAME]
    assert [m["player"] for m in moves[:3]] == [1, 2, 1]
    assert set(moves[0]) == {"ply", "player", "column", "scores", "best", "verdict"}
    assert moves[0]["scores"] == [-2, -1, 0, 1, 0, -1, -2]
    assert moves[0]["best"] == [4]
    assert moves[0]["verdict"] == "blunder"  # column 2 turns the first player's win to a loss
    position = Position.from_moves(GAME[:20])
    assert moves[20]["scores"] == analyze(position)
    assert None in moves[20]["scores"]  # column 5 is full by then


def test_the_table_ends_with_a_summary_per_player_and_the_turning_move(capsys):
    status, out, _ = run(capsys, GAME)
    assert status == 0
    # Moves counted as players count them (notation.py), never plies.
    assert f"review of {GAME!r}: moves 1 ● to 14 ○, won by ○" in out
    assert " move   col " in out and "\n 14 ○   " in out and "ply" not in out
    lines = out.splitlines()
    assert lines[-3] == "●: 4 best, 3 ok, 0 mistake, 7 blunder"
    assert lines[-2] == "○: 2 best, 5 ok, 2 mistake, 5 blunder"
    assert lines[-1] == ("the game turned at move 14 ●: ● played column 2, a blunder (best: 7)")


def test_a_game_played_perfectly_never_turned(capsys):
    status, out, _ = run(capsys, "44444")
    assert status == 0
    assert out.splitlines()[-1].startswith("the game never turned")


def test_stdin_and_a_file_give_the_same_review_as_the_argument(capsys, monkeypatch, tmp_path):
    _, expected, _ = run(capsys, "4455667", "--json")
    monkeypatch.setattr("sys.stdin", io.StringIO("4455667\n"))
    from_stdin = [json.loads(line) for line in run(capsys, "-", "--json")[1].splitlines()]
    assert [{**move, "game": 1} for move in map(json.loads, expected.splitlines())] == from_stdin
    (tmp_path / "game.txt").write_text("4455667\n")
    assert run(capsys, str(tmp_path / "game.txt"), "--json")[1] == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["12x"], "game: move 3 ('x') of '12x': not a column (expected a digit 1-7)"),
        (["/nonexistent"], "c4tui review: /nonexistent: no such file"),
        (["game.c4"], "c4tui review: game.c4: no such file"),
        ([""], "game: no moves to review"),
        (["4444444"], "column 4 is full"),
        (["44556677"], "the game is already over"),
    ],
)
def test_bad_games_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("c4tui review: ")
    assert message in err


def test_an_unreadable_file_is_one_line(capsys, tmp_path):
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    status, _, err = run(capsys, str(tmp_path / "bad.txt"))
    assert status == 2
    assert err == f"c4tui review: {tmp_path / 'bad.txt'}: not UTF-8 text (byte 1)\n"
    (tmp_path / "big.c4").write_text("4" * 2_000_000)
    status, _, err = run(capsys, str(tmp_path / "big.c4"))
    assert (status, err) == (
        2,
        f"c4tui review: {tmp_path / 'big.c4'}: too large (over 1,048,576 bytes)\n",
    )


def test_stdin_gives_one_game_a_line_and_reports_bad_lines(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("4453\n\n4354\n12x\n"))
    status, out, err = run(capsys, "-", "--json")
    assert status == 2
    moves = [json.loads(line) for line in out.splitlines()]
    assert [(m.get("game"), m.get("ply"), m.get("line")) for m in moves] == [
        *[(1, ply, None) for ply in range(1, 5)],
        (None, None, 2),
        *[(3, ply, None) for ply in range(1, 5)],
        (None, None, 4),
    ]
    assert err.splitlines() == [
        "c4tui review: stdin line 2: no moves to review",
        "c4tui review: stdin line 4: move 3 ('x') of '12x': not a column (expected a digit 1-7)",
    ]


def test_a_game_file_with_a_byte_order_mark_reads_from_a_file_and_stdin(
    capsys, monkeypatch, tmp_path
):
    _, expected, _ = run(capsys, "4453", "--json")
    game = tmp_path / "game.c4"
    game.write_bytes("\ufeffc4tui-game 1\nMoves: 4453\n".encode())
    assert run(capsys, str(game), "--json") == (0, expected, "")
    monkeypatch.setattr("sys.stdin", io.StringIO(game.read_text(encoding="utf-8")))
    assert run(capsys, "-", "--json") == (0, expected, "")


def test_links_and_other_boards(capsys):
    _, expected, _ = run(capsys, "4453", "--json")
    assert run(capsys, "connect4.gamesolver.org/?pos=4453", "--json") == (0, expected, "")
    status, out, _ = run(capsys, "3322", "--width", "5", "--height", "4", "--json")
    assert status == 0 and len(json.loads(out.splitlines()[0])["scores"]) == 5


def test_positions_not_solved_in_time_are_given_up_and_said(capsys):
    status, out, _ = run(capsys, "45544", "--width", "8", "--height", "7", "--time", "0.01")
    assert status == 0
    assert "  1 ●   4     gave up" in out
    assert "gave up on 5 of 5 positions (not solved in 0.01 s each, or before two such" in out
    status, out, _ = run(
        capsys, "45544", "--width", "8", "--height", "7", "--time", "0.01", "--json"
    )
    first = json.loads(out.splitlines()[0])
    assert first == {
        "ply": 1,
        "player": 1,
        "column": 4,
        "scores": None,
        "best": None,
        "verdict": None,
    }


def test_the_table_is_readable_at_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    _, out, _ = run(capsys, GAME)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "  4 ○   6     ok        loss in 1    1 loss in 14    -4 -17 -17 -17 -17 -17 -17" in out
