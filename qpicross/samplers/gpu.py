r"""A batched block-shift annealer: thousands of chains, many puzzles, one launch (CUDA or CPU).

:class:`GPUShiftSampler` runs the moves of
:class:`~qpicross.samplers.structured.BlockShiftSampler` -- Metropolis block
moves on one-hot groups, heat-bath line moves, parallel tempering -- on many
chains at once: ``num_reads`` independent tempering *ladders* of
``num_replicas`` chains for each of the ``P`` models of a launch
(:func:`sample_many`). Every chain's state (bits, local fields, block
positions) lives in device arrays; one sweep of every chain is one thread of a
kernel, and after each sweep the first thread of each ladder keeps the best
state and swaps temperatures (replica exchange). A ladder that reaches
``target_energy`` stops; with ``early_stop="puzzle"`` (the default) a puzzle
stops as soon as one of its ladders has, so a batch of a thousand puzzles
spends its time on the hard ones.

Backends, the same code (:mod:`qpicross.samplers._chain` is compiled twice):

* ``"cuda"`` (default): numba's CUDA target (``pip install 'qpicross[gpu]'``);
  without a CUDA GPU, sampling raises
  :class:`~qpicross.samplers.registry.SamplerUnavailableError`;
* ``"cpu"``: :func:`numba.njit` with a ``prange`` over ladders -- what CI runs,
  and the ``gpu-shift-cpu`` sampler of the registry.

With line moves on, every chain stays among clue-consistent lines (block moves
that would break the fit of consecutive blocks are rejected) and samples
:math:`e^{-\beta E}` restricted to them. Sweeps run in launches of 1, 2, 4,
... up to ``sweeps_per_launch`` sweeps; stopping decisions are taken between
launches, so the samples depend only on the seed (and on no timing), and a
puzzle's samples do not depend on the other puzzles of its batch.

Every read is the lowest-energy state its ladder visited; energies are the
BQM's. ``info`` holds, per read, ``sweeps`` run and -- with a target --
``time_to_target_s`` (wall seconds from the start of sampling to the end of the
sweep that first reached the target; ``inf`` if never) and
``sweeps_to_target`` (-1 if never); per model, ``parallel_reads`` (the reads
ran at the same time), ``timing`` (``preprocess_s``; ``sample_s``, until this
model stopped; ``launch_s``, the whole batch), ``backend`` and ``batch``.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = GPUShiftSampler(backend="cpu").sample(f.bqm(), num_reads=8, num_sweeps=100, seed=1, target_energy=0)
    >>> float(ss.first.energy), ss.info["parallel_reads"]
    (0.0, 8)
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Hashable, Sequence

import dimod
import numba
import numpy as np

from qpicross.samplers._chain import chain_beta, chain_sweep, init_chain, ladder_update
from qpicross.samplers.registry import SamplerUnavailableError
from qpicross.samplers.structured import _structure, _symmetric_csr, _units, default_beta_range, infer_lines

__all__ = ["GPUShiftSampler", "sample_many", "cuda_available", "BACKENDS", "EARLY_STOP"]

#: Where the chains run.
BACKENDS = ("cuda", "cpu")
#: When sampling stops before ``num_sweeps``: when one read of a model reached the target
#: (``"puzzle"``), when every read has (``"read"``), or never (``"none"``).
EARLY_STOP = ("puzzle", "read", "none")

_INSTALL_HINT = "install the 'gpu' extra (pip install 'qpicross[gpu]'), or pass backend='cpu'"


def cuda_available() -> bool:
    """Whether numba's CUDA target can run kernels here (True under the CUDA simulator)."""
    try:
        from numba import cuda
    except ImportError:  # pragma: no cover - numba without its CUDA target
        return False
    try:
        return bool(cuda.is_available())
    except Exception:  # pragma: no cover - a broken driver or toolkit
        return False


