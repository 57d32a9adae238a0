"""Bots on a real server: two `c4tui bot` processes play each other on `c4tui serve`
while a person watches over ssh (the screen drawn by pyte) and sees them think.

The bot API's parts, its refusals and its limits are tested in process, fast, in
tests/rooms/test_bots.py; this is the whole of it, as a user runs it.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys

import pytest

from c4tui.server.serving import claim_state_dir
from c4tui.server.store.bot_records import BotRecords
from c4tui.server.store.opening import open_store
from tests.serve.served import ROOT, served
from tests.serve.terminal import screen_session

# The thinking panel while a bot searches (live): the bot's name, and its MCTS's figures.
THINKING = re.compile(r"thinking… · bot (alpha|beta)[\s\S]*visits[\s\S]*[\d,]+ iterations")


async def start_bot(port: int, token: str, *flags: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "c4tui",
        "bot",
        "--server",
        f"http://127.0.0.1:{port}",
        "--engine",
        "mcts:time=1",  # a game long enough to be watched on a loaded machine
        "--games",
        "1",
        *flags,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "C4TUI_BOT_TOKEN": token},  # not in the process list
    )


@pytest.mark.slow
async def test_two_bots_play_each_other_while_a_person_watches_them_think(tmp_path):
    state = tmp_path / "state"
    claim_state_dir(state)
    with open_store(state) as store:  # as the lobby makes them (`b`), before the server starts
        alpha = BotRecords(store).make("ssh-name:ann", "alpha")[1]
        beta = BotRecords(store).make("ssh-name:bob", "beta")[1]
    async with (
        served(state) as server,
        screen_session(server.ssh_port, "cy", columns=120, rows=40) as cy,
    ):
        await cy.wait_for("Play together")
        bots = [
            await start_bot(server.web_port, beta),
            await start_bot(server.web_port, alpha, "--challenge", "beta"),
        ]
        # The lobby's list of rooms (its columns may cut a name: "BOT alp…"): a row with
        # its number, not the online line, which lists the bots as soon as they connect.
        await cy.wait_for(re.compile(r"│ *\d+ +BOT al\S*\s+BOT be"))
        cy.type("w")
        await cy.wait_for("you are watching")
        await cy.wait_for(THINKING)
        # the end on the board, or in the notice as the room closes: the bots leave at
        # once, and both can reach the watcher's screen in one draw
        await cy.wait_for(re.compile(r"BOT (alpha|beta) . w(ins|on)|draw", re.I))
        logs = []
        for bot in bots:
            _, err = await asyncio.wait_for(bot.communicate(), 60)
            logs.append(err.decode())
            assert bot.returncode == 0, err.decode()
        assert "challenged beta" in logs[1] and "challenge from alpha: accepted" in logs[0]
        assert any("won (line)" in log for log in logs) or all("draw" in log for log in logs)
    assert "Traceback" not in server.log.decode()
