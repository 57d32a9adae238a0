"""The kept games, scores and puzzles as the app shows them: damage and refusals are
notices, and the app goes on."""

from __future__ import annotations

import json

from tests.app.showcase import settle, type_keys

SIZE = (100, 30)


async def test_a_damaged_puzzle_is_a_notice_and_the_next_one_comes(make_app, tmp_path):
    from c4tui.app.screens.puzzle import PuzzleScreen

    data = tmp_path / "data"
    data.mkdir()
    good = {"moves": "44", "scores": [-1, 0, 0, 1, 0, 0, -1]}
    queue = [{"moves": "4x"}, good]
    (data / "trainer.json").write_text(json.dumps({"streak": 0, "best": 0, "queue": queue}))
    app = make_app(games_dir=data)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "t")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        assert screen.puzzle is not None and screen.puzzle.position.to_moves() == "44"
        assert any("puzzle(s) left out" in n.message for n in app._notifications)
