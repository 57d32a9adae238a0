"""The board's disc sizes: the picture of each disc, its winning mark and its hole.

Seven sizes, from three characters a cell to thirteen, so the board grows to fill the
space from 80x24 to 200x60. The first player's discs are filled, the second player's
are rings, so the board reads the same without colour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiscSize:
    """One drawing scale: cell size in characters and the picture of each disc."""

    width: int
    height: int
    discs: tuple[tuple[str, ...], tuple[str, ...]]  # rows of the ● disc, rows of the ○ disc
    hole: tuple[str, ...]
    win_marks: tuple[tuple[str, ...], tuple[str, ...]]  # the same discs, marked as winners
    marker_rows: int  # rows above the board: the mover's disc (large only) and the arrow


GIANT = DiscSize(
    13,
    6,
    (
        (
            "   ▄▄▄▄▄   ",
            " ▄███████▄ ",
            "███████████",
            "███████████",
            " ▀███████▀ ",
            "   ▀▀▀▀▀   ",
        ),
        (
            "   ▄▄▄▄▄   ",
            " ▄▀     ▀▄ ",
            "█         █",
            "█         █",
            " ▀▄     ▄▀ ",
            "   ▀▀▀▀▀   ",
        ),
    ),
    ("", "", "·", "", "", ""),
    (
        (
            "   ▄▄▄▄▄   ",
            " ▄███████▄ ",
            "█████★█████",
            "███████████",
            " ▀███████▀ ",
            "   ▀▀▀▀▀   ",
        ),
        (
            "   ▄▄▄▄▄   ",
            " ▄▀     ▀▄ ",
            "█    ★    █",
            "█         █",
            " ▀▄     ▄▀ ",
            "   ▀▀▀▀▀   ",
        ),
    ),
    2,
)
HUGE = DiscSize(
    9,
    4,
    (
        ("▄█████▄", "███████", "███████", "▀█████▀"),
        ("▄▀▀▀▀▀▄", "█     █", "█     █", "▀▄▄▄▄▄▀"),
    ),
    ("       ", "   ·   ", "       ", "       "),
    (
        ("▄█████▄", "███★███", "███████", "▀█████▀"),
        ("▄▀▀▀▀▀▄", "█  ★  █", "█     █", "▀▄▄▄▄▄▀"),
    ),
    2,
)
# Eight columns wide: a 7-column board at 120x40 fits this size, not HUGE.
BIG = DiscSize(
    8,
    4,
    (
        ("▄████▄", "██████", "██████", "▀████▀"),
        ("▄▀▀▀▀▄", "█    █", "█    █", "▀▄▄▄▄▀"),
    ),
    ("", "·", "", ""),
    (
        ("▄████▄", "██★★██", "██████", "▀████▀"),
        ("▄▀▀▀▀▄", "█ ★★ █", "█    █", "▀▄▄▄▄▀"),
    ),
    2,
)
LARGE = DiscSize(
    7,
    3,
    (("▄███▄", "█████", "▀███▀"), ("▄▀▀▀▄", "█   █", "▀▄▄▄▀")),
    ("     ", "  ·  ", "     "),
    (("▄███▄", "██★██", "▀███▀"), ("▄▀▀▀▄", "█ ★ █", "▀▄▄▄▀")),
    2,
)
# Six columns wide: a 7-column board at 100x30 fits this size, not LARGE.
ROUND = DiscSize(
    6,
    3,
    (("▄██▄", "████", "▀██▀"), ("▄▀▀▄", "█  █", "▀▄▄▀")),
    ("", "·", ""),
    (("▄██▄", "█★★█", "▀██▀"), ("▄▀▀▄", "█★★█", "▀▄▄▀")),
    2,
)
MEDIUM = DiscSize(
    5,
    2,
    (("▄█▄", "▀█▀"), ("▄▀▄", "▀▄▀")),
    (" · ", "   "),
    (("▄★▄", "▀█▀"), ("▄★▄", "▀▄▀")),
    2,
)
COMPACT = DiscSize(3, 1, (("●",), ("○",)), ("·",), (("●",), ("○",)), 1)
SIZES = (GIANT, HUGE, BIG, LARGE, ROUND, MEDIUM, COMPACT)
