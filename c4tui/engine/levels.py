"""Levels 1 to 9: engine specs from a beginner to the perfect player, `level:N` anywhere
a spec is taken.

Levels 1-8 are the human-like engine (human.py) with less and less room for error: its
`care` sets how much a weaker column's cost weighs, so low levels often play a weaker
move and sometimes lose a result class, high levels rarely. Level 1 also drops the
guard against handing over a win in one, so it only beats random play. Level 9 is the
perfect player. Their Elo ratings are measured by `benchmarks/levels.py` (README).
"""

from __future__ import annotations

LEVELS: dict[int, str] = {
    1: "human:care=400,guard=0",
    2: "human:care=120",
    3: "human:care=70",
    4: "human:care=45",
    5: "human:care=28",
    6: "human:care=16",
    7: "human:care=8",
    8: "human:care=3",
    9: "perfect",
}

# Elo measured by `benchmarks/levels.py --games 16` on 2026-11-23 (README: the table with
# its 95% intervals), level 1 fixed at 1000; shown beside each level in the settings.
RATINGS: dict[int, int] = {
    1: 1000, 2: 1413, 3: 1589, 4: 1770, 5: 1847, 6: 1911, 7: 1876, 8: 1918, 9: 2165
}  # fmt: skip


class LevelError(ValueError):
    """`level:N` with an N that names no level."""


def level_spec(argument: str) -> str:
    """The engine spec of `level:N` given N as written; LevelError when there is none."""
    text = argument.strip()
    if not text.isdigit() or int(text) not in LEVELS:
        raise LevelError(f"level: {text!r} is not a level (1 to {max(LEVELS)})")
    return LEVELS[int(text)]
