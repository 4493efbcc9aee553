r"""The batched sampler's Picross path: many ladders of the profile chain, each on the restart plan.

:class:`~qpicross.samplers.blockshift.batched.BatchedShiftSampler` hands a launch
of Picross models (BQMs that are "constant + w x mismatches" on their boards,
checked exactly by :func:`~qpicross.samplers.blockshift.board.board_model`) to
:func:`run`. Each of a puzzle's ``num_reads`` *ladders* is one restart stream of
the CPU sampler's default algorithm: Luby restarts of parallel tempering on the
profile chain (unit ``restart_sweeps``, the ladder of each restart's level,
:func:`~qpicross.samplers.blockshift.restarts.ladder`), its restarts taking the
free axis in turn, ladder ``i`` starting on axis ``i % 2``. Every move is
:mod:`~qpicross.samplers.blockshift.moves`' (the functions the CPU sampler
calls), through :func:`~qpicross.samplers.blockshift.ladder_kernel.ladder_run`:

* ``backend="cpu"``: a :func:`numba.prange` over ladders;
* ``backend="cuda"``: one CUDA thread per ladder (:mod:`~qpicross.samplers.blockshift.cuda`).

Each ladder draws from its own random stream (seeded from the call's seed), so
the samples depend on the seed only, not on the backend, the batch or the
timing (unless ``time_limit`` cuts a run short). Sweeps run in launches of 1,
2, 4, ... up to ``sweeps_per_launch``; a puzzle stops when one of its ladders
reaches the target (``early_stop="puzzle"``, checked by the ladders themselves
within a launch) or when every ladder has spent its budget.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> launch = pack([prepare(f.bqm(), f.one_hot_lines(), f.paints(), None, 0.0)], np.random.SeedSequence(1), 4)
    >>> out = run(launch, "cpu", 1000, 100, 1.0, True, 64, None)
    >>> bool((out["hit"] >= 0).any()), int(out["restart"].min()) >= 1  # solved; every ladder started
    (True, True)
"""

from __future__ import annotations

import dataclasses
import math
import time

import dimod
import numba
import numpy as np

from qpicross.samplers.blockshift import board as _board, profile as _profile
from qpicross.samplers.blockshift.ladder_kernel import MAX_RUNGS, SIZES, Ladders, Puzzles, ladder_close, ladder_run
from qpicross.samplers.blockshift.moves import Structure, seed_rng
from qpicross.samplers.blockshift.restarts import ladder
from qpicross.samplers.blockshift.structure import default_beta_range, read_structure

__all__ = ["PicrossModel", "prepare", "pack", "run", "LEVELS"]

#: Luby levels whose ladders a launch carries (a restart of a higher level runs the last one's).
LEVELS = 24


@dataclasses.dataclass
class PicrossModel:
    """One Picross BQM as the profile chain sees it: its structure, board and both axes' profiles."""

    bqm: dimod.BinaryQuadraticModel
    variables: list
    structure: Structure
    board: tuple
    w: float
    constant: float
    profiles: tuple
    beta_range: tuple
    target: float


def prepare(bqm: dimod.BinaryQuadraticModel, lines, paints, beta_range, target_energy) -> PicrossModel | None:
    """The profile chain's model of a BQM with its lines and paints, or ``None`` where it does not apply
    (not "constant + w x mismatches" on clue-consistent states, or lines that are not plain nonogram lines)."""
    binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
    variables = list(binary.variables)
    n = len(variables)
    if n == 0 or not lines or paints is None:
        return None
    structure, couplings = read_structure(binary, variables, lines)
    found = _board.board_model(variables, paints, structure, couplings)
    if found is None:
        return None
    board, w, constant = found
    profiles = tuple(_profile.profile_model(board, structure, axis) for axis in (0, 1))
    if any(p is None for p in profiles):
        return None
    hot, cold = (float(b) for b in (default_beta_range(binary) if beta_range is None else beta_range))
    target = -math.inf if target_energy is None else float(target_energy) - float(binary.offset)
    return PicrossModel(bqm, variables, structure, board, w, constant, profiles, (hot, cold), target)


