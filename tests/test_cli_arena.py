"""`c4tui arena`: JSON and table output, saved games, bad arguments, Ctrl-C."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from c4tui.cli import main
from c4tui.commands import arena as arena_command
from c4tui.commands import pair_options
from c4tui.commands.arena import elo_text
from c4tui.engine.players import specs
from c4tui.engine.players.random_player import RandomEngine
from c4tui.tournament import workers
from tests.arena_support import interrupt_after


def run_json(capsys, *argv: str) -> dict:
    assert main(["arena", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_names_every_pair_with_the_specs_as_given(capsys):
    data = run_json(capsys, "random", "greedy", "RANDOM:noise=0.5", "--games", "2", "--seed", "1")
    pairs = [{row["a"], row["b"]} for row in data["results"]]
    assert pairs == [
        {"random", "greedy"},
        {"random", "RANDOM:noise=0.5"},
        {"greedy", "RANDOM:noise=0.5"},
    ]
    for row in data["results"]:
        assert row["games"] == 2 == row["a_wins"] + row["b_wins"] + row["draws"]
        assert row["a_wins"] >= row["b_wins"]  # told from the side that scored more
    assert {row["engine"] for row in data["standings"]} == {"random", "greedy", "RANDOM:noise=0.5"}
    assert data["games_played"] == data["games_scheduled"] == 6
    assert data["seed"] == 1 and data["interrupted"] is False


def test_same_seed_same_results_whatever_the_jobs(capsys):
    argv = ("random", "greedy", "--games", "4", "--seed", "7", "--openings", "2")
    alone = run_json(capsys, *argv, "--jobs", "1")
    pooled = run_json(capsys, *argv, "--jobs", "2")
    assert alone["results"] == pooled["results"]


def test_greedy_beats_random(capsys):
    data = run_json(capsys, "random", "greedy", "--games", "20", "--seed", "1", "--jobs", "1")
    (pair,) = data["results"]
    assert (pair["a"], pair["b"]) == ("greedy", "random")
    # Greedy never misses a win in one or a block; random misses them all the time.
    assert pair["a_wins"] >= 16


def test_save_appends_one_json_line_per_game(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    argv = ("random", "greedy", "--games", "3", "--seed", "2", "--save", str(path), "--jobs", "1")
    run_json(capsys, *argv)
    run_json(capsys, *argv)
    lines = path.read_text().splitlines()
    assert len(lines) == 6
    games = [json.loads(line) for line in lines]
    # Same seed, same games, appended not overwritten; each line says which run it is of.
    played = [{k: v for k, v in g.items() if k not in ("run", "date")} for g in games]
    assert played[:3] == played[3:]
    assert len({g["run"] for g in games[:3]}) == 1 and games[0]["run"] != games[3]["run"]
    assert all(g["seed"] == 2 and g["date"].startswith("20") for g in games)
    assert {g["first"] for g in games} == {"random", "greedy"}
    assert all(g["result"] in ("1-0", "0-1", "1/2-1/2") for g in games)


def test_table_output_lists_pairs_and_standings(capsys):
    assert main(["arena", "random", "greedy", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 games" in out and "seed 3" in out
    assert "Standings" in out and "greedy" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["random", "--games", "2"], "at least two engine specs"),
        (["random", "greedy", "--games", "0"], "--games must be at least 1"),
        (["random", "nosuch", "--games", "2"], "unknown engine 'nosuch'"),
        (["random", "greedy:depth=2", "--games", "2"], "unknown setting 'depth'"),
        (["random", "greedy", "--games", "2", "--jobs", "0"], "--jobs must be at least 1"),
        (["random", "greedy", "--games", "2", "--openings", "-1"], "--openings must be"),
        (["random", "greedy"], "--games"),
        (["random", "greedy", "--games", "2", "--opening-score", "0"], "needs --openings"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    assert exit_status(["arena", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


def exit_status(argv: list[str]) -> int:
    """main's return value, or the status argparse exits with."""
    try:
        return main(argv)
    except SystemExit as exit:
        return exit.code


def test_ctrl_c_in_process_prints_what_was_played(capsys, monkeypatch, tmp_path):
    interrupt_after(monkeypatch, games=3)
    path = tmp_path / "games.jsonl"
    argv = ["arena", "random", "greedy", "--games", "10", "--jobs", "1", "--json"]
    assert main([*argv, "--save", str(path)]) == 130
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["interrupted"] is True
    assert data["games_played"] == 3 == len(path.read_text().splitlines())
    assert "interrupted after 3 of 10 games" in captured.err


