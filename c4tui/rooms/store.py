"""The service's state directory: rooms kept after every move, finished games per identity.

    <state>/rooms/<number>.c4            a room: its game file, then one comment line
                                         "# c4tui-room {...}" with the seats and offers
    <state>/players/<digest>/games/*.c4  the games of one identity, kept when they end or
                                         the room closes (a digest of its key, so no name
                                         or key ends up in a path)
    <state>/run/                         the socket's directory (0700; service.py)

A room is one file, written atomically (`files.atomic_write`) after every change: a kill
at any moment leaves the room as it was before or after the change, never between. The
game file's readers skip comment lines, so `c4tui review <state>/rooms/3.c4` reads it as
it is. A file that cannot be read is set aside as `<name>.damaged`, with a log line.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
from datetime import UTC, datetime
from pathlib import Path

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.files import UnreadableFile, atomic_write, read_text
from c4tui.rooms.room import Room, Seat

log = logging.getLogger("c4tui.rooms")
ROOM_LINE = "# c4tui-room "
SUFFIX = ".c4"
_counter = itertools.count(1)


def new_game_name(room: int) -> str:
    """A kept game's name: sorts by when it started ("20261123-211502-r3-000001")."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-r{room}-{next(_counter):06d}"


class RoomStore:
    """Reads and writes the rooms and the kept games under one state directory."""

    def __init__(self, state_dir: Path) -> None:
        self.rooms_dir = state_dir / "rooms"
        self.players_dir = state_dir / "players"

    def path(self, number: int) -> Path:
        return self.rooms_dir / f"{number}.c4"

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
        """Every room kept, oldest number first; a damaged file is set aside."""
        rooms = []
        try:
            paths = sorted(self.rooms_dir.glob("*.c4"), key=lambda p: (len(p.stem), p.stem))
        except OSError:
            return []
        for path in paths:
            try:
                rooms.append(read_room(path))
            except (UnreadableFile, GameFileError, ValueError, KeyError, TypeError) as error:
                log.warning("room file %s cannot be read (%s): set aside", path, error)
                path.rename(path.with_suffix(".damaged"))
        return rooms

    def games_dir(self, key: str) -> Path:
        """Where the finished games of the identity with this key are kept."""
        digest = hashlib.sha256(key.encode()).hexdigest()[:24]
        return self.players_dir / digest / "games"

    def archive(self, room: Room) -> None:
        """Keep the room's game for each person who played it (again: it replaces)."""
        text = room.record().to_text()
        if room.ended is not None:
            loser = room.seats[1 - room.winner] if room.winner is not None else None
            text += f"# Ended: {loser.recorded()} resigned\n" if loser else "# Ended: draw agreed\n"
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
    meta = {
        "number": room.number,
        "code": room.code,
        "public": room.public,
        "name": room.name,
        "seats": [
            {"key": seat.key, "name": seat.name, "ai": seat.ai, "code": seat.code}
            for seat in room.seats
        ],
        "ended": room.ended,
        "winner": room.winner,
        "offers": room.offers,
    }
    return room.record().to_text() + ROOM_LINE + json.dumps(meta) + "\n"


def read_room(path: Path) -> Room:
    """A room from its file; the game is checked as any game file is."""
    text = read_text(path)
    record = GameRecord.from_text(text)
    lines = [line for line in text.splitlines() if line.startswith(ROOM_LINE)]
    if len(lines) != 1:
        raise ValueError("no room line")
    meta = json.loads(lines[0][len(ROOM_LINE) :])
    seats = [
        Seat(key=s["key"], name=str(s["name"]), ai=s["ai"], code=str(s["code"]))
        for s in meta["seats"]
    ]
    if len(seats) != 2:
        raise ValueError("a room has two seats")
    game = Game.from_moves(record.moves, record.width, record.height, record.connect)
    offers = {str(k): int(v) for k, v in meta["offers"].items()}
    return Room(
        number=int(meta["number"]),
        code=str(meta["code"]),
        game=game,
        seats=seats,
        public=bool(meta["public"]),
        name=str(meta["name"]),
        date=record.date,
        ended=meta["ended"],
        winner=meta["winner"],
        offers=offers,
    )
