"""The puzzle trainer's file: damaged puzzles left out with a word, a disk that refuses."""

from __future__ import annotations

import errno
import json

from c4tui.engine.board.position import Position
from c4tui.records import trainer as trainer_module
from c4tui.records.trainer import Trainer

GOOD = {"moves": "44", "scores": [-1, 0, 0, 1, 0, 0, -1]}


def test_a_damaged_puzzle_is_left_out_and_the_file_kept_aside(tmp_path):
    text = json.dumps({"streak": 2, "best": 5, "queue": [{"moves": "44x", "scores": []}, 7, GOOD]})
    (tmp_path / "trainer.json").write_text(text)
    trainer = Trainer(tmp_path, seed=1)
    puzzle = trainer.next_puzzle()
    assert puzzle.position.to_moves() == "44" and puzzle.solution == 3
    assert (trainer.streak, trainer.best) == (2, 5)
    (aside,) = tmp_path.glob("trainer.json.damaged-*")
    assert aside.read_text() == text
    (notice,) = trainer.take_notices()
    assert f"kept as {aside}" in notice and "44x" in notice
    assert json.loads((tmp_path / "trainer.json").read_text())["queue"] == []


def test_scores_that_do_not_fit_the_position_are_damage_not_a_crash(tmp_path):
    queue = [
        {"moves": "44", "scores": [0, 0, 0]},
        {"moves": "444444", "scores": [0, 0, 0, 1, 0, 0, 0]},  # column 4 is full
        {"moves": "44", "scores": [0, 0, 0, 99, 0, 0, 0]},
        {"moves": "44", "scores": GOOD["scores"], "board": [100, 6, 4]},
        {"moves": "4455", "scores": [0, 1, 0, 0, 0, 0, 0, 0], "board": [8, 7, 5]},
    ]
    (tmp_path / "trainer.json").write_text(json.dumps({"streak": 0, "best": 0, "queue": queue}))
    trainer = Trainer(tmp_path, seed=1)
    puzzle = trainer.next_puzzle(board=(8, 7, 5))
    assert puzzle.position.width == 8 and puzzle.position.to_moves() == "4455"
    assert len(trainer.take_notices()) == 1


def test_a_disk_that_refuses_the_streak_is_a_notice(tmp_path, monkeypatch):
    def full_disk(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    (tmp_path / "trainer.json").write_text(json.dumps({"streak": 0, "best": 0, "queue": [GOOD]}))
    monkeypatch.setattr(trainer_module, "atomic_write", full_disk)
    trainer = Trainer(tmp_path, seed=1)
    puzzle = trainer.next_puzzle()
    answer = trainer.answer(puzzle, puzzle.solution)
    assert answer.right and trainer.streak == 1
    notices = trainer.take_notices()
    assert notices and all("No space left" in text for text in notices)


def test_the_rating_rises_after_right_answers_and_falls_after_wrong_ones(tmp_path):
    from c4tui.engine.board.position import Position
    from c4tui.engine.study.puzzles import puzzle_of

    position = Position.from_moves("121212")
    puzzle = puzzle_of(position, [18, -18, -18, -18, -18, -18, -18])
    trainer = Trainer(tmp_path)
    start = trainer.rating.r
    assert trainer.answer(puzzle, 0).right
    up = Trainer(tmp_path).rating  # kept in the file
    assert up.r > start and up.rd < 350
    trainer = Trainer(tmp_path)
    assert not trainer.answer(puzzle, 3).right
    assert Trainer(tmp_path).rating.r < up.r


def test_a_damaged_rating_is_damage_not_a_crash(tmp_path):
    (tmp_path / "trainer.json").write_text(
        '{"streak": 1, "best": 2, "rating": {"r": "high", "rd": 1, "sigma": 0.1}}'
    )
    trainer = Trainer(tmp_path)
    assert trainer.damage and trainer.rating.r == 1500


def reviewed(moves: str, scores: list[int | None], verdict: str = "mistake"):
    from c4tui.engine.study.review import MoveReview

    ply = len(moves) + 1
    best = tuple(c for c, s in enumerate(scores) if s == max(x for x in scores if x is not None))
    return MoveReview(ply, (ply - 1) % 2 + 1, 0, tuple(scores), best, verdict)  # type: ignore[arg-type]


def test_a_reviewed_mistake_where_two_columns_draw_says_so_and_the_empty_board_is_none(tmp_path):
    from c4tui.app.screens.puzzle import task_words
    from c4tui.engine.board.position import Position

    game = Position.from_moves("4444")
    trainer = Trainer(tmp_path, seed=1)
    # A mistake at the first move (the empty board) is no puzzle; one at move 2 ○ is:
    # there columns 3 and 4 both draw (as the review said: "better: 3, 4").
    two_draw = [-2, -1, 0, 0, -1, -2, -3]
    added = trainer.add_mistakes(
        [reviewed("", [-2, -1, 0, 1, 0, -1, -2]), reviewed("4", two_draw)], game
    )
    assert added == 1
    puzzle = trainer.next_puzzle()
    assert puzzle.position.to_moves() == "4"
    assert task_words(puzzle) == "○ to move and draw: 2 columns keep it; find one."
    assert "every other column loses" not in task_words(puzzle)
    assert trainer.answer(puzzle, 3).text == "Right: 4 keeps the draw (draw); so does 3."


def test_puzzles_follow_the_board_played(tmp_path):
    trainer = Trainer(tmp_path, seed=1)
    small = trainer.next_puzzle(board=(6, 5, 4))
    g = small.position.geometry
    assert (g.width, g.height, g.connect) == (6, 5, 4)
    game = Position.from_moves("33", 6, 5, 4)
    trainer.add_mistakes([reviewed("3", [-2, -1, 0, 0, -1, -2])], game)
    # On 7x6 the 6x5 puzzle waits for a game on its board.
    assert trainer.next_puzzle(board=(7, 6, 4)).position.width == 7
    assert trainer.next_puzzle(board=(6, 5, 4)).position.to_moves() == "3"
