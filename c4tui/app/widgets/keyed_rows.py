"""A table whose rows are keyed, changed in place: only the rows that changed are drawn.

The lobby's list of rooms changes a row at a time (a seat taken, a watcher more), and a
lobby of 500 rooms cleared and refilled for each change costs every client in it a whole
table's layout. `KeyedRows` remembers what each row shows, by its key, and gives the
table only the difference: the cells that changed, `add_row` for a row that came,
`remove_row` for one that went, and `sort` when the order changed.

A changed cell repaints its row alone (`RowsTable`): DataTable's own `update_cell`
repaints the whole table, every visible row rendered again, and a lobby client spent
that on each room whose seats or watchers changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Self

from textual.geometry import Region
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

Cells = tuple[str, ...]


class RowsTable(DataTable[str]):
    """A DataTable whose changed cells repaint their row, not the whole table."""

    _one_row = False  # while a row's cells are written: their whole-table repaints held

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._one_row and not (regions or layout or recompose):
            return self  # update_cell's own refresh: the row's is enough
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def change_row(self, key: str, cells: Sequence[tuple[ColumnKey, str]]) -> None:
        """Write these cells of the row `key` and repaint that row alone (the table's
        caches are still dropped by `update_cell`, so no stale line is shown; only the
        row's lines are rendered again)."""
        self._one_row = True
        try:
            for column, value in cells:
                self.update_cell(key, column, value)
        finally:
            self._one_row = False
        self.refresh_row(self.get_row_index(key))


class KeyedRows:
    """The rows of one DataTable by key, as last shown (the table's columns are made
    through `add_columns`, so that each cell is found by its column's key)."""

    def __init__(self, table: RowsTable) -> None:
        self.table = table
        self.columns: list[ColumnKey] = []
        self.shown: dict[str, Cells] = {}  # key -> cells, in the table's order

    def add_columns(self, columns: Iterable[tuple[str, int]]) -> None:
        for label, width in columns:
            self.columns.append(self.table.add_column(label, width=width))

    def show(self, rows: Mapping[str, Cells]) -> bool:
        """The table shows `rows`, in their order; whether the order of the rows changed
        (a row came, went or moved)."""
        table, shown = self.table, self.shown
        moved = list(shown) != list(rows)
        for key in [key for key in shown if key not in rows]:
            table.remove_row(key)
            del shown[key]
        for key, cells in rows.items():
            old = shown.get(key)
            if old is None:
                table.add_row(*cells, key=key)
            elif old != cells:
                changed = zip(self.columns, old, cells, strict=True)
                table.change_row(key, [(column, now) for column, was, now in changed if was != now])
            shown[key] = cells
        if moved:
            if list(shown) != list(rows):  # not only rows added at the end: sorted again
                # The table's sort sees a row's cells, not its key: rows of the same cells
                # look the same, so either place is right for both.
                rank = {cells: place for place, cells in reversed(list(enumerate(rows.values())))}
                table.sort(*self.columns, key=lambda cells: rank[_cells(cells)])
            self.shown = {key: rows[key] for key in rows}
        return moved


def _cells(values: object) -> Cells:
    """A row's cells as the table's sort gives them (one column's alone, not in a tuple)."""
    return tuple(values) if isinstance(values, tuple) else (str(values),)