class BrokenEngine(RandomEngine):
    """Raises on its third move, like an engine with a bug."""

    def search(self, position, limits=None, *, on_info=None, stop=None):
        if position.moves >= 4:
            raise KeyError(0)
        return super().search(position, limits, on_info=on_info, stop=stop)


def test_an_engine_that_raises_ends_the_run_with_one_line(capsys, monkeypatch):
    monkeypatch.setitem(specs.ENGINES, "broken", (__name__, "BrokenEngine"))
    status = main(["arena", "broken", "random", "--games", "2", "--jobs", "1", "--seed", "1"])
    err = capsys.readouterr().err
    assert status == 1
    assert len(err.strip().splitlines()) == 1
    assert "broken failed in position" in err and "KeyError" in err


def test_elo_text_shows_margins_bounds_and_open_intervals():
    assert elo_text(-0.3, -100.2, 99.6) == "+0 ± 100"
    assert elo_text(None, 277.4, None) == "> +277 (all won)"
    assert elo_text(None, None, -277.4) == "< -277 (all lost)"
    assert elo_text(-759.0, None, -391.0) == "-759 [-∞, -391]"
    assert elo_text(1234.0, 1000.0, 1500.0) == "+1,234 ± 250"


def test_a_sweep_too_short_to_tell_the_sign_says_too_few_games():
    # 4-0-0: the 97.5% bound is about -72, which does not even say who is stronger.
    elo = arena_command.elo_estimate(4, 0, 0)
    assert elo_text(elo.rating, elo.low, elo.high) == "too few games (all won)"
    elo = arena_command.elo_estimate(0, 0, 4)
    assert elo_text(elo.rating, elo.low, elo.high) == "too few games (all lost)"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_saving_to_a_full_disk_stops_with_the_summary_and_one_line(capsys):
    argv = ["arena", "random", "greedy", "--games", "4", "--jobs", "1", "--seed", "1"]
    assert main([*argv, "--json", "--save", "/dev/full"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games_played"] == 0  # the game not saved is not counted
    assert captured.err == (
        "c4tui arena: --save: cannot write '/dev/full': No space left on device; "
        "stopped after 0 of 4 games\n"
    )


def test_a_torn_save_file_is_repaired_with_a_notice(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text('{"run": "r1", "game": 1, "moves": "44"}\n{"run"')
    argv = ["arena", "random", "greedy", "--games", "2", "--jobs", "1", "--save", str(path)]
    assert main([*argv, "--json"]) == 0
    assert "ended in half a line; dropped its 6 bytes before appending" in capsys.readouterr().err
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line) for line in lines)


def test_a_file_save_did_not_write_is_refused_with_status_2(capsys, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("my notes\nthe last line, no newline")
    argv = ["arena", "random", "greedy", "--games", "2", "--jobs", "1", "--save", str(path)]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"c4tui arena: --save: {str(path)!r} is not a file of saved games (its first line is "
        "not one); refusing to change it: name a new file or one --save wrote\n"
    )
    assert path.read_text() == "my notes\nthe last line, no newline"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--save", ""], "--save needs a file name"),
        (["--games", "9" * 30], "is more than a run can play"),
        (["--games", "600000000"], "at most 1,000,000,000 games in all"),
    ],
)
def test_what_cannot_run_is_refused_with_one_line(capsys, argv, message):
    base = ["arena", "random", "greedy", "flat", "--games", "2"]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_twenty_million_games_start_at_once(capsys, monkeypatch):
    interrupt_after(monkeypatch, games=3)
    argv = ["arena", "random", "greedy", "--games", "20000000", "--jobs", "1"]
    assert main(argv) == 130
    captured = capsys.readouterr()
    assert "3 of 20,000,000 games" in captured.out
    assert "interrupted after 3 of 20,000,000 games" in captured.err


def test_jobs_are_capped_to_the_cores(capsys, monkeypatch):
    asked = []

    class RecordingRunner(workers.GameRunner):
        def __init__(self, tasks, jobs=1):
            asked.append(jobs)
            super().__init__(tasks, 1)

    monkeypatch.setattr(pair_options, "GameRunner", RecordingRunner)
    monkeypatch.setattr(arena_command, "available_cores", lambda: 3)
    run_json(capsys, "random", "greedy", "--games", "8", "--jobs", "100000")
    run_json(capsys, "random", "greedy", "--games", "2", "--jobs", "100000")
    assert asked == [3, 2]  # the cores, and never more workers than games


