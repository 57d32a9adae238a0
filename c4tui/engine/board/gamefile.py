"""The game file: one game of Connect Four as a short, versioned text file.

    c4tui-game 2
    Date: 2026-11-23T08:15:02Z
    Board: 7x6
    Connect: 4
    Player1: You
    Player2: mcts:time=1
    Result: 0-1
    Moves: 4453726...
    Variation: 44536
    Variation: 4453611
    Current: 44536

The first line names the format and its version. Headers follow, one `Key: value` a
line, in any order, keys in any case: `Date` (ISO 8601, UTC), `Board` (width x height,
default 7x6), `Connect` (default 4), `Player1` and `Player2` (a person's name or the
engine spec that played that side; ● is Player1), `Result` (`1-0`, `0-1`, `1/2-1/2`, or
`*` while the game goes on: the main line's), and `Moves` (the main line, gamesolver.org
notation, 1-based columns).

Version 2 adds the game's variations: each `Variation` line (any number, in order) is a
whole line from the start, so it can be pasted anywhere a move string goes; it branches
from the earlier lines where it first differs from all of them. `Current` (optional) is
the position that was on the board, a prefix of one of the lines.

Version 3 adds how a game ended off the board and where it was set up:
- `Ended` (optional): `resigned`, `agreed` (a draw agreed), `time` (lost on time),
  `abandoned` (a side left for good: the other claimed the win or a draw) or `forfeit`
  (an outside engine crashed, hung, printed junk or played an illegal column; on a
  server, a player who never moved and ran out of time or stayed away). The `Result`
  then says who won (`1-0` or `0-1`, `1/2-1/2` for an agreed or claimed draw) although
  the board shows no line, and the main line must not be over on the board.
- `Start` (optional): the moves the game was set up with (a pasted position), a
  prefix of one of its lines: those moves were given, not played in the game.
Each file is written in the lowest version that holds it (a game without variations,
ending or start as version 1), so an older c4tui reads what it can; every version reads.

Blank lines and lines starting with `#` are ignored. Reading checks everything and
names the line at fault; a result that the moves contradict is an error too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from c4tui.engine.board.game import Game
from c4tui.engine.board.geometry import MIN_CONNECT, validate_size
from c4tui.engine.board.notation import NotationError, format_moves
from c4tui.engine.board.position import Position

MAGIC = "c4tui-game"
VERSION = 3
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
KEYS = ("date", "board", "connect", "player1", "player2", "result", "moves")
KEYS_2 = ("variation", "current")  # version 2's; `Variation` may come any number of times
KEYS_3 = ("ended", "start")
KEYS_OF = {"1": KEYS, "2": KEYS + KEYS_2, "3": KEYS + KEYS_2 + KEYS_3}
# How a game can end off the board; a draw is agreed, or claimed when the other side left.
ENDINGS = ("resigned", "agreed", "time", "abandoned", "forfeit", "adjudicated")
# The endings that may be draws ("agreed" always is); "adjudicated": the exact solver
# ended an engine match's game with its result under perfect play.
DRAWN = ("agreed", "abandoned", "adjudicated")


class GameFileError(ValueError):
    """A game file that cannot be read; the message starts with the line at fault."""


def now_stamp() -> str:
    """The current time as a game file's Date: ISO 8601, UTC, whole seconds."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def result_of(position: Position) -> str:
    """The Result header for a position: who won, a draw, or `*` while it goes on."""
    return result_text(position.winner(), over=position.is_over())


def result_text(winner: int | None, *, over: bool = True) -> str:
    """The Result header of a game won by `winner` (0 ●, 1 ○): `1-0` or `0-1`; with no
    winner `1/2-1/2` once it is over, `*` while it goes on."""
    if winner is not None:
        return "1-0" if winner == 0 else "0-1"
    return "1/2-1/2" if over else "*"


LOST = {"resigned": "resigned", "time": "lost on time", "forfeit": "forfeited"}


def lost_words(how: str) -> str:
    """What the loser did, after their name, for a game that ended so off the board:
    "resigned", "lost on time", "forfeited", "left the game"."""
    return LOST.get(how, "left the game")


@dataclass(frozen=True)
class Ending:
    """How a game ended off the board: `how` one of ENDINGS, `winner` 0 (●), 1 (○), or
    None for a draw (agreed, or claimed by the side that stayed when the other left)."""

    how: str
    winner: int | None

    def __post_init__(self) -> None:
        if self.how == "agreed":
            fits = self.winner is None
        else:
            fits = self.winner in (0, 1) or (self.winner is None and self.how in DRAWN)
        if self.how not in ENDINGS or not fits:
            raise ValueError(f"no ending {self.how!r} with winner {self.winner!r}")

    def words(self, players: tuple[str, str] = ("●", "○")) -> str:
        """ "○ resigned", "draw agreed", "● lost on time", "○ left the game", "○ forfeited"."""
        if self.how == "adjudicated":
            winner = "a draw" if self.winner is None else f"{players[self.winner]} wins"
            return f"adjudicated by the solver: {winner}"
        if self.winner is None:
            return "draw agreed" if self.how == "agreed" else "draw claimed, a side left"
        return f"{players[1 - self.winner]} {lost_words(self.how)}"