def pack(models: list[PicrossModel], seed: np.random.SeedSequence, num_reads: int) -> dict:
    """The launch's arrays: every puzzle's padded to the largest (:data:`~qpicross.samplers.blockshift.ladder_kernel.Puzzles`)
    and every ladder's state (:data:`~qpicross.samplers.blockshift.ladder_kernel.Ladders`), as numpy arrays, and
    ``seeds``: ladder ``l``'s random stream is the one :func:`~qpicross.samplers.blockshift.profile.profile_read`
    starts from ``seeds[l]``, so its first restart is that call's."""
    P = len(models)
    sizes = np.zeros((P, len(SIZES)), np.int64)
    for p, m in enumerate(models):
        s, b, (p0, p1) = m.structure, m.board, m.profiles
        sizes[p] = (len(s.group_ptr) - 1, len(s.group_vars), len(s.chain_ptr) - 1, int(b.n_cells), int(b.table_size),
                    int(p0.blocks), int(p0.longest), len(p0.prof_chain), len(p0.free_chains), len(p1.prof_chain),
                    len(p1.free_chains))
    top = sizes.max(axis=0)
    units, slots, chains, cells, table, blocks, longest = (int(v) for v in top[:7])
    n_prof = max(int(top[7]), int(top[9]))
    n_free = max(int(top[8]), int(top[10]))

    def rows(shape, dtype, fill=0):
        return np.full((P, *shape), fill, dtype)

    pz = {name: None for name in Puzzles._fields}
    pz.update(group_ptr=rows((units + 1,), np.int64), group_vars=rows((slots,), np.int64),
              chain_ptr=rows((chains + 1,), np.int64), next_limit=rows((slots,), np.int64),
              seg_start=rows((slots,), np.int64), glen=rows((units,), np.int64), line_axis=rows((chains,), np.int64),
              cell0=rows((chains,), np.int64), stride=rows((chains,), np.int64), line_len=rows((chains,), np.int64),
              prof_chain=rows((2, n_prof), np.int64), prof_cell0=rows((2, n_prof), np.int64),
              prof_stride=rows((2,), np.int64), prof_len=rows((2,), np.int64), cross=rows((2, cells), np.int64),
              free_chains=rows((2, n_free), np.int64), pos_of=rows((units, longest + 1), np.int64, -1),
              band=rows((2, n_prof, blocks + 1, 2), np.int64), sizes=sizes,
              w=np.array([m.w for m in models], np.float64), constant=np.array([m.constant for m in models]),
              target=np.array([m.target for m in models], np.float64),
              level_betas=rows((LEVELS, MAX_RUNGS), np.float64), stopped=np.zeros(P, np.int8))
    for p, m in enumerate(models):
        s, b = m.structure, m.board
        for name, value in (("group_ptr", s.group_ptr), ("group_vars", s.group_vars), ("chain_ptr", s.chain_ptr),
                            ("next_limit", s.next_limit), ("seg_start", b.seg_start), ("glen", b.glen),
                            ("line_axis", b.line_axis), ("cell0", b.cell0), ("stride", b.stride),
                            ("line_len", b.line_len)):
            pz[name][p, :len(value)] = value
        pos_of = m.profiles[0].pos_of
        pz["pos_of"][p, :pos_of.shape[0], :pos_of.shape[1]] = pos_of
        for a, prof in enumerate(m.profiles):
            k, f = len(prof.prof_chain), len(prof.free_chains)
            pz["prof_chain"][p, a, :k] = prof.prof_chain
            pz["prof_cell0"][p, a, :k] = prof.prof_cell0
            pz["prof_stride"][p, a] = prof.prof_stride
            pz["prof_len"][p, a] = prof.prof_len
            pz["cross"][p, a, :len(prof.cross)] = prof.cross
            pz["free_chains"][p, a, :f] = prof.free_chains
            pz["band"][p, a, :k, :prof.band.shape[1]] = prof.band
        for level in range(LEVELS):
            betas = ladder(m.beta_range, level)
            pz["level_betas"][p, level, :len(betas)] = betas

    L = P * num_reads
    R = MAX_RUNGS
    span = (blocks + 1) * (longest + 1)
    seeds = (seed.generate_state(max(L, 1), np.uint64)[:L] >> np.uint64(1)).astype(np.int64)
    rng = np.ones(L, np.uint64)
    for l in range(L):  # each ladder's stream as profile_read starts one from its seed
        seed_rng(rng[l:l + 1], seeds[l])
    ld = dict(
        puzzle=np.repeat(np.arange(P, dtype=np.int64), num_reads), stream=np.tile(np.arange(num_reads), P),
        restart=np.zeros(L, np.int64), left=np.zeros(L, np.int64), s=np.zeros(L, np.int64),
        best=np.zeros(L, np.int64), axis=np.zeros(L, np.int64), level=np.zeros(L, np.int64),
        used=np.zeros(L, np.int64), done=np.zeros(L, np.int64), hit=np.full(L, -1, np.int64),
        lowest=np.full(L, np.inf), sample=np.zeros((L, slots), np.int8), finished=np.zeros(L, np.int8),
        status=np.zeros((L, 2)), cur=np.zeros((L, R, units), np.int64), boards=np.zeros((L, R, 2, cells), np.int16),
        marg=np.zeros((L, R, 2, cells), np.int32), pcost=np.zeros((L, R, n_prof), np.int64),
        energy=np.zeros((L, R), np.int64), beta_of=np.zeros((L, R)), slot_of=np.zeros((L, R), np.int64),
        tables=np.zeros((L, R, table)), weight=np.zeros((L, slots)), prefix=np.zeros((L, slots + 1)),
        chosen=np.zeros((L, units + 1), np.int64), cost=np.zeros((L, 2 * (longest + 1)), np.int64),
        dp=np.zeros((L, 2, span), np.int64), scratch=np.zeros((L, 6 * (longest + 1)), np.int64),
        rng=rng, best_cur=np.zeros((L, units), np.int64),
        order=np.zeros((L, R), np.int64))
    return {"puzzles": pz, "ladders": ld, "seeds": seeds}


