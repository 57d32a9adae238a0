"""Write the built-in opening suites of arena, rate and sprt: c4tui/tournament/suites/book-K.txt.

Each suite holds openings of K plies (K = 2, 4, 6, 8) on 7x6, distinct up to mirroring,
where neither side can complete a line yet, and whose exact score (the solver, with the
opening book) is a draw or a win only with one of the last stones (|score| <= LATE_SCORE):
from such an opening both games of a pair matter, since neither colour starts from a
position won early. Openings are found by seeded random play (schedule.random_openings),
at most SUITE_SIZE of them, written in the order found.

    uv run python scripts/opening_suites.py
"""

from __future__ import annotations

from pathlib import Path

from c4tui.engine.board.notation import format_moves
from c4tui.tournament.openings import LATE_SCORE, SUITE_PLIES, suite_path
from c4tui.tournament.schedule import random_openings

SUITE_SIZE = 1000
SEED = 47


def main() -> None:
    for plies in SUITE_PLIES:
        found: list[tuple[int, ...]] = []
        seen: set[tuple[int, ...]] = set()
        for opening in random_openings(plies, SEED, LATE_SCORE):
            if opening in seen or len(found) == SUITE_SIZE:
                break  # random_openings repeats itself once it finds no new one
            seen.add(opening)
            found.append(opening)
        lines = [
            f"# book:{plies}: {len(found)} openings of {plies} plies, 7x6, drawn or won late "
            f"(|exact score| <= {LATE_SCORE}); written by scripts/opening_suites.py",
        ]
        lines += [format_moves(opening) for opening in found]
        path: Path = suite_path(plies)
        path.write_text("\n".join(lines) + "\n")
        print(f"{path}: {len(found)} openings")


if __name__ == "__main__":
    main()
