"""From samples back to boards, and what each sample breaks.

:func:`decode_sample` answers, for one read, the pyqubo-style question "which
constraints are broken, and by how much": every violated penalty term with
its row/column/cell, and its unweighted energy. :func:`evaluate_samples`
judges every read of a run with the independent :func:`~qpicross.puzzle.check`.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> p = Puzzle([[1], [1]], [[1], [1]])
    >>> f = build_formulation(p)
    >>> sample = {label: 0 for label in f.labels}
    >>> read = decode_sample(f, sample)
    >>> read.board.tolist(), read.solved
    ([[0, 0], [0, 0]], False)
    >>> sorted({v.term for v in read.violations})
    ['one_hot']
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.formulation import PicrossFormulation
from qpicross.model.weights import TERMS
from qpicross.puzzle import BrokenLine, check, line_name

__all__ = ["Violation", "DecodedRead", "decode_sample", "evaluate_samples", "SampleEvaluation"]


@dataclasses.dataclass(frozen=True)
class Violation:
    """One broken penalty term at one place.

    Python's indices count from 0 (``index``), words count from 1 (``place``, ``detail``); the repr shows both, so
    that ``index=0`` beside ``'block 1 ...'`` reads as the same row:

    >>> Violation("one_hot", "row", 0, "block 1 starts 2 times", 1)
    Violation(term='one_hot', kind='row', index=0, place='row 1', detail='block 1 starts 2 times', amount=1)

    Attributes:
        term: The penalty term (one of :data:`~qpicross.model.weights.TERMS`).
        kind: ``"row"``, ``"col"`` or ``"cell"``.
        index: Row or column index, from 0; for cells, ``(row, col)``.
        place: Where, in words, counted from 1 (``row 1``, ``row 2, column 3``).
        detail: What is wrong, in words (blocks and cells counted from 1, as in messages).
        amount: The term's (unweighted) energy at this place.
    """

    term: str
    kind: str
    index: int | tuple[int, int]
    place: str = dataclasses.field(init=False)
    detail: str
    amount: int

    def __post_init__(self) -> None:
        if self.kind == "cell":
            row, col = self.index
            place = f"{line_name('row', row)}, {line_name('col', col)}"
        else:
            place = line_name(self.kind, self.index)
        object.__setattr__(self, "place", place)

    def __str__(self) -> str:
        return f"{self.term} at {self.place}: {self.detail} (+{self.amount})"


@dataclasses.dataclass
class DecodedRead:
    """One read, decoded.

    Attributes:
        board: The board painted by the row variables.
        col_board: The board painted by the column variables.
        boards_agree: Whether the two are the same.
        broken_lines: Lines of ``board`` that break their clue (independent check).
        violations: Broken penalty terms and where.
        term_energies: Unweighted energy of each term.
    """

    board: np.ndarray
    col_board: np.ndarray
    broken_lines: list[BrokenLine]
    violations: list[Violation]
    term_energies: dict[str, float]

    @property
    def boards_agree(self) -> bool:
        return bool((self.board == self.col_board).all())

    @property
    def ground_state(self) -> bool:
        """Whether every penalty term is 0: the formulation's ground state (energy 0)."""
        return all(v == 0 for v in self.term_energies.values())

    @property
    def solved(self) -> bool:
        """A success: a ground state of the model *and* a row board that passes the independent check.

        A read whose row board happens to be valid while its column variables
        disagree, or a block breaks one-hot, is not a success.
        """
        return self.ground_state and not self.broken_lines


#: The kind of line of each axis of :class:`~qpicross.model.layout.PicrossLayout` (0 rows, 1 columns).
_KIND = ("row", "col")


def _as_vector(formulation: PicrossFormulation, sample) -> np.ndarray:
    if isinstance(sample, Mapping):
        missing = next((label for label in formulation.labels if label not in sample), None)
        if missing is not None:
            raise ParameterError(f"sample gives no value for the variable {missing!r}")
        return np.array([sample[label] for label in formulation.labels], dtype=np.int8)
    vector = np.asarray(sample)
    if vector.shape != (formulation.num_variables,) or not np.isin(vector, (0, 1)).all():
        raise ParameterError(f"sample must be {formulation.num_variables} values 0 or 1 in the formulation's label "
                             f"order (or a mapping of labels), got shape {vector.shape}")
    return vector.astype(np.int8)


