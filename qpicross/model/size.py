"""The size guard: a model's variables and couplers counted from the clues, before any allocation.

:func:`estimate_size` runs the same enumeration of start variables as
:func:`~qpicross.model.formulation.build_formulation`
(:func:`~qpicross.model.formulation.enumerate_starts`) and counts the coupler
entries each penalty term would allocate without allocating them;
:func:`check_size` raises :class:`ModelTooLargeError` above the ceiling, which
every command checks before it builds.

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> estimate_size(p)["num_variables"]
    44
"""

from __future__ import annotations

import os

import numpy as np

from qpicross.model.formulation import (
    Bounds,
    _cover,
    _group_ids,
    _order_clashes,
    _prune_by_known,
    enumerate_starts,
)
from qpicross.puzzle import Puzzle

__all__ = [
    "estimate_size",
    "check_size",
    "max_couplers_limit",
    "ModelTooLargeError",
    "BYTES_PER_COUPLER",
    "DEFAULT_MAX_COUPLERS",
]

#: Measured peak memory of a build (formulation + weighted BQM) per coupler
#: entry, in bytes: 86-102 from 25x25 to 100x100 (scripts/build_memory.py, README).
BYTES_PER_COUPLER = 100
#: Default ceiling on coupler entries: a build of about 5 GiB, leaving room on
#: a 24 GiB machine for the sampler's own copy of the model and the samples;
#: override with ``QPICROSS_MAX_COUPLERS`` or ``max_couplers=``.
DEFAULT_MAX_COUPLERS = 50_000_000


def estimate_size(puzzle: Puzzle, bounds: Bounds = "stacking", known: np.ndarray | None = None) -> dict:
    """Variables and couplers of a puzzle's QUBO, counted from the clues without building it.

    Counts are exact for the variables and for the coupler *entries* each
    penalty term generates (the arrays a build allocates); the BQM's distinct
    interactions are at most their sum, since terms may share a pair. Cost is
    linear in the number of variables, far below a build's.

    Args:
        puzzle: The puzzle.
        bounds: As for :func:`build_formulation`.
        known: Settled cells (presolve); pruned and fixed starts are left out.

    Returns:
        ``{"num_variables", "num_couplers", "couplers_per_term": {term: n},
        "estimated_bytes"}`` (bytes = couplers x :data:`BYTES_PER_COUPLER`).

    Examples:
        >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
        >>> est = estimate_size(p)
        >>> from qpicross.model.formulation import build_formulation
        >>> f = build_formulation(p)
        >>> est["num_variables"] == f.num_variables
        True
        >>> est["couplers_per_term"]["match"] == len(f.terms["match"].data)
        True
    """
    n_rows, n_cols = puzzle.shape
    kind, line, block, start, length = enumerate_starts(puzzle, bounds)
    if known is not None:
        keep, fixed = _prune_by_known(puzzle, np.asarray(known), kind, line, block, start, length)
        keep &= ~fixed  # fixed starts leave the BQM (their couplers become linear biases)
        kind, line, block, start, length = (a[keep] for a in (kind, line, block, start, length))

    def pairs(counts: np.ndarray) -> int:
        counts = counts.astype(np.int64)
        return int((counts * (counts - 1) // 2).sum())

    line_len = np.where(kind == 0, n_cols, n_rows).astype(np.int64)
    gline, group, new_group = _group_ids(kind, line, block, puzzle.shape)
    _, group_sizes = np.unique(group, return_counts=True)
    _, cell_starts = np.unique(gline * (max(n_rows, n_cols) + 1) + start, return_counts=True)
    _, clashes = _order_clashes(group, new_group, start, length)
    order = int(clashes.sum())
    _, cover_cells = _cover(kind, line, start, length, line_len, n_cols)
    couplers = {
        "one_hot": pairs(group_sizes),
        "at_most_one": pairs(cell_starts),
        "order": order,
        "match": pairs(np.bincount(cover_cells, minlength=n_rows * n_cols)),
    }
    total = sum(couplers.values())
    return {
        "num_variables": int(len(start)),
        "num_couplers": total,
        "couplers_per_term": couplers,
        "estimated_bytes": total * BYTES_PER_COUPLER,
    }


def max_couplers_limit() -> int:
    """The coupler ceiling in force: ``QPICROSS_MAX_COUPLERS`` if set, else :data:`DEFAULT_MAX_COUPLERS`.

    Raises:
        ValueError: If the variable is set but not a positive integer.
    """
    text = os.environ.get("QPICROSS_MAX_COUPLERS", "").strip()
    if not text:
        return DEFAULT_MAX_COUPLERS
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"QPICROSS_MAX_COUPLERS must be a positive integer, got {text!r}")
    return int(text)


class ModelTooLargeError(ValueError):
    """A QUBO whose estimated size is above the limit; carries the estimate."""

    def __init__(self, puzzle: Puzzle, estimate: dict, limit: int, presolved: bool = False):
        self.estimate = estimate
        self.limit = limit
        advice = "" if presolved else "try --presolve (presolve=True) to shrink it, or "
        size = estimate["estimated_bytes"]
        human = (f"{size / 2**30:.1f} GiB" if size >= 2**30 else f"{size / 2**20:.0f} MiB" if size >= 2**20
                 else f"{size / 2**10:.0f} KiB")
        super().__init__(
            f"{puzzle} would build a QUBO of {estimate['num_variables']:,} variables and "
            f"{estimate['num_couplers']:,} couplers (about {human}){' after presolve' if presolved else ''}, "
            f"above the limit of {limit:,} couplers (QPICROSS_MAX_COUPLERS); "
            f"{advice}use --force (force=True) to build it anyway"
        )


def check_size(
    puzzle: Puzzle,
    bounds: Bounds = "stacking",
    known: np.ndarray | None = None,
    max_couplers: int | None = None,
    presolved: bool = False,
) -> dict:
    """:func:`estimate_size`, raising :class:`ModelTooLargeError` above the limit.

    Args:
        max_couplers: The ceiling; :func:`max_couplers_limit` when None.
        presolved: ``known`` comes from presolve already (the message then
            does not suggest it).

    Returns:
        The estimate.
    """
    limit = max_couplers_limit() if max_couplers is None else max_couplers
    estimate = estimate_size(puzzle, bounds, known)
    if estimate["num_couplers"] > limit:
        raise ModelTooLargeError(puzzle, estimate, limit, presolved)
    return estimate
