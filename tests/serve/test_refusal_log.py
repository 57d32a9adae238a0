"""Under a flood, refusals are counted and summarised, not logged one by one."""

from __future__ import annotations

import logging

from c4tui.server.fronts.refusal_log import WINDOW, RefusalLog


def test_a_flood_of_refusals_from_one_address_is_a_few_lines_and_a_summary(caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    now = [0.0]
    refusals = RefusalLog(3, clock=lambda: now[0])
    log = logging.getLogger("c4tui.server")
    log.addFilter(refusals)
    try:
        for _ in range(1000):
            log.warning("web %s: refused a request: %s", "10.0.0.9", "too big")
        log.warning("web %s: refused a request: %s", "10.0.0.7", "too big")  # another address
        log.info("web %s: a tab started", "10.0.0.9")  # not a refusal: never held back
        now[0] = WINDOW
        refusals.flush()
        log.warning("web %s: refused a request: %s", "10.0.0.9", "too big")  # a new minute
    finally:
        log.removeFilter(refusals)
    lines = [r.getMessage() for r in caplog.records]
    assert lines.count("web 10.0.0.9: refused a request: too big") == 4
    assert "web 10.0.0.7: refused a request: too big" in lines
    assert "web 10.0.0.9: a tab started" in lines
    (summary,) = [line for line in lines if "more refusals" in line]
    assert summary.startswith("10.0.0.9: 997 more refusals like 'web …: refused a request: …'")
    assert len(lines) == 7  # 3 + 1 in the next minute, 0.7, the tab, the summary
