"""The self-play run's gate (tournament/gate.py): sprt's test on any board, between two
network files, the same games for the same seed."""

from __future__ import annotations

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import save
from c4tui.tournament.gate import GateSettings, opening, run_gate
from c4tui.tournament.task_map import LocalMap
from tests.engine.learned.nets import random_network

SETTINGS = GateSettings(sims=4, elo1=200, games_most=40)


def files(tmp_path):
    new, old = tmp_path / "new.npz", tmp_path / "old.npz"
    save(new, random_network(5, 4, 4, seed=1))
    save(old, random_network(5, 4, 4, seed=2))
    return new, old


def test_openings_are_a_few_plies_that_end_nothing_and_repeat_by_seed():
    for seed in range(20):
        moves = opening((5, 4, 4), (2, 4), seed)
        assert 2 <= len(moves) <= 4 and moves == opening((5, 4, 4), (2, 4), seed)
        position = Position.start(5, 4, 4)
        for column in moves:
            position = position.play(column)
        assert not position.is_over()


@pytest.mark.slow
def test_a_network_never_passes_a_gate_against_itself(tmp_path):
    new, _ = files(tmp_path)
    with LocalMap(1) as pool:
        state = run_gate(new, new, (5, 4, 4), SETTINGS, 3, pool)
    # Deterministic and alike, each pair is a win each or two draws: never H1.
    assert state.end in ("H0", "games-most") and state.pentanomial[0] == state.pentanomial[4] == 0


@pytest.mark.slow
def test_the_same_seed_plays_the_same_gate(tmp_path):
    new, old = files(tmp_path)
    seen = []
    with LocalMap(1) as pool:
        first = run_gate(
            new, old, (5, 4, 4), SETTINGS, 5, pool, on_pair=lambda s: seen.append(s.games)
        )
        again = run_gate(new, old, (5, 4, 4), SETTINGS, 5, pool)
    assert first.to_json() == again.to_json() and first.end is not None
    assert seen == list(range(2, first.games + 1, 2))
