"""The C search (c4tui/engine/kernels) against the pure-Python solver, its reference."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.solver import TABLE_SIZE, SearchStopped, Solver
from c4tui.engine.solver.book import EXACT_PLY, OpeningBook
from tests.engine.brute_force import brute_force_score
from tests.engine.test_solver import SET_NAMES, quiet_position, read_testset

needs_c = pytest.mark.skipif(library.library() is None, reason="installed without C kernels")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bookless() -> tuple[Solver, Solver]:
    """7x6 solvers without the book: C everywhere, and pure Python (one table size)."""
    return Solver(geometry(7, 6, 4), book=False, table_size=TABLE_SIZE), Solver(
        geometry(7, 6, 4), book=False, native=False
    )


@needs_c
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2"])
def test_c_and_python_agree_node_for_node_on_testset_samples(bookless, name):
    """Same algorithm, same table size and order on 7x6: the same scores and node counts
    (both solvers see the same sequence of positions, so their tables stay alike)."""
    c_solver, py_solver = bookless
    assert c_solver.uses_native and not py_solver.uses_native
    count = 4 if name == "Test_L2_R2" else 20
    for moves, score in random.Random(name).sample(read_testset(name), count):
        position = Position.from_moves(moves)
        c_before, py_before = c_solver.nodes, py_solver.nodes
        assert c_solver.solve(position) == py_solver.solve(position) == score, moves
        assert c_solver.nodes - c_before == py_solver.nodes - py_before, moves


@needs_c
@pytest.mark.parametrize("size", [1, 2, 3, 255, 256, 257, 4099])
def test_c_and_python_agree_node_for_node_on_tiny_tables(size):
    """The C search finds a key's slot without a division (kernels/table.h's tt_slot,
    with a multiplier and a shift table.c chooses per size): on tables of a few entries,
    where nearly every read is a collision, it must still pick Python's `key % size`."""
    c_solver = Solver(geometry(7, 6, 4), book=False, table_size=size)
    py_solver = Solver(geometry(7, 6, 4), book=False, native=False, table_size=size)
    assert c_solver.uses_native
    for moves, score in random.Random(size).sample(read_testset("Test_L3_R1"), 3):
        position = Position.from_moves(moves)
        c_before, py_before = c_solver.nodes, py_solver.nodes
        assert c_solver.solve(position) == py_solver.solve(position) == score, moves
        assert c_solver.nodes - c_before == py_solver.nodes - py_before, moves


@needs_c
@pytest.mark.parametrize("plies", [8, 10, 11, 12, 13])
def test_c_and_python_with_the_book_agree_node_for_node_around_the_book(plies):
    """The C search reads the book as the Python one does: at 8 and 12 plies, and an
    11-ply node from its children's book scores; same scores, same node counts."""
    book = OpeningBook.default()
    if book is None:
        pytest.skip("bitbully-databases is not installed")
    rng = random.Random(f"book {plies}")
    c_solver = Solver(geometry(7, 6, 4), table_size=1_000_003)
    py_solver = Solver(geometry(7, 6, 4), native=False, table_size=1_000_003)
    checked = 0
    while checked < 3:
        position = quiet_position(rng, 7, 6, 4, plies)
        if position is None:
            continue
        c_before, py_before = c_solver.nodes, py_solver.nodes
        assert c_solver.solve(position) == py_solver.solve(position), position.to_moves()
        assert c_solver.nodes - c_before == py_solver.nodes - py_before, position.to_moves()
        checked += 1


@needs_c
@pytest.mark.parametrize("name", SET_NAMES)
def test_c_search_past_the_book_gets_the_listed_scores(name):
    """Every set, positions the C search serves with the book on: roots past 12 plies
    (the "Begin" sets are too slow in pure Python here; their reference is the list)."""
    solver = Solver(geometry(7, 6, 4))
    pairs = [pair for pair in read_testset(name) if len(pair[0]) > EXACT_PLY]
    count = 3 if name.startswith("Test_L1") else 10
    for moves, score in random.Random(name).sample(pairs, min(count, len(pairs))):
        assert solver.solve(Position.from_moves(moves)) == score, moves


SIZES = [
    # (width, height, connect, plies played, positions): uint64 packed, uint64 with an
    # owned table (8x7 = 56 bits + 8), and unsigned __int128 boards (10x10 = 110 bits).
    (4, 4, 3, 2, 6),
    (5, 5, 4, 10, 6),
    (6, 5, 4, 14, 6),
    (8, 7, 4, 40, 6),
    (9, 7, 5, 46, 4),
    (10, 6, 4, 44, 4),
    (10, 10, 6, 88, 6),
    (10, 10, 4, 86, 4),
]