@dataclass(frozen=True)
class GameRecord:
    """A game as kept on disk: its moves and who played them, when."""

    moves: str = ""
    width: int = 7
    height: int = 6
    connect: int = 4
    players: tuple[str, str] = ("Player 1", "Player 2")
    date: str = field(default_factory=now_stamp)
    variations: tuple[str, ...] = ()  # whole lines from the start, besides the main line
    current: str | None = None  # the position on the board, when not the main line's end
    ended: Ending | None = None  # how it ended off the board (resigned, agreed, ...)
    start: str = ""  # the moves it was set up with (a pasted position), not played in it

    @classmethod
    def of(
        cls,
        position: Position,
        players: tuple[str, str],
        date: str | None = None,
        ended: Ending | None = None,
    ) -> GameRecord:
        """The record of the game that led to `position` (ended off the board: `ended`)."""
        return cls(
            position.to_moves(),
            position.width,
            position.height,
            position.connect,
            players,
            date or now_stamp(),
            ended=ended,
        )

    @classmethod
    def of_game(
        cls,
        game: Game,
        players: tuple[str, str],
        date: str | None = None,
        ended: Ending | None = None,
        start: str = "",
    ) -> GameRecord:
        """The record of a game with its variations and the position on its board; how
        it ended off the board and the moves it was set up with, when so."""
        ends = game.line_ends()
        main = ends[0].position if ends else game.start
        lines = tuple(end.position.to_moves() for end in ends[1:])
        current = game.position.to_moves()
        return cls(
            main.to_moves(),
            main.width,
            main.height,
            main.connect,
            players,
            date or now_stamp(),
            lines,
            None if current == main.to_moves() else current,
            ended,
            start,
        )

    def game(self) -> Game:
        """The game with its lines, showing its current position (all checked when read)."""
        game = Game(Position.start(self.width, self.height, self.connect))
        for line in (self.moves, *self.variations):
            game.jump(game.start.path)
            for col in Position.from_moves(line, self.width, self.height, self.connect).path:
                game.play(col)
        current = self.moves if self.current is None else self.current
        game.jump(Position.from_moves(current, self.width, self.height, self.connect).path)
        return game

    @property
    def position(self) -> Position:
        """The position after every move of the main line (checked when read)."""
        return Position.from_moves(self.moves, self.width, self.height, self.connect)

    @property
    def result(self) -> str:
        """The Result header: an ending off the board's, else the main line's board's."""
        if self.ended is not None:
            return result_text(self.ended.winner)
        return result_of(self.position)

    @property
    def finished(self) -> bool:
        return self.result != "*"

    @property
    def plies(self) -> int:
        return len(self.moves)

    def to_text(self) -> str:
        """The lowest version that holds the game, so that any c4tui reads what it can."""
        extra = "".join(f"Variation: {line}\n" for line in self.variations)
        if self.current is not None:
            extra += f"Current: {self.current}\n"
        third = f"Ended: {self.ended.how}\n" if self.ended is not None else ""
        if self.start:
            third += f"Start: {self.start}\n"
        version = 3 if third else 2 if extra else 1
        return (
            f"{MAGIC} {version}\n"
            f"Date: {self.date}\n"
            f"Board: {self.width}x{self.height}\n"
            f"Connect: {self.connect}\n"
            f"Player1: {one_line(self.players[0])}\n"
            f"Player2: {one_line(self.players[1])}\n"
            f"Result: {self.result}\n"
            f"Moves: {self.moves}\n"
            f"{extra}{third}"
        )

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read a game file; GameFileError names the line and what is wrong."""
        lines = [
            (number, line.strip())
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")
        ]
        if not lines:
            raise GameFileError(f"line 1: empty; a game file starts with '{MAGIC} {VERSION}'")
        first_number, first = lines[0]
        magic, _, version = first.partition(" ")
        if magic != MAGIC:
            raise GameFileError(
                f"line {first_number}: expected '{MAGIC} {VERSION}', got {first[:40]!r}"
            )
        if version.strip() not in KEYS_OF:
            raise GameFileError(
                f"line {first_number}: format version {version.strip()!r} is not "
                f"supported (this c4tui reads versions 1 to {VERSION})"
            )
        keys = KEYS_OF[version.strip()]
        headers: dict[str, tuple[int, str]] = {}
        variations: list[tuple[int, str]] = []
        for number, line in lines[1:]:
            key, colon, value = line.partition(":")
            key = key.strip().lower()
            if not colon or key not in keys:
                raise GameFileError(
                    f"line {number}: expected a header such as 'Moves: 4453', got {line[:40]!r}"
                )
            if key == "variation":
                variations.append((number, value.strip()))
                continue
            if key in headers:
                raise GameFileError(f"line {number}: {key.title()} given twice")
            headers[key] = (number, value.strip())
        record = _lines(_record(headers), variations, headers.get("current"))
        return _start(record, headers.get("start"))


def one_line(name: str) -> str:
    """A player's name as a header value: no line breaks, no surrounding blanks."""
    return " ".join(name.split()) or "?"


