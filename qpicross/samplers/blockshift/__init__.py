"""The block-shift annealer: one engine, two chains, every backend.

* :mod:`~qpicross.samplers.blockshift.sampler` -- :class:`BlockShiftSampler` (``shift``): reads of
  restart streams on threads (:mod:`~.restarts`), or on processes or a Dask cluster
  (:mod:`qpicross.samplers.streams`, around the sampler);
* :mod:`~qpicross.samplers.blockshift.batched` -- :class:`BatchedShiftSampler` (``shift-batched``):
  many ladders of many puzzles in one launch, on a CUDA GPU or on the CPU (:mod:`~.driver`);
* the engine, written once: :mod:`~.layouts` (every kernel's data), :mod:`~.engine` (random streams,
  proposals, line draws, replica exchange, the restart), the chains :mod:`~.profile` (rows sampled,
  columns minimised out) and :mod:`~.joint` (every line sampled, on the local fields of :mod:`~.fields` or on
  the board of :mod:`~.board`), population annealing (:mod:`~.population`), compiled for each chain and target by
  :func:`~.compile_targets.build` (:mod:`~.chains`: the CPU builds).

Examples:
    >>> from qpicross.samplers.blockshift import BlockShiftSampler
    >>> "threads" in BlockShiftSampler().parameters
    True
"""

from qpicross.samplers.blockshift.batched import BatchedShiftSampler, cuda_available, sample_many
from qpicross.samplers.blockshift.plans import luby, restart_plan
from qpicross.samplers.blockshift.restarts import default_threads
from qpicross.samplers.blockshift.sampler import BlockShiftSampler, default_beta_range, infer_groups, infer_lines

__all__ = ["BlockShiftSampler", "BatchedShiftSampler", "sample_many", "cuda_available", "default_threads", "luby",
           "restart_plan", "default_beta_range", "infer_groups", "infer_lines"]
