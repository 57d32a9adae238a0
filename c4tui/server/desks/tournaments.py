"""TournamentDesk: the Swiss tournaments of the room service, from entry to standings.

The rules are c4tui/community/tournament.py's; this desk runs them on the server:

- Any player makes a tournament (a name, a time control, a number of rounds and a start
  in so many minutes; `make_tournament`) and is its first entrant; players `enter` and
  `withdraw` from the tournaments screen. The operator makes one with
  `c4tui serve --tournament` (made at start when none of that name is waiting).
- At its start time (looked at every TICK), or earlier when its maker begins it, round
  1 is paired. Each board gets a room of its own (private: nobody joins it by a code),
  with the two players seated, ● first, and the tournament's time control on its clock:
  players who are online are taken into their room, the others find it when they log
  in. A tournament seat is never given up before the game's end: the clock decides, and
  a player who never comes loses on it (a side that never moved forfeits, clocks.py),
  is not rated for it, and is withdrawn from the rounds after.
- Every change to a tournament room comes here (a HostListener's `changing`): a game
  that ends gives its board the result (every tournament game is rated, in its control's class:
  its room is a rated room, whose end moves the ratings as any's: matchmaking.py); when
  the round's last game ends, the next round is paired and seated after a pause
  (`RoomLimits.round_pause`, `c4tui serve --round-pause`, 15 s), so the players of that
  game see how it ended before their next game takes them away, and everyone is told
  when the next round starts ("round 2 starts in 10 s", again every PAUSE_NOTICE
  seconds); after the last round the standings are final at once.
  Players enter with their rating in that class, which orders the first pairing.
- Spectators follow any board from the tournament screen with the rooms' own `watch`.
- The tournaments are kept in the store after every change (tournament_records.py), so a
  restarted server has each one back with its rounds, and its games in their rooms.
- Several servers on one database (docs/community-store.md, "Tournaments across
  servers"): every server lists every tournament and takes entries, withdrawals and its
  rooms' results, each change made under the tournaments' lock on the tournament as the
  store has it (`change`) and told over the bus (tourney.changed: the others read it
  again); one server runs each (a lease: tournament_runners.py): it begins it, pairs and
  seats its rounds, and sends its players on every server into their rooms
  (tourney.seated, relayed when the room is another's) and its notices (tourney.tell).
  A server that takes over a tournament goes on from the store (`resume`).

The rounds (begun, paired, seated, recorded, paused between) are tournament_rounds.py's;
who sees the tournaments and what each is sent (the list, a followed tournament's
standings and boards) is tournament_audience.py's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from c4tui.community.clocks import TimeControl
from c4tui.community.glicko2 import NEWCOMER
from c4tui.community.tournament import MAX_ROUNDS, OPERATOR, Tournament
from c4tui.server.cluster.tournament_runners import TournamentRunners
from c4tui.server.desks.tournament_audience import TournamentAudience
from c4tui.server.desks.tournament_rounds import TournamentRounds
from c4tui.server.desks.tournament_seats import TournamentSeats
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener, Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.room import Room
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords
from c4tui.server.store.store import StoreError
from c4tui.server.store.tournament_records import TournamentRecords
from c4tui.server.wire.protocol import Message
from c4tui.server.wire.tournament_messages import (
    BeginTournament,
    EnterTournament,
    FollowTournament,
    MakeTournament,
    Withdraw,
)

log = logging.getLogger("c4tui.server")
TICK = 1.0  # seconds between looks at the start times
OPEN_PER_MAKER = 1  # tournaments one player may have waiting for their start
MOST_AT_ONCE = 20  # tournaments not yet over on the server
KEPT_OVER = 10  # finished or cancelled tournaments still listed (the latest)
T = TypeVar("T")


class TournamentDesk(HostListener):
    """The tournaments of one RoomHost (see the module docstring)."""

    def __init__(self, host: RoomHost, clock: Callable[[], float] = time.time) -> None:
        self.host = host
        host.in_tournament = self.plays_in  # its rooms show no rematch
        self.clock = clock
        self.tournaments: dict[int, Tournament] = {}  # as this server last read them
        self.records: TournamentRecords | None = None
        self.runners: TournamentRunners | None = None
        self.running: set[int] = set()  # the tournaments this server runs (its leases)
        self._lease_due = 0.0  # when this server renews its leases next (by host.wall)
        self._tick: asyncio.Task[None] | None = None
        self.audience = TournamentAudience(host, self.tournaments)
        self.requests: dict[str, Callable[[Client, Any], None]] = {
            "tournaments": self._on_list,
            "make_tournament": self._on_make,
            "enter_tournament": self._on_enter,
            "withdraw": self._on_withdraw,
            "begin_tournament": self._on_begin,
            "follow_tournament": self._on_follow,
        }
        self.seats = TournamentSeats(host, self.plays_in)
        self.rounds = TournamentRounds(self)
        host.listeners.append(self)  # each room's change, before it is kept (`changing`)

    # ---- start and stop ---------------------------------------------------------

    async def start(self) -> None:
        """The kept tournaments back, the ones no live server runs taken (each round
        under way with its games in their rooms), then the look every TICK."""
        store = self.host.store
        self.records = TournamentRecords(store)
        self.runners = TournamentRunners(
            store, self.host.server, self.host.limits.lease_seconds, self.host.wall
        )
        if store.dialect != "postgresql":
            self.runners.clear()  # a SQLite file is one server's: every tournament its own
        bus = self.host.bus
        bus.on("tourney.changed", self._heard_changed)
        self.seats.listen()
        self.audience.listen()
        for tournament in self.records.load():
            self.tournaments[tournament.number] = tournament
            log.info("tournament %d back (%s)", tournament.number, tournament.phase)
        self._forget_old()
        self._take_leases()
        for name, control, rounds, starts_at in self.host.limits.tournaments:
            self._make_for_the_operator(name, TimeControl.parse(control), rounds, starts_at)
        self._tick = asyncio.create_task(self._look_at_starts())

    async def close(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
        if self.runners is not None:
            try:  # another server may run them at once
                self.runners.release_all()
            except StoreError as error:
                log.warning("the tournaments' leases were not let go: %s", error)
        self.running.clear()

    def _take_leases(self) -> None:
        """Renew this server's leases on the tournaments it runs, and take those whose
        runner stopped (a server that died): resumed from the store."""
        assert self.runners is not None
        self._lease_due = self.host.wall() + self.host.limits.lease_seconds / 3
        for number, tournament in list(self.tournaments.items()):
            if tournament.phase not in ("registration", "playing"):
                self.running.discard(number)
                continue
            try:
                held = self.runners.take(number)
            except StoreError as error:
                log.warning("tournament %d: its lease not seen to: %s", number, error)
                continue
            if not held:
                self.running.discard(number)
                self._reread_if_changed(number)
            elif number not in self.running:
                self.running.add(number)
                log.info("tournament %d: run by this server", number)
                try:
                    self._reread(number)
                    self.rounds.resume(number)
                except Exception:  # the others are still seen to; its next change goes on
                    log.exception("tournament %d could not be resumed", number)

    # ---- changes, kept under the tournaments' lock ----------------------------

    def change(self, number: int, change: Callable[[Tournament], T]) -> T:
        """Change tournament `number` as the store has it now (another server may have
        changed it since this one read it), keep it, and tell every server; what
        `change` gives. Refused when the store cannot keep it."""
        assert self.records is not None
        try:
            with self.records.locked():
                (tournament,) = self.records.load(number) or (self.tournaments[number],)
                result = change(tournament)
                self.records.keep(tournament)
        except StoreError as error:
            log.warning("tournament %d not kept: %s", number, error)
            raise Refused("The server cannot keep the tournament now: try again later.") from None
        self.tournaments[number] = tournament
        self._changed(tournament)
        return result

    def _reread(self, number: int) -> Tournament | None:
        """Tournament `number` as the store has it (None when it has none)."""
        assert self.records is not None
        try:
            found = self.records.load(number)
        except StoreError as error:
            log.warning("tournament %d not read: %s", number, error)
            return self.tournaments.get(number)
        if found:
            self.tournaments[number] = found[0]
            self._forget_old()
        return found[0] if found else None

    def _reread_if_changed(self, number: int) -> None:
        """A tournament another server runs, read again at each look at the leases: a
        change whose word on the bus was lost (the database was down a moment) is seen
        within a third of a lease all the same."""
        before = self.tournaments.get(number)
        if self._reread(number) != before:
            self.audience.due(number)

    def _heard_changed(self, body: dict[str, Any], sender: str) -> None:
        """Another server changed a tournament: read again, shown again; when this
        server runs it, a round it finished is followed by the next."""
        number = body.get("number")
        if not isinstance(number, int) or self._reread(number) is None:
            return
        self.audience.due(number)
        if number in self.running:
            asyncio.get_running_loop().call_soon(self.rounds.round_ended_if_over, number)

    # ---- requests ---------------------------------------------------------------

    def _on_list(self, client: Client, message: Message) -> None:
        self.audience.list_to(client)

    def _on_make(self, client: Client, message: MakeTournament) -> None:
        try:
            control = TimeControl.parse(message.control)
        except ValueError as error:
            raise Refused(str(error)) from None
        if control.correspondence:
            raise Refused("A tournament's games are live: a control like 5+3, not days a move.")
        if message.rounds > MAX_ROUNDS:
            raise Refused(f"At most {MAX_ROUNDS} rounds.")
        waiting = [t for t in self.tournaments.values() if t.phase in ("registration", "playing")]
        if len(waiting) >= MOST_AT_ONCE:
            raise Refused(f"The server has {MOST_AT_ONCE} tournaments on: try again later.")
        if sum(t.maker == client.name and t.phase == "registration" for t in waiting) >= (
            OPEN_PER_MAKER
        ):
            raise Refused("You have a tournament waiting for its start already.")
        name = " ".join("".join(ch for ch in message.name if ch.isprintable()).split())
        tournament = self.make(
            name or f"{client.name}'s Swiss",
            client.name,
            control,
            message.rounds,
            self.clock() + 60 * message.minutes,
            first=(client.key, client.name, self._rating(client.key, control.text)),
        )
        log.info("tournament %d made by %s", tournament.number, client.who)
        self.audience.following[client] = tournament.number

    def make(
        self,
        name: str,
        maker: str,
        control: TimeControl,
        rounds: int,
        starts_at: float,
        first: tuple[str, str, float] | None = None,
    ) -> Tournament:
        """A new tournament in registration (the operator's too), its maker `first` in
        it (key, name, rating), run by this server."""
        assert self.records is not None and self.runners is not None
        try:
            with self.records.locked():
                number = self.records.next_number()
                tournament = Tournament(number, name[:40], maker, control.text, rounds, starts_at)
                if first is not None:
                    tournament.join(*first)
                self.records.keep(tournament)
                self.runners.take(number)
        except StoreError as error:
            log.warning("a tournament not made: %s", error)
            raise Refused("The server cannot keep a tournament now: try again later.") from None
        self.tournaments[number] = tournament
        self.running.add(number)
        self._forget_old()
        self._changed(tournament)
        return tournament

    def _make_for_the_operator(
        self, name: str, control: TimeControl, rounds: int, starts_at: float
    ) -> None:
        """The operator's tournament (`c4tui serve --tournament`), unless one of its name
        is waiting or under way: several servers started with the same flag make one."""
        assert self.records is not None
        try:
            with self.records.locked():
                on = ("registration", "playing")
                if any(t.name == name and t.phase in on for t in self.records.load()):
                    return
                self.make(name, OPERATOR, control, rounds, starts_at)
        except (StoreError, Refused) as error:
            log.warning("the operator's tournament %r not made: %s", name, error)
            return
        log.info("tournament %r made for the operator", name)

    def _on_enter(self, client: Client, message: EnterTournament) -> None:
        tournament = self._find(message.tournament)
        rating = self._rating(client.key, tournament.control)
        joined = self.change(tournament.number, lambda t: t.join(client.key, client.name, rating))
        self._refuse_if(joined)

    def _on_withdraw(self, client: Client, message: Withdraw) -> None:
        number = self._find(message.tournament).number
        self._refuse_if(self.change(number, lambda t: t.leave(client.key)))
        self.rounds.round_ended_if_over(number)

    def _on_begin(self, client: Client, message: BeginTournament) -> None:
        tournament = self._find(message.tournament)
        maker = tournament.maker != OPERATOR and tournament.maker == client.name
        if not maker or client.key not in tournament.entries:
            raise Refused("Only its maker begins a tournament before its start time.")
        if tournament.phase != "registration":
            raise Refused("The tournament has begun already.")
        if len(tournament.entries) < 2:
            raise Refused("A tournament needs two players at least.")
        if tournament.number in self.running:
            self.rounds.begin(tournament.number)
            return
        # Another server runs it: its start is now, and that server begins it at its next
        # look (within a TICK).
        now = self.clock()
        self.change(tournament.number, lambda t: setattr(t, "starts_at", min(t.starts_at, now)))

    def _on_follow(self, client: Client, message: FollowTournament) -> None:
        if message.tournament == 0:
            self.audience.following.pop(client, None)
            return
        tournament = self._find(message.tournament)
        self.audience.following[client] = tournament.number
        client.send(self.audience.shown(tournament, client))

    def _find(self, number: int) -> Tournament:
        tournament = self.tournaments.get(number)
        if tournament is None:
            raise Refused("There is no such tournament.")
        return tournament

    @staticmethod
    def _refuse_if(reason: str | None) -> None:
        if reason is not None:
            raise Refused(reason)

    def _rating(self, key: str, control: str) -> float:
        """The rating a player enters with in the control's class (the pairing's order)."""
        try:
            player = PlayerRecords(self.host.store).player_of(key)
            if player is None:
                return NEWCOMER.r
            rating_class = TimeControl.parse(control).rating_class
            return RatingRecords(self.host.store).standing(player, rating_class).rating.r
        except StoreError as error:
            log.warning("a rating not read: %s", error)
            return NEWCOMER.r

    # ---- rounds (paired and seated by the server that runs the tournament) ------

    async def _look_at_starts(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            self.look(self.clock())

    def look(self, now: float) -> None:
        """Renew and take the tournaments' leases (every third of a lease, as the
        rooms'); of the tournaments this server runs, begin those whose start has come
        and pair the rounds whose pause is over; tell this server's players how long a
        pause has to go."""
        if self.host.wall() >= self._lease_due:
            self._take_leases()
        for number, tournament in list(self.tournaments.items()):
            try:
                self.rounds.record_ended(tournament)
                if tournament.due(now) and number in self.running:
                    self.rounds.begin(number)
                elif tournament.next_round_at is not None:
                    self.rounds.pause_goes_on(number, now)
            except Exception:
                log.exception("tournament %d could not go on", number)

    def changing(self, room: Room) -> None:
        """A room changed (RoomHost.changed, on the server that holds the room): a
        tournament game's end is its board's result (see the module docstring)."""
        for tournament in list(self.tournaments.values()):
            board = tournament.board_in(room.number)
            if board is None or board.over:
                continue
            self.audience.due(tournament.number)
            if not room.over:
                self.seats.keep_seats(tournament, room, board)
                self.audience.moved(tournament.number, room)
            else:
                self.rounds.record(tournament.number, room)
            return

    def plays_in(self, number: int) -> bool:
        """Whether room `number` is (or was) a tournament game's: no rematch there (its
        end is a result of the tournament, and a rematch would keep its players from
        their next round)."""
        return any(
            board.room == number
            for tournament in self.tournaments.values()
            for done in tournament.rounds
            for board in done.boards
        )

    # ---- kept and shown ---------------------------------------------------------

    def _changed(self, tournament: Tournament) -> None:
        """A tournament was changed here (and kept): shown again, here and on every
        other server (which reads it again from the store)."""
        self.audience.due(tournament.number)
        self.host.bus.broadcast("tourney.changed", {"number": tournament.number})

    def _forget_old(self) -> None:
        """Only the latest KEPT_OVER finished tournaments stay listed (all stay kept)."""
        over = sorted(
            t.number for t in self.tournaments.values() if t.phase in ("finished", "cancelled")
        )
        for number in over[:-KEPT_OVER]:
            del self.tournaments[number]
