"""Snapshot tests of the screen-reader mode: plain lines, no frame, the command line.

After a deliberate change of its words or looks:
`uv run pytest tests/app/reader/test_reader_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from c4tui.app.app import ConnectFourApp
from tests.app.showcase import SEED, against, humans, settle, type_keys


def reader_app(tmp_path, settings, moves: str = "") -> ConnectFourApp:
    return ConnectFourApp(
        config_dir=tmp_path / "config",
        settings=settings,
        seed=SEED,
        steady=True,
        save_settings=False,
        moves=moves,
        games_dir=tmp_path / "games",
        resume=False,
        screen_reader=True,
    )


def typing(*commands: str):
    async def drive(pilot) -> None:
        await settle(pilot)
        for command in commands:
            await type_keys(pilot, *command, "enter")
            await settle(pilot)

    return drive


def test_a_game_against_the_ai_in_lines(snap_compare, tmp_path):
    app = reader_app(tmp_path, against("greedy"))
    assert snap_compare(app, terminal_size=(120, 40), run_before=typing("4", "4", "board", "ai"))


def test_a_won_game_at_the_smallest_size(snap_compare, tmp_path):
    app = reader_app(tmp_path, humans(), moves="223344")
    assert snap_compare(app, terminal_size=(80, 24), run_before=typing("5", "threats", "?"))
