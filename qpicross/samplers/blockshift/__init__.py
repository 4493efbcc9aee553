"""The block-shift annealer: one algorithm, one subpackage, every backend.

* :mod:`~qpicross.samplers.blockshift.sampler` -- :class:`BlockShiftSampler`, the CPU sampler
  (``shift``): restart streams on threads, the profile chain by default;
* :mod:`~qpicross.samplers.blockshift.batched` -- :class:`BatchedShiftSampler` (``shift-batched``):
  many ladders of many puzzles in one launch, on a CUDA GPU or on the CPU;
* :mod:`~qpicross.samplers.blockshift.restarts` -- the Luby restart plan and the restart streams;
* the kernels: :mod:`~qpicross.samplers.blockshift.profile` (the profile chain), :mod:`~.board`
  (the joint chain on the board), :mod:`~.population` (population annealing), :mod:`~.bqm_chain`
  (the batched chain on any one-hot BQM), :mod:`~.launch` and :mod:`~.cuda` (the batched drivers).

Examples:
    >>> from qpicross.samplers.blockshift import BlockShiftSampler
    >>> "threads" in BlockShiftSampler().parameters
    True
"""

from qpicross.samplers.blockshift.batched import BatchedShiftSampler, cuda_available, sample_many
from qpicross.samplers.blockshift.restarts import default_threads, luby, restart_plan
from qpicross.samplers.blockshift.sampler import BlockShiftSampler, default_beta_range, infer_groups, infer_lines

__all__ = ["BlockShiftSampler", "BatchedShiftSampler", "sample_many", "cuda_available", "default_threads", "luby",
           "restart_plan", "default_beta_range", "infer_groups", "infer_lines"]
