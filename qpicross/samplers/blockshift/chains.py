"""The block-shift chains compiled for the CPU: one :func:`~.compile_targets.build` of the engine per chain.

* :data:`PROFILE` -- the profile chain (:mod:`~.profile`), also its population annealing
  (:func:`~.population.population_read`);
* :data:`BOARD` -- the joint chain on a Picross BQM's boards (:mod:`~.board`);
* :data:`FIELDS` -- the joint chain (:mod:`~.joint`) on any one-hot BQM's local fields (:mod:`~.fields`).

Each is a namespace of kernels; ``read`` runs one restart in one call
(:func:`~qpicross.samplers.blockshift.engine.read`), ``restart_begin`` / ``restart_sweeps`` run it in
pieces (the batched driver, :mod:`~.driver`). The CUDA builds are made in :mod:`~.driver` when a GPU
runs.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> from qpicross.samplers.blockshift.board import board_model, board_work
    >>> from qpicross.samplers.blockshift.layouts import Signals, make_params
    >>> from qpicross.samplers.blockshift.structure import read_structure
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> bqm = f.bqm()
    >>> variables = list(bqm.variables)
    >>> model, couplings = read_structure(bqm, variables, f.one_hot_lines())
    >>> arrays, w, constant = board_model(variables, f.paints(), model, couplings)
    >>> out, status = np.zeros(len(variables), np.int8), np.zeros(2)
    >>> betas = np.geomspace(2.0, 5.0, 4)
    >>> target = 0.0 - bqm.offset  # the kernels' energies leave the offset out
    >>> params = make_params((0.5, 1.0, False), False, target, w, constant)  # moves, return_last, target, scale
    >>> BOARD.read(out, 1, betas, 500, params, board_work(4, model, arrays), (model, arrays, w),
    ...            Signals(np.zeros(1, np.int8), status))[1] >= 0  # reached the ground state
    True
    >>> float(bqm.energy(dict(zip(variables, out))))
    0.0
"""

from __future__ import annotations

import numpy as np  # noqa: F401 - the examples use it

from qpicross.samplers.blockshift import population as _population  # noqa: F401 - its kernels join the builds
from qpicross.samplers.blockshift.board import BOARD as _BOARD
from qpicross.samplers.blockshift.fields import FIELDS as _FIELDS
from qpicross.samplers.blockshift.profile import PROFILE as _PROFILE
from qpicross.samplers.blockshift.compile_targets import build, cached

__all__ = ["PROFILE", "BOARD", "FIELDS", "compiled"]

PROFILE = build("cpu", _PROFILE)
BOARD = build("cpu", _BOARD)
FIELDS = build("cpu", _FIELDS)


def compiled() -> bool:
    """Whether the default chain's read (:data:`PROFILE`'s, with every kernel it calls) is in numba's on-disk
    cache (:func:`~.compile_targets.cached`): if not, the first read of this process compiles it, about 20 s."""
    return cached(PROFILE.read)
