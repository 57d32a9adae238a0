"""`c4tui rate`: the report's figures and tables, the levels it plays, and bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from c4tui.cli import main
from c4tui.commands.rate import field_for
from c4tui.engine.players import specs
from c4tui.engine.players.levels import LEVELS, RATINGS


def rate_json(capsys, *argv: str) -> dict:
    assert main(["rate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_the_rating_the_accuracy_and_the_losses(capsys):
    data = rate_json(capsys, "random", "--games", "4", "--seed", "1", "--jobs", "1")
    assert data["engine"] == "random" and data["games"] == 4 and data["stopped"] == "games"
    elo = data["elo"]
    # random loses every game to the levels: only an upper bound is known
    assert elo["rating"] is None and elo["low"] is None and elo["high"] < RATINGS[8]
    assert "maximum-likelihood" in elo["method"]
    assert sum(row["games"] for row in data["opponents"]) == 4
    for row in data["opponents"]:
        assert row["elo"] == RATINGS[int(row["opponent"].split(":")[1])]
    games = data["accuracy"]["games"]
    assert (
        games["moves"] > 0
        and games["kept"] + games["mistakes"] + games["blunders"] == games["moves"]
    )
    positions = data["accuracy"]["positions"]
    assert positions["count"] == 40 == positions["moves"] and positions["failures"] == []
    losses = data["losses"]
    assert losses["games"] == 4 == sum(losses["kinds"].values())
    assert sum(row["played"] for row in losses["openings"]) == 4


@pytest.mark.parametrize("spec", ["level:4", " Level:4", LEVELS[4]])
def test_a_level_never_plays_itself(spec):
    # by its name or by its engine spec: the field is the rated engine and the other levels
    specs, ratings = field_for(spec)
    assert specs[0] == spec and "level:4" not in specs[1:] and len(specs) == len(LEVELS)
    assert sorted(ratings.values()) == sorted(r for n, r in RATINGS.items() if n != 4)
    assert all(RATINGS[int(specs[i].split(":")[1])] == ratings[i] for i in ratings)


def test_any_other_engine_plays_every_level():
    specs, ratings = field_for("human:care=87")
    assert specs[1:] == [f"level:{n}" for n in sorted(LEVELS)] and len(ratings) == len(LEVELS)


def test_the_text_report_names_its_method_and_tables(capsys):
    assert main(["rate", "random", "--games", "4", "--seed", "3", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "random against the levels: 4 games" in out
    assert "Elo " in out and "likelihood-ratio interval" in out
    assert "Opponents" in out and "Accuracy against perfect play" in out
    assert "fixed set (40)" in out and "in its games" in out
    assert "Where it lost (4 of 4 games)" in out and "Openings it lost most" in out


def test_an_outside_engine_that_crashes_loses_with_its_reason(capsys):
    bot = Path(__file__).parent / "bots" / "c4e_bot.py"
    spec = f"cmd:{sys.executable} {bot} --crash,time=2"
    data = rate_json(capsys, spec, "--games", "2", "--seed", "1", "--jobs", "1")
    # It crashes on its third move of every game, and on the fixed set's third position.
    assert data["losses"]["kinds"] == {"forfeit: crashed": 2}
    failures = data["accuracy"]["positions"]["failures"]
    assert failures and all("crashed" in failure for failure in failures)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["nosuch"], "unknown engine 'nosuch'"),
        (["level:9"], "not a level"),
        (["mcts:time=-1"], "mcts"),
        (["random", "--games", "0"], "--games must be"),
        (["random", "--margin", "0"], "--margin must be"),
        (["random", "--margin", "nan"], "--margin must be"),
        (["random", "--jobs", "0"], "--jobs must be"),
        (["random", "--games", "many"], "invalid int value"),
        ([], "required: SPEC"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    try:
        status = main(["rate", *argv])
    except SystemExit as exit_:  # argparse's own errors (one line too: OneLineParser)
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and words in err


def test_an_engine_that_raises_ends_the_rating_with_one_line(capsys, monkeypatch):
    # The arena's test engine that raises on its third move: the same one line, one place.
    monkeypatch.setitem(specs.ENGINES, "broken", ("tests.test_cli_arena", "BrokenEngine"))
    status = main(["rate", "broken", "--games", "2", "--jobs", "1", "--seed", "1"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("c4tui rate: broken failed in position") and err.count("\n") == 1


@pytest.mark.slow
def test_openings_from_a_file_and_adjudication(capsys, tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("4444\n")
    data = rate_json(
        capsys, "random", "--games", "4", "--seed", "1", "--jobs", "1",
        "--openings", str(openings), "--adjudicate", "30",
    )  # fmt: skip
    assert data["openings"] == str(openings) and data["adjudicate"] == 30
    [row] = data["losses"]["openings"]  # one opening, played with both colours
    assert row["opening"] == "4444" and row["played_first"] == row["played_second"] == 2
