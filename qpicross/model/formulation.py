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
from collections.abc import Sequence
from typing import Literal

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.puzzle import Puzzle, board_from_strings, line_runs

__all__ = [
    "PenaltyWeights",
    "TERMS",
    "TermArrays",
    "PicrossFormulation",
    "build_formulation",
    "build_bqm",
    "placement_windows",
]

#: The penalty terms, in the order they are built and reported.
TERMS = ("one_hot", "at_most_one", "order", "match")

Bounds = Literal["stacking", "published"]


@dataclasses.dataclass(frozen=True)
class PenaltyWeights:
    """One weight per penalty term (see :data:`TERMS`).

    Examples:
        >>> PenaltyWeights.parse("one_hot=2,match=0.5")
        PenaltyWeights(one_hot=2.0, at_most_one=1.0, order=1.0, match=0.5)
    """

    one_hot: float = 1.0
    at_most_one: float = 1.0
    order: float = 1.0
    match: float = 1.0

    def __post_init__(self):
        for name in TERMS:
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0:
                raise ParameterError(f"weight {name}={value!r} must be a finite non-negative number")

    @classmethod
    def parse(cls, text: str) -> PenaltyWeights:
        """Parse ``name=value,...`` (missing names keep their default of 1).

        >>> PenaltyWeights.parse("match=2, order=0.5").as_dict()["match"]
        2.0
        >>> PenaltyWeights.parse("match=1,,order=2")
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: empty item between commas in 'match=1,,order=2'

        Raises:
            ValueError: On an unknown, repeated or empty name or a value that is not a number.
        """
        values: dict[str, float] = {}
        if not text.strip():
            return cls()
        for item in (part.strip() for part in text.split(",")):
            if not item:
                raise ParameterError(f"empty item between commas in {text!r}")
            name, sep, value = item.partition("=")
            name = name.strip()
            if not sep or name not in TERMS:
                raise ParameterError(f"bad weight {item!r}: expected NAME=VALUE with NAME in {', '.join(TERMS)}")
            if name in values:
                raise ParameterError(f"weight {name} is given twice in {text!r}")
            try:
                values[name] = float(value)
            except ValueError:
                raise ParameterError(f"bad weight {item!r}: {value!r} is not a number") from None
        return cls(**values)

    def as_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @property
    def smallest(self) -> float:
        """The smallest weight: the least energy any infeasible assignment can have."""
        return min(self.as_dict().values())


@dataclasses.dataclass(frozen=True)
class TermArrays:
    """One penalty term as a QUBO in coordinate form over the formulation's variable indices.

    Energy of a 0/1 vector ``x``: ``linear @ x + sum(data * x[irow] * x[icol]) + offset``.
    Pairs may repeat (their biases add up).
    """

    linear: np.ndarray
    irow: np.ndarray
    icol: np.ndarray
    data: np.ndarray
    offset: float

    def energies(self, samples: np.ndarray) -> np.ndarray:
        """This term's value for each row of a 0/1 ``samples`` matrix."""
        samples = np.atleast_2d(samples).astype(np.float64)
        quad = (samples[:, self.irow] * samples[:, self.icol]) @ self.data
        return samples @ self.linear + quad + self.offset


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
    kinds, lines, blocks, starts, lengths = [], [], [], [], []
    for kind, (clues, line_length) in enumerate(((puzzle.rows, n_cols), (puzzle.cols, n_rows))):
        for index, clue in enumerate(clues):
            for k, (lo, hi) in enumerate(placement_windows(clue, line_length, bounds)):
                count = hi - lo + 1
                starts.append(np.arange(lo, hi + 1))
                kinds.append(np.full(count, kind, np.int8))
                lines.append(np.full(count, index, np.int64))
                blocks.append(np.full(count, k, np.int64))
                lengths.append(np.full(count, clue[k], np.int64))
    cat = lambda parts, dt: np.concatenate(parts).astype(dt) if parts else np.zeros(0, dt)  # noqa: E731
    return cat(kinds, np.int8), cat(lines, np.int64), cat(blocks, np.int64), cat(starts, np.int64), \
        cat(lengths, np.int64)


def num_published_variables(puzzle: Puzzle) -> int:
    """How many start variables the published formulation has (every start but past-the-end ones)."""
    n_rows, n_cols = puzzle.shape
    return sum(hi - lo + 1
               for clues, line_length in ((puzzle.rows, n_cols), (puzzle.cols, n_rows))
               for clue in clues for lo, hi in placement_windows(clue, line_length, "published"))


