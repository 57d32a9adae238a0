"""Write the README's screenshots (SVG) from the same fixed states the snapshot tests use.

    uv run python scripts/make_screenshots.py            # every state
    uv run python scripts/make_screenshots.py mcts won   # just these

The states live in `tests/app/showcase.py` (test code, not shipped); each is built with
a fixed seed, an iteration or depth budget, a pinned theme and the app's `steady` mode,
so running the script twice writes the same files.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the states are test code: tests/app/showcase.py

from tests.app.showcase import STATES, State  # noqa: E402

OUT = ROOT / "screenshots"
DEFAULT = (
    "start",
    "mcts",
    "negamax",
    "perfect",
    "settings",
    "won",
    "games",
    "review",
    "analysis",
    "scores",
    "classic",
)


async def screenshot(state: State, config: Path) -> str:
    """The SVG of one state, taken once its keys are pressed and the AI has settled."""
    app = state.app(config)
    async with app.run_test(size=state.size) as pilot:
        await state.run_before()(pilot)
        await pilot.pause()
        return app.export_screenshot(title=f"c4tui — {state.description}")


def main(names: list[str]) -> int:
    unknown = [name for name in names if name not in STATES]
    if unknown:
        print(f"unknown state(s): {', '.join(unknown)} (known: {', '.join(STATES)})")
        return 2
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as config:
        for name in names or DEFAULT:
            svg = asyncio.run(screenshot(STATES[name], Path(config)))
            path = OUT / f"{name}.svg"
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(OUT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
