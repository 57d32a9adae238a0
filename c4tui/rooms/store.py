"""The service's state directory: rooms kept after every move, finished games per identity.

    <state>/rooms/<number>.c4            a room: its game file, then one comment line
                                         "# c4tui-room {...}" with the seats and offers
    <state>/players/<digest>/games/*.c4  the games of one identity, kept when they end or
                                         the room closes (a digest of its key, so no name
                                         or key ends up in a path)
    <state>/run/                         the socket's directory (0700; service.py)

A room is one file, written atomically (`files.atomic_write`) after every change: a kill
at any moment leaves the room as it was before or after the change, never between, and
the temporary file such a kill leaves is removed at the next start. The game file's
readers skip comment lines, so `c4tui review <state>/rooms/3.c4` reads it as it is.

A room file is checked whole before a room is made of it: its game as any game file
is, its room line against `RoomLine` (codec.py), so a tampered or damaged file (offers
that are a list, `winner: 5`, a name that is a path) is set aside as
`<name>.damaged` (`.damaged-2`, ... when that is taken) with one log line, and the
server starts with the others. Two files that claim one room number are both kept: the
second gets a free number.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import Ending, GameFileError, GameRecord
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.files import UnreadableFile, atomic_write, read_text
from c4tui.rooms.access import new_code
from c4tui.rooms.codec import Between, Items, Matches, ShapeError, Text, dumps, from_wire, loads
from c4tui.rooms.protocol import MAX_TEXT, escaped
from c4tui.rooms.room import Room, Seat

log = logging.getLogger("c4tui.rooms")
ROOM_LINE = "# c4tui-room "
SUFFIX = ".c4"
DAMAGED = ".damaged"
# What atomic_write leaves behind when killed mid-write: ".<name>-<12 hex digits>".
TEMPORARY = re.compile(r"\..+-[0-9a-f]{12}")
# A kept game's name is a file name, never a path (new_game_name makes them so).
GAME_NAME = Matches(r"[0-9A-Za-z][0-9A-Za-z_-]{0,63}", "a file name of letters, digits, - and _")
_counter = itertools.count(1)


def new_game_name(room: int) -> str:
    """A kept game's name: sorts by when it started ("20261123-211502-r3-000001")."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-r{room}-{next(_counter):06d}"


@dataclass(frozen=True)
class SeatLine:
    """A seat as a room file keeps it."""

    key: Annotated[str, Text(300)] | None
    name: Annotated[str, Text(MAX_TEXT, shortest=0)]
    ai: Annotated[str, Text(MAX_TEXT)] | None
    code: Annotated[str, Text(20, shortest=0)]


@dataclass(frozen=True)
class RoomLine:
    """The room line of a room file: everything of a room but its game."""

    number: Annotated[int, Between(1, 1 << 31)]
    code: Annotated[str, Text(20)]
    public: bool
    name: Annotated[str, GAME_NAME]
    seats: Annotated[tuple[SeatLine, ...], Items(2, 2)]
    ended: Annotated[str, Text(20)] | None
    winner: Literal[0, 1] | None
    offers: dict[Literal["draw", "take_back"], Literal[0, 1]]


class RoomFileError(ValueError):
    """A room file that cannot be a room; the message says why (one line, for the log)."""


