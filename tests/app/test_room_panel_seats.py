"""The room panel's words for each seat (widgets/room_panel.py)."""

from __future__ import annotations

from types import SimpleNamespace

from c4tui.app.widgets.room_panel import seat_state
from c4tui.match.room_view import SeatView


def test_a_seat_its_player_left_says_so_and_an_empty_one_waits():
    """Issue 45 item 30: a finished game's seat whose player left said "open: waiting
    for a player" beside their name."""
    left = SeatView(name="ann", ai=None, open=True, here=False, held_until=None)
    empty = SeatView(name="", ai=None, open=True, here=False, held_until=None)
    view = SimpleNamespace(seats=(left, empty))
    assert seat_state(view, 0, 0.0) == "left"
    assert seat_state(view, 1, 0.0) == "open: waiting for a player"
