r"""The batched driver: many ladders of many puzzles in launches, on the CPU (a ``prange``) or a GPU.

:class:`~qpicross.samplers.blockshift.batched.BatchedShiftSampler` hands a launch of models to
:func:`run` (its models and arrays made by :mod:`~qpicross.samplers.blockshift.launch`). Each of a
model's ``num_reads`` *ladders* is one restart stream of the CPU sampler: restarts of the engine
(:func:`~.engine.restart_begin`, :func:`~.engine.restart_sweeps`) along a Luby plan, each on the ladder
of its level, run by :func:`ladder_run` in pieces of a launch each, its state kept between launches in
the :data:`Ladders` arrays. Either chain runs, bound by
:func:`~.compile_targets.build` (the open name ``chain_views`` gives a ladder's work and model as the chain
reads them):

* :data:`PROFILE_LAUNCH` -- the profile chain on Picross models, restarts taking the free axis in turn
  (ladder ``i`` starting on axis ``i % 2``), the CPU sampler's default;
* :data:`FIELDS_LAUNCH` -- the joint chain on any one-hot BQM, one restart of a fixed schedule
  (``num_replicas`` tempering rungs, or annealing along the sweeps with one).

Backends, the same kernels compiled twice: ``"cpu"`` (:func:`run_ladders`, a :func:`numba.prange`
over ladders) and ``"cuda"`` (one CUDA thread per ladder, :func:`_cuda_run`). Each ladder draws from
its own random stream, seeded so that its first restart is the CPU sampler's read from the ladder's
seed (:func:`~.engine.read`), so the samples depend on the seed only: not on the backend, the batch or
the timing (unless ``time_limit`` cuts a run short).

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> from qpicross.samplers.blockshift.launch import pack, prepare_profile
    >>> model = prepare_profile(f.bqm(), f.one_hot_lines(), f.paints(), None, 0.0)
    >>> launch = pack([model], np.random.SeedSequence(1), 4)
    >>> out = run(launch, "cpu", 1000, 100, (0.5, 1.0, False), (True, True, False), sweeps_per_launch=64)
    >>> bool((out["hit"] >= 0).any()), int(out["restart"].min()) >= 1  # solved; every ladder started
    (True, True)
"""

from __future__ import annotations

import itertools
import math
import time
import types
from collections import namedtuple

import numba
import numpy as np

from qpicross.samplers.blockshift import fields as _fields, profile as _profile
from qpicross.samplers.blockshift.engine import coldest, reached, restart_begin, restart_of, restart_sweeps
from qpicross.samplers.blockshift.layouts import (Board, FieldsWork, Params, Profile, ProfileWork, Signals, Sizes,
                                                  Structure, make_flags, make_moves)
from qpicross.samplers.blockshift.compile_targets import build, chain_sample, chain_save, chain_views, kernel
from qpicross.samplers.control import RunControl

__all__ = ["run", "ladder_run", "ladder_close", "run_ladders", "Puzzles", "Ladders", "PROFILE_LAUNCH",
           "FIELDS_LAUNCH"]

#: Every model of a launch, padded to the largest: row ``p`` of each array is model ``p``'s, and the fields of
#: :class:`~qpicross.samplers.blockshift.layouts.Sizes` their true lengths (``units[p]``, ...: flat, as a
#: ``prange`` takes no tuple within a tuple); ``rungs[p, j]`` and ``level_betas[p, j, :level_len[p, j]]`` the
#: replicas and inverse temperatures of a restart of Luby level ``j``; ``stopped[p]`` set by the host when the
#: model stops.
Puzzles = namedtuple("Puzzles", "linear adj_ptr adj_idx adj_val group_ptr group_vars free chain_ptr next_limit "
                                "has_prev has_next inner seg_start glen line_axis cell0 stride line_len prof_chain "
                                "prof_cell0 prof_stride prof_len cross free_chains pos_of band "
                                f"{' '.join(Sizes._fields)} w constant target rungs level_betas level_len stopped")
#: Every ladder's state between launches: its model and stream, its restart (``restart`` begun, ``left`` sweeps to
#: go, ``s`` done, ``best`` its lowest energy, ``axis``, ``level``), its totals (``used`` sweeps planned, ``done``
#: run, ``hit`` the sweep that reached the target or -1, ``lowest`` energy and its ``sample``), ``finished``, and
#: the chain's work of its largest restart (the fields of the layouts a chain does not use are empty).
Ladders = namedtuple("Ladders", "puzzle stream restart left s best axis level used done hit lowest sample finished "
                                "status x field best_x cur boards marg pcost energy beta_of slot_of tables weight "
                                "prefix chosen cost dp scratch rng best_cur order")


