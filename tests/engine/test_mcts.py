"""The MCTS engine: tactics at any budget, proofs, tree reuse, stopping, the random game."""

from __future__ import annotations

import random
import threading

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.players import mcts_tree
from c4tui.engine.players.contract import Limits, SearchInfo
from c4tui.engine.players.mcts import MctsEngine
from c4tui.engine.players.playout import (
    python_random_game_for,
    random_bits_per_game,
    random_game_for,
)
from c4tui.engine.players.specs import make_engine
from tests.engine.engine_contract import (
    SIZES,
    check_deterministic,
    check_legal_moves_and_infos,
    check_wins_and_blocks,
    play_a_game,
    random_positions,
)


@pytest.mark.parametrize("iterations", [1, 10])
@pytest.mark.parametrize("size", SIZES)
def test_never_misses_a_win_or_a_block_at_tiny_budgets(size, iterations):
    check_wins_and_blocks(f"mcts:iterations={iterations}", size)


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_and_infos(size):
    check_legal_moves_and_infos("mcts:iterations=200", size)


def test_deterministic_for_a_seed():
    check_deterministic("mcts:iterations=300")


def test_different_seeds_play_different_games():
    pos = Position.start()
    figures = {MctsEngine(seed=seed, iterations=300).search(pos).info.columns for seed in range(3)}
    assert len(figures) > 1


@pytest.mark.parametrize("size", [(4, 4, 3), (10, 10, 6)])
def test_plays_whole_games_on_small_and_big_boards(size):
    assert play_a_game("mcts:iterations=60", size).is_over()


def test_the_stop_event_ends_the_search_within_a_slice():
    stop = threading.Event()
    seen: list[SearchInfo] = []

    def on_info(info: SearchInfo) -> None:
        seen.append(info)
        stop.set()

    pos = Position.from_moves("4453")
    engine = MctsEngine(seed=1)
    result = engine.search(pos, Limits(time=3600), on_info=on_info, stop=stop)
    assert result.move in pos.legal_moves()
    assert result.info.iterations <= seen[0].iterations + engine.tree.SLICE


def test_a_stop_set_beforehand_allows_at_most_one_slice():
    stop = threading.Event()
    stop.set()
    pos = Position.from_moves("4453")
    engine = MctsEngine(seed=1)
    result = engine.search(pos, Limits(time=3600), stop=stop)
    assert result.move in pos.legal_moves()
    assert result.info.iterations <= engine.tree.SLICE


def test_reports_progress_and_a_well_formed_final_info():
    # Without the opening book, which would rule out columns of this early position.
    engine = MctsEngine(seed=2, iterations=3000, book=0)
    infos: list[SearchInfo] = []
    pos = Position.from_moves("44")
    result = engine.search(pos, on_info=infos.append)
    info = result.info
    assert infos and infos[-1] == info
    assert info.engine == "mcts" and info.iterations == 3000
    assert info.rate > 0 and info.elapsed > 0 and info.depth >= 2
    assert info.nodes > 1 and not info.exact
    assert info.best == result.move and info.pv[0] == result.move and len(info.pv) >= 2
    stats = info.columns
    assert all(stat is not None for stat in stats)
    # Every iteration passes through one root child (the root itself had none before).
    assert sum(stat.visits for stat in stats) == 3000
    assert result.move == max(range(7), key=lambda col: stats[col].visits)
    for stat in stats:
        assert -1 <= stat.value <= 1 and stat.uct is not None and stat.proven is None


def test_reports_several_times_during_a_timed_search():
    infos: list[SearchInfo] = []
    MctsEngine(seed=2, time=0.3).search(Position.start(), on_info=infos.append)
    assert len(infos) >= 2
    counts = [info.iterations for info in infos]
    assert counts == sorted(counts)


def test_full_columns_are_none_and_never_played():
    pos = Position.from_moves("444444333333")
    result = MctsEngine(seed=3, iterations=200).search(pos)
    assert result.info.columns[2] is None and result.info.columns[3] is None
    assert result.move not in (2, 3)


def test_proves_a_win_in_two_and_stops():
    # Two stones on the bottom row with both ends open: either end wins in two moves.
    pos = Position.from_moves("4455")
    result = MctsEngine(seed=4, iterations=20000).search(pos)
    info = result.info
    assert result.move in (2, 5)
    assert info.iterations < 20000  # a proven root ends the search
    assert info.columns[result.move].proven == "win"
    assert info.columns[result.move].value == 1