def _record(headers: dict[str, tuple[int, str]]) -> GameRecord:
    def header(key: str, default: str) -> tuple[int, str]:
        return headers.get(key, (0, default))

    number, board = header("board", "7x6")
    width_text, x, height_text = board.lower().partition("x")
    width, height = small_number(width_text), small_number(height_text)
    if not x or width is None or height is None:
        raise GameFileError(f"line {number}: Board should look like 7x6, got {board[:40]!r}")
    connect_number, connect_text = header("connect", "4")
    connect = small_number(connect_text)
    if connect is None:
        raise GameFileError(
            f"line {connect_number}: Connect should be a number, got {connect_text[:40]!r}"
        )
    try:
        validate_size(width, height, MIN_CONNECT)
    except ValueError as error:  # the board's size out of range
        raise GameFileError(f"line {number}: {error}") from None
    try:
        validate_size(width, height, connect)
    except ValueError as error:  # connect out of range, or longer than the board
        raise GameFileError(f"line {connect_number or number}: {error}") from None
    moves_number, moves = header("moves", "")
    try:
        position = Position.from_moves(moves, width, height, connect)
    except NotationError as error:
        raise GameFileError(f"line {moves_number}: {error}") from None
    result_number, result = header("result", result_of(position))
    if result not in RESULTS:
        raise GameFileError(
            f"line {result_number}: Result should be one of {', '.join(RESULTS)}, got {result!r}"
        )
    ended = _ending(headers.get("ended"), result, position)
    if ended is None and result != result_of(position):
        raise GameFileError(
            f"line {result_number}: Result {result} does not match the moves, "
            f"which give {result_of(position)}"
        )
    date_number, date = header("date", "")
    if date:
        try:
            datetime.fromisoformat(date.replace("Z", "+00:00"))
        except ValueError:
            raise GameFileError(
                f"line {date_number}: Date should be ISO 8601 (2026-11-23T08:15:02Z), got {date!r}"
            ) from None
    players = (header("player1", "Player 1")[1] or "?", header("player2", "Player 2")[1] or "?")
    return GameRecord(moves, width, height, connect, players, date, ended=ended)


def _ending(ended: tuple[int, str] | None, result: str, position: Position) -> Ending | None:
    """The Ended header checked against the Result and the board; None when not given."""
    if ended is None:
        return None
    number, how = ended
    if how not in ENDINGS:
        raise GameFileError(
            f"line {number}: Ended should be one of {', '.join(ENDINGS)}, got {how[:40]!r}"
        )
    if position.is_over():
        raise GameFileError(f"line {number}: Ended {how}, but the board ended the game already")
    winners = {"1-0": 0, "0-1": 1, "1/2-1/2": None}
    drawn = winners.get(result, 0) is None
    if result not in winners or (how == "agreed" and not drawn) or (drawn and how not in DRAWN):
        wanted = {"agreed": "1/2-1/2", "abandoned": "1-0, 0-1 or 1/2-1/2"}.get(how, "1-0 or 0-1")
        raise GameFileError(f"line {number}: Ended {how} needs the Result {wanted}, not {result}")
    return Ending(how, winners[result])


def small_number(text: str) -> int | None:
    """A board dimension written in ASCII digits (at most three), else None.

    Not `str.isdigit`: it accepts '²', which int() refuses, and a number thousands of
    digits long, which int() refuses too; the board's range is checked after.
    """
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def _lines(
    record: GameRecord, variations: list[tuple[int, str]], current: tuple[int, str] | None
) -> GameRecord:
    """The record with version 2's variations and current position, each checked."""
    size = (record.width, record.height, record.connect)
    lines = [record.moves]
    for number, moves in variations:
        try:
            Position.from_moves(moves, *size)
        except NotationError as error:
            raise GameFileError(f"line {number}: {error}") from None
        lines.append(moves)
    if current is None:
        return replace(record, variations=tuple(lines[1:]))
    number, moves = current
    try:
        shown = format_moves(Position.from_moves(moves, *size).path)
    except NotationError as error:
        raise GameFileError(f"line {number}: {error}") from None
    if not any(line.startswith(shown) for line in lines):
        raise GameFileError(f"line {number}: Current {moves!r} is not on any line of the game")
    return replace(record, variations=tuple(lines[1:]), current=shown)


def _start(record: GameRecord, start: tuple[int, str] | None) -> GameRecord:
    """The record with version 3's Start, checked: a prefix of one of its lines."""
    if start is None:
        return record
    number, moves = start
    size = (record.width, record.height, record.connect)
    try:
        shown = format_moves(Position.from_moves(moves, *size).path)
    except NotationError as error:
        raise GameFileError(f"line {number}: {error}") from None
    if not any(line.startswith(shown) for line in (record.moves, *record.variations)):
        raise GameFileError(f"line {number}: Start {moves!r} is not on any line of the game")
    return replace(record, start=shown)
