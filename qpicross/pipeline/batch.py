"""Many puzzles, one sampler call: the pipeline of :func:`~qpicross.pipeline.run.run` for batched samplers.

A *batched* sampler (``properties["batched"]``: :func:`~qpicross.samplers.registry.is_batched`,
e.g. ``shift-batched``) samples many models in one call (its ``sample_many``),
so a GPU runs the chains of all the puzzles at once. :func:`run_many` does for
a list of puzzles what :func:`~qpicross.pipeline.run.run` does for one -- size
guard, formulation, presolve, sampling, and the judgement of every read --
with one sampler call for all of them.

Examples:
    >>> from qpicross import Puzzle
    >>> from qpicross.pipeline.config import SolverConfig
    >>> letter = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> dot = Puzzle([[1], []], [[1], []], name="dot")
    >>> config = SolverConfig(sampler="shift-batched-cpu", num_reads=8, num_sweeps=200, seed=1,
    ...                       options={"target_energy": 0})
    >>> [r.solved for r in run_many([letter, dot], config)]
    [True, True]
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from qpicross.exceptions import ParameterError
from qpicross.classical.presolve import presolve_model
from qpicross.model.formulation import build_formulation
from qpicross.model.size import check_size
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.run import AnnealResult, _check_options, judge
from qpicross.puzzle import Puzzle
from qpicross.samplers import get_sampler
from qpicross.samplers.registry import is_batched as _sampler_is_batched

__all__ = ["run_many", "is_batched"]


def is_batched(config: SolverConfig) -> bool:
    """Whether the configuration's sampler is batched (takes many models per call): its ``properties["batched"]``."""
    return isinstance(config.sampler, str) and _sampler_is_batched(config.sampler)


def run_many(
    puzzles: Sequence[Puzzle],
    config: SolverConfig,
    *,
    force: bool = False,
    max_couplers: int | None = None,
) -> list[AnnealResult]:
    """Solve every puzzle as ``config`` says, sampling all of them in one call of a batched sampler.

    Each result is what :func:`~qpicross.pipeline.run.run` would return for
    that puzzle, except the timing: ``sample_s`` is the presolve plus the time
    from the start of the shared sampling until this puzzle stopped, and
    ``batch_s`` the whole call.

    Args:
        puzzles: The puzzles.
        config: How to solve them; its sampler must be batched (:func:`is_batched`), its
            ``time_limit`` bounds the whole call.
        force: Build even when the size guard estimates a model above ``max_couplers``.
        max_couplers: The size guard's ceiling.

    Raises:
        ValueError: For a bad configuration, a sampler that is not batched, the domain-wall encoding,
            or a model above the size guard.
        SamplerUnavailableError: When the sampler cannot run here (no CUDA GPU).
    """
    config = config.validate()
    if not is_batched(config):
        raise ParameterError(f"sampler {config.sampler_name!r} is not batched; use qpicross.pipeline.run.run")
    if config.encoding != "one_hot":
        raise ParameterError("batched samplers anneal the one-hot encoding only")
    sampler = get_sampler(config.sampler)
    options = config.sampler_options
    _check_options(sampler, options, config.sampler_name)
    t_start = time.perf_counter()
    built = []
    for puzzle in puzzles:
        t0 = time.perf_counter()
        if not force:
            check_size(puzzle, config.bounds, None, max_couplers)
        formulation = build_formulation(puzzle, bounds=config.bounds)
        bqm = formulation.bqm(config.weights)
        item = {"formulation": formulation, "bqm": bqm, "model": bqm, "layout": formulation.layout(config.weights),
                "lines": None, "paints": None, "build_s": time.perf_counter() - t0}
        if config.presolve:
            _presolve(item)
        built.append(item)
    sampled = [item for item in built if item["model"] is not None]
    parameters = {"num_reads": config.num_reads, "seed": config.seed, "time_limit": config.time_limit, **options}
    if config.early_stop is not None:
        parameters["early_stop"] = config.early_stop
    if config.num_sweeps is not None:
        parameters["num_sweeps"] = config.num_sweeps
    if "target_energy" in sampler.parameters:  # the ground-state energy, as run() gives: a ladder that found it stops
        parameters.setdefault("target_energy", 0.0)
    # each model's layout; a model presolve made smaller: its lines and what each variable paints
    parameters.setdefault("layout", [item["layout"] for item in sampled])
    parameters.setdefault("paints", [item["paints"] for item in sampled])
    samplesets = sampler.sample_many([item["model"] for item in sampled], lines=[item["lines"] for item in sampled],
                                     **parameters) if sampled else []
    batch_s = time.perf_counter() - t_start
    for item, sampleset in zip(sampled, samplesets):
        item["sampleset"] = sampleset if "presolved" not in item else item["presolved"].full_size(sampleset)
    results = []
    for puzzle, item in zip(puzzles, built):
        sampleset = item["sampleset"]
        report = sampleset.info.get("presolve")
        timing = {"build_s": item["build_s"],
                  "sample_s": (report["presolve_s"] if report else 0.0) + sampleset.info.get("timing", {}).get(
                      "sample_s", 0.0), "batch_s": batch_s}
        results.append(judge(puzzle, config, item["formulation"], item["bqm"], item["bqm"], sampleset, timing, report))
    return results


def _presolve(item: dict) -> None:
    """Line logic first, as :class:`~qpicross.classical.presolve.PresolveComposite` does, for one puzzle."""
    found = presolve_model(item["bqm"], item["formulation"])
    item["presolved"] = found
    if found.settled is not None:  # logic settled every cell: nothing to sample
        item["sampleset"], item["model"] = found.settled, None
        return
    item["model"] = found.reduced
    structure = found.structure({"layout": item["layout"]})
    item["layout"], item["lines"], item["paints"] = (structure.get(k) for k in ("layout", "lines", "paints"))
