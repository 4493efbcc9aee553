"""Where blocks may start: the start variables of the formulation, as arrays.

A variable is one start of one block of one line. :func:`placement_windows` gives each
block's first and last start (the stacking bounds, or the published ones);
:func:`enumerate_starts` lists every variable of a puzzle as ``(kind, line, block, start, length)``
arrays, ordered rows first, then columns, by line, block and start; :func:`group_ids` and
:func:`painted_cells` turn them into one-hot groups and painted cells. The builder
(:func:`qpicross.model.formulation.build_formulation`) and the size estimate
(:mod:`qpicross.model.size`) share them.

Examples:
    >>> from qpicross import Puzzle
    >>> kind, line, block, start, length = enumerate_starts(Puzzle([[2]], [[1], [1], []]))
    >>> variable_labels(kind, line, start, block)
    [('row', 0, 0, 0), ('row', 0, 1, 0), ('col', 0, 0, 0), ('col', 1, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.puzzle import Puzzle

__all__ = ["Bounds", "placement_windows", "enumerate_starts", "num_published_variables", "variable_labels",
           "group_ids", "painted_cells"]

Bounds = Literal["stacking", "published"]


def placement_windows(clue: Sequence[int], length: int, bounds: Bounds = "stacking") -> list[tuple[int, int]]:
    """Inclusive ``(first, last)`` start of each block of a clue in a line.

    >>> placement_windows([2, 1, 2], 9)
    [(0, 2), (3, 5), (5, 7)]
    >>> placement_windows([2, 1, 2], 9, bounds="published")
    [(0, 8), (0, 8), (0, 7)]
    """
    clue = list(clue)
    if bounds == "published":
        return [(0, length - 1)] * (len(clue) - 1) + ([(0, length - clue[-1])] if clue else [])
    if bounds != "stacking":
        raise ParameterError(f"bounds must be 'stacking' or 'published', got {bounds!r}")
    windows = []
    before = 0
    total = sum(clue)
    count = len(clue)
    for k, h in enumerate(clue):
        first = before + k
        last = length - (total - before) - (count - k - 1)
        windows.append((first, last))
        before += h
    return windows


def enumerate_starts(puzzle: Puzzle, bounds: Bounds = "stacking") -> tuple[np.ndarray, ...]:
    """Every start variable of a puzzle, before any pruning by known cells.

    The one enumeration both :func:`build_formulation` and the size estimate
    (:func:`qpicross.model.size.estimate_size`) use. Variables come ordered by
    ``(kind, line, block, start)``: rows first, then columns.

    Returns:
        ``(kind, line, block, start, length)`` arrays, one entry per variable
        (``kind`` 0 for a row, 1 for a column; ``length`` is the block's length).

    Examples:
        >>> kind, line, block, start, length = enumerate_starts(Puzzle([[1, 1]], [[1], [], [1]]))
        >>> kind.tolist(), block.tolist(), start.tolist()
        ([0, 0, 1, 1], [0, 1, 0, 0], [0, 2, 0, 0])
    """
    n_rows, n_cols = puzzle.shape
    blocks = []  # (kind, line, block, first start, length, how many starts): one entry a block, then repeated
    for kind, (clues, line_length) in enumerate(((puzzle.rows, n_cols), (puzzle.cols, n_rows))):
        for index, clue in enumerate(clues):
            for k, (lo, hi) in enumerate(placement_windows(clue, line_length, bounds)):
                blocks.append((kind, index, k, lo, clue[k], hi - lo + 1))
    table = np.array(blocks, np.int64).reshape(-1, 6)
    count = table[:, 5]
    kind, line, block, first, length = (np.repeat(column, count) for column in table[:, :5].T)
    offset = np.arange(len(kind)) - np.repeat(np.cumsum(count) - count, count)  # 0, 1, ... within each block
    return kind.astype(np.int8), line, block, first + offset, length


def num_published_variables(puzzle: Puzzle) -> int:
    """How many start variables the published formulation has (every start but past-the-end ones)."""
    n_rows, n_cols = puzzle.shape
    return sum(hi - lo + 1
               for clues, line_length in ((puzzle.rows, n_cols), (puzzle.cols, n_rows))
               for clue in clues for lo, hi in placement_windows(clue, line_length, "published"))


def variable_labels(kind, line, start, block) -> list[tuple]:
    """The variables' labels ``("row"|"col", line, start, block)`` from their arrays."""
    names = np.where(kind == 0, "row", "col")
    return list(zip(names.tolist(), line.tolist(), start.tolist(), block.tolist()))


def group_ids(kind, line, block, shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global line ids (rows, then columns), one-hot group ids, and where each group begins."""
    n_rows, n_cols = shape
    gline = line + kind.astype(np.int64) * n_rows
    group = gline * (max(n_rows, n_cols) + 1) + block
    new_group = np.r_[True, group[1:] != group[:-1]] if len(group) else np.zeros(0, bool)
    return gline, group, new_group


def painted_cells(kind, line, start, length, line_len, n_cols) -> tuple[np.ndarray, np.ndarray]:
    """Cells (flat index) painted by each variable, clipped to the line."""
    span = np.minimum(start + length, line_len) - start
    indptr = np.r_[0, np.cumsum(span)]
    var = np.repeat(np.arange(len(start)), span)
    pos = np.arange(int(indptr[-1])) - np.repeat(indptr[:-1], span) + start[var]
    is_row = kind[var] == 0
    cells = np.where(is_row, line[var] * n_cols + pos, pos * n_cols + line[var])
    return indptr, cells.astype(np.int64)
