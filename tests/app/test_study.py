"""Study in the app: games kept and resumed, the games screen, positions in and out."""

from __future__ import annotations

from c4tui.app.screens.kept_games import GamesScreen
from c4tui.app.screens.position_entry import PositionScreen, check_moves
from c4tui.app.textual_internals import notifications
from c4tui.cli import main
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.match.exact_scores import Solve, board_words
from c4tui.records.kept_games import GameLibrary
from tests.app.showcase import keys_handled, open_settings, post_key, settle, type_keys, until

SIZE = (100, 30)


async def test_quitting_mid_game_and_starting_again_brings_the_game_back(make_app, tmp_path):
    games = tmp_path / "games"
    app = make_app(games_dir=games)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "3")
        await settle(pilot)
        played = app.game.moves
        await type_keys(pilot, "q")
    assert len(played) == 4
    again = make_app(games_dir=games, resume=True)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.game.moves == played
        assert again.match.sides.name(1) == "Random"
        assert any("is back" in n.message for n in notifications(again))
        await type_keys(pilot, "n")  # a new game; the resumed one stays kept
        await settle(pilot)
        assert again.game.moves == ()
    assert len(GameLibrary(games).names()) == 1


async def test_the_games_screen_opens_a_kept_game(make_app, tmp_path):
    library = GameLibrary(tmp_path / "games")
    record = GameRecord.of(Position.from_moves("4455"), ("You", "random"), "2026-11-20T10:00:00Z")
    library.save("20261120-100000-1", record)
    library.forget_current()
    library.release()
    app = make_app(games_dir=tmp_path / "games")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "g")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, GamesScreen)
        await type_keys(pilot, "enter")
        await settle(pilot)
        assert app.game.position.to_moves() == "4455"
        assert app.match.name == "20261120-100000-1"


async def test_copy_puts_the_move_string_on_the_clipboard(make_app):
    app = make_app(moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "c")
        await pilot.pause(0)
        assert app.clipboard == "4453"
        assert any("4453" in n.message for n in notifications(app))


async def test_the_position_dialog_checks_as_you_type_and_plays_from_there(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "p")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, PositionScreen)
        await pilot.press(*"448")
        assert "character 3 ('8')" in str(app.screen.query_one("#position-error").render())
        await pilot.press("backspace", "5", "3", "enter")
        await settle(pilot)
        assert app.game.position.to_moves() == "4453"
        assert app.game.can_undo()  # the moves are the game's: undo walks back


async def test_the_position_dialog_opens_a_finished_game_at_its_end_as_position_does(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "p")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        await pilot.press(*"1212121")
        note = str(app.screen.query_one("#position-error").render())
        assert "over" in note and "review" in note
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, PositionScreen)
        assert app.game.position.to_moves() == "1212121"
        assert app.game.position.is_over()


def test_check_moves_names_the_character_and_why():
    g = geometry(7, 6, 4)
    assert check_moves("4453", g) is None
    assert check_moves("44x", g).startswith("character 3 ('x')")
    assert "column 8" in check_moves("48", g)
    assert check_moves("1212121", g) is None  # a finished game opens, as --position's
    assert check_moves("https://connect4.gamesolver.org/?pos=4453", g) is None
    assert check_moves("connect4.gamesolver.org/?pos=44x", g).startswith("character 3 ('x')")
    assert "not a connect4.gamesolver.org link" in check_moves("https://example.org/?pos=4", g)


