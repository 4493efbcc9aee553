"""One launch of :mod:`qpicross.samplers.blockshift.batched`: models flattened into device arrays, and the drivers that sweep them.

* :func:`prepare` flattens one model (its BQM's couplings as CSR, its one-hot
  groups and lines, and the line structure of
  :func:`qpicross.samplers.blockshift.structure._structure`), :func:`pack` concatenates
  the models of a launch and lays out every chain's and ladder's state (names
  as in :mod:`qpicross.samplers.blockshift.bqm_chain`);
* :func:`run` launches sweeps until every model has stopped, on one of two
  drivers over the same device functions: :class:`CPU` (a ``numba.prange``
  over ladders) or :class:`CUDA` (the kernels of :mod:`qpicross.samplers.blockshift.cuda`,
  one thread per chain).
"""

from __future__ import annotations

import dataclasses
import math
import time
import warnings

import dimod
import numba
import numpy as np

from qpicross.samplers.blockshift.bqm_chain import chain_beta, chain_sweep, init_chain, ladder_update
from qpicross.samplers.blockshift.structure import default_beta_range, infer_lines, read_structure


@dataclasses.dataclass
class Model:
    """One model, flattened: its variables, couplings, one-hot groups and lines."""

    bqm: dimod.BinaryQuadraticModel
    variables: list
    n: int
    linear: np.ndarray
    adj_ptr: np.ndarray
    adj_idx: np.ndarray
    adj_val: np.ndarray
    group_ptr: np.ndarray
    group_vars: np.ndarray
    free: np.ndarray
    next_limit: np.ndarray
    has_prev: np.ndarray
    has_next: np.ndarray
    line_ptr: np.ndarray
    inner: np.ndarray
    betas: np.ndarray
    hot: float
    cold: float
    target: float


def prepare(model, lines, beta_range, target_energy, num_replicas: int) -> Model:
    """One model (a BQM or a formulation) flattened; ``lines`` None: from the formulation or the labels."""
    if isinstance(model, dimod.BinaryQuadraticModel):
        bqm = model
    elif hasattr(model, "one_hot_lines") and hasattr(model, "bqm"):  # a PicrossFormulation
        bqm = model.bqm()
        lines = model.one_hot_lines() if lines is None else lines
    else:
        raise ValueError(f"models must be BQMs or formulations, got {type(model).__name__}")
    binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
    variables = list(binary.variables)
    n = len(variables)
    if beta_range is None:
        beta_range = default_beta_range(binary) if n else (1.0, 1.0)
    hot, cold = (float(b) for b in beta_range)
    if not (hot > 0 and cold > 0 and math.isfinite(hot) and math.isfinite(cold)):
        raise ValueError(f"beta_range must be positive, got {beta_range}")
    if lines is None:
        lines = infer_lines(variables)
        if not lines and n:
            warnings.warn("shift-batched found no one-hot groups in the BQM's labels and falls back to single flips; "
                          "pass lines= (e.g. formulation.one_hot_lines()) or groups= to supply the structure",
                          UserWarning, stacklevel=3)
    s, _ = read_structure(binary, variables, lines)
    target = -math.inf if target_energy is None else float(target_energy) - float(binary.offset)
    betas = np.geomspace(hot, cold, num_replicas) if num_replicas > 1 else np.array([hot])
    return Model(bqm, variables, n, s.linear, s.adj_ptr, s.adj_idx, s.adj_val, s.group_ptr, s.group_vars, s.free,
                 s.next_limit, s.has_prev, s.has_next, s.chain_ptr, s.inner, betas, hot, cold, target)


# -- one launch: every model's arrays concatenated --------------------------------------------------------------------


def _offsets(sizes) -> np.ndarray:
    return np.r_[0, np.cumsum(np.asarray(sizes, np.int64))].astype(np.int64)


