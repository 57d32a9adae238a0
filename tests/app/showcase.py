"""Fixed app states for snapshot tests and README screenshots, the same in both places.

Each state is an app built with a fixed seed, an iteration or depth budget and a pinned
theme, in `steady` mode (no clocks, rates or pauses on screen), plus the keys that lead
to the state. Nothing here is patched: determinism is a setting of the app.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.worker import WorkerState

from c4tui.app.app import ConnectFourApp
from c4tui.app.settings import Settings
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.position import Position
from c4tui.records.kept_games import GameLibrary

SIZE = (120, 40)
SEED = 7
# A full board without four in a row anywhere (found by a seeded random search).
DRAW_MOVES = "467542311242375735765675733135661624214421"
# A random game of 27 moves, won by ●, with blunders on both sides.
REVIEWED_GAME = "634571633725311571417341272"


@dataclass(frozen=True)
class State:
    """One screen to capture: how to build the app and the keys that lead there."""

    name: str
    description: str
    settings: Settings = field(default_factory=Settings)
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = SIZE
    moves: str = ""  # moves already played when the app opens
    kept: tuple[tuple[str, GameRecord], ...] = ()  # games in the library, by name
    paused: bool = False  # two engines watched, paused before their first move (Space)

    def app(self, config_dir: Path) -> ConnectFourApp:
        library = GameLibrary(config_dir / "games")
        for name, record in self.kept:
            path = library.save(name, record)
            # Last played when the game says it was played, not when the test runs.
            played = datetime.fromisoformat(record.date.replace("Z", "+00:00")).timestamp()
            os.utime(path, (played, played))
        library.forget_current()
        library.release()
        app = ConnectFourApp(
            config_dir=config_dir,
            settings=self.settings,
            seed=SEED,
            steady=True,
            save_settings=False,
            moves=self.moves,
            games_dir=config_dir / "games",
            resume=False,
        )
        # As if Space was pressed before the first search: a key would race it.
        if self.paused:
            app.match.pause()
        return app

    def run_before(self) -> Callable[[Pilot], Awaitable[None]]:
        """Press the keys, letting every AI search finish before the next key."""

        async def drive(pilot: Pilot) -> None:
            await settle(pilot)
            for key in self.keys:
                await type_keys(pilot, key)
                await settle(pilot)

        return drive


CHARACTERS = {"space": " ", "enter": "\r", "question_mark": "?", "escape": "\x1b"}


def post_key(pilot: Pilot, key: str) -> None:
    """Queue one key press for the app, as the terminal driver would."""
    char = CHARACTERS.get(key, key if len(key) == 1 else None)
    pilot.app.post_message(events.Key(key, char))


async def type_keys(pilot: Pilot, *keys: str) -> None:
    """Press keys without Pilot.press's wait for an idle process, each handled in full.

    Pilot.press waits until the whole process stops using the CPU, up to a second per
    key, which never happens while an engine thread searches. Here each key waits until
    it has made its whole way: the app, then the focused widget and each of its
    ancestors up to the app again, where the app's bindings act. Each step is one
    message posted to the next node, and `pilot.pause(0)` returns only once every
    message queued when it began is handled, so one pause per step is enough whatever
    the machine's load (one pause for all steps left the key halfway on a busy machine:
    the disc landed, the cursor had not moved yet).
    """
    for key in keys:
        post_key(pilot, key)
        await keys_handled(pilot)


async def burst(pilot: Pilot, *keys: str) -> None:
    """Keys typed in one burst, as one read of the terminal brings them: all queued before
    the app handles any (Pilot.press and type_keys let each settle first); then wait
    until all are handled."""
    for key in keys:
        post_key(pilot, key)
    await keys_handled(pilot)


async def keys_handled(pilot: Pilot) -> None:
    """Wait until the keys posted so far have made their whole way (see type_keys); the
    app lets a key through only when the one before has come to rest (key_order.py)."""
    app = pilot.app
    await pilot.pause(0)  # the last key reached the app, which holds it or lets it go
    deadline = time.monotonic() + 60  # a key that never comes to rest is a bug
    while not app.key_order.quiet:
        assert time.monotonic() < deadline, "the keys held never came to rest"
        await pilot.pause(0)
    for _ in range(1 + len((app.focused or app.screen).ancestors_with_self)):
        await pilot.pause(0)


async def open_settings(app, pilot: Pilot):
    """Press s and return the screen it opened (the settings form)."""
    await type_keys(pilot, "s")
    await pilot.pause()
    return app.screen


async def settle(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until no AI search or hint is running and the screen has caught up; fail
    after `timeout` seconds (a search that never ends is a bug, not a slow machine)."""
    app = pilot.app
    for _ in range(int(timeout / 0.01)):
        await pilot.pause(0.01)
        busy = any(
            worker.state in (WorkerState.PENDING, WorkerState.RUNNING) for worker in app.workers
        )
        if not busy and not getattr(app, "thinking", False):
            await pilot.pause(0)
            return
    raise AssertionError(f"the app was still busy after {timeout:g} s: {list(app.workers)}")


