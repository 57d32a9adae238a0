"""MoveHistory: the numbered moves of the game and a sparkline of the AI's evaluation."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Sparkline, Static

from c4tui.app.widgets.board import GLYPHS


def move_lines(moves: tuple[int, ...], first_player: int = 0) -> list[tuple[int, list[str]]]:
    """Moves grouped by round: (round number, ["● 4", "○ 4"]), columns 1-based."""
    rounds: list[tuple[int, list[str]]] = []
    for ply, col in enumerate(moves):
        player = (first_player + ply) & 1
        entry = f"{GLYPHS[player]} {col + 1}"
        if ply % 2 == 0:
            rounds.append((ply // 2 + 1, [entry]))
        else:
            rounds[-1][1].append(entry)
    return rounds


class MoveHistory(Vertical):
    """The history panel; the app calls `show()` after every change to the game."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"history--number", "history--last"}

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="history-scroll", can_focus=False):
            yield Static(id="history-moves")
        yield Label("AI evaluation, ● side (higher is better for ●)", id="evaluation-label")
        yield Sparkline([], id="evaluation")

    def show(self, moves: tuple[int, ...], evaluations: list[float]) -> None:
        self.border_title = f"Moves ({len(moves)})"
        text = Text()
        rounds = move_lines(moves)
        number_style = self.get_component_rich_style("history--number")
        last_style = self.get_component_rich_style("history--last")
        for index, (number, entries) in enumerate(rounds):
            if index:
                text.append("\n")
            text.append(f"{number:>3}.", number_style)
            for position, entry in enumerate(entries):
                is_last = index == len(rounds) - 1 and position == len(entries) - 1
                text.append("   ")
                text.append(entry, last_style if is_last else "")
        if not rounds:
            text.append("No moves yet.", number_style)
        self.query_one("#history-moves", Static).update(text)
        self.query_one("#history-scroll", VerticalScroll).scroll_end(animate=False)
        sparkline = self.query_one("#evaluation", Sparkline)
        # Two points at least, so a single value still draws a line.
        sparkline.data = [*evaluations] if len(evaluations) != 1 else evaluations * 2
        self.query_one("#evaluation-label", Label).display = bool(evaluations)
        sparkline.display = bool(evaluations)
