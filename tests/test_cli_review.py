"""`c4tui review`: JSON lines, the table and its summary, inputs and one-line errors."""

from __future__ import annotations

import io
import json

import pytest

from c4tui.cli import main
from c4tui.engine.position import Position
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
    assert f"review of {GAME!r}: 28 moves, won by player 2" in out
    lines = out.splitlines()
    assert lines[-3] == "player 1: 4 best, 3 ok, 0 mistake, 7 blunder"
    assert lines[-2] == "player 2: 2 best, 5 ok, 2 mistake, 5 blunder"
    assert lines[-1] == "the game turned at ply 27: player 1 played column 2, a blunder (best: 7)"


def test_a_game_played_perfectly_never_turned(capsys):
    status, out, _ = run(capsys, "44444")
    assert status == 0
    assert out.splitlines()[-1].startswith("the game never turned")


def test_stdin_and_a_file_give_the_same_review_as_the_argument(capsys, monkeypatch, tmp_path):
    _, expected, _ = run(capsys, "4455667", "--json")
    monkeypatch.setattr("sys.stdin", io.StringIO("4455667\n"))
    assert run(capsys, "-", "--json")[1] == expected
    (tmp_path / "game.txt").write_text("4455667\n")
    assert run(capsys, str(tmp_path / "game.txt"), "--json")[1] == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["12x"], "game (not a file either): move 3 ('x') of '12x': not a column"),
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
    assert err.startswith(f"c4tui review: {tmp_path / 'bad.txt'}: cannot read it")
