"""The whole pipeline in one call: puzzle -> BQM -> samples -> decoded, checked board.

:func:`run` takes a puzzle and a :class:`~qpicross.pipeline.config.SolverConfig`
and does every step once, the same way for ``qpicross anneal``, ``qpicross
bench`` and ``qpicross tune``: the size guard, the formulation, the encoding,
the presolve (:class:`~qpicross.classical.presolve.PresolveComposite`), the
sampler (in chunks of reads, under the time budget), and the judgement of
every read (:func:`~qpicross.decode.evaluate_samples`). :func:`anneal` is the
same with the configuration's fields as keyword arguments.

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

from qpicross.exceptions import ParameterError
from qpicross.decode import DecodedRead, SampleEvaluation, decode_sample, evaluate_samples
from qpicross.model.formulation import PicrossFormulation, build_formulation
from qpicross.model.weights import PenaltyWeights
from qpicross.model.size import (
    BASE_BYTES,
    BYTES_PER_COUPLER,
    check_size,
    check_solver_size,
    max_couplers_limit,
    run_estimate,
    too_large,
)
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle import Puzzle, board_to_strings
from qpicross.samplers import get_sampler, sample, takes_threads
from qpicross.samplers.parameters import STRUCTURE

__all__ = ["AnnealResult", "anneal", "run", "check_run_size", "presolved_formulation", "encode", "judge"]


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
            ``variables_after``, ``variables_annealed`` (0 when logic settled every cell),
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


def check_run_size(
    puzzle: Puzzle,
    config: SolverConfig,
    *,
    known: np.ndarray | None = None,
    max_couplers: int | None = None,
    share: int = 1,
    resident: int = 0,
) -> dict:
    """The size guard of one run: the model, the reads it keeps, the path's own copies (presolve,
    encoding, sampler: :func:`~qpicross.model.size.run_estimate`), and line logic first if it presolves.

    The estimate bounds the peak resident memory of the process that runs it. With ``share``
    parallel workers, the parent process (:data:`~qpicross.model.size.BASE_BYTES` and ``resident``)
    comes off the ceiling first and each worker gets ``1/share`` of the rest.

    Args:
        puzzle: The puzzle.
        config: The run's configuration (bounds, reads, presolve, sampler, encoding).
        known: Settled cells the model is pruned with.
        max_couplers: The ceiling (default :func:`~qpicross.model.size.max_couplers_limit`).
        share: Runs that share the memory at once (parallel workers): each gets ``1/share`` of it.
        resident: Bytes every process holds besides this run (a weight sweep's formulations).

    Returns:
        The run's estimate (:func:`~qpicross.model.size.check_size`, then ``run_estimate``).

    Raises:
        ModelTooLargeError: Above the ceiling, before anything is allocated.
    """
    total = max_couplers_limit() if max_couplers is None else max_couplers
    parent = (BASE_BYTES + resident) // BYTES_PER_COUPLER if share > 1 else 0
    limit = max(1, (total - parent) // max(1, share))
    if config.num_sweeps is not None:  # SA-like samplers allocate a schedule of one float per sweep (and replica)
        replicas = config.sampler_options.get("num_replicas", 1)
        schedule = 8 * config.num_sweeps * (replicas if isinstance(replicas, int) and replicas > 0 else 1)
        if schedule > limit * BYTES_PER_COUPLER:
            raise too_large(puzzle, {"method": "schedule", "estimated_bytes": schedule,
                                     "what": f"a schedule of {config.num_sweeps:,} sweeps"}, limit * BYTES_PER_COUPLER)
    if config.presolve:
        check_solver_size(puzzle, "logic", limit * BYTES_PER_COUPLER)
    estimate = check_size(puzzle, config.bounds, known, limit, num_reads=config.num_reads)
    estimate = run_estimate(estimate, config.sampler_name, config.encoding, config.presolve, resident)
    if estimate["estimated_bytes"] > limit * BYTES_PER_COUPLER:
        raise too_large(puzzle, estimate, limit, config.presolve)
    return estimate


def run(
    puzzle: Puzzle | PicrossFormulation,
    config: SolverConfig | None = None,
    *,
    known: np.ndarray | None = None,
    progress: Callable[..., None] | None = None,
    force: bool = False,
    max_couplers: int | None = None,
    on_built: Callable[[PicrossFormulation, dimod.BinaryQuadraticModel], None] | None = None,
) -> AnnealResult:
    """Solve a puzzle as ``config`` says: build, (presolve,) sample, decode and check every read.

    Args:
        puzzle: The puzzle, or a formulation already built from it (a weight
            sweep builds once; ``config.bounds`` and ``known`` are then not used).
        config: How to solve it (default :class:`SolverConfig()`).
        known: Cells already settled (1 filled, 0 empty, -1 unknown): starts that
            contradict them are pruned from the model before it is built.
        progress: Called as ``progress(reads_done, num_reads, best_energy)`` after each chunk of reads.
        force: Build even when the size guard (:func:`~qpicross.model.size.check_size`)
            estimates the model above ``max_couplers``.
        max_couplers: The guard's ceiling (default: :func:`~qpicross.model.size.max_couplers_limit`).
        on_built: Called as ``on_built(formulation, sampled_bqm)`` once the model is built, before
            sampling (the command line prints the model's size there).

    Raises:
        ValueError: For a bad configuration (one line naming the field).
        ModelTooLargeError: (a ``ValueError``) if the estimated model is too
            large and ``force`` is false; its message gives the estimate.
    """
    config = (config or SolverConfig()).validate()
    t0 = time.perf_counter()
    if isinstance(puzzle, PicrossFormulation):
        formulation, puzzle = puzzle, puzzle.puzzle
    else:
        if not force:
            check_run_size(puzzle, config, known=known, max_couplers=max_couplers)  # before any allocation
        t0 = time.perf_counter()
        formulation = build_formulation(puzzle, bounds=config.bounds, known=known)
    formulation, pruned = presolved_formulation(formulation, config, known)
    bqm, sampled, wall_model = encode(formulation, config)
    if pruned is not None:
        pruned["variables_annealed"] = sampled.num_variables
        pruned["interactions_annealed"] = sampled.num_interactions
    t1 = time.perf_counter()
    if on_built is not None:
        on_built(formulation, sampled)

    sampler = get_sampler(config.sampler) if isinstance(config.sampler, str) else config.sampler
    if config.presolve and pruned is None:
        from qpicross.classical.presolve import PresolveComposite

        sampler = PresolveComposite(sampler)
    options = config.sampler_options
    if config.encoding == "one_hot" and "target_energy" in sampler.parameters:
        options.setdefault("target_energy", 0.0)  # the ground-state energy: a read that found it stops there
    if takes_threads(sampler):  # the structured annealer: a read's restart streams on every core
        from qpicross.samplers.blockshift.sampler import default_threads

        options.setdefault("threads", default_threads())
    _check_options(sampler, options, config.sampler_name)
    _check_exhaustive(sampler, sampled)
    structure = _structure_parameters(sampler, formulation, config.weights, wall_model)
    structure.update(options)
    if config.presolve and pruned is None:
        structure["known"] = known
    if sampled.num_variables == 0 and (not config.presolve or pruned is not None):
        # every start was fixed: one read, nothing to sample
        sampleset = dimod.SampleSet.from_samples_bqm((np.zeros((1, 0), np.int8), []), sampled)
    else:
        if config.early_stop == "puzzle":  # the run stops at the ground-state energy, whatever the sampler
            structure.setdefault("target_energy", 0.0)
        sampleset = sample(
            sampled, sampler, num_reads=config.num_reads, num_sweeps=config.num_sweeps, seed=config.seed,
            progress=progress, time_limit=config.time_limit, early_stop=config.early_stop, **structure,
        )
    if wall_model is not None:
        from qpicross.model.domain_wall import to_one_hot_sampleset

        info = dict(sampleset.info)
        sampleset = to_one_hot_sampleset(wall_model, sampleset, bqm)
        sampleset.info.update(info)
    t2 = time.perf_counter()
    presolve = sampleset.info["presolve"] if "presolve" in sampleset.info else pruned
    timing = {"build_s": t1 - t0, "sample_s": t2 - t1}
    if pruned is not None:  # the presolve ran before the build here; sample_s includes it, as with the composite
        timing["sample_s"] += pruned["presolve_s"]
        timing["build_s"] -= pruned["presolve_s"]
    return judge(puzzle, config, formulation, bqm, sampled, sampleset, timing, presolve)


def judge(puzzle: Puzzle, config: SolverConfig, formulation: PicrossFormulation, bqm: dimod.BinaryQuadraticModel,
          sampled: dimod.BinaryQuadraticModel, sampleset: dimod.SampleSet, timing: dict,
          presolve: dict | None) -> AnnealResult:
    """The last step of every run, one puzzle or many (:func:`~qpicross.pipeline.batch.run_many`): every read
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


def presolved_formulation(formulation: PicrossFormulation, config: SolverConfig,
                          known: np.ndarray | None = None) -> tuple[PicrossFormulation, dict | None]:
    """The formulation an encoding is built from, and line logic's report where it ran first.

    With ``presolve``, an encoding built from the formulation (thermometer) gets the formulation line logic
    prunes (:func:`~qpicross.classical.presolve.presolve_formulation`: the settled starts are constants); the
    one-hot model keeps its formulation, and :class:`~qpicross.classical.presolve.PresolveComposite` fixes its
    settled variables at sampling time (report None).
    """
    if not config.presolve or config.encoding == "one_hot":
        return formulation, None
    from qpicross.classical.presolve import presolve_formulation

    return presolve_formulation(formulation, known)


def encode(formulation: PicrossFormulation, config: SolverConfig):
    """The one-hot BQM every read is judged on, the BQM the sampler anneals (``config.encoding``) and the
    encoding's model (None for one-hot): ``(bqm, sampled, wall_model)``."""
    bqm = formulation.bqm(config.weights)
    if config.encoding == "domain_wall":
        from qpicross.model.domain_wall import domain_wall_bqm

        wall_model = domain_wall_bqm(formulation, config.weights)
        return bqm, wall_model.bqm, wall_model
    if config.encoding == "thermometer":
        from qpicross.model.thermometer import thermometer_bqm

        wall_model = thermometer_bqm(formulation, config.weights)
        return bqm, wall_model.bqm, wall_model
    return bqm, bqm, None


def _check_options(sampler: dimod.Sampler, options: dict, name: str) -> None:
    """Refuse sampler options the sampler does not take, before any work."""
    unknown = [k for k in options if k not in sampler.parameters]
    if unknown:
        known = ", ".join(sorted(k for k in sampler.parameters if k not in STRUCTURE)) or "none"
        raise ParameterError(f"sampler {name!r} takes no option {unknown[0]!r}; its options: {known}")


def _check_exhaustive(sampler: dimod.Sampler, bqm: dimod.BinaryQuadraticModel) -> None:
    """Refuse to enumerate 2^n states of a large model, however the exact solver was given, before the run starts."""
    from qpicross.samplers.exact import EXACT_MAX_VARIABLES, GroundStateExactSolver

    inner = sampler
    while isinstance(inner, dimod.Composite):
        inner = inner.child
    if isinstance(inner, GroundStateExactSolver):
        inner.check(bqm)
    if isinstance(inner, dimod.ExactSolver) and bqm.num_variables > EXACT_MAX_VARIABLES:
        raise ParameterError(f"{type(inner).__name__} enumerates 2^n states and this model has n = "
                             f"{bqm.num_variables} > {EXACT_MAX_VARIABLES} variables; use a sampler")


def _structure_parameters(sampler: dimod.Sampler, formulation: PicrossFormulation, weights: PenaltyWeights,
                          wall_model) -> dict:
    """What the model knows about itself, for samplers that ask: the formulation, and for the one-hot model its
    layout (lines, placements, board energy: :meth:`~qpicross.model.formulation.PicrossFormulation.layout`), or
    its one-hot lines and paints where the sampler takes those and no layout."""
    params = {}
    if "formulation" in sampler.parameters:
        params["formulation"] = formulation
    if wall_model is not None:
        return params
    if "layout" in sampler.parameters:
        params["layout"] = formulation.layout(weights)
        return params
    if "lines" in sampler.parameters:
        params["lines"] = formulation.one_hot_lines()
    if "paints" in sampler.parameters:
        params["paints"] = formulation.paints()
    return params


def anneal(
    puzzle: Puzzle,
    config: SolverConfig | None = None,
    *,
    known: np.ndarray | None = None,
    progress: Callable[..., None] | None = None,
    force: bool = False,
    max_couplers: int | None = None,
    sampler: str | dimod.Sampler | None = None,
    num_reads: int | None = None,
    num_sweeps: int | None = None,
    seed: int | None = None,
    beta_range: tuple[float, float] | None = None,
    weights: PenaltyWeights | None = None,
    bounds: str | None = None,
    presolve: bool | None = None,
    encoding: str | None = None,
    time_limit: float | None = None,
    early_stop: str | None = None,
    **sampler_options,
) -> AnnealResult:
    """Build the puzzle's BQM, sample it, and decode and check every read.

    :func:`run` with the configuration given as keyword arguments (they
    override the fields of ``config`` when both are given).

    Args:
        puzzle: The puzzle.
        config: A :class:`~qpicross.pipeline.config.SolverConfig` to start from.
        known: Settled cells to prune the model with (see :func:`run`).
        progress: Called as ``progress(reads_done, num_reads, best_energy)``.
        force: Build even above the size guard.
        max_couplers: The size guard's ceiling.
        sampler: A name from :data:`~qpicross.samplers.SAMPLERS` or any :class:`dimod.Sampler`.
        num_reads: Reads to draw.
        num_sweeps: Sweeps per read (the sampler's default when None).
        seed: Random seed; the same seed gives the same result.
        beta_range: ``(hot, cold)`` inverse temperatures.
        weights: Penalty weights (all 1 by default).
        bounds: Variable pruning, see :func:`~qpicross.model.formulation.build_formulation`.
        presolve: Fix what line logic settles first (:class:`~qpicross.classical.presolve.PresolveComposite`).
        encoding: ``"one_hot"``, ``"domain_wall"`` or ``"thermometer"``.
        time_limit: Seconds of sampling after which no further chunk of reads starts.
        early_stop: ``"puzzle"``: stop at the first read that solves the puzzle (see
            :class:`~qpicross.pipeline.config.SolverConfig`).
        **sampler_options: Other sampler parameters (``num_replicas=8``, ``target_energy=0``, ...).
    """
    fields = {"sampler": sampler, "num_reads": num_reads, "num_sweeps": num_sweeps, "seed": seed,
              "weights": weights, "bounds": bounds, "presolve": presolve, "encoding": encoding,
              "time_limit": time_limit, "early_stop": early_stop}
    base = config or SolverConfig()
    changes = {k: v for k, v in fields.items() if v is not None}
    if num_sweeps is None and config is None:
        changes.pop("num_sweeps", None)
    if seed is None and config is None:
        changes.pop("seed", None)
    options = {**base.sampler_options, **sampler_options}
    if beta_range is not None:
        options["beta_range"] = tuple(beta_range)
    config = base.replace(**changes, options=options)
    return run(puzzle, config, known=known, progress=progress, force=force, max_couplers=max_couplers)
