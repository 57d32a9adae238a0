"""What one lobby event costs a lobby client: CPU per lobby view shown, in process.
Not a test: it prints figures.

    uv run python benchmarks/lobby_events.py [--rooms 20] [--events 300] [--profile]

A served client sitting in the lobby is shown every change of the lobby's rooms (a seat
taken, a watcher come or gone, a game ended, a room opened or closed) and of who is
online; serve_load.py counts what that costs it over the server's moves ("lobby" in its
client CPU column). Here the lobby screen runs headless at 120x40 on a match that is
not connected (nothing else runs), and is shown `--events` lobby views one after the
other, each drawn before the next. Each kind of event is its own figure:
- nothing changed: the harness's own cost (Textual's idle wait and screen update), the
  floor to take from the others;
- a watcher: one room's watchers go up, the one before's down (two rows' cells);
- a room came and went: a room is added at the end, then taken away again;
- someone online: the online line's words change, the rooms do not.
The CPU is the process's (time.process_time), so the figures hold under load.
`--profile` prints cProfile's top functions for the watcher events.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import time
from collections.abc import Callable

from textual.app import App

from c4tui.app.reader.log import Spoken
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.match.room_view import LobbyView, RoomSummary


class Unconnected:
    """What the lobby screen reads of a served match, with no server behind it."""

    server_engines: tuple[str, ...] = ()
    name = "ann"
    ai_seconds = 1.0

    def __init__(self) -> None:
        self.lobby = LobbyView()


class LobbyApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.spoken = Spoken()  # the served app's lines, which the lobby's reader says
        self.lobby_screen = LobbyScreen(Unconnected())  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.push_screen(self.lobby_screen)


def room(number: int, watchers: int = 0) -> RoomSummary:
    return RoomSummary(
        number, None, ((f"p{number}", None), (f"q{number}", None)), False, False, watchers
    )


def views(rooms: int) -> dict[str, Callable[[int], LobbyView]]:
    """Each kind of event, as the lobby view shown at step n."""
    online = tuple(f"p{n}" for n in range(1, 2 * rooms + 1))
    steady = tuple(room(n) for n in range(1, rooms + 1))

    def watcher(n: int) -> LobbyView:
        watched = n % rooms + 1
        return LobbyView(
            online, tuple(room(k, 1 if k == watched else 0) for k in range(1, rooms + 1))
        )

    def room_came_and_went(n: int) -> LobbyView:
        return LobbyView(online, steady + ((room(rooms + 1),) if n % 2 else ()))

    def someone_online(n: int) -> LobbyView:
        return LobbyView(online + ((f"guest{n % 2}",) if n % 2 else ()), steady)

    return {
        "nothing changed": lambda n: LobbyView(online, steady),
        "a watcher": watcher,
        "a room came and went": room_came_and_went,
        "someone online": someone_online,
    }


async def measure(rooms: int, events: int, profile: bool) -> None:
    app = LobbyApp()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.lobby_screen
        for name, view in views(rooms).items():
            for n in range(20):  # settled: the rows made, the first draws done
                screen.show_lobby(view(n))
                await pilot.pause()
            profiler = cProfile.Profile() if profile and name == "a watcher" else None
            started = time.process_time()
            if profiler is not None:
                profiler.enable()
            for n in range(20, 20 + events):
                screen.show_lobby(view(n))
                await pilot.pause()
            if profiler is not None:
                profiler.disable()
            cpu = (time.process_time() - started) / events
            print(f"| {name} | {cpu * 1000:.2f} ms |")
            if profiler is not None:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=20, help="rooms listed")
    parser.add_argument("--events", type=int, default=300, help="lobby views of each kind")
    parser.add_argument("--profile", action="store_true", help="cProfile the watcher events")
    options = parser.parse_args()
    print(f"A lobby client's CPU per lobby event: {options.rooms} rooms, 120x40, in process\n")
    print("| event | CPU per event |\n|---|---|")
    asyncio.run(measure(options.rooms, options.events, options.profile))


if __name__ == "__main__":
    main()
