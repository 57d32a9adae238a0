"""Levels 1 to 8: engine specs from a beginner to the perfect player, `level:N` anywhere
a spec is taken.

Levels 1-7 are the human-like engine (human.py) with less and less room for error: its
`care` sets how much a weaker column's cost weighs, so low levels often play a weaker
move and sometimes lose a result class, high levels rarely. Level 1 also has no guard
against handing over a win in one (slip=1), so it only beats random play; level 2 lets
one in twenty through, the others one in fifty. Level 8 is the perfect player.

The cares were tuned until the measured steps between neighbours were all at least 100
Elo with 95% intervals apart: `benchmarks/levels.py` (README: the table, the command).
Among losing columns the levels prefer slow losses (human.py); the ratings below were
measured again after that change.
"""

from __future__ import annotations

LEVELS: dict[int, str] = {
    1: "human:care=400,slip=1",
    2: "human:care=700,slip=0.05",
    3: "human:care=156",
    4: "human:care=86",
    5: "human:care=59",
    6: "human:care=43",
    7: "human:care=28",
    8: "perfect",
}

# Elo measured by `benchmarks/levels.py --games 200 --reach 2` on 2026-11-25, after the
# levels began to prefer slow losses among losing columns (human.py, LOSS_STEP): 2,600
# games from 2-ply openings, level 1 fixed at 1000, 95% intervals about ±55-80 (the
# 9,000-game run of 2026-11-23, before that change, had ±30-45: a smaller sample, taken on
# a shared machine). Every step is at least 113 Elo, but the intervals of 5-6 and 6-7
# overlap at this sample size. Shown beside each level in the settings.
RATINGS: dict[int, int] = {
    1: 1000, 2: 1294, 3: 1468, 4: 1597, 5: 1726, 6: 1853, 7: 1967, 8: 2147
}  # fmt: skip


# The board the ratings were measured on: elsewhere a level plays differently (level 8
# on a board without an opening book answers on a clock), and no rating is claimed.
RATED_BOARD = (7, 6, 4)


class LevelError(ValueError):
    """`level:N` with an N that names no level."""


def level_name(n: int) -> str:
    """The spec string that names level `n`: "level:4"."""
    return f"level:{n}"


def level_title(n: int) -> str:
    """What the screen calls level `n`: "Level 4"."""
    return f"Level {n}"


def level_spec(argument: str) -> str:
    """The engine spec of `level:N` given N as written; LevelError when there is none."""
    text = argument.strip()
    if not text.isdigit() or int(text) not in LEVELS:
        raise LevelError(f"level: {text!r} is not a level (1 to {max(LEVELS)})")
    return LEVELS[int(text)]
