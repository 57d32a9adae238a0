"""The argparse internal the command line relies on (argparse_internals.py) still exists.

When this fails after a Python upgrade, mend argparse_internals.py: nothing else touches
argparse's private names.
"""

from __future__ import annotations

import argparse

from c4tui.argparse_internals import SUBCOMMANDS_CLASS, option_actions


def test_every_option_string_is_listed_with_its_action():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--load")
    group.add_argument("-q", "--quiet", action="store_true")
    options = option_actions(parser)
    assert {"-h", "--help", "--width", "--load", "-q", "--quiet"} <= set(options)
    assert options["-q"] is options["--quiet"] and options["--quiet"].nargs == 0
    assert options["--width"].dest == "width"


def test_subcommands_is_what_add_subparsers_returns():
    commands = argparse.ArgumentParser().add_subparsers()
    assert isinstance(commands, SUBCOMMANDS_CLASS)
    assert isinstance(commands.add_parser("analyze"), argparse.ArgumentParser)
