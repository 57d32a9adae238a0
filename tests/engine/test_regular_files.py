"""Files a user names: opened without waiting, bounded, written whole (`regular_files`)."""

from __future__ import annotations

import os
import zipfile

import numpy as np
import pytest

from c4tui.engine.regular_files import (
    NoSuchFile,
    UnreadableFile,
    UnwritableFile,
    read_arrays,
    write_whole,
)


def test_an_archive_reads_back_its_arrays(tmp_path):
    path = tmp_path / "a.npz"
    np.savez(path, x=np.arange(3), y=np.eye(2, dtype=np.float32))
    arrays = read_arrays(path, limit=1 << 20)
    assert sorted(arrays) == ["x", "y"] and arrays["x"].tolist() == [0, 1, 2]


def test_what_is_no_archive_is_refused_in_words(tmp_path):
    os.mkfifo(tmp_path / "fifo")  # with no writer: an open that waited would hang here
    (tmp_path / "text").write_text("hello")
    np.save(tmp_path / "plain.npy", np.zeros(3))  # NumPy's load gives an array, not names
    with zipfile.ZipFile(tmp_path / "member.npz", "w") as archive:
        archive.writestr("x", "no .npy inside")
    pickled = np.array([{"a": 1}], dtype=object)
    np.savez(tmp_path / "pickled.npz", x=pickled)
    expected = {
        "fifo": "not a regular file (a FIFO)",
        "text": "not a NumPy archive (.npz)",
        "plain.npy": "not a NumPy archive (.npz)",
        "member.npz": "a damaged NumPy archive",
        "pickled.npz": "a damaged NumPy archive",
        ".": "a directory, not a file",
    }
    for name, reason in expected.items():
        with pytest.raises(UnreadableFile) as caught:
            read_arrays(tmp_path / name, limit=1 << 20)
        assert caught.value.reason == reason and str(tmp_path) in str(caught.value)
    with pytest.raises(NoSuchFile):
        read_arrays(tmp_path / "missing.npz", limit=1 << 20)


def test_the_limit_bounds_the_file_and_what_it_unpacks_to(tmp_path):
    path = tmp_path / "zeros.npz"
    np.savez_compressed(path, x=np.zeros(1 << 20, np.uint8))  # 1 MiB of zeros: a small file
    assert path.stat().st_size < 10_000
    with pytest.raises(UnreadableFile, match="holds over 100,000 bytes unpacked"):
        read_arrays(path, limit=100_000)
    with pytest.raises(UnreadableFile, match="too large"):
        read_arrays(path, limit=1_000)
    assert len(read_arrays(path, limit=2 << 20)["x"]) == 1 << 20


def test_a_file_is_written_whole_under_its_own_name(tmp_path):
    path = tmp_path / "out"  # NumPy's own saving would write out.npz
    write_whole(path, lambda handle: np.savez(handle, x=np.arange(4)))
    assert read_arrays(path, limit=1 << 20)["x"].tolist() == [0, 1, 2, 3]
    assert sorted(os.listdir(tmp_path)) == ["out"]


def test_a_write_that_fails_keeps_the_old_file_and_leaves_nothing_beside_it(tmp_path):
    path = tmp_path / "kept"
    path.write_bytes(b"old")

    def fails(handle):
        handle.write(b"half")
        raise OSError("the disk is full")

    with pytest.raises(OSError, match="the disk is full"):
        write_whole(path, fails)
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["kept"]


def test_a_directory_or_a_fifo_is_never_replaced(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    for name, what in (("fifo", "a FIFO"), ("folder", "a directory")):
        with pytest.raises(UnwritableFile, match=f"{what}, not a file to write"):
            write_whole(tmp_path / name, lambda handle: handle.write(b"x"))
    assert (tmp_path / "folder").is_dir() and not (tmp_path / "fifo").is_file()
