"""Pruning by known cells: drop the starts no placement of their line allows, fix the forced ones.

Given cells already settled (1 filled, 0 empty, -1 unknown, e.g. by line logic),
:func:`prune_by_known` keeps the starts some placement of the whole line that agrees with
them uses (the single-line solver's placement DP, :func:`~qpicross.puzzle.line_solver.line_placements`)
and marks a block left with one start as forced; :func:`fix_to_one` substitutes
the forced variables into a term. :func:`~qpicross.model.formulation.build_formulation`
(``known=``), the size estimate and presolve use them.

Examples:
    >>> import numpy as np
    >>> from qpicross import Puzzle
    >>> from qpicross.model.placements import enumerate_starts
    >>> puzzle = Puzzle([[2]], [[1], [1], []])
    >>> keep, fixed = prune_by_known(puzzle, np.array([[1, -1, -1]]), *enumerate_starts(puzzle))
    >>> keep.tolist(), fixed.tolist()
    ([True, False, True, True], [True, False, True, True])
"""

from __future__ import annotations

import numpy as np

from qpicross.exceptions import Contradiction, ParameterError
from qpicross.model.terms import TermArrays
from qpicross.puzzle import clue_text, line_name
from qpicross.puzzle.line_solver import line_placements

__all__ = ["prune_by_known", "fix_to_one"]


def prune_by_known(puzzle, known, kind, line, block, start, length):
    """Keep-mask of the starts some placement of the whole line uses, and the forced ones.

    A start survives when at least one placement of its line's clue that agrees
    with the known cells puts the block there (line logic's placement DP, so the
    order of the blocks counts, not only the cells next to the block). A block
    left with a single start is forced.
    """
    if known.shape != puzzle.shape:
        raise ParameterError(f"known has shape {known.shape}, puzzle is {puzzle.shape}")
    keep = np.zeros(len(start), bool)
    # Variables are ordered by (kind, line, block, start): each line is one slice.
    line_key = kind.astype(np.int64) * (max(puzzle.shape) + 1) + line
    bounds = np.searchsorted(line_key, np.arange(2 * (max(puzzle.shape) + 1) + 1))
    for kind_id, name, clues in ((0, "row", puzzle.rows), (1, "col", puzzle.cols)):
        for index, clue in enumerate(clues):
            key = kind_id * (max(puzzle.shape) + 1) + index
            sel = slice(bounds[key], bounds[key + 1])
            if not clue:
                continue
            cells = known[index, :] if kind_id == 0 else known[:, index]
            try:
                allowed = line_placements(clue, cells)
            except Contradiction:
                raise ParameterError(
                    f"{line_name(name, index)}: no start is compatible with the known cells (clue {clue_text(clue)})"
                ) from None
            keep[sel] = allowed[block[sel], start[sel]]
    group = line_key * (max(puzzle.shape) + 1) + block
    _, group_index, group_size = np.unique(group[keep], return_inverse=True, return_counts=True)
    fixed = np.zeros(len(start), bool)
    fixed[np.flatnonzero(keep)] = group_size[group_index.ravel()] == 1
    return keep, fixed


def fix_to_one(term: TermArrays, fixed: np.ndarray) -> TermArrays:
    """Substitute x_v = 1 for fixed variables and drop them (indices are renumbered)."""
    keep = ~fixed
    new_index = np.cumsum(keep) - 1
    linear = term.linear.copy()
    offset = term.offset + float(term.linear[fixed].sum())
    fa, fb = fixed[term.irow], fixed[term.icol]
    both = fa & fb
    offset += float(term.data[both].sum())
    only_a = fa & ~fb  # x_a = 1: bias moves to b's linear term
    only_b = fb & ~fa
    np.add.at(linear, term.icol[only_a], term.data[only_a])
    np.add.at(linear, term.irow[only_b], term.data[only_b])
    free = ~fa & ~fb
    return TermArrays(
        linear[keep], new_index[term.irow[free]], new_index[term.icol[free]], term.data[free], offset
    )
