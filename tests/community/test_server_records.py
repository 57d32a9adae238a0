"""ServerRecords: who lives by heartbeats, and the long-dead forgotten (SQLite and PostgreSQL)."""

from __future__ import annotations

from c4tui.server.cluster.bus_servers import FORGET_AFTER, ServerRecords


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_silent_server_is_dead_after_a_lease_and_forgotten_after_a_week(store):
    clock = Clock(1_000_000.0)
    first = ServerRecords(store, "a:1", 15.0, clock)
    second = ServerRecords(store, "b:2", 15.0, clock)
    first.beat()
    second.beat()
    assert first.live() == ["a:1", "b:2"]
    clock.now += 16  # b stops beating
    first.beat()
    assert first.live() == ["a:1"]
    assert store.rows("SELECT server FROM servers ORDER BY server") == [("a:1",), ("b:2",)]
    clock.now += FORGET_AFTER
    first.beat()
    assert store.rows("SELECT server FROM servers ORDER BY server") == [("a:1",)]
    second.beat()  # back from the dead: a row again
    assert first.live() == ["a:1", "b:2"]
