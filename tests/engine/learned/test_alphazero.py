"""The alphazero engine: its spec, the network alone, PUCT with proofs, the kept tree."""

from __future__ import annotations

import random

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.puct import ENDGAME_EMPTY, LOSS, UNKNOWN, WIN, Node, Prover, PuctTree
from c4tui.engine.players.alphazero import ENDGAME, AlphaZeroEngine
from c4tui.engine.players.base import limits_on
from c4tui.engine.players.contract import Forfeit, Limits
from c4tui.engine.players.specs import SpecError, make_engine, parse_spec
from c4tui.engine.solver import analyze
from tests.engine.engine_contract import random_positions
from tests.engine.learned.nets import network_file, random_network


@pytest.fixture
def net(tmp_path):
    return network_file(tmp_path)


def test_the_spec_takes_sims_time_c_book_and_a_network_file(net):
    spec = parse_spec(f"alphazero:sims=0,c=2,book=0,net={net}")
    assert spec.options == {"sims": 0, "c": 2, "book": 0, "net": str(net)}
    engine = make_engine(spec)
    assert isinstance(engine, AlphaZeroEngine) and engine.network_only
    # The network alone searches nothing: no budget for the panel to show filling.
    assert engine.limits == Limits() == limits_on(engine, Position.from_moves("4453"))
    assert make_engine(f"alphazero:sims=0,time=2,net={net}").limits == Limits()
    assert make_engine(f"alphazero:sims=64,net={net}").limits == Limits(iterations=64)
    assert make_engine(f"alphazero:time=0.5,net={net}").limits == Limits(time=0.5)


def test_a_bad_network_file_is_a_spec_error_naming_net(tmp_path):
    (tmp_path / "junk.npz").write_text("not a network")
    with pytest.raises(SpecError, match=r"junk\.npz: not a network file") as caught:
        make_engine(f"alphazero:net={tmp_path / 'junk.npz'}")
    assert caught.value.key == "net"


def test_a_board_without_a_network_is_a_forfeit_that_says_so(net):
    engine = make_engine(f"alphazero:sims=8,net={net}")
    with pytest.raises(Forfeit, match="no network for the 5x4 connect 3 board"):
        engine.search(Position.start(5, 4, 3))


def test_a_board_without_a_network_is_refused_when_the_spec_is_read(tmp_path, net):
    with pytest.raises(SpecError, match="no network for the 5x4 connect 3 board"):
        parse_spec("alphazero:sims=8", board=(5, 4, 3))
    with pytest.raises(SpecError, match="is for the 7x6 connect 4 board, not 5x4 connect 3"):
        parse_spec(f"alphazero:net={net}", board=(5, 4, 3))
    (tmp_path / "small").mkdir()
    small = network_file(tmp_path / "small", width=5, height=4, connect=3)
    assert parse_spec(f"alphazero:net={small}", board=(5, 4, 3)).name == "alphazero"
    assert parse_spec("alphazero:sims=8", board=(7, 6, 4)).name == "alphazero"  # shipped


def test_sims_0_plays_the_highest_prior_and_reports_every_prior(net):
    """The priors of the board and of its mirror image, averaged (`evaluate_both_ways`)."""
    network = random_network()
    engine = make_engine(f"alphazero:sims=0,net={net}")
    for position in random_positions((7, 6, 4), 20):
        priors, value = network.evaluate_both_ways(position)
        info = engine.search(position).info
        legal = position.legal_moves()
        assert info.best == max(legal, key=lambda c: (priors[c], -abs(c - 3)))
        assert info.net_value == pytest.approx(value)
        assert [s.prior if s else None for s in info.columns] == [
            pytest.approx(priors[c]) if c in legal else None for c in range(7)
        ]


def test_the_same_seed_and_budget_play_the_same_search(net):
    first, second = (make_engine(f"alphazero:sims=60,net={net}", seed=4) for _ in range(2))
    for position in random_positions((7, 6, 4), 8):
        a, b = first.search(position).info, second.search(position).info
        assert (a.best, a.columns, a.pv) == (b.best, b.columns, b.pv)


