"""The geometry of a grid laid out column by column: which cells are orthogonal neighbours.

With ``rows`` rows, the cell at index i of a list sits in column i // rows, row i % rows.
Shapes never change, so each (cells, rows) is worked out once.
"""
from __future__ import annotations

from operator import itemgetter

_SHAPES: dict = {}   # (cells, rows) -> the neighbour indexes of each cell (the shape never changes)


def adjacency(n: int, rows: int) -> tuple:
    """For each index of a column-major grid of ``n`` cells and ``rows`` rows, the indexes of
    its orthogonal neighbours (up, down, left, right)."""
    shape = _SHAPES.get((n, rows))
    if shape is None:
        shape = tuple(tuple(j for j, ok in ((i - 1, i % rows > 0), (i + 1, i % rows < rows - 1 and i + 1 < n),
                                            (i - rows, i >= rows), (i + rows, i + rows < n)) if ok)
                      for i in range(n))
        if len(_SHAPES) < 256:
            _SHAPES[(n, rows)] = shape
    return shape


_AROUND: dict = {}   # (cells, rows) -> for each cell, its index and its neighbours', in order


def around(n: int, rows: int) -> tuple:
    """For each index of a column-major grid, that index and its neighbours' indexes, sorted."""
    cells = _AROUND.get((n, rows))
    if cells is None:
        cells = tuple(tuple(sorted({i, *near})) for i, near in enumerate(adjacency(n, rows)))
        if len(_AROUND) < 256:
            _AROUND[(n, rows)] = cells
    return cells


_GETTERS: dict = {}  # (cells, rows) -> for each cell, a function grid -> its neighbours (a tuple)


def neighbour_getters(n: int, rows: int) -> tuple:
    """For each cell of a column-major grid, a C-level getter of its neighbours' cards
    (operator.itemgetter: no Python frame per cell when a whole grid is priced)."""
    getters = _GETTERS.get((n, rows))
    if getters is None:
        getters = tuple(_getter(idx) for idx in adjacency(n, rows))
        if len(_GETTERS) < 256:
            _GETTERS[(n, rows)] = getters
    return getters


def _getter(idx: tuple):
    # (a function of its own: mypy 2.4 crashes inferring itemgetter(*idx) inside the generator)
    return itemgetter(*idx) if len(idx) > 1 else _single(idx)


def _single(idx):
    if not idx:
        return lambda grid: ()
    j = idx[0]
    return lambda grid: (grid[j],)


def neighbours_at(grid, i: int, rows: int) -> list:
    """The cards orthogonally adjacent to index ``i`` of a column-major grid of ``rows`` rows."""
    return [grid[j] for j in adjacency(len(grid), rows)[i]]
