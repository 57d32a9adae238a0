"""The c4e server of our engines: every command, bad lines, stop, infinite, the end."""

from __future__ import annotations

import queue
import threading

from c4tui.engine.external.protocol import Budget, InfoReader, parse_go
from c4tui.engine.external.server import EngineServer

WAIT = 60  # seconds; only so a broken server fails instead of hanging


def served(spec: str, *lines: str, seed: int = 1) -> list[str]:
    out: list[str] = []
    EngineServer(spec, out.append, seed=seed).serve(lines)
    return out


def test_a_bad_line_is_named_in_one_line_and_changes_nothing():
    out = served(
        "greedy",
        "hello there",
        "board 7 6",
        "board 20 6 4",
        "position 4x",
        "position 1111111",
        "go movetime -5",
        "go depth",
        "setoption name depth value 3",
        "setoption name noise value 2",
        "position 4",
        "go",
    )
    errors = [line for line in out if line.startswith("info string error:")]
    assert [line.split(":")[1] for line in errors] == [
        " 'hello there'",
        " 'board 7 6'",
        " 'board 20 6 4'",
        " 'position 4x'",
        " 'position 1111111'",
        " 'go movetime -5'",
        " 'go depth'",
        " 'setoption name depth value 3'",
        " 'setoption name noise value 2'",
    ]
    assert "unknown command" in errors[0] and "unknown setting 'depth'" in errors[7]
    assert out[-1].startswith("bestmove ")


def test_options_are_set_on_a_board_of_any_size():
    out = served(
        "negamax:depth=2",
        "c4e 1",
        "setoption name depth value 3",
        "c4e 1",
        "board 5 4 3",
        "position 3",
        "go",
    )
    depth = [line for line in out if line.startswith("option name depth")]
    assert depth == [
        "option name depth type int min 1 max 100 default 2",
        "option name depth type int min 1 max 100 default 3",
    ]
    assert out.count("id name c4tui negamax:depth=3") == 1
    assert not any("error" in line for line in out)
    assert int(out[-1].split()[1]) in range(1, 6)


def test_infinite_answers_only_after_stop_and_quit_ends_a_search():
    lines: queue.Queue[str | None] = queue.Queue()
    answers: queue.Queue[str] = queue.Queue()

    def feed():
        while (line := lines.get()) is not None:
            yield line

    server = EngineServer("flat", answers.put, seed=1)
    done = threading.Thread(target=server.serve, args=(feed(),))
    done.start()
    lines.put("position 44")
    lines.put("go infinite")
    assert answers.get(timeout=WAIT).startswith("info ")  # it thinks, and says so
    lines.put("isready")
    while (answer := answers.get(timeout=WAIT)) != "readyok":
        assert answer.startswith("info ")  # no bestmove before stop
    lines.put("stop")
    while not (answer := answers.get(timeout=WAIT)).startswith("bestmove"):
        assert answer.startswith("info ")
    lines.put("go infinite")
    lines.put("quit")
    done.join(WAIT)
    assert not done.is_alive()
    rest = []
    while not answers.empty():
        rest.append(answers.get())
    assert rest[-1].startswith("bestmove")


def test_the_budget_words_of_go_are_written_and_read_alike():
    budget = Budget(movetime=300, iterations=5, depth=4, nodes=100, infinite=True)
    assert parse_go(budget.line().split()[1:]) == budget


def test_a_host_reads_back_what_our_server_writes():
    out = served("mcts:iterations=500", "position 4453", "go")
    reader = InfoReader("cmd", 7, (True,) * 7)
    infos = [reader.read(line.split()[1:]) for line in out if line.startswith("info")]
    last = [info for info in infos if info is not None][-1]
    assert last.iterations == 500 and sum(stat.visits for stat in last.columns) >= 499
    assert last.pv[0] + 1 == int(out[-1].split()[1])