def test_the_visits_add_up_to_the_simulations_and_the_priors_stay(net):
    engine = make_engine(f"alphazero:sims=80,book=0,net={net}")
    info = engine.search(Position.from_moves("4453")).info
    assert info.iterations == 80
    assert sum(s.visits for s in info.columns if s) == 80
    assert all(s.prior is not None for s in info.columns if s)
    assert info.net_value is not None and info.pv[0] == info.best


def test_the_tree_is_kept_after_our_move_and_the_reply(net):
    engine = make_engine(f"alphazero:sims=200,book=0,endgame=12,net={net}")
    # Past the book's plies and far from the end (12 empty cells: the proofs' reach
    # here), where the solver settles nothing.
    start = next(p for p in random_positions((7, 6, 4), 60) if 14 <= p.moves <= 20)
    first = engine.search(start)
    reply = first.info.pv[1] if len(first.info.pv) > 1 else 3
    after = start.play(first.move).play(reply)
    info = engine.search(after).info
    assert sum(s.visits for s in info.columns if s) > 200, "the subtree's visits were kept"
    engine.new_game()
    info = engine.search(after).info
    assert sum(s.visits for s in info.columns if s) == 200


def test_a_win_in_one_is_played_and_a_lost_column_avoided_whatever_the_network(net):
    engine = make_engine(f"alphazero:sims=30,book=0,net={net}")
    win = Position.from_moves("445566")  # the first player wins with column 3 or 7
    assert engine.search(win).move in (2, 6)
    block = Position.from_moves("14141")  # the second player must block column 1
    assert engine.search(block).move == 0


@pytest.mark.parametrize("reach", [ENDGAME_EMPTY, ENDGAME])
def test_endgames_are_settled_by_the_solver_and_keep_the_exact_result(net, reach):
    """Leaves with `endgame` empty cells or fewer are solved: a network of random
    weights still keeps the result of every position one stone further from the end,
    with a simulation or two per column."""
    engine = make_engine(f"alphazero:sims=16,book=0,net={net},endgame={reach}")
    checked = 0
    for position in endgames(12, reach + 1):
        scores = analyze(position)
        best = max(s for s in scores if s is not None)
        move = engine.search(position).move
        assert (scores[move] > 0) - (scores[move] < 0) == (best > 0) - (best < 0), (
            position.to_moves()
        )
        checked += 1
    assert checked == 12


def endgames(count: int, empty: int) -> list[Position]:
    """Positions of random games with `empty` empty cells, not over, where some column
    keeps the result and another gives it up, and no move wins at once."""
    rng, found = random.Random(9), []
    while len(found) < count:
        position = Position.start()
        while not position.is_over() and 42 - position.moves > empty:
            position = position.play(rng.choice(position.legal_moves()))
        if position.is_over() or any(map(position.is_winning_move, position.legal_moves())):
            continue
        results = {(s > 0) - (s < 0) for s in analyze(position) if s is not None}
        if len(results) > 1:
            found.append(position)
    return found


def test_the_book_rules_out_the_columns_it_proves_worse(net):
    engine = make_engine(f"alphazero:sims=40,net={net}")
    info = engine.search(Position.from_moves("44")).info
    ruled = [c for c, s in enumerate(info.columns) if s and s.by_book]
    # After 44, only the centre column keeps the first player's win (opening.FIRST_PLIES).
    assert info.best == 3 and ruled == [0, 1, 2, 4, 5, 6]
    assert all(info.columns[c].proven == "loss" for c in ruled)


def test_a_root_proven_before_any_simulation_still_shows_the_books_verdict(net):
    engine = make_engine(f"alphazero:sims=40,net={net}")
    # The first player wins in one in column 1, which the rules prove when the root is
    # made; the book gives the other columns their verdict for the panel.
    info = engine.search(Position.from_moves("121212")).info
    assert info.best == 0 and info.iterations == 0 and info.exact
    assert info.columns[0].proven == "win"
    assert all(s.proven == "loss" for s in info.columns[1:])


def test_a_proven_root_child_backs_its_proof_up():
    network = random_network()
    position = Position.from_moves("445566")
    tree = PuctTree.start(position, network, Prover(position), 1.5)
    tree.expand(tree.root)
    assert tree.solved() and tree.best_child().column in (2, 6)


