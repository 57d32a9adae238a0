"""The argparse internals the command line needs, in one place.

- argparse can parse options but not list the ones a parser knows; `command_named`
  (cli.py) must, to name an unknown option before the subcommand instead of letting
  argparse take its value for the subcommand;
- the type of what `add_subparsers()` returns, which each subcommand's `register` is
  handed, has only a private name.

A Python upgrade that renames either breaks this module's test
(tests/test_argparse_internals.py) loudly, not the command line.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

# What `ArgumentParser.add_subparsers()` returns: the subcommands' `register` adds to it.
# The alias is for the type checker (the class is generic there, not at run time); the
# class itself is named once more for the test that a Python upgrade has not renamed it.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
SUBCOMMANDS_CLASS = argparse._SubParsersAction


def option_actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Every option string of `parser` (its groups' too), with the action it names."""
    return dict(parser._option_string_actions)
