"""Every JSON file the app reads, damaged as a hostile hand would: a notice and the file
set aside, never a crash (issue 30, item 29)."""

from __future__ import annotations

import json

import pytest

from c4tui.app.preferences import Preferences
from c4tui.app.settings import Settings
from c4tui.engine.board.position import Position
from c4tui.files import DamagedFile, nesting, parse_json
from c4tui.records.lessons import Learned
from c4tui.records.scorebook import ScoreBook
from c4tui.records.trainer import Trainer

DEEP = "[" * 100_000 + "]" * 100_000  # past the decoder's recursion limit
NESTED = "[" * 50 + "]" * 50  # under it, and still no shape of ours
HOSTILE = [
    "[Infinity]",
    '{"7x6c4:44": [Infinity]}',
    '{"7x6c4:44": [1e400]}',
    '{"7x6c4:44": [-NaN]}',
    DEEP,
    '{"7x6c4:44": ' + DEEP + "}",
    NESTED,
    '{"a": ' + NESTED + "}",
    '{"7x6c4:44": [123456789012345678901234567890]}',
    '{"7x6c4:44": "02"}',
    '{"7x6c4:44": [true]}',
    '{"7x6c4:44": [-1]}',
]


@pytest.mark.parametrize("text", HOSTILE)
def test_learned_lessons_set_a_damaged_file_aside(tmp_path, text):
    (tmp_path / "learned.json").write_text(text)
    learned = Learned(tmp_path)
    assert learned.games == {} and learned.notice is not None
    assert list(tmp_path.glob("learned.json.damaged-*"))
    assert learned.passed(Position.from_moves("44")) == set()


@pytest.mark.parametrize(
    "text",
    [
        *HOSTILE,
        '{"level:1": {"wins": 1e400, "draws": 0, "losses": 0}}',
        '{"level:1": {"wins": 1, "draws": 0, "losses": 0}, "counted": [[[[[[[[[["x"]]]]]]]]]]}',
    ],
)
def test_the_running_score_starts_afresh_and_keeps_the_damaged_file(tmp_path, text):
    (tmp_path / "scores.json").write_text(text)
    book = ScoreBook(tmp_path)
    assert book.damage is not None
    counted, said = book.count("game-1", "level:1", 1)
    assert counted and said is not None and "kept as" in said
    assert str(book.tally("level:1")) == "1-0-0"
    assert list(tmp_path.glob("scores.json.damaged-*"))


@pytest.mark.parametrize(
    "text",
    [
        *HOSTILE,
        '{"streak": 1e400, "best": 0}',
        '{"streak": 0, "best": 0, "rating": {"r": 1e400, "rd": 50, "sigma": 0.06}}',
        '{"streak": 0, "best": 0, "queue": [{"moves": [4, 4], "scores": []}]}',
        '{"streak": 0, "best": 0, "queue": [{"moves": "4", "scores": [], "board": [7, 6, [4]]}]}',
        '{"streak": 0, "best": 0, "queue": [{"moves": {"4": 4}, "scores": {}}]}',
    ],
)
def test_the_puzzle_file_is_checked_before_a_review_adds_to_it(tmp_path, text):
    from c4tui.engine.study.review import review_game

    (tmp_path / "trainer.json").write_text(text)
    trainer = Trainer(tmp_path, seed=1)
    game = Position.from_moves("1212")
    reviews = review_game(game)
    # What the end of a review with mistakes does: queue their positions.
    trainer.add_mistakes(reviews, game)
    trainer.streak += 1
    trainer._save()
    (notice, *_) = trainer.take_notices()
    assert "kept as" in notice
    assert list(tmp_path.glob("trainer.json.damaged-*"))
    kept = json.loads((tmp_path / "trainer.json").read_text())
    assert all(isinstance(item["moves"], str) for item in kept["queue"])


# (The last three of HOSTILE are settings: a key the settings do not know is ignored.)
@pytest.mark.parametrize("text", [*HOSTILE[:-3], '{"watch_delay": 1e400}', '{"width": 1e400}'])
def test_damaged_settings_are_set_aside_by_the_app_session(tmp_path, text):
    (tmp_path / "settings.json").write_text(text)
    preferences = Preferences(tmp_path, save=True)
    assert preferences.load(None, None, None) == Settings()
    assert preferences.notice is not None and "kept as settings.json.damaged-" in preferences.notice
    assert not (tmp_path / "settings.json").exists()


def test_a_session_that_saves_nothing_leaves_a_damaged_settings_file_where_it_is(tmp_path):
    (tmp_path / "settings.json").write_text("[Infinity]")
    preferences = Preferences(tmp_path, save=False)
    assert preferences.load(None, None, None) == Settings()
    assert preferences.notice is not None and (tmp_path / "settings.json").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[Infinity]", "Infinity is not a number"),
        ("[NaN]", "NaN is not a number"),
        ("[1e400]", "1e400 is too large"),
        ("[" + "9" * 5000 + "]", "too long a number"),
        (DEEP, "nested deeper than 8"),
        ("[" * 9 + "]" * 9, "nested deeper than 8"),
        ("{not json", "not JSON (Expecting property name"),
    ],
)
def test_parse_json_refuses_what_no_file_of_ours_holds(text, said):
    with pytest.raises(DamagedFile, match=said.replace("(", r"\(")):
        parse_json(text)


def test_parse_json_reads_what_our_files_hold():
    text = '{"queue": [{"moves": "44", "scores": [-1, 0, null], "board": [7, 6, 4]}], "r": 1.5}'
    assert parse_json(text) == json.loads(text)
    assert nesting(json.loads(text)) == 4 and nesting(5) == 0 and nesting([]) == 1
