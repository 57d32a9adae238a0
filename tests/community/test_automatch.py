"""Automatch's rules (community/automatch.py), as examples and as properties over random queues."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.community.automatch import Seek, SeekQueue, Widening


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def queue_with(clock: Clock, blocked: set[frozenset[str]] | None = None) -> SeekQueue:
    pairs = blocked or set()
    return SeekQueue(clock, blocked=lambda a, b: frozenset((a, b)) in pairs)


def keys(pairings: list) -> list[tuple[str, str]]:
    return [(p.first.key, p.second.key) for p in pairings]


def test_the_range_widens_by_its_schedule_then_takes_anyone() -> None:
    w = Widening()  # ±100, +50 every 5 s, up to ±500, then anyone
    assert [w.range(t) for t in (0, 4.9, 5, 10, 39.9, 40, 44.9)] == [
        100,
        100,
        150,
        200,
        450,
        500,
        500,
    ]
    assert w.range(45) == math.inf
    assert (w.words(0), w.words(12), w.words(60)) == ("±100", "±200", "anyone")


def test_close_ratings_meet_at_once_far_ones_when_the_range_has_grown() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1590, "3+2")
    assert keys(queue.pair()) == [("ann", "bob")]
    queue.seek("cy", "Cy", 1500, "3+2")
    queue.seek("dee", "Dee", 1800, "3+2")
    assert queue.pair() == []
    clock.now = 19.9  # ±250 after 15 s: not yet
    assert queue.pair() == []
    clock.now = 20.0  # ±300
    assert keys(queue.pair()) == [("cy", "dee")]
    assert queue.seeks == {}


def test_the_longer_waiter_s_range_lets_a_newcomer_in() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.seek("ann", "Ann", 1500, "3+2")
    clock.now = 20.0
    queue.seek("bob", "Bob", 1790, "3+2")  # its own ±100 is too narrow; Ann's ±300 is not
    assert keys(queue.pair()) == [("ann", "bob")]


def test_time_controls_never_meet() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "5+3")
    clock.now = 1000.0
    assert queue.pair() == []
    queue.seek("bob", "Bob", 1500, "3+2")  # a new control: a new wait
    assert queue.seeks["bob"].since == 1000.0
    assert keys(queue.pair()) == [("ann", "bob")]


def test_blocked_players_never_meet_even_when_anyone_would_do() -> None:
    clock = Clock()
    queue = queue_with(clock, {frozenset(("ann", "bob"))})
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "3+2")
    clock.now = 3600.0
    assert queue.pair() == []
    queue.seek("cy", "Cy", 2400, "3+2")
    assert keys(queue.pair()) == [("ann", "cy")]  # the longest waiter first


def test_a_seeker_counts_only_those_it_may_meet_as_waiting() -> None:
    """ "1 more waiting" is someone this seeker could be paired with: not one of a pair
    who block each other, who never will be."""
    queue = queue_with(Clock(), {frozenset(("ann", "bob"))})
    ann = queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "3+2")
    queue.seek("dan", "Dan", 1500, "5+3")
    assert queue.others_for(ann) == []
    cy = queue.seek("cy", "Cy", 1500, "3+2")
    assert [s.key for s in queue.others_for(ann)] == ["cy"]
    assert [s.key for s in queue.others_for(cy)] == ["ann", "bob"]


def test_not_the_same_two_in_a_row_while_someone_else_waits() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.played("ann", "bob")
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "3+2")
    queue.seek("cy", "Cy", 1900, "3+2")
    assert queue.pair() == []  # Cy is out of range for now; Ann and Bob wait for someone new
    clock.now = 30.0
    assert keys(queue.pair()) == [("ann", "cy")]
    assert queue.last_opponent["bob"] == "ann"


def test_the_same_two_alone_get_their_rematch() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.played("ann", "bob")
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "3+2")
    assert keys(queue.pair()) == [("ann", "bob")]


def test_a_pairing_that_takes_the_others_away_frees_a_rematch_in_the_same_round() -> None:
    clock = Clock()
    queue = queue_with(clock)
    queue.played("ann", "bob")
    queue.seek("cy", "Cy", 1500, "3+2")
    clock.now = 1.0
    queue.seek("ann", "Ann", 1500, "3+2")
    queue.seek("bob", "Bob", 1500, "3+2")
    queue.seek("dee", "Dee", 1500, "3+2")
    # Cy chooses first (Ann: closest, longer waiter among equals); then Bob meets Dee.
    assert keys(queue.pair()) == [("cy", "ann"), ("bob", "dee")]


def test_no_more_pairings_than_the_rooms_left() -> None:
    clock = Clock()
    queue = queue_with(clock)
    for key in ("ann", "bob", "cy", "dee", "eve", "fay"):
        queue.seek(key, key.title(), 1500, "3+2")
    assert queue.pair(0) == []
    assert keys(queue.pair(1)) == [("ann", "bob")]
    assert len(queue.pair()) == 2


# ---- properties ---------------------------------------------------------------------

PLAYERS = [f"p{i}" for i in range(7)]


def acceptable(queue: SeekQueue, a: Seek, b: Seek, waiting: list[Seek], blocked) -> bool:
    """The rules restated, independently of SeekQueue.may_meet."""
    if a.key == b.key or a.control != b.control:
        return False
    if blocked(a.key, b.key) or blocked(b.key, a.key):
        return False
    w = queue.widening
    now = queue.clock()
    if abs(a.rating - b.rating) > max(w.range(now - a.since), w.range(now - b.since)):
        return False
    last = queue.last_opponent

    def blocks(x: str, y: str) -> bool:
        return blocked(x, y) or blocked(y, x)

    if last.get(a.key) == b.key or last.get(b.key) == a.key:
        for other in waiting:
            if other.key in (a.key, b.key) or other.control != a.control:
                continue
            if not blocks(other.key, a.key) or not blocks(other.key, b.key):
                return False  # someone else waits who could play one of them
    return True


seeks_strategy = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.integers(800, 2400),
        st.sampled_from(["1+0", "3+2"]),
        st.floats(0, 60),
    ),
    max_size=7,
    unique_by=lambda t: t[0],
)
pairs_strategy = st.sets(
    st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS)).filter(lambda t: t[0] != t[1]),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(seeks_strategy, pairs_strategy, pairs_strategy, st.floats(60, 120))
def test_pairings_keep_every_rule(seeks, blocks, lasts, now) -> None:
    clock = Clock()
    blocked_set = set(blocks)

    def blocked(a: str, b: str) -> bool:
        return (a, b) in blocked_set  # one way only: the queue must ask both ways round

    queue = SeekQueue(clock, blocked=blocked)
    for a, b in lasts:
        queue.last_opponent[a] = b
    for key, rating, control, since in seeks:
        clock.now = since
        queue.seek(key, key.upper(), rating, control)
    clock.now = now
    before = dict(queue.seeks)
    waiting = list(before.values())
    lasts_before = dict(queue.last_opponent)
    # Whom the longest waiter of each control may meet, before any pairing.
    firsts = {}
    for control in {s.control for s in waiting}:
        same = sorted((s for s in waiting if s.control == control), key=lambda s: (s.since, s.key))
        first = same[0]
        firsts[control] = (first, [o for o in same if acceptable(queue, first, o, same, blocked)])

    pairings = queue.pair()

    paired = [k for p in pairings for k in (p.first.key, p.second.key)]
    assert len(paired) == len(set(paired))  # nobody twice
    assert set(queue.seeks) == set(before) - set(paired)  # the paired leave, the rest wait
    # Replayed in order, each pairing was allowed by the rules when it was made.
    check = SeekQueue(clock, blocked=blocked, last_opponent=dict(lasts_before))
    for p in pairings:
        assert p.first.since <= p.second.since
        assert acceptable(check, p.first, p.second, waiting, blocked)
        waiting = [s for s in waiting if s.key not in (p.first.key, p.second.key)]
        check.played(p.first.key, p.second.key)
    # Nobody left behind who could have played someone left behind.
    rest = list(queue.seeks.values())
    for a in rest:
        for b in rest:
            assert not acceptable(queue, a, b, rest, blocked)
    # Fair order: the longest waiter with anyone to meet meets the closest rating first.
    for control, (first, fits) in firsts.items():
        if fits:
            mine = next(p for p in pairings if p.first.control == control)
            assert mine.first.key == first.key
            assert abs(mine.second.rating - first.rating) == min(
                abs(o.rating - first.rating) for o in fits
            )


@given(st.floats(0, 1000), st.floats(0, 1000))
def test_the_range_never_narrows(a, b) -> None:
    w = Widening()
    low, high = sorted((a, b))
    assert w.start <= w.range(low) <= w.range(high)
