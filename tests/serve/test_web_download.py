"""The web front serves a file a client delivers (a finished game) once, as a download."""

from __future__ import annotations

import aiohttp

from tests.serve.test_web_front import running_web

GAME = "c4tui game 1\nMoves: 4455667\n"


class DeliveringTab:
    """Stands in for a tab's app service: answers each request for a chunk as Textual's
    web driver does, the file and then an empty chunk."""

    def __init__(self, front, key: str) -> None:
        self.front, self.key = front, key
        self.app_service_id = "tab-1"
        self.chunks = [GAME.encode(), b""]

    async def send_meta(self, meta: dict) -> bool:
        assert meta["type"] == "deliver_chunk_request" and meta["key"] == self.key
        await self.front.downloads.chunk_received(self.key, self.chunks.pop(0))
        return True


async def test_a_delivered_game_downloads_once_under_a_safe_name(tmp_path, limits):
    async with running_web(tmp_path / "state", limits) as front:
        key = "0123456789abcdef"
        await front.downloads.create_download(
            app_service=DeliveringTab(front, key),
            delivery_key=key,
            file_name='ann "vs" bob/../x.c4',  # a client's name for it is not trusted
            open_method="download",
            mime_type="text/html",
        )
        url = f"http://127.0.0.1:{front.port}/download/{key}"
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as response:
                assert response.status == 200
                assert await response.text() == GAME
                assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
                disposition = response.headers["Content-Disposition"]
                assert disposition == 'attachment; filename="annvsbob..x.c4"'
            async with session.get(url) as again:
                assert again.status == 404  # served once
