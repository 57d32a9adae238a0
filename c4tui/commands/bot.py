"""`c4tui bot`: seat an engine on a `c4tui serve` server through its bot API.

It follows the bot's account stream, accepts challenges while it has room for another
game (declines them after), seeks games through automatch if told (`--seek`), plays
each game in a thread of its own with its own engine (built in, or an outside one:
`cmd:`, `fourinarow:`, `connectx:`), and sends the engine's thinking as engine-protocol
`info` lines, so everyone watching the room sees it in the thinking panel. It talks to
the URL it is given and nothing else (docs/bot-api.md). One line on stderr for each
thing that happens.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError
from c4tui.files import parse_json

TOKEN_ENV = "C4TUI_BOT_TOKEN"
PREFIX = "/api/bot"
THINKING_EVERY = 0.25  # seconds between thinking requests of this bot (the server's limit: 5/s)
CHALLENGE_AGAIN = 2.0  # seconds before challenging a bot that is not online yet
RETRIES = 20  # a move refused for going too fast is sent again so often at most
TIMEOUT = 30.0  # seconds without a byte on a stream (the server sends one every 10)


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "bot",
        help="seat an engine on a c4tui server with a bot token",
        description=(
            "Connect to a c4tui server's bot API with a token made in its lobby, accept "
            "challenges and play them with an engine, its thinking shown to spectators. "
            f"The token may come from the environment's {TOKEN_ENV} instead of --token."
        ),
    )
    parser.add_argument("--server", required=True, metavar="URL", help="e.g. http://host:8080")
    parser.add_argument("--token", metavar="T", help=f"the bot's token (or ${TOKEN_ENV})")
    parser.add_argument(
        "--engine", required=True, metavar="SPEC", help="e.g. mcts:time=1, level:5, cmd:./my_bot"
    )
    parser.add_argument(
        "--challenge", metavar="BOT", help="challenge this bot once connected (it plays first)"
    )
    parser.add_argument(
        "--clock", metavar="CONTROL", help="the time control of that challenge, e.g. 5+3"
    )
    parser.add_argument(
        "--seek",
        metavar="CONTROL",
        help="seek rated games through automatch with this time control, e.g. 3+2",
    )
    parser.add_argument(
        "--max-games", type=int, default=1, metavar="N", help="games at once (default 1)"
    )
    parser.add_argument(
        "--games", type=int, default=None, metavar="N", help="stop after N games (default: never)"
    )
    parser.add_argument("--seed", type=int, default=None, help="the engine's random seed")
    parser.set_defaults(run=run)


class ApiError(Exception):
    """The server refused a request (status, its reason) or could not be reached."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"{reason} (HTTP {status})" if status else reason)
        self.status = status


