"""What a run found: :class:`AnnealResult`, and :func:`judge`, the last step of every run.

:func:`~qpicross.pipeline.run.run` and :func:`~qpicross.pipeline.run.run_many` end here: every read is
judged (:func:`~qpicross.decode.evaluate_samples`: a ground state whose board passes the independent
check), the best one decoded, and the whole kept in an :class:`AnnealResult`.

Examples:
    >>> from qpicross import Puzzle, anneal
    >>> result = anneal(Puzzle([[1], [1]], [[1], [1]]), num_reads=10, seed=1)
    >>> result.num_reads, result.solved
    (10, True)
"""

from __future__ import annotations

import dataclasses
import time

import dimod
import numpy as np

from qpicross.decode import DecodedRead, SampleEvaluation, decode_sample, evaluate_samples
from qpicross.model.formulation import PicrossFormulation
from qpicross.model.weights import PenaltyWeights
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle import Puzzle, board_to_strings

__all__ = ["AnnealResult", "judge"]


@dataclasses.dataclass
class AnnealResult:
    """What one run found.

    Attributes:
        puzzle: The puzzle.
        config: The configuration it ran with.
        formulation: The QUBO's combinatorics (variables, terms).
        bqm: The one-hot model every read is judged on (full size, also with presolve).
        sampleset: Every read, as a full-size one-hot sample, in the order drawn.
        evaluation: Every read judged (ground state and independent check).
        best: The best read decoded (a solved one if any read solved the puzzle).
        energy: The best read's energy.
        timing: Seconds spent in ``build_s``, ``sample_s`` (presolve included), ``decode_s``.
        presolve: What line-logic presolve did (None when off): ``variables_before``,
            ``variables_after``, ``variables_annealed`` (0 when logic settled every cell; all three count the
            variables of the model annealed, in its encoding),
            ``cells_settled``, ``fraction_settled``, ``solved_by_logic``, ``contradiction``, ``presolve_s``.
        sampled_bqm: The model the sampler saw (a domain-wall or thermometer BQM, or the one-hot BQM).
    """

    puzzle: Puzzle
    config: SolverConfig
    formulation: PicrossFormulation
    bqm: dimod.BinaryQuadraticModel
    sampleset: dimod.SampleSet
    evaluation: SampleEvaluation
    best: DecodedRead
    energy: float
    timing: dict[str, float]
    presolve: dict | None = None
    sampled_bqm: dimod.BinaryQuadraticModel | None = None

    @property
    def solved(self) -> bool:
        """Whether the best read is a ground state whose board passes the independent check."""
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

    @property
    def weights(self) -> PenaltyWeights:
        return self.config.weights

    @property
    def sampler(self) -> str:
        """The sampler's name; ``"none"`` when presolve left nothing to sample."""
        if self.presolve is not None and self.presolve.get("variables_annealed") == 0:
            return "none"
        return self.config.sampler_name

    @property
    def seed(self) -> int | None:
        return self.config.seed

    @property
    def stopped_by_budget(self) -> bool:
        """Whether the time limit cut the run short (the sample set's ``info["timed_out"]``)."""
        return bool(self.sampleset.info.get("timed_out", False))

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the run early (the reads that finished are kept)."""
        return bool(self.sampleset.info.get("interrupted", False))

    @property
    def num_annealed_variables(self) -> int:
        """Variables of the model the sampler annealed (after presolve where it ran: 0 when it settled all)."""
        sampled = self.sampled_bqm if self.sampled_bqm is not None else self.bqm
        return (self.presolve or {}).get("variables_annealed", sampled.num_variables)

    @property
    def num_annealed_interactions(self) -> int:
        """Interactions of the model the sampler annealed (after presolve where it ran)."""
        sampled = self.sampled_bqm if self.sampled_bqm is not None else self.bqm
        return (self.presolve or {}).get("interactions_annealed", sampled.num_interactions)

    def to_dict(self) -> dict:
        """A JSON-ready summary (the CLI's ``--json`` output)."""
        return {
            **self.puzzle.outcome(self.solved, self.board_strings),
            "energy": self.energy,
            "num_reads": self.num_reads,
            "num_solved": self.evaluation.num_solved,
            "num_valid_board_only": self.evaluation.num_valid_board_only,
            "success_probability": self.success_probability,
            "num_variables": self.num_annealed_variables,
            "num_interactions": self.num_annealed_interactions,
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
            "config": self.config.to_dict(),
            "stopped_by_budget": self.stopped_by_budget,
            "interrupted": self.interrupted,
            "timing": dict(self.timing),
            # Cloud runs: chain breaks, physical qubits, QPU access time (see qpicross.samplers.cloud).
            **({"sampler_info": self.sampleset.info["sampler_info"]} if "sampler_info" in self.sampleset.info else {}),
            "presolve": None if self.presolve is None else dict(self.presolve),
        }


def judge(puzzle: Puzzle, config: SolverConfig, formulation: PicrossFormulation, bqm: dimod.BinaryQuadraticModel,
          sampled: dimod.BinaryQuadraticModel, sampleset: dimod.SampleSet, timing: dict,
          presolve: dict | None) -> AnnealResult:
    """The last step of every run, one puzzle or many (:func:`~qpicross.pipeline.run.run_many`): every read
    judged (:func:`~qpicross.decode.evaluate_samples`), the best one decoded, and the result.

    Args:
        puzzle, config, formulation: What was run, and the model every read is judged on.
        bqm, sampled: The one-hot BQM, and the BQM the sampler annealed (another encoding's, or the same).
        sampleset: The reads, as one-hot samples of ``bqm``.
        timing: Seconds so far (``build_s``, ``sample_s``...); ``decode_s`` is added, and ``presolve_s`` from
            the line-logic report.
        presolve: Line logic's report (:meth:`~qpicross.classical.presolve.Presolve.report`), or None.
    """
    t0 = time.perf_counter()
    evaluation = evaluate_samples(formulation, sampleset)
    best_index = evaluation.best_index
    best = decode_sample(formulation, evaluation.samples[best_index])
    timing = {**timing, "decode_s": time.perf_counter() - t0}
    if presolve is not None:
        presolve = dict(presolve)
        timing["presolve_s"] = presolve.pop("presolve_s")
    return AnnealResult(
        puzzle=puzzle,
        config=config,
        formulation=formulation,
        bqm=bqm,
        sampleset=sampleset,
        evaluation=evaluation,
        best=best,
        energy=float(evaluation.energy[best_index]),
        timing=timing,
        presolve=presolve,
        sampled_bqm=sampled,
    )
