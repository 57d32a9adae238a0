"""A client of `c4tui serve` cannot seat an outside engine: its spec would run a program
(or a Python file) on the server's host."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.rooms.support import PATIENCE, login, next_of, room_where, running


@pytest.mark.parametrize(
    "ai",
    [
        f"cmd:{sys.executable} -c 'import os'",
        f"fourinarow:{sys.executable} -c 'import os'",
        f"connectx:{__file__}",
    ],
)
async def test_an_outside_engine_is_refused_as_the_ai(service, ai):
    eve = await login(service, "eve")
    await eve.send("create", ai=ai)
    refused = await next_of(eve, "refused")
    assert refused["of"] == "create"
    assert "outside engines run programs, and are not taken here" in refused["reason"]
    assert service.host.rooms == {}
    await eve.close()


BOT = Path(__file__).parents[1] / "bots" / "c4e_bot.py"


def running_copies(path: Path) -> list[int]:
    """The processes whose command line names this file."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(path).encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            pass  # gone meanwhile
    return found


async def test_the_operators_outside_engine_is_seated_by_its_name(tmp_path):
    bot = tmp_path / "operators_bot.py"  # a copy of its own, to see its process end
    bot.write_bytes(BOT.read_bytes())
    engines = (("nearcentre", f"cmd:{sys.executable} {bot},time=1"),)
    async with running(tmp_path / "state", engines=engines, ai_seconds=2.0) as service:
        eve = await login(service, "eve")
        assert eve.welcome.engines == ("nearcentre",)  # the lobby offers it by name
        await eve.send("create", ai="server:nobody")
        refused = await next_of(eve, "refused")
        assert "no engine nobody" in refused["reason"]
        await eve.send("create", ai="server:nearcentre", second=True)
        moved = await room_where(eve, lambda m: len(m["moves"]) == 1)  # it played first
        assert moved["moves"] == "4" and moved["seats"][0]["ai"] == engines[0][1]
        async with asyncio.timeout(PATIENCE):  # the worker ends it after the search
            while running_copies(bot):
                await asyncio.sleep(0.05)
        await eve.close()