def decode_sample(formulation: PicrossFormulation, sample: Mapping | np.ndarray) -> DecodedRead:
    """Decode one sample (a label->value mapping or a vector in label order).

    Raises:
        ParameterError: If ``formulation`` is not a
            :class:`~qpicross.model.formulation.PicrossFormulation`, or the sample does not fit it.
    """
    if not isinstance(formulation, PicrossFormulation):
        raise ParameterError(f"formulation must be a PicrossFormulation, got {type(formulation).__name__}")
    x = _as_vector(formulation, sample)
    puzzle = formulation.puzzle
    n_rows, n_cols = puzzle.shape
    row_cover = formulation.coverage(x[None], 0)[0].reshape(n_rows, n_cols)
    col_cover = formulation.coverage(x[None], 1)[0].reshape(n_rows, n_cols)
    board = (row_cover > 0).astype(np.uint8)
    col_board = (col_cover > 0).astype(np.uint8)

    layout = formulation.layout()  # each variable's block and start, and the blocks presolve fixed
    on = np.flatnonzero(x)
    placed = zip(*(np.r_[mine[on], fixed].tolist() for mine, fixed in (
        (layout.axis, layout.fixed_axis), (layout.line, layout.fixed_line), (layout.block, layout.fixed_block),
        (layout.start, layout.fixed_start))))
    starts: dict[tuple[str, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for axis, line, block, start in placed:
        starts[(_KIND[axis], line)][block].append(start)

    violations: list[Violation] = []
    for kind, line, clue, _length in puzzle.lines():
        by_block = starts.get((kind, line), {})
        for k in range(len(clue)):
            count = len(by_block.get(k, []))
            if count != 1:
                violations.append(
                    Violation("one_hot", kind, line, f"block {k + 1} starts {count} times", (count - 1) ** 2)
                )
        per_cell: dict[int, int] = defaultdict(int)
        for k, positions in by_block.items():
            for p in positions:
                per_cell[p] += 1
        for p, count in sorted(per_cell.items()):
            if count > 1:
                violations.append(
                    Violation("at_most_one", kind, line, f"{count} blocks start at cell {p + 1}", count * (count - 1) // 2)
                )
        for k in range(len(clue) - 1):
            clashes = sum(
                1 for s1 in by_block.get(k, []) for s2 in by_block.get(k + 1, []) if s2 <= s1 + clue[k]
            )
            if clashes:
                violations.append(
                    Violation("order", kind, line, f"block {k + 2} starts too soon after block {k + 1}", clashes)
                )
    for r, c in zip(*np.nonzero(row_cover != col_cover)):
        diff = int(row_cover[r, c]) - int(col_cover[r, c])
        violations.append(
            Violation(
                "match", "cell", (int(r), int(c)),
                f"rows paint {row_cover[r, c]}, columns paint {col_cover[r, c]}", diff * diff,
            )
        )
    energies = {name: float(formulation.terms[name].energies(x)[0]) for name in TERMS}
    return DecodedRead(board, col_board, check(puzzle, board), violations, energies)


@dataclasses.dataclass
class SampleEvaluation:
    """Every read of a run, judged by the model and by the independent checker.

    A read *succeeds* when it is a ground state of the formulation (every
    penalty term 0, so energy 0) **and** its row board passes
    :func:`~qpicross.puzzle.check`. Reads whose row board is valid without
    being a ground state (columns disagree, a block breaks one-hot) are counted
    apart, as :attr:`num_valid_board_only`, never as successes.

    Every array has one entry per distinct read, index ``d``.

    Attributes:
        samples: ``(num_distinct, num_variables)`` 0/1 array in the formulation's label order.
        boards: ``(num_distinct, rows, cols)`` boards from the row variables.
        energy: The read's energy as the sampler reported it (the sampled BQM's).
        ground_state: Whether every penalty term is 0.
        valid_board: Whether the row board passes :func:`check`.
        solved: ``ground_state & valid_board``.
        num_occurrences: How often it was drawn.
        read_index: For each read in the order drawn, its distinct index ``d`` (a sample set row with
            ``num_occurrences`` k stands for k reads in a row).
    """

    samples: np.ndarray
    boards: np.ndarray
    energy: np.ndarray
    ground_state: np.ndarray
    valid_board: np.ndarray
    num_occurrences: np.ndarray
    read_index: np.ndarray

    @property
    def solved(self) -> np.ndarray:
        return self.ground_state & self.valid_board

    @property
    def num_reads(self) -> int:
        return int(self.num_occurrences.sum())

    @property
    def num_solved(self) -> int:
        """Reads that succeeded (ground state and a valid board)."""
        return int(self.num_occurrences[self.solved].sum())

    @property
    def num_valid_board_only(self) -> int:
        """Reads whose row board passes the check although they are not ground states."""
        return int(self.num_occurrences[self.valid_board & ~self.ground_state].sum())

    @property
    def read_solved(self) -> np.ndarray:
        """Per read, in the order drawn, whether it succeeded."""
        return self.solved[self.read_index]

    @property
    def success_probability(self) -> float:
        """Fraction of reads that succeeded."""
        return float(self.num_solved / max(self.num_reads, 1))

    @property
    def best_index(self) -> int:
        """The lowest-energy solved read, or the lowest-energy read if none is solved."""
        candidates = np.flatnonzero(self.solved) if self.solved.any() else np.arange(len(self.energy))
        return int(candidates[np.argmin(self.energy[candidates])])


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_index=True, return_inverse=True)`` without the unique rows themselves
    (``rows[first]``), for rows of non-negative bytes: each row compared as one opaque value, in the same order
    (numpy's ``axis=0`` makes a field of every column, which costs milliseconds a call on a 25×25's rows).

    >>> first, inverse = _unique_rows(np.array([[1, 0], [0, 1], [1, 0]], np.int8))
    >>> first.tolist(), inverse.tolist()
    ([1, 0], [1, 0, 1])
    """
    rows = np.ascontiguousarray(rows)
    if rows.shape[1] == 0:  # nothing sampled: every row the same (empty) row
        return np.zeros(min(len(rows), 1), np.int64), np.zeros(len(rows), np.int64)
    as_bytes = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(as_bytes, return_index=True, return_inverse=True)
    return first, inverse.ravel()


def evaluate_samples(formulation: PicrossFormulation, sampleset: dimod.SampleSet) -> SampleEvaluation:
    """Judge every read: ground state of the formulation, and a board that passes the check.

    Examples:
        >>> from qpicross import Puzzle, build_formulation
        >>> f = build_formulation(Puzzle([[1], [1]], [[1], [1]]))
        >>> good = f.sample_from_board(["#.", ".#"])
        >>> rows_only = {**good, ("col", 0, 0, 0): 0, ("col", 0, 1, 0): 1}  # columns disagree
        >>> ss = dimod.SampleSet.from_samples_bqm([good, rows_only, good], f.bqm())
        >>> ev = evaluate_samples(f, ss)
        >>> ev.num_solved, ev.num_valid_board_only, ev.read_solved.tolist()
        (2, 1, [True, False, True])

        Each row of the sample set counts ``num_occurrences`` times (an aggregated set's nine good reads and
        one bad one are ten reads, not two):

        >>> ss = dimod.SampleSet.from_samples_bqm([good, rows_only], f.bqm(), num_occurrences=[9, 1])
        >>> ev = evaluate_samples(f, ss)
        >>> ev.num_reads, ev.num_solved, ev.success_probability
        (10, 9, 0.9)
    """
    all_samples = formulation.samples_to_array(sampleset)
    first, inverse = _unique_rows(all_samples)
    samples = all_samples[first]
    # an aggregated sample set (QPU, hybrid, dimod's aggregate()) holds one row for many reads
    occurrences = np.asarray(sampleset.record.num_occurrences, dtype=np.int64)
    energy = np.asarray(sampleset.record.energy, dtype=float)[first]
    boards = formulation.boards(samples)
    ground = np.ones(len(samples), bool)
    for name in TERMS:
        ground &= np.abs(formulation.terms[name].energies(samples)) < 1e-9
    packed = np.packbits(boards.reshape(len(boards), -1), axis=1)
    board_first, board_inverse = _unique_rows(packed)
    verdict = np.array([not check(formulation.puzzle, boards[i]) for i in board_first], dtype=bool)
    return SampleEvaluation(
        samples=samples,
        boards=boards,
        energy=energy,
        ground_state=ground,
        valid_board=verdict[board_inverse] if len(board_first) else np.zeros(0, bool),
        num_occurrences=np.bincount(inverse, weights=occurrences, minlength=len(samples)).astype(np.int64),
        read_index=np.repeat(inverse, occurrences),
    )
