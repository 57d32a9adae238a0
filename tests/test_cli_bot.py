"""`c4tui bot`'s bad input: one line on stderr and status 2, before any connection."""

from __future__ import annotations

import pytest

from c4tui.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--server", "ftp://host", "--token", "t", "--engine", "greedy"], "http:// or https://"),
        (["--server", "http://host:x", "--token", "t", "--engine", "greedy"], "port"),
        (["--server", "http://h", "--engine", "greedy"], "--token"),
        (["--server", "http://h", "--token", "t", "--engine", "nonsense"], "--engine"),
        (["--server", "http://h", "--token", "t", "--engine", "greedy", "--games", "0"], "--games"),
        (["--server", "http://h", "--token", "t", "--engine", "greedy", "--seek", "3-2"], "--seek"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv, words, capsys, monkeypatch):
    monkeypatch.delenv("C4TUI_BOT_TOKEN", raising=False)
    assert main(["bot", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_server_that_is_not_there_is_one_line(capsys, unused_tcp_port):
    argv = ["--server", f"http://127.0.0.1:{unused_tcp_port}", "--token", "t", "--engine", "greedy"]
    assert main(["bot", *argv]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the server" in err and err.count("\n") == 1