def memory_bytes(models: list[PicrossModel], num_reads: int) -> int:
    """Bytes :func:`pack` allocates for the ladders (the bulk of a launch), to check before allocating them:
    each ladder's state padded to the largest puzzle (two boards of int16 and two of int32 marginals per
    rung, its tables, block positions and column costs, and its per-variable scratch and sample)."""
    cells = max(int(m.board.n_cells) for m in models)
    units = max(len(m.structure.group_ptr) for m in models)
    slots = max(len(m.structure.group_vars) for m in models)
    table = max(int(m.board.table_size) for m in models)
    lines = max(max(len(p.prof_chain) for p in m.profiles) for m in models)
    per_rung = cells * (2 * 2 + 2 * 4) + 8 * (units + table + lines)
    return len(models) * num_reads * (MAX_RUNGS * per_rung + 17 * slots + 16 * units)


@numba.njit(parallel=True, cache=True)
def _run_cpu(count, unit, budget, line_moves, stop_at_hit, pz, ld):
    for l in numba.prange(len(ld.puzzle)):
        ladder_run(l, count, unit, budget, line_moves, stop_at_hit, pz, ld)


@numba.njit(parallel=True, cache=True)
def _close_cpu(pz, ld):
    for l in numba.prange(len(ld.puzzle)):
        ladder_close(l, pz, ld)


class _CPU:
    def __init__(self, launch):
        self.pz = Puzzles(**launch["puzzles"])
        self.ld = Ladders(**launch["ladders"])

    def sweeps(self, count, unit, budget, line_moves, stop_at_hit):
        _run_cpu(count, unit, budget, line_moves, stop_at_hit, self.pz, self.ld)

    def close(self):
        _close_cpu(self.pz, self.ld)

    def read(self, names):
        return {k: getattr(self.ld, k) for k in names}

    def stop(self, puzzles):
        self.pz.stopped[puzzles] = 1


