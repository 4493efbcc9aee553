"""A registry of named samplers and one way to call any of them.

Built in:

* ``sa`` -- :class:`dwave.samplers.SimulatedAnnealingSampler` (the default;
  ``dwave-neal`` is now a deprecated shim around this same sampler);
* ``tabu`` -- :class:`dwave.samplers.TabuSampler`;
* ``shift`` -- :class:`qpicross.samplers.blockshift.sampler.BlockShiftSampler`, which keeps every
  block one-hot and anneals by shifting block starts;
* ``shift-batched`` -- :class:`qpicross.samplers.blockshift.batched.BatchedShiftSampler`, the same moves on
  thousands of chains of many puzzles at once on a CUDA GPU (the ``gpu`` extra), one restart stream per
  ladder (a ``shift`` read races one per core); by default a puzzle's ladders all stop when one reaches the
  target (``early_stop="puzzle"``), so a success probability wants ``early_stop="read"``;
  ``shift-batched-cpu`` runs its kernels on the CPU. Both are ``batched`` (their ``properties``
  say so): benchmarks hand them all their puzzles in one call
  (:func:`qpicross.samplers.blockshift.batched.sample_many`);
* ``exact`` -- :class:`dimod.ExactSolver` behind a size guard: it enumerates
  all :math:`2^n` assignments, so it refuses more than
  :data:`EXACT_MAX_VARIABLES` variables, and returns the ground states.

The cloud annealers (:mod:`qpicross.samplers.cloud`) are registered by the
package's ``__init__``; other packages add theirs with :func:`register_sampler`. Any :class:`dimod.Sampler` instance can also be
passed directly wherever a sampler name is accepted.

What a sampler can do is read from its ``properties`` (:func:`sampler_property`), as dimod's
samplers say it: ``"independent_reads"`` (its reads are independent restarts, so a run may be
drawn in calls of a few reads: :func:`~qpicross.samplers.reads.independent_reads`), ``"threaded"``
(it takes ``threads``, the CPUs one call may use) and ``"batched"`` (it has ``sample_many``, many
models in one call).

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

from qpicross.exceptions import ParameterError, QpicrossError, SamplerUnavailableError, import_extra
from qpicross.names import MAX_READS
from qpicross.samplers.parameters import MAX_SWEEPS, check_beta_range, integer
from qpicross.samplers.control import ProgressHook
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
    "is_batched",
    "sampler_property",
    "independent_reads",
    "import_extra",
    "with_streams",
]


@dataclasses.dataclass(frozen=True)
class SamplerEntry:
    """A named way to make a sampler: what it can do is in the sampler's ``properties``
    (:func:`sampler_property`), not here."""

    factory: Callable[..., dimod.Sampler]
    description: str


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
    "sa": SamplerEntry(_sa, "simulated annealing (dwave-samplers)"),
    "tabu": SamplerEntry(_tabu, "tabu search (dwave-samplers)"),
    "shift": SamplerEntry(_shift, "one-hot-preserving block-shift annealing / tempering (qpicross.samplers.blockshift.sampler)"),
    "shift-batched": SamplerEntry(_shift_batched, "batched block-shift tempering on a CUDA GPU, many puzzles per launch "
                              "(qpicross.samplers.blockshift.batched; the 'gpu' extra)"),
    "shift-batched-cpu": SamplerEntry(functools.partial(_shift_batched, "cpu"),
                                      "the shift-batched kernels on the CPU (numba prange)"),
    "exact": SamplerEntry(GroundStateExactSolver, f"exhaustive ground states (<= {EXACT_MAX_VARIABLES} variables)"),
}


def register_sampler(name: str, factory: Callable[..., dimod.Sampler], description: str) -> None:
    """Make a sampler available by name (to :func:`sample` and the command line); what it can do is
    read from its ``properties`` (:func:`sampler_property`).

    Args:
        name: The name (a non-empty text).
        factory: Called with no arguments (or a sampler's options) to make the sampler.
        description: One line for ``qpicross info`` and the docs.
    """
    if not isinstance(name, str) or not name.strip():
        raise ParameterError(f"name must be a non-empty text, got {name!r}")
    if not callable(factory):
        raise ParameterError(f"factory must be a function that makes the sampler, got {type(factory).__name__}")
    if not isinstance(description, str):
        raise ParameterError(f"description must be a text, got {type(description).__name__}")
    SAMPLERS[name] = SamplerEntry(factory, description)


def sampler_property(sampler: str | dimod.Sampler, name: str, default=None):
    """``properties[name]`` of a sampler (a registry name or an instance), looked up through the
    ``child_properties`` of composites; ``default`` where none says (or a registered sampler cannot be made here).

    >>> sampler_property("shift", "threaded"), sampler_property("shift-batched-cpu", "batched")
    (True, True)
    >>> sampler_property("sa", "batched", False)
    False
    """
    if isinstance(sampler, str):
        if sampler not in SAMPLERS:
            return default
        try:
            sampler = get_sampler(sampler)
        except QpicrossError:  # an extra that is not installed: it can do nothing here
            return default
    properties = sampler.properties
    while name not in properties and isinstance(properties.get("child_properties"), dict):
        properties = properties["child_properties"]
    return properties.get(name, default)


def takes_threads(sampler: str | dimod.Sampler) -> bool:
    """Whether a sampler (a registry name or an instance) takes ``threads``, the CPUs one call may use:
    its ``properties["threaded"]``.

    >>> takes_threads("shift"), takes_threads("sa")
    (True, False)
    >>> from qpicross.classical.presolve import PresolveComposite
    >>> from qpicross.samplers.blockshift.sampler import BlockShiftSampler
    >>> takes_threads(PresolveComposite(BlockShiftSampler()))
    True
    """
    return bool(sampler_property(sampler, "threaded", False))


def is_batched(sampler: str | dimod.Sampler) -> bool:
    """Whether a sampler samples many models in one call (``sample_many``): its ``properties["batched"]``.

    >>> is_batched("shift-batched"), is_batched("shift")
    (True, False)
    """
    return bool(sampler_property(sampler, "batched", False))


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


def with_streams(sampler: dimod.Sampler, options: dict) -> dimod.Sampler:
    """``sampler``, or, where ``options`` hold a ``scheduler`` (``--scheduler``), taken out of them, the
    :class:`~qpicross.samplers.streams.StreamsComposite` that runs each of its reads as restart streams on that Dask
    cluster: the one place a sampler is given a cluster (the sampler never composes itself).

    >>> from qpicross.samplers.blockshift import BlockShiftSampler
    >>> options = {"scheduler": "local:2", "num_replicas": 4}
    >>> type(with_streams(BlockShiftSampler(), options)).__name__, options
    ('StreamsComposite', {'num_replicas': 4})
    """
    scheduler = options.pop("scheduler", None)
    if scheduler is None:
        return sampler
    from qpicross.samplers.streams import StreamsComposite

    return StreamsComposite(sampler, scheduler)


def sample(
    bqm: dimod.BinaryQuadraticModel,
    sampler: str | dimod.Sampler = "sa",
    *,
    num_reads: int = 100,
    num_sweeps: int | None = None,
    seed: int | None = None,
    beta_range: tuple[float, float] | None = None,
    progress: ProgressHook | None = None,
    chunks: int | None = None,
    time_limit: float | None = None,
    target_energy: float | None = None,
    early_stop: str | None = None,
    **kwargs,
) -> dimod.SampleSet:
    """Sample a BQM with any sampler, passing only the parameters the sampler accepts.

    ``num_reads``, ``num_sweeps``, ``seed`` and ``beta_range`` are forwarded when the sampler lists
    them in its ``parameters``; so are extra keyword arguments (one the sampler does not take is an error here,
    where a dimod sampler called directly warns and drops it, :class:`dimod.exceptions.SamplerUnknownArgWarning`). The run goes through :class:`~qpicross.samplers.reads.ReadsComposite`, which draws the
    reads in calls of a few reads each where they are independent restarts
    (:func:`~qpicross.samplers.reads.independent_reads`, from the sampler's ``properties``), for the
    run control of :mod:`qpicross.samplers.control`: progress, the time limit, the stop at the target
    energy and Ctrl-C.

    Args:
        bqm: The model.
        sampler: A registry name or a :class:`dimod.Sampler`.
        num_reads: Number of reads (at most, with a time limit or an early stop).
        num_sweeps: Sweeps per read (SA).
        seed: Random seed, for reproducible runs.
        beta_range: ``(hot, cold)`` inverse temperatures (SA).
        progress: Called as ``progress(reads_done, num_reads, best_energy)`` before the first call and after each.
        chunks: Override the number of calls (without a time limit).
        time_limit: Seconds of sampling after which no further call starts (samplers that take a
            ``time_limit`` themselves, like the block-shift annealer, also stop the running read).
        target_energy: The energy that counts as solved (passed to samplers that take it).
        early_stop: ``"puzzle"``: no further call once a read reaches ``target_energy``; ``"read"`` or
            ``"none"``: for samplers that take it (:data:`~qpicross.samplers.control.EARLY_STOP`).

    Returns:
        The samples, with ``info["timing"]["sample_s"]`` holding wall time
        and ``info["timed_out"]`` whether the time limit cut the run short.
    """
    if not isinstance(bqm, dimod.BinaryQuadraticModel):
        raise ParameterError(f"bqm must be a dimod.BinaryQuadraticModel, got {type(bqm).__name__}")
    integer(1, MAX_READS).check("num_reads", num_reads)
    integer(0, 2**32 - 1, none=True).check("seed", seed)  # the range every seeded sampler here takes
    integer(1, MAX_SWEEPS, none=True).check("num_sweeps", num_sweeps)
    if beta_range is not None:
        check_beta_range(beta_range)
    if isinstance(sampler, str):
        sampler = get_sampler(sampler)
    elif not isinstance(sampler, dimod.Sampler):
        raise ParameterError(f"sampler must be a name or a dimod.Sampler, got {type(sampler).__name__}")
    sampler = with_streams(sampler, kwargs)
    unknown = sorted(set(kwargs) - set(sampler.parameters))
    if unknown:  # dimod only warns and drops them: a misspelt option would change nothing, silently
        raise ParameterError(f"{type(sampler).__name__} takes no parameter {unknown[0]!r}; it takes: "
                             f"{', '.join(sorted(sampler.parameters)) or 'none'}")
    wanted = {"num_sweeps": num_sweeps, "beta_range": beta_range}
    params = {k: v for k, v in wanted.items() if v is not None and k in sampler.parameters}
    params.update(kwargs)
    try:
        return ReadsComposite(sampler).sample(
            bqm, num_reads=num_reads, seed=seed, progress=progress, chunks=chunks, time_limit=time_limit,
            target_energy=target_energy, early_stop=early_stop, **params)
    except ValueError as exc:  # another package's sampler refusing a value it was given (qpicross's raise typed errors)
        if isinstance(exc, QpicrossError) or type(sampler).__module__.startswith("qpicross"):
            raise
        raise ParameterError(f"{type(sampler).__name__} refused the run: {exc}") from exc
