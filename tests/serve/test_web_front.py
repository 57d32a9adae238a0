"""The web front with a stand-in client, over a plain websocket (the browser test is apart)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.forks import SERVED_REREAD, Forks
from c4tui.server.fronts.session_limits import Gate
from c4tui.server.fronts.web import WebFront
from tests.serve.browser import browser_tab, needs_chromium
from tests.serve.conftest import token_for
from tests.serve.served import children
from tests.serve.terminal import wait_gone

WEB_ECHO_CLIENT = (sys.executable, str(Path(__file__).with_name("web_echo_client.py")))
WEB_ECHO_ENTRY = f"{WEB_ECHO_CLIENT[1]}:main"  # the same, run by a fork server's child


@contextlib.asynccontextmanager
async def running_web(state_dir, limits, fork=False):
    """A web front running the stand-in client; with `fork`, from a fork server that
    imported Textual's settings (as the served client's does) and reads them again in
    each child (ready before this yields)."""
    command = ClientCommand(WEB_ECHO_CLIENT, memory=limits.client_memory)
    forks = Forks(command, WEB_ECHO_ENTRY, ("textual.constants",), SERVED_REREAD)
    front = WebFront(
        host="127.0.0.1",
        port=0,
        state_dir=state_dir,
        gate=Gate(limits),
        command=command,
        credentials=token_for,
        forks=forks if fork else None,
    )
    await front.start()
    if fork:
        await forks.start()
        await asyncio.wait_for(forks.ready.wait(), 60)
    try:
        yield front
    finally:
        await front.stop("the server is stopping")
        await forks.stop()


class Tab:
    """A browser tab's websocket: what the client drew, as text."""

    def __init__(self, websocket) -> None:
        self.websocket = websocket
        self.text = ""
        self.closed = False

    async def wait_for(self, text: str) -> str:
        async with asyncio.timeout(60):
            while text not in self.text:
                message = await self.websocket.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.text += message.data.decode()
                elif message.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"closed before {text!r} showed:\n{self.text}")
        return self.text

    async def wait_closed(self) -> None:
        async with asyncio.timeout(60):
            while (await self.websocket.receive()).type not in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.CLOSING,
            ):
                pass

    async def send(self, kind: str, data) -> None:
        await self.websocket.send_json([kind, data])


@contextlib.asynccontextmanager
async def open_tab(front, session: aiohttp.ClientSession | None = None, width=90, height=30):
    async with contextlib.AsyncExitStack() as stack:
        if session is None:
            session = await stack.enter_async_context(aiohttp.ClientSession())
        base = f"http://127.0.0.1:{front.port}"
        async with session.get(base + "/") as page:
            assert page.status == 200
        websocket = await stack.enter_async_context(
            session.ws_connect(f"{base}/ws?width={width}&height={height}")
        )
        yield Tab(websocket)


@pytest.mark.parametrize("fork", [False, True], ids=["by-exec", "forked"])
async def test_a_tab_runs_its_own_client_with_its_own_token(tmp_path, limits, fork):
    """Started by exec, or forked by the fork server (whose Textual read its settings
    under the fork server's environment, and reads them again in the child)."""
    async with running_web(tmp_path, limits, fork) as front, open_tab(front) as tab:
        text = await tab.wait_for("ready")
        client = int(re.search(r"pid=(\d+)", text)[1])
        assert client in children(front.forks.process.pid if fork else os.getpid())
        assert f"sid={client}" in text  # a session of its own, for the group's end
        assert "TEXTUAL_DRIVER=textual.drivers.web_driver:WebDriver" in text
        if fork:
            assert "textual-driver=textual.drivers.web_driver:WebDriver" in text
        assert "size 90x30" in text
        assert "C4TUI_ROOMS_TOKEN=token:web:" in text
        assert f"HOME={tmp_path / 'clients'}" in text
        assert "SECRET_OF_HOST=-" in text
        assert f"memory-limit={limits.client_memory}" in text
        await tab.send("stdin", "x")
        await tab.wait_for("key b'x'")
        await tab.send("resize", {"width": 100, "height": 40})
        await tab.wait_for("size 100x40")
    await wait_gone(client)  # the tab closed: its client ended


async def test_the_same_browser_is_the_same_player(tmp_path, limits):
    # aiohttp keeps cookies of an IP address only when told to (browsers do anyway).
    jar = aiohttp.CookieJar(unsafe=True)
    async with (
        running_web(tmp_path, limits) as front,
        aiohttp.ClientSession(cookie_jar=jar) as browser,
    ):
        tokens = []
        for _ in range(2):
            async with open_tab(front, browser) as tab:
                text = await tab.wait_for("ready")
                tokens.append(text.split("C4TUI_ROOMS_TOKEN=")[1].split()[0])
            async with asyncio.timeout(30):  # the server has seen the tab go
                while front.players.sessions:
                    await asyncio.sleep(0.01)
        async with open_tab(front) as stranger:
            text = await stranger.wait_for("ready")
    assert tokens[0] == tokens[1]
    assert tokens[0] not in text


