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

from .formulation import TERMS, PicrossFormulation
from .puzzle import BrokenLine, check

__all__ = ["Violation", "DecodedRead", "decode_sample", "evaluate_samples", "SampleEvaluation"]


@dataclasses.dataclass(frozen=True)
class Violation:
    """One broken penalty term at one place.

    Attributes:
        term: The penalty term (one of :data:`~qpicross.formulation.TERMS`).
        kind: ``"row"``, ``"col"`` or ``"cell"``.
        index: Row or column index; for cells, ``(row, col)``.
        detail: What is wrong, in words.
        amount: The term's (unweighted) energy at this place.
    """

    term: str
    kind: str
    index: int | tuple[int, int]
    detail: str
    amount: int

    def __str__(self) -> str:
        where = f"cell {self.index}" if self.kind == "cell" else f"{self.kind} {self.index}"
        return f"{self.term} at {where}: {self.detail} (+{self.amount})"


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
    def solved(self) -> bool:
        """True when the row board passes the independent check."""
        return not self.broken_lines


def _as_vector(formulation: PicrossFormulation, sample) -> np.ndarray:
    if isinstance(sample, Mapping):
        return np.array([sample[label] for label in formulation.labels], dtype=np.int8)
    return np.asarray(sample, dtype=np.int8)


def decode_sample(formulation: PicrossFormulation, sample: Mapping | np.ndarray) -> DecodedRead:
    """Decode one sample (a label->value mapping or a vector in label order)."""
    x = _as_vector(formulation, sample)
    puzzle = formulation.puzzle
    n_rows, n_cols = puzzle.shape
    row_cover = formulation._coverage(x[None], 0)[0].reshape(n_rows, n_cols)
    col_cover = formulation._coverage(x[None], 1)[0].reshape(n_rows, n_cols)
    board = (row_cover > 0).astype(np.uint8)
    col_board = (col_cover > 0).astype(np.uint8)

    starts: dict[tuple[str, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    on = [formulation.labels[v] for v in np.flatnonzero(x)] + list(formulation.fixed_labels)
    for kind, line, start, block in on:
        starts[(kind, line)][block].append(start)

    violations: list[Violation] = []
    for kind, line, clue, _length in puzzle.lines():
        by_block = starts.get((kind, line), {})
        for k in range(len(clue)):
            count = len(by_block.get(k, []))
            if count != 1:
                violations.append(
                    Violation("one_hot", kind, line, f"block {k} starts {count} times", (count - 1) ** 2)
                )
        per_cell: dict[int, int] = defaultdict(int)
        for k, positions in by_block.items():
            for p in positions:
                per_cell[p] += 1
        for p, count in sorted(per_cell.items()):
            if count > 1:
                violations.append(
                    Violation("at_most_one", kind, line, f"{count} blocks start at {p}", count * (count - 1) // 2)
                )
        for k in range(len(clue) - 1):
            clashes = sum(
                1 for s1 in by_block.get(k, []) for s2 in by_block.get(k + 1, []) if s2 <= s1 + clue[k]
            )
            if clashes:
                violations.append(
                    Violation("order", kind, line, f"block {k + 1} starts too soon after block {k}", clashes)
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
    """Every distinct read of a run, judged by the independent checker.

    Attributes:
        boards: ``(num_distinct, rows, cols)`` boards from the row variables.
        solved: Per distinct read, whether its board passes :func:`check`.
        energy: Per distinct read, its BQM energy.
        num_occurrences: Per distinct read, how often it was drawn.
    """

    boards: np.ndarray
    solved: np.ndarray
    energy: np.ndarray
    num_occurrences: np.ndarray
    samples: np.ndarray

    @property
    def num_reads(self) -> int:
        return int(self.num_occurrences.sum())

    @property
    def success_probability(self) -> float:
        """Fraction of reads whose board solves the puzzle."""
        return float(self.num_occurrences[self.solved].sum() / max(self.num_reads, 1))

    @property
    def best_index(self) -> int:
        """The lowest-energy solved read, or the lowest-energy read if none is solved."""
        candidates = np.flatnonzero(self.solved) if self.solved.any() else np.arange(len(self.energy))
        return int(candidates[np.argmin(self.energy[candidates])])


def evaluate_samples(formulation: PicrossFormulation, sampleset: dimod.SampleSet) -> SampleEvaluation:
    """Decode every distinct read and check its board against the clues."""
    aggregated = sampleset.aggregate()
    samples = formulation.samples_to_array(aggregated)
    boards = formulation.boards(samples)
    packed = np.packbits(boards.reshape(len(boards), -1), axis=1)
    unique, inverse = np.unique(packed, axis=0, return_inverse=True)
    verdict = np.array(
        [not check(formulation.puzzle, boards[np.flatnonzero(inverse.ravel() == u)[0]]) for u in range(len(unique))],
        dtype=bool,
    )
    return SampleEvaluation(
        boards=boards,
        solved=verdict[inverse.ravel()] if len(unique) else np.zeros(0, bool),
        energy=np.asarray(aggregated.record.energy, dtype=float),
        num_occurrences=np.asarray(aggregated.record.num_occurrences, dtype=np.int64),
        samples=samples,
    )