# -- the kernels: one ladder's restarts, in pieces -------------------------------------------------------------


@kernel
def profile_views(l, p, axis, R, pz, ld):
    """``chain_views`` of the profile chain: ladder ``l``'s work for ``R`` replicas on free ``axis``, and model
    ``p``'s ``(structure, board, profile)`` at their true lengths."""
    units, slots, chains, cells, table = pz.units[p], pz.slots[p], pz.chains[p], pz.cells[p], pz.table[p]
    blocks, longest, n_prof, n_free = pz.blocks[p], pz.longest[p], pz.n_prof[p, axis], pz.n_free[p, axis]
    none_f, none_i, none_b = pz.linear[p, :0], pz.glen[p, :0], pz.free[p, :0]
    model = Structure(none_f, none_i, none_i, none_f, pz.group_ptr[p, :units + 1], pz.group_vars[p, :slots], none_b,
                      pz.chain_ptr[p, :chains + 1], pz.next_limit[p, :slots], none_b, none_b, none_b)
    board = Board(pz.seg_start[p, :slots], pz.glen[p, :units], pz.line_axis[p, :chains], pz.cell0[p, :chains],
                  pz.stride[p, :chains], pz.line_len[p, :chains], cells, table)
    pmodel = Profile(pz.prof_chain[p, axis, :n_prof], pz.prof_cell0[p, axis, :n_prof], pz.prof_stride[p, axis],
                     pz.prof_len[p, axis], pz.cross[p, axis, :cells], pz.free_chains[p, axis, :n_free],
                     pz.pos_of[p, :units, :longest + 1], blocks, longest, pz.band[p, axis, :n_prof, :blocks + 1])
    span = (blocks + 1) * (longest + 1)
    work = ProfileWork(ld.cur[l, :R, :units], ld.boards[l, :R, :, :cells], ld.marg[l, :R, :, :cells],
                       ld.pcost[l, :R, :n_prof], ld.energy[l, :R], ld.beta_of[l, :R], ld.slot_of[l, :R],
                       ld.tables[l, :R, :table], ld.weight[l, :slots], ld.prefix[l, :slots + 1],
                       ld.chosen[l, :units + 1], ld.cost[l, :2 * (longest + 1)], ld.dp[l, :, :span],
                       ld.scratch[l, :6 * (longest + 1)], ld.rng[l:l + 1], ld.best_cur[l, :units], ld.order[l, :R])
    return work, (model, board, pmodel)


@kernel
def fields_views(l, p, axis, R, pz, ld):
    """``chain_views`` of the joint chain on local fields: ladder ``l``'s work for ``R`` replicas and model
    ``p``'s ``(structure,)`` (``axis`` is not used)."""
    units, slots, chains, edges = pz.units[p], pz.slots[p], pz.chains[p], pz.edges[p]
    model = Structure(pz.linear[p, :slots], pz.adj_ptr[p, :slots + 1], pz.adj_idx[p, :edges], pz.adj_val[p, :edges],
                      pz.group_ptr[p, :units + 1], pz.group_vars[p, :slots], pz.free[p, :units],
                      pz.chain_ptr[p, :chains + 1], pz.next_limit[p, :slots], pz.has_prev[p, :units],
                      pz.has_next[p, :units], pz.inner[p, :chains])
    work = FieldsWork(ld.x[l, :R, :slots], ld.field[l, :R, :slots], ld.cur[l, :R, :units], ld.energy[l, :R],
                      ld.beta_of[l, :R], ld.slot_of[l, :R], ld.tables[l, :R, :1], ld.weight[l, :slots],
                      ld.prefix[l, :slots + 1], ld.chosen[l, :units + 1], ld.rng[l:l + 1], ld.best_x[l, :slots],
                      ld.order[l, :R])
    return work, (model,)


@kernel
def _level_betas(p, level, pz):
    j = min(level, pz.level_betas.shape[1] - 1)
    return pz.level_betas[p, j, :pz.level_len[p, j]], pz.rungs[p, j]


@kernel
def _keep_lowest(l, p, betas, return_last, pz, ld, work, data):
    """At the end of a restart: its sample counts, as the ladder's if its lowest energy beats the ladder's (with
    ``return_last``: always, the state of its replica at ``betas[-1]``)."""
    sample = ld.sample[l, :pz.slots[p]]
    if return_last:
        r = coldest(work.beta_of, betas)
        chain_save(r, work)
        ld.lowest[l] = pz.constant[p] + pz.w[p] * work.energy[r]
        chain_sample(sample, work, data)
        return
    e = pz.constant[p] + pz.w[p] * ld.best[l]
    if e < ld.lowest[l]:
        ld.lowest[l] = e
        chain_sample(sample, work, data)


