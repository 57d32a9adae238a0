"""Players: one live session per identity; a second one is numbered, a returning one is not."""

from c4tui.serve.players import Player, Players


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
