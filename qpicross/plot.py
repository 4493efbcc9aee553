"""Drawing: a puzzle (clues along the top and left, the board, broken lines in red), and saving a figure.

* :func:`plot_puzzle` -- a puzzle's clues and a board;
* :func:`save_figure` -- a figure to a ``.png``, ``.svg`` or ``.pdf`` file.

A weight sweep is drawn by :func:`qpicross.experiments.tune.plot_tuning`, beside the sweep.

Works headless (the Agg backend is used when nothing else is set up) and in
notebooks; every function returns the :class:`matplotlib.figure.Figure`. matplotlib is imported
by the functions that draw, so importing this module does not load it.

Examples:
    >>> from qpicross import Puzzle
    >>> from qpicross.plot import plot_puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> fig = plot_puzzle(p, ["..#..", ".#.#.", ".#.#.", "#####", "#...#"])
    >>> fig.axes[0].get_title(loc="left")
    'A (5x5): solved'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.names import FIGURE_SUFFIXES
from qpicross.puzzle import BrokenLine, Puzzle, board_array, check
from qpicross.puzzle.puzzle import require_puzzle

__all__ = ["plot_puzzle", "save_figure"]

BROKEN_COLOUR = "#d62728"
#: Largest ``cell_size`` (inches per cell) :func:`plot_puzzle` draws.
MAX_CELL_SIZE = 10.0

FILLED_COLOUR = "#222222"


def _figure(width: float, height: float):
    # The object-oriented API with a bare Figure needs no display and leaves
    # pyplot's state (and the notebook's backend) alone.
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def plot_puzzle(
    puzzle: Puzzle,
    board: np.ndarray | Sequence[str] | None = None,
    *,
    broken: Sequence[BrokenLine] | None = None,
    marked: Iterable[tuple[int, int]] | None = None,
    title: str | None = None,
    cell_size: float = 0.32,
    ax=None,
):
    """Draw the puzzle's clues and (optionally) a board.

    Args:
        puzzle: The puzzle whose clues are drawn.
        board: A 0/1 array or ``#``/``.`` strings; blank when None.
        broken: Lines to highlight; by default those :func:`check` finds in ``board``.
        marked: ``(row, col)`` cells to cross out in red, e.g. where the row and
            column variables of a read paint different boards.
        title: Defaults to the puzzle's name, size and verdict.
        cell_size: Inches per cell (the figure grows with the puzzle and its clues).
        ax: Draw into this Axes instead of a new figure.

    Returns:
        The Figure.

    Raises:
        ParameterError: If ``puzzle`` is not a :class:`~qpicross.puzzle.Puzzle`, the board not a 0/1 board, or
            ``cell_size`` not a positive number of inches (at most :data:`MAX_CELL_SIZE`).
    """
    n_rows, n_cols = require_puzzle(puzzle).shape
    if isinstance(cell_size, bool) or not isinstance(cell_size, (int, float)) \
            or not 0 < cell_size <= MAX_CELL_SIZE:
        raise ParameterError(f"cell_size must be a number of inches in (0, {MAX_CELL_SIZE:g}], got {cell_size!r}")
    grid = None
    if board is not None:
        grid = board_array(board)
        if broken is None:
            broken = check(puzzle, grid)
    broken = list(broken or [])
    broken_rows = {b.index for b in broken if b.kind == "row"}
    broken_cols = {b.index for b in broken if b.kind == "col"}

    # Room for the clues: one slot per number (columns stack numbers vertically).
    row_slots = max(1, max((len(c) for c in puzzle.rows), default=1))
    col_slots = max(1, max((len(c) for c in puzzle.cols), default=1))
    widest = max((len(str(v)) for c in puzzle.rows for v in c), default=1)
    row_slot_width = 0.55 + 0.35 * widest  # in cell units
    left = row_slots * row_slot_width + 0.3
    top = col_slots * 0.8 + 0.3

    if ax is None:
        fig = _figure(cell_size * (n_cols + left) + 0.4, cell_size * (n_rows + top) + 0.7)
        ax = fig.add_axes([0.02, 0.02, 0.96, 0.96 - 0.55 / (cell_size * (n_rows + top) + 0.7)])
    else:
        fig = ax.figure

    from matplotlib.patches import Rectangle

    ax.set_xlim(-left, n_cols + 0.05)
    ax.set_ylim(n_rows + 0.05, -top)
    ax.set_aspect("equal")
    ax.axis("off")

    fontsize = max(5.0, min(11.0, cell_size * 72 * 0.55))
    for i in broken_rows:
        ax.add_patch(Rectangle((-left, i), left + n_cols, 1, color=BROKEN_COLOUR, alpha=0.18, lw=0))
    for j in broken_cols:
        ax.add_patch(Rectangle((j, -top), 1, top + n_rows, color=BROKEN_COLOUR, alpha=0.18, lw=0))
    if grid is not None:
        filled = np.argwhere(grid > 0)
        for r, c in filled:
            ax.add_patch(Rectangle((c, r), 1, 1, color=FILLED_COLOUR, lw=0))

    for x in range(n_cols + 1):
        ax.plot([x, x], [-top if x < n_cols else 0, n_rows], color="#999999" if x % 5 else "#444444",
                lw=0.6 if x % 5 else 1.2, zorder=3)
    for y in range(n_rows + 1):
        ax.plot([-left if y < n_rows else 0, n_cols], [y, y], color="#999999" if y % 5 else "#444444",
                lw=0.6 if y % 5 else 1.2, zorder=3)

    for i, clue in enumerate(puzzle.rows):
        colour = BROKEN_COLOUR if i in broken_rows else "black"
        numbers = clue or (0,)
        for slot, value in enumerate(reversed(numbers)):
            ax.text(-(slot + 0.5) * row_slot_width - 0.15, i + 0.5, str(value), ha="center", va="center",
                    fontsize=fontsize, color=colour, fontweight="bold" if colour != "black" else "normal")
    for j, clue in enumerate(puzzle.cols):
        colour = BROKEN_COLOUR if j in broken_cols else "black"
        numbers = clue or (0,)
        for slot, value in enumerate(reversed(numbers)):
            ax.text(j + 0.5, -(slot + 0.5) * 0.8 - 0.15, str(value), ha="center", va="center",
                    fontsize=fontsize, color=colour, fontweight="bold" if colour != "black" else "normal")

    for r, c in marked or ():
        ax.plot([c + 0.2, c + 0.8], [r + 0.2, r + 0.8], color=BROKEN_COLOUR, lw=2.2, zorder=5)
        ax.plot([c + 0.2, c + 0.8], [r + 0.8, r + 0.2], color=BROKEN_COLOUR, lw=2.2, zorder=5)

    for i in broken_rows:
        ax.add_patch(Rectangle((0, i), n_cols, 1, fill=False, ec=BROKEN_COLOUR, lw=1.8, zorder=4))
    for j in broken_cols:
        ax.add_patch(Rectangle((j, 0), 1, n_rows, fill=False, ec=BROKEN_COLOUR, lw=1.8, zorder=4))

    if title is None:
        verdict = ""
        if grid is not None:
            verdict = ": solved" if not broken else f": {len(broken)} broken lines"
        title = f"{puzzle.name} ({n_rows}x{n_cols}){verdict}"
    ax.set_title(title, fontsize=max(8.0, fontsize + 1), loc="left")
    return fig


def save_figure(fig, path: str | os.PathLike, dpi: int = 150) -> None:
    """Save a figure; the format follows the extension (``.png``, ``.svg``, ``.pdf``).

    Raises:
        ParameterError: If ``path`` has none of :data:`FIGURE_SUFFIXES` (matplotlib would write ``path.png``
            instead, a file the caller did not name) or ``dpi`` is not a positive integer.
    """
    if not isinstance(path, (str, os.PathLike)) or os.path.splitext(os.fspath(path))[1].lower() not in FIGURE_SUFFIXES:
        raise ParameterError(f"path must name a {', '.join(FIGURE_SUFFIXES)} file, got {path!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 1 <= dpi <= 2400:
        raise ParameterError(f"dpi must be an integer from 1 to 2400, got {dpi!r}")
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
