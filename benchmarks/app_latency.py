"""How fast the app feels: seconds to the first frame, to the first paint of help and
settings and to the first hint's reaction, and key-to-screen latency while MCTS thinks.
Not a test: it prints figures.

    uv run python benchmarks/app_latency.py [--presses 40] [--starts 3] [--pause 2]

The app runs for real in a pseudo-terminal (120x40), as a person would start it. Each
figure comes with a reference measured in the same run, because timings on a shared
machine are noisy:
- first frame: c4tui against a minimal Textual app (one Static) started the same way;
- help, settings: the first opening after the game's first frame (what a new user
  waits for), then the second, against the cursor moved in the same process; the time
  runs from writing the key to the first byte of a line only that screen shows. The
  key comes `--pause` seconds after the first frame (and after closing the screen), as
  a person reads the board first: the app readies these screens in that time
  (c4tui/app/prewarm.py); `--pause 0.5` shows a key that comes while it does;
- hint: in a position the perfect player takes a few tenths of a second to solve,
  from `h` to the first sign that it is looking (its notice), and to the hint itself,
  against the cursor moved in the same process;
- key latency: the cursor is moved (right, left, ...) while MCTS searches with a long
  budget, and again while nothing searches; the time runs from writing the arrow key
  to the first byte of the redrawn cursor (▼) on the terminal.
Each opening and hint figure is the median of `--starts` fresh processes.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

COLUMNS, LINES = 120, 40
REFERENCE_APP = """
from textual.app import App
from textual.widgets import Static

class Reference(App):
    def compose(self):
        yield Static("reference ready")

Reference().run()
"""


class Terminal:
    """A program in a pseudo-terminal, with its output read as it arrives."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.buffer = b""

    def wait_for(self, marker: bytes, timeout: float = 30.0) -> float:
        """Seconds until `marker` shows up in the output (the output is consumed)."""
        start = time.perf_counter()
        while True:
            index = self.buffer.find(marker)
            if index >= 0:
                self.buffer = self.buffer[index + len(marker) :]
                return time.perf_counter() - start
            left = timeout - (time.perf_counter() - start)
            if left <= 0:
                raise TimeoutError(f"{marker!r} did not appear within {timeout} s")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    self.buffer += os.read(self.master, 65536)
                except OSError:
                    raise TimeoutError("the program ended") from None

    def drain(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    os.read(self.master, 65536)
                except OSError:
                    return
        self.buffer = b""

    def press(self, key: bytes) -> float:
        self.buffer = b""
        os.write(self.master, key)
        return time.perf_counter()

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.master)


def environment(config: str) -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLUMNS), LINES=str(LINES))
    # Its own settings and kept games: no saved game of the user's comes back.
    env["C4TUI_CONFIG_DIR"] = env["C4TUI_DATA_DIR"] = config
    env.pop("NO_COLOR", None)
    return env


def first_frame(argv: list[str], marker: bytes, env: dict[str, str]) -> float:
    terminal = Terminal(argv, env)
    try:
        terminal.wait_for(marker)
        return time.perf_counter() - terminal.started
    finally:
        terminal.close()


CURSOR = "▼".encode()
ARROWS = (b"\x1b[C", b"\x1b[D")  # right, left


def cursor_latencies(terminal: Terminal, presses: int) -> list[float]:
    """Move the cursor `presses` times; seconds from the key to the cursor redrawn."""
    latencies = []
    for index in range(presses):
        terminal.drain(0.1)
        sent = terminal.press(ARROWS[index % 2])
        terminal.wait_for(CURSOR, timeout=10)
        latencies.append(time.perf_counter() - sent)
    return latencies


READY = b"Your turn"
# Lines only that screen shows, and the key that opens it.
SCREENS = {"help": (b"?", b"Drop discs into"), "settings": (b"s", b"Who moves first")}
ESCAPE = b"\x1b"


def opening_times(
    app: list[str], env: dict[str, str], key: bytes, marker: bytes, pause: float
) -> tuple[float, float, float]:
    """Seconds from `key` to `marker` on screen: the first opening, the second, and the
    cursor moved (the median of five) in the same process. `pause`: seconds between
    the first frame (or closing the screen) and the key, as a person reads the board."""
    terminal = Terminal(app, env)
    try:
        terminal.wait_for(READY)
        terminal.drain(pause)
        times = []
        for _ in range(2):
            sent = terminal.press(key)
            terminal.wait_for(marker, timeout=10)
            times.append(time.perf_counter() - sent)
            terminal.drain(0.3)
            terminal.press(ESCAPE)
            terminal.drain(pause)
        cursor = statistics.median(cursor_latencies(terminal, 5))
        return times[0], times[1], cursor
    finally:
        terminal.close()


