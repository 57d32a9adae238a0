"""Passwords of keyless names and blocks, kept in the store."""

from __future__ import annotations

from c4tui.community.passwords import hashed, matches
from c4tui.server.store.opening import open_store
from c4tui.server.store.people_records import PeopleRecords


def test_a_password_claims_the_name_and_is_asked_from_then_on(tmp_path):
    with open_store(tmp_path) as store:
        people = PeopleRecords(store)
        assert people.password_of("bob") is None
        assert people.set_password("ssh-name:bob", "bob", hashed("bobs secret"))
        assert people.players.holder_of("BOB") == people.players.player_of("ssh-name:bob")
    with open_store(tmp_path) as store:  # kept over a restart
        people = PeopleRecords(store)
        kept = people.password_of("Bob")
        assert kept is not None and matches("bobs secret", kept)
        assert "bobs secret" not in str(store.rows("SELECT * FROM passwords"))
        # another identity cannot set a password on a name that is bob's
        assert not people.set_password("ssh-name:Bob", "Bob", hashed("eves secret"))
        assert matches("bobs secret", people.password_of("bob"))


def test_a_new_password_replaces_the_old(store):
    people = PeopleRecords(store)
    people.set_password("ssh-name:ann", "ann", hashed("first one"))
    people.set_password("ssh-name:ann", "ann", hashed("second one"))
    assert matches("second one", people.password_of("ann"))
    assert store.value("SELECT count(*) FROM passwords") == 1


def test_a_block_is_one_way_between_players_and_can_be_lifted(store):
    people = PeopleRecords(store)
    eve = people.players.player("web:eve", "eve")
    people.block("ssh-key:SHA256:ann", "ann", eve)
    assert people.blocks("ssh-key:SHA256:ann", "web:eve")
    assert not people.blocks("web:eve", "ssh-key:SHA256:ann")
    assert not people.blocks("ssh-key:SHA256:ann", "web:someone")  # unknown: not blocked
    assert people.blocked_by("ssh-key:SHA256:ann") == ["eve"]
    assert people.blocks_player("ssh-key:SHA256:ann", eve)
    people.block("ssh-key:SHA256:ann", "ann", eve)  # twice is once
    ann = people.players.player_of("ssh-key:SHA256:ann")
    people.block("ssh-key:SHA256:ann", "ann", ann)  # nobody blocks themselves
    assert people.blocked_by("ssh-key:SHA256:ann") == ["eve"]
    people.unblock("ssh-key:SHA256:ann", eve)
    assert not people.blocks("ssh-key:SHA256:ann", "web:eve")
    assert not people.blocks_player("ssh-key:SHA256:ann", eve)
    assert people.blocked_by("ssh-key:SHA256:ann") == []