class BotServer:
    """The server's bot API over http.client: one connection per request or stream."""

    def __init__(self, url: str, token: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CommandError(f"--server {url!r}: give an http:// or https:// URL with a host")
        try:
            self.port = parts.port
        except ValueError:
            raise CommandError(f"--server {url!r}: the port is not a number") from None
        self.https = parts.scheme == "https"
        self.host = parts.hostname
        self.base = parts.path.rstrip("/") + PREFIX
        self.headers = {"Authorization": f"Bearer {token}", "User-Agent": "c4tui-bot"}

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)

    def call(self, method: str, path: str, body: str | None = None) -> dict[str, Any]:
        """One request; its JSON answer, or ApiError with the server's reason."""
        connection = self._connection(TIMEOUT)
        try:
            data = body.encode() if body is not None else None
            headers = {**self.headers, "Content-Type": "text/plain; charset=utf-8"}
            connection.request(method, self.base + path, body=data, headers=headers)
            response = connection.getresponse()
            answer = read_json(response.read(64 * 1024))
        except (OSError, http.client.HTTPException) as error:
            raise ApiError(0, f"cannot reach the server: {error}") from None
        finally:
            connection.close()
        if response.status != 200:
            raise ApiError(response.status, str(answer.get("error", response.reason)))
        return answer

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The events of a stream, until it ends; ApiError when it cannot be opened."""
        connection = self._connection(TIMEOUT)
        try:
            connection.request("GET", self.base + path, headers=self.headers)
            response = connection.getresponse()
            if response.status != 200:
                answer = read_json(response.read(64 * 1024))
                raise ApiError(response.status, str(answer.get("error", response.reason)))
            while line := response.readline(64 * 1024):
                if line.strip():
                    yield read_json(line)
        except (OSError, http.client.HTTPException) as error:
            raise ApiError(0, f"the stream broke: {error}") from None
        finally:
            connection.close()


def read_json(data: bytes) -> dict[str, Any]:
    """A JSON object the server sent; {} for anything else. The server is whatever the
    URL names: 64 KB of `[` would make json.loads raise RecursionError, a crash where
    `parse_json` answers DamagedFile (a ValueError)."""
    try:
        value = parse_json(data.decode("utf-8", errors="replace"), depth=32)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def say(text: str) -> None:
    print(f"c4tui bot: {text}", file=sys.stderr, flush=True)


class Thinking:
    """Sends a search's latest info lines, at most one request every THINKING_EVERY
    seconds for the whole bot (every game together)."""

    lock = threading.Lock()
    last = 0.0

    def __init__(self, server: BotServer, room: int) -> None:
        self.server, self.room = server, room

    def send(self, info: Any, *, final: bool = False) -> None:
        from c4tui.engine.external.protocol import info_lines

        with Thinking.lock:
            now = time.monotonic()
            if not final and now - Thinking.last < THINKING_EVERY:
                return
            Thinking.last = now
        # Thinking is for the watchers: a refused one is not worth a word.
        with contextlib.suppress(ApiError):
            self.server.call("POST", f"/game/{self.room}/thinking", "\n".join(info_lines(info)))


class Pace:
    """Keeps this bot's moves, all its games together, within the server's moves a
    second (its /account says how many), so they are not refused for haste."""

    lock = threading.Lock()
    every = 0.0  # seconds between two moves
    last = 0.0

    @classmethod
    def wait(cls) -> None:
        with cls.lock:
            now = time.monotonic()
            due = max(now, cls.last + cls.every)
            cls.last = due
        time.sleep(due - now)


class Bot:
    """One `c4tui bot` run: the account stream in one thread, each game in another."""

    def __init__(self, server: BotServer, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        self.games: dict[int, threading.Thread] = {}
        self.finished = 0
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.name = ""
        self.challenged = False
        self.engines: set[Any] = set()  # ended when the bot is stopped

    def run(self) -> int:
        try:
            account = self.server.call("GET", "/account")
        except ApiError as error:
            raise CommandError(f"--server: {error}") from None
        self.name = str(account.get("name", "?"))
        limits = account.get("limits")
        rate = limits.get("moves_per_second") if isinstance(limits, dict) else None
        if isinstance(rate, (int, float)) and rate > 0:
            Pace.every = 1 / rate
        say(f"{self.name} is on {self.args.server}, playing {self.args.engine}")
        follow = threading.Thread(target=self.follow_account, daemon=True)
        follow.start()
        self.done.wait()
        return 0 if self.finished >= (self.args.games or 0) else 1

    def follow_account(self) -> None:
        """The account's events; the stream is opened again (with a pause) when it breaks."""
        pause = 1.0
        while not self.done.is_set():
            try:
                for event in self.server.stream("/stream"):
                    pause = 1.0
                    self.on_event(event)
                say(f"the server ended the stream; connecting again in {pause:g} s")
            except ApiError as error:
                if error.status in (401, 403):
                    say(f"the server refuses the token: {error}")
                    self.done.set()
                    return
                say(f"{error}; connecting again in {pause:g} s")
            time.sleep(pause)
            pause = min(pause * 2, 30.0)

    def challenge(self, other: str) -> None:
        """Challenge `other` until it is online to be challenged (or this bot stops)."""
        while not self.done.is_set():
            try:
                clock = f"&clock={quote(self.args.clock, safe='')}" if self.args.clock else ""
                self.server.call("POST", f"/challenge/{quote(other, safe='')}?color=first{clock}")
                say(f"challenged {other}")
                return
            except ApiError as error:
                if error.status != 409:
                    say(f"could not challenge {other}: {error}")
                    return
            self.done.wait(CHALLENGE_AGAIN)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "online" and self.args.challenge and not self.challenged:
            self.challenged = True
            other = self.args.challenge
            threading.Thread(target=self.challenge, args=(other,), daemon=True).start()
        if kind == "online":
            self.seek()  # a seek lasts while the stream is open: again on each opening
        elif kind == "challenge":
            self.answer(event)
        elif kind == "gameStart" and isinstance(event.get("room"), int):
            self.start_game(event["room"])
        elif kind == "challengeDeclined":
            say(f"{event.get('to')} declined the challenge")

    def seek(self) -> None:
        """Seek a game through automatch (--seek) when it plays none and wants another
        (the server pairs a bot with no game under way only)."""
        if not self.args.seek or self.done.is_set():
            return
        me = threading.current_thread()
        with self.lock:
            busy = sum(1 for t in self.games.values() if t.is_alive() and t is not me)
        if busy or (self.args.games is not None and self.finished >= self.args.games):
            return
        try:
            self.server.call("POST", f"/seek?clock={quote(self.args.seek, safe='')}")
            say(f"seeking a {self.args.seek} game")
        except ApiError as error:
            say(f"could not seek: {error}")

    def answer(self, event: dict[str, Any]) -> None:
        challenge_id = str(event.get("id", ""))
        who = event.get("from", {}).get("name", "?") if isinstance(event.get("from"), dict) else "?"
        with self.lock:
            busy = sum(1 for t in self.games.values() if t.is_alive())
        wanted = self.args.games is None or self.finished + busy < self.args.games
        verb = "accept" if busy < self.args.max_games and wanted else "decline"
        try:
            self.server.call("POST", f"/challenge/{quote(challenge_id, safe='')}/{verb}")
            say(f"challenge from {who}: {verb}ed")
        except ApiError as error:
            say(f"challenge from {who}: could not {verb}: {error}")

    def start_game(self, room: int) -> None:
        with self.lock:
            if room in self.games and self.games[room].is_alive():
                return
            thread = threading.Thread(target=self.play, args=(room,), daemon=True)
            self.games[room] = thread
        thread.start()

    def play(self, room: int) -> None:
        from c4tui.engine.players.specs import make_engine

        engine = make_engine(self.args.engine, seed=self.args.seed)
        self.engines.add(engine)
        try:
            result = Game(self.server, room, engine).play()
        except ApiError as error:
            # Not over: the account stream's gameStart brings the game back (its seat
            # is held meanwhile), in a thread of its own.
            say(f"room {room}: the game's stream broke: {error}")
            return
        finally:
            self.engines.discard(engine)
            engine.close()
        say(f"room {room}: {result}")
        with self.lock:
            self.finished += 1
            if self.args.games is not None and self.finished >= self.args.games:
                self.done.set()
        self.seek()


