"""The analysis board in the app: variations in the move list, jumps, threat marks."""

from __future__ import annotations

from c4tui.app.settings import Settings
from c4tui.app.textual_internals import notifications
from c4tui.engine.study.threats import threats
from tests.app.showcase import settle, type_keys, until

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
        await type_keys(pilot, "down", "down")  # along the line last walked
        assert app.game.position.to_moves() == "44531"
        await type_keys(pilot, "pagedown")  # the other line at this move: the main one
        assert app.game.position.to_moves() == "44536"
        await type_keys(pilot, "up", "up")
        assert app.game.position.to_moves() == "445"
        await type_keys(pilot, "down", "down", "pagedown", "P")  # the variation: main now
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
        assert app.game_screen.board.view.threats == ()
        await type_keys(pilot, "z")
        marks = app.game_screen.board.view.threats
        assert marks == tuple((t.player, t.col, t.row) for t in threats(app.game.position))
        assert marks == ((0, 5, 3),)
        assert (
            "zugzwang" in app.game_screen.board.border_subtitle
            or "draw" in app.game_screen.board.border_subtitle
        )


async def test_v_in_the_games_list_reviews_that_game_and_keeps_yours(make_app, tmp_path):
    from c4tui.app.screens.kept_games import GamesScreen
    from c4tui.app.screens.review import ReviewScreen
    from c4tui.engine.board.gamefile import GameRecord
    from c4tui.engine.board.position import Position
    from c4tui.records.kept_games import GameLibrary

    library = GameLibrary(tmp_path / "games")
    engines = GameRecord.of(
        Position.from_moves("4455"), ("level:1", "random"), "2026-11-20T10:00:00Z"
    )
    library.save("20261120-100000-1", engines)
    library.forget_current()
    library.release()
    app = make_app(games_dir=tmp_path / "games", moves="33")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "g")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, GamesScreen)
        app.screen.query_one("DataTable").move_cursor(row=1)
        await type_keys(pilot, "v")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.game.to_moves() == "4455"
        await type_keys(pilot, "escape")
        await settle(pilot)
        assert app.game.position.to_moves() == "33"  # yours is back, untouched


async def test_learn_from_your_mistakes_walks_through_each_and_refutes(make_app, tmp_path):
    from c4tui.app.screens.learn import LearnScreen
    from c4tui.engine.study.review import tally
    from c4tui.records.lessons import Learned

    app = make_app(moves="634571633725311571417341272", settings=None, opponent="random")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_keys(pilot, "v")
        await settle(pilot)
        review = app.screen
        counts = tally(review.reviews, 1)
        await type_keys(pilot, "l")
        await pilot.pause(0)
        learn = app.screen
        assert isinstance(learn, LearnScreen)
        assert len(learn.lessons) == counts["mistake"] + counts["blunder"] > 0
        assert all(lesson.position.to_move == 0 for lesson in learn.lessons)  # yours: ●
        first = learn.lessons[0]
        await type_keys(pilot, str(first.played + 1))  # the game's own move: wrong
        for _ in range(600):
            await pilot.pause(0.05)
            if learn.state == "refuted":
                break
        assert learn.state == "refuted" and learn.line
        assert "On the board:" in str(learn.query_one("#learn-verdict").render())
        await type_keys(pilot, "r", str(first.answers[0] + 1))
        assert learn.state == "right"
        assert Learned(tmp_path / "env-data").passed(review.game) == {first.ply}
        for _ in learn.lessons[1:]:
            await type_keys(pilot, "n")
        assert learn.index == len(learn.lessons) - 1
        await type_keys(pilot, "n")
        await pilot.pause(0)
        assert app.screen is review


async def test_copy_offers_the_move_string_and_the_gamesolver_link(make_app):
    app = make_app(moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "c")
        await pilot.pause(0)
        assert app.clipboard == "4453"
        assert any("C copies" in n.message for n in notifications(app))
        await type_keys(pilot, "C")
        await pilot.pause(0)
        assert app.clipboard == "https://connect4.gamesolver.org/?pos=4453"


