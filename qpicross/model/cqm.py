r"""The formulation as a :class:`dimod.ConstrainedQuadraticModel`, for constrained (hybrid) solvers.

Same variables as the QUBO (``("row", i, j, k)``: block ``k`` of row ``i``
starts at column ``j``; ``("col", j, i, k)`` likewise), but the rules that the
QUBO enforces with penalties become constraints:

* one-hot -- each block starts exactly once: a *discrete* constraint
  :math:`\sum_j q_{j,k} = 1` (the form D-Wave's hybrid CQM solver keeps
  satisfied by construction);
* ordering -- block ``k+1`` starts at least :math:`h_k + 1` cells after block
  ``k``. Given one-hot, a block's start is :math:`s_k = \sum_j j\,q_{j,k}`, so
  this is one linear inequality per pair of neighbouring blocks:
  :math:`s_{k+1} - s_k \ge h_k + 1`. It also implies the QUBO's
  ``at_most_one`` term (no two blocks start in the same cell), which is
  therefore not needed;
* board matching -- rows and columns paint the same cells. With
  ``matching="objective"`` (the default) the QUBO's ``match`` term
  :math:`\sum_{cells} (C^{row} - C^{col})^2` is the objective; with
  ``matching="constraints"`` each cell gets the equality
  :math:`C^{row}_{i,j} - C^{col}_{i,j} = 0` and the objective is empty.

Either way, the feasible assignments of objective 0 are exactly the encodings
of the valid boards, one assignment per board, and they decode with the same
:class:`~qpicross.model.formulation.PicrossFormulation` as a QUBO sample.
Presolve-fixed blocks (``build_formulation(..., known=...)``) enter the
constraints as constants.

Examples:
    >>> import dimod
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1]], [[1], [1]]))
    >>> cqm = build_cqm(f)
    >>> len(cqm.variables), len(cqm.constraints)
    (8, 4)
    >>> best = dimod.ExactCQMSolver().sample_cqm(cqm).filter(lambda d: d.is_feasible).lowest()
    >>> sorted(b.tolist() for b in f.boards(f.samples_to_array(best)))
    [[[0, 1], [1, 0]], [[1, 0], [0, 1]]]
"""

from __future__ import annotations

from collections import defaultdict
from typing import Literal

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.formulation import PicrossFormulation

__all__ = ["build_cqm", "Matching"]

Matching = Literal["objective", "constraints"]


def build_cqm(
    formulation: PicrossFormulation, matching: Matching = "objective"
) -> dimod.ConstrainedQuadraticModel:
    """Build the constrained model of a formulation.

    Args:
        formulation: From :func:`~qpicross.model.formulation.build_formulation`.
        matching: Board matching as the ``"objective"`` (QUBO ``match`` term)
            or as per-cell equality ``"constraints"``.

    Returns:
        The model; its variables are ``formulation.labels``. Constraint labels
        say what they enforce, e.g. ``"one_hot row 3 block 1"``,
        ``"order col 2 blocks 0-1"``, ``"match cell 4,2"``.

    Raises:
        ValueError: For an unknown ``matching``.
    """
    if matching not in ("objective", "constraints"):
        raise ParameterError(f"matching must be 'objective' or 'constraints', got {matching!r}")
    puzzle = formulation.puzzle
    labels = formulation.labels
    cqm = dimod.ConstrainedQuadraticModel()
    cqm.add_variables("BINARY", labels)

    # Free variables of each block, and the start of each presolve-fixed block.
    free: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    keys = zip(formulation.kind.tolist(), formulation.line.tolist(), formulation.block.tolist())
    for v, key in enumerate(keys):
        free[key].append(v)
    fixed = {(0 if kind == "row" else 1, line, k): start for kind, line, start, k in formulation.fixed_labels}

    for kind, (name, clues) in enumerate((("row", puzzle.rows), ("col", puzzle.cols))):
        for line, clue in enumerate(clues):
            for k in range(len(clue)):
                variables = free.get((kind, line, k), [])
                if len(variables) >= 2:
                    # Blocks are disjoint by construction: skip dimod's quadratic overlap check.
                    cqm.add_discrete_from_iterable([labels[v] for v in variables], check_overlaps=False,
                                                   label=f"one_hot {name} {line} block {k}")
                elif variables:
                    cqm.add_constraint_from_iterable([(labels[variables[0]], 1)], "==", rhs=1,
                                                     label=f"one_hot {name} {line} block {k}")
            for k in range(len(clue) - 1):
                _add_order(cqm, formulation, free, fixed, kind, line, k, clue[k],
                           f"order {name} {line} blocks {k}-{k + 1}")

    if matching == "objective":
        cqm.set_objective(formulation.term_bqm("match"))
    else:
        _add_matching(cqm, formulation)
    return cqm


def _add_order(cqm, formulation, free, fixed, kind, line, k, length, label) -> None:
    """s_{k+1} - s_k >= h_k + 1, with fixed blocks moved to the right-hand side."""
    terms = []
    rhs = float(length + 1)
    for block, sign in ((k + 1, 1), (k, -1)):
        if (kind, line, block) in fixed:
            rhs -= sign * fixed[(kind, line, block)]
        else:
            terms += [(formulation.labels[v], sign * int(formulation.start[v]))
                      for v in free.get((kind, line, block), []) if formulation.start[v] != 0]
    if terms:
        cqm.add_constraint_from_iterable(terms, ">=", rhs=rhs, label=label)


def _add_matching(cqm, formulation) -> None:
    """One equality per cell: blocks of its row covering it == blocks of its column covering it."""
    n_rows, n_cols = formulation.puzzle.shape
    counts = np.diff(formulation.cover_indptr)
    var = np.repeat(np.arange(formulation.num_variables), counts)
    sign = np.where(formulation.kind[var] == 0, 1, -1)
    order = np.argsort(formulation.cover_cells, kind="stable")
    cells = formulation.cover_cells[order]
    bounds = np.searchsorted(cells, np.arange(n_rows * n_cols + 1))
    fixed_row, fixed_col = formulation.fixed_coverage
    labels = formulation.labels
    for cell in range(n_rows * n_cols):
        idx = order[bounds[cell] : bounds[cell + 1]]
        if len(idx) == 0:
            continue
        rhs = float(fixed_col[cell] - fixed_row[cell])
        cqm.add_constraint_from_iterable(
            [(labels[v], int(s)) for v, s in zip(var[idx].tolist(), sign[idx].tolist())], "==", rhs=rhs,
            label=f"match cell {cell // n_cols},{cell % n_cols}",
        )