class GPUShiftSampler(dimod.Sampler):
    """Batched one-hot-preserving parallel tempering on a GPU, or on the CPU (see the module docstring).

    Args:
        backend: ``"cuda"`` or ``"cpu"``; a ``backend`` passed to :meth:`sample` overrides it.

    Examples:
        >>> import dimod
        >>> bqm = dimod.BinaryQuadraticModel({"a": 1, "b": -1}, {("a", "b"): 0.5}, 0, "BINARY")
        >>> ss = GPUShiftSampler(backend="cpu").sample(bqm, num_reads=3, num_sweeps=10, seed=0)
        >>> ss.record.sample.shape, float(ss.first.energy)
        ((3, 2), -1.0)
    """

    def __init__(self, backend: str = "cuda"):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        self.backend = backend

    @property
    def parameters(self) -> dict:
        return {
            "num_reads": [],
            "num_sweeps": [],
            "seed": [],
            "beta_range": [],
            "num_replicas": [],
            "shift_probability": [],
            "line_moves": [],
            "lines": [],
            "groups": [],
            "target_energy": [],
            "early_stop": [],
            "backend": [],
            "sweeps_per_launch": [],
            "threads_per_block": [],
            "time_limit": [],
        }

    @property
    def properties(self) -> dict:
        return {"moves": "one-hot block shift + heat-bath line + single flip", "schedules": ["anneal", "tempering"],
                "backends": list(BACKENDS), "batched": True}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, lines: Sequence | None = None,
               groups: Sequence[Sequence[Hashable]] | None = None, backend: str | None = None,
               **parameters) -> dimod.SampleSet:
        """Sample one BQM: :func:`sample_many` with one model (every parameter is documented there).

        Raises:
            ValueError: For a bad parameter.
            SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
        """
        known = {k: v for k, v in parameters.items() if k in self.parameters}
        self.remove_unknown_kwargs(**{k: v for k, v in parameters.items() if k not in known})
        if groups is not None and lines is None:
            lines = [[list(g)] for g in groups]  # explicit groups: each is its own line
        return sample_many([bqm], lines=None if lines is None else [lines], backend=backend or self.backend,
                           **known)[0]

    def sample_many(self, models: Sequence, *, backend: str | None = None, **parameters) -> list[dimod.SampleSet]:
        """Many models in one launch on this sampler's backend: :func:`sample_many`."""
        return sample_many(models, backend=backend or self.backend, **parameters)


