"""files.read_text refuses what is no regular file of sane size; atomic_write honours the umask."""

from __future__ import annotations

import os
import stat

import pytest

from c4tui.files import NoSuchFile, UnreadableFile, atomic_write, read_text


def test_a_regular_file_reads_and_a_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "g.c4"
    path.write_bytes(b"\xef\xbb\xbfc4tui-game 1\n")
    assert read_text(path) == "c4tui-game 1\n"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "a directory, not a file"),
        (lambda p: os.mkfifo(p), "not a regular file (a FIFO)"),
        (lambda p: p.symlink_to("/dev/zero"), "not a regular file (a device)"),
        (lambda p: p.write_bytes(b"x" * 101), "too large (over 100 bytes)"),
        (lambda p: p.write_bytes(b"4453\xff"), "not UTF-8 text (byte 5)"),
    ],
)
def test_what_is_refused_and_why(tmp_path, make, reason):
    path = tmp_path / "f"
    make(path)
    with pytest.raises(UnreadableFile) as caught:
        read_text(path, limit=100)  # a FIFO with no writer must not wait: O_NONBLOCK
    assert caught.value.reason == reason
    assert str(caught.value) == f"{path}: {reason}"


def test_a_name_with_a_nul_is_refused_not_a_crash():
    with pytest.raises(UnreadableFile, match="NUL"):
        read_text("games/a\0b")


def test_an_unreadable_file_is_an_os_error_for_callers_that_catch_those(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_text(tmp_path / "missing")
    with pytest.raises(NoSuchFile):
        read_text(tmp_path / "missing")
    (tmp_path / "dir").mkdir()
    with pytest.raises(OSError):
        read_text(tmp_path / "dir")


def test_a_new_file_gets_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path):
    old = os.umask(0o022)
    try:
        new = atomic_write(tmp_path / "new.txt", "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    kept = tmp_path / "kept.txt"
    kept.write_text("old\n")
    kept.chmod(0o640)
    atomic_write(kept, "new\n")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    assert kept.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_settings_linked_to_dev_zero_give_defaults_and_a_notice(tmp_path):
    from c4tui.app.settings import FILE_NAME, Settings, load

    (tmp_path / FILE_NAME).symlink_to("/dev/zero")
    settings, notice = load(tmp_path)
    assert settings == Settings()
    assert "not a regular file (a device)" in notice


def test_load_of_a_fifo_or_dev_zero_is_one_line_and_status_2(tmp_path, capsys):
    from c4tui.cli import main

    os.mkfifo(tmp_path / "fifo")
    for name in ("/dev/zero", str(tmp_path / "fifo")):
        assert main(["--load", name]) == 2
        assert capsys.readouterr().err.startswith(f"c4tui: --load {name}: not a regular file (a ")