@kernel
def ladder_run(l, count, unit, budget, moves, flags, pz, ld):
    """Up to ``count`` more sweeps of ladder ``l``: restarts of the Luby plan (unit ``unit``, ``budget`` sweeps in
    all), restart ``k`` on the ladder of its level and on its free axis (:func:`~.engine.restart_of`).

    ``moves`` are a :class:`~.layouts.Moves`, ``flags`` :class:`~.layouts.Flags`: with ``at_target`` the ladder
    finishes at the target (else it runs its whole budget, noting the sweep of its first hit); with
    ``stop_at_hit`` it stops once the host has marked its model solved (``pz.stopped``, set between launches only,
    so that the samples do not depend on timing); with ``return_last`` each restart's sample is its coldest
    replica's last state.
    """
    if ld.finished[l] != 0:
        return
    stop_at_hit, at_target, return_last = flags.stop_at_hit, flags.at_target, flags.return_last
    p = ld.puzzle[l]
    w, constant, target = pz.w[p], pz.constant[p], pz.target[p]
    params = Params(moves, return_last, target if at_target else -math.inf, w, constant)
    goal = Params(moves, return_last, target, w, constant)  # what counts as a hit, whether or not it stops there
    stop = pz.stopped[p:p + 1] if stop_at_hit else ld.finished[l:l + 1]
    remaining = count
    while remaining > 0:
        if stop_at_hit and stop[0] != 0 and ld.restart[l] > 0:  # solved by another ladder (set between launches)
            break
        if ld.left[l] == 0:  # a new restart
            if ld.used[l] >= budget and ld.restart[l] > 0:
                ld.finished[l] = 1
                return
            k = ld.restart[l] + 1
            ld.restart[l] = k
            sweeps, level, axis = restart_of(k, ld.stream[l], unit, budget - ld.used[l], 2)
            ld.level[l], ld.axis[l] = level, axis
            ld.used[l] += sweeps
            ld.left[l] = sweeps
            ld.s[l] = 0
            betas, R = _level_betas(p, level, pz)
            work, data = chain_views(l, p, ld.axis[l], R, pz, ld)
            ld.best[l] = restart_begin(betas, w, moves, work, data)
            if sweeps == 0:  # a budget of 0: the random start is the read
                _keep_lowest(l, p, betas, return_last, pz, ld, work, data)
                ld.finished[l] = 1
                return
        betas, R = _level_betas(p, ld.level[l], pz)
        work, data = chain_views(l, p, ld.axis[l], R, pz, ld)
        n = min(remaining, ld.left[l])
        if not at_target and ld.hit[l] < 0:
            n = 1  # a sweep at a time until the first hit is seen
        done, best = restart_sweeps(ld.s[l], n, betas, ld.best[l], params, work, data, Signals(stop, ld.status[l]))
        ld.best[l] = best
        ld.s[l] += done
        ld.left[l] -= done
        ld.done[l] += done
        remaining -= done
        hit = reached(best, goal)
        if hit and ld.hit[l] < 0:
            ld.hit[l] = ld.done[l]
        if hit and at_target:
            _keep_lowest(l, p, betas, return_last, pz, ld, work, data)
            ld.finished[l] = 1
            return
        if ld.left[l] == 0:
            _keep_lowest(l, p, betas, return_last, pz, ld, work, data)
        elif done < n:  # stopped
            break


@kernel
def ladder_close(l, flags, pz, ld):
    """At the end of a run: the ladder's current restart counts towards its lowest energy and sample."""
    if ld.restart[l] == 0:
        return
    p = ld.puzzle[l]
    betas, R = _level_betas(p, ld.level[l], pz)
    work, data = chain_views(l, p, ld.axis[l], R, pz, ld)
    _keep_lowest(l, p, betas, flags.return_last, pz, ld, work, data)


@kernel(parallel=True, _nrt=True)
def run_ladders(count, unit, budget, moves, flags, pz, ld):
    """The CPU backend: :func:`ladder_run` of every ladder, a ``prange`` over them."""
    for l in numba.prange(len(ld.puzzle)):
        ladder_run(l, count, unit, budget, moves, flags, pz, ld)


@kernel(parallel=True, _nrt=True)
def close_ladders(flags, pz, ld):
    """The CPU backend: :func:`ladder_close` of every ladder."""
    for l in numba.prange(len(ld.puzzle)):
        ladder_close(l, flags, pz, ld)


