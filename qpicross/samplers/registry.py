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
import math
import time
from collections.abc import Callable

import dimod
import numpy as np

from qpicross.samplers.exact import EXACT_MAX_VARIABLES, GroundStateExactSolver

from qpicross.exceptions import SamplerUnavailableError

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
        raise ValueError(f"unknown sampler {name!r}; known: {', '.join(SAMPLERS)}") from None
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
    """Sample a BQM in chunks of reads, passing only the parameters the sampler accepts.

    ``num_reads``, ``num_sweeps``, ``seed`` and ``beta_range`` are forwarded
    when the sampler lists them in its ``parameters``; so are extra keyword
    arguments (an unknown one is an error, as in dimod).

    Reads are drawn in chunks, one sampler call each, so that
    ``progress(done, total)`` can be called and a time budget kept:

    * without ``time_budget``, chunkable samplers run in ``chunks`` pieces
      (default: up to 10 pieces of at least 50 reads); the split depends only
      on ``num_reads`` and each chunk's seed is derived from ``seed``, so the
      same seed gives the same samples;
    * with ``time_budget`` (seconds), one read is drawn first to time it, then
      chunks of as many reads as the remaining budget allows; no chunk starts
      once the budget is spent (at least one read is always drawn);
    * with ``stop_at_energy``, no further call starts once a read has reached
      that energy (a user's "find me a solution" run; ``info["stopped_at_energy"]``
      says whether it did): samplers whose reads stop at a ``target_energy``
      themselves draw one read per call, others batches of 1, 2, 4, ... reads
      (at most :data:`FIND_BATCH`).

    Per-read lists in the chunks' ``info`` (e.g. ``sweeps``,
    ``time_to_target_s``) are joined in read order.

    Args:
        bqm: The model.
        sampler: A registry name or a :class:`dimod.Sampler`.
        num_reads: Number of reads (at most, with a budget).
        num_sweeps: Sweeps per read (SA).
        seed: Random seed, for reproducible runs.
        beta_range: ``(hot, cold)`` inverse temperatures (SA).
        progress: Called as ``progress(reads_done, num_reads, best_energy)`` after each chunk.
        chunks: Override the number of chunks (without a budget).
        time_budget: Seconds of sampling after which no further chunk starts (samplers that take a
            ``time_budget`` themselves, like the structured annealer, also stop the running read).
        stop_at_energy: Stop once a read reaches this energy.

    Returns:
        The samples, with ``info["timing"]["sample_s"]`` holding wall time
        and ``info["stopped_by_budget"]`` whether the budget cut the run short.
    """
    name = sampler if isinstance(sampler, str) else None
    if name is not None:
        sampler = get_sampler(name)
        chunkable = SAMPLERS[name].chunkable
    else:  # an instance is called once unless its reads are known to be independent restarts
        chunkable = independent_reads(sampler)
    wanted = {"num_reads": num_reads, "num_sweeps": num_sweeps, "seed": seed, "beta_range": beta_range}
    params = {k: v for k, v in wanted.items() if v is not None and k in sampler.parameters}
    params.update(kwargs)
    if "num_reads" not in sampler.parameters:
        chunkable = False  # one call decides how many samples come back

    # Looking for one solution: a sampler whose reads stop at the target themselves (the structured annealer)
    # draws one read a call; others draw batches that double, 1, 2, 4, ... up to FIND_BATCH reads, so that
    # neither a call per read nor all the reads at once is paid before the first solution.
    one_by_one = "target_energy" in sampler.parameters
    if time_budget is not None and chunkable:
        sizes = None  # decided as the budget is spent
    elif stop_at_energy is not None and chunkable:
        sizes = [1] * num_reads if one_by_one else _doubling(num_reads)
    else:
        if chunks is None:
            chunks = min(10, max(1, num_reads // 50)) if chunkable else 1
        sizes = [len(part) for part in np.array_split(np.arange(num_reads), chunks) if len(part)]
    seed_sequence = np.random.SeedSequence(seed) if seed is not None else None

    start = time.perf_counter()
    if progress is not None:
        progress(0, num_reads, math.inf)
    parts: list[dimod.SampleSet] = []
    done = 0
    stopped = reached = False
    best = math.inf
    interrupted = False
    try:
        while done < num_reads:
            if sizes is not None:
                if len(parts) == len(sizes):
                    break
                size = sizes[len(parts)]
            else:
                elapsed = time.perf_counter() - start
                if parts and elapsed >= time_budget:
                    stopped = True
                    break
                size = 1 if not parts else _reads_that_fit(time_budget - elapsed, elapsed / done, num_reads - done)
                if stop_at_energy is not None:
                    size = 1 if one_by_one else min(size, FIND_BATCH, 2 ** len(parts))
            chunk_params = dict(params)
            if "num_reads" in chunk_params:
                chunk_params["num_reads"] = size
            if "seed" in chunk_params and seed_sequence is not None and (sizes is None or len(sizes) > 1):
                chunk_params["seed"] = int(seed_sequence.spawn(1)[0].generate_state(1)[0] >> 1)
            if time_budget is not None and "time_budget" in sampler.parameters:  # the budget also ends a read
                chunk_params["time_budget"] = max(time_budget - (time.perf_counter() - start), 1e-3)
            if progress is not None and "progress" in sampler.parameters:  # in-read updates (structured annealer)
                chunk_params["progress"] = lambda sweeps, energy, done=done: progress(done, num_reads,
                                                                                      min(best, energy))
            parts.append(sampler.sample(bqm, **chunk_params))
            done += len(parts[-1]) if "num_reads" in sampler.parameters else size
            if len(parts[-1]):
                best = min(best, float(parts[-1].record.energy.min()))
            if progress is not None:
                progress(min(done, num_reads), num_reads, best)
            if stop_at_energy is not None and best <= stop_at_energy + 1e-9:
                reached = True
                break
            if parts[-1].info.get("interrupted"):  # Ctrl-C inside the sampler, which kept its reads
                raise KeyboardInterrupt
            if parts[-1].info.get("timed_out"):  # the budget ran out inside a read
                stopped = True
                break
            if len(parts[-1]) < size:  # the sampler returned fewer reads than asked (e.g. presolve settled all)
                break
            if parts[-1].info.get("presolve", {}).get("contradiction"):  # line logic proved there is no solution
                break
    except KeyboardInterrupt:  # keep what finished: the caller reports the best read so far
        if not parts:
            raise
        interrupted = True
    sampleset = parts[0] if len(parts) == 1 else dimod.concatenate(parts)
    if len(parts) > 1:
        sampleset.info.update(_join_info(parts))
    elapsed = time.perf_counter() - start
    timing = sampleset.info.get("timing")
    sampleset.info["timing"] = dict(timing) if isinstance(timing, dict) else {}
    sampleset.info["timing"]["sample_s"] = elapsed
    sampleset.info["stopped_by_budget"] = stopped
    sampleset.info["interrupted"] = interrupted
    if stop_at_energy is not None:
        sampleset.info["stopped_at_energy"] = reached
    return sampleset


#: Most reads one call draws when a run stops at the first solution (see :func:`sample`).
FIND_BATCH = 64


def _doubling(num_reads: int) -> list[int]:
    """Chunk sizes 1, 2, 4, ... (at most :data:`FIND_BATCH`) that add up to ``num_reads``.

    >>> _doubling(10), sum(_doubling(1000)), max(_doubling(1000))
    ([1, 2, 4, 3], 1000, 64)
    """
    sizes, size, total = [], 1, 0
    while total < num_reads:
        sizes.append(min(size, num_reads - total))
        total += sizes[-1]
        size = min(2 * size, FIND_BATCH)
    return sizes


def _reads_that_fit(seconds_left: float, per_read: float, reads_left: int) -> int:
    """How many reads the rest of a time budget allows (at least one, at most what is left).

    >>> _reads_that_fit(1.0, 0.25, 10), _reads_that_fit(1e308, 1e-9, 10), _reads_that_fit(0.0, 1.0, 10)
    (4, 10, 1)
    """
    if per_read <= 0:
        return reads_left
    fit = seconds_left / per_read  # may be inf for a budget near the float limit
    return reads_left if not fit < reads_left else max(1, int(fit))


#: Composites that work read by read, so their child's reads stay independent (chunkable).
_PER_READ_COMPOSITES = ("SteepestDescentComposite",)


def independent_reads(sampler: dimod.Sampler) -> bool:
    """Whether a sampler's reads are independent restarts, so that a run may be split into chunks of reads:
    its ``properties["independent_reads"]`` (the block-shift and peer samplers, and composites that keep it),
    or dwave-samplers' simulated annealing and tabu search (also under a steepest-descent composite).

    >>> from qpicross.samplers.blockshift import BatchedShiftSampler, BlockShiftSampler
    >>> independent_reads(BlockShiftSampler()), independent_reads(BatchedShiftSampler())
    (True, False)
    """
    while isinstance(sampler, dimod.Composite) and type(sampler).__name__ in _PER_READ_COMPOSITES:
        sampler = sampler.child
    if sampler.properties.get("independent_reads"):
        return True
    from dwave.samplers import SimulatedAnnealingSampler, TabuSampler

    return isinstance(sampler, (SimulatedAnnealingSampler, TabuSampler))


def _join_info(parts: list[dimod.SampleSet]) -> dict:
    """Per-read lists of every chunk joined in order; other entries from the first chunk."""
    info = dict(parts[0].info)
    for key, value in parts[0].info.items():
        if isinstance(value, list) and all(isinstance(p.info.get(key), list) and len(p.info[key]) == len(p)
                                           for p in parts):
            info[key] = [item for p in parts for item in p.info[key]]
        elif isinstance(value, dict) and key == "timing":
            info[key] = {k: sum(p.info.get(key, {}).get(k, 0.0) for p in parts) for k in value
                         if all(isinstance(p.info.get(key, {}).get(k), (int, float)) for p in parts)}
    return info
