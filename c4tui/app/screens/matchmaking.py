"""The lobby's matchmaking dialogs: a time control to find a game with, a challenge to a
player, and the leaderboard. Each is a modal over the lobby and decides nothing: it
returns what the player chose, and the lobby sends it (screens/lobby.py)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import (
    Button,
    DataTable,
    Input,
    OptionList,
    Select,
    Static,
    TabbedContent,
    TabPane,
)
from textual.widgets.option_list import Option

from c4tui.app.widgets.tick_box import TickBox
from c4tui.community.clocks import TimeControl
from c4tui.server.wire.matchmaking_messages import Leaderboard

CONTROLS = ("1+0", "3+2", "5+3", "10+5", "1d")  # the short list a player picks from
DEFAULT_CONTROL = "3+2"


def control_words(text: str) -> str:
    """A control as the lists show it: "3+2 blitz", "1 day a move"."""
    return TimeControl.parse(text).words


class ControlScreen(ModalScreen[str | None]):
    """Which time control to find a game with; None when Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="control-box", classes="matching-box"):
            yield Static("Find a rated game with", classes="lobby-heading")
            yield OptionList(*(Option(control_words(c), id=c) for c in CONTROLS), id="controls")
            yield Static("Enter finds a game · Esc goes back", classes="matching-hint")

    def on_mount(self) -> None:
        controls = self.query_one("#controls", OptionList)
        controls.highlighted = CONTROLS.index(DEFAULT_CONTROL)
        controls.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class ChallengeScreen(ModalScreen[tuple[str, str, bool] | None]):
    """A challenge: whom (a name; one who is away only for correspondence), the time
    control, rated or casual. Dismissed with (name, control, rated), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Back")]

    def __init__(self, name: str = "") -> None:
        super().__init__()
        self.opponent = name

    def compose(self) -> ComposeResult:
        with Vertical(id="challenge-box", classes="matching-box"):
            yield Static("Challenge a player", classes="lobby-heading")
            yield Input(self.opponent, placeholder="Their name", id="challenge-name")
            yield Select(
                [(control_words(c), c) for c in CONTROLS],
                value=DEFAULT_CONTROL,
                allow_blank=False,
                id="challenge-control",
                compact=True,
            )
            yield TickBox("Rated", value=True, id="challenge-rated", compact=True)
            with Horizontal(classes="matching-buttons"):
                yield Button("Challenge", id="challenge-send", variant="primary", compact=True)
                yield Button("Back", id="challenge-back", compact=True)
            # Also the room the time controls' list needs, open, inside the frame.
            yield Static(
                "Enter sends · Esc goes back", id="challenge-hint", classes="matching-hint"
            )

    def on_mount(self) -> None:
        self.query_one("#challenge-name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "challenge-send":
            self._send()
        else:
            self.dismiss(None)

    def _send(self) -> None:
        name = self.query_one("#challenge-name", Input).value.strip()
        if not name:
            self.notify("Whom? Type their name.", timeout=3)
            return
        control = str(self.query_one("#challenge-control", Select).value)
        self.dismiss((name, control, self.query_one("#challenge-rated", TickBox).value))


class LeaderboardScreen(ModalScreen[None]):
    """The top players of each rating class; a provisional rating has a "?" and comes
    after the settled ones."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,k", "dismiss(None)", "Back"),
        # The table has the focus and no use for them: they turn to the next class.
        Binding("right,tab", "next_class(1)", "Next class", priority=True),
        Binding("left,shift+tab", "next_class(-1)", "Previous class", priority=True),
    ]

    def __init__(self, leaderboard: Leaderboard) -> None:
        super().__init__()
        self.leaderboard = leaderboard

    def compose(self) -> ComposeResult:
        with Vertical(id="leaderboard-box", classes="matching-box"):
            yield Static("Top players", classes="lobby-heading")
            with TabbedContent(initial="class-blitz", id="leaderboard"):
                for rating_class in self.leaderboard.classes:
                    with TabPane(rating_class.name.title(), id=f"class-{rating_class.name}"):
                        table: DataTable[str | Text] = DataTable(cursor_type="row")
                        table.add_columns("#", "Player", "Rating", "±", "Games")
                        for place, ranked in enumerate(rating_class.players, 1):
                            mark = "?" if ranked.provisional else ""
                            table.add_row(
                                str(place),
                                Text(f"BOT {ranked.name}" if ranked.bot else ranked.name),
                                f"{ranked.rating}{mark}",
                                str(ranked.deviation),
                                str(ranked.games),
                            )
                        if not rating_class.players:
                            table.add_row("", Text("no rated games yet"), "", "", "")
                        yield table
            yield Static(
                "← → another class · ? provisional: listed after the settled · Esc goes back",
                classes="matching-hint",
            )

    def action_next_class(self, step: int) -> None:
        tabs = self.query_one("#leaderboard", TabbedContent)
        names = [f"class-{c.name}" for c in self.leaderboard.classes]
        if not names:
            return
        at = names.index(tabs.active) if tabs.active in names else 0
        tabs.active = names[(at + step) % len(names)]
        tabs.get_pane(tabs.active).query_one(DataTable).focus()
