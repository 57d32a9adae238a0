"""How a search's figures read to a person: one wording for the thinking panel and the CLI.

Values live on the engines' [-1, 1] scale; people see win rates in %. UCT values are shown
on the same scale as the win rate (the rate plus the exploration bonus, so above 100% for a
column the search has barely tried), so the two columns compare at a glance.
"""

from __future__ import annotations

from c4tui.engine.players.contract import ColumnStat, Figures, SearchInfo, win_rate
from c4tui.engine.players.specs import reading_of


def win_rate_text(value: float | None) -> str:
    return "" if value is None else f"{win_rate(value):.1%}"


MOST_SHOWN = 9.99  # 999%: beyond it a UCT value (an outside bot's, say) reads as "≥999%"


def uct_text(uct: float | None) -> str:
    """The UCT value on the win rate's scale (empty when the engine has none). A value
    too large to read (a bot may send 1e308: "inf%" before) is said as at least 999%."""
    if uct is None:
        return ""
    rate = win_rate(uct)
    if not -MOST_SHOWN <= rate <= MOST_SHOWN:  # NaN too
        return "≥999%" if rate > 0 else "≤-999%"
    return f"{rate:.1%}"


def uct_cell(stat: ColumnStat) -> str:
    """What MCTS's UCT column says for a column: a column the opening book ruled out was
    never searched, so it has only the book's verdict; a proven column its result."""
    if stat.by_book:
        return f"book: {stat.proven}"
    return stat.proven or uct_text(stat.uct)


def picks_at_random(info: SearchInfo) -> bool:
    """Whether the engine picks its column by chance (it judged nothing best)."""
    reading = reading_of(info.engine)
    return reading is not None and reading.at_random


def chooses_by_chances(info: SearchInfo) -> bool:
    """Whether the engine picks among the columns by the chances it gives them (the
    human-like engine): a weaker column it plays is its own choice, not a noise= pick."""
    reading = reading_of(info.engine)
    return reading is not None and reading.figures is Figures.CHANCES


def random_pick(column: int) -> tuple[str, str, str]:
    """ "picked 4 at random" for 0-based `column`, in three parts so the panel can
    highlight the column; join them for plain text."""
    return ("picked ", str(column + 1), " at random")
