"""A client of `c4tui serve` cannot seat an outside engine: its spec would run a program
(or a Python file) on the server's host."""

from __future__ import annotations

import sys

import pytest

from tests.rooms.support import login, next_of


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
