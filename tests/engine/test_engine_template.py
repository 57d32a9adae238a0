"""The frame every engine shares: a finished game is refused alike, and the info agrees
with the move played (or says the `noise=` handicap chose it).

Parametrised over the spec registry, so an engine added to `ENGINES` is checked here
without editing this file.
"""

from __future__ import annotations

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import shipped
from c4tui.engine.players.contract import Figures, GameOverError, Limits, SearchInfo
from c4tui.engine.players.specs import ENGINES, engine_class, make_engine, reading_of, title_of
from tests.engine.engine_contract import line_agrees, random_positions

# The smallest budget of each kind, so the contract runs in a blink for every engine.
QUICK = {"iterations": 200, "playouts": 200, "depth": 3, "time": 0.05}


def quick_spec(name: str) -> str:
    options = engine_class(name).OPTIONS
    for key, value in QUICK.items():
        if key in options:
            return f"{name}:{key}={value}"
    return name


def with_noise(spec: str) -> str:
    return f"{spec}{',' if ':' in spec else ':'}noise=0.5"


SPECS = [quick_spec(name) for name in ENGINES]
# Levels are specs of registry engines (the last level is the perfect player, checked above).
LEVELS = ["level:1", "level:5", "level:8"]
ALL_SPECS = [*SPECS, *map(with_noise, SPECS), *LEVELS]


def finished_positions() -> list[Position]:
    """A win and a full board drawn, on two board sizes."""
    won = Position.from_moves("4455667")
    drawn = Position.start(4, 4, 4)
    # Columns filled in pairs 1,2 then 3,4 leave no line of four on a 4x4 board.
    for col in (0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2):
        drawn = drawn.play(col)
    assert won.winner() is not None and drawn.is_draw()
    return [won, drawn]


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_a_finished_game_is_refused_with_one_error(spec):
    engine = make_engine(spec, seed=1)
    for position in finished_positions():
        with pytest.raises(GameOverError, match="is over"):
            engine.search(position)


@pytest.mark.parametrize("spec", ALL_SPECS)
@pytest.mark.parametrize("size", [(7, 6, 4), (5, 4, 3)])
def test_the_info_agrees_with_the_move_played(spec, size):
    if spec.startswith("alphazero") and shipped(*size) is None:
        pytest.skip("the learned engine plays the boards it has a network for")
    engine = make_engine(spec, seed=3)
    handicapped = 0
    for position in random_positions(size, 12):
        infos: list[SearchInfo] = []
        result = engine.search(position, on_info=infos.append)
        info = result.info
        assert result.move in position.legal_moves()
        assert info.best == result.move and line_agrees(info, result.move)
        assert infos[-1] == info, "the last info sent is the result's"
        handicapped += info.handicap
    if spec.startswith("human"):
        return  # its weighted choice of a weaker column is marked a handicap by design
    if spec in LEVELS:
        pass  # the human-like levels mark their deliberately weaker choices too
    elif "noise" not in spec:
        assert handicapped == 0
    else:
        assert 0 < handicapped < 12, "noise=0.5 should choose some moves and not others"


def test_full_noise_marks_every_move_as_the_handicap_choice():
    engine = make_engine("greedy:noise=1", seed=2)
    for position in random_positions((7, 6, 4), 10):
        result = engine.search(position)
        assert result.info.handicap and result.info.best == result.move


# The ColumnStat figure each table of figures stands on.
TABLE_FIGURE = {
    Figures.MCTS: "uct",
    Figures.FLAT: "visits",
    Figures.NEGAMAX: "score",
    Figures.EXACT: "score",
    Figures.CHANCES: "chance",
    Figures.PUCT: "prior",
}


@pytest.mark.parametrize("spec", SPECS)
def test_an_engine_reads_as_it_says(spec):
    engine = make_engine(spec, seed=4)
    reading = reading_of(engine.name)
    assert reading is not None
    info = engine.search(Position.from_moves("4453")).info
    if reading.figures is not None:
        figure = TABLE_FIGURE[reading.figures]
        assert any(getattr(s, figure) is not None for s in info.columns if s is not None)
    if reading.counts != "iterations":
        assert info.iterations, "an engine naming what it counts counts something"
    assert reading_of("no such engine") is None


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_names_its_own_title(name):
    assert engine_class(name).TITLE == title_of(name) != ""


@pytest.mark.parametrize("name", list(ENGINES))
def test_an_engines_default_budget_is_its_budget_of_no_limits(name):
    engine = engine_class(name)()
    assert engine.limits == engine.budget(Limits())
    assert engine_class(name)(limits=Limits(depth=3)).limits == Limits(depth=3)  # as given


def test_a_specs_budget_keeps_what_it_sets_and_takes_the_defaults_for_the_rest():
    assert make_engine("mcts:iterations=50").limits == Limits(iterations=50)
    assert make_engine("negamax").limits == Limits(time=1.0, depth=20)
    assert make_engine("human:care=5").limits == Limits(time=0.5)
    assert make_engine("human:time=2").limits == Limits(time=2.0)
