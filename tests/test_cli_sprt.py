"""`c4tui sprt`: verdicts, the same games for a seed however played, resuming, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c4tui.cli import main
from tests.arena_support import interrupt_after

FAST = ["--openings", "book:2", "--seed", "3", "--json"]


def sprt_json(capsys, *argv: str) -> dict:
    assert main(["sprt", *argv, *FAST]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_much_stronger_engine_is_accepted_as_stronger(capsys):
    data = sprt_json(capsys, "greedy", "random", "--elo1", "200", "--jobs", "1")
    assert data["end"] == "H1" and data["llr"] >= data["llr_upper"]
    assert data["games"] == 2 * data["pairs"] == data["wins"] + data["draws"] + data["losses"]
    assert sum(data["pentanomial"]) == data["pairs"] and data["elo_low"] > 0


def test_an_engine_against_itself_is_not_accepted_as_stronger(capsys):
    data = sprt_json(capsys, "random", "random", "--elo1", "300", "--jobs", "1")
    assert data["end"] == "H0" and data["llr"] <= data["llr_lower"]


def test_the_same_seed_gives_the_same_run_in_one_process_or_two(capsys):
    one = sprt_json(capsys, "greedy", "random", "--elo1", "200", "--jobs", "1")
    two = sprt_json(capsys, "greedy", "random", "--elo1", "200", "--jobs", "2")
    assert one == two


def test_games_most_stops_without_a_verdict(capsys):
    data = sprt_json(capsys, "random", "random", "--elo1", "10", "--games-most", "6", "--jobs", "1")
    assert data["end"] == "games-most" and data["games"] == 6


def test_adjudication_ends_games_early_and_can_be_turned_off(capsys, tmp_path):
    save = tmp_path / "games.jsonl"
    argv = ["random", "random", "--elo1", "300", "--jobs", "1", "--save", str(save)]
    data = sprt_json(capsys, *argv, "--adjudicate", "30")
    lines = [json.loads(line) for line in save.read_text().splitlines()]
    assert data["adjudicated"] > 0 and len(lines) == data["games"]
    adjudicated = [line for line in lines if line["termination"] == "adjudicated"]
    assert len(adjudicated) == data["adjudicated"]
    assert all(42 - len(line["moves"]) <= 30 for line in adjudicated)
    save.unlink()
    off = sprt_json(capsys, *argv, "--no-adjudicate")
    assert off["adjudicated"] == 0
    assert all(
        line["termination"] != "adjudicated"
        for line in map(json.loads, save.read_text().splitlines())
    )


def test_an_interrupted_run_resumes_to_the_same_verdict(capsys, monkeypatch, tmp_path):
    argv = ["greedy", "random", "--elo1", "100", "--jobs", "1"]
    whole = sprt_json(capsys, *argv)
    state = tmp_path / "run.json"
    interrupt_after(monkeypatch, 5)  # Ctrl-C as game 6 starts: pairs 0 and 1 are counted
    assert main(["sprt", *argv, *FAST, "--state", str(state)]) == 130
    capsys.readouterr()
    saved = json.loads(state.read_text())
    assert sum(saved["pentanomial"]) == 2 and saved["end"] is None
    monkeypatch.undo()
    resumed = sprt_json(capsys, *argv, "--state", str(state))
    assert resumed == whole
    # run again once decided: the verdict, without a game
    assert sprt_json(capsys, *argv, "--state", str(state)) == whole


@pytest.mark.slow
def test_a_run_killed_mid_way_resumes_to_the_same_verdict(tmp_path):
    argv = [
        sys.executable,
        "-m",
        "c4tui",
        "sprt",
        "greedy",
        "random",
        "--elo1",
        "60",
        "--jobs",
        "2",
        *FAST,
    ]
    root = Path(__file__).parent.parent
    whole = json.loads(
        subprocess.run(argv, capture_output=True, text=True, cwd=root, check=True).stdout
    )
    state = tmp_path / "run.json"
    process = subprocess.Popen([*argv, "--state", str(state)], cwd=root, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        state.exists() and json.loads(state.read_text())["trinomial"][2] >= 4
    ):
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    resumed = subprocess.run(
        [*argv, "--state", str(state)], capture_output=True, text=True, cwd=root, check=True
    )
    assert "resuming" in resumed.stderr
    assert json.loads(resumed.stdout) == whole


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--elo0", "5", "--elo1", "5"], "must be below --elo1"),
        (["--alpha", "0.7", "--beta", "0.5"], "--alpha/--beta"),
        (["--elo1", "nan"], "must be a number"),
        (["--games-most", "1"], "--games-most"),
        (["--adjudicate", "43"], "--adjudicate"),
        (["--openings", "book:3"], "no suite"),
        (["--openings", "/no/such/file"], "--openings"),
    ],
)
def test_bad_arguments_say_what_in_one_line(capsys, argv, words):
    assert main(["sprt", "greedy", "random", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_bad_openings_file_names_its_line(capsys, tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("# mine\n44\n4444449\n")
    assert main(["sprt", "greedy", "random", "--openings", str(openings)]) == 2
    assert "line 3" in capsys.readouterr().err


def test_a_state_file_of_other_settings_or_damaged_is_refused(capsys, tmp_path):
    state = tmp_path / "run.json"
    argv = [
        "sprt",
        "greedy",
        "random",
        "--elo1",
        "200",
        "--jobs",
        "1",
        *FAST,
        "--state",
        str(state),
    ]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv[:4], "300", *argv[5:]]) == 2
    assert "other settings (elo1)" in capsys.readouterr().err
    state.write_text('{"format": "c4tui-sprt 1", "settings": {}}')
    assert main(argv) == 2
    assert "not the state of an sprt run" in capsys.readouterr().err
    state.unlink()
    os.mkfifo(state)  # named once in the line, and refused without waiting for a writer
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(f"--state: {state}: not a regular file (a FIFO)\n")
    # A log that is a FIFO with no reader is refused at once, not waited on forever.
    assert main([*argv[:-2], "--log", str(state)]) == 2
    assert "a FIFO with no reader" in capsys.readouterr().err


def test_games_are_written_as_game_files(capsys, tmp_path):
    from c4tui.engine.board.gamefile import GameRecord

    folder = tmp_path / "games"
    argv = ["greedy", "random", "--elo1", "200", "--jobs", "1", "--adjudicate", "30"]
    data = sprt_json(capsys, *argv, "--games-dir", str(folder))
    records = [GameRecord.from_text(path.read_text()) for path in sorted(folder.glob("*.c4"))]
    assert len(records) == data["games"]
    assert {record.players for record in records} == {("greedy", "random"), ("random", "greedy")}
    adjudicated = [r for r in records if r.ended is not None and r.ended.how == "adjudicated"]
    assert len(adjudicated) == data["adjudicated"] > 0
    # the opening is the moves the game was set up with, 2 plies of book:2
    assert all(
        len(record.start) == 2 and record.moves.startswith(record.start) for record in records
    )
    assert main(["sprt", "greedy", "random", "--games-dir", "/proc/none"]) == 2
    capsys.readouterr()
    # A file where the folder should be: said so, not mkdir's "File exists".
    plain = tmp_path / "plain"
    plain.write_text("")
    assert main(["sprt", "greedy", "random", *argv[2:], "--games-dir", str(plain)]) == 2
    assert f"--games-dir: {str(plain)!r} is not a directory" in capsys.readouterr().err


def test_an_elo_that_rounds_to_nothing_is_written_plus_zero():
    from c4tui.commands.sprt import elo_words
    from c4tui.tournament.sprt import EloInterval

    # One even pair's interval is all of it at -1e-9 or so: written "-0.0" before.
    assert elo_words(EloInterval(-1e-9, -0.04, 0.0)) == "+0.0 [+0.0, +0.0]"
    assert elo_words(EloInterval(None, -12.34, None)) == "? [-12.3, +∞]"