def test_a_stone_that_hands_the_opponent_a_win_is_proven_lost_when_made():
    """By the rules alone (no solver): after ●1 ○2 ●1 ○2 ●1 on 5x4, ○ must block column
    1; every other column is lost as soon as the root is expanded."""
    position = Position.from_moves("12121", 5, 4, 4)
    tree = PuctTree.start(position, random_network(5, 4, 4), None, 1.5)
    tree.expand(tree.root)
    proofs = {child.column: child.proof for child in tree.root.children or []}
    assert proofs == {0: UNKNOWN, 1: LOSS, 2: LOSS, 3: LOSS, 4: LOSS}


def test_two_open_threats_prove_the_position_lost_with_one_evaluation():
    """●2 ○2 ●3 ○3 ●4: ● threatens columns 1 and 5 on the bottom row; ○ cannot block
    both, so every column loses and the root is settled without a simulation."""
    position = Position.from_moves("22334", 5, 4, 4)
    tree = PuctTree.start(position, random_network(5, 4, 4), None, 1.5)
    tree.expand(tree.root)
    assert tree.solved() and tree.root.proof == WIN  # for ●, who moved into it
    assert tree.evaluations == 1


def test_a_win_by_a_double_threat_is_proven_by_propagation():
    """●2 ○2 ●3 ○3, ● to move: column 4 makes two threats ○ cannot both block. Expanding
    the root and that one child proves the root won, and the search plays column 4."""
    position = Position.from_moves("2233", 5, 4, 4)
    tree = PuctTree.start(position, random_network(5, 4, 4), None, 1.5)
    tree.expand(tree.root)
    (child,) = [c for c in tree.root.children or [] if c.column == 3]
    tree.back_up([tree.root, child], -tree.expand(child))
    assert child.proof == WIN and tree.solved()
    assert tree.best_child().column == 3


def test_a_proof_the_clock_or_the_stop_cuts_short_is_no_proof():
    import threading
    import time

    endgame = endgames(1, 28)[0]
    assert Prover(endgame, 28).outcome(endgame) is not None  # in reach, no limits: proven
    assert Prover(endgame, 20).outcome(endgame) is None  # out of reach
    opening = Position.start(6, 5, 4)  # no book on 6x5: 0.1 s of search, the limits bite
    prover = Prover(opening, 42)
    stopped = threading.Event()
    stopped.set()
    prover.within(None, stopped)
    assert prover.outcome(opening) is None
    prover.within(time.perf_counter() - 1, None)
    assert prover.outcome(opening) is None


def test_among_proven_wins_the_search_plays_a_win_at_once_else_the_networks_favourite():
    position = Position.from_moves("1212123")  # the second player: 2 wins at once
    tree = PuctTree(Node(position, -1, 1.0, UNKNOWN), random_network(), None)
    proven = [(0, 0.5), (1, 0.1), (4, 0.4)]  # columns and priors, all proven wins
    tree.root.children = [Node(position.play(c), c, p, WIN) for c, p in proven]
    assert tree.root.children[1].position.is_over() and tree.best_child().column == 1
    tree.root.children.pop(1)
    assert tree.best_child().column == 0


def test_without_the_c_kernel_the_search_solves_only_the_small_endgames(monkeypatch):
    from c4tui.engine.solver import Solver

    position = Position.start()
    here = Prover(position, 28)
    assert here.endgame == (28 if here.solver.uses_native else ENDGAME_EMPTY)
    monkeypatch.setattr(Solver, "uses_native", property(lambda self: False))
    assert Prover(position, 28).endgame == ENDGAME_EMPTY
    assert Prover(position, 8).endgame == 8


def test_the_proofs_reach_28_empty_cells_or_two_thirds_of_a_smaller_board():
    from c4tui.engine.board.geometry import geometry
    from c4tui.engine.players.alphazero import endgame_reach

    assert endgame_reach(geometry(7, 6, 4)) == ENDGAME == 28
    assert endgame_reach(geometry(6, 5, 4)) == 20 and endgame_reach(geometry(5, 4, 4)) == 13
    assert endgame_reach(geometry(9, 7, 4)) == 28
