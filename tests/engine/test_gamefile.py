"""The game file: round trips of any game, and damaged or hand-edited files named by line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.engine.board.position import Position


@st.composite
def games(draw) -> GameRecord:
    """A game of random legal moves on a random board, up to and including its end."""
    width = draw(st.integers(4, 10))
    height = draw(st.integers(4, 10))
    connect = draw(st.integers(3, min(5, max(width, height))))
    position = Position.start(width, height, connect)
    for _ in range(draw(st.integers(0, width * height))):
        if position.is_over():
            break
        open_columns = [c for c in range(width) if position.can_play(c)]
        position = position.play(draw(st.sampled_from(open_columns)))
    names = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
    players = (draw(names), draw(names))
    return GameRecord.of(position, players, date="2026-11-23T08:15:02Z")


@settings(max_examples=150, deadline=None)
@given(games())
def test_every_game_survives_a_round_trip(record):
    read = GameRecord.from_text(record.to_text())
    assert read.position == record.position
    assert read.moves == record.moves
    assert (read.width, read.height, read.connect) == (record.width, record.height, record.connect)
    assert read.date == record.date
    assert read.result == record.result
    # Names are kept up to blanks: a header value is one line without surrounding spaces.
    assert read.players == tuple(" ".join(p.split()) or "?" for p in record.players)


def test_the_written_file_is_plain_headers():
    record = GameRecord.of(
        Position.from_moves("4444443"), ("You", "mcts:time=1"), "2026-11-23T08:15:02Z"
    )
    assert record.to_text() == (
        "c4tui-game 1\n"
        "Date: 2026-11-23T08:15:02Z\n"
        "Board: 7x6\n"
        "Connect: 4\n"
        "Player1: You\n"
        "Player2: mcts:time=1\n"
        "Result: *\n"
        "Moves: 4444443\n"
    )


def test_a_finished_game_says_who_won():
    assert GameRecord.of(Position.from_moves("4343434"), ("a", "b")).result == "1-0"
    assert GameRecord.of(Position.from_moves("14343434"), ("a", "b")).result == "0-1"


def test_hand_edits_comments_blank_lines_any_case_and_defaults():
    text = "\n# kept by hand\nc4tui-game 1\n\n  moves: 4453  \nPLAYER1: Ann\n# the end\n"
    record = GameRecord.from_text(text)
    assert record.position == Position.from_moves("4453")
    assert record.players == ("Ann", "Player 2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: empty"),
        ("chess game\nMoves: 44\n", "line 1: expected 'c4tui-game 3'"),
        ("c4tui-game 4\nMoves: 44\n", "line 1: format version '4' is not supported"),
        ("c4tui-game 1\nEvent: club\n", "line 2: expected a header"),
        ("c4tui-game 1\nMoves 44\n", "line 2: expected a header"),
        ("c4tui-game 1\nMoves: 4\nMoves: 5\n", "line 3: Moves given twice"),
        ("c4tui-game 1\nBoard: big\n", "line 2: Board should look like 7x6"),
        ("c4tui-game 1\nBoard: 7x6x2\n", "line 2: Board should look like 7x6"),
        ("c4tui-game 1\nConnect: four\n", "line 2: Connect should be a number"),
        ("c4tui-game 1\nBoard: 12x6\nMoves: 1\n", "line 2: width 12 is outside"),
        ("c4tui-game 1\nBoard: ²x6\n", "line 2: Board should look like 7x6, got '²x6'"),
        ("c4tui-game 1\nBoard: 7x٦\n", "line 2: Board should look like 7x6"),
        (f"c4tui-game 1\nBoard: {'9' * 5000}x6\n", "line 2: Board should look like 7x6"),
        ("c4tui-game 1\nConnect: ³\n", "line 2: Connect should be a number, got '³'"),
        (f"c4tui-game 1\nConnect: {'4' * 5000}\n", "line 2: Connect should be a number"),
        ("c4tui-game 1\nBoard: 7x6\nConnect: 9\n", "line 3: connect 9 is outside 3..6"),
        ("c4tui-game 1\nConnect: 6\nBoard: 4x5\n", "line 2: connect 6 cannot fit"),
        ("c4tui-game 1\nMoves: 4\x0053\n", "line 2: move 2 ('\\x00')"),
        ("c4tui-game 1\n\nMoves: 44x\n", "line 3: move 3 ('x')"),
        ("c4tui-game 1\nBoard: 5x4\nMoves: 6\n", "line 3: move 1 ('6') of '6': column 6"),
        ("c4tui-game 1\nMoves: 12121212\n", "line 2: move 8 ('2') of '12121212': the game"),
        ("c4tui-game 1\nResult: win\nMoves: 1212121\n", "line 2: Result should be one of"),
        ("c4tui-game 1\nResult: 0-1\nMoves: 1212121\n", "line 2: Result 0-1 does not match"),
        ("c4tui-game 1\nDate: yesterday\n", "line 2: Date should be ISO 8601"),
    ],
)
def test_bad_files_name_the_line_and_the_problem(text, message):
    with pytest.raises(GameFileError) as caught:
        GameRecord.from_text(text)
    assert str(caught.value).startswith(message)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Board", "Connect", "Moves", "Result", "Date", "Player1", "x"]),
            st.text(max_size=12),
        ),
        max_size=6,
    )
)
def test_any_damaged_header_is_a_game_file_error_never_a_crash(headers):
    text = "c4tui-game 1\n" + "".join(f"{key}: {value}\n" for key, value in headers)
    try:
        GameRecord.from_text(text)
    except GameFileError as error:
        assert str(error).startswith("line ")


def test_version_2_keeps_variations_and_the_current_position():
    game = Game.from_moves("445362")
    game.undo()
    game.undo()
    game.play(0)
    record = GameRecord.of_game(game, ("You", "level:3"), "2026-11-23T08:15:02Z")
    text = record.to_text()
    assert text.startswith("c4tui-game 2\n")
    assert "Moves: 445362\n" in text and "Variation: 44531\n" in text
    assert "Current: 44531\n" in text
    back = GameRecord.from_text(text)
    assert back == record
    again = back.game()
    assert again.position.to_moves() == "44531"
    assert [e.position.to_moves() for e in again.line_ends()] == ["445362", "44531"]


def test_a_game_without_variations_is_written_as_version_1():
    record = GameRecord.of_game(Game.from_moves("4453"), ("A", "B"))
    assert record.to_text().startswith("c4tui-game 1\n")
    assert GameRecord.from_text(record.to_text()).game().position.to_moves() == "4453"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("c4tui-game 1\nMoves: 44\nVariation: 45\n", "line 3: expected a header"),
        ("c4tui-game 2\nMoves: 44\nVariation: 4x\n", "line 3: move 2 ('x')"),
        ("c4tui-game 2\nMoves: 44\n\nVariation: 45\nCurrent: 46\n", "line 5: Current '46'"),
        ("c4tui-game 2\nMoves: 44\nCurrent: 4\nCurrent: 4\n", "line 4: Current given twice"),
    ],
)
def test_bad_version_2_lines_are_named(text, error):
    with pytest.raises(GameFileError) as caught:
        GameRecord.from_text(text)
    assert str(caught.value).startswith(error)


def test_a_results_header_says_who_won_a_draw_or_a_game_going_on():
    from c4tui.engine.board.gamefile import result_of, result_text

    assert [result_text(0), result_text(1), result_text(None)] == ["1-0", "0-1", "1/2-1/2"]
    assert result_text(None, over=False) == "*"
    assert result_of(Position.from_moves("1212121")) == "1-0"
    assert result_of(Position.from_moves("44")) == "*"


def test_a_game_ended_off_the_board_keeps_its_result_and_how():
    from c4tui.engine.board.gamefile import Ending

    position = Position.from_moves("4453")
    resigned = GameRecord.of(position, ("You", "level:4"), ended=Ending("resigned", 1))
    text = resigned.to_text()
    assert text.startswith("c4tui-game 3\n")
    assert "Result: 0-1\n" in text and "Ended: resigned\n" in text
    back = GameRecord.from_text(text)
    assert back == resigned and back.result == "0-1" and back.finished
    assert back.ended is not None and back.ended.words(back.players) == "You resigned"
    agreed = GameRecord.of(position, ("A", "B"), ended=Ending("agreed", None))
    assert GameRecord.from_text(agreed.to_text()).result == "1/2-1/2"
    assert not GameRecord.of(position, ("A", "B")).finished
    # A draw claimed by the side that stayed when the other left a served game.
    claimed = GameRecord.from_text(
        GameRecord.of(position, ("A", "B"), ended=Ending("abandoned", None)).to_text()
    )
    assert claimed.result == "1/2-1/2" and claimed.ended == Ending("abandoned", None)
    assert claimed.ended.words() == "draw claimed, a side left"
    assert Ending("forfeit", 0).words(("ann", "bob")) == "bob forfeited"
    assert Ending("abandoned", 1).words(("ann", "bob")) == "ann left the game"
    with pytest.raises(ValueError, match="no ending 'time' with winner None"):
        Ending("time", None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("c4tui-game 3\nResult: 1-0\nMoves: 44\nEnded: agreed\n", "line 4: Ended agreed needs"),
        ("c4tui-game 3\nResult: *\nMoves: 44\nEnded: resigned\n", "needs the Result 1-0 or 0-1"),
        ("c4tui-game 3\nResult: 1/2-1/2\nMoves: 44\nEnded: time\n", "needs the Result 1-0 or 0-1"),
        ("c4tui-game 3\nResult: *\nMoves: 44\nEnded: abandoned\n", "1-0, 0-1 or 1/2-1/2"),
        ("c4tui-game 3\nResult: 1-0\nMoves: 44\nEnded: bored\n", "Ended should be one of"),
        ("c4tui-game 3\nResult: 1-0\nMoves: 1212121\nEnded: resigned\n", "the board ended"),
        ("c4tui-game 2\nResult: 1-0\nMoves: 44\nEnded: resigned\n", "line 4: expected a header"),
        ("c4tui-game 3\nMoves: 44\nStart: 45\n", "line 3: Start '45' is not on any line"),
    ],
)
def test_bad_endings_and_starts_are_named(text, message):
    with pytest.raises(GameFileError) as caught:
        GameRecord.from_text(text)
    assert message in str(caught.value)


def test_a_set_up_game_keeps_the_moves_it_was_set_up_with():
    game = Game.from_moves("4453")
    game.play(2)
    record = GameRecord.of_game(game, ("You", "level:2"), start="4453")
    text = record.to_text()
    assert "Start: 4453\n" in text and text.startswith("c4tui-game 3\n")
    assert GameRecord.from_text(text).start == "4453"
    assert GameRecord.from_text(GameRecord.of_game(game, ("A", "B")).to_text()).start == ""
