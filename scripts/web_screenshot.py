"""Write screenshots/web.png: the web front of `c4tui serve` in a headless Chromium.

    uv run python scripts/web_screenshot.py

A fresh server (its own state directory, free ports, no ssh) and the system's Chromium
(`apt-get install -y chromium`): the lobby, then a game against the AI after one move
each, as a visitor of the web address sees it.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the browser and server helpers are test code: tests/serve/

from tests.serve.browser import browser_tab  # noqa: E402
from tests.serve.served import served  # noqa: E402

OUT = ROOT / "screenshots" / "web.png"


async def shoot(url: str) -> None:
    async with browser_tab(url, 1200, 760) as tab:
        await tab.wait_for("Play together")
        await tab.press("a")
        await tab.wait_for("Your turn")
        await tab.press("4")
        await tab.wait_for("Moves (2)")
        await tab.wait_for("Your turn")
        await tab.page.screenshot(path=str(OUT))


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="c4tui-web-shot-") as state:
        async with served(Path(state), "--no-ssh", "--max-ai-seconds", "1") as server:
            await shoot(f"http://127.0.0.1:{server.web_port}/")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    asyncio.run(main())
