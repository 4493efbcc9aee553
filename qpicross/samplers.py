"""The sampler layer: a registry of named samplers and one way to call any of them.

Built in:

* ``sa`` -- :class:`dwave.samplers.SimulatedAnnealingSampler` (the default;
  ``dwave-neal`` is now a deprecated shim around this same sampler);
* ``tabu`` -- :class:`dwave.samplers.TabuSampler`;
* ``shift`` -- :class:`qpicross.structured.BlockShiftSampler`, which keeps every
  block one-hot and anneals by shifting block starts;
* ``exact`` -- :class:`dimod.ExactSolver` behind a size guard: it enumerates
  all :math:`2^n` assignments, so it refuses more than
  :data:`EXACT_MAX_VARIABLES` variables, and returns the ground states.

Other packages (or later modules, e.g. cloud annealers) add theirs with
:func:`register_sampler`. Any :class:`dimod.Sampler` instance can also be
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
import time
from collections.abc import Callable

import dimod
import numpy as np

__all__ = [
    "SAMPLERS",
    "SamplerEntry",
    "register_sampler",
    "get_sampler",
    "sample",
    "GroundStateExactSolver",
    "EXACT_MAX_VARIABLES",
    "SamplerUnavailableError",
]

#: The largest BQM the ``exact`` sampler agrees to enumerate.
EXACT_MAX_VARIABLES = 25


class SamplerUnavailableError(RuntimeError):
    """A registered sampler that cannot run here (missing extra, no credentials...)."""


class GroundStateExactSolver(dimod.Sampler):
    """:class:`dimod.ExactSolver` that refuses large models and returns only the ground states.

    Args:
        max_variables: Refuse BQMs with more variables than this.
    """

    def __init__(self, max_variables: int = EXACT_MAX_VARIABLES):
        self.max_variables = max_variables

    @property
    def parameters(self) -> dict:
        return {}

    @property
    def properties(self) -> dict:
        return {"max_variables": self.max_variables}

    def sample(self, bqm: dimod.BinaryQuadraticModel, **kwargs) -> dimod.SampleSet:
        if bqm.num_variables > self.max_variables:
            raise ValueError(
                f"the exact sampler enumerates 2^n assignments and refuses n = {bqm.num_variables} "
                f"> {self.max_variables} variables; use 'sa' or 'tabu'"
            )
        return dimod.ExactSolver().sample(bqm).lowest()


@dataclasses.dataclass(frozen=True)
class SamplerEntry:
    """A named way to make a sampler.

    ``chunkable`` samplers draw independent reads, so a run can be split into
    chunks to show progress.
    """

    factory: Callable[..., dimod.Sampler]
    description: str
    chunkable: bool = False


def _sa():
    from dwave.samplers import SimulatedAnnealingSampler

    return SimulatedAnnealingSampler()


def _shift():
    from .structured import BlockShiftSampler

    return BlockShiftSampler()


def _tabu():
    from dwave.samplers import TabuSampler

    return TabuSampler()


#: Samplers by name.
SAMPLERS: dict[str, SamplerEntry] = {
    "sa": SamplerEntry(_sa, "simulated annealing (dwave-samplers)", chunkable=True),
    "tabu": SamplerEntry(_tabu, "tabu search (dwave-samplers)", chunkable=True),
    "shift": SamplerEntry(_shift, "one-hot-preserving block-shift annealing / tempering (qpicross.structured)",
                          chunkable=True),
    "exact": SamplerEntry(GroundStateExactSolver, f"exhaustive ground states (<= {EXACT_MAX_VARIABLES} variables)"),
}


def register_sampler(name: str, factory: Callable[..., dimod.Sampler], description: str, *, chunkable: bool = False) -> None:
    """Make a sampler available by name (to :func:`sample` and the command line)."""
    SAMPLERS[name] = SamplerEntry(factory, description, chunkable)


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
    progress: Callable[[int, int], None] | None = None,
    chunks: int | None = None,
    **kwargs,
) -> dimod.SampleSet:
    """Sample a BQM, passing only the parameters the sampler accepts.

    ``num_reads``, ``num_sweeps``, ``seed`` and ``beta_range`` are forwarded
    when the sampler lists them in its ``parameters``; so are extra keyword
    arguments (an unknown one is an error, as in dimod).

    Chunkable samplers are run in ``chunks`` pieces (default: up to 10 pieces
    of at least 50 reads) so that ``progress(done, total)`` can be called; the
    split depends only on ``num_reads``, and each chunk's seed is derived from
    ``seed``, so the same seed gives the same samples.

    Args:
        bqm: The model.
        sampler: A registry name or a :class:`dimod.Sampler`.
        num_reads: Number of reads.
        num_sweeps: Sweeps per read (SA).
        seed: Random seed, for reproducible runs.
        beta_range: ``(hot, cold)`` inverse temperatures (SA).
        progress: Called as ``progress(reads_done, num_reads)``.
        chunks: Override the number of chunks.

    Returns:
        The samples, with ``info["timing"]["sample_s"]`` holding wall time.
    """
    name = sampler if isinstance(sampler, str) else None
    chunkable = name is not None and SAMPLERS.get(name, SamplerEntry(object, "")).chunkable
    if name is not None:
        sampler = get_sampler(name)
    wanted = {"num_reads": num_reads, "num_sweeps": num_sweeps, "seed": seed, "beta_range": beta_range}
    params = {k: v for k, v in wanted.items() if v is not None and k in sampler.parameters}
    params.update(kwargs)

    if chunks is None:
        chunks = min(10, max(1, num_reads // 50)) if chunkable else 1
    sizes = [len(part) for part in np.array_split(np.arange(num_reads), chunks) if len(part)]
    seeds: list[int | None] = [seed] * len(sizes)
    if seed is not None and len(sizes) > 1:
        seeds = [int(s.generate_state(1)[0] >> 1) for s in np.random.SeedSequence(seed).spawn(len(sizes))]

    start = time.perf_counter()
    parts = []
    done = 0
    for size, chunk_seed in zip(sizes, seeds):
        chunk_params = dict(params)
        if "num_reads" in chunk_params:
            chunk_params["num_reads"] = size
        if "seed" in chunk_params:
            chunk_params["seed"] = chunk_seed
        parts.append(sampler.sample(bqm, **chunk_params))
        done += size
        if progress is not None:
            progress(done, num_reads)
    sampleset = parts[0] if len(parts) == 1 else dimod.concatenate(parts)
    elapsed = time.perf_counter() - start
    sampleset.info.setdefault("timing", {})
    if isinstance(sampleset.info["timing"], dict):
        sampleset.info["timing"]["sample_s"] = elapsed
    return sampleset


# Cloud annealers (qpu, hybrid, hybrid-cqm, amplify) register here; their SDKs load only when they sample.
from .cloud import register_cloud_samplers  # noqa: E402

register_cloud_samplers()
