"""Hostile clients: garbage, oversized lines, wrong tokens and kinds, floods, guessed codes.

Each is cut off (or refused) with a reason, and everyone else plays on.
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from c4tui.server.service.service import OUT_CAP, Connection, Identity
from c4tui.server.wire.kinds import parse_client_line
from c4tui.server.wire.protocol import ProtocolError, Said
from c4tui.server.wire.room_client import RoomClient, RoomError
from tests.rooms.support import PATIENCE, login, next_of, room_where


async def raw(service, *lines: bytes) -> list[bytes]:
    """Send raw lines on a fresh connection; everything the service answers until it closes."""
    reader, writer = await asyncio.open_unix_connection(str(service.socket_path))
    for line in lines:
        writer.write(line)
    await writer.drain()
    answers = []
    while line := await asyncio.wait_for(reader.readline(), PATIENCE):
        answers.append(line)
    writer.close()
    return answers


def token_line(service, name="eve") -> bytes:
    token = service.issue_token(Identity(f"ssh-name:{name}", name, "10.0.0.9"))
    return json.dumps({"kind": "hello", "version": 1, "token": token}).encode() + b"\n"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"\xff\xfe\n", "not UTF-8"),
        (b"hello there\n", "not JSON"),
        (b"[1, 2]\n", "not an object"),
        (b'{"version": 1}\n', "no 'kind'"),
        (b'{"kind": "format_disk"}\n', "unknown kind"),
        (b'{"kind": "drop", "column": 3, "ply": 0, "extra": 1}\n', "unknown field"),
        (b'{"kind": "drop", "column": "3", "ply": 0}\n', "column should be"),
        (b'{"kind": "drop", "column": true, "ply": 0}\n', "column should be"),
        (b'{"kind": "drop", "column": 12, "ply": 0}\n', "column should be"),
        (b'{"kind": "drop", "ply": 0}\n', "column is missing"),
        (b'{"kind": "join", "code": ""}\n', "code should be"),
        (b"[" * 100000 + b"\n", "nested deeper than"),
        (
            b'{"kind": "say", "text": ' + b"[" * 40 + b"]" * 40 + b"}\n",
            "nested deeper than",
        ),
        (b'{"kind": "drop", "column": 1e400, "ply": 0}\n', "column should be"),
        (b'{"kind": "drop", "column": NaN, "ply": 0}\n', "not JSON"),
        (b'{"kind": "answer", "offer": "everything", "accept": true}\n', "offer should be one of"),
    ],
)
def test_every_bad_line_is_named(line, reason):
    with pytest.raises(ProtocolError, match=reason):
        parse_client_line(line)


async def test_garbage_before_hello_closes_that_connection_only(service):
    ann = await login(service, "ann")
    answers = await raw(service, b"GET / HTTP/1.0\n")
    assert b"Protocol error: not JSON" in answers[-1]
    await ann.send("lobby")
    assert (await next_of(ann, "lobby"))["online"] == ["ann"]


async def test_a_wrong_used_or_expired_token_is_refused(service):
    with pytest.raises(RoomError, match="unknown, used or expired"):
        await RoomClient.connect(service.socket_path, token="not-a-token")
    identity = Identity("ssh-name:ann", "ann", "127.0.0.1")
    token = service.issue_token(identity)
    first = await RoomClient.connect(service.socket_path, token=token)
    with pytest.raises(RoomError, match="unknown, used or expired"):
        await RoomClient.connect(service.socket_path, token=token)
    expired = service.issue_token(identity, ttl=-1)
    with pytest.raises(RoomError, match="unknown, used or expired"):
        await RoomClient.connect(service.socket_path, token=expired)
    other_version = json.dumps({"kind": "hello", "version": 2, "token": "x"}).encode() + b"\n"
    assert b"protocol version 2; this is 1" in (await raw(service, other_version))[-1]
    await first.close()


async def test_names_lose_control_characters(service):
    zoe = await login(service, "[b]Zoë\x1b[2J and a very long name indeed")
    assert zoe.welcome.identity.name == "[b]Zoë[2J and a very"
    await zoe.close()


async def test_an_oversized_line_or_a_wrong_kind_after_hello_cuts_off(service):
    ann = await login(service, "ann")
    huge = b'{"kind": "say", "text": "' + b"x" * (70 * 1024) + b'"}\n'
    answers = await raw(service, token_line(service), huge)
    assert b"over 65536 bytes" in answers[-1]
    answers = await raw(service, token_line(service, "eve2"), b'{"kind": "welcome"}\n')
    assert b"unknown kind" in answers[-1]
    answers = await raw(service, token_line(service, "eve3"), token_line(service, "eve3"))
    assert b"hello once logged in" in answers[-1]
    await ann.send("create")
    await room_where(ann, lambda m: m["seat"] == 0)
    await ann.close()


async def test_a_flood_is_cut_off(service):
    flood = b'{"kind": "lobby"}\n' * 500
    answers = await raw(service, token_line(service), flood)
    assert b"messages a second" in answers[-1]


async def test_moves_out_of_turn_or_illegal_are_refused_with_a_reason(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create", width=4, height=4)
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await bob.send("drop", column=0, ply=0)
    assert "ann's turn" in (await next_of(bob, "refused"))["reason"]
    await ann.send("drop", column=5, ply=0)
    assert "no column 6" in (await next_of(ann, "refused"))["reason"]
    await ann.send("drop", column=0, ply=3)
    assert "changed" in (await next_of(ann, "refused"))["reason"]
    for ply in range(4):
        await (ann, bob)[ply % 2].send("drop", column=0, ply=ply)
        await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
    await ann.send("drop", column=0, ply=4)
    assert "full" in (await next_of(ann, "refused"))["reason"]
    cat = await login(service, "cat")
    await cat.send("watch", room=1)
    await cat.send("drop", column=1, ply=4)
    assert "watching" in (await next_of(cat, "refused"))["reason"]
    for client in (ann, bob, cat):
        await client.close()


async def test_guessing_codes_is_rate_limited(service):
    ann = await login(service, "ann")
    await ann.send("create")
    real = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    eve = await login(service, "eve")
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"):
        await eve.send("join", code=guess)
        assert "No room or seat has" in (await next_of(eve, "refused"))["reason"]
    await eve.send("join", code=real)  # even the right code waits now
    assert "Too many wrong codes" in (await next_of(eve, "refused"))["reason"]
    await ann.close()
    await eve.close()


class StuckTransport:
    """A transport whose peer reads nothing: everything written stays in its buffer."""

    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered


class StuckWriter:
    def __init__(self) -> None:
        self.transport = StuckTransport()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.transport.buffered += len(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_a_client_that_stops_reading_is_cut_off():
    writer = StuckWriter()
    client = Connection(writer, Identity("ssh-name:slow", "slow", "10.0.0.8"))
    while not writer.closed:
        client.send(Said("slow", "x" * 1000))
    assert client.closed and writer.transport.buffered <= OUT_CAP + 2000


async def test_asking_for_ones_games_again_and_again_is_refused(service):
    ann = await login(service, "ann")
    await ann.send("games")
    await next_of(ann, "games")
    await ann.send("games")
    assert "ask again in a moment" in (await next_of(ann, "refused"))["reason"]
    await ann.close()


async def test_a_line_over_the_limit_before_hello_is_one_log_line(service, caplog):
    answers = await raw(service, b"x" * (service.limits.max_line + 10) + b"\n")
    assert b"Protocol error: a line over" in answers[-1]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert sum("closed: a line over" in r.getMessage() for r in caplog.records) == 1


async def test_thirty_watchers_leaving_at_once_write_no_warnings(service, caplog):
    ann = await login(service, "ann")
    await ann.send("create", ai="greedy")
    number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
    watchers = [await login(service, f"w{n}") for n in range(30)]
    for watcher in watchers:
        await watcher.send("watch", room=number)
        await room_where(watcher, lambda m: m["room"] == number)
    await room_where(ann, lambda m: len(m["watchers"]) == 30)
    for watcher in watchers:
        watcher.writer.transport.abort()
    await room_where(ann, lambda m: not m["watchers"])
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    await ann.close()


async def test_a_typed_name_in_an_identity_is_logged_escaped(service, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    eve = await login(service, "eve", key="ssh-name:eve\x1b[2J\nforged")
    await eve.close()
    lines = [r.getMessage() for r in caplog.records if "logged in" in r.getMessage()]
    assert len(lines) == 1 and "\x1b" not in lines[0] and "\n" not in lines[0]


async def test_one_guesser_does_not_lock_out_the_right_code_from_the_same_address(service):
    # Everyone logs in from 127.0.0.1, as people behind one NAT or proxy do.
    ann = await login(service, "ann")
    await ann.send("create")
    real = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    eve = await login(service, "eve")
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF"):
        await eve.send("join", code=guess)
    assert (
        "Too many wrong codes"
        in (await next_of(eve, "refused", lambda m: "Too many" in m["reason"]))["reason"]
    )
    bob = await login(service, "bob")
    await bob.send("join", code=real)
    assert (await room_where(bob, lambda m: m["seat"] == 1))["seats"][0]["name"] == "ann"
    for client in (ann, eve, bob):
        await client.close()


async def test_made_up_identities_at_one_address_share_its_guesses(service):
    refused = None
    for n in range(8):  # 8 identities of 5 wrong guesses each: more than the address has
        eve = await login(service, f"eve{n}")
        for guess in range(5):
            await eve.send("join", code=f"AAA{n}A{guess}")
            reason = (await next_of(eve, "refused"))["reason"]
            if "Too many" in reason:
                refused = n, guess
                break
        await eve.close()
        if refused is not None:
            break
    assert refused is not None and refused[0] >= 5  # not one identity's lock: the address's
