"""Room: one authoritative game between two seats, its offers, and what everyone in it sees.

No I/O and no clock of its own: the service calls these methods with what a client asked
(and the time), and broadcasts the room's view (views.py) after every change. Every refusal is a
reason in words, which the client shows; nothing is changed by a refused request.

Seats: seat 0 plays ● (moves first), seat 1 plays ○. A seat is open, a person (their
identity key and name, and a seat code to reclaim it from the web), or an engine spec.
Rematch swaps the seats, so colours swap. A person who drops, or steps out to the lobby,
keeps the seat until `held_until` (`hold`): the grace of the room's time control
(`grace`); the seat code and the same identity take it back meanwhile. A game under way
is never given to someone else: when a hold runs out there, the side that stayed may
claim the win or a draw (`claim`), and a side that never moved forfeits
(`holds_run_out` says why that and not an open seat). Correspondence seats are never
held: coming and going is how that is played, and the days per move are its limit.

The clock (community/clocks.py), when the room has a time control: it starts when both
seats are taken, and `settle_clock` keeps it in step with the game after every change
(a move gives the increment, a take-back only hands the time over, the end stops it);
`time_out` ends the game when the side to move has no time left.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.clocks import Clock, TimeControl, flag_ending, grace_seconds, never_moved
from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import Ending, GameRecord, now_stamp
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import SearchInfo
from c4tui.engine.turns import SearchIds, column_refusal


@dataclass
class Seat:
    """Who sits at one colour: nobody, a person, or an engine."""

    key: str | None = None
    name: str = ""
    ai: str | None = None
    code: str = ""  # the seat code that reclaims it (people only)
    held_until: float | None = None  # the person dropped: the seat is kept until then
    address: str = ""  # where the person connected from (for the rooms per address)

    @property
    def open(self) -> bool:
        """Nobody sits here (an open seat may still name who played its game and left)."""
        return self.key is None and self.ai is None

    @property
    def bot(self) -> bool:
        """A bot's seat: a program plays it through the bot API (server/desks/bots.py)."""
        return is_bot_key(self.key)

    def title(self) -> str:
        """The seat in a sentence: the person's name, a bot's marked as one ("BOT alpha",
        as lichess marks bots), "the AI", or "(open)"."""
        if self.ai is not None:
            return "the AI"
        if self.bot:
            return f"BOT {self.name}"
        return self.name or "(open)"

    def recorded(self) -> str:
        """What the game file says for this seat: the engine spec or the person's name."""
        return self.ai if self.ai is not None else (self.name or "?")


