"""BotTokenScreen: name a bot, and see its token once (a program plays with it).

The lobby opens it (`b`). The name goes to the server, which keeps only the token's
digest; the token comes back once and is shown here, with `c4tui bot`'s command line to
run it, and copied to the clipboard on `c` (OSC 52: it reaches the player's own
terminal, over ssh too). A name the server refuses (taken, badly formed) is said in a
notice and the box stays open for another. docs/bot-api.md says what a bot does.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from c4tui.community.bot_tokens import name_refusal
from c4tui.match.remote import RemoteMatch

ASK = (
    "A bot is a program that plays here with a token, marked BOT wherever it is shown. "
    "Its name: 3 to 20 letters, digits, - and _. A new token for a bot of yours ends "
    "its old one."
)


class BotTokenScreen(ModalScreen[None]):
    """Asks a bot's name, then shows its token once (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("c", "copy", "Copy the token", show=False),
    ]
    DEFAULT_CSS = """
    BotTokenScreen { align: center middle; }
    #bot-token-box { width: 76; height: auto; border: round $accent; padding: 0 1; }
    #bot-token-box > Static { margin-bottom: 1; }
    """

    def __init__(self, match: RemoteMatch) -> None:
        super().__init__()
        self.match = match
        self.token: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="bot-token-box"):
            yield Static(ASK, id="bot-token-words")
            yield Input(placeholder="the bot's name", id="bot-name", max_length=20)

    def on_mount(self) -> None:
        self.query_one("#bot-token-box").border_title = "Make a bot token"

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        refusal = name_refusal(name)
        if refusal is not None:
            self.notify(refusal, severity="warning", timeout=4)
            return
        self.match.make_bot_token(name)

    def show_token(self, name: str, token: str) -> None:
        """The token the server made, shown this once."""
        self.token = token
        self.query_one("#bot-name", Input).display = False
        words = Text()
        words.append(f"The token of BOT {name}, shown this once", style="bold")
        words.append(" (c copies it; Escape closes):\n\n")
        words.append(token, style="bold")
        words.append("\n\nRun it with any engine, the token in C4TUI_BOT_TOKEN (or --token):\n")
        words.append("  c4tui bot --server URL --engine mcts:time=1")
        self.query_one("#bot-token-words", Static).update(words)
        self.focus()

    def action_copy(self) -> None:
        if self.token is not None:
            self.app.copy_to_clipboard(self.token)
            self.notify("Copied the token.", timeout=3)
