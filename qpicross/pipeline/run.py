"""The whole pipeline in one call: puzzles -> BQMs -> samples -> decoded, checked boards.

:func:`run_many` takes puzzles and a :class:`~qpicross.pipeline.config.SolverConfig` and does every step
once, the same way for ``qpicross anneal``, ``bench`` and ``tune``: the size guard, the formulation, the
encoding, the presolve (:class:`~qpicross.classical.presolve.PresolveComposite`), the sampler (in chunks of
reads under the run control of :mod:`qpicross.samplers.control`, or all puzzles in one call of a batched
sampler), and the judgement of every read (:func:`~qpicross.pipeline.result.judge`). :func:`run` is
:func:`run_many` of one puzzle; :func:`anneal` is :func:`run` with the configuration's fields as keywords.

Examples:
    >>> from qpicross import Puzzle, anneal
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> result = anneal(p, num_reads=50, seed=7)
    >>> print("\\n".join(result.board_strings))
    ..#..
    .#.#.
    .#.#.
    #####
    #...#
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.formulation import PicrossFormulation, build_formulation
from qpicross.model.weights import PenaltyWeights
from qpicross.model.size import (
    BASE_BYTES,
    BYTES_PER_COUPLER,
    ModelTooLargeError,
    check_size,
    check_solver_size,
    max_couplers_limit,
    run_estimate,
    too_large,
)
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.models import encode, encoded_num_variables, presolved_formulation, structure_parameters
from qpicross.pipeline.result import AnnealResult, judge
from qpicross.puzzle import Puzzle
from qpicross.samplers import get_sampler, is_batched, sample, takes_threads, with_streams
from qpicross.samplers.parameters import STRUCTURE, integer

__all__ = ["AnnealResult", "anneal", "run", "run_many", "check_run_size"]


def check_run_size(
    puzzle: Puzzle,
    config: SolverConfig,
    *,
    known: np.ndarray | None = None,
    max_couplers: int | None = None,
    share: int = 1,
    resident: int = 0,
    presolved: bool = False,
    forced: bool = False,
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
        presolved: ``known`` comes from line logic (the message says the size is after presolve).
        forced: ``max_couplers`` is the machine's memory (:func:`~qpicross.model.size.force_ceiling`): the
            message says that nothing, ``force`` included, builds it here.

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
    estimate = check_size(puzzle, config.bounds, known, limit, presolved, num_reads=config.num_reads, forced=forced)
    estimate = run_estimate(estimate, config.sampler_name, config.encoding, config.presolve, resident)
    if estimate["estimated_bytes"] > limit * BYTES_PER_COUPLER:
        raise too_large(puzzle, estimate, limit, presolved, forced)
    return estimate


def guard(puzzle: Puzzle, config: SolverConfig, known: np.ndarray | None, force: bool,
          max_couplers: int | None) -> np.ndarray | None:
    """The size guard of a run before it builds (:func:`check_run_size`); returns the cells it is built with.

    With ``force``, the limit is the machine's memory (:func:`~qpicross.model.size.force_ceiling`), never above.
    With ``presolve`` and no ``known``, a model above the limit is counted again with the cells line logic settles
    from the clues alone (a run above the limit costs line logic once more, bounded as every solver is), and built
    pruned by them if that fits: presolve then shrinks what is built, not only what is annealed. Below the limit,
    every run builds the whole model, so the samples of a run the guard admits do not depend on it.

    Raises:
        ModelTooLargeError: Above the limit, after presolve where it runs (the message says so).
    """
    from qpicross.model.size import force_ceiling

    limit = max(1, force_ceiling() // BYTES_PER_COUPLER) if force else max_couplers
    try:
        check_run_size(puzzle, config, known=known, max_couplers=limit, forced=force)
        return known
    except ModelTooLargeError as whole:
        if not config.presolve or known is not None:
            raise
        refusal = whole
    from qpicross.classical.logic import propagate
    from qpicross.model.size import DEFAULT_MAX_CELLS

    if puzzle.num_rows * puzzle.num_cols > DEFAULT_MAX_CELLS:  # line logic's own default bound: not tried above it
        raise refusal
    try:
        check_solver_size(puzzle, "logic", None if limit is None else limit * BYTES_PER_COUPLER)
    except ModelTooLargeError:  # line logic itself is refused: the whole model's refusal says more
        raise refusal from None
    logic = propagate(puzzle)
    if logic.contradiction:  # no board: nothing smaller to build, the whole model's refusal stands
        raise refusal
    check_run_size(puzzle, config, known=logic.known, max_couplers=limit, presolved=True, forced=force)
    return logic.known


def run(
    puzzle: Puzzle | PicrossFormulation | str | os.PathLike,
    config: SolverConfig | None = None,
    *,
    known: np.ndarray | None = None,
    progress: Callable[..., None] | None = None,
    force: bool = False,
    max_couplers: int | None = None,
    on_built: Callable[[PicrossFormulation, dimod.BinaryQuadraticModel], None] | None = None,
) -> AnnealResult:
    """Solve a puzzle as ``config`` says: build, (presolve,) sample, decode and check every read.

    :func:`run_many` of one puzzle.

    Args:
        puzzle: The puzzle, a formulation already built from it (a weight
            sweep builds once; ``config.bounds`` and ``known`` are then not used),
            or a puzzle file's path (:func:`~qpicross.puzzle.formats.load_puzzle`, the format by its extension).
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
        ParameterError: For a bad argument or configuration (one line naming it).
        PuzzleFormatError, UnreadableFileError: For a path that is not a puzzle file.
        ModelTooLargeError: (a ``ValueError``) if the estimated model is too
            large and ``force`` is false; its message gives the estimate.
    """
    return run_many([puzzle], config, known=[known], progress=progress, force=force, max_couplers=max_couplers,
                    on_built=on_built)[0]


def run_many(
    puzzles: Sequence[Puzzle | PicrossFormulation | str | os.PathLike],
    config: SolverConfig | None = None,
    *,
    known: Sequence[np.ndarray | None] | None = None,
    progress: Callable[..., None] | None = None,
    force: bool = False,
    max_couplers: int | None = None,
    on_built: Callable[[PicrossFormulation, dimod.BinaryQuadraticModel], None] | None = None,
) -> list[AnnealResult]:
    """Solve every puzzle as ``config`` says: the one pipeline of every run.

    Each puzzle goes through the size guard, the formulation, the encoding and the presolve; then
    a *batched* sampler (``properties["batched"]``: :func:`~qpicross.samplers.registry.is_batched`,
    e.g. ``shift-batched``) samples all the models in one call (its ``sample_many``, so a GPU runs
    the chains of every puzzle at once), and any other sampler each model in turn
    (:func:`~qpicross.samplers.registry.sample`: in chunks of reads, under the run control of
    :mod:`qpicross.samplers.control`); last, every read is judged (:func:`~qpicross.pipeline.result.judge`).

    Args:
        puzzles: The puzzles (or formulations already built from them, or puzzle files' paths, as :func:`run` takes).
        config: How to solve them; with a batched sampler its ``time_limit`` bounds the whole call.
        known: Each puzzle's settled cells, as :func:`run` takes them (default: none).
        progress, force, max_couplers, on_built: As :func:`run` (``on_built`` is called for each puzzle; with a
            batched sampler ``progress`` counts the reads of every puzzle together).

    Returns:
        One :class:`~qpicross.pipeline.result.AnnealResult` a puzzle. With a batched sampler,
        ``timing["sample_s"]`` is the presolve plus the time from the start of the shared sampling
        until this puzzle stopped, and ``timing["batch_s"]`` the whole sampler call.

    Raises:
        ParameterError: For a bad argument or configuration, or a batched sampler with another encoding than one-hot.
        ModelTooLargeError: As :func:`run`.
        SamplerUnavailableError: When the sampler cannot run here (e.g. no CUDA GPU).

    Examples:
        >>> from qpicross import Puzzle
        >>> letter = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
        >>> dot = Puzzle([[1], []], [[1], []], name="dot")
        >>> config = SolverConfig(sampler="shift-batched-cpu", num_reads=8, num_sweeps=200, seed=1)
        >>> [r.solved for r in run_many([letter, dot], config)]
        [True, True]
    """
    config = _check_run_arguments(config, progress, on_built, force, max_couplers)
    puzzles = [_puzzle_of(puzzle) for puzzle in puzzles]
    batched = is_batched(config.sampler)
    if batched and config.encoding != "one_hot":
        raise ParameterError("batched samplers anneal the one-hot encoding only")
    known = [None] * len(puzzles) if known is None else list(known)
    runs = []
    for puzzle, settled in zip(puzzles, known):
        runs.append(_Run.build(puzzle, config, settled, force, max_couplers, presolve_now=batched))
        if on_built is not None:
            on_built(runs[-1].formulation, runs[-1].sampled)
    options = config.sampler_options
    sampler = with_streams(get_sampler(config.sampler) if isinstance(config.sampler, str) else config.sampler, options)
    if config.presolve and not batched and config.encoding == "one_hot":
        from qpicross.classical.presolve import PresolveComposite

        sampler = PresolveComposite(sampler)
    if config.encoding == "one_hot" and "target_energy" in sampler.parameters:
        options.setdefault("target_energy", 0.0)  # the ground-state energy: a read that found it stops there
    if takes_threads(sampler):  # the structured annealer: a read's restart streams on every core
        from qpicross.samplers.blockshift.sampler import default_threads

        options.setdefault("threads", default_threads())
    _check_options(sampler, options, config.sampler_name)
    if batched:
        _sample_batch(runs, sampler, config, options, progress)
    else:
        for one in runs:
            one.sample(sampler, config, options, progress)
    return [judge(one.puzzle, config, one.formulation, one.bqm, one.sampled, one.sampleset, one.timing, one.report)
            for one in runs]


def _check_run_arguments(config, progress, on_built, force, max_couplers) -> SolverConfig:
    """The configuration, validated, once every other argument of :func:`run` is checked (one line naming it)."""
    if config is not None and not isinstance(config, SolverConfig):
        raise ParameterError(f"config must be a SolverConfig, got {type(config).__name__}; pass the sampler's name "
                             f"as SolverConfig(sampler=...) or anneal(puzzle, sampler=...)")
    for name, hook in (("progress", progress), ("on_built", on_built)):
        if hook is not None and not callable(hook):
            raise ParameterError(f"{name} must be a function or None, got {type(hook).__name__}")
    if not isinstance(force, (bool, np.bool_)):
        raise ParameterError(f"force must be True or False, got {force!r}")
    integer(1, 2**62, none=True).check("max_couplers", max_couplers)
    return (config or SolverConfig()).validate()


def _puzzle_of(puzzle) -> Puzzle | PicrossFormulation:
    """What :func:`run` solves: a puzzle, a formulation, or a puzzle file's path (read by :func:`load_puzzle`)."""
    if isinstance(puzzle, (str, os.PathLike)):
        from qpicross.puzzle import load_puzzle

        return load_puzzle(puzzle)
    if not isinstance(puzzle, (Puzzle, PicrossFormulation)):
        raise ParameterError(f"puzzle must be a Puzzle, a PicrossFormulation or a puzzle file's path, got "
                             f"{type(puzzle).__name__}")
    return puzzle


@dataclasses.dataclass
class _Run:
    """One puzzle on its way through :func:`run_many`: its models, then its reads and their timing."""

    puzzle: Puzzle
    formulation: PicrossFormulation
    bqm: dimod.BinaryQuadraticModel  # the one-hot model every read is judged on
    sampled: dimod.BinaryQuadraticModel  # the model the sampler is given (another encoding's, or the same)
    wall_model: object  # the encoding's model (None for one-hot)
    known: np.ndarray | None
    timing: dict
    report: dict | None = None  # line logic's report, where it ran
    presolved: object = None  # a batched run's PresolvedModel
    sampleset: dimod.SampleSet | None = None

    @classmethod
    def build(cls, puzzle, config, known, force, max_couplers, presolve_now) -> _Run:
        """The size guard, the formulation, line logic where it runs before the sampler (any encoding but
        one-hot; every encoding with a batched sampler, ``presolve_now``), and the encoding."""
        t0 = time.perf_counter()
        if isinstance(puzzle, PicrossFormulation):
            formulation, puzzle = puzzle, puzzle.puzzle
        else:
            known = guard(puzzle, config, known, force, max_couplers)  # before any allocation
            t0 = time.perf_counter()
            formulation = build_formulation(puzzle, bounds=config.bounds, known=known)
        unpruned = formulation
        formulation, report = presolved_formulation(formulation, config, known)
        bqm, sampled, wall_model = encode(formulation, config)
        one = cls(puzzle, formulation, bqm, sampled, wall_model, known, {}, report)
        if report is not None:  # line logic pruned the formulation before its encoding: count the encoded model's
            report["variables_before"] = encoded_num_variables(unpruned, config.encoding)
            report["variables_after"] = report["variables_annealed"] = sampled.num_variables
            report["interactions_annealed"] = sampled.num_interactions
        elif presolve_now and config.presolve:
            from qpicross.classical.presolve import presolve_model

            one.presolved = presolve_model(bqm, formulation)
            one.report = dict(one.presolved.report)
        one.timing["build_s"] = time.perf_counter() - t0 - (report["presolve_s"] if report else 0.0)
        return one

    def sample(self, sampler, config, options, progress) -> None:
        """Sample this puzzle's model alone (:func:`~qpicross.samplers.registry.sample`)."""
        _check_exhaustive(sampler, self.sampled)
        t0 = time.perf_counter()
        structure = structure_parameters(sampler, self.formulation, config.weights, self.wall_model)
        structure.update(options)
        composite_presolves = config.presolve and self.report is None
        if composite_presolves:
            structure["known"] = self.known
        if self.sampled.num_variables == 0 and not composite_presolves:  # every start was fixed: nothing to sample
            self.sampleset = dimod.SampleSet.from_samples_bqm((np.zeros((1, 0), np.int8), []), self.sampled)
        else:
            if config.early_stop == "puzzle":  # the run stops at the ground-state energy, whatever the sampler
                structure.setdefault("target_energy", 0.0)
            self.sampleset = sample(
                self.sampled, sampler, num_reads=config.num_reads, num_sweeps=config.num_sweeps, seed=config.seed,
                progress=progress, time_limit=config.time_limit, early_stop=config.early_stop, **structure)
        if self.wall_model is not None:
            from qpicross.model.domain_wall import to_one_hot_sampleset

            info = dict(self.sampleset.info)
            self.sampleset = to_one_hot_sampleset(self.wall_model, self.sampleset, self.bqm)
            self.sampleset.info.update(info)
        self.timing["sample_s"] = time.perf_counter() - t0 + (self.report["presolve_s"] if self.report else 0.0)
        if "presolve" in self.sampleset.info:
            self.report = self.sampleset.info["presolve"]


def _sample_batch(runs: list[_Run], sampler, config: SolverConfig, options: dict, progress) -> None:
    """Sample every model presolve left in one call of a batched sampler (its ``sample_many``; ``progress`` counts
    the ladders of every model, ``num_reads`` each)."""
    parameters = {"num_reads": config.num_reads, "seed": config.seed, "time_limit": config.time_limit, **options}
    if progress is not None:
        parameters["progress"] = progress
    if config.early_stop is not None:
        parameters["early_stop"] = config.early_stop
    if config.num_sweeps is not None:
        parameters["num_sweeps"] = config.num_sweeps
    sampled, structures = [], []
    for one in runs:
        if one.presolved is not None and one.presolved.settled is not None:  # logic settled every cell
            one.sampleset = one.presolved.settled
            continue
        layout = {"layout": one.formulation.layout(config.weights)}
        sampled.append(one)
        structures.append(layout if one.presolved is None else one.presolved.structure(layout))
    for name in ("layout", "lines", "paints"):  # each model's layout; a presolved one: its lines and paints
        parameters.setdefault(name, [structure.get(name) for structure in structures])
    t0 = time.perf_counter()
    models = [one.sampled if one.presolved is None else one.presolved.reduced for one in sampled]
    samplesets = sampler.sample_many(models, **parameters) if sampled else []
    batch_s = time.perf_counter() - t0
    for one, sampleset in zip(sampled, samplesets):
        one.sampleset = sampleset if one.presolved is None else one.presolved.full_size(sampleset)
    for one in runs:
        presolve_s = one.report["presolve_s"] if one.report else 0.0
        one.timing.update(sample_s=presolve_s + one.sampleset.info.get("timing", {}).get("sample_s", 0.0),
                          batch_s=batch_s)


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


def anneal(
    puzzle: Puzzle | str | os.PathLike,
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
        puzzle: The puzzle, or a puzzle file's path (``anneal("instances/5x5.px")``: read by
            :func:`~qpicross.puzzle.formats.load_puzzle`, the format by its extension).
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
    if config is not None and not isinstance(config, SolverConfig):
        _check_run_arguments(config, progress, None, force, max_couplers)  # one line naming config
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
