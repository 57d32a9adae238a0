"""Test helpers: a headless Chromium (the system's) on the web front; its screen read by pyte.

The terminal in the page draws on a canvas, so the test reads what the browser was sent
over its websocket and draws it with pyte, the same terminal emulator as the ssh tests.
Tests using it skip when there is no Chromium (`apt-get install -y chromium`).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil

import pyte
import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def needs_chromium() -> None:
    if shutil.which("chromium") is None:
        pytest.skip("no Chromium here (apt-get install -y chromium)")


class BrowserTab:
    """A page on the web front; `text()` is what its terminal shows."""

    def __init__(self, page, columns: int = 200, rows: int = 60) -> None:
        self.page = page
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.closed = False
        page.on("websocket", self._watch)

    def _watch(self, websocket) -> None:
        self.screen.reset()  # a new session (a reload) draws from scratch
        self.closed = False
        websocket.on("framereceived", self._frame)
        websocket.on("close", self._close)

    def _frame(self, payload) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)
            self.changed.set()

    def _close(self, _websocket) -> None:
        self.closed = True
        self.changed.set()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, text: str, timeout: float = 60.0) -> str:
        async with asyncio.timeout(timeout):
            while text not in self.text():
                if self.closed:
                    raise AssertionError(f"closed before {text!r} showed:\n{self.text()}")
                self.changed.clear()
                await self.changed.wait()
        return self.text()

    async def focus(self) -> None:
        # The terminal's own input element: a click would land on the app (a drop on
        # the board, say) as a mouse event.
        await self.page.focus("textarea.xterm-helper-textarea")

    async def type(self, keys: str) -> None:
        await self.focus()
        await self.page.keyboard.type(keys)

    async def press(self, key: str) -> None:
        await self.focus()
        await self.page.keyboard.press(key)


@contextlib.asynccontextmanager
async def browser_tab(url: str, width: int = 1000, height: int = 700):
    """A headless Chromium page open at `url`, its requests listed in `tab.requests`."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = await browser.new_page(viewport={"width": width, "height": height})
            tab = BrowserTab(page)
            tab.requests = []
            page.on("request", lambda request: tab.requests.append(request.url))
            await page.goto(url)
            yield tab
        finally:
            await browser.close()
