"""The live screen of `c4tui train selfplay`: a self-play run as it learns.

It shows what the run is doing (labelling, self-play games, training, measuring, the
gate) with its progress, each generation's mistakes against the exact solver drawn as
a braille plot (`plot.py`), the gate's sequential test as it goes, and a table of the
generations: games, losses, mistakes, the gate's verdict. `q` stops the run at the end
of the phase it is in; `--resume` goes on from the last whole generation.

A package of its own, beside the app and the commands: `c4tui train` (a command) opens
it, and it needs nothing of the game's app.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Static

from c4tui.tournament.selfplay_run import NO_GATE, Generation, Report, SelfPlayRun
from c4tui.train_screen.plot import braille_lines


class Redrawn(Static):
    """A Static drawn to the terminal's width by `draw`, called again when it is resized
    (the widgets are told of a resized terminal; the App's own `on_resize` was not)."""

    def __init__(self, draw: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.draw = draw

    def on_resize(self) -> None:
        self.draw()


PHASES = {
    "label": "labelling positions with the solver",
    "selfplay": "self-play games",
    "train": "training",
    "measure": "measuring against the solver",
    "gate": "gate: new network against the best",
}
VERDICTS = {
    "H1": "kept",
    "H0": "not stronger",
    "games-most": "no verdict",
    "first": "-",
    NO_GATE: "no gate",
}
PLOT_ROWS = 6


class TrainingApp(App[int]):
    """The screen over one run, which plays in a thread of its own."""

    TITLE = "c4tui train selfplay"
    CSS = """
    Screen { layout: vertical; }
    #title { height: auto; background: $primary-background; }  /* wraps at 80 columns */
    #phase { height: 1; }
    #plot { height: auto; margin: 1 0 0 0; }
    #gate { height: auto; margin: 0 0 1 0; }  /* its bounds wrap at 80 columns */
    DataTable { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "stop", "stop (resume later)")]

    def __init__(self, run: SelfPlayRun, *, stop_when_perfect: bool = True) -> None:
        super().__init__()
        self.run_ = run
        self.stop_when_perfect = stop_when_perfect
        self.stop = threading.Event()
        self.rows: list[Generation] = list(run.history)
        self.phase = "starting"
        self.finished = False

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="phase")
        yield Redrawn(self.show_plot, id="plot")
        yield Static(id="gate")
        yield DataTable(id="generations", zebra_stripes=True, cursor_type="none")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in (
            "gen",
            "games",
            "loss p",
            "loss v",
            "mistakes",
            "gate",
            "W-D-L",
            "Elo",
            "best",
        ):
            table.add_column(label, key=label)
        for row in self.rows:
            self.add_row(row)
        self.show_title()
        self.show_plot()
        if self.run_.settings.gate.games_most == 0:
            self.query_one("#gate", Static).update(
                " no gate: each generation's network becomes the best"
            )
        self.run_worker(self.play, thread=True, name="selfplay run")

    def play(self) -> None:
        """The run, in a worker thread; its reports go to the screen's thread."""
        try:
            self.run_.run(lambda event: self.call_from_thread(self.on_report, event), self.stop)
        finally:
            self.call_from_thread(self.ended)

    # ---- what the run says ------------------------------------------------------------

    def on_report(self, event: Report) -> None:
        if event.phase == "generation" and event.row is not None:
            if not any(r.number == event.row.number for r in self.rows):
                self.rows.append(event.row)
                self.add_row(event.row)
            self.show_plot()
            perfect = event.row.perfect()
            if self.stop_when_perfect and perfect is not None:
                self.stop.set()
                self.phase = f"{perfect} makes no mistake on the positions: stopped"
        elif event.phase in PHASES:
            self.phase = PHASES[event.phase]
            if event.total:
                self.phase += f" {event.done:,}/{event.total:,}"
            if event.losses:
                self.phase += (
                    f" (loss p {event.losses['policy']:.3f} v {event.losses['value']:.3f})"
                )
        if event.gate is not None:
            self.show_gate(event)
        self.show_title()

    def ended(self) -> None:
        self.finished = True
        words = "stopped" if self.stop.is_set() else "done"
        if self.run_.history:
            network, share = self.run_.to_play()
            self.phase = f"{words}: play it with alphazero:net={network} ({share:.2%}) · q quits"
        else:
            self.phase = f"{words} · q quits"
        self.show_title()

    def on_unmount(self) -> None:
        """However the screen closes (q after the end, ctrl+q), the run stops at the end
        of its phase rather than run on unseen."""
        self.stop.set()

    def action_stop(self) -> None:
        if self.finished:
            self.exit(0)
            return
        self.stop.set()
        self.phase = "stopping at the end of this phase (resume with --resume)…"
        self.show_title()

    # ---- drawing ----------------------------------------------------------------------

    def show_title(self) -> None:
        settings = self.run_.settings
        width, height, connect = settings.board
        generation = self.rows[-1].number if self.rows else 0
        games = self.rows[-1].games if self.rows else 0
        cpu = self.rows[-1].cpu_seconds / 60 if self.rows else 0.0
        # Whether the search had the solver's proofs: a reader must tell the two apart.
        mode = "solver's proofs" if settings.play.solver else "rules only"
        if settings.play.explore:
            mode += f", {settings.play.explore:.0%} random moves"
        if settings.net.average:
            mode += ", weights averaged"  # the network shown is the average (learner.py)
        self.query_one("#title", Static).update(
            f" {width}x{height} connect {connect} · {mode} · generation {generation} of "
            f"{settings.generations} · {cpu:.1f} CPU-min · {games:,} games · "
            f"{self.run_.directory}"
        )
        self.query_one("#phase", Static).update(f" {self.phase}")

    def show_plot(self) -> None:
        if not self.rows:
            return
        positions = self.rows[-1].positions or 1
        shares = [100 * r.mistakes / positions for r in self.rows]
        top = max(max(shares), 1.0)
        width = max(10, self.size.width - 12)
        lines = braille_lines(shares, width, PLOT_ROWS, top)
        text = Text()
        text.append(
            f" each generation's mistakes (no search), % of {positions:,} positions from play\n",
            style="bold",
        )
        for index, line in enumerate(lines):
            label = (
                f"{top:5.1f}% "
                if index == 0
                else ("   0% " if index == len(lines) - 1 else " " * 7)
            )
            text.append(label.rjust(8), style="dim")
            text.append(line + "\n", style="green")
        text.append(
            " " * 8 + f"generation 0{'':>{max(0, width - 14)}}{self.rows[-1].number}", style="dim"
        )
        self.query_one("#plot", Static).update(text)

    def show_gate(self, event: Report) -> None:
        state = event.gate
        assert state is not None
        low, high = state.bounds()
        losses, draws, wins = state.trinomial
        self.query_one("#gate", Static).update(
            f" gate, generation {event.generation} against the best: {state.games} games "
            f"+{wins}={draws}-{losses}"
            f"  LLR {state.llr():+.2f} [{low:.2f}, {high:.2f}]"
        )

    def add_row(self, row: Generation) -> None:
        share = f"{100 * row.mistakes / row.positions:.2f}%" if row.positions else "-"
        first = row.verdict == "first"
        self.query_one(DataTable).add_row(
            str(row.number),
            f"{row.games:,}",
            "-" if first else f"{row.policy_loss:.3f}",
            "-" if first else f"{row.value_loss:.3f}",
            share,
            VERDICTS.get(row.verdict, row.verdict),
            "-" if first or not row.gate_games else "{}-{}-{}".format(*row.gate_wdl),
            "-" if row.elo is None else f"{row.elo:+.0f}",
            str(row.best),
        )
        self.query_one(DataTable).scroll_end(animate=False)
