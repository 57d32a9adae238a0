"""The training screen (train_screen/): what a run reports, shown as it comes; the plot."""

from __future__ import annotations

import threading
from pathlib import Path

from c4tui.tournament.selfplay_run import Generation, Report, RunSettings
from c4tui.tournament.sprt_run import Settings, SprtState
from c4tui.train_screen import TrainingApp
from c4tui.train_screen.plot import BRAILLE, braille_lines


def test_the_plot_puts_high_values_at_the_top_and_low_at_the_bottom():
    lines = braille_lines([4.0, 0.0], 2, 2, 4.0)
    assert len(lines) == 2 and all(len(line) == 2 for line in lines)
    top_left, bottom_right = ord(lines[0][0]) - BRAILLE, ord(lines[1][1]) - BRAILLE
    assert top_left & 0x01 and bottom_right & 0x80  # the first dot's cell, the last's
    assert braille_lines([], 3, 1, 1.0) == [chr(BRAILLE) * 3]


def row(number: int, mistakes: int) -> Generation:
    return Generation(number, 10 * number, (1, 2, 3), 1.1, 0.2, mistakes, 1000, "H1",
                      20, (9, 8, 3), 105.0, number, mistakes, 1.0, 90.0)  # fmt: skip


class ScriptedRun:
    """A run that reports what a real one would, for the screen alone."""

    def __init__(self, tmp_path: Path) -> None:
        self.settings = RunSettings((5, 4, 4), generations=3)
        self.directory = tmp_path
        self.history: list[Generation] = []
        self.go_on = threading.Event()

    def path(self, name: str) -> Path:
        return self.directory / name

    def run(self, report, stop: threading.Event) -> None:
        report(Report("generation", 0, row=row(0, 400)))
        report(Report("selfplay", 1, 6, 10))
        gate = SprtState(Settings("a", "b", 0, 100, 0.05, 0.05, "logistic", 1, "x", 0, 40))
        gate.pentanomial, gate.trinomial = [0, 0, 2, 1, 0], [1, 2, 3]
        report(Report("gate", 1, 6, 40, gate=gate))
        self.go_on.wait(10)
        report(Report("generation", 1, row=row(1, 0)))


async def test_the_screen_shows_the_phase_the_gate_the_table_and_stops_when_perfect(tmp_path):
    run = ScriptedRun(tmp_path)
    app = TrainingApp(run)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        while "gate" not in str(app.query_one("#phase").render()):
            await pilot.pause(0.05)
        assert "+3=2-1" in str(app.query_one("#gate").render())
        assert "rules only" in str(app.query_one("#title").render())
        run.go_on.set()
        while not app.finished:
            await pilot.pause(0.05)
        assert app.stop.is_set()  # the best network made no mistake: the run stops
        table = app.query_one("#generations")
        assert table.row_count == 2
        plot = str(app.query_one("#plot").render())
        assert "40.0%" in plot and "each generation's mistakes" in plot
        await pilot.press("q")
    assert app.return_code == 0


async def test_closing_the_screen_mid_run_stops_the_run(tmp_path):
    run = ScriptedRun(tmp_path)
    app = TrainingApp(run)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        while "gate" not in str(app.query_one("#phase").render()):
            await pilot.pause(0.05)
        app.exit(0)
        await pilot.pause(0.1)
    assert app.stop.is_set()
    run.go_on.set()


async def test_the_title_says_whether_the_solver_helped_and_the_cpu_time(tmp_path):
    from dataclasses import replace

    run = ScriptedRun(tmp_path)
    play = replace(run.settings.play, solver=True, explore=0.5)
    run.settings = replace(run.settings, play=play, net=replace(run.settings.net, average=500))
    app = TrainingApp(run)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        while "gate" not in str(app.query_one("#phase").render()):
            await pilot.pause(0.05)
        title = str(app.query_one("#title").render())
        assert "solver's proofs, 50% random moves, weights averaged" in title
        assert "1.5 CPU-min" in title
        app.exit(0)
        await pilot.pause(0.1)
    run.go_on.set()


async def test_the_plot_is_drawn_again_to_the_width_of_a_resized_terminal(tmp_path):
    run = ScriptedRun(tmp_path)
    app = TrainingApp(run)  # type: ignore[arg-type]

    def widest() -> int:
        return max(map(len, str(app.query_one("#plot").render()).split("\n")))

    async with app.run_test(size=(80, 24)) as pilot:
        while "gate" not in str(app.query_one("#phase").render()):
            await pilot.pause(0.05)
        narrow = widest()
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.2)
        assert narrow <= 80 < widest() <= 120
        app.exit(0)
        await pilot.pause(0.1)
    run.go_on.set()
