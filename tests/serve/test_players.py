"""Players: one live session per identity; a second one is numbered, a returning one is not."""

import pytest

from c4tui.serve.players import NameBook, NameTaken, Player, Players


def test_a_second_live_session_is_numbered_and_the_number_comes_free_again():
    players = Players()
    ann = Player("ssh-name:ann#x", "ann", "10.0.0.1")
    first = players.enter(ann)
    second = players.enter(ann)
    assert first == ann
    assert second == Player("ssh-name:ann#x#2", "ann-2", "10.0.0.1")
    players.leave(first)
    assert players.enter(ann) == ann  # back after a dropped connection: the same player
    assert players.enter(ann).key == "ssh-name:ann#x#3"
    players.leave(second)
    assert players.enter(ann).key == "ssh-name:ann#x#2"


def test_a_keys_name_is_its_own_and_kept(tmp_path):
    book = NameBook(tmp_path / "names.json")
    bob = Player("ssh-key:SHA256:bob", "bob", "10.0.0.1")
    assert book.refusal(bob) is None  # the first use claims it
    again = NameBook(tmp_path / "names.json")  # after a restart
    assert again.refusal(bob) is None
    assert "belongs to a player with an ssh key" in again.refusal(
        Player("ssh-name:Bob", "Bob", "10.0.0.2")
    )
    assert "another ssh key" in again.refusal(Player("ssh-key:SHA256:eve", "bob", "10.0.0.3"))
    assert again.refusal(Player("ssh-name:ann", "ann", "10.0.0.2")) is None
    assert "browsers'" in again.refusal(Player("ssh-name:web-1a2b", "web-1a2b", "10.0.0.2"))


def test_players_refuse_a_name_that_is_another_identitys(tmp_path):
    players = Players(NameBook(tmp_path / "names.json"))
    players.enter(Player("ssh-key:SHA256:bob", "bob", "10.0.0.1"))
    with pytest.raises(NameTaken):
        players.enter(Player("ssh-name:bob", "bob", "10.0.0.2"))
    assert "ssh-name:bob" not in players.numbers
