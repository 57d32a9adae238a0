"""The analysis board in the app: variations in the move list, jumps, threat marks."""

from __future__ import annotations

from c4tui.app.settings import Settings
from c4tui.engine.threats import threats
from tests.app.showcase import settle, type_keys

SIZE = (100, 30)


async def test_variations_survive_a_restart_and_promote(make_app, tmp_path):
    games = tmp_path / "games"
    two_people = Settings(mode="humans", theme="textual-dark")
    app = make_app(games_dir=games, settings=two_people)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *"445362")
        await type_keys(pilot, "u", "u")
        await type_keys(pilot, "1")  # undo 2, another column: a variation
        await settle(pilot)
        assert [e.position.to_moves() for e in app.game.line_ends()] == ["445362", "44531"]
        await type_keys(pilot, "up", "up")  # back to move 3
        assert app.game.position.to_moves() == "445"
        await type_keys(pilot, "end", "P")  # the variation becomes the main line
        assert app.game.main_position.to_moves() == "44531"
        await type_keys(pilot, "q")
    again = make_app(games_dir=games, settings=two_people, resume=True)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ends = [e.position.to_moves() for e in again.game.line_ends()]
        assert ends == ["44531", "445362"]


async def test_threat_marks_are_the_engines(make_app):
    app = make_app(moves="3444556652")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.board.view.threats == ()
        await type_keys(pilot, "z")
        marks = app.board.view.threats
        assert marks == tuple((t.player, t.col, t.row) for t in threats(app.game.position))
        assert marks == ((0, 5, 3),)
        assert "zugzwang" in app.board.border_subtitle or "draw" in app.board.border_subtitle