async def test_the_page_loads_nothing_from_elsewhere(tmp_path, limits):
    async with running_web(tmp_path, limits) as front, aiohttp.ClientSession() as browser:
        async with browser.get(f"http://127.0.0.1:{front.port}/") as page:
            html = await page.text()
        assert "http://" not in html
        assert "https://" not in html
        for asset in ("/static/js/textual.js", "/static/fonts/RobotoMono-VariableFont_wght.ttf"):
            async with browser.get(f"http://127.0.0.1:{front.port}{asset}") as response:
                assert response.status == 200


async def test_a_closed_tab_ends_its_client(tmp_path, limits):
    async with running_web(tmp_path, limits) as front:
        async with open_tab(front) as tab:
            text = await tab.wait_for("ready")
            pid = int(text.split("pid=")[1].split()[0])
        await wait_gone(pid)
        async with asyncio.timeout(30):
            while list((tmp_path / "clients").iterdir()):
                await asyncio.sleep(0.05)


async def test_over_the_limit_a_tab_is_told_why(tmp_path, limits, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with (
        running_web(tmp_path, replace(limits, sessions_per_address=1)) as front,
        open_tab(front) as first,
        open_tab(front) as second,
    ):
        await first.wait_for("ready")
        await second.wait_for("too many sessions from 127.0.0.1")
    assert sum("refused a session" in r.getMessage() for r in caplog.records) == 1


async def test_stopping_tells_the_tab(tmp_path, limits):
    async with running_web(tmp_path, limits) as front, open_tab(front) as tab:
        await tab.wait_for("ready")
        await front.stop("the server is stopping; your game is kept")
        await tab.wait_for("c4tui: the server is stopping; your game is kept")


@pytest.mark.slow
async def test_a_headless_browser_draws_the_client_and_sends_keys(tmp_path, limits):
    needs_chromium()
    async with running_web(tmp_path, limits) as front:
        url = f"http://127.0.0.1:{front.port}/"
        async with browser_tab(url) as tab:
            await tab.wait_for("ready")
            await tab.type("x")
            await tab.wait_for("key b'x'")
            assert all(request.startswith(url) for request in tab.requests)


async def test_an_idle_tab_is_closed_with_a_message(tmp_path, limits):
    async with (
        running_web(tmp_path, replace(limits, idle_timeout=0.5)) as front,
        open_tab(front) as tab,
    ):
        # Not "ready" first: on a busy machine the client may start later than 0.5 s.
        await tab.wait_for("c4tui: closed after 0.5 s without a key press")


async def test_a_flood_of_tabs_is_refused(tmp_path, limits, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with (
        running_web(tmp_path, replace(limits, connects_per_minute=1)) as front,
        open_tab(front) as first,
        open_tab(front) as second,
    ):
        await first.wait_for("ready")
        await second.wait_for("too many connections from 127.0.0.1")
    assert sum("refused a connection" in r.getMessage() for r in caplog.records) == 1


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_websocket_from_another_sites_page_is_refused(tmp_path, limits, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with running_web(tmp_path, limits) as front, aiohttp.ClientSession() as browser:
        url = f"http://127.0.0.1:{front.port}/ws"
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await browser.ws_connect(url, origin="https://evil.example")
        assert refused.value.status == 403
        own = await browser.ws_connect(url, origin=f"http://127.0.0.1:{front.port}")
        await Tab(own).wait_for("ready")
        await own.close()
    lines = [r.getMessage() for r in caplog.records if "another site" in r.getMessage()]
    assert lines == [
        "web 127.0.0.1: refused a websocket from another site's page 'https://evil.example'"
    ]


@pytest.mark.parametrize("brackets", [10_000, 60_000])
async def test_a_deeply_nested_message_closes_the_tab_with_no_traceback(
    tmp_path, limits, caplog, brackets
):
    async with running_web(tmp_path, limits) as front, open_tab(front) as tab:
        await tab.wait_for("ready")
        await tab.websocket.send_str("[" * brackets)
        await tab.wait_closed()
    assert errors(caplog) == []


async def test_a_flood_of_keys_closes_the_tab_and_ends_its_client(tmp_path, limits, caplog):
    async with running_web(tmp_path, limits) as front:
        async with open_tab(front) as tab:
            pid = int((await tab.wait_for("ready")).split("pid=")[1].split()[0])
            with contextlib.suppress(ConnectionError):
                for _ in range(300):  # 1.2 MB of keys, as fast as they go
                    await tab.send("stdin", "x" * 4000)
            await tab.wait_closed()
        await wait_gone(pid)
    assert sum("more keys than a person types" in r.getMessage() for r in caplog.records) == 1
    assert errors(caplog) == []


async def test_oversized_http_headers_are_one_log_line(tmp_path, limits, caplog):
    async with running_web(tmp_path, limits) as front:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Junk: " + b"\x1b" * 100_000 + b"\r\n\r\n")
        assert (await reader.readline()).startswith(b"HTTP/1.0 400")
        writer.close()
    assert errors(caplog) == []
    (line,) = [r.getMessage() for r in caplog.records if "refused a request" in r.getMessage()]
    assert "\x1b" not in line


async def test_the_pages_font_has_cjk_fallbacks_from_the_visitors_system(tmp_path, limits):
    # The terminal asks for "Roboto Mono" (textual.js's own font list), which has no CJK
    # glyphs: the page widens that family for CJK characters with local fonts only.
    async with (
        running_web(tmp_path, limits) as front,
        aiohttp.ClientSession() as browser,
        browser.get(f"http://127.0.0.1:{front.port}/") as page,
    ):
        html = await page.text()
    faces = [face for face in html.split("@font-face")[1:] if "unicode-range" in face]
    cjk = [face.split("}")[0] for face in faces if '"Roboto Mono"' in face]
    assert cjk, "no CJK face for Roboto Mono"
    face = cjk[0]
    for covered in ("U+4E00-9FFF", "U+AC00-D7AF", "U+3000-33FF"):  # Han, Hangul, kana
        assert covered in face
    sources = [src.strip() for src in face.split("src:")[1].split(";")[0].split(",")]
    assert all(src.startswith("local(") for src in sources)  # nothing to download
    for system_font in ("Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei"):
        assert f'local("{system_font}")' in sources  # Linux, macOS, Windows


@pytest.mark.slow
async def test_a_browser_is_told_the_session_ended_and_plays_again_once_the_server_is_back(
    tmp_path, limits
):
    needs_chromium()
    async with running_web(tmp_path, limits) as front:
        port = front.port
        async with browser_tab(f"http://127.0.0.1:{port}/") as tab:
            await tab.wait_for("ready")
            await front.stop("the server is stopping")
            # The notice is on top of the terminal, where a player looks, and says why.
            notice = tab.page.locator("#ended")
            await notice.wait_for(state="visible")
            on_top = "() => document.elementFromPoint(innerWidth / 2, innerHeight / 2)"
            assert await tab.page.evaluate(f"({on_top})().closest('#ended') !== null")
            await tab.page.get_by_text("not answering").wait_for()
            again = WebFront(
                host="127.0.0.1",
                port=port,
                state_dir=tmp_path,
                gate=Gate(limits),
                command=ClientCommand(WEB_ECHO_CLIENT, memory=limits.client_memory),
                credentials=token_for,
            )
            reloaded = asyncio.ensure_future(tab.page.wait_for_event("websocket"))
            await again.start()
            try:  # the page starts a new session by itself
                await reloaded
                await tab.wait_for("ready")
                await notice.wait_for(state="hidden")
            finally:
                await again.stop("the server is stopping")


async def test_half_sent_requests_are_closed_and_one_address_holds_only_so_many(
    tmp_path, limits, caplog
):
    limits = replace(limits, request_timeout=1.0, connections_per_address=3)
    async with running_web(tmp_path, limits) as front:
        port = front.port
        held = []
        for head in (b"GET / HTTP/1.1\r\nHost: x\r\n", b"GET / HT", b""):  # a slowloris
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(head)
            held.append((reader, writer))
        # With three open, a fourth is closed at once, unanswered...
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert await asyncio.wait_for(reader.read(), 30) == b""
        writer.close()
        # ...while another address is answered as ever.
        connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with (
            aiohttp.ClientSession(connector=connector) as browser,
            browser.get(f"http://127.0.0.1:{port}/") as page,
        ):
            assert page.status == 200
        # The three are closed once a request's head has had its time.
        for reader, writer in held:
            assert await asyncio.wait_for(reader.read(), 30) == b""
            writer.close()
    closed = [r for r in caplog.records if "no whole request within 1 s" in r.getMessage()]
    refused = [r for r in caplog.records if "3 open from this address" in r.getMessage()]
    assert len(closed) == 3 and len(refused) == 1
