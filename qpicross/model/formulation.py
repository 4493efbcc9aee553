r"""The QUBO formulation: a puzzle's clues as a :class:`dimod.BinaryQuadraticModel`.

Variables (all binary), following the published q_row/q_col formulation:

* ``("row", i, j, k)`` -- :math:`q^{row}_{i,j,k}`: block ``k`` of row ``i`` starts at column ``j``;
* ``("col", j, i, k)`` -- :math:`q^{col}_{j,i,k}`: block ``k`` of column ``j`` starts at row ``i``.

Penalty terms, each a separate QUBO with its own weight (all are sums of
squares or products of binaries, so each is a non-negative integer for every
assignment and 0 exactly when its constraint holds):

* ``one_hot`` -- each block starts exactly once:
  :math:`\sum_{\text{line},k} (\sum_j q_{j,k} - 1)^2`;
* ``at_most_one`` -- at most one block starts in a cell:
  :math:`\sum_{\text{line},j} \sum_{k<k'} q_{j,k}\,q_{j,k'}`;
* ``order`` -- block ``k+1`` starts at least :math:`h_k+1` cells after block ``k``:
  :math:`\sum_{\text{line},k} \sum_{j_2 \le j_1 + h_k} q_{j_1,k}\,q_{j_2,k+1}`;
* ``match`` -- rows and columns paint the same board:
  :math:`\sum_{i,j} (C^{row}_{i,j} - C^{col}_{i,j})^2` with
  :math:`C^{row}_{i,j} = \sum_k \sum_{r=j-h_k+1}^{j} q^{row}_{i,r,k}`.

The *last-block* rule (no start past the end of the line) is enforced by not
creating those variables at all. With ``bounds="stacking"`` (the default) every
start outside the CP report's left/right stacking bounds (constraints 1g-1j) is
removed too: block ``k`` of a line of length ``L`` with clue ``h`` may only start in

.. math:: \sum_{k'<k} h_{k'} + k \;\le\; j \;\le\; L - \sum_{k'\ge k} h_{k'} - (K-k-1).

``bounds="published"`` keeps every start of the published notebook (only the
last block is cut), which is the baseline that later benchmarks compare to.

The module builds the model from its parts: the start variables (:mod:`qpicross.model.placements`),
the penalty terms as arrays (:mod:`qpicross.model.terms`), their weights (:mod:`qpicross.model.weights`),
pruning by known cells (:mod:`qpicross.model.pruning`) and the conversions between boards and samples
(:mod:`qpicross.model.boards`); :class:`PicrossFormulation` holds the result.

Because every term is an integer-valued penalty, the weighted BQM has energy
exactly 0 on the assignment that encodes a valid board and energy at least
``min(weights)`` on every other assignment.

Examples:
    >>> from qpicross import Puzzle, build_formulation, PenaltyWeights
    >>> puzzle = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> f = build_formulation(puzzle)
    >>> bqm = f.bqm(PenaltyWeights())
    >>> bqm.num_variables
    44
    >>> sample = f.sample_from_board(["..#..", ".#.#.", ".#.#.", "#####", "#...#"])
    >>> float(bqm.energy(sample))
    0.0
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Literal

import dimod
import numpy as np

from qpicross.model import boards
from qpicross.model.layout import PicrossLayout
from qpicross.model.placements import (
    Bounds,
    enumerate_starts,
    group_ids,
    num_published_variables,
    painted_cells,
    placement_windows,
    variable_labels,
)
from qpicross.model.pruning import fix_to_one, prune_by_known
from qpicross.model.terms import TermArrays, at_most_one_term, match_term, one_hot_term, order_term
from qpicross.exceptions import ParameterError
from qpicross.model.weights import TERMS, PenaltyWeights
from qpicross.puzzle import Puzzle
from qpicross.puzzle.puzzle import require_puzzle
from qpicross.puzzle.line_solver import known_cells

__all__ = [
    "PenaltyWeights",
    "TERMS",
    "TermArrays",
    "PicrossFormulation",
    "PicrossLayout",
    "build_formulation",
    "build_bqm",
    "enumerate_starts",
    "placement_windows",
]


@dataclasses.dataclass
class PicrossFormulation:
    """The combinatorics of the formulation, built once, weighted many times.

    Build it with :func:`build_formulation`. Per-variable arrays (index ``v``
    runs over :attr:`labels`): ``kind[v]`` (0 row, 1 column), ``line[v]`` (row
    or column index), ``block[v]``, ``start[v]``, ``length[v]`` (block length).
    """

    puzzle: Puzzle
    bounds: str
    labels: list[tuple]
    kind: np.ndarray
    line: np.ndarray
    block: np.ndarray
    start: np.ndarray
    length: np.ndarray
    terms: dict[str, TermArrays]
    #: Labels of variables fixed to 1 by presolve (not in the BQM).
    fixed_labels: list[tuple]
    #: Number of start variables the published formulation would have.
    num_published_variables: int
    #: For each variable, the cells it paints (CSR over flat cell ``r * num_cols + c``).
    cover_indptr: np.ndarray
    cover_cells: np.ndarray

    @property
    def num_variables(self) -> int:
        return len(self.labels)

    def bqm(self, weights: PenaltyWeights | None = None) -> dimod.BinaryQuadraticModel:
        """The weighted sum of the penalty terms as a BQM (fast: arrays only)."""
        w = PenaltyWeights.of(weights).as_dict()
        active = [name for name in TERMS if w[name] != 0]
        linear, offset = self._weighted_linear(w)
        irow = np.concatenate([self.terms[n].irow for n in active] or [np.zeros(0, np.int64)])
        icol = np.concatenate([self.terms[n].icol for n in active] or [np.zeros(0, np.int64)])
        data = np.concatenate([w[n] * self.terms[n].data for n in active] or [np.zeros(0)])
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            linear, (irow, icol, data), offset, dimod.BINARY, variable_order=self.labels
        )

    def _weighted_linear(self, w: dict[str, float]) -> tuple[np.ndarray, float]:
        """The weighted model's linear biases and offset, summed as :meth:`bqm` sums them."""
        linear = np.zeros(self.num_variables)
        offset = 0.0
        for name in (name for name in TERMS if w[name] != 0):
            linear += w[name] * self.terms[name].linear
            offset += w[name] * self.terms[name].offset
        return linear, offset

    def layout(self, weights: PenaltyWeights | None = None) -> PicrossLayout:
        """The layout of :meth:`bqm` with these weights: lines, placements, paints and board energy.

        Made from the formulation's arrays (nothing is read back from a BQM). ``match_weight`` and
        ``constant`` are set where the formulation vouches that the BQM is, on clue-consistent states,
        ``constant + match_weight x mismatched cells``: no presolve-fixed block, positive ``match`` and
        ``order`` weights, no block clipped by the line's end, and some cell a row and a column can both paint.

        >>> from qpicross import Puzzle
        >>> layout = build_formulation(Puzzle([[1, 1]], [[1], [], [1]])).layout(PenaltyWeights(match=2))
        >>> layout.lines[0], layout.match_weight, layout.constant
        ([[('row', 0, 0, 0)], [('row', 0, 2, 1)]], 2.0, -4.0)
        """
        w = (weights or PenaltyWeights()).as_dict()
        linear, offset = self._weighted_linear(w)
        n_rows, n_cols = self.puzzle.shape
        match_weight = constant = None
        fits = (self.start + self.length <= np.where(self.kind == 0, n_cols, n_rows)).all()
        crossing = bool((self.terms["match"].data < 0).any())
        if not self.fixed_labels and w["match"] > 0 and w["order"] > 0 and self.num_variables and fits and crossing:
            _, group, new_group = group_ids(self.kind, self.line, self.block, self.puzzle.shape)
            rest = linear - w["match"] * self.length
            per_group = rest[new_group]
            group_index = np.cumsum(new_group) - 1
            if np.abs(rest - per_group[group_index]).max(initial=0.0) <= 1e-9 * max(1.0, w["match"]):
                match_weight, constant = float(w["match"]), float(per_group.sum())
        fixed = np.array([(0 if kind == "row" else 1, line, block, start) for kind, line, start, block
                          in self.fixed_labels], np.int64).reshape(-1, 4)
        fixed_clues = [(self.puzzle.rows if a == 0 else self.puzzle.cols)[line][block] for a, line, block, _ in fixed]
        return PicrossLayout(
            self.labels, self.kind.astype(np.int64), self.line, self.block, self.start, self.length,
            (n_rows, n_cols), *fixed[:, :3].T, fixed[:, 3], np.array(fixed_clues, np.int64),
            match_weight, constant, float(offset),
            (float(linear[0]), float(linear[-1])) if self.num_variables else (0.0, 0.0),
        )

    def term_bqm(self, name: str) -> dimod.BinaryQuadraticModel:
        """One penalty term, unweighted, as its own BQM."""
        t = self.terms[name]
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            t.linear, (t.irow, t.icol, t.data), t.offset, dimod.BINARY, variable_order=self.labels
        )

    def info(self, weights: PenaltyWeights | None = None) -> dict:
        """Sizes: variables, interactions, and per-term counts.

        Each term's ``interactions`` counts distinct variable pairs it couples;
        the total is less than their sum where terms share pairs.
        """
        bqm = self.bqm(weights)
        per_term = {}
        for name in TERMS:
            t = self.terms[name]
            pairs = np.unique(np.minimum(t.irow, t.icol) * self.num_variables + np.maximum(t.irow, t.icol))
            per_term[name] = {
                "linear": int(np.count_nonzero(t.linear)),
                "interactions": int(len(pairs)),
                "offset": float(t.offset),
            }
        per_term["last_block"] = {
            "pruned_variables": self.num_published_variables - self.num_variables - len(self.fixed_labels),
        }
        return {
            **self.puzzle.identity(),
            "bounds": self.bounds,
            "num_variables": bqm.num_variables,
            "num_interactions": bqm.num_interactions,
            "num_fixed_variables": len(self.fixed_labels),
            "num_published_variables": self.num_published_variables,
            "terms": per_term,
        }

    def one_hot_lines(self) -> list[list[list[tuple]]]:
        """The model's one-hot structure: each line's blocks in order, each block's start variables in order
        (:attr:`PicrossLayout.lines <qpicross.model.layout.PicrossLayout.lines>`).

        Structure-aware samplers (:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`)
        take it as ``lines=``, so they never have to guess it from the labels.

        >>> from qpicross import Puzzle
        >>> build_formulation(Puzzle([[1, 1]], [[1], [], [1]])).one_hot_lines()[0]
        [[('row', 0, 0, 0)], [('row', 0, 2, 1)]]
        """
        return self.layout().lines

    def paints(self) -> dict[tuple, tuple[int, int, int, int]]:
        """What each variable paints: ``{label: (axis, line, start, length)}``, axis 0 for rows, 1 for columns.

        :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` takes it as
        ``paints=`` and then runs its moves on the board (faster, same samples); :meth:`layout` gives
        it the same without the check.

        >>> from qpicross import Puzzle
        >>> build_formulation(Puzzle([[2]], [[1], [1], []])).paints()[("row", 0, 1, 0)]
        (0, 0, 1, 2)
        """
        return self.layout().paints()

    # -- conversions between boards and samples (qpicross.model.boards) -------------

    def sample_from_board(self, board: np.ndarray | Sequence[str]) -> dict[tuple, int]:
        """The assignment that encodes a board: :func:`qpicross.model.boards.sample_from_board`."""
        return boards.sample_from_board(self, board)

    def samples_to_array(self, sampleset: dimod.SampleSet) -> np.ndarray:
        """A sampleset's records as a ``(num_samples, num_variables)`` 0/1 array in label order."""
        return boards.samples_to_array(sampleset, self.labels)

    def boards(self, samples: np.ndarray, side: Literal["row", "col"] = "row") -> np.ndarray:
        """Boards painted by the row (or column) variables of each sample: :func:`qpicross.model.boards.boards`."""
        return boards.boards(self, samples, side)

    def coverage(self, samples: np.ndarray, kind: int) -> np.ndarray:
        """How many blocks of one side cover each cell: :func:`qpicross.model.boards.coverage`."""
        return boards.coverage(self, samples, kind)

    @functools.cached_property
    def fixed_coverage(self) -> tuple[np.ndarray, np.ndarray]:
        """How many presolve-fixed blocks of the rows, and of the columns, cover each flat cell."""
        return boards.fixed_coverage(self.puzzle, self.fixed_labels)