def sample_many(
    models: Sequence,
    *,
    num_reads: int = 32,
    num_sweeps: int = 1000,
    seed: int | None = None,
    beta_range: tuple[float, float] | Sequence[tuple[float, float] | None] | None = None,
    num_replicas: int = 4,
    shift_probability: float = 0.5,
    line_moves: float = 1.0,
    lines: Sequence | None = None,
    target_energy: float | Sequence[float | None] | None = None,
    early_stop: str = "puzzle",
    backend: str = "cuda",
    sweeps_per_launch: int = 64,
    threads_per_block: int = 128,
    time_limit: float | None = None,
) -> list[dimod.SampleSet]:
    """Sample many models in one launch: ``num_reads`` tempering ladders of ``num_replicas`` chains each.

    Args:
        models: BQMs, or :class:`~qpicross.model.formulation.PicrossFormulation` objects (their
            default-weight BQM and their :meth:`one_hot_lines` are used).
        num_reads: Ladders per model, run at the same time; each gives one sample.
        num_sweeps: Most sweeps per ladder; a sweep is one move per group and free variable
            and a line move per line, for every chain.
        seed: Random seed (0 <= seed < 2**32): the same seed gives the same samples.
        beta_range: ``(hot, cold)`` inverse temperatures, for all models or one per model
            (default: :func:`~qpicross.samplers.structured.default_beta_range` of each).
        num_replicas: Chains per ladder at temperatures geometric over ``beta_range``, swapped
            after every sweep; 1: annealing from hot to cold over ``num_sweeps``.
        shift_probability: Chance that a block move shifts the block by one start.
        line_moves: Chance per sweep that each line is redrawn by a heat-bath line move
            (0: never, and block moves are then not restricted to fitting lines).
        lines: Per model, its lines of one-hot groups of variables (default: from the
            formulation's labels, :func:`~qpicross.samplers.structured.infer_lines`).
        target_energy: Energy that counts as solved, for all models or one per model (None: none).
        early_stop: ``"puzzle"``, ``"read"`` or ``"none"`` (see :data:`EARLY_STOP`).
        backend: ``"cuda"`` or ``"cpu"``.
        sweeps_per_launch: Most sweeps per kernel launch (launches grow 1, 2, 4, ... up to it).
        threads_per_block: CUDA threads per block (rounded down to a multiple of ``num_replicas``).
        time_limit: Wall seconds after which no further launch starts.

    Returns:
        One sample set per model, ``num_reads`` samples each (see the module docstring for ``info``).

    Raises:
        ValueError: For a bad parameter.
        SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
    """
    t0 = time.perf_counter()
    _check_parameters(num_reads, num_sweeps, seed, num_replicas, shift_probability, line_moves, early_stop, backend,
                      sweeps_per_launch, threads_per_block, time_limit)
    models = list(models)
    P = len(models)
    per_model_lines = _per_model(lines, P, "lines", nested=True)
    per_model_beta = _per_model(beta_range, P, "beta_range", pair=True)
    per_model_target = _per_model(target_energy, P, "target_energy")
    if backend == "cuda" and not cuda_available():
        raise SamplerUnavailableError(f"gpu-shift: no CUDA GPU is available to numba here; {_INSTALL_HINT}")
    prepared = [_prepare(m, per_model_lines[i], per_model_beta[i], per_model_target[i], num_replicas)
                for i, m in enumerate(models)]
    seeds = np.random.SeedSequence(seed).spawn(P)
    live = [i for i, m in enumerate(prepared) if m.n > 0]
    launch = _pack([prepared[i] for i in live], [seeds[i] for i in live], num_reads, num_replicas)
    t1 = time.perf_counter()
    restrict = line_moves > 0.0
    stop_at_hit = early_stop != "none"
    out = _run(launch, backend, num_sweeps, num_replicas, restrict, stop_at_hit, float(shift_probability),
               float(line_moves), early_stop, sweeps_per_launch, threads_per_block, time_limit)
    t2 = time.perf_counter()
    results = []
    for i, model in enumerate(prepared):
        if model.n == 0:
            empty = dimod.SampleSet.from_samples_bqm((np.zeros((num_reads, 0), np.int8), []), model.bqm)
            empty.info.update(timing={"preprocess_s": t1 - t0, "sample_s": 0.0, "launch_s": t2 - t1},
                              parallel_reads=num_reads, backend=backend, sweeps=[0] * num_reads)
            results.append(empty)
            continue
        j = live.index(i)
        results.append(_sampleset(model, out, j, num_reads, t1 - t0, t2 - t1, backend, len(live), launch))
    return results


# -- parameters and models --------------------------------------------------------------------------------------------


