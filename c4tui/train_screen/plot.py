"""A line plot in braille characters: each character cell holds 2 x 4 dots.

Textual has no plot of its own; `textual-plotext` would bring plotext for one curve.
Braille (U+2800 to U+28FF) gives a terminal cell eight dots, so a plot of 60 x 8 cells
draws 120 x 32 points: enough for a curve by generation. Pure text: the screen colours it.
"""

from __future__ import annotations

from collections.abc import Sequence

BRAILLE = 0x2800
# The bit of the dot at (column 0-1, row 0-3 from the top) of a braille cell.
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille_lines(values: Sequence[float], width: int, height: int, top: float) -> list[str]:
    """`values` (0 to `top`, low at the bottom) drawn left to right over `width` x
    `height` cells; neighbouring points are joined by a vertical run of dots."""
    cells = [[0] * width for _ in range(height)]
    if not values or width < 1 or height < 1:
        return ["".join(chr(BRAILLE) for _ in range(width)) for _ in range(height)]
    dots_x, dots_y = 2 * width, 4 * height
    top = top if top > 0 else 1.0

    def dot_row(value: float) -> int:
        share = min(max(value / top, 0.0), 1.0)
        return round((1 - share) * (dots_y - 1))

    points = len(values)
    last_y: int | None = None
    for x in range(dots_x):
        index = x * points // dots_x if points < dots_x else round(x * (points - 1) / (dots_x - 1))
        y = dot_row(values[min(index, points - 1)])
        low, high = (y, y) if last_y is None else (min(y, last_y), max(y, last_y))
        for row in range(low, high + 1):
            cells[row // 4][x // 2] |= DOTS[row % 4][x % 2]
        last_y = y
    return ["".join(chr(BRAILLE + bits) for bits in line) for line in cells]
