"""The CUDA kernels of :mod:`qpicross.samplers.blockshift.batched`.

Imported only when the CUDA backend runs (it imports :mod:`numba.cuda`). The
device functions are those of :mod:`qpicross.samplers.blockshift.moves` and
:mod:`qpicross.samplers.blockshift.ladder_kernel` (the profile chain: :func:`ladder_kernel`, one thread per
ladder) and
:mod:`qpicross.samplers.blockshift.bqm_chain` (any one-hot BQM: :func:`init_kernel`
and :func:`sweep_kernel`, one thread per chain), each loaded a second time with
``device_jit = numba.cuda.jit(device=True)``, so the kernels run exactly the
code of the CPU backends.
"""

from __future__ import annotations

import importlib.util
import warnings

from numba import config, cuda

from qpicross.samplers.blockshift import bqm_chain as _chain, ladder_kernel as _ladder_kernel, moves as _moves


def _device_copy(source, **names):
    """A second copy of module ``source`` whose ``device_jit`` functions are CUDA device functions (``names``:
    globals it is given before it runs, such as the CUDA copy of another module it calls)."""
    spec = importlib.util.spec_from_file_location(source.__name__ + "_cuda", source.__file__)
    module = importlib.util.module_from_spec(spec)
    module.device_jit = cuda.jit(device=True)
    for name, value in names.items():
        setattr(module, name, value)
    spec.loader.exec_module(module)
    return module


if config.ENABLE_CUDASIM:  # the simulator runs the kernels on numpy scalars: the generator's product wraps by design
    warnings.filterwarnings("ignore", "overflow encountered in scalar multiply", RuntimeWarning)
_moves_device = _device_copy(_moves)
_device = _device_copy(_chain, _moves=_moves_device)
_ladder_device = _device_copy(_ladder_kernel, _moves=_moves_device)
d_ladder_run = _ladder_device.ladder_run
d_ladder_close = _ladder_device.ladder_close
d_init_chain = _device.init_chain
d_chain_sweep = _device.chain_sweep
d_ladder_update = _device.ladder_update
d_chain_beta = _device.chain_beta


@cuda.jit
def init_kernel(num_chains, R, restrict, stop_at_hit, var_off, linear, adj_ptr, adj_idx, adj_val, group_off,
                group_ptr, group_vars, free, has_prev, has_next, next_limit, line_off, line_span, inner, betas, hot,
                cold, target, scratch, chain_puzzle, x_off, cur_off, x, field, current, energy, rng, temp_of, weight,
                prefix, chosen, ladder_puzzle, chain_at, ladder_rng, best_x, best_off, best_energy, hit_sweep,
                ladder_done, sweeps_done, puzzle_active):
    c = cuda.grid(1)
    active = c < num_chains
    l = c // R
    if active:
        d_init_chain(c, chain_puzzle[c], restrict, x, field, current, energy, rng, var_off, x_off, cur_off,
                     scratch, linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars, free,
                     next_limit, line_off, line_span, inner, weight, prefix, chosen)
    cuda.syncthreads()
    if active and c - l * R == 0:
        d_ladder_update(l, chain_puzzle[c], 0, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off,
                        best_energy, target, hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at,
                        ladder_rng)


@cuda.jit
def sweep_kernel(num_chains, s0, k, R, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves, var_off,
                 linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars, free, has_prev, has_next,
                 next_limit, line_off, line_span, inner, betas, hot, cold, target, scratch, chain_puzzle, x_off,
                 cur_off, x, field, current, energy, rng, temp_of, weight, prefix, chosen, ladder_puzzle, chain_at,
                 ladder_rng, best_x, best_off, best_energy, hit_sweep, ladder_done, sweeps_done, puzzle_active):
    # Every thread of a block runs every iteration, so that all reach each syncthreads; a ladder's
    # chains are consecutive threads of one block (the block size is a multiple of R).
    c = cuda.grid(1)
    active = c < num_chains
    l = c // R
    p = chain_puzzle[c] if active else 0
    for s in range(s0, s0 + k):
        go = False
        if active:
            go = ladder_done[l] == 0 and puzzle_active[p] != 0
        if go:
            beta = d_chain_beta(c, p, s, R, num_sweeps, betas, hot, cold, temp_of)
            d_chain_sweep(c, p, beta, restrict, shift_probability, line_moves, x, field, current, energy, rng,
                          var_off, x_off, cur_off, scratch, adj_ptr, adj_idx, adj_val, group_off, group_ptr,
                          group_vars, free, has_prev, has_next, next_limit, line_off, line_span, inner, weight,
                          prefix, chosen)
        cuda.syncthreads()
        if go and c - l * R == 0:
            d_ladder_update(l, p, s + 1, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off,
                            best_energy, target, hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at,
                            ladder_rng)
        cuda.syncthreads()


@cuda.jit
def ladder_kernel(count, unit, budget, line_moves, stop_at_hit, pz, ld):
    """Up to ``count`` sweeps of every ladder of the profile chain, one thread each
    (:func:`~qpicross.samplers.blockshift.ladder_kernel.ladder_run`)."""
    l = cuda.grid(1)
    if l < len(ld.puzzle):
        d_ladder_run(l, count, unit, budget, line_moves, stop_at_hit, pz, ld)


@cuda.jit
def close_kernel(pz, ld):
    """Every ladder's current restart counted in (:func:`~qpicross.samplers.blockshift.ladder_kernel.ladder_close`)."""
    l = cuda.grid(1)
    if l < len(ld.puzzle):
        d_ladder_close(l, pz, ld)
