"""The state directory before the database: read once, brought into the store, set aside.

Until the store, `c4tui serve` kept its state in files:

    <state>/rooms/<number>.c4            a room: its game file, then one comment line
                                         "# c4tui-room {...}" with the seats and offers
    <state>/players/<digest>/games/*.c4  the games of one identity (a digest of its key)
    <state>/names.json                   which ssh key holds each name (casefolded)

A server started on such a directory brings them into the database in one transaction
(rooms, kept games, names), records that it did (the `imports` table), and then moves
the files into `<state>/before-database/`, never deleting them. A kill before the
commit leaves the files to be brought in at the next start; a kill after it, the files
to be set aside (the record says they are in already). A file that cannot be read is
left out with one log line, and stays among the files set aside.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import Ending, GameFileError, GameRecord
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.files import DamagedFile, NoSuchFile, UnreadableFile, parse_json, read_text
from c4tui.server.rooms.keeping import RoomKeeper, new_game_name
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.store import Store, now
from c4tui.server.wire.codec import Between, Items, Matches, ShapeError, Text, from_wire, loads
from c4tui.server.wire.protocol import MAX_TEXT, escaped

log = logging.getLogger("c4tui.server")
ROOM_LINE = "# c4tui-room "
SOURCE = "state-files"  # its row in the imports table
OLD_PLACES = ("rooms", "players", "names.json")
ASIDE = "before-database"
GAME_NAME = Matches(r"[0-9A-Za-z][0-9A-Za-z_-]{0,63}", "a file name of letters, digits, - and _")
DIGEST = Matches(r"[0-9a-f]{24}", "24 hex digits")


@dataclass(frozen=True)
class SeatLine:
    """A seat as a room file kept it."""

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


def read_room(path: Path) -> Room:
    """A room from its file; ValueError (or UnreadableFile) says what is wrong."""
    text = read_text(path)
    record = GameRecord.from_text(text)
    lines = [line for line in text.splitlines() if line.startswith(ROOM_LINE)]
    if len(lines) != 1:
        raise ValueError("no room line" if not lines else "more than one room line")
    try:
        meta = from_wire(RoomLine, loads(lines[0][len(ROOM_LINE) :]), "room line")
        for seat in meta.seats:
            if seat.ai is not None:
                parse_spec(seat.ai)
        if meta.ended is not None:
            Ending(meta.ended, meta.winner)  # only an ending a game file can say
    except (ShapeError, SpecError) as error:
        raise ValueError(str(error)) from None
    return Room(
        number=meta.number,
        code=meta.code,
        game=Game.from_moves(record.moves, record.width, record.height, record.connect),
        seats=[Seat(key=s.key, name=s.name, ai=s.ai, code=s.code) for s in meta.seats],
        public=meta.public,
        name=meta.name,
        date=record.date,
        ended=meta.ended,
        winner=meta.winner if meta.ended is not None else None,
        offers={str(kind): int(seat) for kind, seat in meta.offers.items()},
    )


def bring_in(state_dir: Path, store: Store) -> str | None:
    """Bring the files of a state directory from before the database into `store`, once,
    and set them aside; what was brought in, in words (None: there were no such files)."""
    if not any((state_dir / place).exists() for place in OLD_PLACES):
        return None
    done = store.value("SELECT summary FROM imports WHERE source = ?", (SOURCE,))
    if done is None:
        with store.transaction():
            rooms = _rooms(state_dir / "rooms", RoomKeeper(store))
            games = _games(state_dir / "players", GameRecords(store))
            names = _names(state_dir / "names.json", PlayerRecords(store))
            done = f"{rooms} rooms, {games} kept games and {names} names"
            store.execute(
                "INSERT INTO imports (source, done, summary) VALUES (?, ?, ?)",
                (SOURCE, now(), done),
            )
    aside = _set_aside(state_dir)
    log.warning("brought %s into the database; the files are kept in %s", done, aside)
    return str(done)


def _rooms(folder: Path, keeper: RoomKeeper) -> int:
    taken: set[int] = set()
    with contextlib.suppress(OSError):
        for path in sorted(folder.glob("*.c4"), key=lambda p: (len(p.stem), p.stem)):
            try:
                room = read_room(path)
            except (OSError, ValueError) as error:
                log.warning("room file %s left out: %s", escaped(path.name), error)
                continue
            if room.number in taken:  # a copy claiming another's number: a number of its own
                room.number = max(taken) + 1
                room.name = new_game_name(room.number)  # and a game of its own
            taken.add(room.number)
            keeper.keep(room)
    return len(taken)


def _games(folder: Path, games: GameRecords) -> int:
    count = 0
    with contextlib.suppress(OSError):
        for path in sorted(folder.glob("*/games/*.c4")):
            digest = path.parent.parent.name
            if GAME_NAME.check(path.stem) is not None or DIGEST.check(digest) is not None:
                continue
            game = games.id_of(path.stem)  # a room's game is in already, and newer
            if game is None:
                try:
                    record = GameRecord.from_text(read_text(path))
                    game = games.keep(path.stem, record)
                except (UnreadableFile, GameFileError) as error:
                    log.warning("kept game %s left out: %s", escaped(path.name), error)
                    continue
            games.hold_for(game, [digest])
            count += 1
    return count


def _names(path: Path, players: PlayerRecords) -> int:
    try:
        owners = parse_json(read_text(path))
    except NoSuchFile:
        return 0
    except (UnreadableFile, DamagedFile) as error:
        log.warning("names file %s left out: %s", path.name, error)
        return 0
    if not isinstance(owners, dict):
        return 0
    claimed = [
        players.claim(str(name), key) for name, key in owners.items() if isinstance(key, str)
    ]
    return sum(claimed)


def _set_aside(state_dir: Path) -> Path:
    """Move the old files into a folder of their own (never over an earlier one's)."""
    aside = state_dir / ASIDE
    for attempt in range(2, 1000):
        if not aside.exists() or not any(aside.iterdir()):
            break
        aside = state_dir / f"{ASIDE}-{attempt}"
    aside.mkdir(mode=0o700, exist_ok=True)
    for place in OLD_PLACES:
        with contextlib.suppress(FileNotFoundError):
            (state_dir / place).rename(aside / place)
    return aside
