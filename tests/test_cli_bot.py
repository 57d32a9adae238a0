"""`c4tui bot`'s bad input: one line on stderr and status 2, before any connection; and
what it tells the server when its engine fails."""

from __future__ import annotations

import sys
from urllib.parse import unquote

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


class Calls:
    """A bot server that notes what it is asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def call(self, method: str, path: str, body: str | None = None) -> dict:
        self.asked.append((method, path))
        return {"ok": True}


def test_a_bot_whose_engine_forfeits_resigns_saying_why(tmp_path):
    # Issue 45 item 32: the room said only "BOT NAME resigns", not why.
    from c4tui.commands.bot import Game
    from c4tui.engine.players.specs import make_engine

    crashing = tmp_path / "crash.py"
    crashing.write_text("import sys\nsys.exit('no engine here')\n")
    server = Calls()
    game = Game(server, 7, make_engine(f"cmd:{sys.executable} {crashing},time=5"))  # type: ignore[arg-type]
    game.seat = 0
    try:
        game.maybe_move("", None)
    finally:
        game.engine.close()
    method, path = server.asked[-1]
    assert method == "POST" and path.startswith("/game/7/resign?reason=")
    assert unquote(path.partition("reason=")[2]) == (
        "its engine crashed (exit status 1: no engine here)"
    )


def test_what_a_server_sends_that_is_no_json_object_reads_as_nothing():
    from c4tui.commands.bot import read_json

    # 64 KB of "[" made json.loads raise RecursionError: a crash of the bot.
    assert read_json(b"[" * 65536) == {}
    assert read_json(b"\xff\xfe") == {} and read_json(b"[1]") == {}
    assert read_json(b'{"type": "challenge", "id": 3}') == {"type": "challenge", "id": 3}
