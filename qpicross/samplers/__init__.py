"""Samplers: a registry by name, the package's structured annealer, exact and cloud samplers.

* :mod:`qpicross.samplers.registry` -- :data:`SAMPLERS`, :func:`get_sampler`, :func:`sample`;
* :mod:`qpicross.samplers.blockshift.sampler` -- :class:`BlockShiftSampler`, the constraint-preserving annealer;
* :mod:`qpicross.samplers.parameters` -- every registered sampler's parameters with a declared type
  and range, checked before any work;
* :mod:`qpicross.samplers.exact` -- :class:`GroundStateExactSolver` (small models only);
* :mod:`qpicross.samplers.cloud` -- D-Wave Leap and Fixstars Amplify AE (:mod:`qpicross.samplers.amplify`),
  registered here without importing their SDKs;
* :mod:`qpicross.samplers.peers` -- other libraries' generic annealers (OpenJij SA/SQA, simulated
  bifurcation, steepest descent, dwave-hybrid PT/PA), registered here the same way;
* :mod:`qpicross.samplers.workers` -- many tasks on local processes or a Dask cluster (the restart streams of
  ``--scheduler``, and the benchmarks' and tuning sweeps' puzzles).

Examples:
    >>> from qpicross.samplers import SAMPLERS
    >>> {"sa", "shift", "exact", "qpu"} <= set(SAMPLERS)
    True
"""

from qpicross.samplers.cloud import register_cloud_samplers
from qpicross.samplers.exact import EXACT_MAX_VARIABLES, GroundStateExactSolver
from qpicross.samplers.peers import register_peer_samplers
from qpicross.samplers.registry import (
    SAMPLERS,
    SamplerEntry,
    SamplerUnavailableError,
    get_sampler,
    is_batched,
    register_sampler,
    sample,
    sampler_property,
    takes_threads,
    with_streams,
)
from qpicross.samplers.blockshift import BlockShiftSampler
from qpicross.samplers.streams import StreamsComposite

__all__ = [
    "SAMPLERS",
    "SamplerEntry",
    "takes_threads",
    "is_batched",
    "sampler_property",
    "SamplerUnavailableError",
    "get_sampler",
    "register_sampler",
    "sample",
    "GroundStateExactSolver",
    "EXACT_MAX_VARIABLES",
    "BlockShiftSampler",
    "StreamsComposite",
    "with_streams",
]

register_cloud_samplers()
register_peer_samplers()
