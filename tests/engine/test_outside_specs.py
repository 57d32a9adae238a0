"""Specs of outside engines: what they run, their settings, and what they refuse."""

from __future__ import annotations

import sys

import pytest

from c4tui.engine.players.specs import SpecError, make_engine, parse_spec

PYTHON = sys.executable


def test_the_command_line_comes_first_and_the_settings_after_it():
    spec = parse_spec(f"cmd:{PYTHON} bot.py --weights 1,2,3,time=0.5,name=My Bot")
    assert spec.name == "cmd" and spec.outside
    assert spec.target == f"{PYTHON} bot.py --weights 1,2,3"
    assert spec.options == {"time": 0.5, "name": "My Bot"}
    assert parse_spec(str(spec)) == spec


def test_an_argument_that_looks_like_a_setting_stays_in_the_command_line():
    spec = parse_spec(f"fourinarow:{PYTHON} bot.py,depth=3,time=2")
    assert spec.target == f"{PYTHON} bot.py,depth=3"  # depth is no setting of an outside bot
    assert spec.options == {"time": 2}


def test_replace_keeps_what_it_runs():
    spec = parse_spec(f"cmd:{PYTHON} bot.py,time=1")
    assert str(spec.replace(time=3)) == f"cmd:{PYTHON} bot.py,time=3"


def test_a_connectx_spec_names_a_python_file(tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("def agent(obs, config):\n    return 3\n")
    spec = parse_spec(f"connectx:{agent},time=0.5,overage=2")
    assert spec.target == str(agent) and spec.options == {"time": 0.5, "overage": 2}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("cmd:", "give a command line to run"),
        ("cmd: ,time=1", "give a command line to run"),
        ("cmd:no-such-program-c4tui --x", "no program 'no-such-program-c4tui'"),
        ("cmd:./no/such/file", "no program './no/such/file'"),
        (f"cmd:{PYTHON} 'bot.py", "cannot split the command line"),
        ("connectx:missing.py", "no agent file 'missing.py'"),
        ("connectx:agent.txt", "is not a Python file"),
        (f"cmd:{PYTHON} bot.py,time=0", "time=0 must be more than 0"),
        (f"cmd:{PYTHON} bot.py,name=", "should look like key=value"),
    ],
)
def test_bad_outside_specs_say_what_is_wrong(text, words):
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(".", r"\.")):
        parse_spec(text)


def test_outside_engines_are_refused_where_others_give_the_spec():
    with pytest.raises(SpecError, match="outside engines run programs"):
        parse_spec(f"cmd:{PYTHON} bot.py", outside=False)
    assert parse_spec("level:3", outside=False).name == "human"


def test_making_an_outside_engine_starts_nothing_until_it_searches():
    engine = make_engine(f"cmd:{PYTHON} -c 'raise SystemExit(1)',name=Quitter")
    assert engine.child is None and engine.title == "Quitter"
    engine.close()  # nothing to end: fine


def test_a_game_files_outside_player_does_not_play_again_from_the_file():
    from c4tui.match.sides import engine_spec_or_none

    assert engine_spec_or_none(f"cmd:{PYTHON} -c 'import os'") is None  # a person's name
    assert engine_spec_or_none("level:4") == "level:4"