class RoomStore:
    """Reads and writes the rooms and the kept games under one state directory."""

    def __init__(self, state_dir: Path) -> None:
        self.rooms_dir = state_dir / "rooms"
        self.players_dir = state_dir / "players"

    def path(self, number: int) -> Path:
        return self.rooms_dir / f"{number}{SUFFIX}"

    def make_private(self) -> None:
        """The rooms and games directories, readable by the server's user alone (a room
        file holds seat codes)."""
        for directory in (self.rooms_dir, self.players_dir):
            directory.mkdir(parents=True, exist_ok=True)
            directory.chmod(0o700)

    def keep(self, room: Room) -> None:
        """Write the room whole (OSError when the disk is full or read-only)."""
        atomic_write(self.path(room.number), room_text(room))

    def forget(self, room: Room) -> None:
        self.path(room.number).unlink(missing_ok=True)

    def load(self) -> list[Room]:
        """Every room kept, oldest number first; a damaged file is set aside, a room
        whose number another file has already claimed gets a free one."""
        self.sweep_temporary()
        found: list[tuple[Path, Room]] = []
        for path in self._room_files():
            try:
                found.append((path, read_room(path)))
            except (UnreadableFile, GameFileError, RoomFileError) as error:
                self.set_aside(path, str(error))
        # A file named for its number has the first claim to it; then the files in order.
        found.sort(key=lambda item: item[0].name != f"{item[1].number}{SUFFIX}")
        rooms: dict[int, Room] = {}
        for path, room in found:
            if room.number in rooms or path.name != f"{room.number}{SUFFIX}":
                self._renumber(path, room, rooms, [r for _, r in found])
            rooms[room.number] = room
        return [rooms[number] for number in sorted(rooms)]

    def _room_files(self) -> list[Path]:
        try:
            paths = [p for p in self.rooms_dir.iterdir() if p.suffix == SUFFIX]
        except OSError:
            return []
        return sorted(
            (p for p in paths if not p.name.startswith(".")),
            key=lambda p: (len(p.stem), p.stem),
        )

    def _renumber(self, path: Path, room: Room, rooms: dict[int, Room], every: list[Room]) -> None:
        """Give a room a number (and codes) nobody else has; kept under its new name
        before the old file goes, so a failure loses nothing."""
        taken = set(rooms) | {r.number for r in every}
        old = room.number
        room.number = max(taken) + 1
        codes = {r.code for r in rooms.values()} | {s.code for r in rooms.values() for s in r.seats}
        if room.code in codes:
            room.code = new_code(lambda code: code in codes)
        for seat in room.seats:
            if seat.key is not None and seat.code in codes:
                seat.code = new_code(lambda code: code in codes)
        log.warning(
            "room file %s: room %d is another file's too: kept as room %d",
            escaped(path.name),
            old,
            room.number,
        )
        try:
            self.keep(room)
            path.unlink()
        except OSError as error:
            log.warning("room %d: could not keep it under its new number: %s", room.number, error)

    def set_aside(self, path: Path, reason: str) -> None:
        """Rename a room file that cannot be read to a name of its own (never over
        another's), with one log line; a file that cannot be renamed stays where it is."""
        for attempt in range(1, 1000):
            aside = path.with_name(path.name + DAMAGED + ("" if attempt == 1 else f"-{attempt}"))
            if aside.exists() or aside.is_symlink():
                continue
            try:
                path.rename(aside)
            except OSError as error:
                log.warning(
                    "room file %s cannot be read (%s); nor set aside: %s",
                    escaped(path.name),
                    reason,
                    error.strerror or error,
                )
                return
            log.warning(
                "room file %s cannot be read (%s): set aside as %s",
                escaped(path.name),
                reason,
                escaped(aside.name),
            )
            return

    def sweep_temporary(self) -> None:
        """Remove the temporary files a kill in the middle of a write left behind (in the
        rooms, the kept games, and the state directory itself: names.json's)."""
        places = [self.rooms_dir.parent, self.rooms_dir]
        with contextlib.suppress(OSError):
            places += [p / "games" for p in self.players_dir.iterdir()]
        swept = 0
        for place in places:
            try:
                leftovers = [p for p in place.iterdir() if TEMPORARY.fullmatch(p.name)]
            except OSError:
                continue
            for leftover in leftovers:
                if leftover.is_file() and not leftover.is_symlink():
                    leftover.unlink(missing_ok=True)
                    swept += 1
        if swept:
            log.info("removed %d temporary files left by an interrupted write", swept)

    def games_dir(self, key: str) -> Path:
        """Where the finished games of the identity with this key are kept."""
        digest = hashlib.sha256(key.encode()).hexdigest()[:24]
        return self.players_dir / digest / "games"

    def archive(self, room: Room) -> None:
        """Keep the room's game for each person who played it (again: it replaces)."""
        if GAME_NAME.check(room.name) is not None:  # never a path (read_room checks it too)
            raise OSError(f"room {room.number}: {room.name[:40]!r} is not a game's name")
        text = room.record().to_text()  # its Result and Ended say how it ended
        for seat in room.seats:
            if seat.key is not None:
                atomic_write(self.games_dir(seat.key) / f"{room.name}{SUFFIX}", text)

    def kept_games(self, key: str, limit: int = 50) -> list[tuple[str, str]]:
        """The newest games of one identity, as (name, game file text)."""
        games = []
        try:
            paths = sorted(self.games_dir(key).glob(f"*{SUFFIX}"), reverse=True)[:limit]
        except OSError:
            return []
        for path in paths:
            try:
                games.append((path.stem, read_text(path)))
            except UnreadableFile:
                continue
        return games


def room_text(room: Room) -> str:
    """A room as its file holds it: the game file, then the room's own line."""
    line = RoomLine(
        number=room.number,
        code=room.code,
        public=room.public,
        name=room.name,
        seats=tuple(SeatLine(s.key, s.name, s.ai, s.code) for s in room.seats),
        ended=room.ended,
        winner=room.winner,  # type: ignore[arg-type]  # a seat, 0 or 1, as the room keeps it
        offers=dict(room.offers),  # type: ignore[arg-type]  # offers are checked on the way in
    )
    return room.record().to_text() + ROOM_LINE + dumps(line) + "\n"


def read_room(path: Path) -> Room:
    """A room from its file; RoomFileError (or the game file's own error) says what is wrong."""
    text = read_text(path)
    record = GameRecord.from_text(text)
    lines = [line for line in text.splitlines() if line.startswith(ROOM_LINE)]
    if len(lines) != 1:
        raise RoomFileError("no room line" if not lines else "more than one room line")
    try:
        meta = from_wire(RoomLine, loads(lines[0][len(ROOM_LINE) :]), "room line")
    except ShapeError as error:
        raise RoomFileError(str(error)) from None
    for seat in meta.seats:
        if seat.ai is not None:
            try:
                parse_spec(seat.ai)
            except SpecError as error:
                raise RoomFileError(f"an AI seat: {error}") from None
    try:
        game = Game.from_moves(record.moves, record.width, record.height, record.connect)
    except ValueError as error:
        raise RoomFileError(str(error)) from None
    if meta.ended is not None:
        try:
            Ending(meta.ended, meta.winner)  # only an ending a game file can say
        except ValueError as error:
            raise RoomFileError(str(error)) from None
    return Room(
        number=meta.number,
        code=meta.code,
        game=game,
        seats=[Seat(key=s.key, name=s.name, ai=s.ai, code=s.code) for s in meta.seats],
        public=meta.public,
        name=meta.name,
        date=record.date,
        ended=meta.ended,
        winner=meta.winner if meta.ended is not None else None,
        offers={kind: side for kind, side in meta.offers.items()},
    )
