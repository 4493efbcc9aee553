"""The whole pipeline in one call: puzzle -> BQM -> samples -> decoded, checked board.

Examples:
    >>> from qpicross import Puzzle, anneal
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> result = anneal(p, num_reads=50, seed=7)
    >>> result.solved
    True
    >>> print("\\n".join(result.board_strings))
    ..#..
    .#.#.
    .#.#.
    #####
    #...#
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import dimod
import numpy as np

from .decode import DecodedRead, SampleEvaluation, decode_sample, evaluate_samples
from .formulation import (
    Bounds,
    PenaltyWeights,
    PicrossFormulation,
    build_formulation,
    check_size,
    placement_windows,
)
from .puzzle import Puzzle, board_to_strings
from .samplers import get_sampler, sample

__all__ = ["AnnealResult", "anneal"]


@dataclasses.dataclass
class AnnealResult:
    """What one annealing run found.

    Attributes:
        puzzle: The puzzle.
        formulation: The QUBO's combinatorics (variables, terms).
        sampleset: Every read, as the sampler returned it.
        evaluation: Every distinct read judged by the independent checker.
        best: The best read decoded (a solved one if any read solved the puzzle).
        timing: Seconds spent in ``build_s``, ``sample_s``, ``decode_s``.
    """

    puzzle: Puzzle
    formulation: PicrossFormulation
    bqm: dimod.BinaryQuadraticModel
    sampleset: dimod.SampleSet
    evaluation: SampleEvaluation
    best: DecodedRead
    energy: float
    weights: PenaltyWeights
    sampler: str
    seed: int | None
    timing: dict[str, float]
    #: What line-logic presolve did (None when off): ``variables_before``,
    #: ``variables_after`` (the presolved QUBO), ``variables_annealed`` (0 when
    #: logic settled every cell), ``cells_settled``, ``fraction_settled``,
    #: ``solved_by_logic``, ``contradiction``.
    presolve: dict | None = None

    @property
    def solved(self) -> bool:
        """Whether the best board passes the independent check."""
        return self.best.solved

    @property
    def board(self) -> np.ndarray:
        return self.best.board

    @property
    def board_strings(self) -> list[str]:
        return board_to_strings(self.best.board)

    @property
    def success_probability(self) -> float:
        return self.evaluation.success_probability

    @property
    def num_reads(self) -> int:
        return self.evaluation.num_reads

    def to_dict(self) -> dict:
        """A JSON-ready summary (the CLI's ``--json`` output)."""
        return {
            "puzzle": self.puzzle.name,
            "shape": list(self.puzzle.shape),
            "solved": self.solved,
            "board": self.board_strings,
            "energy": self.energy,
            "num_reads": self.num_reads,
            "success_probability": self.success_probability,
            "num_variables": self.bqm.num_variables,
            "num_interactions": self.bqm.num_interactions,
            "num_fixed_variables": len(self.formulation.fixed_labels),
            "boards_agree": self.best.boards_agree,
            "broken_lines": [f"{b.kind} {b.index}" for b in self.best.broken_lines],
            "violations": {
                name: sum(v.amount for v in self.best.violations if v.term == name)
                for name in self.best.term_energies
            },
            "sampler": self.sampler,
            "seed": self.seed,
            "weights": self.weights.as_dict(),
            "timing": dict(self.timing),
            # Cloud runs: chain breaks, physical qubits, QPU access time (see qpicross.cloud).
            **({"sampler_info": self.sampleset.info["sampler_info"]} if "sampler_info" in self.sampleset.info else {}),
            "presolve": None if self.presolve is None else dict(self.presolve),
        }


def anneal(
    puzzle: Puzzle,
    *,
    sampler: str | dimod.Sampler = "sa",
    num_reads: int = 100,
    num_sweeps: int | None = None,
    seed: int | None = None,
    beta_range: tuple[float, float] | None = None,
    weights: PenaltyWeights | None = None,
    bounds: Bounds = "stacking",
    known: np.ndarray | None = None,
    presolve: bool = False,
    progress: Callable[[int, int], None] | None = None,
    force: bool = False,
    max_couplers: int | None = None,
    **sampler_kwargs,
) -> AnnealResult:
    """Build the puzzle's BQM, sample it, and decode and check every read.

    Args:
        puzzle: The puzzle.
        sampler: A name from :data:`~qpicross.samplers.SAMPLERS` or any :class:`dimod.Sampler`.
        num_reads: Reads to draw.
        num_sweeps: Sweeps per read (SA; the sampler's default when None).
        seed: Random seed; the same seed gives the same result.
        beta_range: SA's ``(hot, cold)`` inverse temperatures.
        weights: Penalty weights (all 1 by default).
        bounds: Variable pruning, see :func:`~qpicross.formulation.build_formulation`.
        known: Settled cells to prune and fix variables with (presolve).
        presolve: Run line logic (:func:`~qpicross.logic.propagate`) first and
            anneal only what it leaves open: starts that contradict a settled
            cell are dropped and blocks with one start left are fixed. The
            board is decoded in full; :attr:`AnnealResult.presolve` says how
            many variables remained (0 when logic alone solves the puzzle).
        progress: Called as ``progress(reads_done, num_reads)``.
        force: Build even when the size guard
            (:func:`~qpicross.formulation.check_size`) estimates the model
            above ``max_couplers``.
        max_couplers: The guard's ceiling on coupler entries (default
            ``QPICROSS_MAX_COUPLERS`` or 50 million, about 5 GiB).
        **sampler_kwargs: Passed to the sampler.

    Raises:
        ModelTooLargeError: (a ``ValueError``) if the estimated model is too
            large and ``force`` is false; its message gives the estimate.
    """
    weights = weights or PenaltyWeights()
    presolve_info = None
    timing = {}
    if presolve:
        known, presolve_info, timing["presolve_s"] = _presolve(puzzle, known, bounds)
    if not force:
        check_size(puzzle, bounds, known, max_couplers, presolved=presolve)  # before any allocation
    t0 = time.perf_counter()
    formulation = build_formulation(puzzle, bounds=bounds, known=known)
    bqm = formulation.bqm(weights)
    t1 = time.perf_counter()
    solved_by_logic = presolve_info is not None and presolve_info["solved_by_logic"]
    if presolve_info is not None:
        presolve_info["variables_after"] = bqm.num_variables
        presolve_info["variables_annealed"] = 0 if solved_by_logic else bqm.num_variables
    if bqm.num_variables == 0 or solved_by_logic:
        # Everything was fixed, or line logic settled every cell (the pruning by cells can leave a few
        # start variables that only the order of the blocks rules out): one read, the logic's board.
        read = formulation.sample_from_board(known) if solved_by_logic else {}
        sampleset = dimod.SampleSet.from_samples_bqm(read, bqm) if read else dimod.SampleSet.from_samples(
            [{}], dimod.BINARY, energy=[bqm.offset])
        name = "none"
    else:
        # Samplers that need the puzzle's structure, not just the BQM (hybrid-cqm), list "formulation".
        if "formulation" in (get_sampler(sampler) if isinstance(sampler, str) else sampler).parameters:
            sampler_kwargs.setdefault("formulation", formulation)
        sampleset = sample(
            bqm, sampler, num_reads=num_reads, num_sweeps=num_sweeps, seed=seed,
            beta_range=beta_range, progress=progress, **sampler_kwargs,
        )
        name = sampler if isinstance(sampler, str) else type(sampler).__name__
    t2 = time.perf_counter()
    evaluation = evaluate_samples(formulation, sampleset)
    best_index = evaluation.best_index
    best = decode_sample(formulation, evaluation.samples[best_index])
    t3 = time.perf_counter()
    return AnnealResult(
        puzzle=puzzle,
        formulation=formulation,
        bqm=bqm,
        sampleset=sampleset,
        evaluation=evaluation,
        best=best,
        energy=float(evaluation.energy[best_index]),
        weights=weights,
        sampler=name,
        seed=seed,
        timing={"build_s": t1 - t0, "sample_s": t2 - t1, "decode_s": t3 - t2, **timing},
        presolve=presolve_info,
    )


def _presolve(puzzle: Puzzle, known: np.ndarray | None, bounds: Bounds) -> tuple[np.ndarray | None, dict, float]:
    """Line logic before annealing: the known cells to build with, a report, and seconds spent."""
    from .logic import propagate

    t0 = time.perf_counter()
    if known is None:
        before = sum(
            hi - lo + 1
            for _, _, clue, length in puzzle.lines()
            for lo, hi in placement_windows(clue, length, bounds)
        )
    else:
        before = build_formulation(puzzle, bounds=bounds, known=known).num_variables
    logic = propagate(puzzle, known)
    info = {
        "variables_before": int(before),
        "variables_after": None,
        "cells_settled": logic.num_settled,
        "fraction_settled": logic.fraction_settled,
        "solved_by_logic": logic.solved,
        "contradiction": logic.contradiction,
    }
    # On a contradiction the puzzle has no solution: anneal it unchanged (the reads will fail the check).
    return (known if logic.contradiction else logic.known), info, time.perf_counter() - t0
