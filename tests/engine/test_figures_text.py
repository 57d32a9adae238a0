"""How search figures read: a UCT value too large to read is never "inf%"."""

from __future__ import annotations

from c4tui.engine.study.figures import uct_text


def test_an_extreme_uct_value_reads_as_a_bound_not_inf():
    assert uct_text(1e308) == "≥999%"  # an outside bot's, shown to everyone watching
    assert uct_text(-1e308) == "≤-999%"
    assert uct_text(0.5) == "75.0%" and uct_text(None) == ""
