"""Drawing: a puzzle (clues along the top and left, the board, broken lines in red) and a weight sweep.

* :func:`plot_puzzle` -- a puzzle's clues and a board;
* :func:`plot_tuning` -- the success probability over the weights of a
  :func:`~qpicross.experiments.tune.tune` sweep (``qpicross tune --plot``).

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
from typing import TYPE_CHECKING

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.names import FIGURE_SUFFIXES
from qpicross.puzzle import BrokenLine, Puzzle, board_array, check
from qpicross.puzzle.puzzle import require_puzzle

if TYPE_CHECKING:
    from qpicross.experiments.tune import TuneResult

__all__ = ["plot_puzzle", "plot_tuning", "save_figure"]

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


def plot_tuning(result: TuneResult, x: str | None = None, y: str | None = None, *, title: str | None = None):
    """Success probability over two weights (a heat map for a grid, a scatter otherwise).

    With one varied weight, success probability against it with its Wilson interval.
    For a sweep over several puzzles, the mean success probability over them.

    Args:
        result: A finished (or interrupted) sweep.
        x, y: The weights on the axes; default: the first two varied ones.
        title: Defaults to the puzzle's name and the reads per point.

    Returns:
        The :class:`matplotlib.figure.Figure`.
    """
    from matplotlib.figure import Figure

    varied = result.varied
    x = x or (varied[0] if varied else "one_hot")
    y = y if y is not None else next((v for v in varied if v != x), None)
    records = result.summary
    reads = records[0]["num_reads"] if records else 0
    many = len(result.puzzles) > 1
    label = "mean success probability" if many else "success probability"
    if title is None:
        where = f"{len(result.puzzles)} puzzles" if many else result.puzzle
        title = f"{where}: {label} ({reads} reads per {'puzzle and ' if many else ''}point)"
    fig = Figure(figsize=(5.6, 4.4) if y else (5.6, 3.6), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=10)
    if not records:
        ax.text(0.5, 0.5, "no finished point", ha="center", va="center", transform=ax.transAxes)
        return fig
    p = np.array([r["success_probability"] for r in records])
    xs = np.array([r[x] for r in records])
    if y is None and many:
        order = np.argsort(xs)
        ax.plot(xs[order], p[order], marker="o")
        ax.set_xlabel(f"{x} weight")
        ax.set_ylabel(label)
        ax.set_ylim(-0.02, 1.02)
        return fig
    if y is None:
        order = np.argsort(xs)
        low = p - np.array([r["p_low"] for r in records])
        high = np.array([r["p_high"] for r in records]) - p
        ax.errorbar(xs[order], p[order], yerr=[low[order], high[order]], marker="o", capsize=3)
        ax.set_xlabel(f"{x} weight")
        ax.set_ylabel("success probability (95 % Wilson)")
        ax.set_ylim(-0.02, 1.02)
        return fig
    ys = np.array([r[y] for r in records])
    ux, uy = np.unique(xs), np.unique(ys)
    solved = bool(p.max() > 0)
    if not solved:  # no best point to mark: say so on the figure
        ax.text(0.5, 0.5, "no point solved the puzzle", ha="center", va="center", transform=ax.transAxes,
                fontsize=9, color="#d62728", zorder=5, bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "none"})
    if len(ux) * len(uy) <= 2 * len(records):
        # A grid: average over any other varied weight, one cell per (x, y).
        grid = np.full((len(uy), len(ux)), np.nan)
        for i, vy in enumerate(uy):
            for j, vx in enumerate(ux):
                here = (xs == vx) & (ys == vy)
                if here.any():
                    grid[i, j] = p[here].mean()
        top = float(np.nanmax(grid)) if solved else 1.0  # nothing solved: the full scale, not one of 1e-9
        image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=top, aspect="auto")
        ax.set_xticks(range(len(ux)), [f"{v:.3g}" for v in ux], fontsize=8)
        ax.set_yticks(range(len(uy)), [f"{v:.3g}" for v in uy], fontsize=8)
        best = result.best
        if best is not None and solved:
            ax.plot(np.flatnonzero(ux == best[x])[0], np.flatnonzero(uy == best[y])[0], marker="*",
                    color="#d62728", markersize=14, markeredgecolor="white", linestyle="none", label="best")
            ax.legend(loc="upper right", fontsize=8, framealpha=0.8)
    else:
        image = ax.scatter(xs, ys, c=p, cmap="viridis", vmin=0, vmax=float(p.max()) if solved else 1.0, s=40,
                           edgecolors="#444444", linewidths=0.4)
        best = result.best
        if solved:
            ax.plot(best[x], best[y], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor="#d62728", markeredgewidth=2, linestyle="none", label="best")
            ax.legend(loc="best", fontsize=8, framealpha=0.8)
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        for values, axis, set_scale in ((xs, ax.xaxis, ax.set_xscale), (ys, ax.yaxis, ax.set_yscale)):
            if values.min() > 0 and values.max() / values.min() >= 8:  # a wide (e.g. --log) range
                set_scale("log")
                axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
                axis.set_minor_formatter(NullFormatter())
    fig.colorbar(image, ax=ax, label=label)
    ax.set_xlabel(f"{x} weight")
    ax.set_ylabel(f"{y} weight")
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
