"""TournamentScreen: the server's Swiss tournaments: the list, one's standings and games.

Opened from the lobby (`t`), the same in a terminal and a browser. At the top, every
tournament on the server; the one under the cursor is followed: its standings (points,
then the tie-breaks Buchholz and Sonneborn-Berger) on the left, and every round's games
on the right, the latest round first, each with its result or how far it has got. Enter
on a game watches it (the rooms' own watching); `e` enters the tournament, `x`
withdraws, `b` begins it early (its maker). The line at the bottom makes a new one: a
name, a time control, a number of rounds, and the minutes until it starts.

When a round is paired, its players are taken to their games by the server; this
screen is for everyone else, and for the standings between rounds (in the pause before
the next round, the list and the title count down to it: "round 2 starts in 12 s").
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Static

from c4tui.community.tournament import MAX_ROUNDS
from c4tui.engine.board.notation import move_name
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_events import TournamentChanged, TournamentsChanged
from c4tui.server.wire.identity import MOST_ROUND_PAUSE
from c4tui.server.wire.tournament_messages import (
    AskTournaments,
    BeginTournament,
    BoardShown,
    EnterTournament,
    FollowTournament,
    MakeTournament,
    TournamentListed,
    TournamentShown,
    Withdraw,
)

# The longest state (state_words): an entrant's ✓, then the longest pause an operator
# may set before the last round; the list fits 80 columns with it whole.
LONGEST_STATE = f"✓ round {MAX_ROUNDS} starts in {MOST_ROUND_PAUSE} s"
LIST_COLUMNS = (
    ("#", 3),
    ("Tournament", 20),
    ("Control", 7),
    ("Rounds", 6),
    ("State", len(LONGEST_STATE)),
)
# Fixed widths: both tables side by side fit 80 columns (a longer name is cut).
STANDING_COLUMNS = (("#", 2), ("Player", 9), ("Pts", 3), ("Buch", 4), ("SB", 3), ("W-D-L", 5))
BOARD_COLUMNS = (("R", 1), ("●", 9), ("○", 9), ("Result", 10))


def points(value: float) -> str:
    """Points as a table writes them: 2, 1½, ½."""
    whole, half = divmod(round(value * 2), 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def state_words(t: TournamentListed, now: float) -> str:
    """Where a tournament is, `now` (Unix seconds): in the pause between rounds, how long
    until the next one starts."""
    if t.phase == "registration":
        start = datetime.fromtimestamp(t.starts_at, UTC).strftime("%H:%M")
        return f"starts {start} UTC"
    if t.phase == "playing" and t.next_round_at is not None:
        return f"round {t.round + 1} starts in {max(0, math.ceil(t.next_round_at - now))} s"
    if t.phase == "playing":
        return f"round {t.round} of {t.rounds}"
    return "final standings" if t.phase == "finished" else "cancelled"


def result_words(board: BoardShown) -> str:
    """A game's result (●'s points first), or where a game under way has got to."""
    if board.points is not None:
        return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}.get(board.points, "?")
    if board.room is None:
        return "waiting"
    return f"at {move_name(board.moves)}"


class TournamentScreen(Screen[None]):
    """The tournaments (see the module docstring)."""

    CSS_PATH = "tournament.tcss"
    AUTO_FOCUS = "#tournaments"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Lobby"),
        Binding("e", "enter", "Enter"),
        Binding("x", "withdraw", "Withdraw"),
        Binding("b", "begin", "Begin"),
        Binding("w", "watch", "Watch"),
        Binding("m", "make", "Make one"),
        Binding("n", "focus_name", "Name", show=False),
    ]

    def __init__(self, match: RemoteMatch) -> None:
        super().__init__()
        self.match = match
        self.listed: tuple[TournamentListed, ...] = ()
        self.shown: TournamentShown | None = None
        self.following = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="tournament-list"):
            yield self._table("tournaments", LIST_COLUMNS)
        yield Static(id="tournament-title")
        with Horizontal(id="tournament-main"):
            with Vertical(id="tournament-standings"):
                yield self._table("standings", STANDING_COLUMNS)
            with Vertical(id="tournament-boards"):
                yield self._table("boards", BOARD_COLUMNS)
        with Horizontal(id="tournament-make"):
            yield Input(placeholder="Name (n)", id="make-name", compact=True)
            yield Input("5+3", placeholder="5+3", id="make-control", compact=True)
            yield Input("3", placeholder="rounds", id="make-rounds", type="integer", compact=True)
            yield Input("10", placeholder="min", id="make-minutes", type="integer", compact=True)
            yield Button("Make (m)", id="make", compact=True)
        yield Footer()

    @staticmethod
    def _table(name: str, columns: tuple[tuple[str, int], ...]) -> DataTable[str]:
        table: DataTable[str] = DataTable(id=name, cursor_type="row", zebra_stripes=True)
        for label, width in columns:
            table.add_column(label, width=width)
        return table

    def on_mount(self) -> None:
        self.query_one("#tournament-list").border_title = "Tournaments (Swiss)"
        self.query_one("#tournament-standings").border_title = "Standings"
        self.query_one("#tournament-boards").border_title = "Games: Enter watches"
        self.query_one(
            "#tournament-make"
        ).border_title = "A new one: name, control, rounds, minutes to its start"
        self.sub_title = f"Tournaments · you are {self.match.name}"
        self.match.ask(AskTournaments())
        self._show_title()
        self.set_interval(1.0, self._count_down)

    def on_unmount(self) -> None:
        self.match.ask(FollowTournament(0))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A finished (or cancelled) tournament has nothing to enter, leave, begin or
        watch: its keys leave the key bar."""
        if action in ("enter", "withdraw", "begin", "watch"):
            chosen = next((t for t in self.listed if t.number == self.following), None)
            return chosen is None or chosen.phase in ("registration", "playing")
        return True

    # ---- what the server says -----------------------------------------------------

    def heard(self, event: TournamentsChanged | TournamentChanged) -> None:
        if isinstance(event, TournamentsChanged):
            self.show_list(event.tournaments)
        elif event.tournament.tournament.number == self.following:
            self.show_tournament(event.tournament)

    def show_list(self, listed: tuple[TournamentListed, ...]) -> None:
        self.listed = listed
        self.refresh_bindings()
        table = self.query_one("#tournaments", DataTable)
        row = table.cursor_row
        table.clear()
        for t in listed:
            table.add_row(
                str(t.number),
                escape(t.name),
                t.control,
                str(t.rounds),
                ("✓ " if t.entered else "") + state_words(t, time.time()),
            )
        if listed:
            table.move_cursor(row=min(max(row, 0), len(listed) - 1))
            self._follow(listed[table.cursor_row].number)
        else:
            self._show_title()

    def show_tournament(self, shown: TournamentShown) -> None:
        self.shown = shown
        self.refresh_bindings()
        standings = self.query_one("#standings", DataTable)
        standings.clear()
        for line in shown.standings:
            standings.add_row(
                str(line.place),
                escape(line.name) + (" (out)" if line.withdrawn else ""),
                points(line.points),
                points(line.buchholz),
                points(line.sonneborn_berger),
                f"{line.wins}-{line.draws}-{line.losses}",
            )
        boards = self.query_one("#boards", DataTable)
        row = boards.cursor_row
        boards.clear()
        for board in shown.boards:
            boards.add_row(
                str(board.round), escape(board.first), escape(board.second), result_words(board)
            )
        if shown.boards:
            boards.move_cursor(row=min(max(row, 0), len(shown.boards) - 1))
        self._show_title()

    def _show_title(self) -> None:
        shown = self.shown
        title = self.query_one("#tournament-title", Static)
        if shown is None:
            title.update("No tournament yet: make one below (m), or wait for one to be made.")
            return
        t = shown.tournament
        players = f"{t.players} player{'' if t.players == 1 else 's'}"
        words = f"{t.name} · {t.control} · {players} · {state_words(t, time.time())}"
        if shown.byes and t.phase == "playing":
            bye = shown.byes.get(str(t.round))
            words += f" · bye: {bye}" if bye else ""
        if t.entered:
            words += " · you are in it"
        if t.phase == "registration":
            words += " (x withdraws)" if t.entered else " · e enters it"
            words += " · b begins it now" if shown.maker_is_you else ""
        if shown.note:
            words += f"\n{shown.note}"
        title.update(Text(words))

    def _count_down(self) -> None:
        """In a pause between rounds, the seconds to the next round go down on screen."""
        if any(t.next_round_at is not None for t in self.listed):
            self.show_list(self.listed)
            self._show_title()

    def _follow(self, number: int) -> None:
        if number != self.following:
            self.following = number
            self.match.ask(FollowTournament(number))

    # ---- what the player does -----------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "tournaments" and 0 <= event.cursor_row < len(self.listed):
            self._follow(self.listed[event.cursor_row].number)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "boards":
            self.action_watch()

    def _selected(self) -> TournamentListed | None:
        row = self.query_one("#tournaments", DataTable).cursor_row
        if not 0 <= row < len(self.listed):
            self.notify("No tournament: make one below (m).", timeout=3)
            return None
        return self.listed[row]

    def action_enter(self) -> None:
        if (t := self._selected()) is not None:
            self.match.ask(EnterTournament(t.number))

    def action_withdraw(self) -> None:
        if (t := self._selected()) is not None:
            self.match.ask(Withdraw(t.number))

    def action_begin(self) -> None:
        if (t := self._selected()) is not None:
            self.match.ask(BeginTournament(t.number))

    def action_watch(self) -> None:
        boards = self.shown.boards if self.shown is not None else ()
        row = self.query_one("#boards", DataTable).cursor_row
        if not 0 <= row < len(boards) or boards[row].room is None:
            self.notify("No game to watch there: its room has closed.", timeout=3)
            return
        room = boards[row].room
        assert room is not None
        self.match.watch(room)

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#tournaments", DataTable).focus()
        else:
            self.dismiss()

    def action_focus_name(self) -> None:
        self.query_one("#make-name", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "make":
            self.action_make()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_make()

    def action_make(self) -> None:
        values = {
            name: self.query_one(f"#make-{name}", Input).value.strip()
            for name in ("name", "control", "rounds", "minutes")
        }
        try:
            rounds, minutes = int(values["rounds"]), int(values["minutes"])
        except ValueError:
            self.notify("Rounds and minutes are whole numbers.", severity="warning", timeout=4)
            return
        if not 1 <= rounds <= MAX_ROUNDS or not 0 <= minutes <= 7 * 24 * 60:
            self.notify(
                f"1 to {MAX_ROUNDS} rounds, starting within a week.", severity="warning", timeout=4
            )
            return
        name = values["name"][:40] or f"{self.match.name}'s Swiss"
        self.match.ask(MakeTournament(name, values["control"][:12] or "5+3", rounds, minutes))
        self.query_one("#tournaments", DataTable).focus()