async def test_the_move_list_counts_its_moves_dims_those_ahead_and_x_asks(make_app, tmp_path):
    from c4tui.app.screens.answer import AnswerScreen
    from c4tui.app.widgets.history import MoveHistory, MoveList, moves_title

    two_people = Settings(mode="humans", theme="textual-dark")
    app = make_app(games_dir=tmp_path / "games", settings=two_people)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *"12345671")
        await type_keys(pilot, "u", "u", "u", "u")
        await settle(pilot)
        history = app.query_one(MoveHistory)
        # Eight moves listed, four undone: the title says both, as players count moves.
        assert history.border_title == "Moves to 4 ○ · board after 2 ○"
        listed = app.query_one(MoveList)
        ahead = listed.get_component_rich_style("moves--ahead")
        assert ahead.dim

        def dimmed(y: int) -> set[str]:
            return {
                seg.text.strip() for seg in listed.render_line(y) if seg.style and seg.style.dim
            }

        assert dimmed(1) == set() and dimmed(2) == {"● 5", "○ 6"}  # rounds 2 and 3
        assert listed._ahead(app.game.main_line()[5].position.path)
        assert not listed._ahead(app.game.main_line()[1].position.path)
        await type_keys(pilot, "1")  # a variation from move 3 ●
        await settle(pilot)
        assert moves_title(app.game) == "Moves to 4 ○ · board after 3 ● · 1 variation"
        # In a narrower frame (here, and at 80 columns: 32) the variations go, then how far.
        assert history.border_title == moves_title(app.game, 32) == "Moves to 4 ○ · board after 3 ●"
        assert moves_title(app.game, 28) == "Moves · board after 3 ●"
        assert history.border_subtitle == "columns played 12341"
        await type_keys(pilot, "X")
        await settle(pilot)
        assert isinstance(app.screen, AnswerScreen)
        assert "from move 3 ● (1 move)" in str(app.screen.question)
        await type_keys(pilot, "n")  # kept
        assert len(app.game.line_ends()) == 2
        await type_keys(pilot, "X", "y")
        await settle(pilot)
        assert len(app.game.line_ends()) == 1


async def test_the_parity_line_never_contradicts_the_solver(make_app):
    from c4tui.app.threat_marks import caption_in, threat_caption
    from c4tui.engine.board.position import Position

    # After 1. ●4 ○4 no threats: parity alone fills to a draw, but ● wins (in 20).
    position = Position.from_moves("44")
    assert threat_caption(position, ()) == "Parity: a draw · no threats"
    # At 80 columns the frame has room for 34: the counts go, the marks show them.
    long = "Parity: a draw; solver: ○ wins · threats ● 1 odd · ○ 2 even"
    assert caption_in(long, 34) == "Parity: a draw; solver: ○ wins"
    assert caption_in(long, 80) == long
    assert "fills to a draw" not in threat_caption(position, ())
    app = make_app(moves="44", settings=Settings(opponent="human:care=1", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "z", "o")
        await until(pilot, lambda: "solver" in app.game_screen.board.border_subtitle)
        # Whole in the board's frame at 120x40 (it was cut: "… · ○ n…").
        caption = "Parity: a draw; solver: ● wins · no threats"
        assert app.game_screen.board.border_subtitle == caption
        assert len(caption) <= app.game_screen.board.size.width - 4


async def test_a_lessons_double_threat_is_both_threats_played_against_both(make_app):
    from c4tui.app.screens.learn import LearnScreen
    from c4tui.engine.board.position import Position
    from c4tui.engine.study.learn import Lesson

    # ○ to move; ● has 2 and 3 on row 1. ○4 draws; ○2 lets ● play 4: threats at 1 and 5.
    before = Position.from_moves("263")
    scores = (-2, -18, -18, 0, -2, -18, -18)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        learn = LearnScreen(Position.from_moves("2632"), [Lesson(before, 1, scores, "blunder")])
        app.push_screen(learn)
        await pilot.pause(0)
        await type_keys(pilot, "2")
        await until(pilot, lambda: learn.state == "refuted", f"refuted ({learn.state})")
        words = str(learn.query_one("#learn-verdict").render())
        assert "a double threat, at column 1, row 1 and column 5, row 1" in words
        assert "If ○ blocks column 1, ● wins at column 5; if ○ blocks column 5" in words
        board = learn.query_one("#learn-board").view.position
        assert board.winner() == 0  # the line is played through the block to the win
