r"""Line logic: what a human deduces one row or column at a time, to a fixpoint.

A cell is ``1`` (filled), ``0`` (empty) or ``-1`` (unknown). Each line is solved by the complete
single-line solver of :mod:`qpicross.puzzle.line_solver` (:func:`solve_line`, re-exported here with
:func:`line_placements` and :func:`line_text`): every cell that is the same in all placements of the
clue that fit the known cells.

:func:`propagate` applies it to rows and columns until nothing changes, with a
work queue: only lines crossing a cell that changed are solved again.

Examples:
    >>> line_text(solve_line([6], 10))
    '????##????'
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> result = propagate(p)
    >>> result.solved, result.fraction_settled
    (True, 1.0)
    >>> print("\n".join(result.board_strings))
    ..#..
    .#.#.
    .#.#.
    #####
    #...#
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque

import numpy as np

from qpicross.exceptions import Contradiction
from qpicross.puzzle import Puzzle, clue_text, line_name, require_puzzle
from qpicross.puzzle.line_solver import (UNKNOWN, compiled_line_solver, known_cells, line_placements, line_text,
                                         solve_line)

__all__ = [
    "Contradiction",
    "LogicResult",
    "solve_line",
    "line_placements",
    "line_text",
    "propagate",
    "UNKNOWN",
]


@dataclasses.dataclass
class LogicResult:
    """How far line logic got on a puzzle.

    Attributes:
        puzzle: The puzzle.
        known: ``puzzle.shape`` int8 array: 1 filled, 0 empty, -1 unknown.
            On a contradiction, the cells settled when it was found.
        contradiction: True if some line had no placement left (the puzzle,
            with the given known cells, has no solution).
        line_solves: Single-line solves done.
        time_s: Seconds spent.
    """

    puzzle: Puzzle
    known: np.ndarray
    contradiction: bool
    line_solves: int
    time_s: float
    message: str = ""

    @property
    def num_settled(self) -> int:
        return int((self.known != UNKNOWN).sum())

    @property
    def fraction_settled(self) -> float:
        """Settled cells over all cells (1.0 for an empty grid)."""
        return self.num_settled / self.known.size if self.known.size else 1.0

    @property
    def fraction_unfixed(self) -> float:
        """``1 - fraction_settled``: the CP report's "ratio of unfixed cells"."""
        return 1.0 - self.fraction_settled

    @property
    def solved(self) -> bool:
        """Every cell settled without contradiction (the board then solves the puzzle)."""
        return not self.contradiction and self.num_settled == self.known.size

    @property
    def board(self) -> np.ndarray:
        """The known cells as a 0/1 board (unknown cells read as empty)."""
        return (self.known == 1).astype(np.uint8)

    @property
    def board_strings(self) -> list[str]:
        """Rows as ``#``/``.``/``?`` strings."""
        return [line_text(row) for row in self.known]

    def to_dict(self) -> dict:
        return {
            **self.puzzle.outcome(self.solved, self.board_strings),
            "contradiction": self.contradiction,
            "fraction_settled": self.fraction_settled,
            "cells_settled": self.num_settled,
            "line_solves": self.line_solves,
            "time_s": self.time_s,
        }


def propagate(puzzle: Puzzle, known: np.ndarray | None = None) -> LogicResult:
    """Apply :func:`solve_line` to rows and columns until no cell changes.

    Args:
        puzzle: The puzzle.
        known: Optional ``puzzle.shape`` array of cells already settled
            (1 filled, 0 empty, -1 unknown); it is not modified.

    Returns:
        A :class:`LogicResult`. Every cell it settles holds in every solution
        of the puzzle that agrees with ``known``.

    Examples:
        >>> from qpicross import Puzzle
        >>> r = propagate(Puzzle([[1], [1]], [[1], [1]]))  # two solutions: logic cannot choose
        >>> r.fraction_settled, r.contradiction
        (0.0, False)
        >>> propagate(Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]])).contradiction
        True
    """
    t0 = time.perf_counter()
    n_rows, n_cols = require_puzzle(puzzle).shape
    grid = np.full(puzzle.shape, UNKNOWN, np.int8) if known is None else known_cells(known, puzzle.shape)
    clues = [np.asarray(c, np.int64) for c in (*puzzle.rows, *puzzle.cols)]
    kernel = compiled_line_solver()
    queue = deque(range(n_rows + n_cols))
    queued = np.ones(n_rows + n_cols, bool)
    solves = 0
    while queue:
        line = queue.popleft()
        queued[line] = False
        is_row = line < n_rows
        view = grid[line, :] if is_row else grid[:, line - n_rows]
        cells = np.ascontiguousarray(view)
        out = np.empty(len(cells), np.int8)
        starts = np.zeros((len(clues[line]), len(cells) + 1), np.bool_)
        solves += 1
        if not kernel(clues[line], cells, out, starts):
            name = line_name("row", line) if is_row else line_name("col", line - n_rows)
            return LogicResult(puzzle, grid, True, solves, time.perf_counter() - t0,
                               message=f"{name}: no placement of clue {clue_text(clues[line].tolist())} fits")
        changed = np.flatnonzero(out != cells)
        if len(changed) == 0:
            continue
        view[changed] = out[changed]
        crossing = changed + (n_rows if is_row else 0)
        fresh = crossing[~queued[crossing]]
        queued[fresh] = True
        queue.extend(fresh.tolist())
    return LogicResult(puzzle, grid, False, solves, time.perf_counter() - t0)
