"""A Swiss tournament from registration to its final standings: the rules, no I/O.

Why Swiss and not an arena: a Connect Four game between people takes minutes, so a
tournament of an evening has few rounds, and a Swiss gives everyone the same number of
games (nobody farms quick wins against the weakest, as in an arena), each against a
player of about their score, with colours balanced (the first move is a big advantage
in Connect Four: see swiss.py). Standings and tie-breaks: swiss_standings.py.

The life of a tournament (`phase`):

    registration --begin()--> playing --(each round: record() every board, then
    advance())--> finished            registration --begin() with too few--> cancelled

- registration: players `join` and `leave` until `starts_at` (`due`).
- playing: `begin` pairs round 1; a round's boards each become a game (the room service
  makes the room and tells `seat`); `record` takes each game's result; when every board
  of the round has one (`round_over`), `advance` pairs the next round, or finishes the
  tournament after its last round. A player who leaves while it plays is withdrawn: not
  paired again, their results stand. Between rounds the room service may pause, so every
  player sees the end of their game before the next one opens: `next_round_at` is when
  the next round is paired (None when no pause is on).
- finished: `standings` is the final table.

No clock of its own: every method that needs the time is given it (`now`, seconds since
the epoch), so tests move time as they like. `to_plain` / `from_plain` give the whole
tournament as JSON-ready values for the store.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from c4tui.community.swiss import FIRST, SECOND, Entrant, pair_round
from c4tui.community.swiss_standings import DRAW, LOSS, WIN, Result, Standing, standings

Phase = Literal["registration", "playing", "finished", "cancelled"]
MIN_PLAYERS = 2
MAX_PLAYERS = 64
MAX_ROUNDS = 15
OPERATOR = "the operator"  # the maker's name of a tournament made by `c4tui serve`


@dataclass
class Entry:
    """A player in the tournament, with the rating they came in with."""

    key: str
    name: str
    rating: float = 1500.0
    withdrawn: bool = False


@dataclass
class Board:
    """One game of a round: ● (`first`) against ○, its room, and its result once over."""

    first: str
    second: str
    room: int | None = None
    points: float | None = None  # the ● player's: 1, ½ or 0
    how: str | None = None  # how the game ended, in the room's words

    @property
    def over(self) -> bool:
        return self.points is not None


@dataclass
class Round:
    number: int
    boards: list[Board]
    bye: str | None = None

    @property
    def over(self) -> bool:
        return all(board.over for board in self.boards)


@dataclass
class Tournament:
    """One Swiss tournament (see the module docstring)."""

    number: int
    name: str
    maker: str  # the name of who made it, or OPERATOR
    control: str  # the time control of every game, as clocks.TimeControl writes it: "5+3"
    rounds_planned: int
    starts_at: float  # seconds since the epoch
    phase: Phase = "registration"
    entries: dict[str, Entry] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    note: str | None = None  # why it was cancelled, or ended before its last round
    next_round_at: float | None = None  # between rounds: when the next one is paired

    # ---- registration -----------------------------------------------------------

    def join(self, key: str, name: str, rating: float = 1500.0) -> str | None:
        """A player enters; or why not."""
        if self.phase != "registration":
            return "The tournament has begun: entries are closed."
        if key in self.entries:
            return "You are in this tournament already."
        if len(self.entries) >= MAX_PLAYERS:
            return f"The tournament is full ({MAX_PLAYERS} players)."
        self.entries[key] = Entry(key, name, rating)
        return None

    def leave(self, key: str) -> str | None:
        """A player leaves: before the start they are gone, after it withdrawn from the
        rounds to come (their games so far stand)."""
        entry = self.entries.get(key)
        if entry is None or entry.withdrawn:
            return "You are not in this tournament."
        if self.phase == "registration":
            del self.entries[key]
        elif self.phase == "playing":
            entry.withdrawn = True
        else:
            return "The tournament is over."
        return None

    def due(self, now: float) -> bool:
        """Whether it is time to begin."""
        return self.phase == "registration" and now >= self.starts_at

    # ---- rounds -----------------------------------------------------------------

    def begin(self) -> Round | None:
        """The first round's pairings; None, and cancelled, with too few players."""
        if self.phase != "registration":
            raise ValueError(f"the tournament is {self.phase}, not in registration")
        players = len(self.entries)
        if players < MIN_PLAYERS:
            self.phase = "cancelled"
            self.note = f"Cancelled: {players} player(s) at the start, {MIN_PLAYERS} needed."
            return None
        # Without meeting anyone twice, n players have n - 1 rounds (n with a bye each).
        most = players if players % 2 else players - 1
        if self.rounds_planned > most:
            self.note = f"{most} rounds: all that {players} players can play without a rematch."
            self.rounds_planned = most
        self.phase = "playing"
        return self._pair()

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round_over(self) -> bool:
        current = self.current
        return self.phase == "playing" and current is not None and current.over

    def record(self, room: int, points: float, how: str) -> Board | None:
        """The result of the current round's game in `room` (the ● player's points);
        the board, or None when no game of this round is in that room or it is over."""
        if points not in (WIN, DRAW, LOSS):
            raise ValueError(f"points of a game are 1, 0.5 or 0, not {points}")
        board = self.board_in(room)
        if board is None or board.over:
            return None
        board.points, board.how = points, how
        return board

    def last_round(self) -> bool:
        """Whether the round under way (or just over) is the last one planned."""
        return len(self.rounds) >= self.rounds_planned

    def advance(self) -> Round | None:
        """After a round: the next one's pairings, or None when the tournament is over."""
        if not self.round_over():
            raise ValueError("the round is not over")
        self.next_round_at = None
        if self.last_round():
            self.phase = "finished"
            return None
        return self._pair()

    def _pair(self) -> Round | None:
        active = [e for e in self.entries.values() if not e.withdrawn]
        more = len(self.rounds) + 1 < self.rounds_planned
        entrants = [self._entrant(e) for e in active]
        pairing = pair_round(entrants, more_rounds=more) if len(active) > 1 else None
        if pairing is None:
            self.phase = "finished"
            played = len(self.rounds)
            self.note = (
                f"Ended after round {played}: no pairing of the next keeps the rules "
                "(no rematches, colours balanced)."
            )
            return None
        boards = [Board(game.first, game.second) for game in pairing.games]
        self.rounds.append(Round(len(self.rounds) + 1, boards, pairing.bye))
        return self.rounds[-1]

    def _entrant(self, entry: Entry) -> Entrant:
        colours, met, bye = [], set(), False
        for done in self.rounds:
            bye = bye or done.bye == entry.key
            for board in done.boards:
                if entry.key in (board.first, board.second):
                    colours.append(FIRST if board.first == entry.key else SECOND)
                    met.add(board.second if board.first == entry.key else board.first)
        return Entrant(
            entry.key, self.points(entry.key), entry.rating, "".join(colours), frozenset(met), bye
        )

    def board_in(self, room: int) -> Board | None:
        """The current round's board played in this room."""
        current = self.current
        if current is None or self.phase != "playing":
            return None
        return next((b for b in current.boards if b.room == room), None)

    def board_of(self, key: str) -> Board | None:
        """This player's board in the current round, if they play in it."""
        current = self.current
        if current is None or self.phase != "playing":
            return None
        return next((b for b in current.boards if key in (b.first, b.second)), None)

    # ---- standings --------------------------------------------------------------

    def results(self) -> list[Result]:
        return [
            Result(board.first, board.second, board.points)
            for done in self.rounds
            for board in done.boards
            if board.points is not None
        ]

    def points(self, key: str) -> float:
        table = {s.key: s.points for s in self.standings()}
        return table.get(key, 0.0)

    def standings(self) -> list[Standing]:
        byes = [done.bye for done in self.rounds if done.bye is not None]
        ratings = {key: e.rating for key, e in self.entries.items()}
        return standings(list(self.entries), self.results(), byes, ratings)

    # ---- kept -------------------------------------------------------------------

    def to_plain(self) -> dict[str, Any]:
        """The whole tournament as JSON-ready values (for the store)."""
        plain = asdict(self)
        plain["entries"] = list(plain["entries"].values())
        return plain

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> Tournament:
        """A tournament `to_plain` gave; ValueError when it is not one."""
        try:
            entries = {e["key"]: Entry(**e) for e in plain["entries"]}
            rounds = [
                Round(r["number"], [Board(**b) for b in r["boards"]], r["bye"])
                for r in plain["rounds"]
            ]
            fields = {k: v for k, v in plain.items() if k not in ("entries", "rounds")}
            return cls(**fields, entries=entries, rounds=rounds)
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a kept tournament: {error}") from None
