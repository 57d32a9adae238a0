"""What the subcommands share (commands/common.py): their options, built once."""

from __future__ import annotations

import argparse

import pytest

from c4tui.commands.common import add_give_up_option


def test_the_give_up_time_is_seconds_more_than_zero_with_the_commands_default():
    parser = argparse.ArgumentParser()
    add_give_up_option(parser, 10.0)
    assert parser.parse_args([]).time == 10.0
    assert parser.parse_args(["--time", "0.5"]).time == 0.5
    assert "(default 10)" in parser.format_help()
    with pytest.raises(SystemExit):
        parser.parse_args(["--time", "0"])


def test_a_game_file_given_to_a_command_is_read_or_named_at_fault(tmp_path):
    from c4tui.commands.common import CommandError, parse_game_file, read_input_file

    with pytest.raises(CommandError, match=r"^--load x: "):
        read_input_file(str(tmp_path / "missing.c4"), "--load x")
    path = tmp_path / "game.c4"
    path.write_text("not a game file\n")
    assert read_input_file(str(path), "here") == "not a game file\n"
    with pytest.raises(CommandError, match=r"^game\.c4: "):
        parse_game_file("not a game file\n", "game.c4")


def test_the_version_names_the_commit_of_a_checkout(tmp_path):
    from c4tui.version import checkout_commit, version

    commit = "0123456789abcdef0123456789abcdef01234567"
    (tmp_path / ".git" / "refs" / "heads").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    assert checkout_commit(tmp_path) == commit
    (tmp_path / ".git" / "refs" / "heads" / "main").unlink()  # after git gc: packed
    (tmp_path / ".git" / "packed-refs").write_text(f"# pack-refs\n{commit} refs/heads/main\n")
    assert checkout_commit(tmp_path) == commit
    assert checkout_commit(tmp_path / "not-a-checkout") is None
    assert version().startswith("0.1") or "unknown" in version()


def test_whole_number_takes_every_number_up_to_its_highest():
    import argparse

    from c4tui.commands.common import whole_number

    games = whole_number(1, 10**7)
    assert games("8000") == 8000 and games("10000000") == 10**7
    with pytest.raises(argparse.ArgumentTypeError):
        games("100000000")  # a digit too many: refused before it is read as a number
