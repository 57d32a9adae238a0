"""Keeping games on disk: the running score, damaged and unwritable files, the library."""

from __future__ import annotations

import errno
import json

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.position import Position
from c4tui.match.controller import Match
from c4tui.match.keeping import GameKeeper
from c4tui.match.sides import Sides
from c4tui.records import scorebook
from c4tui.records.kept_games import GameLibrary
from tests.match.playing import Heard, attached, dropped


def finishing(tmp_path) -> Match:
    """A person one move (column 4) from beating greedy, kept in tmp_path."""
    return Match(
        Sides(None, "greedy"), Game.from_moves("434343"), keeper=GameKeeper(GameLibrary(tmp_path))
    )


def test_a_game_opened_already_finished_counts_nothing(tmp_path):
    lost = GameRecord.of(Position.from_moves("12321272"), ("You", "perfect"))
    assert lost.result == "0-1"
    match = Match(Sides(None, "perfect"), keeper=GameKeeper(GameLibrary(tmp_path)))
    match.open(lost)
    match.save()  # as the app does after opening (`c4tui --load g.c4`)
    match.undo()
    match.redo()  # stepping through it is no game played either
    assert match.running_score() == "you 0-0-0 against perfect (won-drawn-lost)"
    assert not (tmp_path / "scores.json").exists()


def test_a_damaged_score_file_is_kept_aside_and_the_tally_starts_afresh(tmp_path):
    damaged = '{"greedy":{"wins":"x"}}'
    (tmp_path / "scores.json").write_text(damaged)
    match = finishing(tmp_path)
    heard = Heard(match)
    assert dropped(match, 3)
    notices = heard.texts()
    aside = list(tmp_path.glob("scores.json.damaged-*"))
    assert len(aside) == 1 and aside[0].read_text() == damaged
    assert any(f"kept as {aside[0]}" in text for text in notices)
    assert match.running_score().startswith("you 1-0-0")
    assert json.loads((tmp_path / "scores.json").read_text())["greedy"]["wins"] == 1


def test_an_unwritable_score_is_a_notice_not_a_crash(tmp_path, monkeypatch):
    def full_disk(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(scorebook, "atomic_write", full_disk)
    match = finishing(tmp_path)
    heard = Heard(match)
    assert dropped(match, 3)
    assert match.position.is_over()
    texts = heard.texts()
    assert any("Could not keep the running score" in text for text in texts)


def test_undoing_back_to_the_empty_board_keeps_the_file_in_step(tmp_path):
    library = GameLibrary(tmp_path)
    match = Match(Sides(None, None), keeper=GameKeeper(library))
    match.drop(3)
    match.drop(3)
    match.undo()
    match.undo()
    record = library.load(match.name)
    # The line stays (undo only steps back along it), and the file says where the board is.
    assert (record.moves, record.current) == ("44", "")
    assert record.game().position.moves == 0


def test_two_apps_on_one_data_dir_both_count(tmp_path):
    first, second = finishing(tmp_path), finishing(tmp_path)  # both started before either won
    assert dropped(first, 3) and dropped(second, 3)
    assert second.running_score() == "you 2-0-0 against greedy (won-drawn-lost)"


def test_a_resigned_game_is_kept_with_its_result_and_counts_as_a_loss(tmp_path):
    library = GameLibrary(tmp_path)
    match = Match(Sides(None, "greedy"), Game.from_moves("4433"), keeper=GameKeeper(library))
    match.resign()
    record = library.load(match.name)
    assert (record.result, record.finished) == ("0-1", True)
    assert record.ended is not None and record.ended.how == "resigned"
    assert "Ended: resigned" in (library.path(match.name)).read_text()
    assert match.running_score() == "you 0-0-1 against greedy (won-drawn-lost)"
    # Opened again, the game is over as it was left: no drop, nothing counted twice.
    again = Match(Sides(None, "greedy"), keeper=GameKeeper(library))
    again.open(library.load(match.name), match.name)
    assert again.over and not dropped(again, 0)
    assert again.running_score() == "you 0-0-1 against greedy (won-drawn-lost)"


def test_a_position_set_up_where_the_ai_wins_in_one_is_not_a_loss(tmp_path):
    # A set-up position is practice: its moves were given, not played (keeping.py).
    library = GameLibrary(tmp_path)
    match = Match(Sides(None, "greedy"), keeper=GameKeeper(library))
    runner = attached(match)
    match.new_game(Game.from_moves("1212526"))  # ○ (greedy) to move: 2 wins at once
    heard = Heard(match)
    assert runner.run_search(match) and match.position.winner() == 1
    assert any("practice" in text for text in heard.texts())  # said, not silently left out
    assert match.running_score() == "you 0-0-0 against greedy (won-drawn-lost)"
    assert not (tmp_path / "scores.json").exists()
    # Kept with the moves it was set up with, so resumed after a restart it still does
    # not count.
    record = library.load(match.name)
    assert record.start == "1212526"
    resumed = Match(Sides(None, "greedy"), keeper=GameKeeper(library))
    resumed.open(record, match.name)
    assert resumed.setup == "1212526"
    # A game played from the empty board counts, as before.
    match.new_game()
    while not match.over:
        assert dropped(match, next(iter(match.position.legal_moves())))
        if not match.over:
            assert runner.run_search(match)
    assert match.running_score() != "you 0-0-0 against greedy (won-drawn-lost)"