@needs_c
@pytest.mark.parametrize(("w", "h", "n", "plies", "count"), SIZES)
def test_c_and_python_agree_on_random_positions_of_any_size(w, h, n, plies, count):
    rng = random.Random(f"native {w}x{h}c{n}")
    c_solver = Solver(geometry(w, h, n))
    py_solver = Solver(geometry(w, h, n), native=False)
    assert c_solver.uses_native
    checked = 0
    while checked < count:
        position = quiet_position(rng, w, h, n, plies + rng.randrange(3))
        if position is None:
            continue
        c_columns = [None if b is None else b.low for b in c_solver.analyze(position)]
        py_columns = [None if b is None else b.low for b in py_solver.analyze(position)]
        assert c_columns == py_columns, position.to_moves()
        checked += 1


@needs_c
def test_a_stop_event_set_during_a_c_search_stops_it_and_the_table_stays_sound():
    solver = Solver(geometry(7, 6, 4))
    position = Position.from_moves("1217562671323")  # ~280,000 nodes
    stop = threading.Event()
    polls = []

    def expired() -> bool:
        polls.append(solver.nodes)
        stop.set()  # C asks first after POLL_EVERY nodes, long before the answer
        return stop.is_set()

    # Count the polls; the real check reads `stop` as well.
    solver._limits.expired = expired
    with pytest.raises(SearchStopped):
        solver.solve(position, stop=stop)  # a stop event: C asks Python now and then
    assert len(polls) == 1
    # Nothing half-searched was stored: the interrupted table still gives the truth.
    del solver._limits.expired
    assert solver.solve(position) == 2


@needs_c
def test_a_past_deadline_stops_the_c_search():
    solver = Solver(geometry(7, 6, 4), book=False)
    with pytest.raises(SearchStopped):
        solver.solve(Position.from_moves("1217562671323"), deadline=0.0)


