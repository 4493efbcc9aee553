r"""The single-line solver: every placement of a clue that fits a partly known line.

A cell is ``1`` (filled), ``0`` (empty) or ``-1`` (unknown). :func:`solve_line`
is a *complete* single-line solver: given a clue and a partially known line
it returns every cell that is the same in all placements of the clue that fit
the known cells, or raises :class:`~qpicross.exceptions.Contradiction` when no
placement fits; :func:`line_placements` gives the starts each block may still take.
Both are pure functions of one clue and one line, so the model (pruning starts by
known cells, :mod:`qpicross.model.pruning`) and line logic over the whole grid
(:func:`qpicross.classical.logic.propagate`) share them.

It is a dynamic programme over placements, :math:`O(L \cdot K)` for a line of
length :math:`L` and :math:`K` blocks (never an enumeration of placements).
Pad the line with one empty cell in front and see block :math:`k` as the unit
"one empty cell, then :math:`h_k` filled cells". With :math:`F_k(i)` = "the
first :math:`i` padded cells can hold units :math:`0..k-1` and nothing else"
and :math:`B_k(i)` = "cells :math:`i..L` can hold units :math:`k..K-1`",

.. math::

    F_k(i) = \big(F_k(i-1) \wedge c_{i-1} \ne 1\big) \vee
             \big(F_{k-1}(i-h-1) \wedge c_{i-h-1} \ne 1 \wedge c_{i-h..i-1} \text{ has no } 0\big)

and symmetrically for :math:`B`. Block :math:`k` can start at :math:`s` iff
:math:`F_k(s)`, the unit fits at :math:`s`, and :math:`B_{k+1}(s+h_k+1)`; a cell
can be filled iff a possible placement covers it, and empty iff it is a
unit's leading gap or lies between units (:math:`F_k(i) \wedge B_k(i+1)`).

Examples:
    >>> solve_line([3, 4], "?????#??#?").tolist()
    [-1, 1, 1, -1, 0, 1, 1, 1, 1, 0]
    >>> line_text(solve_line([6], 10))
    '????##????'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from qpicross.exceptions import Contradiction, ParameterError

__all__ = ["UNKNOWN", "solve_line", "line_placements", "line_text", "known_cells", "compiled_line_solver"]

#: The value of an unknown cell.
UNKNOWN = -1

_CELL_OF_CHAR = {"#": 1, "1": 1, ".": 0, "0": 0, "x": 0, "?": -1, "-": -1}


def _solve_line_py(clue, cells, out, starts):  # pragma: no cover - run compiled by numba
    """Fill ``out`` (settled cells) and ``starts[k, s]`` (block k may start at s); False = contradiction."""
    n = cells.shape[0]
    k_blocks = clue.shape[0]
    size = n + 1  # padded line: a virtual empty cell in front
    pad = np.empty(size, np.int8)
    pad[0] = 0
    pad[1:] = cells
    zeros = np.zeros(size + 1, np.int64)  # zeros[i] = known-empty cells among pad[0:i]
    for i in range(size):
        zeros[i + 1] = zeros[i] + (1 if pad[i] == 0 else 0)

    fwd = np.zeros((k_blocks + 1, size + 1), np.bool_)
    fwd[0, 0] = True
    for k in range(k_blocks + 1):
        h = clue[k - 1] if k > 0 else 0
        for i in range(1, size + 1):
            ok = fwd[k, i - 1] and pad[i - 1] != 1
            if not ok and k > 0 and i >= h + 1:
                g = i - h - 1  # the unit's gap cell
                ok = fwd[k - 1, g] and pad[g] != 1 and zeros[i] - zeros[g + 1] == 0
            fwd[k, i] = ok
    if not fwd[k_blocks, size]:
        return False

    bwd = np.zeros((k_blocks + 1, size + 1), np.bool_)
    bwd[k_blocks, size] = True
    for k in range(k_blocks, -1, -1):
        h = clue[k] if k < k_blocks else 0
        for i in range(size - 1, -1, -1):
            ok = bwd[k, i + 1] and pad[i] != 1
            if not ok and k < k_blocks and i + h + 1 <= size:
                ok = bwd[k + 1, i + h + 1] and pad[i] != 1 and zeros[i + h + 1] - zeros[i + 1] == 0
            bwd[k, i] = ok

    fill_diff = np.zeros(size + 1, np.int64)
    can_empty = np.zeros(size, np.bool_)
    starts[:, :] = False
    for k in range(k_blocks):
        h = clue[k]
        for s in range(0, size - h):
            if (fwd[k, s] and pad[s] != 1 and zeros[s + h + 1] - zeros[s + 1] == 0
                    and bwd[k + 1, s + h + 1]):
                starts[k, s] = True
                fill_diff[s + 1] += 1
                fill_diff[s + h + 1] -= 1
                can_empty[s] = True
    for i in range(size):
        if pad[i] != 1:
            for k in range(k_blocks + 1):
                if fwd[k, i] and bwd[k, i + 1]:
                    can_empty[i] = True
                    break
    cover = 0
    for i in range(size):
        cover += fill_diff[i]
        if i == 0:
            continue
        can_fill = cover > 0
        if can_fill and can_empty[i]:
            out[i - 1] = -1
        elif can_fill:
            out[i - 1] = 1
        elif can_empty[i]:
            out[i - 1] = 0
        else:
            return False
    return True


_compiled = None


def compiled_line_solver():
    """The line solver compiled by numba (on first use, so importing this module stays cheap).

    Call it as ``kernel(clue, cells, out, starts)`` with an int64 clue, an int8 line, an int8 ``out``
    of the line's length and a bool ``starts`` of shape ``(len(clue), len(cells) + 1)``; it fills
    ``out`` (settled cells) and ``starts[k, s]`` (block ``k`` may start at ``s``) and returns False on a
    contradiction.
    """
    global _compiled
    if _compiled is None:
        import numba

        _compiled = numba.njit(cache=True)(_solve_line_py)
    return _compiled


def _as_line(cells: Sequence[int] | str | int) -> np.ndarray:
    if isinstance(cells, (int, np.integer)):
        return np.full(int(cells), UNKNOWN, np.int8)
    if isinstance(cells, str):
        try:
            return np.array([_CELL_OF_CHAR[ch] for ch in cells.lower()], np.int8)
        except KeyError as exc:
            raise ParameterError(f"cells: bad character {exc.args[0]!r}; use '#', '.' or '?'") from None
    return known_cells(cells, name="cells").reshape(-1)


def known_cells(known, shape: tuple[int, ...] | None = None, name: str = "known") -> np.ndarray:
    """Settled cells as an ``int8`` array: each ``1`` (filled), ``0`` (empty) or ``-1`` (unknown).

    Args:
        known: The cells (anything :func:`numpy.asarray` takes).
        shape: The shape they must have (a puzzle's), if any.
        name: The argument's name, for the error message.

    Raises:
        ParameterError: Naming ``name``, for another shape or a value other than 1, 0 and -1.

    >>> known_cells([[1, -1]]).tolist()
    [[1, -1]]
    >>> known_cells([1, 2])
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: known cells must be 1 (filled), 0 (empty) or -1 (unknown)
    """
    grid = np.asarray(known)
    if grid.dtype.kind not in "biuf" or not np.isin(grid, (-1, 0, 1)).all():
        raise ParameterError(f"{name} cells must be 1 (filled), 0 (empty) or -1 (unknown)")
    if shape is not None and grid.shape != tuple(shape):
        raise ParameterError(f"{name} has shape {grid.shape}, puzzle is {tuple(shape)}")
    return grid.astype(np.int8)


def _run_kernel(clue: Sequence[int], line: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(clue, (str, bytes)) or not isinstance(clue, Iterable) or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                 for v in clue):
        raise ParameterError(f"clue must be block lengths, positive integers, got {clue!r}")
    clue_arr = np.asarray(tuple(clue), dtype=np.int64).reshape(-1)
    if (clue_arr < 1).any():
        raise ParameterError(f"clue numbers must be positive, got {tuple(clue)}")
    out = np.empty(len(line), np.int8)
    starts = np.zeros((len(clue_arr), len(line) + 1), np.bool_)
    if not compiled_line_solver()(clue_arr, line, out, starts):
        raise Contradiction(f"clue {tuple(int(v) for v in clue_arr)} does not fit line {line_text(line)!r}")
    return out, starts[:, : len(line)]


def solve_line(clue: Sequence[int], cells: Sequence[int] | str | int) -> np.ndarray:
    """Every cell of one line that the clue and the known cells force.

    Args:
        clue: Block lengths, in order (``()`` for a blank line).
        cells: The line: ``1`` filled, ``0`` empty, ``-1`` unknown; or a string
            of ``#``/``.``/``?``; or an int, the length of an unknown line.

    Returns:
        The line with every forced cell settled (an ``int8`` array); known
        cells are kept.

    Raises:
        Contradiction: If no placement of the clue fits the known cells.

    Examples:
        >>> line_text(solve_line([3, 3], "??#?##????"))
        '###.###...'
        >>> line_text(solve_line([4, 3], "???#.#????"))
        '####.###..'
        >>> solve_line([2], "#.#")
        Traceback (most recent call last):
        ...
        qpicross.exceptions.Contradiction: clue (2,) does not fit line '#.#'
    """
    return _run_kernel(clue, _as_line(cells))[0]


def line_placements(clue: Sequence[int], cells: Sequence[int] | str | int) -> np.ndarray:
    """Which starts remain possible for each block: a ``(len(clue), len(cells))`` bool array.

    Examples:
        >>> line_placements([1, 2], "?#????").astype(int).tolist()
        [[0, 1, 0, 0, 0, 0], [0, 0, 0, 1, 1, 0]]

    Raises:
        Contradiction: If no placement of the clue fits the known cells.
    """
    return _run_kernel(clue, _as_line(cells))[1]


def line_text(cells: Sequence[int]) -> str:
    """A line as ``#`` (filled), ``.`` (empty) and ``?`` (unknown).

    >>> line_text([1, 0, -1])
    '#.?'
    """
    return "".join("#" if c == 1 else "." if c == 0 else "?" for c in np.asarray(cells).tolist())
