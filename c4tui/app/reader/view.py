"""ReaderView: the game screen in the screen-reader mode, lines and a command line.

The game screen composes it beside its board and panels; the mode (mode.py) shows one or
the other. It holds the narrator, which hears the screen's match from the start, so the
lines are whole whenever the mode is turned on. Typing is the default (the command line
has the focus and the terminal cursor); Escape gives the keys instead: the game's own,
and the questions' letters (commands.py), with the cursor on the newest line.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Input

from c4tui.app.keys import KEYS
from c4tui.app.reader import words
from c4tui.app.reader.commands import QUESTIONS, Question, Typed, help_lines, understood
from c4tui.app.reader.log import Spoken
from c4tui.app.reader.mode import reading
from c4tui.app.reader.narrator import Narrator
from c4tui.app.reader.pane import PROMPT, PaneCommandLine, PaneLines, ReaderPane
from c4tui.app.reader.study import ReaderStudy
from c4tui.app.textual_internals import call_later_or_now
from c4tui.engine.turns import column_refusal
from c4tui.match.interface import MatchInterface
from c4tui.match.room_events import RoomChanged
from c4tui.match.room_view import ClockView


class CommandLine(PaneCommandLine):
    """The game's command line; left and right choose the column while it is empty."""

    def action_cursor_left(self, select: bool = False) -> None:
        if self.value:
            super().action_cursor_left(select)
        else:
            self.call_later(self.app.run_action, "cursor(-1)", self.screen)

    def action_cursor_right(self, select: bool = False) -> None:
        if self.value:
            super().action_cursor_right(select)
        else:
            self.call_later(self.app.run_action, "cursor(1)", self.screen)