def test_pure_python_is_forced_by_the_environment_variable():
    env = {**os.environ, "C4TUI_PURE_PYTHON": "1"}
    code = (
        "from c4tui.engine.solver import Solver\n"
        "from c4tui.engine.board.geometry import geometry\n"
        "from c4tui.engine.board.position import Position\n"
        "s = Solver(geometry(7, 6, 4))\n"
        "assert not s.uses_native\n"
        "print(s.solve(Position.from_moves('2252576253462244111563')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "-2"


@pytest.mark.parametrize(
    "chosen",
    [
        "stop_event or mirror_images or finished_game",
        # The whole reference run costs about 20 s of CPU: the slow run's.
        pytest.param(
            "small_boards or stop_event or mirror_images or finished_game or weak",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_solver_tests_pass_in_pure_python(chosen):
    env = {**os.environ, "C4TUI_PURE_PYTHON": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",  # in this process: the suite's own workers already use the cores
            "tests/engine/test_solver.py",
            "-k",
            chosen,
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert " passed" in done.stdout


def test_the_installed_kernels_are_what_runs():
    if library.disabled() or library.module_path() is None:
        pytest.skip("c4tui was installed without its C kernels")
    assert library.library() is not None
    assert library.kernels().startswith("compiled (")
    assert Solver(geometry(7, 6, 4)).uses_native


def test_absent_kernels_fall_back_to_python(monkeypatch):
    monkeypatch.setattr(library, "_loaded", [])
    monkeypatch.setattr(library, "module_path", lambda: None)
    assert library.library() is None
    assert (
        library.kernels() == "pure Python (the C kernels were not built when c4tui was installed)"
    )
    solver = Solver(geometry(4, 4, 4))
    assert not solver.uses_native
    position = Position.from_moves("23", 4, 4, 4)
    assert solver.solve(position) == brute_force_score(position)


def _truncated_kernels(folder: Path, size: int) -> Path:
    """A copy of the installed kernels cut to `size` bytes, beside their build record."""
    built = Path(library.module_path())
    copy = folder / built.name
    copy.write_bytes(built.read_bytes()[:size])
    (folder / library.BUILD_RECORD).write_bytes(built.with_name(library.BUILD_RECORD).read_bytes())
    return copy


@needs_c
def test_a_truncated_kernel_file_falls_back_to_python_and_says_why(monkeypatch, tmp_path, capsys):
    damaged = _truncated_kernels(tmp_path, 20_000)
    assert library.damage(str(damaged)).endswith(
        f"is 20000 bytes, the build made {len(Path(library.module_path()).read_bytes())}"
    )
    monkeypatch.setattr(library, "_loaded", [])
    monkeypatch.setattr(library, "module_path", lambda: str(damaged))
    assert library.library() is None
    assert library.kernels().startswith("pure Python (the C kernels were not loaded: ")
    assert "the build made" in capsys.readouterr().err
    solver = Solver(geometry(4, 4, 4))
    assert not solver.uses_native
    position = Position.from_moves("23", 4, 4, 4)
    assert solver.solve(position) == brute_force_score(position)


def test_kernels_without_a_build_record_are_not_loaded(monkeypatch, tmp_path):
    foreign = tmp_path / "_kernels.so"
    foreign.write_bytes(b"\x7fELF" + b"\0" * 20)
    monkeypatch.setattr(library, "_loaded", [])
    monkeypatch.setattr(library, "module_path", lambda: str(foreign))
    assert library.library() is None
    assert "no readable build record" in library.kernels()


@needs_c
def test_a_command_with_truncated_kernels_runs_in_python_instead_of_crashing(tmp_path):
    """The install itself damaged (a copy of the package, its kernels cut short): every
    command used to die of SIGBUS with no word; now it says why and runs Python."""
    package = tmp_path / "c4tui"
    shutil.copytree(ROOT / "c4tui", package, ignore=shutil.ignore_patterns("__pycache__"))
    kernels = package / "engine" / "kernels"
    _truncated_kernels(kernels, 16_000)
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "--version"],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()  # argparse's --version writes to stderr
    assert said[0].startswith("c4tui: warning: the C kernels were not loaded: "), said
    assert said[-1].startswith("kernels: pure Python (the C kernels were not loaded: "), said
    assert "is 16000 bytes, the build made" in said[-1]


def test_nothing_is_compiled_or_cached_at_run_time(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "CC": "/nonexistent"}
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "analyze", "444444"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "cache").exists()


@needs_c
@pytest.mark.parametrize("weak", [False, True])
def test_the_c_analysis_on_two_threads_agrees_with_one_and_with_python(weak):
    """columns.c against columns.py: every column, with the helper thread on
    long positions (the first three take tens of milliseconds and more) and off; Python
    (seconds past the book) only on the short ones."""
    g = geometry(7, 6, 4)
    solvers = [Solver(g, threads=2), Solver(g, threads=1), Solver(g, native=False)]
    # 12 plies (the book settles the last contender), 13 (book floors), 16, and short.
    for moves in ["636357377756", "4211172261266", "1217562671323", "44455554221", "4453"]:
        position = Position.from_moves(moves)
        answers = []
        for solver in solvers if len(moves) < 12 else solvers[:2]:
            solver.reset()
            exact: dict[int, int] = {}
            columns = solver.analyze(
                position,
                weak=weak,
                on_column=lambda col, b, seen=exact: seen.setdefault(col, b.low),
            )
            scores = [None if b is None else b.low for b in columns]
            assert all(b is None or b.exact for b in columns)
            assert exact == {c: s for c, s in enumerate(scores) if s is not None}, moves
            answers.append(scores)
        assert all(a == answers[0] for a in answers), moves


@needs_c
def test_a_stop_during_a_two_thread_analysis_stops_both_and_keeps_proven_bounds():
    solver = Solver(geometry(7, 6, 4), threads=2)
    position = Position.from_moves("636357377756")  # ~3.5 M nodes, both threads busy
    stop = threading.Event()
    polls = []

    def expired() -> bool:
        polls.append(solver.nodes)
        if len(polls) >= 2:  # 10 ms in: both threads busy
            stop.set()
        return stop.is_set()

    # Count the polls; the real check reads `stop` as well.
    solver._limits.expired = expired
    columns = [None] * 7
    with pytest.raises(SearchStopped):
        # A stop event: C asks Python now and then.
        solver.analyze(position, columns=columns, stop=stop)
    del solver._limits.expired
    truth = [-1, 0, 3, 2, 3, 2, 0]
    assert all(b is not None and b.low <= t <= b.high for b, t in zip(columns, truth, strict=True))
    # Nothing half-searched was stored: the interrupted table still gives the truth.
    assert [b.low for b in solver.analyze(position)] == truth


# Each build of the 7x6 search analyses these (book positions and past the book, with
# wins, draws and losses) in a process of its own; all must agree node for node.
BUILD_CHECK = """
import json, sys
from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.solver import Solver
solver = Solver(geometry(7, 6, 4), threads=1)
found = []
for moves in sys.argv[1:]:
    solver.reset()
    before = solver.nodes
    scores = [None if b is None else b.low for b in solver.analyze(Position.from_moves(moves))]
    found.append([scores, solver.nodes - before])
print(json.dumps([library.library().c4_search_build(), found]))
"""


@needs_c
def test_every_build_of_the_7x6_search_this_machine_runs_searches_the_same_nodes():
    """The search is compiled three times for 7x6 (plain, popcnt, popcnt with AVX2) and
    the best one the processor has runs; C4TUI_SEARCH_BUILD asks for a lesser one, so
    each is checked here rather than only the best."""
    positions = ["4453", "315237735272", "3136211716336", "34233163135446", "444444"]
    best = library.library().c4_search_build()
    seen = {}
    for build, name in enumerate(["plain", "popcnt", "avx2"][: best + 1]):
        done = subprocess.run(
            [sys.executable, "-c", BUILD_CHECK, *positions],
            env={**os.environ, "C4TUI_SEARCH_BUILD": name},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        ran, found = json.loads(done.stdout)
        assert ran == build, name
        said = subprocess.run(
            [sys.executable, "-m", "c4tui", "--version"],
            env={**os.environ, "C4TUI_SEARCH_BUILD": name},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert f"7x6 search: {library.SEARCH_BUILDS[build]})" in said.stdout + said.stderr
        seen[name] = found
    assert all(found == seen["plain"] for found in seen.values()), seen
