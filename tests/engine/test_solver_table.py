"""The solver's table: empty when made and after a clear, bounds packed apart."""

from __future__ import annotations

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.solver.table import Coding, clear_table, new_table, packed_fits


@pytest.mark.parametrize("packed", [True, False])
def test_a_table_is_empty_when_made_and_after_a_clear(packed):
    table = new_table(1009, packed)
    assert len(table) == 1009
    assert not any(table)
    for slot in (0, 500, 1008):
        table[slot] = (123 << 8) | 7
    clear_table(table)
    assert not any(table)


@pytest.mark.parametrize("size", [(7, 6, 4), (4, 4, 3), (9, 7, 4), (5, 4, 4)])
def test_upper_and_lower_bounds_of_every_score_decode_apart(size):
    g = geometry(*size)
    coding = Coding.of(g)
    uppers = [score - coding.upper_shift for score in range(-g.max_score, g.max_score + 1)]
    lowers = [score + coding.lower_shift for score in range(-g.max_score, g.max_score + 1)]
    # 0 is an empty slot; upper bounds sit in 1..lower_base, lower bounds above; one byte.
    assert min(uppers) == 1 and max(uppers) <= coding.lower_base
    assert min(lowers) > coding.lower_base and max(lowers) <= 255


def test_packed_tables_are_for_keys_that_fit_64_bits():
    assert packed_fits(geometry(7, 6, 4))
    assert not packed_fits(geometry(9, 7, 4))
