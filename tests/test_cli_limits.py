"""--tc, --movetime and --nodes in arena and sprt: outside bots are handed the clocks or
the count, and a side whose clock runs out loses on time."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from c4tui.cli import main
from c4tui.engine.external.protocol import Budget, parse_go
from c4tui.engine.external.server import limits_of
from c4tui.engine.players.contract import GameClock, Limits

BOT = Path(__file__).parent / "bots" / "c4e_clock_bot.py"


def go_lines(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()]


def test_a_bot_on_a_clock_is_given_both_clocks_and_the_increment(capsys, tmp_path):
    log = tmp_path / "go.txt"
    argv = ["arena", f"cmd:{sys.executable} {BOT} {log}", "random", "--games", "2"]
    assert main([*argv, "--seed", "1", "--jobs", "1", "--tc", "30+0.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["forfeits"] == []
    lines = go_lines(log)
    assert lines and all(
        line[0] == "go" and "movetime" not in line and line[line.index("winc") + 1] == "500"
        for line in lines
    )
    # its first move of a game: its clock is still whole, within what the move took
    first = dict(zip(lines[0][1::2], map(int, lines[0][2::2]), strict=True))
    assert 29_000 < first["wtime"] <= 30_000 and first["btime"] <= 30_500


def test_a_bot_is_given_the_node_count(capsys, tmp_path):
    log = tmp_path / "go.txt"
    argv = ["arena", f"cmd:{sys.executable} {BOT} {log}", "random", "--games", "2"]
    assert main([*argv, "--nodes", "500", "--seed", "1", "--jobs", "1", "--json"]) == 0
    assert all(line[line.index("nodes") + 1] == "500" for line in go_lines(log))


def test_a_side_out_of_time_loses_on_time(capsys, tmp_path):
    log = tmp_path / "go.txt"
    slow = f"cmd:{sys.executable} {BOT} {log} --slow 0.2"
    argv = ["arena", slow, "random", "--games", "2", "--seed", "1", "--jobs", "1"]
    assert main([*argv, "--tc", "0.5+0", "--no-adjudicate", "--json"]) == 0
    forfeits = json.loads(capsys.readouterr().out)["forfeits"]
    assert len(forfeits) == 2
    assert all(f["loser"] == slow and "lost on time" in f["reason"] for f in forfeits)


def test_the_go_line_of_a_clock_and_its_reading():
    clock = GameClock(own=12.5, opponent=3.0, increment=0.1)
    second = Budget.of_limits(Limits(time=1.0, clock=clock), to_move=1)
    assert second.line() == "go wtime 3000 btime 12500 winc 100 binc 100"
    budget = parse_go(second.line().split()[1:])
    assert budget == second
    # our engine server spends a twentieth of its own clock plus the increment
    assert limits_of(budget, to_move=1).time == pytest.approx(12.5 / 20 + 0.1)
    assert Budget.of_limits(Limits(nodes=700)).line() == "go nodes 700"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--tc", "fast"], "--tc"),
        (["--tc", "0+1"], "--tc"),
        (["--tc", "10", "--movetime", "1"], "give one of them"),
        (["--nodes", "0"], "--nodes"),
        (["--movetime", "-1"], "--movetime"),
    ],
)
def test_bad_limits_say_what_in_one_line(capsys, argv, words):
    assert main(["arena", "random", "greedy", "--games", "2", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_engine_options_are_sent_as_setoption_lines(capsys, tmp_path):
    log = tmp_path / "go.txt"
    spec = f"cmd:{sys.executable} {BOT} {log},option.Hash=64,option.Style=sharp,time=2"
    argv = ["arena", spec, "random", "--games", "2", "--seed", "1", "--jobs", "1", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["forfeits"] == []
    settings = [line for line in go_lines(log) if line[0] == "setoption"]
    # a process a game: each one is set both, in the order given
    hash_line = ["setoption", "name", "Hash", "value", "64"]
    style_line = ["setoption", "name", "Style", "value", "sharp"]
    assert settings == [hash_line, style_line] * 2
    assert (
        main(["arena", f"cmd:{sys.executable} {BOT} {log},option.=1", "random", "--games", "2"])
        == 2
    )
    assert "option.NAME=VALUE" in capsys.readouterr().err
