"""A browser chooses a name of its own and is that name again when it comes back: the
whole way, a real `c4tui serve`, headless Chromium (docs/community.md, Names)."""

from __future__ import annotations

import asyncio

import pytest

from tests.serve.browser import BrowserTab, browser_tab, needs_chromium
from tests.serve.served import served


async def gone(tab: BrowserTab, text: str) -> None:
    """Until `text` is no longer on the tab's screen."""
    async with asyncio.timeout(60):
        while text in tab.text():
            tab.changed.clear()
            await tab.changed.wait()


async def typed(tab: BrowserTab, text: str) -> None:
    """`text` typed in one burst into the field that has the keys, and shown in it."""
    await tab.type(text)
    await tab.wait_for(f"▊  {text}")


@pytest.mark.slow  # a server, a browser and its client processes
async def test_a_browser_chooses_its_name_and_a_reload_is_that_name_again(tmp_path):
    needs_chromium()
    async with (
        served(tmp_path, "--no-ssh") as server,
        browser_tab(f"http://127.0.0.1:{server.web_port}/") as tab,
    ):
        await tab.wait_for("you are web-")
        await tab.press("p")
        await tab.wait_for("(you)")
        await tab.press("Enter")  # oneself, first in the list
        await tab.wait_for("n chooses a name of your own")
        await tab.press("n")  # the name typed straight after it is in the field
        await typed(tab, "web-me")
        await tab.press("Enter")
        await tab.wait_for("Names starting with web-")  # said under the field
        for _ in "web-me":
            await tab.press("Backspace")
        await gone(tab, "▊  web")
        await typed(tab, "Ann")
        await tab.press("Enter")
        await tab.wait_for("You are Ann now")
        await tab.press("Escape")
        await gone(tab, "n chooses a name")  # the profile closed: the lobby
        await tab.wait_for("Online (1): Ann")
        assert "you are Ann" in tab.text()
        await tab.page.reload()  # the same cookie: Ann again, not a new web- name
        await gone(tab, "you are Ann")  # the page's terminal starts again, blank
        text = await tab.wait_for("Online (1): Ann")
        assert "you are Ann" in text and "web-" not in text, text
