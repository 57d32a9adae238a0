"""The AI seat's engine is checked against its room's board when the room is made: a
learned engine with no network for that board is refused there, in one line to the
player and one in the log, never forfeited at its first move."""

from __future__ import annotations

import logging

import pytest

from tests.rooms.support import login, next_of, room_where, running


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "refused for" in r.getMessage()]


@pytest.mark.slow  # 0.45 s: a service of its own, the learned engine loaded
async def test_a_learned_engine_is_refused_on_a_board_it_has_no_network_for(tmp_path, caplog):
    caplog.set_level(logging.INFO, "c4tui.server")
    engines = (("az", "alphazero:sims=0"),)  # the operator's, by name: checked the same
    async with running(tmp_path / "state", engines=engines, ai_seconds=0.3) as service:
        eve = await login(service, "eve")
        for ai in ("alphazero:sims=0", "server:az"):
            caplog.clear()
            await eve.send("create", ai=ai, width=6, height=5)
            refused = await next_of(eve, "refused")
            assert refused["of"] == "create"
            assert "no network for the 6x5 connect 4 board" in refused["reason"]
            assert "\n" not in refused["reason"]
            assert service.host.rooms == {}
            assert len(refusals(caplog)) == 1, refusals(caplog)
        await eve.send("create", ai="server:az")  # 7x6: its network ships with c4tui
        made = await room_where(eve, lambda m: m["seat"] == 0)
        assert made["seats"][1]["ai"] == "alphazero:sims=0"
        await eve.close()


async def test_a_network_file_is_not_taken_from_a_player(service, tmp_path):
    # A path on the server's host is the operator's to name (--engine NAME=SPEC): from a
    # player it would read any file there, and say whether it exists.
    eve = await login(service, "eve")
    await eve.send("create", ai=f"alphazero:net={tmp_path / 'none.npz'}")
    refused = await next_of(eve, "refused")
    assert "net= names a file on this machine, not taken here" in refused["reason"]
    assert service.host.rooms == {}
    await eve.close()
