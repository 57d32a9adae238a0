"""Write the README's screenshots (SVG) from the same fixed states the snapshot tests use.

    uv run python scripts/make_screenshots.py            # every state
    uv run python scripts/make_screenshots.py mcts won   # just these

The states live in `c4tui/app/showcase.py`; each is built with a fixed seed, an
iteration or depth budget, a pinned theme and the app's `steady` mode, so running the
script twice writes the same files.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from textual._doc import take_svg_screenshot

from c4tui.app.showcase import STATES

OUT = Path(__file__).resolve().parent.parent / "screenshots"
DEFAULT = ("start", "mcts", "negamax", "perfect", "settings", "won")


def main(names: list[str]) -> int:
    unknown = [name for name in names if name not in STATES]
    if unknown:
        print(f"unknown state(s): {', '.join(unknown)} (known: {', '.join(STATES)})")
        return 2
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as config:
        for name in names or DEFAULT:
            state = STATES[name]
            svg = take_svg_screenshot(
                app=state.app(Path(config)),
                terminal_size=state.size,
                run_before=state.run_before(),
                title=f"c4tui — {state.description}",
            )
            path = OUT / f"{name}.svg"
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(OUT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
