"""The kept games, scores and puzzles as the app shows them: damage and refusals are
notices, and the app goes on."""

from __future__ import annotations

import json
from dataclasses import replace

from c4tui.app.textual_internals import notifications
from tests.app.showcase import settle, type_keys, until

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
        assert any("puzzle(s) left out" in n.message for n in notifications(app))


def notices_of(app) -> list[str]:
    """What the match asked the app to say at the start."""
    return [notice.text for notice in app.notices.pending]


def test_a_nul_byte_in_current_is_a_notice_at_start(make_app, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "current").write_bytes(b"20261120\x00-100000-1\n")
    app = make_app(games_dir=data, resume=True)
    assert app.game.moves == ()
    (said,) = notices_of(app)
    assert "current file could not be read" in said and str(data) in said


def test_a_damaged_autosave_is_kept_aside_and_said(make_app, tmp_path):
    from c4tui.records.kept_games import GameLibrary

    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    name = "20261120-100000-0001000001"
    (data / "games" / f"{name}.c4").write_text("c4tui-game 7\nMoves: 44\n")
    (data / "current").write_text(name + "\n")
    app = make_app(games_dir=data, resume=True)
    assert app.game.moves == ()
    (aside,) = (data / "games").glob(f"{name}.c4.damaged-*")
    (said,) = notices_of(app)
    assert "version '7'" in said and f"kept as {aside}" in said
    assert GameLibrary(data).names() == []


async def test_a_second_app_on_one_data_dir_starts_a_new_game(make_app, tmp_path):
    data = tmp_path / "data"
    first = make_app(games_dir=data, settings=None, opponent="random")
    async with first.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        played = first.game.moves
        second = make_app(games_dir=data, resume=True)
        assert second.game.moves == () and second.match.name != first.match.name
        (said,) = notices_of(second)
        assert "open in another c4tui" in said
        second.match.stop()
        await type_keys(pilot, "q")
    third = make_app(games_dir=data, resume=True)  # the first has quit: its game is free
    assert third.game.moves == played
    third.match.stop()


async def test_the_games_list_sorts_and_shows_when_each_was_last_played(make_app, tmp_path):
    import os

    from c4tui.app.screens.kept_games import GamesScreen
    from c4tui.engine.board.gamefile import GameRecord
    from c4tui.engine.board.position import Position
    from c4tui.records.kept_games import GameLibrary

    library = GameLibrary(tmp_path / "data")
    older = GameRecord.of(Position.from_moves("44"), ("You", "random"), "2026-01-01T10:00:00Z")
    wide = GameRecord.of(Position.from_moves("45", 8, 7, 5), ("You", "random"))
    # The game started first was played last (reopened today): it comes first.
    os.utime(library.save("20260101-100000-1", older), (2_000_000_000, 2_000_000_000))
    os.utime(library.save("20260505-100000-1", wide), (1_900_000_000, 1_900_000_000))
    library.release()
    app = make_app(games_dir=tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await type_keys(pilot, "g")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, GamesScreen)
        table = app.screen.query_one("#games-table")
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert [row[0] for row in rows] == ["2033-05-18 03:33", "2030-03-17 17:46"]
        assert [row[1] for row in rows] == ["7x6", "8x7 connect 5"]
        await pilot.press("end", "enter")  # the game played longest ago
        await settle(pilot)
        assert app.match.name == "20260505-100000-1" and app.game.position.width == 8


async def save_as(app, pilot, name: str) -> str:
    """Type `name` into Save game as…, press Enter; what the dialog says then."""
    from c4tui.app.screens.save_as import SaveAsScreen

    if not isinstance(app.screen, SaveAsScreen):
        app.study.save_game_as()
        await pilot.pause()
    field = app.screen.query_one("#save-input")
    field.value = name
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(app.screen, SaveAsScreen):
        return str(app.screen.query_one("#save-error").render())
    return ""


async def test_save_as_asks_before_replacing_and_refuses_what_is_no_file(make_app, tmp_path):
    import os

    from c4tui.app.screens.save_as import SaveAsScreen

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    mine = tmp_path / "mine.c4"
    mine.write_text("my own notes\n")
    app = make_app(moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        said = await save_as(app, pilot, str(tmp_path / "typo" / "deeper" / "g.c4"))
        assert "There is no folder" in said
        assert not (tmp_path / "typo").exists()
        assert "a FIFO, not a file" in await save_as(app, pilot, str(fifo))
        assert "a device, not a file" in await save_as(app, pilot, "/dev/null")
        assert "exists. Enter again replaces it" in await save_as(app, pilot, str(mine))
        assert mine.read_text() == "my own notes\n"  # asked, not replaced yet
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SaveAsScreen)
        assert mine.read_text().startswith("c4tui-game") and "4453" in mine.read_text()
        old_umask = os.umask(0o022)
        try:
            assert await save_as(app, pilot, str(tmp_path / "new.c4")) == ""
        finally:
            os.umask(old_umask)
    assert fifo.is_fifo() and os.path.exists("/dev/null")
    assert (tmp_path / "new.c4").stat().st_mode & 0o777 == 0o644  # the umask's, not 0600


async def test_the_games_list_says_where_the_board_stands_after_undo(make_app, tmp_path):
    from c4tui.app.screens.kept_games import GamesScreen

    app = make_app(games_dir=tmp_path / "data", settings=None, opponent="random")
    async with app.run_test(size=(120, 30)) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "u", "g")
        await until(pilot, lambda: app.screen.is_mounted, "the screen opened")
        assert isinstance(app.screen, GamesScreen)
        row = app.screen.query_one("#games-table").get_row_at(0)
        assert row[0].endswith("(now)") and row[-1] == " 1 ○, at start"


def test_a_games_row_reads_names_as_names_and_says_where_its_board_stands():
    from rich.text import Text

    from c4tui.app.screens.kept_games import GAME_COLUMNS, game_cells
    from c4tui.engine.board.gamefile import GameRecord

    record = GameRecord("4455", 7, 6, 4, ("[b]", "level:3"), "2026-11-24T22:00:00Z")
    cells = game_cells(record)
    assert len(cells) == len(GAME_COLUMNS)
    assert cells[0] == "7x6" and cells[1] == Text("[b]") and cells[3] == "unfinished"
    assert game_cells(record)[4] == " 2 ○"  # moves as players count them: ○'s 2nd
    assert game_cells(replace(record, current="44"))[4] == " 2 ○, at 1 ○"


async def test_loading_a_kept_games_own_file_keeps_no_second_copy(make_app, tmp_path):
    """`--load` of a file among the kept games goes on in that game; another file is
    kept as a new game (once)."""
    from c4tui.engine.board.gamefile import GameRecord
    from c4tui.engine.board.position import Position

    data = tmp_path / "data"
    app = make_app(games_dir=data)
    record = GameRecord.of(Position.from_moves("4453"), ("You", "greedy"))
    async with app.run_test(size=SIZE) as pilot:
        kept = app.library.save(app.library.new_name(), record)
        app.library.release()
        app.study.open_file(record, kept)
        await settle(pilot)
        assert sorted(app.library.games.glob("*.c4")) == [kept]
        assert app.match.name == kept.stem
        elsewhere = tmp_path / "from-a-friend.c4"
        elsewhere.write_text(record.to_text(), encoding="utf-8")
        app.study.open_file(record, elsewhere)
        await settle(pilot)
        assert len(list(app.library.games.glob("*.c4"))) == 2