def test_bad_position_or_game_file_is_one_line_and_status_2(capsys, tmp_path):
    assert main(["--position", "4453x"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("c4tui: --position: move 5 ('x')") and error.count("\n") == 1
    bad = tmp_path / "bad.c4"
    bad.write_text("c4tui-game 1\nMoves: 44\nResult: 1-0\n")
    assert main(["--load", str(bad)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"c4tui: --load {bad}: line 3: Result 1-0") and error.count("\n") == 1
    assert main(["--load", str(tmp_path / "missing.c4")]) == 2
    assert capsys.readouterr().err == f"c4tui: --load {tmp_path / 'missing.c4'}: no such file\n"


async def test_the_review_fills_in_steps_and_stops_when_left(make_app):
    from c4tui.app.screens.review import ReviewScreen

    app = make_app(moves="634571633725311571417341272", settings=None, opponent="random")
    async with app.run_test(size=(120, 40)) as pilot:
        app.notify("Running score: you 0-0-1 against random.")
        await type_keys(pilot, "v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert not notifications(app)  # no notice covers the review
        assert all(review is not None for review in screen.reviews)
        assert screen.index == 26
        await type_keys(pilot, "home")
        assert screen.index == 0
        await type_keys(pilot, "right", "right", "end", "left")
        assert screen.index == 25
        verdicts = [review.verdict for review in screen.reviews]
        assert verdicts.count("blunder") == 12
        await type_keys(pilot, "escape")
        await pilot.pause(0)
        assert screen.stop.is_set() and not isinstance(app.screen, ReviewScreen)


async def test_the_scores_overlay_shows_exact_results_and_is_remembered(make_app, tmp_path):
    from c4tui.app import settings as settings_store
    from c4tui.app.settings import Settings
    from c4tui.app.widgets.board import Board

    config = tmp_path / "overlay-config"
    app = make_app(
        moves="4453",
        config_dir=config,
        save_settings=True,
        settings=Settings(mode="humans", theme="textual-dark"),
    )
    async with app.run_test(size=SIZE) as pilot:
        assert app.query_one(Board).view.scores is None  # off by default
        await type_keys(pilot, "o")
        await settle(pilot)
        view = app.query_one(Board).view
        assert view.scores.solve is Solve.SOLVED
        # 4453 is lost for ● whatever it plays (`c4tui analyze 4453`).
        assert board_words(view.position, view.scores.scores) == (
            "loss 15",
            "loss 15",
            "loss 18",
            "loss 17",
            "loss 16",
            "loss 18",
            "loss 18",
        )
        await type_keys(pilot, "1")  # ○ to move now: solved again for ○
        await settle(pilot)
        view = app.query_one(Board).view
        assert view.scores.solve is Solve.SOLVED and view.position.moves == 5
        assert len(view.scores.scores) == 7
    saved, _ = settings_store.load(config)
    assert saved.scores_overlay


async def test_alternating_who_moves_first(make_app):
    from c4tui.app.settings import Settings

    app = make_app(settings=Settings(opponent="random", theme="textual-dark", alternate_first=True))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "n")
        await settle(pilot)
        assert app.settings.first == "ai" and len(app.game.moves) == 1  # the AI opened
        await type_keys(pilot, "n")
        await settle(pilot)
        assert app.settings.first == "you" and app.game.moves == ()


async def test_a_puzzle_is_judged_at_once_and_the_streak_kept(make_app, tmp_path):
    from c4tui.app.screens.puzzle import PuzzleScreen
    from c4tui.app.widgets.board import Board

    app = make_app(games_dir=tmp_path / "games")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_keys(pilot, "t")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.puzzle is not None
        solution = screen.puzzle.solution
        await type_keys(pilot, str(solution + 1))
        assert screen.answer is not None and screen.answer.right
        assert screen.answer.text.startswith("Right") and screen.trainer.streak == 1
        assert screen.query_one(Board).view.scores is not None  # every column's result
        await type_keys(pilot, "n")
        await settle(pilot)
        wrong = next(
            c
            for c, s in enumerate(screen.puzzle.scores)
            if s is not None and c != screen.puzzle.solution
        )
        await type_keys(pilot, str(wrong + 1))
        assert screen.answer is not None and not screen.answer.right
        assert screen.answer.text.startswith("Not") and screen.trainer.streak == 0
        assert screen.trainer.best == 1


def test_reviewed_mistakes_become_puzzles(tmp_path):
    from c4tui.engine.study.review import review_game
    from c4tui.records.trainer import Trainer

    game = Position.from_moves("634571633725311571417341272")
    trainer = Trainer(tmp_path, seed=1)
    reviews = review_game(game)
    # 2 mistakes and 12 blunders; the first move's position, the empty board, is none
    assert trainer.add_mistakes(reviews, game) == 13
    assert trainer.add_mistakes(reviews, game) == 0  # not queued twice
    puzzle = Trainer(tmp_path, seed=1).next_puzzle()  # the queue was kept on disk
    assert game.to_moves().startswith(puzzle.position.to_moves())
    assert reviews[puzzle.position.moves].verdict in ("mistake", "blunder")


async def test_a_resumed_game_brings_its_sides_into_the_settings(make_app, tmp_path):
    # A game played against level:5 (an --opponent of that session) comes back in a
    # session whose saved opponent is random: the settings show what is playing.
    games = tmp_path / "games"
    app = make_app(games_dir=games, opponent="level:5", first="ai")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "q")
    again = make_app(games_dir=games, resume=True)  # its settings say: random
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.match.sides.first == "level:5"
        assert (again.settings.mode, again.settings.opponent, again.settings.first) == (
            "human-ai",
            "level:5",
            "ai",
        )


async def test_keys_typed_quickly_in_the_games_list_open_the_row_the_cursor_ends_on(
    make_app, tmp_path
):
    library = GameLibrary(tmp_path / "games")
    for n, moves in enumerate(("4455", "3344", "2211")):
        date = f"2026-11-2{n}T10:00:00Z"
        library.save(
            f"2026112{n}-100000-1",
            GameRecord.of(Position.from_moves(moves), ("You", "random"), date),
        )
    library.forget_current()
    app = make_app(games_dir=tmp_path / "games")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "g")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, GamesScreen)
        for key in ("down", "down", "enter"):  # all queued before any is handled
            post_key(pilot, key)
        await keys_handled(pilot)
        await settle(pilot)
        # Newest first: the third row is the oldest game.
        assert app.game.position.to_moves() == "4455"


