"""The kept games on disk: only our own names, damage set aside and said, one c4tui per
game, and the games played longest ago pruned first."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest

from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.position import Position
from c4tui.match.controller import Match
from c4tui.match.keeping import GameKeeper
from c4tui.match.sides import Sides
from c4tui.records.kept_games import DamagedGame, GameHeldElsewhere, GameLibrary

RECORD = GameRecord.of(Position.from_moves("4455"), ("You", "random"), "2026-11-20T10:00:00Z")
NAME = "20261120-100000-0001000001"


def kept(tmp_path) -> GameLibrary:
    """A library with one game in progress, written by a c4tui that has quit."""
    library = GameLibrary(tmp_path)
    library.save(NAME, RECORD)
    library.release()
    return library


@pytest.mark.parametrize("named", ["../../outside", "/tmp/outside", "x\0y", "../games/x"])
def test_current_naming_anything_but_a_kept_game_is_set_aside(tmp_path, named):
    outside = tmp_path / "outside.c4"
    outside.write_text(RECORD.to_text())
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "current").write_text(named + "\n")
    with pytest.raises(DamagedGame, match="current file could not be read") as raised:
        GameLibrary(tmp_path / "data").current()
    (aside,) = (tmp_path / "data").glob("current.damaged-*")
    assert str(aside) in str(raised.value) and aside.read_text() == named + "\n"
    assert outside.read_text() == RECORD.to_text()


DAMAGE = {
    "truncated": lambda path: path.write_text(RECORD.to_text()[:30]),
    "garbage": lambda path: path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe"),
    "version 7": lambda path: path.write_text("c4tui-game 7\nMoves: 44\n"),
    "a directory": lambda path: path.mkdir(),
    "a dangling link": lambda path: path.symlink_to(path.parent / "nowhere.c4"),
    "a FIFO": os.mkfifo,
    "Board: ²x6": lambda path: path.write_text("c4tui-game 1\nBoard: ²x6\nMoves: 44\n"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_game_in_progress_is_set_aside_and_said(tmp_path, damage):
    library = kept(tmp_path)
    path = library.path(NAME)
    path.unlink()
    DAMAGE[damage](path)
    with pytest.raises(DamagedGame, match="could not be read") as raised:
        library.current()
    (aside,) = path.parent.glob(f"{path.name}.damaged-*")
    assert str(aside) in str(raised.value) and not os.path.lexists(path)
    assert library.current() is None  # said once; the next start is a fresh board


def test_a_game_one_c4tui_plays_is_refused_to_another(tmp_path):
    kept(tmp_path)
    first, second = GameLibrary(tmp_path), GameLibrary(tmp_path)
    assert first.current().name == NAME
    with pytest.raises(GameHeldElsewhere):
        second.current()
    with pytest.raises(GameHeldElsewhere):
        second.take(NAME)
    with pytest.raises(GameHeldElsewhere):  # nothing written over the first one's moves
        second.save(NAME, GameRecord.of(Position.from_moves("1"), ("You", "random")))
    assert first.load(NAME) == RECORD and second.held_elsewhere(NAME)
    first.release()
    assert second.current().name == NAME


def test_the_hold_dies_with_its_process(tmp_path):
    library = kept(tmp_path)
    library.locks.mkdir(exist_ok=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys\n"
            f"lock = open({str(library.locks / (NAME + '.lock'))!r}, 'w')\n"
            "fcntl.flock(lock, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    assert library.held_elsewhere(NAME)
    with pytest.raises(GameHeldElsewhere):
        library.current()
    holder.kill()  # not a clean exit: the kernel lets go all the same
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()
    assert library.current().name == NAME


def test_a_reopened_game_played_on_is_not_pruned(tmp_path):
    library = GameLibrary(tmp_path, keep=3)
    match = Match(Sides(None, None), keeper=GameKeeper(library))
    names = []
    for _ in range(3):
        match.new_game()
        match.drop(0)
        names.append(match.name)
    oldest = names[0]
    match.open(library.take(oldest), oldest)
    match.drop(1)  # played on: the most recent game now
    for _ in range(2):
        match.new_game()
        match.drop(0)
    assert oldest in library.names()
    assert names[1] not in library.names()  # the one played longest ago went
    assert library.names()[-1] == oldest  # newest first, by when last played
    games, _ = library.listing()
    assert [game.played for game in games] == sorted((g.played for g in games), reverse=True)


def test_a_damaged_game_on_a_read_only_disk_is_still_only_a_notice(tmp_path, monkeypatch):
    from c4tui.records import kept_games as library_module

    def read_only(*_):
        raise OSError(errno.EROFS, "Read-only file system")

    library = kept(tmp_path)
    library.path(NAME).write_text("garbage")
    monkeypatch.setattr(library_module, "set_aside", read_only)
    monkeypatch.setattr(GameLibrary, "forget_current", read_only)
    with pytest.raises(DamagedGame, match=r"nor set aside \(Read-only file system\)"):
        library.current()
    assert library.path(NAME).read_text() == "garbage"


def test_a_new_game_lets_go_of_the_game_played_before(tmp_path):
    kept(tmp_path)
    first = GameLibrary(tmp_path)
    match = Match(Sides(None, "random"), keeper=GameKeeper(first))
    resumed = first.current()
    match.open(resumed.record, resumed.name)
    assert GameLibrary(tmp_path).held_elsewhere(NAME)
    match.new_game()  # no move yet on the new board
    assert not GameLibrary(tmp_path).held_elsewhere(NAME)
