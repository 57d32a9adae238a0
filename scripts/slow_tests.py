"""Write tests/slow_tests.txt: the tests that cost the most CPU go to the slow run.

    C4TUI_CPU_TIMES=/tmp/cpu.txt uv run python -m pytest -p tests.cpu_times -m "slow or not slow" \
        --durations=0 > /tmp/durations.txt
    uv run python scripts/slow_tests.py /tmp/cpu.txt [--over 1.0] [--wall /tmp/durations.txt]

The default run must stay under 90 s on a 2-core machine (docs/testing.md). Rather than
judging test by test, the measurements decide: a test over `--over` seconds of CPU, or
(given pytest's `--durations=0` report) over `--wall-over` seconds of wall time, its
phases together, is marked slow by tests/conftest.py through the list. The wall time
counts because the several-server tests wait on ticks and leases: little CPU, but a
worker held. The exceptions are KEPT below, the few end-to-end checks the default run
must not lose whatever they cost. Tests marked slow in their own file (soaks,
benchmarks, whole test sets) stay so and are not listed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LIST = Path(__file__).resolve().parent.parent / "tests" / "slow_tests.txt"
HEADER = """\
# Tests that cost over {over:g} s of CPU each, measured with tests/cpu_times.py and
# written by scripts/slow_tests.py: tests/conftest.py marks them slow, so `uv run pytest`
# skips them and `uv run pytest -m slow` runs them. Regenerate; do not edit by hand.
"""
# Kept in the default run whatever they cost: each is the one end-to-end check of a
# promise (a stale result never played; two people play over ssh while a third
# watches; every notice has a screen-reader line; the pure-Python solver agrees; a kill
# loses no acknowledged move, of a game or a tournament; no client outlives a killed
# server; the engine protocol's documented session runs; automatch, a clock's claim,
# the Swiss rules and the reader's lobby through the app; two real servers on one
# database answer with one host key).
KEPT = (
    "tests/app/test_races.py::test_new_game_while_the_ai_thinks_many_times[mcts:time=5-20]",
    "tests/app/test_races.py::test_undo_while_the_ai_thinks_many_times[mcts:time=5-20]",
    "tests/serve/test_play_together.py::test_two_play_a_whole_game_while_a_third_watches",
    "tests/app/reader/test_notice_coverage.py::",
    "tests/engine/test_native.py::test_solver_tests_pass_in_pure_python[stop_event",
    "tests/rooms/test_kill.py::",
    "tests/rooms/test_tournament_kill.py::",
    "tests/serve/test_ssh_limits.py::test_clients_die_with_a_killed_server",
    "tests/engine/test_engine_protocol_docs.py::",
    "tests/app/test_lobby_matchmaking.py::test_find_a_game_shows_the_wait_then_the_room",
    "tests/app/test_served_clock.py::test_a_timed_room_shows_its_clock_and_a_gone_opponent",
    "tests/community/test_swiss.py::test_every_round_keeps_the_hard_rules",
    "tests/app/reader/test_served_reader.py::test_the_lobby_toggle_then_a_room_for_two",
    "tests/serve/test_two_servers.py::test_two_servers_on_one_database_answer_with_the_one_host_key",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("times", type=Path, help="the file tests/cpu_times.py wrote")
    parser.add_argument("--over", type=float, default=1.0, help="CPU seconds (1.0)")
    parser.add_argument("--wall", type=Path, help="pytest's --durations=0 report")
    parser.add_argument("--wall-over", type=float, default=1.5, help="wall seconds (1.5)")
    args = parser.parse_args()
    costs: dict[str, float] = {}
    for line in args.times.read_text(encoding="utf-8").splitlines():
        seconds, _, nodeid = line.partition(" ")
        costs[nodeid] = max(costs.get(nodeid, 0.0), float(seconds))
    waits = wall_times(args.wall) if args.wall is not None else {}
    slow = sorted(
        nodeid
        for nodeid, seconds in costs.items()
        if (seconds > args.over or waits.get(nodeid, 0.0) > args.wall_over)
        and not nodeid.startswith(KEPT)
    )
    LIST.write_text(HEADER.format(over=args.over) + "".join(f"{n}\n" for n in slow), "utf-8")
    kept = sum(seconds for nodeid, seconds in costs.items() if nodeid not in slow)
    print(f"{len(slow)} of {len(costs)} tests listed slow; the rest cost {kept:.0f} s of CPU")


def wall_times(report: Path) -> dict[str, float]:
    """Each test's wall seconds, setup, call and teardown together, from the lines of
    pytest's durations report ("1.43s call     tests/x.py::test_y")."""
    times: dict[str, float] = {}
    for line in report.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].endswith("s") and parts[1] in PHASES:
            try:
                seconds = float(parts[0][:-1])
            except ValueError:
                continue
            times[parts[2]] = times.get(parts[2], 0.0) + seconds
    return times


PHASES = ("setup", "call", "teardown")

if __name__ == "__main__":
    main()
