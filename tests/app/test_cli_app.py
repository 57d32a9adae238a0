"""The command line and the app: `c4tui` alone opens it, subcommands never load textual."""

from __future__ import annotations

import subprocess
import sys

import pytest

from c4tui.cli import main


def test_subcommands_never_import_textual():
    code = (
        "import sys\n"
        "from c4tui.cli import main\n"
        "main(['move', '44', '--engine', 'greedy', '--seed', '1'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_bad_opponent_spec_is_one_line_and_status_2(capsys):
    assert main(["--opponent", "chess:time=1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("c4tui: --opponent:") and error.count("\n") == 1


def test_first_must_be_you_or_ai(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--first", "nobody"])
    assert exit_info.value.code == 2
