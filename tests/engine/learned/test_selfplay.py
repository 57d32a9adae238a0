"""Self-play games (learned/selfplay.py) and the solver's measure of a network
(learned/accuracy.py): NumPy alone, no training extra."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.accuracy import distinct, mistakes, sample_batches
from c4tui.engine.learned.labels import label_in_parallel
from c4tui.engine.learned.network import STORED, encode, masked_softmax, mirrored_rows
from c4tui.engine.learned.puct import Prover, PuctTree
from c4tui.engine.learned.selfplay import (
    Game,
    GamesTask,
    PlaySettings,
    add_noise,
    play_games,
    random_opening,
    visit_shares,
)
from c4tui.engine.learned.targets import loses_result
from tests.engine.learned.nets import random_network

SMALL = PlaySettings(sims=8, sampled_plies=2)


@pytest.mark.slow
def test_a_task_plays_the_same_games_from_the_same_seed():
    net = random_network(5, 4, 4)
    one = play_games(GamesTask(net, SMALL, 3, 2))
    two = play_games(GamesTask(net, SMALL, 3, 2))
    other = play_games(GamesTask(net, SMALL, 4, 2))
    assert np.array_equal(one.planes, two.planes) and np.array_equal(one.policy, two.policy)
    assert not np.array_equal(one.planes, other.planes)  # the seed draws noise and moves


def test_every_position_is_taught_the_search_and_the_games_result():
    net = random_network(5, 4, 4)
    games = play_games(GamesTask(net, SMALL, 1, 3))
    assert len(games.results) == 3
    assert np.allclose(games.policy.sum(axis=1), 1)
    # Replay each game from its planes: a game starts at the empty board; its values
    # alternate in sign (or are all 0, a draw) and match the recorded result.
    empty = encode(Position.start(5, 4, 4))
    starts = [i for i in range(len(games)) if np.array_equal(games.planes[i], empty)]
    assert len(starts) == 3 and starts[0] == 0
    for game, (begin, end) in enumerate(zip(starts, [*starts[1:], len(games)], strict=True)):
        values = games.value[begin:end]
        result = games.results[game]
        assert values[0] == result  # the first player moves at the empty board
        assert all(values[k] == -values[k + 1] for k in range(len(values) - 1))
        # a column the target puts weight on was legal there
        next_cells = games.planes[begin:end].reshape(-1, STORED, 5, 4)[:, 2].any(axis=2)
        assert not (games.policy[begin:end] > 0)[~next_cells].any()


def test_noise_moves_the_roots_priors_and_keeps_their_sum():
    net = random_network(5, 4, 4)
    tree = PuctTree.start(Position.start(5, 4, 4), net, None, 1.5)
    tree.expand(tree.root)
    before = [child.prior for child in tree.root.children or []]
    add_noise(tree.root, SMALL, np.random.default_rng(0))
    after = [child.prior for child in tree.root.children or []]
    assert after != before and abs(sum(after) - 1) < 1e-5


def test_a_win_at_once_takes_the_whole_policy_target():
    net = random_network(5, 4, 4)
    position = Position.from_moves("121212", 5, 4, 4)  # ● plays 1 and wins
    tree = PuctTree.start(position, net, None, 1.5)
    tree.expand(tree.root)
    shares = visit_shares(tree.root, 5)
    assert shares[0] == 1 and shares.sum() == 1


def test_mistakes_count_the_own_choices_that_give_up_the_result():
    """The own choice: the top prior of the board's and its mirror image's, averaged."""
    net = random_network(5, 4, 4)
    data = distinct(label_in_parallel(sample_batches((5, 4, 4), 60, 1), 1), 60, 1)
    assert len(data) == 60 and len(np.unique(data.features, axis=0)) == 60
    stored = np.unpackbits(data.features, axis=1)[:, : STORED * 20]
    legal = data.scores != -128
    logits, _ = net.read(stored)
    m_logits, _ = net.read(mirrored_rows(stored, 5, 4))
    priors = masked_softmax(logits, legal) + masked_softmax(m_logits, legal[:, ::-1])[:, ::-1]
    chosen = priors.argmax(axis=1)
    assert mistakes(net, data) == int(loses_result(data.scores, chosen).sum()) > 0


def test_a_random_opening_plays_its_plies_and_never_a_win():
    start = Position.start(5, 4, 4)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        position = start
        for _ in range(18):
            after = random_opening(position, 1, rng)
            if after.moves == position.moves:  # only a win or the last cell was left
                break
            column = after.path[-1]
            assert not position.is_winning_move(column) and not after.is_over()
            position = after
        assert random_opening(start, 5, np.random.default_rng(seed)).moves == 5


def test_games_open_after_a_random_number_of_plies():
    net = random_network(5, 4, 4)
    settings = replace(SMALL, opening_plies=12)
    starts = {Game(net, settings, np.random.default_rng([1, n])).position.moves for n in range(30)}
    assert len(starts) > 3 and max(starts) <= 12
    assert {Game(net, SMALL, np.random.default_rng([1, n])).position.moves for n in range(5)} == {0}


def test_value_targets_are_the_proof_else_the_search_mixed_with_the_result():
    net = random_network(5, 4, 4)
    settings = replace(SMALL, search_value=0.25, opening_plies=10)
    games = [Game(net, settings, np.random.default_rng([7, n])) for n in range(6)]
    for game in games:  # each game alone, the way play_games plays them side by side
        while not game.over:
            path = game.next_leaf()
            if path is not None:
                priors, value = net.evaluate(path[-1].position)
                game.evaluated(path, priors, value)
    proven = searched = 0
    for game in games:
        winner = game.position.winner()
        values = game.samples().value
        for mover, exact, mean, value in zip(
            game.movers, game.proven, game.searched, values, strict=True
        ):
            played = 0.0 if winner is None else (1.0 if mover == winner else -1.0)
            if exact is not None:
                proven += 1
                assert value == exact
            else:
                searched += 1
                assert value == pytest.approx(0.25 * mean + 0.75 * played)
    assert proven and searched
    # the last move of a won game was a win at once: proven, so its target is exact
    won = [game for game in games if game.position.winner() is not None]
    assert won and all(game.samples().value[-1] == 1.0 for game in won)


def played_positions(game: Game) -> list[Position]:
    """The positions a finished game kept a lesson of: its last len(movers) plies."""
    path = game.position.path
    first = len(path) - len(game.movers)
    return [Position.from_moves("".join(str(c + 1) for c in path[:k]), 5, 4, 4)
            for k in range(first, len(path))]  # fmt: skip


@pytest.mark.parametrize("solver", [False, True])
def test_with_the_solver_every_late_position_has_its_exact_value(solver):
    """With `solver`, the leaves of a dozen empty cells or fewer are solved: from 13
    empty cells on, every position's value target is its exact result. By the rules
    alone, some of them are left to the search and the game."""
    from c4tui.engine.solver import analyze

    net = random_network(5, 4, 4)
    settings = replace(SMALL, opening_plies=8, solver=solver)
    prover = Prover(Position.start(5, 4, 4)) if solver else None
    late = exact = 0
    for n in range(4):
        game = Game(net, settings, np.random.default_rng([5, n]), prover)
        while not game.over:
            path = game.next_leaf()
            if path is not None:
                priors, value = net.evaluate(path[-1].position)
                game.evaluated(path, priors, value)
        for position, proven in zip(played_positions(game), game.proven, strict=True):
            if 20 - position.moves > 13:
                continue
            late += 1
            best = max(s for s in analyze(position) if s is not None)
            exact += proven == (best > 0) - (best < 0)
    assert late > 6
    assert (exact == late) == solver


def play_alone(game: Game) -> Game:
    """One game played to its end, as play_games' rounds play each."""
    while not game.over:
        path = game.next_leaf()
        if path is not None:
            priors, value = game.network.evaluate(path[-1].position)
            game.evaluated(path, priors, value)
    return game


def test_explored_moves_are_random_and_teach_the_search_value_not_the_result():
    net = random_network(5, 4, 4)
    settings = replace(SMALL, explore=1.0, sampled_plies=0)
    game = play_alone(Game(net, settings, np.random.default_rng(7)))
    samples = game.samples()
    assert game.explored and all(game.explored)
    for value, proven, searched in zip(samples.value, game.proven, game.searched, strict=True):
        assert value == pytest.approx(proven if proven is not None else searched)
    # Without exploring, the same seed plays the search's moves, and the last positions'
    # values lean on the game's result.
    plain = play_alone(Game(net, replace(settings, explore=0.0), np.random.default_rng(7)))
    assert not any(plain.explored)
    assert [p.tobytes() for p in plain.planes] != [p.tobytes() for p in game.planes]
