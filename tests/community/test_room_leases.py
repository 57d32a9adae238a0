"""Room leases (room_leases.py): one server at a time holds a room, on both stores."""

from __future__ import annotations

import pytest

from c4tui.server.cluster.room_leases import LeaseLost, RoomLeases


def test_a_room_is_held_by_one_server_until_its_lease_runs_out(store):
    now = [1000.0]
    ann = RoomLeases(store, "ann:1", 15.0, lambda: now[0])
    bob = RoomLeases(store, "bob:2", 15.0, lambda: now[0])
    assert ann.take(5) and ann.take(5)  # taken, then renewed
    assert not bob.take(5)
    with pytest.raises(LeaseLost):
        bob.hold(5)
    assert bob.elsewhere() == {5: "ann:1"} and ann.highest() == 5
    now[0] += 10
    assert ann.renew() == {5}
    now[0] += 10  # renewed 10 s ago: still ann's
    assert not bob.take(5)
    now[0] += 6  # 16 s unrenewed: ann's server stopped
    assert bob.take(5)
    assert ann.renew() == set() and not ann.take(5)
    with pytest.raises(LeaseLost):
        ann.hold(5)
    ann.release(5)  # not ann's to let go
    assert bob.renew() == {5}
    bob.release_all()
    assert ann.take(5)
