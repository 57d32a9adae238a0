"""The saved-games file: whole lines only, repaired when torn, a full disk cut back."""

from __future__ import annotations

import errno
import json
import os

import pytest

from c4tui.tournament import savefile
from c4tui.tournament.savefile import SavedGames, SaveError


def game(n: int) -> dict:
    """A line as `arena --save` writes it (the keys every saved game has)."""
    return {"run": "r1", "game": n, "moves": "4453"}


def text(*numbers: int) -> str:
    return "".join(json.dumps(game(n)) + "\n" for n in numbers)


def test_each_line_is_one_write_then_fsync(monkeypatch, tmp_path):
    calls = []
    real_write, real_fsync = os.write, os.fsync
    monkeypatch.setattr(os, "write", lambda fd, data: calls.append("write") or real_write(fd, data))
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync") or real_fsync(fd))
    with SavedGames(str(tmp_path / "games.jsonl")) as saved:
        saved.append(game(1))
        saved.append(game(2))
    assert calls == ["write", "fsync", "write", "fsync"]
    assert (tmp_path / "games.jsonl").read_text() == text(1, 2)


def test_a_file_ending_in_half_a_line_is_repaired_before_appending(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(text(1, 2) + '{"run": "r')
    with SavedGames(str(path)) as saved:
        assert saved.repaired == len(b'{"run": "r')
        saved.append(game(3))
    assert path.read_text() == text(1, 2, 3)


def test_a_file_that_is_all_fragment_is_emptied_and_a_whole_file_untouched(monkeypatch, tmp_path):
    monkeypatch.setattr(savefile, "TAIL_CHUNK", 4)  # the backwards scan crosses chunks
    torn, whole = tmp_path / "torn.jsonl", tmp_path / "whole.jsonl"
    torn.write_bytes(b'{"half a line without end')
    whole.write_text(text(1))
    with SavedGames(str(torn)) as saved:
        assert saved.repaired == len(b'{"half a line without end')
    with SavedGames(str(whole)) as saved:
        assert saved.repaired == 0
    assert torn.read_bytes() == b""
    assert whole.read_text() == text(1)


def test_a_write_cut_short_by_a_full_disk_leaves_no_half_line(monkeypatch, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(text(1))
    real_write = os.write

    def disk_fills(fd, data):
        return real_write(fd, data[:5])  # the disk took five bytes, then was full

    with SavedGames(str(path)) as saved:
        monkeypatch.setattr(os, "write", disk_fills)
        with pytest.raises(SaveError, match="No space left on device"):
            saved.append(game(2))
    assert path.read_text() == text(1)


def test_a_failing_write_names_the_file(monkeypatch, tmp_path):
    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with SavedGames(str(tmp_path / "games.jsonl")) as saved:
        monkeypatch.setattr(os, "write", no_space)
        with pytest.raises(SaveError, match=r"cannot write '.*games.jsonl'"):
            saved.append(game(1))


@pytest.mark.parametrize("name", ["", "missing-directory/games.jsonl"])
def test_a_file_that_cannot_be_opened_is_a_save_error(tmp_path, name):
    with pytest.raises(SaveError):
        SavedGames(str(tmp_path / name) if name else "")


@pytest.mark.parametrize(
    "content",
    [
        b"first line\nlast line without a newline",  # was cut to its first line
        bytes(range(256)) * 800,  # a 200 KB binary: was cut to 0 bytes
        b'{"name": "not a saved game"}\n',
        text(1).encode() + b"a note typed at the end",  # not the start of a saved line
        b"{" * (savefile.LINE_LIMIT + 1),
    ],
)
def test_a_file_not_written_by_save_is_refused_untouched(tmp_path, content):
    path = tmp_path / "t.txt"
    path.write_bytes(content)
    with pytest.raises(SaveError, match="refusing to change it"):
        SavedGames(str(path))
    assert path.read_bytes() == content


def test_a_fifo_with_no_reader_is_refused_at_once_and_one_with_a_reader_is_written(tmp_path):
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match="is a FIFO that nothing reads"):
        SavedGames(str(fifo))
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with SavedGames(str(fifo)) as saved:
            saved.append(game(1))
        assert os.read(reader, 1000).decode() == text(1)
    finally:
        os.close(reader)


def test_a_line_nested_thousands_deep_is_no_saved_game():
    # json.loads raises RecursionError on it, which is no ValueError: it stopped the run.
    assert not savefile.is_saved_line(b"[" * 100_000)
    assert savefile.is_saved_line(json.dumps(game(1)).encode())
