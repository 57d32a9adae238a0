"""The thinking panel's figures: which table an engine's search reads as, its columns,
the budget spent, and the counts in words.

An engine says which figures it gives (`Reading.figures`, a `Figures`); the panel
(thinking.py) lays out that table.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Figures, Limits, SearchInfo
from c4tui.engine.players.specs import reading_of

BAR_WIDTH = 14
EIGHTHS = " ▏▎▍▌▋▊▉█"


@dataclass(frozen=True)
class ThinkingView:
    """One frame of the panel: the info, the position searched, the budget, who searches."""

    info: SearchInfo | None
    position: Position
    limits: Limits
    label: str  # e.g. "MCTS ○ (mcts:time=1)"
    running: bool
    steady: bool = False  # hide wall-clock figures, for snapshots and screenshots


def bar(share: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of `share` (0..1) in eighths of a character."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(width)


def counted(info: SearchInfo) -> str:
    """What the engine's iterations are (flat Monte Carlo counts playouts)."""
    reading = reading_of(info.engine)
    return "iterations" if reading is None else reading.counts


def budget_progress(view: ThinkingView) -> tuple[float, float, str] | None:
    """(done, total, words) of the budget, or None when the engine has no budget to show."""
    info, limits = view.info, view.limits
    if info is None:
        return None
    done_count = info.iterations if info.iterations is not None else info.nodes
    if limits.iterations is not None and done_count is not None:
        total = limits.iterations
        words = f"budget {done_count:,} of {total:,} {counted(info)}"
        return min(done_count, total), total, words
    if limits.depth is not None and limits.time is None:
        # No depth yet: the first iteration is still running, nothing is finished.
        depth = info.depth or 0
        # The search goes no deeper than the moves left (negamax.py caps it): say so,
        # rather than show "depth 11 of 100" and a bar that never fills.
        left = view.position.geometry.cells - view.position.moves
        total = min(limits.depth, left)
        words = f"budget depth {depth} of {total}" + (
            " (the moves left)" if total < limits.depth else ""
        )
        return min(depth, total), total, words
    if limits.time is not None:
        if view.steady:
            return (0 if view.running else 1), 1, f"budget {limits.time:g} s"
        spent = min(info.elapsed, limits.time)
        return spent, limits.time, f"budget {info.elapsed:.2f} of {limits.time:g} s"
    if column_kind(info) is not Figures.EXACT:
        return None  # a rule-based engine (greedy): nothing to measure
    # No budget (the perfect player): progress is the columns solved exactly, the rows
    # that show a score; one known only as a win, draw or loss is still being solved.
    playable = [stat for stat in info.columns if stat is not None]
    solved = sum(1 for stat in playable if stat.score is not None)
    if not playable or not solved:
        return None
    return solved, len(playable), f"solved {solved} of {len(playable)} columns"


def joined(parts: list[str], width: int) -> str:
    """The parts on one line, "  ·  " between them, or " · " when that does not fit."""
    wide = "  ·  ".join(parts)
    return wide if len(wide) <= width else " · ".join(parts)


def short_count(count: int, width: int) -> str:
    """A count in at most `width` characters: "2,048" while it fits, else in thousands
    or millions ("1.23M", "12.3M", "845k"), so a table's row never leaves its columns
    at a million visits."""
    plain = f"{count:,}"
    if len(plain) <= width:
        return plain
    for unit, size in (("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000)):
        value = count / size
        for digits in (2, 1, 0):  # three figures: 1.23M, 12.3M, 123M
            number = f"{value:.{digits}f}"
            if len(number) <= 4 and len(number) < width and value < 1000:
                return number + unit
    return plain


def counting(count: int, noun: str, width: int | None = None) -> str:
    """The count and its noun ("1 node", "2,048 nodes"); `noun` is the plural; with
    `width`, the count in that many characters at most (`short_count`)."""
    shown = f"{count:,}" if width is None else short_count(count, width)
    return f"{shown} {noun if count != 1 else noun.removesuffix('s')}"


# Table layout per kind of engine: (heading, width, right-aligned?) after the column number.
COLUMNS: dict[Figures, tuple[tuple[str, int, bool], ...]] = {
    # UCT on the win rate's scale (the rate plus the exploration bonus), so the two
    # columns compare; a column the opening book ruled out reads "book: loss" there
    # (the column widens for it, see `_layout`).
    Figures.MCTS: (
        ("visits", 7, True),
        ("win rate", 8, True),
        ("UCT", 6, True),
        ("share of visits", 0, False),
    ),
    # Flat Monte Carlo shares its playouts evenly, so its bar shows the win rate instead.
    Figures.FLAT: (("playouts", 8, True), ("win rate", 8, True), ("", 0, False)),
    # The learned engine: the network's prior (its own choice before searching), then
    # PUCT's visits and mean result; the bar is the share of visits, or with no search
    # (sims=0) the prior. A column the book ruled out reads "book: loss" as its result.
    Figures.PUCT: (
        ("prior", 6, True),
        ("visits", 7, True),
        ("win rate", 8, True),
        ("share of visits", 0, False),
    ),
    Figures.NEGAMAX: (("score", 12, True), ("depth", 5, True)),
    Figures.EXACT: (("outcome", 13, False), ("score", 5, True)),
    # The human-like engine: what it scored each column (exactly, or by a shallow
    # search past the solver's time) and the chance it gave it, the bar that chance.
    Figures.CHANCES: (("score", 13, False), ("chance", 6, True), ("", 0, False)),
    Figures.PLAIN: (),
}


def column_kind(info: SearchInfo) -> Figures:
    """Which table suits this info: as the engine says it reads, else by the figures."""
    stats = [s for s in info.columns if s is not None]
    reading = reading_of(info.engine)
    figures = None if reading is None else reading.figures
    if figures is not None:
        return figures
    if info.exact and any(s.score is not None for s in stats):
        return Figures.EXACT
    if any(s.uct is not None for s in stats):
        return Figures.MCTS
    if any(s.visits is not None for s in stats):
        return Figures.FLAT
    if any(s.score is not None for s in stats):
        return Figures.NEGAMAX
    return Figures.PLAIN
