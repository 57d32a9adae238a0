"""A pytest plugin that notes each test's CPU seconds, for keeping the default run short.

    C4TUI_CPU_TIMES=/tmp/cpu.txt uv run python -m pytest -p tests.cpu_times -m "slow or not slow"
    uv run python scripts/slow_tests.py /tmp/cpu.txt      # rewrites tests/slow_tests.txt

CPU, not wall-clock time: on a shared machine the wall clock says more about the
neighbours than about the test. Counted are the test's own process (its threads too)
and the child processes it waited for (a served client, a CLI run, a server), during
the test's call only (fixtures are shared, and their cost is spread over many tests).
Each xdist worker appends its lines when it ends.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Generator

import pytest

_times: list[tuple[float, str]] = []


def _cpu_seconds() -> float:
    own, waited = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    before = _cpu_seconds()
    yield
    _times.append((_cpu_seconds() - before, item.nodeid))


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("C4TUI_CPU_TIMES")
    if not path or not _times:
        return
    with open(path, "a", encoding="utf-8") as out:
        out.writelines(f"{seconds:.2f} {nodeid}\n" for seconds, nodeid in _times)
