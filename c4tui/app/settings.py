"""The app's settings: what they are, how they are checked, and where they are kept.

Settings live as JSON in the user config directory (platformdirs), or in the directory
named by `C4TUI_CONFIG_DIR` (tests and portable installs). Saving writes a temporary
file next to the real one and renames it over (files.py), so a crash never leaves half a file.
A missing file gives the defaults; a corrupt one gives the defaults and a notice.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Literal

from c4tui.engine.board.geometry import SIZE_LIMITS, SizeError, validate_size
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.files import NoSuchFile, UnreadableFile, atomic_write, parse_json, read_text
from c4tui.match.sides import Sides
from c4tui.records.aside import set_aside

Mode = Literal["human-ai", "ai-ai", "humans"]
First = Literal["you", "ai"]
MODES: dict[str, str] = {
    "human-ai": "You against the AI",
    "ai-ai": "AI against AI (watch)",
    "humans": "Two people at one keyboard",
}
FIRST: dict[str, str] = {"you": "You", "ai": "The AI"}
BOARD_STYLES: dict[str, str] = {"modern": "Modern", "classic": "Classic"}
CONFIG_ENV = "C4TUI_CONFIG_DIR"
FILE_NAME = "settings.json"


class SettingsError(ValueError):
    """A settings value that cannot be used; the message names the field, as does `.field`.

    For an engine spec, `.key` is the spec's setting at fault (None: the engine name).
    """

    def __init__(self, field: str | None, problem: str, key: str | None = None) -> None:
        super().__init__(problem if field is None else f"{field}: {problem}")
        self.field = field
        self.problem = problem  # without the field's name, for a form to put its label
        self.key = key


@dataclass(frozen=True)
class Settings:
    """Everything the player can choose in the settings screen."""

    mode: Mode = "human-ai"
    first: First = "you"
    # The opponent in "human-ai"; the first player (●) in "ai-ai".
    opponent: str = "mcts:time=1"
    # The second player (○) in "ai-ai".
    second_opponent: str = "negamax:depth=6"
    width: int = 7
    height: int = 6
    connect: int = 4
    theme: str = "textual-dark"
    # Each column's exact result under the board whenever a person is to move (o).
    scores_overlay: bool = False
    # The overlay in the solver's numbers (as connect4.gamesolver.org), not in words.
    scores_numbers: bool = False
    # Against the AI, who moves first changes from one new game to the next.
    alternate_first: bool = False
    # Seconds between moves when two engines play (- and + change it).
    watch_delay: float = 0.4
    # A dropped disc is drawn falling down its column (TEXTUAL_ANIMATIONS=none or basic
    # turns it off too).
    animation: bool = True
    # "classic": the blue frame filled around round holes, red and yellow discs.
    board_style: Literal["modern", "classic"] = "modern"
    # Plain lines for a screen reader or braille display, no panels (reader/).
    screen_reader: bool = False

    def validate(self) -> Settings:
        """Return self, or raise SettingsError naming the first bad field."""
        # A hand-edited file may hold any JSON value: check types before using them.
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise SettingsError("mode", f"{self.mode!r} is not one of {', '.join(MODES)}")
        if not isinstance(self.first, str) or self.first not in FIRST:
            raise SettingsError("first", f"{self.first!r} is not 'you' or 'ai'")
        for name in SIZE_LIMITS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise SettingsError(name, f"{value!r} is not a whole number")
        try:
            validate_size(self.width, self.height, self.connect)
        except SizeError as error:
            raise SettingsError(error.setting, error.reason) from None
        for name in ("opponent", "second_opponent"):
            spec = getattr(self, name)
            if not isinstance(spec, str):
                raise SettingsError(name, f"{spec!r} is not an engine spec string")
            try:
                # An engine that cannot play on the board (alphazero with no network
                # for it) is refused here, not forfeited mid-game.
                parse_spec(spec, board=(self.width, self.height, self.connect))
            except SpecError as error:
                raise SettingsError(name, str(error), error.key) from None
        if not isinstance(self.board_style, str) or self.board_style not in BOARD_STYLES:
            raise SettingsError(
                "board_style", f"{self.board_style!r} is not one of {', '.join(BOARD_STYLES)}"
            )
        if not isinstance(self.theme, str) or not self.theme:
            raise SettingsError("theme", "must be a theme name")
        if not isinstance(self.alternate_first, bool):
            raise SettingsError("alternate_first", f"{self.alternate_first!r} is not true or false")
        for name in ("scores_overlay", "scores_numbers", "animation", "screen_reader"):
            if not isinstance(getattr(self, name), bool):
                raise SettingsError(name, f"{getattr(self, name)!r} is not true or false")
        delay = self.watch_delay
        if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= 60:
            raise SettingsError("watch_delay", f"{delay!r} is not a number of seconds, 0..60")
        return self

    def ai_spec(self, player: int) -> str | None:
        """The engine spec that plays `player` (0 = ●), or None for a person."""
        if self.mode == "humans":
            return None
        if self.mode == "ai-ai":
            return self.opponent if player == 0 else self.second_opponent
        ai_player = 1 if self.first == "you" else 0
        return self.opponent if player == ai_player else None

    def sides(self) -> Sides:
        """Who plays each colour in these settings."""
        return Sides(self.ai_spec(0), self.ai_spec(1))

    def playing(self, sides: Sides, width: int, height: int, connect: int) -> Settings:
        """These settings with the mode, sides and board of a game in progress.

        A kept game comes back with the sides it was played with, which need not be
        today's settings (an `--opponent` of that session, a game opened from the list):
        the settings form must show what is playing, and a new game go on with it.
        """
        board = replace(self, width=width, height=height, connect=connect)
        if sides.first is None and sides.second is None:
            return replace(board, mode="humans")
        if sides.first is not None and sides.second is not None:
            return replace(board, mode="ai-ai", opponent=sides.first, second_opponent=sides.second)
        if sides.first is not None:
            return replace(board, mode="human-ai", opponent=sides.first, first="ai")
        assert sides.second is not None  # one side is an engine here
        return replace(board, mode="human-ai", opponent=sides.second, first="you")

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """Parse and check; unknown keys are ignored, missing ones take defaults."""
        data = parse_json(text)
        if not isinstance(data, dict):
            raise SettingsError(None, "the file does not hold a JSON object")
        known = {f.name for f in fields(cls)}
        return replace(cls(), **{k: v for k, v in data.items() if k in known}).validate()


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where settings live: the argument, else $C4TUI_CONFIG_DIR, else the user config dir."""
    if override is not None:
        return Path(override)
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    from platformdirs import user_config_dir

    return Path(user_config_dir("c4tui", appauthor=False))