async def until(
    pilot: Pilot, condition: Callable[[], object], what: str = "", timeout: float = 60.0
) -> None:
    """Let the app run until `condition()` holds: a test waits on what it expects, never
    a fixed time. Fails after `timeout` seconds (something that never comes is a bug)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {timeout:g} s for {what or condition}")
        await pilot.pause(0.01)


def kept_game(moves: str, first: str, second: str, date: str) -> GameRecord:
    return GameRecord.of(Position.from_moves(moves), (first, second), date)


KEPT = (
    ("20261121-183005-1", kept_game("4453", "You", "mcts:time=1", "2026-11-21T18:30:05Z")),
    ("20261122-091500-1", kept_game("4343434", "You", "negamax:depth=6", "2026-11-22T09:15:00Z")),
    ("20261122-204412-1", kept_game(DRAW_MOVES, "Player 1", "Player 2", "2026-11-22T20:44:12Z")),
    ("20261123-071003-1", kept_game("1212344", "mcts:time=1", "perfect", "2026-11-23T07:10:03Z")),
)


def against(spec: str, **options: object) -> Settings:
    return Settings(opponent=spec, theme="textual-dark", **options)  # type: ignore[arg-type]


def humans(**options: object) -> Settings:
    return Settings(mode="humans", theme="textual-dark", **options)  # type: ignore[arg-type]


STATES = {
    state.name: state
    for state in (
        State("start", "the game screen before the first move", against("mcts:iterations=2000")),
        State(
            "mcts",
            "mid-game against MCTS: visits, win rates, UCT values and the share of visits",
            against("mcts:iterations=3000"),
            keys=("5", "3", "4"),
        ),
        State(
            "negamax",
            "mid-game against NegaMax: scores per column and the depth reached",
            against("negamax:depth=5"),
            keys=("4", "4", "3"),
        ),
        State(
            "flat",
            "against flat Monte Carlo: playouts and win rate per column",
            against("flat:playouts=700"),
            keys=("4", "3"),
        ),
        State(
            "alphazero",
            "mid-game against AlphaZero: the network's priors, visits and win rates, and "
            "its own view of the position",
            against("alphazero:sims=200"),
            # A line where your third stone gives the AI two winning columns: the book
            # rules out the others, and the search weighs the two by the network's priors.
            keys=("4", "3", "4"),
        ),
        State(
            "perfect",
            "against the perfect player: every column's exact outcome",
            against("perfect"),
            keys=("4", "4"),
        ),
        State("settings", "the settings screen", against("mcts:time=1"), keys=("s",)),
        State(
            "settings-small",
            "the settings screen in the smallest terminal: every field and button visible",
            against("negamax:depth=6", second_opponent="perfect"),
            keys=("s",),
            size=(80, 24),
        ),
        State("help", "the help screen", against("mcts:time=1"), keys=("question_mark",)),
        State(
            "won",
            "NegaMax against random, watched: the winning four highlighted",
            Settings(
                mode="ai-ai",
                opponent="negamax:depth=4",
                second_opponent="random",
                theme="textual-dark",
            ),
        ),
        State(
            "draw",
            "a drawn game on a full board",
            humans(),
            keys=(DRAW_MOVES[-1],),
            moves=DRAW_MOVES[:-1],
        ),
        State(
            "paused",
            "two engines watched, paused mid-game (Space goes on, . plays one move)",
            Settings(
                mode="ai-ai",
                opponent="mcts:iterations=2000",
                second_opponent="negamax:depth=4",
                theme="textual-dark",
            ),
            moves="4453",
            paused=True,
        ),
        State("games", "the kept games", against("mcts:time=1"), keys=("g",), kept=KEPT),
        State(
            "scores",
            "two people with the scores overlay: every column's exact result",
            humans(),
            keys=("o",),
            moves="4453",
        ),
        State(
            "review",
            "the review of a finished game: every move judged by the exact solver",
            humans(),
            keys=("v", "left", "left"),
            moves=REVIEWED_GAME,
        ),
        State(
            "learn",
            "learn from your mistakes: the first mistake of a reviewed game set up again",
            humans(),
            keys=("v", "l"),
            moves=REVIEWED_GAME,
        ),
        State(
            "puzzle",
            "a puzzle: find the column that keeps the result, with the streak and rating",
            humans(),
            keys=("t",),
        ),
        State(
            "analysis",
            "an analysis board: a variation under the move it branches from, threats marked",
            humans(),
            keys=("7", "u", "1", "z"),
            moves="3444556652",
        ),
        State(
            "position",
            "the position dialog, checking a move string as it is typed",
            against("mcts:time=1"),
            keys=("p", "4", "4", "8"),
        ),
        State(
            "classic",
            "the classic board style: the blue frame filled around round holes",
            humans(board_style="classic"),
            moves="44533422",
        ),
        State(
            "classic-small",
            "the classic board style in the smallest terminal, a game won",
            humans(board_style="classic"),
            keys=("7",),
            moves="44556623",
            size=(80, 24),
        ),
        State(
            "too-small",
            "the message below the minimum terminal size",
            against("mcts:time=1"),
            size=(60, 18),
        ),
    )
}
