"""Boards and samples of the formulation: a board as an assignment, and samples back to boards.

The conversions between the Picross board and the formulation's start variables, the
first step of decoding (:mod:`qpicross.decode` judges the boards these give):
:func:`sample_from_board` is the assignment that encodes a solved board,
:func:`samples_to_array` puts a sampleset's records in the formulation's variable order,
:func:`coverage` counts how many blocks of one side cover each cell and :func:`boards`
paints the board of each sample. :class:`~qpicross.model.formulation.PicrossFormulation`
offers each as a method.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[2]], [[1], [1], []]))
    >>> sample = sample_from_board(f, ["##."])
    >>> sample
    {('row', 0, 0, 0): 1, ('row', 0, 1, 0): 0, ('col', 0, 0, 0): 1, ('col', 1, 0, 0): 1}
    >>> boards(f, [list(sample.values())]).tolist()
    [[[1, 1, 0]]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.puzzle import Puzzle, board_array, clue_text, line_name, line_runs


__all__ = ["sample_from_board", "samples_to_array", "boards", "coverage", "fixed_coverage"]


def sample_from_board(formulation: PicrossFormulation, board: np.ndarray | Sequence[str]) -> dict[tuple, int]:
    """The assignment that encodes a board (every block start of every line).

    The board must satisfy the clues; otherwise the result is not
    meaningful (blocks are matched to runs in order).

    Raises:
        ParameterError: If a line's runs do not match its clue.
    """
    puzzle = formulation.puzzle
    grid = board_array(board)
    on = set()
    for kind_name, lines, clues in (("row", grid, puzzle.rows), ("col", grid.T, puzzle.cols)):
        for index, (cells, clue) in enumerate(zip(lines, clues)):
            if line_runs(cells) != clue:
                raise ParameterError(f"{line_name(kind_name, index)} of the board does not match its clue {clue_text(clue)}")
            starts = [p for p in range(len(cells)) if cells[p] and (p == 0 or not cells[p - 1])]
            on.update((kind_name, index, s, k) for k, s in enumerate(starts))
    return {label: int(label in on) for label in formulation.labels}


def samples_to_array(sampleset: dimod.SampleSet, labels: list) -> np.ndarray:
    """A sampleset's records as a ``(num_samples, len(labels))`` 0/1 int8 array in ``labels`` order."""
    record = sampleset.record.sample
    if list(sampleset.variables) == labels:
        return np.asarray(record, dtype=np.int8)
    index = {v: i for i, v in enumerate(sampleset.variables)}
    return np.asarray(record[:, [index[v] for v in labels]], dtype=np.int8)


def boards(formulation: PicrossFormulation, samples: np.ndarray,
           side: Literal["row", "col"] = "row") -> np.ndarray:
    """Boards painted by the row (or column) variables of each sample.

    Args:
        formulation: The formulation the samples are assignments of.
        samples: ``(num_samples, num_variables)`` 0/1 array in label order.
        side: Which half of the variables paints the board.

    Returns:
        ``(num_samples, num_rows, num_cols)`` uint8 array; a cell is filled
        when at least one block of that side covers it. Presolve-fixed
        variables are included.
    """
    samples = np.atleast_2d(samples)
    n_rows, n_cols = formulation.puzzle.shape
    covered = coverage(formulation, samples, 0 if side == "row" else 1)
    return (covered > 0).astype(np.uint8).reshape(len(samples), n_rows, n_cols)


def coverage(formulation: PicrossFormulation, samples: np.ndarray, kind: int) -> np.ndarray:
    """How many blocks of one side (``kind`` 0 rows, 1 columns) cover each flat cell: ``(num_samples, cells)``.

    Presolve-fixed variables (:attr:`~qpicross.model.formulation.PicrossFormulation.fixed_labels`) count.
    """
    samples = np.atleast_2d(samples)
    puzzle = formulation.puzzle
    n_cells = puzzle.num_rows * puzzle.num_cols
    counts = np.diff(formulation.cover_indptr)
    var_of_cover = np.repeat(np.arange(formulation.num_variables), counts)
    keep = formulation.kind[var_of_cover] == kind
    var_of_cover = var_of_cover[keep]
    cells = formulation.cover_cells[keep]
    out = np.zeros((len(samples), n_cells), dtype=np.int32)
    for r in range(len(samples)):
        out[r] = np.bincount(cells, weights=samples[r, var_of_cover], minlength=n_cells)
    out += formulation.fixed_coverage[kind]
    return out


def fixed_coverage(puzzle: Puzzle, fixed_labels: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """How many fixed blocks cover each flat cell: one count array for the rows' blocks, one for the columns'."""
    n_rows, n_cols = puzzle.shape
    counts = (np.zeros(n_rows * n_cols, np.int32), np.zeros(n_rows * n_cols, np.int32))
    for kind_name, index, start, k in fixed_labels:
        clue = (puzzle.rows if kind_name == "row" else puzzle.cols)[index]
        for p in range(start, start + clue[k]):
            cell = index * n_cols + p if kind_name == "row" else p * n_cols + index
            counts[0 if kind_name == "row" else 1][cell] += 1
    return counts
