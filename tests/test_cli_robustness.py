"""The command line under hostile use: closed pipes, unknown options, huge arguments."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from c4tui.cli import main


def test_output_piped_into_head_ends_quietly_with_status_0():
    # 3,000 positions of text: far more than the pipe holds once the reader has gone.
    command = [sys.executable, "-m", "c4tui.cli", "analyze", "-"]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    process.stdin.write("4453\n" * 3000)
    process.stdin.close()
    assert "4453" in process.stdout.readline()
    process.stdout.close()  # what `head -1` does
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == ""


def test_an_unknown_option_before_the_subcommand_is_named(capsys):
    for argv in (["--width", "8"], ["--opponent", "greedy", "--width=8", "analyze"]):
        try:
            main(argv)
        except SystemExit as stop:
            assert stop.code == 2
        _, err = capsys.readouterr()
        assert err == "c4tui: unrecognized option --width (see --help)\n"


def test_known_options_and_their_prefixes_still_reach_the_subcommand(capsys):
    assert main(["--opp", "greedy", "analyze", "44", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_an_error_in_a_huge_position_quotes_a_short_window_around_the_fault(capsys):
    position = "1234567" * 3 + "9" + "1" * 98_000
    assert main(["analyze", position]) == 2
    _, err = capsys.readouterr()
    assert len(err) < 200 and err.count("\n") == 1
    assert "move 22 ('9')" in err and "…" in err


def test_a_stray_argument_names_the_subcommand_and_is_quoted_short(capsys):
    for argv in (["puzzle", "--level", "x"], ["analyze", "44", "5" * 98_000]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"c4tui {argv[0]}: unrecognized arguments: '")
        assert len(err) < 100 and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "4453"],
        ["analyze", "4453", "--json"],
        ["move", "44", "--engine", "greedy"],
        ["review", "4453"],
        ["review", "4453", "--json"],
        ["puzzle", "--count", "1", "--seed", "1"],
        ["arena", "greedy", "random", "--games", "2", "--seed", "1"],
    ],
)
def test_output_to_a_full_device_is_one_line_and_status_1(argv, capsys, monkeypatch):
    with open("/dev/full", "w") as full:
        monkeypatch.setattr("sys.stdout", full)
        assert main(argv) == 1
    assert capsys.readouterr().err == f"c4tui {argv[0]}: cannot write: No space left on device\n"


def test_a_full_device_at_exit_leaves_no_traceback():
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "c4tui.cli", "analyze", "4453"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stderr == "c4tui analyze: cannot write: No space left on device\n"


def test_another_os_error_is_one_line_without_claiming_a_write_failed(capsys, monkeypatch):
    import errno
    import os

    def no_memory(_args):
        raise OSError(errno.ENOMEM, os.strerror(errno.ENOMEM))

    monkeypatch.setattr("c4tui.commands.analyze.run", no_memory)
    assert main(["analyze", "4453"]) == 1
    assert capsys.readouterr().err == "c4tui analyze: Cannot allocate memory\n"


class EndlessStdin:
    """Stdin that never ends a line (`< /dev/zero`), counting what was read of it."""

    def __init__(self, start: str = "") -> None:
        self.start = start
        self.read_chars = 0

    def readline(self, limit: int = -1) -> str:
        assert limit > 0, "a line read without a limit would take all of the memory"
        text, self.start = (self.start + "4" * limit)[:limit], ""
        self.read_chars += len(text)
        return text

    def read(self, limit: int = -1) -> str:
        return self.readline(limit)

    def __iter__(self):
        raise AssertionError("iterating stdin reads a line without a limit")


@pytest.mark.parametrize("command", ["analyze", "review"])
def test_a_stdin_line_is_capped_as_files_are(command, capsys, monkeypatch):
    from c4tui.files import MAX_FILE_BYTES

    stdin = EndlessStdin()
    monkeypatch.setattr("sys.stdin", stdin)
    assert main([command, "-"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"c4tui {command}: stdin line 1: longer than {MAX_FILE_BYTES:,}")
    assert stdin.read_chars <= MAX_FILE_BYTES + 1


def test_the_lines_before_an_overlong_one_are_answered(capsys, monkeypatch):
    import io

    from c4tui.files import MAX_FILE_BYTES

    monkeypatch.setattr("sys.stdin", io.StringIO("44\n" + "4" * (MAX_FILE_BYTES + 5)))
    assert main(["analyze", "-", "--json"]) == 2
    captured = capsys.readouterr()
    assert '"position": "44"' in captured.out
    assert captured.err.startswith("c4tui analyze: stdin line 2: longer than")


def test_ctrl_c_before_the_command_starts_is_one_line_and_status_130(capsys, monkeypatch):
    """Ctrl-C while the command line is still being built (its imports take a moment)."""

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr("c4tui.cli.build_parser", interrupted)
    assert main(["analyze", "44"]) == 130
    assert capsys.readouterr().err == "c4tui: interrupted\n"


def test_the_command_line_module_loads_little_before_main_catches_ctrl_c():
    # Everything heavy (rich, the engine) loads inside main, where Ctrl-C is caught.
    heavy = "('rich', 'c4tui.engine', 'c4tui.commands')"
    code = f"import sys, c4tui.cli; print(sorted(m for m in sys.modules if m.startswith({heavy})))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_subcommand_loads_only_its_own_module():
    # Each command module loads rich and parts of the engine; `c4tui analyze` loading all
    # eleven doubled its time for a quick position.
    code = (
        "import sys; from c4tui.cli import build_parser; "
        "build_parser(['--screen-reader', 'analyze', '4']); "
        "print(sorted(m for m in sys.modules if m.startswith('c4tui.commands.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    loaded = set(ast.literal_eval(result.stdout))
    assert "c4tui.commands.analyze" in loaded
    assert not loaded & {"c4tui.commands.arena", "c4tui.commands.bot", "c4tui.commands.serve"}


def test_help_and_a_mistyped_subcommand_still_list_every_subcommand(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["analyse", "4"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'analyse'" in error
    assert "'analyze'" in error and "'bot'" in error