def build_formulation(
    puzzle: Puzzle,
    *,
    bounds: Bounds = "stacking",
    known: np.ndarray | None = None,
) -> PicrossFormulation:
    """Build the variables and every penalty term of a puzzle's QUBO.

    Args:
        puzzle: The puzzle.
        bounds: ``"stacking"`` prunes starts outside the CP report's stacking
            bounds; ``"published"`` keeps the published formulation's variables.
        known: Optional ``puzzle.shape`` array of settled cells (1 filled,
            0 empty, -1 unknown), e.g. from line logic. A start whose block
            would cover a known-empty cell, or touch a known-filled cell just
            before or after it, is dropped; a block left with a single start is
            fixed to it and removed from the BQM.

    Returns:
        The formulation; call :meth:`PicrossFormulation.bqm` for the model.

    Raises:
        ParameterError: If ``known`` leaves some block with no possible start.
    """
    require_puzzle(puzzle)
    n_rows, n_cols = puzzle.shape
    kind, line, block, start, length = enumerate_starts(puzzle, bounds)
    published = num_published_variables(puzzle)

    fixed = np.zeros(len(start), bool)
    if known is not None:
        keep, fixed = prune_by_known(puzzle, known_cells(known, puzzle.shape), kind, line, block, start, length)
        kind, line, block, start, length = (a[keep] for a in (kind, line, block, start, length))
        fixed = fixed[keep]

    line_len = np.where(kind == 0, n_cols, n_rows)
    gline, group, new_group = group_ids(kind, line, block, puzzle.shape)

    terms = {
        "one_hot": one_hot_term(group, new_group),
        "at_most_one": at_most_one_term(gline, start, line_len),
        "order": order_term(group, new_group, start, length),
    }
    cover_indptr, cover_cells = painted_cells(kind, line, start, length, line_len, n_cols)
    terms["match"] = match_term(kind, cover_indptr, cover_cells, n_rows * n_cols)

    labels_all = variable_labels(kind, line, start, block)
    if fixed.any():
        terms = {name: fix_to_one(t, fixed) for name, t in terms.items()}
        keep = ~fixed
        fixed_labels = [lab for lab, f in zip(labels_all, fixed) if f]
        counts = np.diff(cover_indptr)
        cover_cells = cover_cells[np.repeat(keep, counts)]
        cover_indptr = np.r_[0, np.cumsum(counts[keep])]
        labels = [lab for lab, k in zip(labels_all, keep) if k]
        kind, line, block, start, length = (a[keep] for a in (kind, line, block, start, length))
        formulation = PicrossFormulation(
            puzzle, bounds, labels, kind, line, block, start, length, terms, fixed_labels, published,
            cover_indptr, cover_cells,
        )
    else:
        formulation = PicrossFormulation(
            puzzle, bounds, labels_all, kind, line, block, start, length, terms, [], published,
            cover_indptr, cover_cells,
        )
    return formulation


def build_bqm(puzzle: Puzzle, weights: PenaltyWeights | None = None, **kwargs) -> dimod.BinaryQuadraticModel:
    """Shortcut: ``build_formulation(puzzle, **kwargs).bqm(weights)`` (``weights``: see :meth:`PenaltyWeights.of`)."""
    return build_formulation(puzzle, **kwargs).bqm(weights)
