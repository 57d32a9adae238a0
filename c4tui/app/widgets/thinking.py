"""ThinkingPanel: what the AI's search knows, column by column, while it thinks.

It draws one `SearchInfo` (the latest the app let through) in the shape that suits the
engine: MCTS shows visits, win rate and UCT value with a bar for the share of visits;
NegaMax its score and depth; flat Monte Carlo its playouts and win rate; the perfect
player "win in 7" / "draw" / "loss in 12". Under the table: the work done, its rate,
the budget spent as a progress bar, the best column and the principal variation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ProgressBar, Static

from c4tui.engine.position import Position
from c4tui.engine.scores import describe_score
from c4tui.engine.search import ColumnStat, Limits, SearchInfo

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


def win_rate(value: float | None) -> str:
    return "" if value is None else f"{(value + 1) / 2:.1%}"


def budget_progress(view: ThinkingView) -> tuple[float, float, str] | None:
    """(done, total, words) of the budget, or None when the engine has no budget to show."""
    info, limits = view.info, view.limits
    if info is None:
        return None
    done_count = info.iterations if info.iterations is not None else info.nodes
    if limits.iterations is not None and done_count is not None:
        total = limits.iterations
        return min(done_count, total), total, f"budget {done_count:,} of {total:,} iterations"
    if limits.depth is not None and info.depth is not None and limits.time is None:
        return (
            min(info.depth, limits.depth),
            limits.depth,
            f"budget depth {info.depth} of {limits.depth}",
        )
    if limits.time is not None:
        if view.steady:
            return (0 if view.running else 1), 1, f"budget {limits.time:g} s"
        spent = min(info.elapsed, limits.time)
        return spent, limits.time, f"budget {info.elapsed:.2f} of {limits.time:g} s"
    # No budget (the perfect player): progress is the columns already solved.
    playable = [stat for stat in info.columns if stat is not None]
    solved = sum(1 for stat in playable if stat.score is not None or stat.proven is not None)
    if playable and solved:
        return solved, len(playable), f"solved {solved} of {len(playable)} columns"
    return None


class ThinkingPanel(Vertical):
    """The AI-thinking panel; the app calls `show()` with each new frame."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "thinking--header",
        "thinking--best",
        "thinking--bar",
        "thinking--dim",
    }

    def compose(self) -> ComposeResult:
        yield Static(id="thinking-table")
        yield Static(id="thinking-figures")
        yield ProgressBar(total=1, show_eta=False, id="thinking-budget")
        yield Static(id="thinking-line")

    _shown: ThinkingView | None = None

    def show(self, view: ThinkingView) -> None:
        if view == self._shown:
            return
        self._shown = view
        info = view.info
        state = "thinking…" if view.running else "last search"
        title = f"AI {state} · {view.label}" if view.label else "AI thinking"
        if title != self.border_title:
            self.border_title = title
        if view.running != self.has_class("-running"):
            self.set_class(view.running, "-running")
        table = self.query_one("#thinking-table", Static)
        figures = self.query_one("#thinking-figures", Static)
        line = self.query_one("#thinking-line", Static)
        budget = self.query_one("#thinking-budget", ProgressBar)
        # A header plus a row per column: fixed, so live updates never re-lay out the screen.
        rows = view.position.width + 1
        if table.styles.height is None or table.styles.height.value != rows:
            table.styles.height = rows
        if info is None:
            words = (
                "The AI has not searched yet."
                if view.label
                else ("No AI plays in this game.\nPress m for an AI move, h for a hint.")
            )
            empty = Text(words, style=self._style("thinking--dim"))
            table.update(empty, layout=False)
            figures.update("", layout=False)
            line.update("", layout=False)
            budget.display = False
            return
        table.update(self._table(info, view.position), layout=False)
        progress = budget_progress(view)
        words = progress[2] if progress else None
        figures.update(self._figures(info, view.steady, words), layout=False)
        done, total, _words = progress or (0 if view.running else 1, 1, "")
        budget.update(total=total, progress=done)
        budget.display = True
        line.update(self._line(info), layout=False)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name)

    def _table(self, info: SearchInfo, position: Position) -> Table:
        kind = column_kind(info)
        table = Table(box=None, padding=(0, 1), expand=False, show_edge=False)
        header = self._style("thinking--header")
        headings = {
            "mcts": ("visits", "win rate", "UCT", "share of visits"),
            "flat": ("playouts", "win rate", "", "share of playouts"),
            "negamax": ("score", "depth", "", ""),
            "exact": ("outcome", "score", "", ""),
            "plain": ("", "", "", ""),
        }[kind]
        table.add_column("col", justify="right", header_style=header)
        shown = [h for h in headings if h]
        for heading in shown:
            justify = "left" if heading.startswith("share") or heading == "outcome" else "right"
            table.add_column(heading, justify=justify, header_style=header)
        total_visits = sum(s.visits or 0 for s in info.columns if s is not None) or 1
        for col, stat in enumerate(info.columns):
            style = self._style("thinking--best") if col == info.best else Style()
            if stat is None:
                cells = ["full"] + [""] * (len(shown) - 1)
                dim = self._style("thinking--dim")
                table.add_row(str(col + 1), *cells[: len(shown)], style=dim)
                continue
            row = self._cells(kind, stat, info, position, total_visits)
            table.add_row(Text(str(col + 1)), *row[: len(shown)], style=style)
        return table

    def _cells(
        self,
        kind: str,
        stat: ColumnStat,
        info: SearchInfo,
        position: Position,
        total_visits: int,
    ) -> list[Text | str]:
        if kind in ("mcts", "flat"):
            visits = stat.visits or 0
            uct = "" if stat.uct is None else f"{stat.uct:.3f}"
            if stat.proven is not None:
                uct = stat.proven
            share = Text(bar(visits / total_visits), style=self._style("thinking--bar"))
            cells: list[Text | str] = [f"{visits:,}", win_rate(stat.value)]
            if kind == "mcts":
                cells.append(uct)
            cells.append(share)
            return cells
        if kind == "negamax":
            if stat.score is None:
                return ["…", ""]
            if stat.proven is not None:
                return [describe_score(position, stat.score), str(info.depth or "")]
            return [f"{stat.score:+d}", str(info.depth or "")]
        if kind == "exact":
            if stat.score is None:
                return [Text("solving…", style=self._style("thinking--dim")), ""]
            return [describe_score(position, stat.score), f"{stat.score:+d}"]
        return []

    def _figures(self, info: SearchInfo, steady: bool, budget: str | None) -> Text:
        """Two lines: the work done; then its rate and the budget spent."""
        work = []
        if info.iterations is not None:
            work.append(f"{info.iterations:,} iterations")
        if info.nodes is not None:
            work.append(f"{info.nodes:,} nodes")
        if info.depth is not None:
            work.append(f"depth {info.depth}")
        if info.exact:
            work.append("exact")
        pace = []
        if not steady and info.rate is not None:
            pace.append(f"{info.rate:,.0f}/s")
        if budget is not None:
            pace.append(budget)
        elif not steady:
            pace.append(f"{info.elapsed:.2f} s")
        text = Text("  ·  ".join(work) or "no counts from this engine")
        if pace:
            text.append("\n")
            text.append("  ·  ".join(pace), self._style("thinking--dim"))
        return text

    def _line(self, info: SearchInfo) -> Text:
        text = Text()
        if info.best is not None:
            text.append("best ", self._style("thinking--dim"))
            text.append(str(info.best + 1), self._style("thinking--best"))
        if info.pv:
            text.append("   pv ", self._style("thinking--dim"))
            text.append(" ".join(str(c + 1) for c in info.pv))
        return text


def column_kind(info: SearchInfo) -> str:
    """Which table suits this info: by engine name, else by the figures it filled."""
    stats = [s for s in info.columns if s is not None]
    name = info.engine
    if name == "perfect" or (info.exact and any(s.score is not None for s in stats)):
        return "exact"
    if name in ("mcts", "flat", "negamax"):
        return name
    if any(s.uct is not None for s in stats):
        return "mcts"
    if any(s.visits is not None for s in stats):
        return "flat"
    if any(s.score is not None for s in stats):
        return "negamax"
    return "plain"