def pack(models: list[Model], seeds, num_reads: int, R: int) -> dict[str, np.ndarray]:
    """The launch's arrays (names as in :mod:`qpicross.samplers.blockshift.bqm_chain`)."""
    P = len(models)
    n = np.array([m.n for m in models], np.int64)
    num_groups = np.array([len(m.group_ptr) - 1 for m in models], np.int64)
    num_lines = np.array([len(m.line_ptr) - 1 for m in models], np.int64)
    var_off, group_off, line_off = _offsets(n), _offsets(num_groups), _offsets(num_lines)
    edge_off = _offsets([len(m.adj_idx) for m in models])
    member_off = _offsets([len(m.group_vars) for m in models])
    cat = (lambda parts, dtype: np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype))
    adj_ptr = cat([m.adj_ptr[:-1] + edge_off[i] for i, m in enumerate(models)] + [edge_off[-1:]], np.int64)
    group_ptr = cat([m.group_ptr[:-1] + member_off[i] for i, m in enumerate(models)] + [member_off[-1:]], np.int64)
    # each line's first and end group (a model's free groups follow its last line: no shared CSR end)
    line_span = np.stack([cat([m.line_ptr[:-1] + group_off[i] for i, m in enumerate(models)], np.int64),
                          cat([m.line_ptr[1:] + group_off[i] for i, m in enumerate(models)], np.int64)], axis=1)
    sizes = np.diff(group_ptr)
    line_vars = group_ptr[line_span[:, 1]] - group_ptr[line_span[:, 0]]
    scratch = np.array([max(int(line_vars.max(initial=0)), 1), int(sizes.max(initial=0)) + 1,
                        max(int(np.diff(line_span, axis=1).max(initial=0)), 1)], np.int64)

    L = P * num_reads
    C = L * R
    ladder_puzzle = np.repeat(np.arange(P, dtype=np.int64), num_reads)
    chain_puzzle = np.repeat(ladder_puzzle, R)
    x_off = _offsets(n[chain_puzzle])
    cur_off = _offsets(num_groups[chain_puzzle])
    best_off = _offsets(n[ladder_puzzle])
    rng = np.empty(C, np.uint64)
    ladder_rng = np.empty(L, np.uint64)
    for p, s in enumerate(seeds):  # chain and ladder streams of model p, from its own seed
        state = s.generate_state(num_reads * (R + 1), np.uint64)
        state[state == 0] = 0x9E3779B97F4A7C15  # xorshift never leaves 0
        rng[p * num_reads * R : (p + 1) * num_reads * R] = state[: num_reads * R]
        ladder_rng[p * num_reads : (p + 1) * num_reads] = state[num_reads * R :]
    chain = np.arange(C, dtype=np.int64)
    return {
        # models
        "var_off": var_off,
        "linear": cat([m.linear for m in models], np.float64),
        "adj_ptr": adj_ptr,
        "adj_idx": cat([m.adj_idx for m in models], np.int32),
        "adj_val": cat([m.adj_val for m in models], np.float64),
        "group_off": group_off,
        "group_ptr": group_ptr,
        "group_vars": cat([m.group_vars for m in models], np.int32),
        "free": cat([m.free for m in models], np.uint8),
        "has_prev": cat([m.has_prev for m in models], np.uint8),
        "has_next": cat([m.has_next for m in models], np.uint8),
        "next_limit": cat([m.next_limit for m in models], np.int32),
        "line_off": line_off,
        "line_span": line_span,
        "inner": cat([m.inner for m in models], np.uint8),
        "betas": cat([m.betas for m in models], np.float64),
        "hot": np.array([m.hot for m in models], np.float64),
        "cold": np.array([m.cold for m in models], np.float64),
        "target": np.array([m.target for m in models], np.float64),
        "scratch": scratch,
        # chains
        "chain_puzzle": chain_puzzle,
        "x_off": x_off[:-1].copy(),
        "cur_off": cur_off[:-1].copy(),
        "x": np.zeros(max(int(x_off[-1]), 1), np.int8),
        "field": np.zeros(max(int(x_off[-1]), 1), np.float64),
        "current": np.zeros(max(int(cur_off[-1]), 1), np.int32),
        "energy": np.zeros(C, np.float64),
        "rng": rng,
        "temp_of": (chain % R).astype(np.int32),
        "weight": np.zeros(C * scratch[0], np.float64),
        "prefix": np.zeros(C * scratch[1], np.float64),
        "chosen": np.zeros(C * scratch[2], np.int32),
        # ladders
        "ladder_puzzle": ladder_puzzle,
        "chain_at": chain.copy(),
        "ladder_rng": ladder_rng,
        "best_x": np.zeros(max(int(best_off[-1]), 1), np.int8),
        "best_off": best_off[:-1].copy(),
        "best_energy": np.full(L, np.inf),
        "hit_sweep": np.full(L, -1, np.int64),
        "ladder_done": np.zeros(L, np.uint8),
        "sweeps_done": np.zeros(L, np.int64),
        "puzzle_active": np.ones(P, np.uint8),
    }