class Game:
    """One game of the bot: its stream read, its moves searched and sent."""

    def __init__(self, server: BotServer, room: int, engine: Any) -> None:
        self.server, self.room, self.engine = server, room, engine
        self.seat: int | None = None
        self.size = (7, 6, 4)
        self.players: list[str] = []

    def play(self) -> str:
        """Plays to the end; the result in words."""
        for event in self.server.stream(f"/game/{self.room}/stream"):
            kind = event.get("type")
            if kind == "gameFull":
                self.seat = event.get("seat")
                self.size = (event["width"], event["height"], event["connect"])
                self.players = [str(p.get("name")) for p in event.get("players", [])]
                say(f"room {self.room}: {' vs '.join(self.players)}")
            elif kind != "gameState":
                continue
            if event.get("over"):
                return self.result(event)
            self.maybe_move(str(event.get("moves", "")), event.get("clock"))
        return "the stream ended before the game"

    def budget(self, clock: Any) -> Any:
        """The engine's own limits; on a clock, at most a twentieth of the time left
        (and a little of it for the way to the server)."""
        from c4tui.engine.players.contract import Limits

        own = self.engine.limits
        try:
            left = float(clock["left"][self.seat])
        except (TypeError, KeyError, IndexError, ValueError):
            return own
        share = max(0.05, left / 20 - 0.1)
        time_limit = share if own.time is None else min(own.time, share)
        return Limits(time=time_limit, iterations=own.iterations, depth=own.depth)

    def result(self, event: dict[str, Any]) -> str:
        winner, how = event.get("winner"), event.get("ended") or "?"
        if winner is None:
            return f"a draw ({how})"
        return f"{'won' if winner == self.seat else 'lost'} ({how})"

    def maybe_move(self, moves: str, clock: Any) -> None:
        from c4tui.engine.board.position import Position
        from c4tui.engine.players.contract import Forfeit

        position = Position.from_moves(moves, *self.size)
        if position.is_over() or position.to_move != self.seat:
            return
        thinking = Thinking(self.server, self.room)
        try:
            limits = self.budget(clock)
            result = self.engine.search(position, limits, on_info=thinking.send)
        except Forfeit as forfeit:
            say(f"room {self.room}: the engine failed ({forfeit}): resigning")
            why = quote(f"its engine {forfeit}", safe="")  # the room is told why
            self.server.call("POST", f"/game/{self.room}/resign?reason={why}")
            return
        thinking.send(result.info, final=True)
        Pace.wait()
        for _ in range(RETRIES):
            try:
                self.server.call(
                    "POST", f"/game/{self.room}/move/{result.move + 1}?ply={position.moves}"
                )
                return
            except ApiError as error:
                if error.status != 429:
                    say(f"room {self.room}: move {result.move + 1} refused: {error}")
                    return
                time.sleep(0.25)  # over the server's moves a second: a little later


def run(args: argparse.Namespace) -> int:
    from c4tui.commands.outside_log import log_outside_engines
    from c4tui.engine.players.specs import SpecError, parse_spec

    token = args.token or os.environ.get(TOKEN_ENV, "")
    if not token:
        raise CommandError(f"--token: give the bot's token (or set {TOKEN_ENV})")
    try:
        parse_spec(args.engine)
    except SpecError as error:
        raise CommandError(f"--engine: {error}") from None
    for flag, value in (("--max-games", args.max_games), ("--games", args.games)):
        if value is not None and value < 1:
            raise CommandError(f"{flag} {value}: must be 1 or more")
    if args.seek is not None:
        from c4tui.community.clocks import TimeControl

        try:
            TimeControl.parse(args.seek)
        except ValueError as error:
            raise CommandError(f"--seek {args.seek!r}: {error}") from None
    log_outside_engines()
    bot = Bot(BotServer(args.server, token), args)
    try:
        return bot.run()
    except KeyboardInterrupt:
        return 130
    finally:
        for engine in list(bot.engines):  # an outside engine's process ends with the bot
            engine.close()
