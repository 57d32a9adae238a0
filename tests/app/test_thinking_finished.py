"""The AI panel of a game without an AI: it offers m and h only while there is a move to make."""

from __future__ import annotations

from c4tui.app.widgets.thinking import ThinkingPanel
from tests.app.showcase import humans, settle


async def test_a_finished_game_is_not_offered_an_ai_move_or_a_hint(make_app):
    for moves, offered in (("4545", True), ("4545454", False)):  # on; ● four in column 4
        app = make_app(settings=humans(), moves=moves)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            panel = app.query_one(ThinkingPanel)
            text = "\n".join(line.plain for line in panel.lines(panel.size.width))
            assert "No AI plays in this game." in text
            assert ("Press m for an AI move" in text) is offered, moves