#: The arrays every driver takes, in this order.
ARRAYS = ("var_off", "linear", "adj_ptr", "adj_idx", "adj_val", "group_off", "group_ptr", "group_vars", "free",
          "has_prev", "has_next", "next_limit", "line_off", "line_span", "inner", "betas", "hot", "cold", "target",
          "scratch", "chain_puzzle", "x_off", "cur_off", "x", "field", "current", "energy", "rng", "temp_of", "weight",
          "prefix", "chosen", "ladder_puzzle", "chain_at", "ladder_rng", "best_x", "best_off", "best_energy",
          "hit_sweep", "ladder_done", "sweeps_done", "puzzle_active")
#: What the host reads back between launches, and at the end.
_PROGRESS = ("hit_sweep", "ladder_done")
_RESULTS = ("best_x", "best_energy", "hit_sweep", "sweeps_done")


# -- the drivers: a prange over ladders (CPU), one thread per chain (CUDA) --------------------------------------------


@numba.njit(parallel=True, cache=True)
def _init_cpu(R, restrict, stop_at_hit, var_off, linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars,
              free, has_prev, has_next, next_limit, line_off, line_span, inner, betas, hot, cold, target, scratch,
              chain_puzzle, x_off, cur_off, x, field, current, energy, rng, temp_of, weight, prefix, chosen,
              ladder_puzzle, chain_at, ladder_rng, best_x, best_off, best_energy, hit_sweep, ladder_done, sweeps_done,
              puzzle_active):
    for l in numba.prange(len(ladder_puzzle)):
        p = ladder_puzzle[l]
        for r in range(R):
            init_chain(l * R + r, p, restrict, x, field, current, energy, rng, var_off, x_off, cur_off, scratch,
                       linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars, free, next_limit,
                       line_off, line_span, inner, weight, prefix, chosen)
        ladder_update(l, p, 0, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off, best_energy, target,
                      hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at, ladder_rng)


@numba.njit(parallel=True, cache=True)
def _sweeps_cpu(s0, k, R, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves, var_off, linear, adj_ptr,
                adj_idx, adj_val, group_off, group_ptr, group_vars, free, has_prev, has_next, next_limit, line_off,
                line_span, inner, betas, hot, cold, target, scratch, chain_puzzle, x_off, cur_off, x, field, current,
                energy,
                rng, temp_of, weight, prefix, chosen, ladder_puzzle, chain_at, ladder_rng, best_x, best_off,
                best_energy, hit_sweep, ladder_done, sweeps_done, puzzle_active):
    for l in numba.prange(len(ladder_puzzle)):
        p = ladder_puzzle[l]
        for s in range(s0, s0 + k):
            if ladder_done[l] != 0 or puzzle_active[p] == 0:
                break
            for r in range(R):
                c = l * R + r
                beta = chain_beta(c, p, s, R, num_sweeps, betas, hot, cold, temp_of)
                chain_sweep(c, p, beta, restrict, shift_probability, line_moves, x, field, current, energy, rng,
                            var_off, x_off, cur_off, scratch, adj_ptr, adj_idx, adj_val, group_off, group_ptr,
                            group_vars, free, has_prev, has_next, next_limit, line_off, line_span, inner, weight,
                            prefix, chosen)
            ladder_update(l, p, s + 1, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off, best_energy,
                          target, hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at, ladder_rng)


def _cuda_kernels():
    """The CUDA kernels (:mod:`qpicross.samplers.blockshift.cuda`), compiled on their first launch."""
    from qpicross.samplers.blockshift import cuda as _cuda

    return _cuda.cuda, _cuda.init_kernel, _cuda.sweep_kernel


class CPU:
    """The driver that runs the device functions on the CPU, a ``numba.prange`` over ladders."""

    def __init__(self, arrays: dict, R: int, threads_per_block: int):
        self.a = arrays
        self.R = R

    def init(self, restrict, stop_at_hit):
        _init_cpu(self.R, restrict, stop_at_hit, *(self.a[k] for k in ARRAYS))

    def sweeps(self, s0, k, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves):
        _sweeps_cpu(s0, k, self.R, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves,
                    *(self.a[k] for k in ARRAYS))

    def read(self, names):
        return {k: self.a[k] for k in names}

    def set_active(self, active):
        self.a["puzzle_active"][:] = active


