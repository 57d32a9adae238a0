"""Write the README's screenshots (SVG) from the same fixed states the snapshot tests use.

    uv run python scripts/make_screenshots.py            # every state
    uv run python scripts/make_screenshots.py mcts won   # just these

The states live in `tests/app/showcase.py` (test code, not shipped); each is built with
a fixed seed, an iteration or depth budget, a pinned theme and the app's `steady` mode,
so running the script twice writes the same files.

The served screens (lobby.svg, room.svg, tournament.svg) and the screen-reader mode
(reader.svg) are the snapshot tests' own SVGs, copied by `--served` from
tests/app/**/__snapshots__/ once those tests pass (their states need a room service).
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
    "alphazero",
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


SNAPSHOTS = ROOT / "tests" / "app"
COPIED = {
    "lobby": "__snapshots__/test_snapshots/test_the_lobby_with_a_game_under_way_and_a_room_waiting",
    "room": "__snapshots__/test_snapshots/test_a_room_seen_by_a_spectator",
    "tournament": "__snapshots__/test_tournament_screen/"
    "test_a_swiss_in_its_second_round_seen_by_a_spectator",
    "reader": "reader/__snapshots__/test_reader_snapshots/test_a_game_against_the_ai_in_lines",
}


def copy_served() -> int:
    for name, snapshot in COPIED.items():
        path = OUT / f"{name}.svg"
        path.write_text((SNAPSHOTS / f"{snapshot}.raw").read_text("utf-8"), "utf-8")
        print(f"wrote {path.relative_to(OUT.parent)}")
    return 0


def main(names: list[str]) -> int:
    if names == ["--served"]:
        return copy_served()
    unknown = [name for name in names if name not in STATES]
    if unknown:
        print(f"unknown state(s): {', '.join(unknown)} (known: {', '.join(STATES)})")
        return 2
    OUT.mkdir(exist_ok=True)
    for name in names or DEFAULT:
        # A directory of its own for each state, as each snapshot test has: the games
        # played in one state are kept there and must not show in the next one's list.
        with tempfile.TemporaryDirectory() as config:
            svg = asyncio.run(screenshot(STATES[name], Path(config)))
        path = OUT / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        print(f"wrote {path.relative_to(OUT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
