"""RoomActions: the keys of a room of `c4tui serve` beyond the game's own, for the served
app: hurry the AI, take back, offer a draw, resign, the rematch, the chat line, leaving,
and the questions the other side's offers ask.

A part of the served app, as ai_turns.py is of the local one. Each key sends the room
an intent (c4tui/match/remote.py); whether it applies now is the match's view's
`refused`, so the footer shows only what the room would accept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.app import SystemCommand

from c4tui.app.game_export import export_room_game
from c4tui.app.keys import keyed_command
from c4tui.app.screens.answer import AnswerScreen
from c4tui.app.widgets.room_panel import RoomPanel
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_view import RoomView

# What leaving a game under way costs, said before a player leaves (the service holds the
# seat for the game's grace, then the other side may claim it: docs/community.md).
HELD = (
    "Your seat is held for a while (your clock runs, if the game has one); if you are "
    "not back by then, your opponent may claim the game as won."
)

OFFER_WORDS = {"draw": "offers a draw", "take_back": "asks to take back a move"}
# The room key's action, and the match's intent whose refusal hides it.
INTENT_OF = {
    "move_now": "move_now",
    "take_back": "take_back",
    "offer_draw": "offer_draw",
    "resign": "resign",
    "rematch": "new_game",
    "claim_win": "claim",
    "claim_draw": "claim",
}


class RoomActions:
    """A room's own keys, for the served app it is given (`app.match`, `app.notify`,
    `app.push_screen`, `app.pop_screen`, `app.screen`)."""

    def __init__(self, app: Any, panel: RoomPanel) -> None:
        self._app = app
        self.panel = panel
        self._asked: str | None = None  # the other side's offer being asked about
        self._question: AnswerScreen | None = None

    @property
    def match(self) -> RemoteMatch:
        return self._app.match  # type: ignore[no-any-return]

    def allows(self, name: str) -> bool:
        if name == "export":
            return self.match.room is not None and self.match.room.over
        intent = INTENT_OF.get(name)
        return intent is None or intent not in self.match.refused()

    def commands(self) -> Iterable[SystemCommand]:
        offered = [
            ("Take back", "Ask to take back your last move", "take_back"),
            ("Offer a draw", "The other side may accept", "offer_draw"),
            ("Resign", "Give up this game (asks first)", "resign"),
            ("Rematch", "Play again, colours swapped", "rematch"),
            ("Claim the win", "Your opponent left and did not come back", "claim_win"),
            ("Claim a draw", "Your opponent left and did not come back", "claim_draw"),
        ]
        for title, description, name in offered:
            if self.allows(name):
                yield keyed_command(
                    title, description, f"part('room', '{name}')", getattr(self, name)
                )
        yield keyed_command(
            "Say", "A line to everyone in the room", "part('room', 'chat')", self.chat
        )
        yield keyed_command("Lobby", "Leave this room", "part('room', 'leave')", self.leave)

    # ---- the keys -------------------------------------------------------------------

    def move_now(self) -> None:
        self.match.move_now()

    def take_back(self) -> None:
        self.match.take_back()

    def offer_draw(self) -> None:
        self.match.offer_draw()
        self._app.notify("Draw offered.", timeout=2)

    def resign(self) -> None:
        self._confirmed("Resign this game?", self.match.resign)

    def rematch(self) -> None:
        self.match.rematch()
        self._app.notify("Rematch asked: colours swap when both agree.", timeout=3)

    def claim_win(self) -> None:
        self.match.claim(True)

    def claim_draw(self) -> None:
        self.match.claim(False)

    def chat(self) -> None:
        self.panel.open_line()

    def export(self) -> None:
        if self.match.room is not None:
            export_room_game(self._app, self.match.room)

    def leave(self) -> None:
        """Escape: close the chat line first; a player of a game going on is asked
        first (their seat is held for them, and the hold is not for ever)."""
        if self.panel.line.display:
            self.panel.close_line()
            return
        room = self.match.room
        if room is not None and room.leaving_costs():
            self._confirmed(f"Leave this game for the lobby? {HELD}", self.match.leave)
        else:
            self.match.leave()

    def quit(self, exit_app: Callable[[], None]) -> None:
        """`q`: a player of a game going on is asked first."""
        room = self.match.room
        if room is not None and room.leaving_costs():
            self._confirmed(f"Quit c4tui in the middle of this game? {HELD}", exit_app)
        else:
            exit_app()

    def _confirmed(self, question: str, then: Callable[[], None]) -> None:
        def answered(sure: bool | None) -> None:
            if sure:
                then()

        self._app.push_screen(AnswerScreen(question), answered)

    # ---- the other side's offers ----------------------------------------------------

    def ask_if_offered(self, view: RoomView) -> None:
        """Ask this player about the other side's offer, once; an offer withdrawn (a move
        clears it) takes its question away."""
        offer = view.offer_to_me()
        if offer == self._asked:
            return
        if self._question is not None and self._app.screen is self._question:
            self._app.pop_screen()
        self._asked, self._question = offer, None
        if offer is None:
            return
        other = view.seats[1 - (view.seat or 0)].title
        question = f"{other} {OFFER_WORDS[offer]}. Accept?"

        def answered(accept: bool | None) -> None:
            self._question = None  # still asked: until the service's answer clears it
            self.match.answer(offer, bool(accept))

        self._question = AnswerScreen(question)
        self._app.push_screen(self._question, answered)