# ● to move; the perfect player's hint takes about 0.4 s here (a 6-ply position between
# the book's 8-ply and 12-ply entries), long enough to show whether the app waits for it.
HINT_POSITION = "427712"
LOOKING = b"ooking for a hint"  # the notice's first letter comes in a segment of its own
HINT = b"int: column"


def hint_times(app: list[str], env: dict[str, str], pause: float) -> tuple[float, float, float]:
    """Seconds from the first `h` to its first visible reaction and to the hint, and the
    cursor moved in the same process (the reference)."""
    terminal = Terminal(app, env)
    try:
        terminal.wait_for(READY)
        terminal.drain(pause)
        sent = terminal.press(b"h")
        terminal.wait_for(LOOKING, timeout=10)
        reaction = time.perf_counter() - sent
        terminal.wait_for(HINT, timeout=30)
        answer = time.perf_counter() - sent
        cursor = statistics.median(cursor_latencies(terminal, 5))
        return reaction, answer, cursor
    finally:
        terminal.close()


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def row(figure: str, ours: list[float], reference: list[float]) -> None:
    """One line of the table: medians in milliseconds and their ratio."""
    mine, theirs = statistics.median(ours), statistics.median(reference)
    print(f"{figure:<44}{mine * 1000:>10.1f}{theirs * 1000:>12.1f}{mine / theirs:>8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40, help="cursor moves per case")
    parser.add_argument("--starts", type=int, default=3, help="app starts per case")
    parser.add_argument(
        "--pause", type=float, default=2.0, help="seconds before a key opens a screen"
    )
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as config:
        env = environment(config)
        app = [python, "-m", "c4tui", "--opponent", "mcts:time=60"]
        reference = [python, "-c", REFERENCE_APP]
        ours = [first_frame(app, READY, env) for _ in range(args.starts)]
        theirs = [first_frame(reference, b"reference ready", env) for _ in range(args.starts)]

        terminal = Terminal(app, env)
        try:
            terminal.wait_for(READY)
            idle = cursor_latencies(terminal, args.presses)
            terminal.press(b"4")  # MCTS now searches for a minute
            terminal.wait_for(b"thinking")
            terminal.drain(1.0)  # past the first second, when its favourite column settles
            busy = cursor_latencies(terminal, args.presses)
        finally:
            terminal.close()
        openings = {
            name: [opening_times(app, env, key, marker, args.pause) for _ in range(args.starts)]
            for name, (key, marker) in SCREENS.items()
        }
        hint_app = [*app, "--position", HINT_POSITION]
        hints = [hint_times(hint_app, env, args.pause) for _ in range(args.starts)]

    first, ref_first = min(ours), min(theirs)
    print(f"{'figure':<44}{'c4tui':>10}{'reference':>12}{'ratio':>8}")
    print(
        f"{f'first frame, s (best of {args.starts})':<44}{first:>10.3f}{ref_first:>12.3f}"
        f"{first / ref_first:>8.2f}"
    )
    print(
        f"{'key to screen while MCTS thinks, ms p95':<44}{p95(busy) * 1000:>10.1f}"
        f"{p95(idle) * 1000:>12.1f}{p95(busy) / p95(idle):>8.2f}"
    )
    print(
        f"{'key to screen while MCTS thinks, ms median':<44}"
        f"{statistics.median(busy) * 1000:>10.1f}{statistics.median(idle) * 1000:>12.1f}"
        f"{statistics.median(busy) / statistics.median(idle):>8.2f}"
    )
    for name, times in openings.items():
        cursor = [t[2] for t in times]
        row(f"first paint of {name}, ms (median)", [t[0] for t in times], cursor)
        row(f"second paint of {name}, ms (median)", [t[1] for t in times], cursor)
    row("first hint, first reaction, ms (median)", [h[0] for h in hints], [h[2] for h in hints])
    row("first hint, the hint shown, ms (median)", [h[1] for h in hints], [h[2] for h in hints])
    print("reference: first frame of a one-Static Textual app; key latency with no search;")
    print("  help, settings and hint: the cursor moved in the same process")
    print(f"  help, settings and hint: the key {args.pause:g} s after the first frame")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
