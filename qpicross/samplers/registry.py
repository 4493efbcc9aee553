"""A registry of named samplers and one way to call any of them.

Built in:

* ``sa`` -- :class:`dwave.samplers.SimulatedAnnealingSampler` (the default;
  ``dwave-neal`` is now a deprecated shim around this same sampler);
* ``tabu`` -- :class:`dwave.samplers.TabuSampler`;
* ``shift`` -- :class:`qpicross.samplers.blockshift.sampler.BlockShiftSampler`, which keeps every
  block one-hot and anneals by shifting block starts;
* ``shift-batched`` -- :class:`qpicross.samplers.blockshift.batched.BatchedShiftSampler`, the same moves on
  thousands of chains of many puzzles at once on a CUDA GPU (the ``gpu`` extra);
  ``shift-batched-cpu`` runs its kernels on the CPU. Both are ``batched``: benchmarks hand
  them all their puzzles in one call (:func:`qpicross.samplers.blockshift.batched.sample_many`);
* ``exact`` -- :class:`dimod.ExactSolver` behind a size guard: it enumerates
  all :math:`2^n` assignments, so it refuses more than
  :data:`EXACT_MAX_VARIABLES` variables, and returns the ground states.

The cloud annealers (:mod:`qpicross.samplers.cloud`) are registered by the
package's ``__init__``; other packages add theirs with :func:`register_sampler`. Any :class:`dimod.Sampler` instance can also be
passed directly wherever a sampler name is accepted.

Examples:
    >>> import dimod, numpy as np
    >>> bqm = dimod.BinaryQuadraticModel({"a": -1, "b": 1}, {("a", "b"): 2}, 0, "BINARY")
    >>> ss = sample(bqm, "sa", num_reads=5, num_sweeps=100, seed=1)
    >>> dict(ss.first.sample), float(ss.first.energy)
    ({'a': np.int8(1), 'b': np.int8(0)}, -1.0)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import dimod

from qpicross.exceptions import ParameterError, QpicrossError, SamplerUnavailableError
from qpicross.samplers.exact import EXACT_MAX_VARIABLES, GroundStateExactSolver
from qpicross.samplers.reads import ReadsComposite, independent_reads

__all__ = [
    "SAMPLERS",
    "SamplerEntry",
    "register_sampler",
    "get_sampler",
    "sample",
    "SamplerUnavailableError",
    "takes_threads",
    "independent_reads",
]

@dataclasses.dataclass(frozen=True)
class SamplerEntry:
    """A named way to make a sampler.

    ``chunkable`` samplers draw independent reads, so a run can be split into
    chunks to show progress. ``batched`` samplers sample many models in one
    call (``sample_many``), which benchmarks use to give them all their puzzles at once.
    ``threaded`` samplers take a ``threads`` parameter (the CPUs one call may use),
    which benchmarks share among their workers.
    """

    factory: Callable[..., dimod.Sampler]
    description: str
    chunkable: bool = False
    batched: bool = False
    threaded: bool = False


def _sa():
    from dwave.samplers import SimulatedAnnealingSampler

    return SimulatedAnnealingSampler()


def _shift():
    from qpicross.samplers.blockshift.sampler import BlockShiftSampler

    return BlockShiftSampler()


def _shift_batched(backend: str = "cuda"):
    from qpicross.samplers.blockshift.batched import BatchedShiftSampler

    return BatchedShiftSampler(backend=backend)


def _tabu():
    from dwave.samplers import TabuSampler

    return TabuSampler()


#: Samplers by name.
SAMPLERS: dict[str, SamplerEntry] = {
    "sa": SamplerEntry(_sa, "simulated annealing (dwave-samplers)", chunkable=True),
    "tabu": SamplerEntry(_tabu, "tabu search (dwave-samplers)", chunkable=True),
    "shift": SamplerEntry(_shift, "one-hot-preserving block-shift annealing / tempering (qpicross.samplers.blockshift.sampler)",
                          chunkable=True, threaded=True),
    "shift-batched": SamplerEntry(_shift_batched, "batched block-shift tempering on a CUDA GPU, many puzzles per launch "
                              "(qpicross.samplers.blockshift.batched; the 'gpu' extra)", batched=True),
    "shift-batched-cpu": SamplerEntry(functools.partial(_shift_batched, "cpu"), "the shift-batched kernels on the CPU (numba prange)",
                                  batched=True),
    "exact": SamplerEntry(GroundStateExactSolver, f"exhaustive ground states (<= {EXACT_MAX_VARIABLES} variables)"),
}


def register_sampler(name: str, factory: Callable[..., dimod.Sampler], description: str, *, chunkable: bool = False,
                     batched: bool = False, threaded: bool = False) -> None:
    """Make a sampler available by name (to :func:`sample` and the command line)."""
    SAMPLERS[name] = SamplerEntry(factory, description, chunkable, batched, threaded)


def takes_threads(sampler: str | dimod.Sampler) -> bool:
    """Whether a sampler (a registry name or an instance) takes ``threads``, the CPUs one call may use.

    >>> takes_threads("shift"), takes_threads("sa")
    (True, False)
    >>> from qpicross.samplers.blockshift.sampler import BlockShiftSampler
    >>> takes_threads(BlockShiftSampler())
    True
    """
    if isinstance(sampler, str):
        return sampler in SAMPLERS and SAMPLERS[sampler].threaded
    return "threads" in sampler.parameters


def get_sampler(name: str, **options) -> dimod.Sampler:
    """A new sampler instance by registry name.

    Raises:
        ValueError: For an unknown name.
    """
    try:
        entry = SAMPLERS[name]
    except KeyError:
        raise ParameterError(f"unknown sampler {name!r}; known: {', '.join(SAMPLERS)}") from None
    return entry.factory(**options)


def sample(
    bqm: dimod.BinaryQuadraticModel,
    sampler: str | dimod.Sampler = "sa",
    *,
    num_reads: int = 100,
    num_sweeps: int | None = None,
    seed: int | None = None,
    beta_range: tuple[float, float] | None = None,
    progress: Callable[..., None] | None = None,
    chunks: int | None = None,
    time_budget: float | None = None,
    stop_at_energy: float | None = None,
    **kwargs,
) -> dimod.SampleSet:
    """Sample a BQM with any sampler, passing only the parameters the sampler accepts.

    ``num_reads``, ``num_sweeps``, ``seed`` and ``beta_range`` are forwarded when the sampler lists
    them in its ``parameters``; so are extra keyword arguments (an unknown one is an error, as in
    dimod). The run goes through :class:`~qpicross.samplers.reads.ReadsComposite`, which draws the
    reads in calls of a few reads each where they are independent restarts (a registered sampler's
    ``chunkable``, else :func:`~qpicross.samplers.reads.independent_reads`), for progress, the time
    budget, the stop at the first solution and Ctrl-C.

    Args:
        bqm: The model.
        sampler: A registry name or a :class:`dimod.Sampler`.
        num_reads: Number of reads (at most, with a budget).
        num_sweeps: Sweeps per read (SA).
        seed: Random seed, for reproducible runs.
        beta_range: ``(hot, cold)`` inverse temperatures (SA).
        progress: Called as ``progress(reads_done, num_reads, best_energy)`` after each call.
        chunks: Override the number of calls (without a budget).
        time_budget: Seconds of sampling after which no further call starts (samplers that take a
            ``time_budget`` themselves, like the block-shift annealer, also stop the running read).
        stop_at_energy: Stop once a read reaches this energy.

    Returns:
        The samples, with ``info["timing"]["sample_s"]`` holding wall time
        and ``info["stopped_by_budget"]`` whether the budget cut the run short.
    """
    if isinstance(sampler, str):
        independent = SAMPLERS[sampler].chunkable if sampler in SAMPLERS else None
        sampler = get_sampler(sampler)
    else:
        independent = None  # decided by independent_reads()
    wanted = {"num_sweeps": num_sweeps, "beta_range": beta_range}
    params = {k: v for k, v in wanted.items() if v is not None and k in sampler.parameters}
    params.update(kwargs)
    try:
        return ReadsComposite(sampler, independent=independent).sample(
            bqm, num_reads=num_reads, seed=seed, progress=progress, chunks=chunks, time_budget=time_budget,
            stop_at_energy=stop_at_energy, **params)
    except ValueError as exc:  # another package's sampler refusing a value it was given (qpicross's raise typed errors)
        if isinstance(exc, QpicrossError) or type(sampler).__module__.startswith("qpicross"):
            raise
        raise ParameterError(f"{type(sampler).__name__} refused the run: {exc}") from exc
