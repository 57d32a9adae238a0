"""The app's keys: every binding of the game screen, and the palette's commands.

A key's action names the part that acts on it and what it does there: `part('ai',
'hint')` calls the hint of the AI's turns (ai_turns.py); the others are `study`
(study.py), `lines` (lines.py), `threats` (threat_marks.py), `overlay` (overlay.py) and,
in a room of `c4tui serve`, `room` (room_actions.py). The game screen shows a key only
where its shell has the part and the match accepts it now, so one list serves a game
of one's own and every seat of a room (`u` is Undo in one, Take back in the other).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding, BindingType

# Moving along the board and dropping a disc: the game screen's and a room's.
BOARD_KEYS: list[BindingType] = [
    Binding("left", "cursor(-1)", "←", show=False),
    Binding("right", "cursor(1)", "→", show=False),
    Binding("enter,space", "drop_at_cursor", "Drop", key_display="⏎"),
    *(
        Binding(str((col + 1) % 10), f"drop({col})", f"Column {col + 1}", show=False)
        for col in range(10)
    ),
]


def cursor_start(width: int) -> int:
    """Where the board cursor starts on a board `width` columns wide: over the middle
    column (on an even width, the right one of the two)."""
    return width // 2


def cursor_moved(cursor: int, step: int, width: int) -> int:
    """The board cursor `step` columns along (0: where it is), kept on a board `width`
    columns wide: what ← and → do on every board."""
    return max(0, min(width - 1, cursor + step))


KEYS: list[BindingType] = [
    *BOARD_KEYS,
    Binding("u", "undo", "Undo"),
    Binding("u", "part('room', 'take_back')", "Take back"),
    Binding("r", "redo", "Redo"),
    Binding("n", "new_game", "New"),
    Binding("n", "part('room', 'rematch')", "Rematch"),
    Binding("h", "part('ai', 'hint')", "Hint"),
    Binding("m", "part('ai', 'move_now')", "AI move"),
    # A room's own (room_actions.py).
    Binding("c", "part('room', 'chat')", "Say"),
    Binding("d", "part('room', 'offer_draw')", "Draw?"),
    Binding("R", "part('room', 'resign')", "Resign", key_display="R"),
    Binding("e", "part('room', 'export')", "Export"),
    Binding("w", "part('room', 'claim_win')", "Claim win"),
    Binding("D", "part('room', 'claim_draw')", "Claim draw", key_display="D"),
    # Study (study.py).
    Binding("g", "part('study', 'games')", "Games", show=False),
    Binding("c", "part('study', 'copy_position')", "Copy", show=False),
    Binding("C", "part('study', 'copy_link')", "Copy link", show=False),
    Binding("p", "part('study', 'enter_position')", "Position", show=False),
    Binding("v", "part('study', 'review_game')", "Review", show=False),
    Binding("t", "part('study', 'puzzles')", "Puzzles", show=False),
    # The game's lines (lines.py).
    Binding("up", "part('lines', 'step', -1)", "Back a move", show=False),
    Binding("down", "part('lines', 'step', 1)", "Forward a move", show=False),
    Binding("home", "part('lines', 'to_end', 0)", "Line start", show=False),
    Binding("end", "part('lines', 'to_end', 1)", "Line end", show=False),
    Binding("pageup", "part('lines', 'sibling', -1)", "Previous line", show=False),
    Binding("pagedown", "part('lines', 'sibling', 1)", "Next line", show=False),
    Binding("P", "part('lines', 'promote')", "Promote line", show=False),
    Binding("X", "part('lines', 'delete_variation')", "Delete variation", show=False),
    # Shown only while two engines play (AiTurns.allows); Space says what it does now.
    Binding("space", "part('ai', 'pause')", "Pause", key_display="␣"),
    Binding("space", "part('ai', 'go_on')", "Go on", key_display="␣"),
    Binding("full_stop", "part('ai', 'step')", "Step", key_display="."),
    Binding("minus", "part('ai', 'speed', 1)", "Speed", key_display="-+"),
    Binding("plus", "part('ai', 'speed', -1)", "Faster", show=False),
    Binding("z", "part('threats', 'toggle')", "Threats", show=False),
    Binding("o", "part('overlay', 'toggle')", "Scores", show=False),
    Binding("O", "part('overlay', 'toggle_numbers')", "Scores as numbers", show=False),
    Binding("s", "settings", "Settings"),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("escape", "part('room', 'leave')", "Lobby"),
    Binding("q", "quit", "Quit"),
]


# How words name a key: Space, the full stop and the others as people write them.
SPOKEN = {"space": "Space", "full_stop": ".", "minus": "-", "plus": "+", "question_mark": "?"}
# An action's own name: "new_game", or the last quoted word of "part('ai', 'hint')".
ACTION_NAME = re.compile(r"^(\w+)$|'(\w+)'\)?$")


def spoken_key(bindings: list[BindingType], action: str) -> str | None:
    """The key of `action` (its name, as in "move_now") as the status line and the
    notices say it, or None when no binding has it."""
    for binding in bindings:
        if not isinstance(binding, Binding):
            continue
        found = ACTION_NAME.search(binding.action)
        if found is not None and action in found.groups():
            return spoken(binding)
    return None


def spoken(binding: Binding) -> str:
    """A binding's (first) key as words say it: "n", "Space", "?"."""
    key = binding.key.split(",")[0]
    return SPOKEN.get(key, key)


def keyed(description: str, action: str) -> str:
    """A palette command's description followed by its key, "(n)": the key of the
    binding in KEYS whose action is `action` (written whole, as the binding has it)."""
    key = next(spoken(b) for b in KEYS if isinstance(b, Binding) and b.action == action)
    return f"{description} ({key})"


def keyed_command(
    title: str, description: str, action: str, callback: Callable[[], Any]
) -> SystemCommand:
    """A palette command whose description says its key (`keyed`)."""
    return SystemCommand(title, keyed(description, action), callback)


def palette(app: Any) -> Iterable[SystemCommand]:
    """The command palette's commands for the app: the main actions (each says its key),
    then each part's own."""
    yield keyed_command("New game", "Start a new game", "new_game", app.action_new_game)
    yield keyed_command("Undo", "Take back your move and the reply", "undo", app.action_undo)
    yield keyed_command("Redo", "Play the undone moves again", "redo", app.action_redo)
    yield keyed_command("Hint", "Show the best column for you", "part('ai', 'hint')", app.ai.hint)
    yield keyed_command(
        "AI move now", "Make the AI move at once", "part('ai', 'move_now')", app.ai.move_now
    )
    yield from app.ai.commands()
    yield from app.study.commands()
    yield keyed_command(
        "Scores on the board",
        "Show or hide every column's exact result",
        "part('overlay', 'toggle')",
        app.overlay.toggle,
    )
    yield keyed_command(
        "Scores as numbers or words",
        "The solver's numbers, as gamesolver.org, or words",
        "part('overlay', 'toggle_numbers')",
        app.overlay.toggle_numbers,
    )
    yield from app.game_lines.commands()
    yield from app.threat_marks.commands()
    yield from app.looks.commands()
    yield keyed_command(
        "Settings", "Opponents, budgets, board, theme", "settings", app.action_settings
    )
    yield keyed_command("Help", "Keys and the thinking panel", "help", app.action_help)
