"""notation.moves_of: move strings as they are, gamesolver.org links by their `pos`."""

from __future__ import annotations

import pytest

from c4tui.engine.board.notation import LinkError, link_of, moves_of


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("4453", "4453"),
        (" 4453\n", "4453"),
        ("", ""),
        ("https://connect4.gamesolver.org/?pos=4453", "4453"),
        ("http://connect4.gamesolver.org/?pos=4453", "4453"),
        ("connect4.gamesolver.org/?pos=4453", "4453"),
        ("connect4.gamesolver.org?pos=4453", "4453"),
        ("https://connect4.gamesolver.org/en/?lang=en&pos=4453&x=1", "4453"),
        ("HTTPS://Connect4.GameSolver.org/?pos=4453#top", "4453"),
        ("https://connect4.gamesolver.org/", ""),
        ("https://connect4.gamesolver.org/?pos=", ""),
        ("44x3", "44x3"),  # not a link: the move-string parser names the bad character
    ],
)
def test_moves_of(text, moves):
    assert moves_of(text) == moves


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("https://example.org/?pos=4453", "is not a connect4.gamesolver.org link"),
        ("https://gamesolver.org.evil.com/?pos=4453", "is not a connect4.gamesolver.org link"),
        ("ftp://connect4.gamesolver.org/?pos=4453", "is not a connect4.gamesolver.org link"),
        ("connect4.gamesolver.org/?pos=44&pos=53", "gives pos= 2 times"),
    ],
)
def test_what_is_no_position_link(text, words):
    with pytest.raises(LinkError, match=words):
        moves_of(text)


def test_a_link_made_reads_back_as_its_moves():
    assert link_of("4453") == "https://connect4.gamesolver.org/?pos=4453"
    assert moves_of(link_of("4453")) == "4453"
    assert moves_of(link_of("")) == ""