def load(directory: Path, *, set_damage_aside: bool = False) -> tuple[Settings, str | None]:
    """The saved settings and a notice for the player when the file could not be used.

    With `set_damage_aside` (the app's session, which will write the file), a file that
    was read but holds no settings is renamed aside (aside.py) and the notice says where,
    so the next save does not write over what a hand edit left."""
    path = directory / FILE_NAME
    try:
        text = read_text(path)
    except NoSuchFile:
        return Settings(), None
    except UnreadableFile as error:
        return Settings(), f"Could not read {path}: {error.reason}; using defaults."
    try:
        return Settings.from_json(text), None
    except (ValueError, TypeError) as error:  # DamagedFile and SettingsError too
        notice = f"Settings file {path} is unusable ({error}); using defaults"
    # When it cannot be renamed it stays; the defaults hold for this session all the same.
    with suppress(OSError):
        if set_damage_aside:
            notice += f", the file kept as {set_aside(path).name}"
    return Settings(), notice + "."


def save(settings: Settings, directory: Path) -> Path:
    """Write atomically (see files.atomic_write): never half a settings file."""
    return atomic_write(directory / FILE_NAME, settings.to_json())


def save_changes(directory: Path, **changes: object) -> Path:
    """Change some fields of the saved settings, leaving the others as the file has them
    (not as this session has them: command-line choices are for the session only)."""
    saved, _notice = load(directory)
    return save(replace(saved, **changes), directory)  # type: ignore[arg-type]  # changes name Settings fields; the file keeps what validate() passed