def _pairs_within_groups(order: np.ndarray, group_ids_sorted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All unordered pairs of elements sharing a group.

    Args:
        order: Element indices, sorted so that groups are contiguous.
        group_ids_sorted: The group id of each entry of ``order``.
    """
    n = len(order)
    if n == 0:
        return order[:0], order[:0]
    boundaries = np.flatnonzero(np.diff(group_ids_sorted)) + 1
    group_end = np.repeat(np.append(boundaries, n), np.diff(np.concatenate(([0], boundaries, [n]))))
    position = np.arange(n)
    partners = group_end - position - 1
    return _expand_ranges(position, position + 1, partners, order)


def _expand_ranges(owner, first, counts, values=None):
    """For each ``i``, pair ``owner[i]`` with ``first[i], first[i]+1, ...`` (``counts[i]`` of them).

    Returns ``(a, b)``; if ``values`` is given both are mapped through it.
    """
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    a = np.repeat(owner, counts)
    step = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    b = np.repeat(first, counts) + step
    if values is not None:
        a, b = values[a], values[b]
    return a, b


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
        weights = weights or PenaltyWeights()
        w = weights.as_dict()
        active = [name for name in TERMS if w[name] != 0]
        linear = np.zeros(self.num_variables)
        offset = 0.0
        for name in active:
            linear += w[name] * self.terms[name].linear
            offset += w[name] * self.terms[name].offset
        irow = np.concatenate([self.terms[n].irow for n in active] or [np.zeros(0, np.int64)])
        icol = np.concatenate([self.terms[n].icol for n in active] or [np.zeros(0, np.int64)])
        data = np.concatenate([w[n] * self.terms[n].data for n in active] or [np.zeros(0)])
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            linear, (irow, icol, data), offset, dimod.BINARY, variable_order=self.labels
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
            "puzzle": self.puzzle.name,
            "shape": list(self.puzzle.shape),
            "bounds": self.bounds,
            "num_variables": bqm.num_variables,
            "num_interactions": bqm.num_interactions,
            "num_fixed_variables": len(self.fixed_labels),
            "num_published_variables": self.num_published_variables,
            "terms": per_term,
        }

    def one_hot_lines(self) -> list[list[list[tuple]]]:
        """The model's one-hot structure: each line's blocks in order, each block's start variables in order.

        Structure-aware samplers (:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`)
        take it as ``lines=``, so they never have to guess it from the labels.

        >>> from qpicross import Puzzle
        >>> build_formulation(Puzzle([[1, 1]], [[1], [], [1]])).one_hot_lines()[0]
        [[('row', 0, 0, 0)], [('row', 0, 2, 1)]]
        """
        lines: list[list[list[tuple]]] = []
        previous = None
        for label, kind, line, block in zip(self.labels, self.kind.tolist(), self.line.tolist(), self.block.tolist()):
            if (kind, line) != (previous[0] if previous else None):
                lines.append([])
                previous = ((kind, line), None)
            if block != previous[1]:
                lines[-1].append([])
                previous = ((kind, line), block)
            lines[-1][-1].append(label)
        return lines

    def paints(self) -> dict[tuple, tuple[int, int, int, int]]:
        """What each variable paints: ``{label: (axis, line, start, length)}``, axis 0 for rows, 1 for columns.

        :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` takes it as
        ``paints=`` and then runs its moves on the board (faster, same samples).

        >>> from qpicross import Puzzle
        >>> build_formulation(Puzzle([[2]], [[1], [1], []])).paints()[("row", 0, 1, 0)]
        (0, 0, 1, 2)
        """
        columns = zip(self.labels, self.kind.tolist(), self.line.tolist(), self.start.tolist(), self.length.tolist())
        return {label: (kind, line, start, length) for label, kind, line, start, length in columns}

    # -- conversions between boards and samples ---------------------------------

    def sample_from_board(self, board: np.ndarray | Sequence[str]) -> dict[tuple, int]:
        """The assignment that encodes a board (every block start of every line).

        The board must satisfy the clues; otherwise the result is not
        meaningful (blocks are matched to runs in order).

        Raises:
            ValueError: If a line's runs do not match its clue.
        """
        grid = board_from_strings(board) if isinstance(board, (list, tuple)) else np.asarray(board)
        on = set()
        for kind_name, lines, clues in (("row", grid, self.puzzle.rows), ("col", grid.T, self.puzzle.cols)):
            for index, (cells, clue) in enumerate(zip(lines, clues)):
                if line_runs(cells) != clue:
                    raise ParameterError(f"{kind_name} {index} of the board does not match its clue {clue}")
                starts = [p for p in range(len(cells)) if cells[p] and (p == 0 or not cells[p - 1])]
                on.update((kind_name, index, s, k) for k, s in enumerate(starts))
        return {label: int(label in on) for label in self.labels}

    def samples_to_array(self, sampleset: dimod.SampleSet) -> np.ndarray:
        """A sampleset's records as a ``(num_samples, num_variables)`` 0/1 array in label order."""
        return _reorder(sampleset, self.labels)

    def boards(self, samples: np.ndarray, side: Literal["row", "col"] = "row") -> np.ndarray:
        """Boards painted by the row (or column) variables of each sample.

        Args:
            samples: ``(num_samples, num_variables)`` 0/1 array in label order.
            side: Which half of the variables paints the board.

        Returns:
            ``(num_samples, num_rows, num_cols)`` uint8 array; a cell is filled
            when at least one block of that side covers it. Presolve-fixed
            variables are included.
        """
        samples = np.atleast_2d(samples)
        n_rows, n_cols = self.puzzle.shape
        coverage = self._coverage(samples, 0 if side == "row" else 1)
        return (coverage > 0).astype(np.uint8).reshape(len(samples), n_rows, n_cols)

    def _coverage(self, samples: np.ndarray, kind: int) -> np.ndarray:
        """How many blocks of one side cover each cell: ``(num_samples, cells)``."""
        n_cells = self.puzzle.num_rows * self.puzzle.num_cols
        counts = np.diff(self.cover_indptr)
        var_of_cover = np.repeat(np.arange(self.num_variables), counts)
        keep = self.kind[var_of_cover] == kind
        var_of_cover = var_of_cover[keep]
        cells = self.cover_cells[keep]
        out = np.zeros((len(samples), n_cells), dtype=np.int32)
        for r in range(len(samples)):
            out[r] = np.bincount(cells, weights=samples[r, var_of_cover], minlength=n_cells)
        out += self._fixed_coverage[kind]
        return out

    @property
    def _fixed_coverage(self) -> tuple[np.ndarray, np.ndarray]:
        cached = getattr(self, "_fixed_cov_cache", None)
        if cached is None:
            n_rows, n_cols = self.puzzle.shape
            cached = (np.zeros(n_rows * n_cols, np.int32), np.zeros(n_rows * n_cols, np.int32))
            for kind_name, index, start, k in self.fixed_labels:
                clue = (self.puzzle.rows if kind_name == "row" else self.puzzle.cols)[index]
                for p in range(start, start + clue[k]):
                    cell = index * n_cols + p if kind_name == "row" else p * n_cols + index
                    cached[0 if kind_name == "row" else 1][cell] += 1
            self._fixed_cov_cache = cached
        return cached


def _reorder(sampleset: dimod.SampleSet, labels: list) -> np.ndarray:
    record = sampleset.record.sample
    if list(sampleset.variables) == labels:
        return np.asarray(record, dtype=np.int8)
    index = {v: i for i, v in enumerate(sampleset.variables)}
    return np.asarray(record[:, [index[v] for v in labels]], dtype=np.int8)


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
        ValueError: If ``known`` leaves some block with no possible start.
    """
    n_rows, n_cols = puzzle.shape
    kind, line, block, start, length = enumerate_starts(puzzle, bounds)
    published = num_published_variables(puzzle)

    fixed = np.zeros(len(start), bool)
    if known is not None:
        keep, fixed = _prune_by_known(puzzle, np.asarray(known), kind, line, block, start, length)
        kind, line, block, start, length = (a[keep] for a in (kind, line, block, start, length))
        fixed = fixed[keep]

    line_len = np.where(kind == 0, n_cols, n_rows)
    gline, group, new_group = _group_ids(kind, line, block, puzzle.shape)

    terms = {
        "one_hot": _one_hot_term(group, new_group),
        "at_most_one": _at_most_one_term(gline, start, line_len),
        "order": _order_term(group, new_group, start, length),
    }
    cover_indptr, cover_cells = _cover(kind, line, start, length, line_len, n_cols)
    terms["match"] = _match_term(kind, cover_indptr, cover_cells, n_rows * n_cols)

    labels_all = _labels(kind, line, start, block)
    if fixed.any():
        terms = {name: _fix_to_one(t, fixed) for name, t in terms.items()}
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
    """Shortcut: ``build_formulation(puzzle, **kwargs).bqm(weights)``."""
    return build_formulation(puzzle, **kwargs).bqm(weights)


def _labels(kind, line, start, block) -> list[tuple]:
    names = np.where(kind == 0, "row", "col")
    return list(zip(names.tolist(), line.tolist(), start.tolist(), block.tolist()))


def _one_hot_term(group: np.ndarray, new_group: np.ndarray) -> TermArrays:
    # (sum_j q_j - 1)^2 = -sum_j q_j + 2 sum_{j<j'} q_j q_j' + 1   (q^2 = q)
    order = np.arange(len(group))
    a, b = _pairs_within_groups(order, group)
    return TermArrays(-np.ones(len(group)), a, b, np.full(len(a), 2.0), float(new_group.sum()))


def _at_most_one_term(gline: np.ndarray, start: np.ndarray, line_len: np.ndarray) -> TermArrays:
    key = gline * (int(line_len.max(initial=0)) + 1) + start
    order = np.argsort(key, kind="stable")
    a, b = _pairs_within_groups(order, key[order])
    return TermArrays(np.zeros(len(gline)), a, b, np.ones(len(a)), 0.0)


def _order_clashes(group, new_group, start, length) -> tuple[np.ndarray, np.ndarray]:
    """For each start j1 of block k: the first variable of block k+1 and how many of its starts clash.

    Block k+1's starts j2 <= j1 + h_k leave no gap after block k. Groups are
    contiguous and sorted by start, and the next block of the same line is the
    next group (its id is ``group + 1``), so ``(group, start)`` is a sorted key.
    Shared by the builder and the size estimate.
    """
    n = len(group)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    group_first = np.flatnonzero(new_group)
    gidx = np.cumsum(new_group) - 1
    nxt = np.minimum(gidx + 1, len(group_first) - 1)
    next_first = group_first[nxt]
    same_line = (gidx + 1 < len(group_first)) & (group[next_first] == group + 1)
    span = int(start.max()) + int(length.max()) + 2
    key = group * span + start
    last_clash = np.searchsorted(key, (group + 1) * span + start + length, side="right")
    return next_first, np.where(same_line, last_clash - next_first, 0)


def _order_term(group, new_group, start, length) -> TermArrays:
    next_first, count = _order_clashes(group, new_group, start, length)
    a, b = _expand_ranges(np.arange(len(group)), next_first, count)
    return TermArrays(np.zeros(len(group)), a, b, np.ones(len(a)), 0.0)


def _group_ids(kind, line, block, shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global line ids (rows, then columns), one-hot group ids, and where each group begins."""
    n_rows, n_cols = shape
    gline = line + kind.astype(np.int64) * n_rows
    group = gline * (max(n_rows, n_cols) + 1) + block
    new_group = np.r_[True, group[1:] != group[:-1]] if len(group) else np.zeros(0, bool)
    return gline, group, new_group


def _cover(kind, line, start, length, line_len, n_cols) -> tuple[np.ndarray, np.ndarray]:
    """Cells (flat index) painted by each variable, clipped to the line."""
    span = np.minimum(start + length, line_len) - start
    indptr = np.r_[0, np.cumsum(span)]
    var = np.repeat(np.arange(len(start)), span)
    pos = np.arange(int(indptr[-1])) - np.repeat(indptr[:-1], span) + start[var]
    is_row = kind[var] == 0
    cells = np.where(is_row, line[var] * n_cols + pos, pos * n_cols + line[var])
    return indptr, cells.astype(np.int64)


def _match_term(kind, cover_indptr, cover_cells, n_cells) -> TermArrays:
    # (sum_row q - sum_col q)^2 per cell = sum of covering q (s^2 = 1)
    #   + 2 * sum over covering pairs of s_a s_b q_a q_b, s = +1 row, -1 col.
    counts = np.diff(cover_indptr)
    var = np.repeat(np.arange(len(counts)), counts)
    linear = counts.astype(np.float64)
    order = np.argsort(cover_cells, kind="stable")
    a_pos, b_pos = _pairs_within_groups(order, cover_cells[order])
    a, b = var[a_pos], var[b_pos]
    sign = np.where(kind == 0, 1.0, -1.0)
    return TermArrays(linear, a, b, 2.0 * sign[a] * sign[b], 0.0)


def _prune_by_known(puzzle, known, kind, line, block, start, length):
    """Keep-mask of the starts some placement of the whole line uses, and the forced ones.

    A start survives when at least one placement of its line's clue that agrees
    with the known cells puts the block there (line logic's placement DP, so the
    order of the blocks counts, not only the cells next to the block). A block
    left with a single start is forced.
    """
    from qpicross.classical.logic import Contradiction, line_placements

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
                    f"{name} {index}: no start is compatible with the known cells (clue {clue})"
                ) from None
            keep[sel] = allowed[block[sel], start[sel]]
    group = line_key * (max(puzzle.shape) + 1) + block
    _, group_index, group_size = np.unique(group[keep], return_inverse=True, return_counts=True)
    fixed = np.zeros(len(start), bool)
    fixed[np.flatnonzero(keep)] = group_size[group_index.ravel()] == 1
    return keep, fixed


def _fix_to_one(term: TermArrays, fixed: np.ndarray) -> TermArrays:
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
