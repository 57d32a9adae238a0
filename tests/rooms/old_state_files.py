"""A state directory as `c4tui serve` wrote it before the database, for the upgrade's
tests: room files with their "# c4tui-room" line, kept games under a digest of each key,
names.json. Written as the server of that time wrote them (its rooms/store.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from c4tui.server.rooms.old_state import ROOM_LINE, RoomLine, SeatLine
from c4tui.server.rooms.room import Room
from c4tui.server.wire.codec import dumps


def room_text(room: Room) -> str:
    line = RoomLine(
        number=room.number,
        code=room.code,
        public=room.public,
        name=room.name,
        seats=tuple(SeatLine(s.key, s.name, s.ai, s.code) for s in room.seats),
        ended=room.ended,
        winner=room.winner,
        offers=dict(room.offers),
    )
    return room.record().to_text() + ROOM_LINE + dumps(line) + "\n"


def write_room(state: Path, room: Room, file_name: str | None = None, **changes) -> Path:
    """A room file, its room line changed as `changes` say."""
    game, line = room_text(room).split(ROOM_LINE)
    meta = {**json.loads(line), **changes}
    path = state / "rooms" / (file_name or f"{room.number}.c4")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(game + ROOM_LINE + json.dumps(meta) + "\n")
    return path


def games_dir(state: Path, key: str) -> Path:
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return state / "players" / digest / "games"


def write_kept_game(state: Path, key: str, name: str, room: Room) -> Path:
    path = games_dir(state, key) / f"{name}.c4"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(room.record().to_text())
    return path


def write_names(state: Path, owners: dict[str, str]) -> None:
    (state / "names.json").write_text(json.dumps(owners))
