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


def test_a_crash_inside_the_app_is_a_nonzero_exit_with_the_reason(monkeypatch, capsys, tmp_path):
    from textual.app import App

    monkeypatch.setenv("C4TUI_CONFIG_DIR", str(tmp_path))

    class CrashingApp(App):
        def __init__(self, **_options) -> None:
            super().__init__()

        def on_mount(self) -> None:
            raise RuntimeError("a disc fell through the board")

        def run(self, **_options):
            return super().run(headless=True)

    monkeypatch.setattr("c4tui.app.app.ConnectFourApp", CrashingApp)
    assert main(["--position", "44"]) == 1
    captured = capsys.readouterr()
    assert "a disc fell through the board" in captured.out + captured.err
    assert captured.err.endswith("c4tui: the app stopped on an error (status 1)\n")


async def test_a_finished_game_from_position_opens_at_its_end(monkeypatch, tmp_path):
    monkeypatch.setenv("C4TUI_CONFIG_DIR", str(tmp_path))  # the default 7x6 board
    opened = {}

    class RecordingApp:
        return_code = 0

        def __init__(self, *, moves, **_options) -> None:
            opened["moves"] = moves

        def run(self) -> None:
            pass

    monkeypatch.setattr("c4tui.app.app.ConnectFourApp", RecordingApp)
    assert main(["--position", "https://connect4.gamesolver.org/?pos=1212121"]) == 0
    assert opened["moves"] == "1212121"


async def test_the_app_opened_on_a_finished_game_shows_it_over(make_app):
    app = make_app(moves="1212121")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause(0)
        assert app.game.position.is_over()
        assert app.game.position.to_moves() == "1212121"
        # Nothing to drop, hint or move in a game over: the footer offers none of them.
        shown = {b.binding.description for b in app.screen.active_bindings.values() if b.enabled}
        assert not {"Drop", "Hint", "AI move"} & shown
        assert {"New", "Undo"} <= shown


def test_position_plays_on_the_board_of_the_saved_settings(monkeypatch, tmp_path, capsys):
    from c4tui.app.settings import Settings, save

    save(Settings(width=8, height=7), tmp_path)
    monkeypatch.setenv("C4TUI_CONFIG_DIR", str(tmp_path))
    opened = {}

    class RecordingApp:
        return_code = 0

        def __init__(self, *, moves, **_options) -> None:
            opened["moves"] = moves

        def run(self) -> None:
            pass

    monkeypatch.setattr("c4tui.app.app.ConnectFourApp", RecordingApp)
    assert main(["--position", "48"]) == 0  # column 8 is on an 8-column board
    assert opened["moves"] == "48"
    assert main(["--position", "49"]) == 2
    assert "column 9 is outside the 8-column board" in capsys.readouterr().err


def test_load_starts_the_app_on_the_saved_game(monkeypatch, tmp_path):
    """`c4tui --load FILE` with a real game file starts the real app on that game."""
    from c4tui.app.app import ConnectFourApp
    from c4tui.engine.board.gamefile import GameRecord
    from c4tui.engine.board.position import Position

    saved = tmp_path / "kept.c4"
    record = GameRecord.of(Position.from_moves("4453", 7, 6, 4), ("You", "greedy"))
    saved.write_text(record.to_text(), encoding="utf-8")
    seen = {}

    class HeadlessApp(ConnectFourApp):
        def run(self, **_options):
            async def look(pilot) -> None:
                await pilot.pause()
                seen["moves"] = self.game.position.to_moves()
                self.exit()

            return super().run(headless=True, auto_pilot=look)

    monkeypatch.setattr("c4tui.app.app.ConnectFourApp", HeadlessApp)
    assert main(["--load", str(saved)]) == 0
    assert seen["moves"] == "4453"


def test_help_does_not_list_the_internal_served_flag(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "--load" in shown and "--served" not in shown