def test_the_tables_are_readable_at_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    argv = ["arena", "greedy", "random", "mcts:iterations=50,c=1.4", "--games", "1"]
    assert main([*argv, "--seed", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out  # no figure or name cut
    assert any("mcts:iterations=50,c=1.4" in line for line in lines)
    assert any(line.rstrip().endswith("too few games (all won)") for line in lines)


def test_openings_from_a_suite_or_a_file_are_played_with_both_colours(capsys, tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\n4453\nhttps://connect4.gamesolver.org/?pos=11\n")
    save = tmp_path / "games.jsonl"
    argv = ["random", "greedy", "--games", "4", "--seed", "2", "--jobs", "1", "--json"]
    assert main(["arena", *argv, "--openings", str(openings), "--save", str(save)]) == 0
    capsys.readouterr()
    games = [json.loads(line) for line in save.read_text().splitlines()]
    assert sorted(game["opening"] for game in games) == ["11", "11", "4453", "4453"]
    assert main(["arena", *argv, "--openings", "book:4"]) == 0
    assert json.loads(capsys.readouterr().out)["openings"] == "book:4"
    assert main(["arena", *argv, "--openings", "book:5"]) == 2
    assert "no suite" in capsys.readouterr().err


def test_adjudication_is_on_by_default_and_can_be_turned_off(capsys, tmp_path):
    argv = ["random", "random", "--games", "6", "--seed", "2", "--jobs", "1", "--json"]
    assert main(["arena", *argv]) == 0
    assert json.loads(capsys.readouterr().out)["adjudicate"] == 20
    # random games rarely last to 20 empty cells: adjudicate from 36 to see it at work
    for extra, adjudicated in ((["--adjudicate", "36"], True), (["--no-adjudicate"], False)):
        save = tmp_path / f"games{len(extra)}.jsonl"
        assert main(["arena", *argv, *extra, "--save", str(save)]) == 0
        capsys.readouterr()
        games = [json.loads(line) for line in save.read_text().splitlines()]
        ends = {game["termination"] for game in games}
        assert ("adjudicated" in ends) == adjudicated
        assert all(
            42 - len(game["moves"]) <= 36 for game in games if game["termination"] == "adjudicated"
        )


def test_text_tables_call_an_engine_by_its_name_unless_two_share_it():
    from c4tui.commands.common import table_names

    ann, bob, bob_too = (
        f"cmd:{sys.executable} {bot}.py,name={name}"
        for bot, name in (("a", "Ann"), ("b", "Bob"), ("c", "Bob"))
    )
    names = table_names([ann, bob, bob_too, "random"])
    assert names == {ann: "Ann", bob: bob, bob_too: bob_too, "random": "random"}


def test_a_gauntlet_plays_the_first_engine_against_each_other_only(capsys):
    argv = ["arena", "greedy", "random", "level:1", "random", "--gauntlet", "--games", "2"]
    assert main([*argv, "--seed", "1", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games_played"] == data["games_scheduled"] == 6 and data["gauntlet"]
    assert len(data["results"]) == 3
    assert all("greedy" in (row["a"], row["b"]) and row["games"] == 2 for row in data["results"])


def test_log_keeps_every_line_to_and_from_an_outside_engine(capsys, monkeypatch, tmp_path):
    from c4tui.engine.external import wire_log

    monkeypatch.delenv(wire_log.ENV, raising=False)  # the command sets it; undone after
    log = tmp_path / "engines.log"
    bot = Path(__file__).parent / "bots" / "c4e_bot.py"
    argv = ["arena", f"cmd:{sys.executable} {bot}", "random", "--games", "2", "--seed", "1"]
    assert main([*argv, "--jobs", "1", "--json", "--log", str(log)]) == 0
    lines = [line.split(maxsplit=4) for line in log.read_text().splitlines()]
    said = [words[4] for words in lines if words[3] == ">"]
    heard = [words[4] for words in lines if words[3] == "<"]
    assert said[0] == "c4e 1" and any(line.startswith("go") for line in said)
    assert "c4eok 1" in heard and sum(line.startswith("bestmove") for line in heard) >= 2
    assert main(["arena", "random", "greedy", "--games", "2", "--log", str(tmp_path)]) == 2
    assert "--log" in capsys.readouterr().err
