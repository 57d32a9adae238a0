"""The study tools in the screen-reader mode: the review, lessons and puzzles in lines."""

from __future__ import annotations

from tests.app.reader.test_reader_mode import lines, typed
from tests.app.showcase import against, humans, settle, until

# ● wins in column 4; ○'s second 5 let a draw go (a mistake: 4 holds it).
GAME = "4545454"


async def test_the_review_says_each_mistake_and_its_better_move(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves=GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await typed(pilot, "review")
        await until(pilot, lambda: any(line.startswith("○: ") for line in lines(app)), "review")
        said = lines(app)
        start = said.index("review of 7 moves")
        assert said[start + 2].startswith("○: ")
        mistakes = [line for line in said[start:] if line.startswith("move ")]
        assert (
            "move 2 ○, column 5: a mistake; better: 4 (draw; this move: loss in 15);"
            " after it ● wins in 15"
        ) in mistakes
        assert said[-1].endswith("of your mistakes to play again: type learn")


async def test_learning_from_a_mistake_by_column_numbers(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves=GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await typed(pilot, "review")
        await until(pilot, lambda: lines(app)[-1].endswith("type learn"), "review")
        await typed(pilot, "learn")
        assert any(line.startswith("lesson 1 of ") for line in lines(app))
        lesson = next(line for line in lines(app) if line.startswith("lesson 1 of "))
        played = int(lesson.split("in column ")[1].split(";")[0])
        await typed(pilot, str(played))
        assert lines(app)[-1].startswith(f"not column {played}: it gives ")
        assert app.game.position.moves == len(GAME)  # an answer, not a drop in the game
        await typed(pilot, "stop")
        assert lines(app)[-1] == "back to the game"


async def test_a_puzzle_is_asked_and_answered_in_lines(make_app):
    app = make_app(settings=against("greedy"), screen_reader=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await typed(pilot, "puzzle")
        await until(pilot, lambda: lines(app)[-1].startswith("type a column"), "a puzzle")
        task = next(line for line in reversed(lines(app)) if " to move and " in line)
        assert task.startswith(("● to move", "○ to move"))
        await typed(pilot, "1")
        assert lines(app)[-1].startswith(("Right: 1", "Not 1", "Column 1 is full")) or (
            lines(app)[-2].startswith("Right: 1")
        )
        assert app.game.position.moves == 0