async def test_the_scores_overlay_follows_a_new_board_size(make_app, tmp_path):
    # The empty board's move path is () on every size: solves are kept by position.
    from c4tui.app.settings import Settings
    from c4tui.app.widgets.board import Board

    app = make_app(settings=Settings(mode="humans", theme="textual-dark", scores_overlay=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.query_one(Board).view.scores.scores) == 7
        screen = await open_settings(app, pilot)
        for field, value in (("width", "8"), ("height", "7"), ("connect", "5")):
            screen.query_one(f"#{field}").value = value
        await pilot.pause()
        screen.action_save()
        await pilot.pause()
        view = app.query_one(Board).view
        assert view.position.width == 8
        # Solving (8x7 takes long) or solved, but never the 7x6 board's seven scores.
        assert view.scores.solve is not Solve.SOLVED or len(view.scores.scores) == 8
        assert view.scores.solve is Solve.SOLVING


async def test_the_review_list_shows_the_move_shown_at_any_height(make_app):
    from c4tui.app.screens.review import ReviewScreen

    app = make_app(moves="634571633725311571417341272", settings=None, opponent="random")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "v")
        await settle(pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.index == 26
        listed = screen.query_one("#review-list")
        shown = str(listed.render()).splitlines()
        assert len(shown) <= listed.size.height  # every listed round is in view...
        assert any(line.startswith(" 14. ●2") for line in shown)  # ...the last move too
        await type_keys(pilot, "home")
        await pilot.pause()
        assert str(listed.render()).startswith("  1. ●6")


async def test_the_review_gives_each_move_a_budget_and_says_which_it_gave_up(make_app, monkeypatch):
    """On 9x7 connect 5 the early positions take hours to solve: the review gives each
    move the budget it names, then says which moves it could not judge."""
    from c4tui.app.screens import review as review_screen
    from c4tui.app.screens.review import ReviewScreen
    from c4tui.app.settings import Settings

    monkeypatch.setattr(review_screen, "GIVE_UP_SECONDS", 0.05)
    settings = Settings(mode="humans", width=9, height=7, connect=5, theme="textual-dark")
    app = make_app(moves="5", settings=settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_keys(pilot, "v")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        await until(pilot, lambda: screen.done == 1, "the move given up")
        assert screen.given_up == {0} and screen.reviews == [None]
        label = str(screen.query_one("#review-graph-label").render())
        assert label == "1 of 1 not judged: over 0.05 s"
        assert "not judged" in str(screen.query_one("#review-move").render())