class _CUDA:
    def __init__(self, launch, threads_per_block):
        from qpicross.samplers.blockshift import cuda as _cuda

        self.cuda, self.kernel, self.close_kernel = _cuda.cuda, _cuda.ladder_kernel, _cuda.close_kernel
        self.pz = Puzzles(**{k: self.cuda.to_device(v) for k, v in launch["puzzles"].items()})
        self.ld = Ladders(**{k: self.cuda.to_device(v) for k, v in launch["ladders"].items()})
        self.L = len(launch["ladders"]["puzzle"])
        self.block = max(1, min(threads_per_block, self.L))
        self.grid = (self.L + self.block - 1) // self.block

    def sweeps(self, count, unit, budget, line_moves, stop_at_hit):
        self.kernel[self.grid, self.block](count, unit, budget, line_moves, stop_at_hit, self.pz, self.ld)
        self.cuda.synchronize()

    def close(self):
        self.close_kernel[self.grid, self.block](self.pz, self.ld)
        self.cuda.synchronize()

    def read(self, names):
        return {k: getattr(self.ld, k).copy_to_host() for k in names}

    def stop(self, puzzles):
        stopped = self.pz.stopped.copy_to_host()
        stopped[puzzles] = 1
        self.pz.stopped.copy_to_device(stopped)


def run(launch: dict, backend: str, budget: int, unit: int, line_moves: float, stop_at_hit: bool,
        sweeps_per_launch: int, time_limit: float | None, threads_per_block: int = 64) -> dict:
    """Run every ladder of ``launch`` (:func:`pack`) until each has finished, or ``time_limit`` seconds.

    Returns the ladders' ``lowest`` energy, ``sample``, ``hit`` (sweeps to the target, -1), ``done``
    sweeps and ``restart`` count, with ``hit_time`` (seconds from the start of sampling to the end of the
    launch in which the ladder reached the target, an upper bound by at most one launch, which grow from
    one sweep; ``inf`` if never), ``stopped_at`` per puzzle, ``launches`` and ``wall_s``.
    """
    ld = launch["ladders"]
    L, P = len(ld["puzzle"]), len(launch["puzzles"]["w"])
    device = _CUDA(launch, threads_per_block) if backend == "cuda" else _CPU(launch)
    puzzle = ld["puzzle"]
    start = now = time.perf_counter()
    hit_time = np.full(L, np.inf)
    stopped_at = np.full(P, math.nan)
    active = np.ones(P, bool)
    launches, k, swept = 0, 1, 0
    while active.any():
        if time_limit is not None and now - start >= time_limit:
            break
        device.sweeps(k, unit, budget, line_moves, stop_at_hit)
        now = time.perf_counter()
        launches += 1
        swept += k
        got = device.read(("hit", "finished"))
        fresh = (got["hit"] >= 0) & ~np.isfinite(hit_time)
        hit_time[fresh] = now - start  # the end of the launch that reached it: an upper bound, one launch at most
        solved = np.zeros(P, bool)
        np.logical_or.at(solved, puzzle, got["hit"] >= 0)
        finished = np.ones(P, bool)
        np.logical_and.at(finished, puzzle, got["finished"] != 0)
        newly = active & (finished | (solved & stop_at_hit))
        stopped_at[newly] = now - start
        active &= ~newly
        if stop_at_hit and (newly & ~finished).any():
            device.stop(np.flatnonzero(newly & ~finished))
        k = min(2 * k, sweeps_per_launch)
    if active.any():  # cut by the time limit: the other ladders of those puzzles stop too
        device.stop(np.flatnonzero(active))
    stopped_at[active] = now - start
    device.close()
    out = device.read(("lowest", "sample", "hit", "done", "restart"))
    out.update(hit_time=hit_time, stopped_at=stopped_at, launches=launches, sweeps=swept, wall_s=now - start)
    return out