class CUDA:
    """The driver that runs the kernels of :mod:`qpicross.samplers.blockshift.cuda`, one thread per chain."""

    def __init__(self, arrays: dict, R: int, threads_per_block: int):
        self.cuda, self.init_kernel, self.sweep_kernel = _cuda_kernels()
        self.R = R
        self.num_chains = len(arrays["chain_puzzle"])
        self.block = max(R, threads_per_block // R * R)
        self.grid = (self.num_chains + self.block - 1) // self.block
        self.d = {k: self.cuda.to_device(v) for k, v in arrays.items()}

    def _args(self):
        return tuple(self.d[k] for k in ARRAYS)

    def init(self, restrict, stop_at_hit):
        self.init_kernel[self.grid, self.block](self.num_chains, self.R, restrict, stop_at_hit, *self._args())
        self.cuda.synchronize()

    def sweeps(self, s0, k, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves):
        self.sweep_kernel[self.grid, self.block](self.num_chains, s0, k, self.R, num_sweeps, restrict, stop_at_hit,
                                                 shift_probability, line_moves, *self._args())
        self.cuda.synchronize()

    def read(self, names):
        return {k: self.d[k].copy_to_host() for k in names}

    def set_active(self, active):
        self.d["puzzle_active"].copy_to_device(np.ascontiguousarray(active, np.uint8))


def run(launch, backend, num_sweeps, R, restrict, stop_at_hit, shift_probability, line_moves, early_stop,
        sweeps_per_launch, threads_per_block, time_limit, return_last=False) -> dict:
    """Initialise, then launch sweeps until every model has stopped; per-read times to target.

    Sweeps run in launches of 1, 2, 4, ... up to ``sweeps_per_launch``; stopping
    decisions are taken between launches, so the samples depend on the seed only.
    A read's time to target is interpolated within the launch in which its
    ladder reached the target. With ``return_last``, ``best_x`` holds each
    ladder's final state at its coldest rung instead of its best state.
    """
    P = len(launch["puzzle_active"])
    if P == 0:
        return {}
    L = len(launch["ladder_puzzle"])
    device = (CUDA if backend == "cuda" else CPU)(launch, R, threads_per_block)
    ladder_puzzle = launch["ladder_puzzle"]
    start = time.perf_counter()
    device.init(restrict, stop_at_hit)
    now = time.perf_counter()
    hit_time = np.full(L, np.inf)
    stopped_at = np.full(P, math.nan)
    active = np.ones(P, bool)
    launches, done, k = 0, 0, 1
    last = now

    def update(hits, ladder_done, first, count, t_prev, t_now):
        fresh = (hits >= 0) & ~np.isfinite(hit_time)
        if count:
            hit_time[fresh] = t_prev - start + (hits[fresh] - first) / count * (t_now - t_prev)
        else:
            hit_time[fresh] = t_now - start
        solved = np.zeros(P, bool)
        np.logical_or.at(solved, ladder_puzzle, hits >= 0)
        finished = np.ones(P, bool)
        np.logical_and.at(finished, ladder_puzzle, ladder_done != 0)
        stop = finished | (solved if early_stop == "puzzle" else False)
        newly = active & stop
        stopped_at[newly] = t_now - start
        active[newly] = False
        return bool(newly.any())

    progress = device.read(_PROGRESS)
    if update(progress["hit_sweep"], progress["ladder_done"], 0, 0, start, now):
        device.set_active(active)
    while done < num_sweeps and active.any():
        if time_limit is not None and now - start >= time_limit:
            break
        count = min(k, num_sweeps - done)
        device.sweeps(done, count, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves)
        last, now = now, time.perf_counter()
        launches += 1
        progress = device.read(_PROGRESS)
        if update(progress["hit_sweep"], progress["ladder_done"], done, count, last, now):
            device.set_active(active)
        done += count
        k = min(2 * k, sweeps_per_launch)
    stopped_at[active] = now - start
    out = device.read(_RESULTS + (("x", "chain_at") if return_last else ()))
    if return_last:  # the state of the chain at the coldest rung of each ladder, where the best one would be
        n = np.diff(launch["var_off"])[ladder_puzzle]
        cold = out.pop("chain_at")[np.arange(L) * R + R - 1]
        x = out.pop("x")
        for l in range(L):
            bo, xo = launch["best_off"][l], launch["x_off"][cold[l]]
            out["best_x"][bo : bo + n[l]] = x[xo : xo + n[l]]
    out.update(hit_time=hit_time, stopped_at=stopped_at, launches=launches, sweeps=done, wall_s=now - start)
    return out
