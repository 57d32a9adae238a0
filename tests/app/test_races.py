"""Races: new game, undo and random keys while the AI thinks never let a stale move in.

A recording subclass notes which searches were started on which position and which were
cancelled; every move the app accepts from the AI must come from a search that was
never cancelled and was started on exactly the position it is played in.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from c4tui.app.app import ConnectFourApp
from c4tui.app.messages import SearchFinished
from c4tui.app.settings import Settings
from c4tui.engine.board.position import Position
from c4tui.match.interface import MatchEvent, SearchStarted
from tests.app.showcase import keys_handled, post_key, settle, type_keys

SIZE = (80, 24)  # the smallest full layout: cheaper frames, same logic


class RecordingApp(ConnectFourApp):
    """The real app, plus a record of searches to check its AI moves against."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.started: dict[int, tuple[int, ...]] = {}
        self.cancelled: set[int] = set()
        self.accepted: list[int] = []
        cancel = self.ai.cancel

        def recorded_start(event: MatchEvent) -> None:
            if isinstance(event, SearchStarted):
                self.started[event.search_id] = event.position.path

        def recorded_cancel() -> None:
            if self.thinking:
                self.cancelled.add(self.match.search_id)
            cancel()

        self.match.listen(recorded_start)
        self.ai.cancel = recorded_cancel  # type: ignore[method-assign]

    def on_search_finished(self, message: SearchFinished) -> None:
        before = self.game.position.path
        super().on_search_finished(message)
        if self.game.position.path != before:
            assert message.search_id not in self.cancelled, "a cancelled search played"
            assert self.started[message.search_id] == before, "a move for another position"
            self.accepted.append(message.search_id)


def recording_app(tmp_path, spec: str, first: str = "you") -> RecordingApp:
    settings = Settings(opponent=spec, first=first, theme="textual-dark")  # type: ignore[arg-type]
    return RecordingApp(config_dir=tmp_path, settings=settings, seed=3, steady=True)


def assert_consistent(app: RecordingApp) -> None:
    """The game replays from its moves, and the human (●) never moved for the AI."""
    Position.from_moves(app.game.position.to_moves())
    assert app.game.moves == app.game.position.path


async def race(pilot, cancel_key: str, rounds: int, seed: int) -> None:
    """Drop a disc, let the AI think for 0-20 ms, press `cancel_key`; `rounds` times."""
    app = pilot.app
    rng = random.Random(seed)
    for round_number in range(1, rounds + 1):
        post_key(pilot, "4")
        await asyncio.sleep(rng.choice((0, 0, 0.001, 0.005, 0.02)))
        post_key(pilot, cancel_key)
        if round_number % 10 == 0:
            await keys_handled(pilot)  # both keys, the cancel too, acted
            assert app.game.moves == ()
    await settle(pilot)


# The thinking AI races every round; the instant one races its finished move instead.
# 20 rounds in the default run race each delay a few times (about 2 s of CPU); the 200
# rounds of the slow run are the soak (30-60 s of CPU each).
RACES = [
    ("mcts:time=5", 20),
    pytest.param("mcts:time=5", 200, marks=pytest.mark.slow),
    ("random", 50),
]


@pytest.mark.parametrize(("spec", "rounds"), RACES)
async def test_new_game_while_the_ai_thinks_many_times(tmp_path, spec, rounds):
    app = recording_app(tmp_path, spec)
    async with app.run_test(size=SIZE) as pilot:
        await race(pilot, "n", rounds, seed=1)
        assert app.game.moves == ()
        assert_consistent(app)
        assert len(app.started) == rounds
        if spec != "random":
            assert len(app.cancelled) >= rounds // 2  # most rounds raced a running search


@pytest.mark.parametrize(("spec", "rounds"), RACES)
async def test_undo_while_the_ai_thinks_many_times(tmp_path, spec, rounds):
    app = recording_app(tmp_path, spec)
    async with app.run_test(size=SIZE) as pilot:
        await race(pilot, "u", rounds, seed=2)
        assert app.game.moves == ()
        assert_consistent(app)
        assert len(app.started) == rounds


async def test_ai_first_new_games_play_exactly_one_fresh_move(tmp_path):
    app = recording_app(tmp_path, "greedy", first="ai")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *(["n"] * 50))
        await settle(pilot)
        assert len(app.game.moves) == 1
        assert app.accepted and app.accepted[-1] == max(app.started)


async def test_burst_of_random_keys_never_raises(tmp_path):
    rng = random.Random(2024)
    keys = [
        *"0123456789urnhm?",
        "left",
        "right",
        "enter",
        "space",
        "x",
        "escape",
    ]
    app = recording_app(tmp_path, "mcts:iterations=300")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            for _ in range(40):
                post_key(pilot, rng.choice(keys))
            await pilot.pause(0)
            # Open and close the screens too, then play on.
            await type_keys(pilot, "question_mark", "escape", "s", "escape")
        await settle(pilot)
        assert app.return_code is None  # still running, no exception
        assert_consistent(app)


async def test_a_search_that_ends_as_the_app_closes_draws_nothing(make_app):
    """A search stopped as the app quit finished while Textual took the screens down:
    the game screen, still mounted, had lost its widgets' children, and drawing it
    raised NoMatches (seen once in the default run, level 8 on 9x7)."""
    from c4tui.app.widgets.history import MoveList

    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.game_screen.history.query_one(MoveList).remove()  # as the teardown does
        app.exit()
        app.match.game.play(3)  # the move the search brought (Match.finish_search) ...
        app.update()  # ... and the redraw after it (ai_turns.finished)
