"""The classic look of a board cell: a solid blue frame around a round hole or disc.

Each character holds two square "pixels" (its top and bottom half, as a character is
twice as tall as wide): `▀` painted in the top one's colour over the bottom one's. The
hole is the largest circle of pixels that leaves a pixel of frame around it, so every
size the board grows to has round holes. The second player's disc has a darker centre
(a ring, as ○ is), so the discs still differ by shape as well as colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.color import Color
from rich.style import Style
from rich.text import Text

from c4tui.app.widgets.disc_sizes import COMPACT, DiscSize

# A little over the circle's radius: without it, circles 6 pixels wide lose the pixels
# next to their axes and look square.
ROUNDING = 0.1
# Smaller than this both ways, a circle of pixels reads as a cross (+), not a hole:
# such holes fill the space inside the frame's pixel instead.
SMALLEST_CIRCLE = 5


@dataclass(frozen=True)
class Paints:
    """The classic look's colours, from the stylesheet (board--classic-*)."""

    frame: Color
    hole: Color
    discs: tuple[Color, Color]
    ring_centre: Color  # the centre of the second player's ring
    star: Color  # the star on each of the winning four
    last: Color  # the › ‹ beside the last disc dropped


def hole(size: DiscSize) -> tuple[list[list[float]], float, int]:
    """Each pixel's distance from the hole's centre, the hole's radius, and the line
    through its middle. The hole is the largest circle with a pixel of frame on each
    side (cells only two lines tall have no pixel to spare below it); in small cells,
    the whole space inside that frame (distances are then measured along the axes)."""
    width, height = size.width, 2 * size.height
    top, bottom = 1, (1 if height >= 6 else 0)
    across, down = width - 2, height - top - bottom
    centre_x, centre_y = width / 2, top + down / 2
    if max(across, down) >= SMALLEST_CIRCLE:
        radius = min(across, down) / 2 + ROUNDING
        distances = [
            [((x + 0.5 - centre_x) ** 2 + (y + 0.5 - centre_y) ** 2) ** 0.5 for x in range(width)]
            for y in range(height)
        ]
    else:
        # Scaled so the space inside the frame is within radius 1 both ways.
        radius = 1.0
        distances = [
            [
                max(abs(x + 0.5 - centre_x) / (across / 2), abs(y + 0.5 - centre_y) / (down / 2))
                for x in range(width)
            ]
            for y in range(height)
        ]
    return distances, radius, int(centre_y) // 2


@lru_cache(maxsize=128)
def classic_cell(
    size: DiscSize, owner: int | None, paints: Paints, *, win: bool = False, last: bool = False
) -> tuple[Text, ...]:
    """The lines of one cell: a hole (`owner` None) or player `owner`'s disc, marked as
    one of the winning four or as the last disc dropped."""
    if size is COMPACT:
        return (_compact_cell(owner, paints, win=win, last=last),)
    distance, radius, middle = hole(size)
    inside = paints.hole if owner is None else paints.discs[owner]

    def colour(d: float) -> Color:
        if d > radius:
            return paints.frame
        return paints.ring_centre if owner == 1 and d <= radius / 2 else inside

    colours = [[colour(d) for d in row] for row in distance]
    cells = [
        [_half_blocks(colours[2 * sub][x], colours[2 * sub + 1][x]) for x in range(size.width)]
        for sub in range(size.height)
    ]
    if owner is not None and win:
        # One star in the middle, two side by side when the middle falls between columns.
        for x in {(size.width - 1) // 2, size.width // 2}:
            under = colours[2 * middle + 1][x]
            cells[middle][x] = ("★", Style(color=paints.star, bgcolor=under, bold=True))
    if last:
        mark = Style(color=paints.last, bgcolor=paints.frame, bold=True)
        cells[middle][0], cells[middle][-1] = ("›", mark), ("‹", mark)
    return tuple(Text.assemble(*line) for line in cells)


def _half_blocks(top: Color, bottom: Color) -> tuple[str, Style]:
    if top == bottom:
        return " ", Style(bgcolor=top)
    return "▀", Style(color=top, bgcolor=bottom)


def _compact_cell(owner: int | None, paints: Paints, *, win: bool, last: bool) -> Text:
    """One character of disc between two of frame: too small for a round shape."""
    # A thin yellow ○ is lost on the blue: the second player's disc is ◉, still a ring.
    glyph = "◉" if owner == 1 else "●"
    colour = paints.hole if owner is None else paints.discs[owner]
    left, right = ("[", "]") if win else ("›", "‹") if last else (" ", " ")
    pad = Style(color=paints.star if win else paints.last, bgcolor=paints.frame, bold=True)
    return Text.assemble(
        (left, pad), (glyph, Style(color=colour, bgcolor=paints.frame, bold=win)), (right, pad)
    )