def _check_parameters(num_reads, num_sweeps, seed, num_replicas, shift_probability, line_moves, early_stop, backend,
                      sweeps_per_launch, threads_per_block, time_limit) -> None:
    for name, value, low in (("num_reads", num_reads, 1), ("num_sweeps", num_sweeps, 0),
                             ("num_replicas", num_replicas, 1), ("sweeps_per_launch", sweeps_per_launch, 1),
                             ("threads_per_block", threads_per_block, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if num_replicas > 1024:
        raise ValueError(f"num_replicas must be at most 1024 (one CUDA block), got {num_replicas}")
    if not 0 <= shift_probability <= 1:
        raise ValueError(f"shift_probability must be in [0, 1], got {shift_probability}")
    if not 0 <= line_moves <= 1:
        raise ValueError(f"line_moves must be in [0, 1], got {line_moves}")
    if seed is not None and not (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)
                                 and 0 <= seed < 2**32):
        raise ValueError(f"seed must be an integer in [0, 2**32), got {seed!r}")
    if early_stop not in EARLY_STOP:
        raise ValueError(f"early_stop must be one of {', '.join(EARLY_STOP)}, got {early_stop!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")


def _per_model(value, count: int, name: str, *, nested: bool = False, pair: bool = False) -> list:
    """One value for every model, or a list with one per model."""
    if value is None:
        return [None] * count
    if pair:  # a (hot, cold) pair, or a list of pairs / None
        if len(value) == 2 and all(isinstance(b, (int, float, np.number)) for b in value):
            return [tuple(value)] * count
    elif not nested and not isinstance(value, (list, tuple, np.ndarray)):
        return [value] * count
    if len(value) != count:
        raise ValueError(f"{name} has {len(value)} entries for {count} models")
    return list(value)


@dataclasses.dataclass
class _Model:
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
    line_ptr: np.ndarray
    betas: np.ndarray
    hot: float
    cold: float
    target: float


def _prepare(model, lines, beta_range, target_energy, num_replicas: int) -> _Model:
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
    index = {v: i for i, v in enumerate(variables)}
    if lines is None:
        lines = infer_lines(variables)
    group_ptr, group_vars, free, line_ptr = _units(lines, index, n)
    linear, (irow, icol, qdata), _ = binary.to_numpy_vectors(variable_order=variables)
    keep, next_limit = _structure(group_ptr, group_vars, free, line_ptr, irow, icol, qdata, n)
    adj_ptr, adj_idx, adj_val = _symmetric_csr(n, irow[keep], icol[keep], qdata[keep])
    target = -math.inf if target_energy is None else float(target_energy) - float(binary.offset)
    betas = np.geomspace(hot, cold, num_replicas) if num_replicas > 1 else np.array([hot])
    return _Model(bqm, variables, n, np.asarray(linear, np.float64), adj_ptr, adj_idx, adj_val, group_ptr, group_vars,
                  free, next_limit, line_ptr, betas, hot, cold, target)


# -- one launch: every model's arrays concatenated --------------------------------------------------------------------


def _offsets(sizes) -> np.ndarray:
    return np.r_[0, np.cumsum(np.asarray(sizes, np.int64))].astype(np.int64)


def _pack(models: list[_Model], seeds, num_reads: int, R: int) -> dict[str, np.ndarray]:
    """The launch's arrays (names as in :mod:`qpicross.samplers._chain`)."""
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
    line_ptr = cat([m.line_ptr[:-1] + group_off[i] for i, m in enumerate(models)] + [group_off[-1:]], np.int64)
    has_prev = np.zeros(group_off[-1], np.uint8)
    has_next = np.zeros(group_off[-1], np.uint8)
    for a, b in zip(line_ptr[:-1], line_ptr[1:]):
        has_prev[a + 1 : b] = 1
        has_next[a : b - 1] = 1
    sizes = np.diff(group_ptr)
    line_vars = group_ptr[line_ptr[1:]] - group_ptr[line_ptr[:-1]]
    scratch = np.array([max(int(line_vars.max(initial=0)), 1), int(sizes.max(initial=0)) + 1,
                        max(int(np.diff(line_ptr).max(initial=0)), 1)], np.int64)

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
        "has_prev": has_prev,
        "has_next": has_next,
        "next_limit": cat([m.next_limit for m in models], np.int32),
        "line_off": line_off,
        "line_ptr": line_ptr,
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
_ARRAYS = ("var_off", "linear", "adj_ptr", "adj_idx", "adj_val", "group_off", "group_ptr", "group_vars", "free",
           "has_prev", "has_next", "next_limit", "line_off", "line_ptr", "betas", "hot", "cold", "target", "scratch",
           "chain_puzzle", "x_off", "cur_off", "x", "field", "current", "energy", "rng", "temp_of", "weight", "prefix",
           "chosen", "ladder_puzzle", "chain_at", "ladder_rng", "best_x", "best_off", "best_energy", "hit_sweep",
           "ladder_done", "sweeps_done", "puzzle_active")
#: What the host reads back between launches, and at the end.
_PROGRESS = ("hit_sweep", "ladder_done")
_RESULTS = ("best_x", "best_energy", "hit_sweep", "sweeps_done")


# -- the drivers: a prange over ladders (CPU), one thread per chain (CUDA) --------------------------------------------


@numba.njit(parallel=True, cache=True)
def _init_cpu(R, restrict, stop_at_hit, var_off, linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars,
              free, has_prev, has_next, next_limit, line_off, line_ptr, betas, hot, cold, target, scratch,
              chain_puzzle, x_off, cur_off, x, field, current, energy, rng, temp_of, weight, prefix, chosen,
              ladder_puzzle, chain_at, ladder_rng, best_x, best_off, best_energy, hit_sweep, ladder_done, sweeps_done,
              puzzle_active):
    for l in numba.prange(len(ladder_puzzle)):
        p = ladder_puzzle[l]
        for r in range(R):
            init_chain(l * R + r, p, restrict, x, field, current, energy, rng, var_off, x_off, cur_off, scratch,
                       linear, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars, free, next_limit,
                       line_off, line_ptr, weight, prefix, chosen)
        ladder_update(l, p, 0, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off, best_energy, target,
                      hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at, ladder_rng)


@numba.njit(parallel=True, cache=True)
def _sweeps_cpu(s0, k, R, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves, var_off, linear, adj_ptr,
                adj_idx, adj_val, group_off, group_ptr, group_vars, free, has_prev, has_next, next_limit, line_off,
                line_ptr, betas, hot, cold, target, scratch, chain_puzzle, x_off, cur_off, x, field, current, energy,
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
                            group_vars, free, has_prev, has_next, next_limit, line_off, line_ptr, weight, prefix,
                            chosen)
            ladder_update(l, p, s + 1, R, stop_at_hit, x, energy, var_off, x_off, best_x, best_off, best_energy,
                          target, hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at, ladder_rng)


def _cuda_kernels():
    """The CUDA kernels (:mod:`qpicross.samplers._cuda`), compiled on their first launch."""
    from qpicross.samplers import _cuda

    return _cuda.cuda, _cuda.init_kernel, _cuda.sweep_kernel


class _CPU:
    def __init__(self, arrays: dict, R: int, threads_per_block: int):
        self.a = arrays
        self.R = R

    def init(self, restrict, stop_at_hit):
        _init_cpu(self.R, restrict, stop_at_hit, *(self.a[k] for k in _ARRAYS))

    def sweeps(self, s0, k, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves):
        _sweeps_cpu(s0, k, self.R, num_sweeps, restrict, stop_at_hit, shift_probability, line_moves,
                    *(self.a[k] for k in _ARRAYS))

    def read(self, names):
        return {k: self.a[k] for k in names}

    def set_active(self, active):
        self.a["puzzle_active"][:] = active


class _CUDA:
    def __init__(self, arrays: dict, R: int, threads_per_block: int):
        self.cuda, self.init_kernel, self.sweep_kernel = _cuda_kernels()
        self.R = R
        self.num_chains = len(arrays["chain_puzzle"])
        self.block = max(R, threads_per_block // R * R)
        self.grid = (self.num_chains + self.block - 1) // self.block
        self.d = {k: self.cuda.to_device(v) for k, v in arrays.items()}

    def _args(self):
        return tuple(self.d[k] for k in _ARRAYS)

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


def _run(launch, backend, num_sweeps, R, restrict, stop_at_hit, shift_probability, line_moves, early_stop,
         sweeps_per_launch, threads_per_block, time_limit) -> dict:
    """Initialise, then launch sweeps until every model has stopped; per-read times to target."""
    P = len(launch["puzzle_active"])
    if P == 0:
        return {}
    L = len(launch["ladder_puzzle"])
    device = (_CUDA if backend == "cuda" else _CPU)(launch, R, threads_per_block)
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
    out = device.read(_RESULTS)
    out.update(hit_time=hit_time, stopped_at=stopped_at, launches=launches, sweeps=done, wall_s=now - start)
    return out


def _sampleset(model: _Model, out: dict, j: int, num_reads: int, preprocess_s: float, launch_s: float, backend: str,
               num_models: int, launch: dict) -> dimod.SampleSet:
    ladders = np.arange(j * num_reads, (j + 1) * num_reads)
    first = int(launch["best_off"][ladders[0]])
    samples = out["best_x"][first : first + num_reads * model.n].reshape(num_reads, model.n).copy()
    if model.bqm.vartype is dimod.SPIN:
        samples = 2 * samples - 1
    sampleset = dimod.SampleSet.from_samples_bqm((samples, model.variables), model.bqm)
    info = sampleset.info
    info["timing"] = {"preprocess_s": preprocess_s, "sample_s": float(out["stopped_at"][j]), "launch_s": launch_s}
    info["sweeps"] = out["sweeps_done"][ladders].tolist()
    if math.isfinite(model.target):
        info["time_to_target_s"] = out["hit_time"][ladders].tolist()
        info["sweeps_to_target"] = out["hit_sweep"][ladders].tolist()
    info["parallel_reads"] = num_reads
    info["backend"] = backend
    info["batch"] = {"models": num_models, "chains": len(launch["chain_puzzle"]), "launches": out["launches"],
                     "sweeps": out["sweeps"], "wall_s": out["wall_s"]}
    return sampleset
