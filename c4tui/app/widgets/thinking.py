"""ThinkingPanel: what the AI's search knows, column by column, while it thinks.

It draws one `SearchInfo` (the latest the app let through) in the shape that suits the
engine: MCTS shows visits, win rate and UCT value (on the win rate's scale) with a bar
for the share of visits; NegaMax its score and depth; flat Monte Carlo its playouts and
win rate; the perfect player "win in 7" / "draw" / "loss in 12"; the human-like engine
the score it gave each column and the chance it then took it. Under the table: the
work done, its rate, the budget spent as a progress bar, the best column and the
principal variation. Every figure is from the side to move's view, and the frame says
whose that is. The learned engine (alphazero) shows the network's prior per column
beside PUCT's visits and win rate, and the network's own win rate for the position.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

from c4tui.app.widgets.drawn import DrawnWidget
from c4tui.app.widgets.thinking_figures import (
    BAR_WIDTH,
    COLUMNS,
    bar,
    budget_progress,
    column_kind,
    counted,
    counting,
    joined,
    short_count,
)
from c4tui.app.widgets.thinking_figures import (
    ThinkingView as ThinkingView,  # the panel's input: callers take it from here
)
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.players.contract import ColumnStat, Figures, SearchInfo, win_rate
from c4tui.engine.players.specs import reading_of
from c4tui.engine.study.figures import (
    chooses_by_chances,
    picks_at_random,
    random_pick,
    uct_cell,
    win_rate_text,
)
from c4tui.match.sides import GLYPHS, engine_title

# MCTS's words, under its table: visits are the games it played out through a column,
# and it plays the most visited; UCT is how it chose where to look next.
LEGEND = "visits: games tried · UCT: win rate + bonus to explore"
SHORT_LEGEND = "? says what visits and UCT mean"
# The column that says "book: loss" for a column the opening book ruled out.
BOOK_COLUMN = {Figures.MCTS: "UCT", Figures.PUCT: "win rate"}


class ThinkingPanel(DrawnWidget):
    """The AI-thinking panel; the app calls `show()` with each new frame.

    Drawn line by line from cached strips: a live update repaints this one widget and
    never re-lays out the screen, so the UI keeps up with ~10 updates a second.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "thinking--header",
        "thinking--best",
        "thinking--bar",
        "thinking--bar-empty",
        "thinking--dim",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: ThinkingView | None = None

    def show(self, view: ThinkingView) -> None:
        if view == self._shown:
            return
        self._shown = view
        self._set_title()
        # Win rates, scores and outcomes are the side to move's; the evaluation graph's
        # are ●'s, so the frame says whose these are.
        mover = GLYPHS[view.position.to_move]
        figures = view.info is not None and column_kind(view.info) is not Figures.PLAIN
        subtitle = f"figures from {mover}'s view" if figures else ""
        if subtitle != self.border_subtitle:
            self.border_subtitle = subtitle
        if view.running != self.has_class("-running"):
            self.set_class(view.running, "-running")
        self.refresh()

    def on_resize(self) -> None:
        self._set_title()

    def _set_title(self) -> None:
        """The frame's title: what the AI does and who it is; the engine's spec goes when
        the frame is too narrow for it (an 80-column terminal)."""
        view = self._shown
        if view is None:
            return
        state = "thinking…" if view.running else "last search" if view.info else ""
        title = " · ".join(part for part in ("AI", state, view.label) if part)
        room = self.outer_size.width - 6  # the frame's corners and the title's padding
        if room > 0 and len(title) > room and " (" in view.label:
            short = view.label.split(" (")[0]
            title = " · ".join(part for part in ("AI", state, short) if part)
        if title != self.border_title:
            self.border_title = title

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # A fixed height per board width, so live updates never change the layout.
        columns = self._shown.position.width if self._shown else 7
        return columns + 6

    def drawing_key(self) -> object:
        return self._shown

    def drawing(self) -> tuple[list[Text], int, int]:
        return self.lines(self.size.width), 0, 0

    def lines(self, width: int) -> list[Text]:
        """The panel's text, one Text per line."""
        view = self._shown
        if view is None:
            return []
        info = view.info
        dim = self.component_style("thinking--dim")
        if info is None:
            if view.running:
                lines = [Text("Searching… no figures from the engine yet.", dim)]
                if view.limits.is_unbounded():
                    # The perfect player off the book's board can search for very long.
                    lines.append(Text("It has no time limit: press m to make it move now.", dim))
                return lines
            if view.label:
                said = "The AI has not searched this position yet."
                # The panel is narrower than that at 80x24: the short words, not cut ones.
                return [Text(said if len(said) <= width else "Not searched yet.", dim)]
            lines = [Text("No AI plays in this game.", dim)]
            if not view.position.is_over():  # a finished game has no move or hint to ask
                lines.append(Text("Press m for an AI move, h for a hint.", dim))
            return lines
        lines = self._table(info, view.position, width, view.running)
        lines.append(self._legend(info, width))
        progress = budget_progress(view)
        lines.extend(self._figures(info, view.steady, progress[2] if progress else None, width))
        done, total, _words = progress or (0 if view.running else 1, 1, "")
        lines.append(self._bar_line(done / total if total else 1.0, width))
        lines.append(self._line(info))
        return lines

    def _legend(self, info: SearchInfo, width: int) -> Text:
        """Under MCTS's table, what its words mean (a player need not know MCTS); the
        help page (?) says more. Other engines' tables speak plainly: a blank line."""
        if column_kind(info) is Figures.PUCT:
            return self._network_line(info, width)
        if column_kind(info) is not Figures.MCTS:
            return Text()
        words = LEGEND if len(LEGEND) <= width else SHORT_LEGEND
        return Text(words[:width], self.component_style("thinking--dim"))

    def _network_line(self, info: SearchInfo, width: int) -> Text:
        """The network's own win rate for the position, before any search."""
        if info.net_value is None:
            return Text()
        rate = f"{win_rate(info.net_value):.0%}"
        words = f"the network alone: {rate} to win · prior: its choice"
        if len(words) > width:
            words = f"network alone: {rate} to win"
        return Text(words[:width], self.component_style("thinking--dim"))

    def _table(self, info: SearchInfo, position: Position, width: int, running: bool) -> list[Text]:
        kind = column_kind(info)
        if kind is Figures.PLAIN:
            dim = self.component_style("thinking--dim")
            if picks_at_random(info):
                return [  # each line fits the panel at 80 columns (36 cells)
                    Text("Random picks a column by chance:", dim),
                    Text("it weighs no column against another.", dim),
                ]
            return [
                Text(
                    f"{engine_title(info.engine) if info.engine else 'This engine'} "
                    "plays by rule at once:",
                    dim,
                ),
                Text("it keeps no figures per column.", dim),
            ]
        layout = self._layout(kind, info)
        gap = " " * (2 if width >= 50 else 1)
        fixed = 4 + sum(w + len(gap) for _, w, _ in layout) + 1
        bar_width = max(3, min(BAR_WIDTH + 8, width - fixed))
        header = Text(" col", self.component_style("thinking--header"))
        for heading, w, right in layout:
            if not w:  # the bar's heading: its first word where the whole is too wide,
                # and none where that is too (a word cut, "shar", reads as a typo)
                first = (heading.split() or [""])[0]
                cell = heading if len(heading) <= bar_width else first
                cell = cell if len(cell) <= bar_width else ""
            else:
                cell = heading.rjust(w) if right else heading.ljust(w)
            header.append(gap + cell, self.component_style("thinking--header"))
        lines = [header]
        total_visits = sum(s.visits or 0 for s in info.columns if s is not None) or 1
        for col, stat in enumerate(info.columns):
            row_style = self.component_style("thinking--best") if col == info.best else Style()
            line = Text(f"{col + 1:>4}", row_style)
            if stat is None:
                line.append("  full", self.component_style("thinking--dim"))
                lines.append(line)
                continue
            cells = self._cells(kind, stat, info, position, total_visits, bar_width, running)
            for (_heading, w, right), figure in zip(layout, cells, strict=False):
                line.append(gap)
                if isinstance(figure, Text):
                    line.append_text(figure)
                else:
                    line.append(figure.rjust(w) if right else figure.ljust(w), row_style)
            lines.append(line)
        return lines

    @staticmethod
    def _layout(kind: Figures, info: SearchInfo) -> tuple[tuple[str, int, bool], ...]:
        """The table's columns; MCTS's UCT column widens only while a row reads
        "book: loss", so the share-of-visits bar keeps its room in a narrow panel."""
        layout = COLUMNS[kind]
        book = [f"book: {s.proven}" for s in info.columns if s is not None and s.by_book]
        if kind not in BOOK_COLUMN or not book:
            return layout
        width = max(len(text) for text in book)
        named = BOOK_COLUMN[kind]
        return tuple((h, max(w, width) if h == named else w, r) for h, w, r in layout)

    def _cells(
        self,
        kind: Figures,
        stat: ColumnStat,
        info: SearchInfo,
        position: Position,
        total_visits: int,
        bar_width: int,
        running: bool,
    ) -> list[Text | str]:
        if kind is Figures.MCTS and stat.by_book:
            # Ruled out by the opening book: never searched, so no figures of its own.
            return ["", "", uct_cell(stat), Text(" " * bar_width)]
        if kind in (Figures.MCTS, Figures.FLAT) and stat.visits is None and stat.value is None:
            # A column the engine never mentioned (an outside engine's): no figures, no 0.
            return [""] * len(COLUMNS[kind])
        if kind is Figures.PUCT:
            return self._puct_cells(stat, info, total_visits, bar_width)
        if kind in (Figures.MCTS, Figures.FLAT):
            visits = stat.visits or 0
            width = COLUMNS[kind][0][1]
            # A column never tried has no win rate of its own (an engine may still fill
            # in its prior): blank, rather than "0 visits, 100.0%".
            tried = visits > 0 or stat.proven is not None
            rate = win_rate_text(stat.value) if tried else ""
            cells: list[Text | str] = [short_count(visits, width), rate]
            if kind is Figures.MCTS:
                cells.append(uct_cell(stat) if tried else "")
            if kind is Figures.FLAT:
                share = 0.0 if stat.value is None else win_rate(stat.value)
            else:
                share = visits / total_visits
            cells.append(self._bar(share, bar_width))
            return cells
        if kind is Figures.NEGAMAX:
            if stat.score is None:
                # Not scored: still to come while searching; after it, never reached (or,
                # for greedy, nothing forced there).
                return ["…" if running else "", ""]
            # Each column's own depth: mid-iteration, some are a ply deeper than others.
            depth = str(stat.depth or info.depth or "")
            if stat.proven is not None:
                return [describe_score(position, stat.score), depth]
            return [f"{stat.score:+d}", depth]
        if kind is Figures.CHANCES:
            score = "" if stat.score is None else f"{stat.score:+d}"
            if stat.score is not None and stat.proven is not None:
                score = describe_score(position, stat.score)
            chance = stat.chance or 0.0
            return [score, f"{chance:.0%}", self._bar(chance, bar_width)]
        if kind is Figures.EXACT:
            if stat.score is None and stat.proven is not None:
                # The outcome is proven, how soon is not (yet).
                return [f"{stat.proven}, solving" if running else stat.proven, ""]
            if stat.score is None:
                return ["solving…" if running else "unsolved", ""]
            return [describe_score(position, stat.score), f"{stat.score:+d}"]
        return []

    def _puct_cells(
        self, stat: ColumnStat, info: SearchInfo, total_visits: int, bar_width: int
    ) -> list[Text | str]:
        prior = "" if stat.prior is None else f"{stat.prior:.0%}"
        if stat.by_book:
            return [prior, "", uct_cell(stat), Text(" " * bar_width)]
        # A searched column has visits, 0 included (a search can end proven before its
        # first simulation: every column then shows its proof); sims=0 reports none.
        searched = bool(info.iterations) or stat.visits is not None
        if not searched:  # sims=0: the network's choice alone, its priors the bar
            return [prior, "", "", self._bar(stat.prior or 0.0, bar_width)]
        visits = stat.visits or 0
        tried = visits > 0 or stat.proven is not None
        rate = (stat.proven or win_rate_text(stat.value)) if tried else ""
        return [prior, short_count(visits, 7), rate, self._bar(visits / total_visits, bar_width)]

    def _bar(self, share: float, width: int) -> Text:
        drawn = bar(share, width)
        filled = drawn.rstrip()
        text = Text(filled, self.component_style("thinking--bar"))
        text.append("·" * (width - len(filled)), self.component_style("thinking--bar-empty"))
        return text

    def _figures(
        self, info: SearchInfo, steady: bool, budget: str | None, width: int
    ) -> list[Text]:
        """Two lines: the work done; then its rate and the budget spent.

        In a narrow panel (an 80-column terminal) the separators shrink, big counts are
        said in thousands or millions, then the parts the others say well enough go in
        turn (`_work` names them), and the budget drops
        its unit, already named on the line above, so that no figure is cut off at the
        edge.
        """
        work, spares = self._work(info, steady, None)
        if len(joined(work, width)) > width:  # big counts: in thousands or millions
            work, spares = self._work(info, steady, 5)
        pace = []
        if not steady and info.rate is not None:
            pace.append(f"{info.rate:,.0f}/s")
        if budget is not None:
            pace.append(budget)
        elif not steady:
            pace.append(f"{info.elapsed:.2f} s")
        for spare in spares:  # in `_work`'s order, until the line fits
            if len(joined(work, width)) <= width:
                break
            work.remove(spare)
        if len(joined(pace, width)) > width and budget is not None:
            pace[-1] = budget.removesuffix(f" {counted(info)}")
        return [
            Text(joined(work, width) or "no counts from this engine"),
            Text(joined(pace, width), self.component_style("thinking--dim")),
        ]

    @staticmethod
    def _work(info: SearchInfo, steady: bool, digits: int | None) -> tuple[list[str], list[str]]:
        """The work line's parts, each count in at most `digits` characters (None: in
        full), and those that give way, in turn, when the line is too long: the node
        count where iterations say the same, a kept tree's visits (the columns show
        them), then the depth ("exact" says more: "proven without searching · depth 0 ·
        exact" was cut)."""
        work = []
        kept = None
        if info.iterations == 0 and any(s.proven for s in info.columns if s is not None):
            # MCTS stops before its first iteration when the root is already proven.
            work.append("proven without searching")
        elif info.iterations is not None:
            work.append(counting(info.iterations, counted(info), digits))
            # MCTS keeps the subtree of the move played: its visits count too.
            visits = sum(s.visits or 0 for s in info.columns if s is not None)
            reading = reading_of(info.engine)
            if reading is not None and reading.keeps_tree and visits > info.iterations:
                kept = counting(visits - info.iterations, "visits kept", digits)
                work.append(kept)
        # An exact solve counts fewer nodes when the process-wide book cache is warm, so
        # steady mode leaves that count out, like the clock.
        nodes = None
        if info.nodes is not None and not (steady and info.exact):
            nodes = counting(info.nodes, "nodes", digits)
            work.append(nodes)
        deepest = max((s.depth or 0 for s in info.columns if s is not None), default=0)
        depth = None
        if info.depth is not None:
            depth = f"depth {info.depth}"
            work.append(depth)
        if deepest > (info.depth or 0):
            work.append(f"searching depth {deepest}")
        if info.exact:
            work.append("exact")
        said_twice = nodes if info.iterations is not None else None
        return work, [part for part in (said_twice, kept, depth) if part is not None]

    def _line(self, info: SearchInfo) -> Text:
        text = Text()
        if info.best is not None and picks_at_random(info):
            before, column, after = random_pick(info.best)
            text.append(before, self.component_style("thinking--dim"))
            text.append(column, self.component_style("thinking--best"))
            text.append(after, self.component_style("thinking--dim"))
            return text
        if info.best is not None:
            # A handicap move is not what the search found best: a noise= random pick,
            # or the human-like engine's weighted choice of a weaker column.
            human = chooses_by_chances(info)
            label = ("chose " if human else "random move ") if info.handicap else "best "
            text.append(label, self.component_style("thinking--dim"))
            text.append(str(info.best + 1), self.component_style("thinking--best"))
            if info.handicap:
                why = " (a human-like mistake)" if human else " (noise handicap)"
                text.append(why, self.component_style("thinking--dim"))
                return text
        if info.pv:
            text.append("   pv ", self.component_style("thinking--dim"))
            text.append(" ".join(str(c + 1) for c in info.pv))
        return text

    def _bar_line(self, share: float, width: int) -> Text:
        """The budget spent, as a full-width bar with its percentage."""
        bar_width = max(4, width - 6)
        text = self._bar(share, bar_width)
        text.append(f"{share:>5.0%}", self.component_style("thinking--dim"))
        return text