@dataclass
class Room:
    """One room: its game, seats, pending offers and how the game ended if not on the board."""

    number: int
    code: str
    game: Game
    seats: list[Seat]
    public: bool = False
    name: str = ""  # the game's file name when kept
    date: str = field(default_factory=now_stamp)
    ended: str | None = None  # off the board: "resigned" (by the loser) or "agreed" (a draw)
    winner: int | None = None  # of an ending off the board (None: a draw)
    offers: dict[str, int] = field(default_factory=dict)  # offer -> the seat that made it
    rematch: set[int] = field(default_factory=set)
    searches: SearchIds = field(default_factory=SearchIds)  # the AI seat's, as a match's
    paused: bool = False  # the AI failed: it waits for a player's `hurry`
    thinking_info: SearchInfo | None = None
    thinking_spec: str | None = None
    trouble: str | None = None  # why the last change could not be kept on disk
    # Who played the game, as its file names them, once a player has left a seat of it:
    # the copy kept for the one who stayed still names the one who went.
    played_by: tuple[str, str] | None = None
    control: TimeControl | None = None  # the time control; None: no clock
    clock: Clock | None = None
    clock_ply: int = 0  # the move count the clock last saw (settle_clock)
    claimant: int | None = None  # the seat that may claim: the other's grace is over
    rated: bool = False  # paired by automatch or a rated challenge: the result moves ratings

    def __post_init__(self) -> None:
        if self.control is not None and self.clock is None:
            self.clock = Clock.new(self.control)
        self.clock_ply = self.position.moves

    @property
    def position(self) -> Position:
        return self.game.position

    def seat_of(self, key: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.key == key:
                return index
        return None

    @property
    def over(self) -> bool:
        return self.ended is not None or self.position.is_over()

    @property
    def under_way(self) -> bool:
        """Moves made and no end yet: the seats belong to the two who began it."""
        return self.position.moves > 0 and not self.over

    @property
    def people(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.key is not None]

    def record(self) -> GameRecord:
        players = self.played_by or (self.seats[0].recorded(), self.seats[1].recorded())
        # An ending off the board (resigned, agreed) is kept as the game's result.
        return GameRecord.of(self.position, players, self.date, self.ending)

    @property
    def ending(self) -> Ending | None:
        """How the game ended off the board (resigned, agreed, time, abandoned, forfeit)."""
        return None if self.ended is None else Ending(self.ended, self.winner)

    def closing_words(self) -> str:
        """What its last watchers are told as it closes: how its game ended too, since
        the players' leaving can follow the last move before a watcher's screen drew it."""
        if not self.over:
            return "The room has closed."
        result = self.record().result
        if result not in ("1-0", "0-1"):
            return "The room has closed: the game was a draw."
        winner = 0 if result == "1-0" else 1
        # a seat left keeps its title ("BOT alpha"), so a game's winner is still named
        return f"The room has closed: {self.seats[winner].title()} {'●○'[winner]} won."

    @property
    def on(self) -> bool:
        """Both seats are taken and the game is not over: a clock runs."""
        return not self.over and not any(seat.open for seat in self.seats)

    # ---- seats ------------------------------------------------------------------

    def sit(self, key: str, name: str, seat_code: str, address: str = "") -> int | str:
        """A seat for this person: theirs already, else an open one; or why not."""
        mine = self.seat_of(key)
        if mine is not None:
            return mine
        for index, seat in enumerate(self.seats):
            if seat.open:
                self.seats[index] = Seat(key, name, code=seat_code, address=address)
                return index
        return "Both seats are taken: you can watch this room from the lobby."

    def leave(self, seat: int) -> None:
        """A person gives up the seat (and any offer they made); once the game has moves
        the open seat keeps their title, so that the room still says who played it."""
        if self.position.moves and self.played_by is None:
            self.played_by = (self.seats[0].recorded(), self.seats[1].recorded())
        self.seats[seat] = Seat(name=self.seats[seat].title() if self.position.moves else "")
        self._clear_offers()

    def grace(self, longest: float, share: float, shortest: float) -> float | None:
        """Seconds a person who left is waited for (clocks.grace_seconds); None: not held."""
        return grace_seconds(self.control, longest, share, shortest)

    def hold(self, seat: int, until: float) -> None:
        """The person in `seat` is gone for now (dropped, or stepped out): theirs until then."""
        self.seats[seat].held_until = until

    def back(self, seat: int) -> None:
        """The person in `seat` is back: no hold, and nothing to claim against them."""
        self.seats[seat].held_until = None
        if self.claimant == 1 - seat:
            self.claimant = None

    def holds_run_out(
        self, now: float, here: Collection[str]
    ) -> tuple[tuple[str, int] | None, list[int]]:
        """The seats whose hold has run out by `now`, as (the ending that comes of it at
        once, as (how, winner), the seats to open); `here` are the keys of the people in
        the room now. Sets `claimant` when the side that stayed may claim.

        A game under way is not handed to whoever has the room's code: the player who
        stayed wants a result, not a stranger in the middle of the game. Once the one who
        left has had their grace, the one who stayed may claim the win or a draw (or wait
        on: the absent side's clock, if any, still runs). A side that never moved
        forfeits at once, and an AI claims the win at once (nobody is there to press a
        key); only then does the seat open (for a rematch). When the other side is away
        too, neither is blamed: both holds are waited out, and then both seats open (the
        room closes, the game kept unfinished). Before the first move and after the end,
        a seat just opens.
        """
        expired = [
            i for i, s in enumerate(self.seats) if s.held_until is not None and s.held_until <= now
        ]
        if len(expired) != 1 or not self.under_way:
            return None, expired
        seat = expired[0]
        other = self.seats[1 - seat]
        if never_moved(seat, self.position.moves) and not other.open:
            return ("forfeit", 1 - seat), [seat]
        if other.ai is not None or other.bot:  # a program: it would claim at once
            return ("abandoned", 1 - seat), [seat]
        if other.key in here:
            self.claimant = 1 - seat
            return None, []
        if other.open:
            return None, [seat]
        return None, []  # the other side is away too: wait for its hold

    def claim(self, seat: int, win: bool) -> str | None:
        """The side that stayed claims the win (or a draw) from one gone past its grace."""
        if self.over:
            return "The game is over."
        if self.claimant != seat:
            return (
                "There is nothing to claim: your opponent is here, or still has time to come back."
            )
        self._end("abandoned", seat if win else None)
        return None

    def end_by(self, how: str, winner: int | None) -> None:
        """The game ends off the board so (the service's endings: a hold run out, ...)."""
        self._end(how, winner)

    # ---- the clock ----------------------------------------------------------------

    def settle_clock(self, now: float) -> None:
        """Keep the clock in step with the game at `now`: stopped when the game is over,
        started when both seats are taken, handed over after a move (with the increment)
        or a take-back (without: nobody earns time by taking a move back)."""
        clock, moves = self.clock, self.position.moves
        if clock is None:
            return
        if not self.on:
            clock.stop(now)
        elif clock.running is None:
            clock.start(self.position.to_move, now)
        elif moves == self.clock_ply + 1 and clock.running != self.position.to_move:
            clock.moved(clock.running, now)
        elif clock.running != self.position.to_move:
            clock.start(self.position.to_move, now)
        self.clock_ply = moves

    def time_out(self, now: float) -> int | None:
        """The side whose time has run out by `now`, if any: the game ends, that side lost
        (clocks.flag_ending: on time, or a forfeit if it never moved)."""
        side = None if self.clock is None or self.over else self.clock.flagged(now)
        if side is not None:
            how, winner = flag_ending(side, self.position.moves)
            self._end(how, winner)
            self.clock.stop(now)  # type: ignore[union-attr]  # flagged: there is a clock
        return side

    # ---- moves ------------------------------------------------------------------

    def drop(self, seat: int, column: int, ply: int) -> str | None:
        """The person in `seat` drops a disc in `column`, having seen `ply` moves."""
        pos = self.position
        if self.over:
            return "The game is over."
        if seat != pos.to_move:
            return f"It is {self.seats[pos.to_move].title()}'s turn, not yours."
        if ply != pos.moves:
            return "The board changed before your move arrived: look again."
        refusal = column_refusal(pos, column)
        if refusal is None:
            self._play(column)
        return refusal

    def _play(self, column: int) -> None:
        self.game.play(column)
        self._clear_offers()
        self.cancel_search()

    def ai_to_move(self) -> str | None:
        """The engine spec to start when it is the AI seat's turn and nobody searches."""
        if self.over or self.thinking:
            return None
        return self.seats[self.position.to_move].ai

    def bot_to_move(self) -> bool:
        """Whether a bot is to move (it thinks in its own process; the room shows it)."""
        return not self.over and self.seats[self.position.to_move].bot

    @property
    def search_id(self) -> int:
        return self.searches.last

    @property
    def thinking(self) -> bool:
        return self.searches.running

    def start_search(self) -> int:
        self.thinking_info = None
        mover = self.seats[self.position.to_move]
        self.thinking_spec = mover.title() if mover.bot else mover.ai
        return self.searches.start()

    def cancel_search(self) -> None:
        """Whatever the running search still sends is stale from now on."""
        self.searches.cancel()

    def search_failed(self) -> None:
        """The AI's search failed: it waits for a player's `hurry` (paused)."""
        self.searches.end()
        self.paused = True

    def progress(self, search_id: int, info: SearchInfo) -> bool:
        if not self.searches.is_current(search_id):
            return False
        self.thinking_info = info
        return True

    def ai_move(self, search_id: int, path: tuple[int, ...], move: int, info: SearchInfo) -> bool:
        """The AI seat's search result; False (nothing played) when it is stale."""
        if not self.searches.is_current(search_id) or path != self.position.path:
            return False
        self.thinking_info = info
        if self.over or column_refusal(self.position, move) is not None:
            self.cancel_search()
            return False
        self._play(move)
        return True

    # ---- offers and endings -----------------------------------------------------

    def resign(self, seat: int) -> str | None:
        if self.over:
            return "The game is over."
        if self.seats[1 - seat].open:  # a win for nobody; Escape leaves the room instead
            return "Nobody sits opposite: there is no one to resign to."
        self._end("resigned", 1 - seat)
        return None

    def offer(self, seat: int, offer: str) -> str | None:
        """A draw or take-back offer; an engine answers at once (see `answer_for_ai`)."""
        if self.ended is not None:
            return "The game is over."
        if offer == "draw" and self.over:
            return "The game is over."
        if self.seats[1 - seat].open:
            return "Nobody sits opposite to answer an offer."
        if offer == "take_back" and self._take_back_plies(seat) == 0:
            return "You have no move to take back."
        if offer in self.offers:
            return "That offer is already waiting for an answer."
        self.offers[offer] = seat
        return None

    def answer(self, seat: int, offer: str, accept: bool) -> str | None:
        """The other side accepts or declines an offer."""
        by = self.offers.get(offer)
        if by is None or by == seat:
            return "There is no such offer to answer."
        del self.offers[offer]
        if not accept:
            return None
        if offer == "draw":
            self._end("agreed", None)
        else:
            for _ in range(self._take_back_plies(by)):
                self.game.undo()
            self.cancel_search()
            self._clear_offers()
        return None

    def _take_back_plies(self, seat: int) -> int:
        """Moves to undo so that `seat`'s last move is taken back (and any reply to it)."""
        path = self.position.path
        for back in (1, 2):
            if len(path) >= back and (len(path) - back) % 2 == seat:
                return back
        return 0

    def _end(self, words: str, winner: int | None) -> None:
        self.ended, self.winner = words, winner
        self.claimant = None
        self._clear_offers()
        self.cancel_search()

    def _clear_offers(self) -> None:
        self.offers.clear()
        self.rematch.clear()

    def ask_rematch(self, seat: int) -> bool:
        """Ask for a rematch; True when everyone has (an engine always does)."""
        self.rematch.add(seat)
        wanted = {i for i, s in enumerate(self.seats) if s.key is not None or s.open}
        return wanted <= self.rematch

    def new_game(self, name: str) -> None:
        """The rematch: colours swapped, an empty board of the same size."""
        g = self.position.geometry
        self.game = Game(Position.start(g.width, g.height, g.connect))
        # A new game: an open seat no longer names who played the last one.
        self.seats = [Seat() if seat.open else seat for seat in reversed(self.seats)]
        self.name, self.date = name, now_stamp()
        self.ended = self.winner = self.played_by = self.claimant = None
        self.clock = None if self.control is None else Clock.new(self.control)
        self.clock_ply = 0
        self._clear_offers()
        self.cancel_search()
        self.thinking_info = self.thinking_spec = None


def by_post(room: Room) -> bool:
    """A correspondence game: days a move, played over many logins."""
    return room.control is not None and room.control.correspondence
