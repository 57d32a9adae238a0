"""`c4tui serve`: play together over ssh and in a browser, with rooms, spectators and the AI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError

if TYPE_CHECKING:  # the server loads asyncssh: imported only when serve runs
    from c4tui.server.serving import Server

# (flag, field of ServeLimits or RoomLimits, type, metavar, help); defaults come from
# the dataclasses, so the help and the server never disagree.
LIMIT_FLAGS = (
    ("--max-sessions", "sessions", int, "N", "sessions at once, ssh and web together"),
    ("--max-sessions-per-address", "sessions_per_address", int, "N", "sessions from one IP"),
    ("--max-connects-per-minute", "connects_per_minute", int, "N", "new connections per IP"),
    ("--login-timeout", "login_timeout", float, "SECONDS", "to finish ssh authentication"),
    ("--idle-timeout", "idle_timeout", float, "SECONDS", "without a key press, then closed"),
    ("--client-memory", "client_memory_mb", int, "MB", "address space of each client"),
    ("--client-nice", "client_nice", int, "N", "niceness added to each client (0-19)"),
    ("--password-guesses", "password_guesses", int, "N", "wrong ssh passwords a name or IP tries"),
    ("--password-wait", "password_wait", float, "SECONDS", "then one more guess each"),
    ("--request-timeout", "request_timeout", float, "SECONDS", "for a web request's head"),
    ("--max-connections-per-address", "connections_per_address", int, "N", "web, open at once"),
    ("--refusal-lines", "refusal_lines", int, "N", "log lines a minute of one refusal per IP"),
)
ROOM_FLAGS = (
    ("--max-rooms", "rooms", int, "N", "rooms at once"),
    ("--max-rooms-per-player", "rooms_per_player", int, "N", "rooms one player sits in"),
    ("--max-rooms-per-address", "rooms_per_address", int, "N", "rooms with a player from one IP"),
    ("--code-guesses", "code_guesses", int, "N", "wrong room codes a player may try at once"),
    ("--code-guesses-per-address", "code_guesses_per_address", int, "N", "the same, per IP"),
    ("--seat-hold", "seat_hold", float, "SECONDS", "held for a player who dropped or left"),
    ("--grace-share", "grace_share", float, "F", "of a timed game's length: its seat hold"),
    ("--grace-least", "grace_least", float, "SECONDS", "the shortest seat hold on a clock"),
    ("--max-correspondence-games", "correspondence_games", int, "N", "one player has at once"),
    ("--max-ai-seconds", "ai_seconds", float, "SECONDS", "cap on the AI's time per move"),
    ("--max-bot-games", "bot_games", int, "N", "games one bot plays at once"),
    ("--max-bot-moves-per-second", "bot_moves_per_second", float, "R", "moves a second of one bot"),
    ("--lease-seconds", "lease_seconds", float, "SECONDS", "a room's lease (shared store)"),
    ("--store-timeout", "store_timeout", float, "SECONDS", "the longest a PostgreSQL statement"),
    ("--store-writers", "store_writers", int, "N", "PostgreSQL connections writing moves"),
    ("--round-pause", "round_pause", float, "SECONDS", "between a tournament's rounds"),
)


def register(commands: Subcommands) -> None:
    # Both light (dataclasses only): every `c4tui` start builds this parser.
    from c4tui.server.fronts.session_limits import ServeLimits
    from c4tui.server.wire.identity import RoomLimits

    parser = commands.add_parser(
        "serve",
        help="play together: an ssh and a web server with rooms, spectators and the AI",
        description=(
            "Friends connect with `ssh -p PORT HOST` or a browser, meet in a lobby, play in "
            "rooms by code, watch games and the AI think. Listens on 127.0.0.1 unless "
            "--host says otherwise (--host 0.0.0.0 for every address)."
        ),
    )
    parser.add_argument("--ssh", type=int, default=2222, metavar="PORT", help="default 2222")
    parser.add_argument("--web", type=int, default=8080, metavar="PORT", help="default 8080")
    parser.add_argument("--no-ssh", action="store_true", help="no ssh front")
    parser.add_argument("--no-web", action="store_true", help="no web front")
    parser.add_argument(
        "--host", default="127.0.0.1", metavar="ADDR", help="address to listen on (127.0.0.1)"
    )
    parser.add_argument(
        "--state",
        metavar="DIR",
        help="host key, rooms and games (default: the user data directory's serve/)",
    )
    parser.add_argument(
        "--store",
        metavar="URL",
        help="keep players, rooms and games in this PostgreSQL database "
        "(postgresql://USER:PASSWORD@HOST:PORT/NAME; default: a SQLite file in --state)",
    )
    parser.add_argument(
        "--authorized-keys",
        metavar="FILE",
        help="admit only the ssh keys in this authorized_keys file (default: anyone)",
    )
    parser.add_argument(
        "--engine",
        dest="engines",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help=(
            "an engine players may seat as the AI, offered by NAME in the lobby; outside "
            "engines (cmd:, fourinarow:, connectx:) only this way, never typed by a player "
            "(repeatable), e.g. --engine 'mybot=cmd:./my_engine,time=1'"
        ),
    )
    parser.add_argument(
        "--tournament",
        dest="tournaments",
        action="append",
        default=[],
        metavar="NAME,CONTROL,ROUNDS,START",
        help=(
            "a Swiss tournament players enter from the lobby, made at start unless one of "
            "that name is on already; START is HH:MM (UTC, the next such time) or +MINUTES "
            "(repeatable), e.g. --tournament 'Friday Swiss,5+3,5,20:30'"
        ),
    )
    for flags, defaults in ((LIMIT_FLAGS, ServeLimits()), (ROOM_FLAGS, RoomLimits())):
        for flag, name, kind, metavar, text in flags:
            default = getattr(defaults, name)
            parser.add_argument(
                flag,
                dest=name,
                type=kind,
                default=default,
                metavar=metavar,
                help=f"{text} (default {default:g})",
            )
    parser.set_defaults(run=run)


def check(args: argparse.Namespace) -> None:
    from c4tui.server.wire.identity import MOST_ROUND_PAUSE

    for flag, value in (("--ssh", args.ssh), ("--web", args.web)):
        if not 0 <= value <= 65535:
            raise CommandError(f"{flag} {value}: a port is 1 to 65535 (0: any free one)")
    if args.store is not None and not args.store.startswith(("postgresql://", "postgres://")):
        raise CommandError(f"--store {args.store[:40]!r}: a postgresql://... URL")
    if not args.lease_seconds >= 1:
        raise CommandError(f"--lease-seconds {args.lease_seconds:g}: at least 1 second")
    if not args.store_timeout >= 0.1:
        raise CommandError(f"--store-timeout {args.store_timeout:g}: at least 0.1 seconds")
    if args.no_ssh and args.no_web:
        raise CommandError("--no-ssh and --no-web together leave nothing to serve")
    for flag, name, _, _, _ in LIMIT_FLAGS + ROOM_FLAGS:
        value = getattr(args, name)
        if value <= 0 and name not in ("client_nice", "round_pause"):
            raise CommandError(f"{flag} {value:g}: must be more than 0")
    if not 0 <= args.round_pause <= MOST_ROUND_PAUSE:
        raise CommandError(
            f"--round-pause {args.round_pause:g}: give 0 to {MOST_ROUND_PAUSE} seconds"
        )
    if not 0 <= args.client_nice <= 19:
        raise CommandError(f"--client-nice {args.client_nice}: must be 0 to 19")
    if args.client_memory_mb < 256:
        raise CommandError(f"--client-memory {args.client_memory_mb}: a client needs 256 MB")
    operators_engines(args.engines)
    operators_tournaments(args.tournaments)


def operators_tournaments(
    given: list[str], now: float | None = None
) -> tuple[tuple[str, str, int, float], ...]:
    """The --tournament flags as (name, control, rounds, start in Unix seconds);
    CommandError names a bad one."""
    import time
    from datetime import UTC, datetime, timedelta

    from c4tui.community.clocks import TimeControl
    from c4tui.community.tournament import MAX_ROUNDS

    now = time.time() if now is None else now
    made = []
    for text in given:
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 4 or not parts[0] or len(parts[0]) > 40:
            raise CommandError(
                f"--tournament {text!r}: give NAME,CONTROL,ROUNDS,START (a name of 1-40 characters)"
            )
        name, control, rounds, start = parts
        try:
            if TimeControl.parse(control).correspondence:
                raise ValueError("a tournament's games are live: a control like 5+3")
        except ValueError as error:
            raise CommandError(f"--tournament {name}: {error}") from None
        if not rounds.isdigit() or not 1 <= int(rounds) <= MAX_ROUNDS:
            raise CommandError(f"--tournament {name}: {rounds!r} rounds: give 1 to {MAX_ROUNDS}")
        if start.startswith("+") and start[1:].isdigit():
            starts = now + 60 * int(start[1:])
        else:
            try:
                at = datetime.strptime(start, "%H:%M").time()
            except ValueError:
                raise CommandError(
                    f"--tournament {name}: start {start!r}: give HH:MM (UTC) or +MINUTES"
                ) from None
            today = datetime.fromtimestamp(now, UTC)
            moment = datetime.combine(today.date(), at, UTC)
            if moment.timestamp() <= now:
                moment += timedelta(days=1)
            starts = moment.timestamp()
        made.append((name, control, int(rounds), starts))
    return tuple(made)


def operators_engines(given: list[str]) -> tuple[tuple[str, str], ...]:
    """The --engine NAME=SPEC flags as (name, spec) pairs; CommandError names a bad one."""
    from c4tui.engine.players.specs import SpecError, parse_spec

    engines: dict[str, str] = {}
    for text in given:
        name, equals, spec = text.partition("=")
        name = name.strip()
        if not equals or not name or len(name) > 20 or not name.replace("-", "").isalnum():
            raise CommandError(f"--engine {text!r}: give NAME=SPEC, NAME of letters, digits, -")
        if name in engines:
            raise CommandError(f"--engine {name}: given twice")
        try:
            parse_spec(spec)
        except SpecError as error:
            raise CommandError(f"--engine {name}: {error}") from None
        engines[name] = spec.strip()
    return tuple(engines.items())


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from dataclasses import replace

    from c4tui.files import data_dir
    from c4tui.server.fronts.session_limits import ServeLimits
    from c4tui.server.fronts.ssh_keys import KeyFileError, read_authorized_keys
    from c4tui.server.serving import ServeConfig, Server, StateDirError
    from c4tui.server.store.store import StoreDamaged, StoreError, StoreGone
    from c4tui.server.wire.identity import RoomLimits

    check(args)
    authorized = None
    if args.authorized_keys is not None:
        try:
            authorized = read_authorized_keys(Path(args.authorized_keys))
        except KeyFileError as error:
            raise CommandError(f"--authorized-keys {error}") from None
    limits = replace(ServeLimits(), **{name: getattr(args, name) for _, name, *_ in LIMIT_FLAGS})
    rooms = replace(RoomLimits(), **{name: getattr(args, name) for _, name, *_ in ROOM_FLAGS})
    rooms = replace(rooms, engines=operators_engines(args.engines))
    rooms = replace(rooms, tournaments=operators_tournaments(args.tournaments))
    config = ServeConfig(
        state_dir=Path(args.state) if args.state else data_dir() / "serve",
        host=args.host,
        ssh_port=None if args.no_ssh else args.ssh,
        web_port=None if args.no_web else args.web,
        limits=limits,
        room_limits=rooms,
        authorized=authorized,
        store_url=args.store,
    )
    where = "--state" if args.store is None else "--store"
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("c4tui").setLevel(logging.INFO)
    try:
        return asyncio.run(serve(Server(config)))
    except KeyFileError as error:
        raise CommandError(str(error)) from None
    except StateDirError as error:
        raise CommandError(f"--state {error}") from None
    except StoreDamaged as error:
        # Not set aside and started afresh: the database holds who owns each name, and
        # an empty one would hand every name to whoever logs in first.
        raise CommandError(
            f"{where} {error}: the server does not start over it; move it aside (or put "
            "back a copy) and start again"
        ) from None
    except StoreGone as error:
        raise CommandError(
            f"{where} {error}: put the database back (a copy), or give a new --state "
            "directory to start a new community"
        ) from None
    except StoreError as error:
        raise CommandError(f"{where} {error}") from None


async def serve(server: Server) -> int:
    """Run until Ctrl-C, SIGTERM or SIGHUP (its terminal closed), then stop cleanly.

    A signal while stopping is noted, not obeyed: stopping tells every player and
    removes the socket and the clients' directories, and is bounded in time itself;
    after it, signals are ignored to the end, so a burst of them never cuts it short.
    """
    import asyncio
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    numbers = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def stop_soon(number: int) -> None:
        if stop.is_set():
            print(f"c4tui serve: {signal.Signals(number).name}: already stopping", file=sys.stderr)
        stop.set()

    broken: list[str] = []

    def stop_broken(why: str) -> None:  # the server cannot go on (its database gone)
        broken.append(why)
        stop.set()

    server.on_broken = stop_broken

    for number in numbers:
        loop.add_signal_handler(number, stop_soon, number)
    try:
        await server.start()
    except OSError as error:
        what = f"cannot write {error.filename}" if error.filename else "cannot listen"
        print(f"c4tui serve: {what} ({error.strerror or error})", file=sys.stderr)
        return 1
    print_addresses(server)
    await stop.wait()
    if broken:
        print(f"c4tui serve: stopping: {broken[0]}", file=sys.stderr, flush=True)
    else:
        print("c4tui serve: stopping (games are kept)", file=sys.stderr, flush=True)
    await server.stop()
    for number in numbers:  # from here to the exit: asyncio would restore the defaults
        loop.remove_signal_handler(number)
        signal.signal(number, signal.SIG_IGN)
    return 1 if broken else 0


def print_addresses(server: Server) -> None:
    import socket

    host = server.config.host
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    elif ":" in host:
        host = f"[{host}]"
    from c4tui.version import version

    lines = [f"c4tui serve: c4tui {version()}, state in {server.state_dir}"]
    if server.ssh is not None and server.ssh.host_key is not None:  # listening: it has one
        fingerprint = server.ssh.host_key.get_fingerprint("sha256")
        lines.append(f"  terminals: ssh -p {server.ssh.port} {host}   (host key {fingerprint})")
    if server.web is not None:
        lines.append(f"  browsers:  http://{host}:{server.web.port}")
    lines.append("Ctrl-C stops the server; games are kept.")
    print("\n".join(lines), flush=True)