#: The bindings of a launch of each chain (:func:`~.compile_targets.build`).
PROFILE_LAUNCH = dict(_profile.PROFILE, chain_views=profile_views)
FIELDS_LAUNCH = dict(_fields.FIELDS, chain_views=fields_views)
_CPU = {}
_CUDA = {}


def _cpu_driver(chain: str):
    if chain not in _CPU:
        _CPU[chain] = build("cpu", PROFILE_LAUNCH if chain == "profile" else FIELDS_LAUNCH)
    return _CPU[chain]


def _cuda_run(count, unit, budget, moves, flags, pz, ld):
    """The CUDA backend: :func:`ladder_run` of every ladder, one thread each (compiled by :func:`_cuda_driver`)."""
    l = cuda.grid(1)  # noqa: F821 - numba.cuda, given by _cuda_driver
    if l < len(ld.puzzle):
        ladder_run(l, count, unit, budget, moves, flags, pz, ld)


def _cuda_close(flags, pz, ld):
    """The CUDA backend: :func:`ladder_close` of every ladder, one thread each."""
    l = cuda.grid(1)  # noqa: F821 - numba.cuda, given by _cuda_driver
    if l < len(ld.puzzle):
        ladder_close(l, flags, pz, ld)


def _cuda_driver(chain: str):
    """The CUDA kernels of a chain's launch: every kernel compiled again as a device function
    (:func:`~.compile_targets.build`), and :func:`_cuda_run` and :func:`_cuda_close` as kernels over them (imported
    and built only when the CUDA backend runs)."""
    if chain in _CUDA:
        return _CUDA[chain]
    from numba import cuda

    device = build(cuda.jit(device=True), PROFILE_LAUNCH if chain == "profile" else FIELDS_LAUNCH)
    ns = dict(globals(), cuda=cuda, ladder_run=device.ladder_run, ladder_close=device.ladder_close)
    kernels = [cuda.jit(types.FunctionType(f.__code__, ns, f.__name__)) for f in (_cuda_run, _cuda_close)]
    _CUDA[chain] = (cuda, *kernels)
    return _CUDA[chain]


# -- the host side: the run --------------------------------------------------------------------------------------


class _CPUBackend:
    def __init__(self, launch, threads_per_block):
        self.kernels = _cpu_driver(launch["chain"])
        self.pz = Puzzles(**launch["puzzles"])
        self.ld = Ladders(**launch["ladders"])

    def sweeps(self, count, unit, budget, moves, flags):
        self.kernels.run_ladders(count, unit, budget, moves, flags, self.pz, self.ld)

    def close(self, flags):
        self.kernels.close_ladders(flags, self.pz, self.ld)

    def read(self, names):
        return {k: getattr(self.ld, k) for k in names}

    def stop(self, puzzles):
        self.pz.stopped[puzzles] = 1


class _CUDABackend:
    def __init__(self, launch, threads_per_block):
        self.cuda, self.kernel, self.close_kernel = _cuda_driver(launch["chain"])
        self.pz = Puzzles(**{k: self.cuda.to_device(v) for k, v in launch["puzzles"].items()})
        self.ld = Ladders(**{k: self.cuda.to_device(v) for k, v in launch["ladders"].items()})
        L = len(launch["ladders"]["puzzle"])
        self.block = max(1, min(threads_per_block, L))
        self.grid = (L + self.block - 1) // self.block

    def sweeps(self, count, unit, budget, moves, flags):
        self.kernel[self.grid, self.block](count, unit, budget, moves, flags, self.pz, self.ld)
        self.cuda.synchronize()

    def close(self, flags):
        self.close_kernel[self.grid, self.block](flags, self.pz, self.ld)
        self.cuda.synchronize()

    def read(self, names):
        return {k: getattr(self.ld, k).copy_to_host() for k in names}

    def stop(self, puzzles):
        stopped = self.pz.stopped.copy_to_host()
        stopped[puzzles] = 1
        self.pz.stopped.copy_to_device(stopped)


