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