class ReaderLines(PaneLines):
    """The lines with the questions' keys, for the keys mode."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *PaneLines.BINDINGS,
        *(
            Binding(q.key, f"ask('{q.key}')", q.names[0], show=False)
            for q in QUESTIONS
            if q.key is not None
        ),
        Binding("question_mark", "list", "Commands", show=False),
        # The study keys of the normal mode, said in lines here.
        Binding("v", "study('review')", "Review", show=False),
        Binding("t", "study('puzzle')", "Puzzle", show=False),
        Binding("o", "study('scores')", "Exact scores", show=False),
        Binding("z", "ask('x')", "Threats", show=False),  # the marks the mode cannot draw
    ]

    def action_ask(self, key: str) -> None:
        view = self.parent
        if isinstance(view, ReaderView):
            view.ask(next(q for q in QUESTIONS if q.key == key))

    def action_list(self) -> None:
        for line in help_lines():
            self.spoken.say(line)

    def action_study(self, name: str) -> None:
        view = self.parent
        if isinstance(view, ReaderView):
            getattr(view.studying(), name)()


class ReaderView(ReaderPane):
    """The spoken lines and the command line of one game screen (module docstring)."""

    def __init__(self, match: MatchInterface, spoken: Spoken, **options: Any) -> None:
        super().__init__(spoken, **options)
        self.match = match
        self.narrator = Narrator(match.view, spoken.say, self._later)
        match.listen(self.narrator.hear)
        match.listen(self._heard)
        self._clock: ClockView | None = None  # the room's, as last heard
        self._clock_timer: Timer | None = None  # ticks while keep_time says so
        self.study: ReaderStudy | None = None  # made once the app runs (it needs it)
        self._clock_said: set[tuple[int, float]] = set()  # warnings said this game
        self._clock_game: tuple[int, ...] = ()

    def make_lines(self) -> PaneLines:
        return ReaderLines(self.spoken, id="reader-lines")

    def make_command_line(self) -> PaneCommandLine:
        return CommandLine(placeholder=PROMPT, compact=True, id="reader-command")

    def _later(self, callback: Callable[[], None]) -> None:
        """After the change under way is whole: the app's next turn (the screen may not
        be shown yet: a room's first events come before it is)."""
        call_later_or_now(self, callback)

    def start(self) -> None:
        """The game as it is when the screen opens: who plays whom, and whose turn."""
        self.narrator.start()

    @property
    def _cursor(self) -> int:
        return int(getattr(self.screen, "cursor", 0))

    def ask(self, question: Question, column: int | None = None) -> None:
        view = self.match.view()
        if column is not None and not 0 <= column < view.position.width:
            self.spoken.say(str(column_refusal(view.position, column)))
            return
        for line in question.answer(view, self._cursor if column is None else column):
            self.spoken.say(line)

    def chosen(self, column: int) -> None:
        """The chosen column moved (left or right): say it."""
        self.spoken.say("chosen " + words.column_line(self.match.position, column))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = self.typed(event)
        await self.run_typed(understood(text), text)

    def on_mount(self) -> None:
        super().on_mount()
        if not getattr(self.app, "steady", False):  # steady: no time on screen
            self._clock_timer = self.set_interval(1.0, self._clock_tick, pause=True)
            self.keep_time()

    def keep_time(self) -> None:
        """Tick only while there is a warning to say: in the mode, with a clock running
        (a served client doing nothing woke once a second for none)."""
        timer, clock = self._clock_timer, self._clock
        if timer is None:
            return
        if reading(self.app) and clock is not None and clock.running is not None:
            timer.resume()
        else:
            timer.pause()

    def mode_changed(self) -> None:
        self.keep_time()

    def _heard(self, event: object) -> None:
        if isinstance(event, RoomChanged):  # a clock started or stopped
            self._clock = event.room.clock
            self.keep_time()

    def _clock_tick(self) -> None:
        """A clock's warning, said once as the running side's time falls past it."""
        if not reading(self.app):
            return  # out of the mode nothing is said: no view is made for it
        view = self.match.view()
        room = view.room
        if room is None or room.clock is None:
            return
        if view.position.path[:1] != self._clock_game[:1] or not view.position.moves:
            self._clock_said, self._clock_game = set(), view.position.path
        for line in words.clock_warnings(room.clock, view.names, monotonic(), self._clock_said):
            self.spoken.say(line)

    def studying(self) -> ReaderStudy:
        if self.study is None:
            self.study = ReaderStudy(self.spoken.say, self.app)
        return self.study

    async def run_typed(self, typed: Typed, text: str) -> None:
        """Answer a typed line: a question here, the rest as the game's keys do."""
        study = self.studying()
        if typed.study is not None:
            getattr(study, typed.study)()
            return
        if typed.column is not None and study.question is not None:
            study.answer(typed.column)  # an answer, not a drop
            return
        if typed.question is not None:
            self.ask(typed.question, typed.column)
            return
        if text.strip() == "?" or text.strip().lower() in ("commands", "help"):
            for line in help_lines():
                self.spoken.say(line)
            return
        if typed.chat is not None:
            say = getattr(self.match, "say", None)
            if say is None:
                self.spoken.say("chat is for a room of a server")
            else:
                say(typed.chat)
            return
        if typed.unknown is not None:
            self.spoken.say(f"not a command: {typed.unknown}; ? lists them")
            return
        action: str | None = None
        if typed.column is not None:
            action = f"drop({typed.column})"
        else:
            action = self._action_of(str(typed.key))
        if action is None or not await self.app.run_action(action, self.screen):
            self.spoken.say(f"not now: {text.strip() or 'Enter'}")

    def _action_of(self, key: str) -> str | None:
        """The action of the first binding of `key` that applies now, as the key would."""
        screen = self.screen
        for binding in KEYS:
            if not isinstance(binding, Binding) or key not in binding.key.split(","):
                continue
            name, _, rest = binding.action.partition("(")
            parameters = tuple(_literal(p) for p in rest.rstrip(")").split(",") if p.strip())
            if screen.check_action(name, parameters):
                return binding.action
        return None


def _literal(text: str) -> object:
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return text.strip("'\"")
