"""Lessons passed, kept per game; a damaged file is set aside and starts afresh."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.records.lessons import Learned


def test_passed_lessons_are_kept_per_game(tmp_path):
    game = Position.from_moves("4453")
    Learned(tmp_path).mark(game, 2)
    Learned(tmp_path).mark(game, 0)
    assert Learned(tmp_path).passed(game) == {0, 2}
    assert Learned(tmp_path).passed(Position.from_moves("4454")) == set()


def test_a_damaged_file_is_set_aside(tmp_path):
    (tmp_path / "learned.json").write_text("{not json")
    learned = Learned(tmp_path)
    assert learned.games == {} and learned.notice is not None
    assert list(tmp_path.glob("learned.json.damaged-*"))