def run(launch: dict, backend: str, budget: int, unit: int, moves: tuple, flags: tuple, *, sweeps_per_launch: int,
        control: RunControl | None = None, threads_per_block: int = 64, offsets=None) -> dict:
    """Run every ladder of ``launch`` (:func:`~qpicross.samplers.blockshift.launch.pack`) until each has finished,
    or until ``control`` (a :class:`~qpicross.samplers.control.RunControl`) stops the run.

    Between launches ``control`` gets the ladders that have finished as its ``reads_done`` (of every ladder: its
    ``num_reads``) and their lowest energy as its ``best`` (each model's with its BQM's offset, ``offsets[p]``;
    default 0), and reports them when a report is due; no launch starts
    past its deadline, and a Ctrl-C ends the run after the launch it arrives in, every ladder keeping its lowest
    state (``control.interrupted``).

    ``moves`` is ``(shift_probability, line_moves, block_moves)``, ``flags`` ``(stop_at_hit, at_target,
    return_last)`` (made :class:`~.layouts.Moves` and :class:`~.layouts.Flags`, :func:`ladder_run`). Sweeps run
    in launches of 1, 2, 4, ... up to ``sweeps_per_launch``.
    Returns the ladders' ``lowest`` energy, ``sample``, ``hit`` (sweeps to the target, -1), ``done`` sweeps and
    ``restart`` count, with ``hit_time`` (seconds from the start of sampling to the end of the launch in which
    the ladder reached the target, an upper bound by at most one launch; ``inf`` if never), ``stopped_at`` and
    ``cut`` per model (whether ``control`` stopped it before its ladders finished), ``launches``, ``sweeps`` and
    ``wall_s``.
    """
    ld = launch["ladders"]
    L, P = len(ld["puzzle"]), len(launch["puzzles"]["w"])
    moves, flags = make_moves(*moves), make_flags(*flags)
    stop_at_hit = flags.stop_at_hit
    device = (_CUDABackend if backend == "cuda" else _CPUBackend)(launch, threads_per_block)
    puzzle = ld["puzzle"]
    control = RunControl(num_reads=L) if control is None else control
    control.num_reads = L
    offset = np.zeros(L) if offsets is None else np.asarray(offsets, np.float64)[puzzle]  # per ladder
    start = now = time.perf_counter()
    hit_time = np.full(L, np.inf)
    stopped_at = np.full(P, math.nan)
    active = np.ones(P, bool)
    launches, k, swept = 0, 1, 0
    control.report()
    with control.interruptible():
        for _ in control.going(itertools.count()):  # launches, while a model runs and nothing stopped the run
            if not active.any():
                break
            device.sweeps(k, unit, budget, moves, flags)
            now = time.perf_counter()
            launches += 1
            swept += k
            active, k = _after_launch(device, control, puzzle, offset, active, hit_time, stopped_at,
                                      elapsed=now - start, k=k, sweeps_per_launch=sweeps_per_launch,
                                      stop_at_hit=stop_at_hit)
    now = time.perf_counter()
    if active.any():  # cut by the time limit or Ctrl-C: the other ladders of those models stop too
        device.stop(np.flatnonzero(active))
    stopped_at[active] = now - start
    device.close(flags)
    out = device.read(("lowest", "sample", "hit", "done", "restart"))
    control.reads_done, control.best = L, float(np.min(out["lowest"] + offset, initial=math.inf))
    control.report()
    out.update(hit_time=hit_time, stopped_at=stopped_at, cut=active, launches=launches, sweeps=swept,
               wall_s=now - start)
    return out


def _after_launch(device, control, puzzle, offset, active, hit_time, stopped_at, *, elapsed, k, sweeps_per_launch,
                  stop_at_hit):
    """What a launch changed: the ladders' first hits, the models that stopped, the run's control; the models
    still running and the next launch's sweeps."""
    P = len(active)
    got = device.read(("hit", "finished") if control.progress is None else ("hit", "finished", "lowest"))
    fresh = (got["hit"] >= 0) & ~np.isfinite(hit_time)
    hit_time[fresh] = elapsed  # the end of the launch that reached it: an upper bound, one launch at most
    solved = np.zeros(P, bool)
    np.logical_or.at(solved, puzzle, got["hit"] >= 0)
    finished = np.ones(P, bool)
    np.logical_and.at(finished, puzzle, got["finished"] != 0)
    newly = active & (finished | (solved & stop_at_hit))
    stopped_at[newly] = elapsed
    active = active & ~newly
    if stop_at_hit and (newly & ~finished).any():
        device.stop(np.flatnonzero(newly & ~finished))
    control.reads_done = int(np.count_nonzero(~active[puzzle] | (got["finished"] != 0)))
    best = float(np.min(got["lowest"] + offset, initial=math.inf)) if "lowest" in got else math.inf
    control.between(best)
    return active, min(2 * k, sweeps_per_launch)


def compiled(chain: str = "profile") -> bool:
    """Whether the CPU backend's kernels of ``chain`` are in numba's on-disk cache (:func:`~.compile_targets.cached`): if
    not, the first batched run of this process compiles them (minutes; 324 s seen on a loaded 2-core machine)."""
    from qpicross.samplers.blockshift.compile_targets import cached

    return cached(_cpu_driver(chain).run_ladders)
