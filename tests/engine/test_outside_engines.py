"""Outside engines driven directly: what they stream, what they play, how they lose."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Forfeit
from c4tui.engine.players.specs import make_engine

BOTS = Path(__file__).parents[1] / "bots"
PY = sys.executable


def test_a_protocol_engine_streams_its_figures_and_plays_its_column():
    engine = make_engine(f"cmd:{PY} {BOTS / 'c4e_bot.py'},time=5,name=Centre")
    seen = []
    try:
        # Player two must block: 4, 5 and 6 of the bottom row are player one's.
        result = engine.search(Position.from_moves("44556"), on_info=seen.append)
    finally:
        engine.close()
    assert result.move == 2 and result.info.pv == (2,)
    assert [stat.score for stat in seen[-1].columns] == [0, 0, 10, 0, 0, 0, 0]
    assert engine.engine_name == "centre bot" and engine.title == "Centre"
    assert engine.child is None


def test_one_process_plays_game_after_game():
    engine = make_engine(f"cmd:{PY} {BOTS / 'c4e_bot.py'},time=5")
    try:
        engine.search(Position.from_moves("44"))
        first = engine.child.process.pid
        engine.new_game()
        engine.search(Position.start(5, 4, 3))  # another board size: `board` is sent
        assert engine.child.process.pid == first
    finally:
        engine.close()


def test_a_stop_ends_a_search_that_does_not_stop_within_the_margin():
    engine = make_engine(f"cmd:{PY} {BOTS / 'c4e_bot.py'} --hang,time=30,margin=0.1")
    stop = threading.Event()
    try:
        engine.search(Position.start())
        engine.search(Position.from_moves("44"))
        stop.set()  # the third `go` never answers: stopped, it still has its margin only
        with pytest.raises(Forfeit, match="overran its time"):
            engine.search(Position.from_moves("4444"), stop=stop)
    finally:
        engine.close()


def test_a_fourinarow_bot_gets_the_field_from_the_top_row_down():
    engine = make_engine(f"fourinarow:{PY} {BOTS / 'fourinarow_bot.py'},time=5")
    try:
        # The bot plays the leftmost column whose top cell is empty: column 1 is full.
        result = engine.search(Position.from_moves("111111"))
    finally:
        engine.close()
    assert result.move == 1


def test_a_connectx_agent_is_its_files_last_function_and_sees_kaggles_board():
    engine = make_engine(f"connectx:{BOTS / 'connectx_agent.py'},time=1")
    try:
        # Player one has 4-5-6 of the bottom row: player two blocks an end, or it wins.
        assert engine.search(Position.from_moves("44556")).move in (2, 6)
        engine.new_game()
        assert engine.search(Position.from_moves("445566")).move in (2, 6)
    finally:
        engine.close()


def test_a_program_that_is_not_there_any_more_loses_with_the_reason(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\n")  # ends at once
    engine = make_engine(f"cmd:{PY} {bot},time=5")
    with pytest.raises(Forfeit, match=r"crashed \(exit status 0\)"):
        engine.search(Position.start())


def test_a_program_that_floods_its_output_loses_and_is_read_no_more(tmp_path, monkeypatch):
    monkeypatch.setattr("c4tui.engine.external.child.MAX_UNREAD", 300)  # 20,000 in use
    bot = tmp_path / "bot.py"
    bot.write_text("while True:\n    print('info string hello')\n")
    engine = make_engine(f"cmd:{PY} {bot},time=5")
    with pytest.raises(Forfeit, match=r"printed junk \(a flood of lines nobody asked for\)"):
        engine.search(Position.start())
    assert engine.child is None


def test_a_connectx_agent_has_kaggles_overage_unless_told_otherwise(tmp_path):
    # Its first step overruns actTimeout: Kaggle takes that from the game's 60 s overage.
    slow_once = tmp_path / "slow_once.py"
    slow_once.write_text(
        "import time\n"
        "def agent(observation, configuration):\n"
        "    if observation.step < 2:\n"
        "        time.sleep(0.5)\n"
        "    return [c for c in range(configuration.columns) if observation.board[c] == 0][0]\n"
    )
    engine = make_engine(f"connectx:{slow_once},time=0.1,margin=0.1")
    try:
        assert engine.search(Position.from_moves("4")).move == 0
        assert engine.overage_left < 60  # type: ignore[attr-defined]  # a ConnectX engine's
    finally:
        engine.close()
    strict = make_engine(f"connectx:{slow_once},time=0.1,margin=0.1,overage=0")
    try:
        with pytest.raises(Forfeit, match="overran its time"):
            strict.search(Position.from_moves("4"))
    finally:
        strict.close()


def test_a_figure_that_cannot_be_read_is_left_out_and_named_once(tmp_path, caplog):
    # Issue 45 item 32: a score of 1.5 dropped its whole line, visits too, unsaid.
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('c4e'):\n"
        "        print('c4eok 1', flush=True)\n"
        "    elif line.startswith('go'):\n"
        "        print('info col 4 visits 30 winrate 0.6 score 1.5')\n"
        "        print('info col 3 score 2.5 visits 10')\n"
        "        print('info time 5 pv 4')\n"
        "        print('bestmove 4', flush=True)\n"
    )
    engine = make_engine(f"cmd:{PY} {bot},time=5,name=Halves")
    caplog.set_level("INFO", logger="c4tui.engine.external")
    try:
        info = engine.search(Position.from_moves("44")).info
        engine.search(Position.from_moves("4444"))
    finally:
        engine.close()
    column = info.columns[3]
    assert column is not None and (column.visits, column.score) == (30, None)
    assert info.columns[2] is not None and info.columns[2].visits == 10
    named = [r.getMessage() for r in caplog.records if "left out" in r.getMessage()]
    assert named == [
        "Halves: score left out (column 4: score '1.5' is not a whole number); said once a game"
    ]


def test_a_flooding_program_loses_for_the_flood_game_after_game(tmp_path):
    # Issue 45 item 32: whether the flood or the clock ended it depended on who read
    # faster, the bot's writes or our reads: the reason varied between games.
    bot = tmp_path / "flood.py"
    bot.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('c4e'):\n"
        "        print('c4eok 1', flush=True)\n"
        "    elif line.startswith('go'):\n"
        "        while True:\n"
        "            sys.stdout.write('info string thinking hard\\n' * 100)\n"
        "            sys.stdout.flush()\n"
    )
    reasons = set()
    for _ in range(3):
        engine = make_engine(f"cmd:{PY} {bot},time=30")
        with pytest.raises(Forfeit) as lost:
            engine.search(Position.start())
        engine.close()
        reasons.add(str(lost.value))
    assert reasons == {"printed junk (a flood of lines nobody asked for)"}