def test_proves_a_lost_position():
    # The opponent has three on the bottom row with both ends open.
    pos = Position.from_moves("44553")
    info = MctsEngine(seed=4, iterations=20000).search(pos).info
    assert info.exact and info.iterations < 20000
    assert all(stat.proven == "loss" for stat in info.columns)


def test_proves_the_draw_of_the_last_cell():
    # 4x4 connect 4 with only column 1 open and no line to make: the last stone draws.
    pos = Position.from_moves("223411432243431", 4, 4, 4)
    info = MctsEngine(seed=1, iterations=5).search(pos).info
    assert info.columns[0].proven == "draw" and info.columns[0].value == 0
    assert info.exact and info.best == 0


def test_reuses_the_tree_after_our_move_and_the_reply():
    engine = MctsEngine(seed=5, iterations=2000)
    pos = Position.from_moves("4453")
    first = engine.search(pos)
    ours, reply = first.info.pv[:2]
    later = pos.play(ours).play(reply)
    second = engine.search(later, Limits(iterations=1))
    carried = sum(stat.visits for stat in second.info.columns if stat is not None)
    assert carried > 100  # the visits of that grandchild, plus one new iteration


def test_new_game_and_unrelated_positions_start_a_fresh_tree():
    engine = MctsEngine(seed=5, iterations=2000)
    pos = Position.from_moves("4453")
    first = engine.search(pos)
    later = pos.play(first.info.pv[0]).play(first.info.pv[1])
    engine.new_game()
    fresh = engine.search(later, Limits(iterations=1)).info
    assert sum(stat.visits or 0 for stat in fresh.columns if stat is not None) == 1
    # Columns the opening book ruled out were never tried: their visits are None.
    elsewhere = engine.search(Position.from_moves("1"), Limits(iterations=1)).info
    assert sum(stat.visits or 0 for stat in elsewhere.columns if stat is not None) == 1


def test_searching_the_same_position_again_keeps_adding_to_the_tree():
    engine = MctsEngine(seed=5, iterations=500)
    pos = Position.from_moves("4453")
    engine.search(pos)
    info = engine.search(pos).info
    assert sum(stat.visits for stat in info.columns) == 1000


def test_spec_options_and_default_budget():
    assert make_engine("mcts").limits == Limits(time=1.0)
    engine = make_engine("mcts:iterations=10,c=0.5", seed=1)
    assert engine.limits == Limits(iterations=10) and engine.c == 0.5
    assert make_engine("mcts:time=0.5").limits == Limits(time=0.5)


def _reference_game(pos: Position, number: int) -> int:
    """The random game the generated code should play, spelled out with Position."""
    free = [c for c in range(pos.width) if pos.can_play(c)]
    mover = pos.to_move
    while True:
        col = free[number % len(free)]
        number //= len(free)
        pos = pos.play(col)
        if pos.winner() is not None:
            return 1 if pos.winner() == mover else -1
        if pos.is_draw():
            return 0
        if not pos.can_play(col):
            free.remove(col)


@pytest.mark.parametrize("language", ["python", "c when built"])
@pytest.mark.parametrize("size", [*SIZES, (6, 9, 6), (8, 8, 5), (10, 4, 4)])
def test_random_game_matches_a_plain_replay(size, language):
    g = geometry(*size)
    # The C game (playout.c) serves boards of up to 64 bits when it is built.
    play = python_random_game_for(g) if language == "python" else random_game_for(g)
    rng = random.Random(str(size))
    outcomes = set()
    for pos in random_positions(size, 40):
        for _ in range(5):
            number = rng.getrandbits(random_bits_per_game(g))
            expected = _reference_game(pos, number)
            assert play(pos.current, pos.mask, lambda _bits, n=number: n) == expected, pos
            outcomes.add(expected)
    assert outcomes >= {1, -1}


def test_the_tree_stops_growing_at_the_node_cap(monkeypatch):
    monkeypatch.setattr(mcts_tree, "MAX_NODES", 50)
    info = MctsEngine(seed=1, iterations=2000).search(Position.start()).info
    assert info.iterations == 2000
    assert info.nodes < 50 + 7  # the last expansion may add one node's children
