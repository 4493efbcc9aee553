r"""The batched driver: many ladders of many puzzles in launches, on the CPU (a ``prange``) or a GPU.

:class:`~qpicross.samplers.blockshift.batched.BatchedShiftSampler` hands a launch of models to
:func:`run`. Each of a model's ``num_reads`` *ladders* is one restart stream of the CPU sampler:
restarts of the engine (:func:`~.engine.restart_begin`, :func:`~.engine.restart_sweeps`) along a
Luby plan, each on the ladder of its level, run by :func:`ladder_run` in pieces of a launch each,
its state kept between launches in the :data:`Ladders` arrays. Either chain runs, bound by
:func:`~.targets.build` (the open name ``chain_views`` gives a ladder's work and model as the chain
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
    >>> model = prepare_profile(f.bqm(), f.one_hot_lines(), f.paints(), None, 0.0)
    >>> launch = pack([model], np.random.SeedSequence(1), 4)
    >>> out = run(launch, "cpu", 1000, 100, (0.5, 1.0, False), (True, True, False), 64, None)
    >>> bool((out["hit"] >= 0).any()), int(out["restart"].min()) >= 1  # solved; every ladder started
    (True, True)
"""

from __future__ import annotations

import dataclasses
import math
import time
import types
from collections import namedtuple

import dimod
import numba
import numpy as np

from qpicross.samplers.blockshift import board as _board, joint as _joint, profile as _profile
from qpicross.samplers.blockshift.engine import (TOLERANCE, coldest, luby, restart_begin, restart_sweeps,
                                                 seed_rng)
from qpicross.samplers.blockshift.layouts import Board, FieldsWork, Profile, ProfileWork, Structure
from qpicross.samplers.blockshift.restarts import ladder
from qpicross.samplers.blockshift.structure import default_beta_range, read_structure
from qpicross.samplers.blockshift.targets import build, kernel

__all__ = ["LaunchModel", "prepare_profile", "prepare_fields", "pack", "run", "memory_bytes", "Puzzles", "Ladders",
           "PROFILE_LAUNCH", "FIELDS_LAUNCH", "LEVELS", "MAX_RUNGS"]

#: Luby levels whose ladders a profile launch carries (a restart of a higher level runs the last one's).
LEVELS = 24
#: Rungs of the widest ladder of the restart plan (:func:`~qpicross.samplers.blockshift.restarts.ladder`).
MAX_RUNGS = 12

#: Every model of a launch, padded to the largest: row ``p`` of each array is model ``p``'s, ``sizes[p]`` their
#: true lengths (:data:`SIZES`); ``rungs[p, j]`` and ``level_betas[p, j, :level_len[p, j]]`` the replicas and
#: inverse temperatures of a restart of Luby level ``j``; ``stopped[p]`` set by the host when the model stops.
Puzzles = namedtuple("Puzzles", "linear adj_ptr adj_idx adj_val group_ptr group_vars free chain_ptr next_limit "
                                "has_prev has_next inner seg_start glen line_axis cell0 stride line_len prof_chain "
                                "prof_cell0 prof_stride prof_len cross free_chains pos_of band sizes w constant "
                                "target rungs level_betas level_len stopped")
#: The columns of ``Puzzles.sizes``.
SIZES = ("units", "slots", "chains", "cells", "table", "blocks", "longest", "prof0", "free0", "prof1", "free1",
         "edges")
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
    z = pz.sizes[p]
    units, slots, chains, cells, table, blocks, longest = z[0], z[1], z[2], z[3], z[4], z[5], z[6]
    n_prof, n_free = z[7 + 2 * axis], z[8 + 2 * axis]
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
    z = pz.sizes[p]
    units, slots, chains, edges = z[0], z[1], z[2], z[11]
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
    sample = ld.sample[l, :pz.sizes[p, 1]]
    if return_last:
        r = coldest(work.beta_of, betas)
        chain_save(r, work)  # noqa: F821 - bound by targets.build
        ld.lowest[l] = pz.constant[p] + pz.w[p] * work.energy[r]
        chain_sample(sample, work, data)  # noqa: F821
        return
    e = pz.constant[p] + pz.w[p] * ld.best[l]
    if e < ld.lowest[l]:
        ld.lowest[l] = e
        chain_sample(sample, work, data)  # noqa: F821


@kernel
def ladder_run(l, count, unit, budget, moves, flags, pz, ld):
    """Up to ``count`` more sweeps of ladder ``l``: restarts of the Luby plan (unit ``unit``, ``budget`` sweeps in
    all), restart ``k`` on the ladder of its level and on free axis ``(stream + k - 1) % 2``.

    ``flags`` is ``(stop_at_hit, at_target, return_last)``: with ``at_target`` the ladder finishes at the target
    (else it runs its whole budget, noting the sweep of its first hit); with ``stop_at_hit`` it stops once the
    host has marked its model solved (``pz.stopped``, set between launches only, so that the samples do not
    depend on timing); with ``return_last`` each restart's sample is its coldest replica's last state.
    """
    if ld.finished[l] != 0:
        return
    stop_at_hit, at_target, return_last = flags
    p = ld.puzzle[l]
    w, constant, target = pz.w[p], pz.constant[p], pz.target[p]
    goal = target if at_target else -math.inf
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
            m = luby(k)
            level = 0
            while (2 << level) <= m:
                level += 1
            ld.level[l] = level
            ld.axis[l] = (ld.stream[l] + k - 1) % 2
            sweeps = min(unit * m, budget - ld.used[l])
            ld.used[l] += sweeps
            ld.left[l] = sweeps
            ld.s[l] = 0
            betas, R = _level_betas(p, level, pz)
            work, data = chain_views(l, p, ld.axis[l], R, pz, ld)  # noqa: F821 - bound by targets.build
            ld.best[l] = restart_begin(betas, w, moves, work, data)
            if sweeps == 0:  # a budget of 0: the random start is the read
                _keep_lowest(l, p, betas, return_last, pz, ld, work, data)
                ld.finished[l] = 1
                return
        betas, R = _level_betas(p, ld.level[l], pz)
        work, data = chain_views(l, p, ld.axis[l], R, pz, ld)  # noqa: F821
        n = min(remaining, ld.left[l])
        if not at_target and ld.hit[l] < 0:
            n = 1  # a sweep at a time until the first hit is seen
        done, best = restart_sweeps(ld.s[l], n, betas, ld.best[l], moves, return_last, goal, w, constant, work,
                                    data, stop, ld.status[l])
        ld.best[l] = best
        ld.s[l] += done
        ld.left[l] -= done
        ld.done[l] += done
        remaining -= done
        reached = constant + w * best <= target + TOLERANCE
        if reached and ld.hit[l] < 0:
            ld.hit[l] = ld.done[l]
        if reached and at_target:
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
    work, data = chain_views(l, p, ld.axis[l], R, pz, ld)  # noqa: F821
    _keep_lowest(l, p, betas, flags[2], pz, ld, work, data)


@kernel(parallel=True)
def run_ladders(count, unit, budget, moves, flags, pz, ld):
    """The CPU backend: :func:`ladder_run` of every ladder, a ``prange`` over them."""
    for l in numba.prange(len(ld.puzzle)):
        ladder_run(l, count, unit, budget, moves, flags, pz, ld)


@kernel(parallel=True)
def close_ladders(flags, pz, ld):
    """The CPU backend: :func:`ladder_close` of every ladder."""
    for l in numba.prange(len(ld.puzzle)):
        ladder_close(l, flags, pz, ld)


#: The bindings of a launch of each chain (:func:`~.targets.build`).
PROFILE_LAUNCH = dict(_profile.PROFILE, chain_views=profile_views)
FIELDS_LAUNCH = dict(_joint.FIELDS, chain_views=fields_views)
_CPU = {}
_CUDA = {}


def _cpu_driver(chain: str):
    if chain not in _CPU:
        _CPU[chain] = build("cpu", PROFILE_LAUNCH if chain == "profile" else FIELDS_LAUNCH)
    return _CPU[chain]


def _cuda_run(count, unit, budget, shift_probability, line_moves, block_moves, stop_at_hit, at_target, return_last,
              pz, ld):
    """The CUDA backend: :func:`ladder_run` of every ladder, one thread each (compiled by :func:`_cuda_driver`)."""
    l = cuda.grid(1)  # noqa: F821 - numba.cuda, given by _cuda_driver
    if l < len(ld.puzzle):
        ladder_run(l, count, unit, budget, (shift_probability, line_moves, block_moves),
                   (stop_at_hit, at_target, return_last), pz, ld)


def _cuda_close(stop_at_hit, at_target, return_last, pz, ld):
    """The CUDA backend: :func:`ladder_close` of every ladder, one thread each."""
    l = cuda.grid(1)  # noqa: F821
    if l < len(ld.puzzle):
        ladder_close(l, (stop_at_hit, at_target, return_last), pz, ld)


def _cuda_driver(chain: str):
    """The CUDA kernels of a chain's launch: every kernel compiled again as a device function
    (:func:`~.targets.build`), and :func:`_cuda_run` and :func:`_cuda_close` as kernels over them (imported
    and built only when the CUDA backend runs)."""
    if chain in _CUDA:
        return _CUDA[chain]
    from numba import cuda

    device = build(cuda.jit(device=True), PROFILE_LAUNCH if chain == "profile" else FIELDS_LAUNCH)
    ns = dict(globals(), cuda=cuda, ladder_run=device.ladder_run, ladder_close=device.ladder_close)
    kernels = [cuda.jit(types.FunctionType(f.__code__, ns, f.__name__)) for f in (_cuda_run, _cuda_close)]
    _CUDA[chain] = (cuda, *kernels)
    return _CUDA[chain]


# -- the host side: models, the launch's arrays, the run ---------------------------------------------------------


@dataclasses.dataclass
class LaunchModel:
    """One model of a launch: its BQM and structure, and for the profile chain its board and both axes' profiles.

    ``w`` and ``constant`` turn the chain's energies into the BQM's (1 and 0 on the fields); ``levels`` holds
    the inverse temperatures of a restart of each Luby level and ``rungs`` its replicas (one when it anneals
    along them sweep by sweep); ``target`` is the target without the offset.
    """

    bqm: dimod.BinaryQuadraticModel
    variables: list
    structure: Structure
    board: Board | None
    w: float
    constant: float
    profiles: tuple | None
    levels: list
    rungs: list
    target: float


def _binary(bqm):
    return bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm


def _target(binary, target_energy) -> float:
    return -math.inf if target_energy is None else float(target_energy) - float(binary.offset)


def prepare_profile(bqm, lines, paints, beta_range, target_energy) -> LaunchModel | None:
    """The profile chain's model of a BQM with its lines and paints, or ``None`` where it does not apply
    (not "constant + w x mismatches" on clue-consistent states, or lines that are not plain nonogram lines)."""
    binary = _binary(bqm)
    variables = list(binary.variables)
    if not variables or not lines or paints is None:
        return None
    structure, couplings = read_structure(binary, variables, lines)
    found = _board.board_model(variables, paints, structure, couplings)
    if found is None:
        return None
    board, w, constant = found
    profiles = tuple(_profile.profile_model(board, structure, axis) for axis in (0, 1))
    if any(p is None for p in profiles):
        return None
    hot_cold = default_beta_range(binary) if beta_range is None else beta_range
    levels = [ladder(tuple(float(b) for b in hot_cold), level) for level in range(LEVELS)]
    return LaunchModel(bqm, variables, structure, board, w, constant, profiles, levels, [len(b) for b in levels],
                       _target(binary, target_energy))


def prepare_fields(bqm, lines, beta_range, target_energy, num_replicas: int, num_sweeps: int) -> LaunchModel:
    """The joint chain's model of any BQM with one-hot ``lines``, on one fixed schedule: ``num_replicas``
    rungs geometric over ``beta_range`` (one: annealing from hot to cold over ``num_sweeps``)."""
    binary = _binary(bqm)
    variables = list(binary.variables)
    structure, _ = read_structure(binary, variables, lines)
    hot, cold = (float(b) for b in beta_range)
    betas = np.geomspace(hot, cold, num_replicas if num_replicas > 1 else max(num_sweeps, 1))
    return LaunchModel(bqm, variables, structure, None, 1.0, 0.0, None, [betas], [num_replicas],
                       _target(binary, target_energy))


def _chain(models) -> str:
    return "fields" if models[0].profiles is None else "profile"


def pack(models: list[LaunchModel], seed: np.random.SeedSequence, num_reads: int) -> dict:
    """The launch's arrays (all of one chain): every model's padded to the largest (:data:`Puzzles`) and every
    ladder's state (:data:`Ladders`), as numpy arrays, and ``seeds``: ladder ``l``'s random stream is the one
    :func:`~.engine.read` starts from ``seeds[l]``, so its first restart is that call's."""
    P = len(models)
    profile = _chain(models) == "profile"
    sizes = np.zeros((P, len(SIZES)), np.int64)
    for p, m in enumerate(models):
        s = m.structure
        sizes[p, [0, 1, 2, 11]] = len(s.group_ptr) - 1, len(s.group_vars), len(s.chain_ptr) - 1, len(s.adj_idx)
        if profile:
            b, (p0, p1) = m.board, m.profiles
            sizes[p, 3:11] = (int(b.n_cells), int(b.table_size), int(p0.blocks), int(p0.longest), len(p0.prof_chain),
                              len(p0.free_chains), len(p1.prof_chain), len(p1.free_chains))
    top = sizes.max(axis=0)
    units, slots, chains, cells, table, blocks, longest, edges = (int(v) for v in (*top[:7], top[11]))
    n_prof, n_free = max(int(top[7]), int(top[9])), max(int(top[8]), int(top[10]))
    width = max(len(b) for m in models for b in m.levels)
    n_levels = max(len(m.levels) for m in models)
    R = max(max(m.rungs) for m in models)

    def rows(shape, dtype, fill=0):
        return np.full((P, *shape), fill, dtype)

    joint_rows = (lambda shape, dtype: rows(shape if not profile else tuple(0 for _ in shape), dtype))
    prof_rows = (lambda shape, dtype, fill=0: rows(shape if profile else tuple(0 for _ in shape), dtype, fill))
    pz = dict(linear=joint_rows((slots,), np.float64), adj_ptr=joint_rows((slots + 1,), np.int64),
              adj_idx=joint_rows((edges,), np.int64), adj_val=joint_rows((edges,), np.float64),
              group_ptr=rows((units + 1,), np.int64), group_vars=rows((slots,), np.int64),
              free=joint_rows((units,), np.bool_), chain_ptr=rows((chains + 1,), np.int64),
              next_limit=rows((slots,), np.int64), has_prev=joint_rows((units,), np.bool_),
              has_next=joint_rows((units,), np.bool_), inner=joint_rows((chains,), np.bool_),
              seg_start=prof_rows((slots,), np.int64), glen=prof_rows((units,), np.int64),
              line_axis=prof_rows((chains,), np.int64), cell0=prof_rows((chains,), np.int64),
              stride=prof_rows((chains,), np.int64), line_len=prof_rows((chains,), np.int64),
              prof_chain=prof_rows((2, n_prof), np.int64), prof_cell0=prof_rows((2, n_prof), np.int64),
              prof_stride=rows((2,), np.int64), prof_len=rows((2,), np.int64), cross=prof_rows((2, cells), np.int64),
              free_chains=prof_rows((2, n_free), np.int64), pos_of=prof_rows((units, longest + 1), np.int64, -1),
              band=prof_rows((2, n_prof, blocks + 1, 2), np.int64), sizes=sizes,
              w=np.array([m.w for m in models], np.float64), constant=np.array([m.constant for m in models]),
              target=np.array([m.target for m in models], np.float64), rungs=rows((n_levels,), np.int64),
              level_betas=rows((n_levels, width), np.float64), level_len=rows((n_levels,), np.int64),
              stopped=np.zeros(P, np.int8))
    for p, m in enumerate(models):
        s = m.structure
        fields = [("group_ptr", s.group_ptr), ("group_vars", s.group_vars), ("chain_ptr", s.chain_ptr),
                  ("next_limit", s.next_limit)]
        if profile:
            b = m.board
            fields += [("seg_start", b.seg_start), ("glen", b.glen), ("line_axis", b.line_axis), ("cell0", b.cell0),
                       ("stride", b.stride), ("line_len", b.line_len)]
        else:
            fields += [("linear", s.linear), ("adj_ptr", s.adj_ptr), ("adj_idx", s.adj_idx), ("adj_val", s.adj_val),
                       ("free", s.free), ("has_prev", s.has_prev), ("has_next", s.has_next), ("inner", s.inner)]
        for name, value in fields:
            pz[name][p, :len(value)] = value
        if profile:
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
        for level, betas in enumerate(m.levels):
            pz["level_betas"][p, level, :len(betas)] = betas
            pz["level_len"][p, level] = len(betas)
            pz["rungs"][p, level] = m.rungs[level]

    L = P * num_reads
    span = (blocks + 1) * (longest + 1)
    seeds = (seed.generate_state(max(L, 1), np.uint64)[:L] >> np.uint64(1)).astype(np.int64)
    rng = np.ones(L, np.uint64)
    for l in range(L):  # each ladder's stream as engine.read starts one from its seed
        seed_rng(rng[l:l + 1], seeds[l])
    n = slots if not profile else 0
    fl = (lambda shape, dtype: np.zeros((L, *shape) if profile else (L, *(0 for _ in shape)), dtype))
    ld = dict(
        puzzle=np.repeat(np.arange(P, dtype=np.int64), num_reads), stream=np.tile(np.arange(num_reads), P),
        restart=np.zeros(L, np.int64), left=np.zeros(L, np.int64), s=np.zeros(L, np.int64), best=np.zeros(L),
        axis=np.zeros(L, np.int64), level=np.zeros(L, np.int64), used=np.zeros(L, np.int64),
        done=np.zeros(L, np.int64), hit=np.full(L, -1, np.int64), lowest=np.full(L, np.inf),
        sample=np.zeros((L, slots), np.int8), finished=np.zeros(L, np.int8), status=np.zeros((L, 2)),
        x=np.zeros((L, R, n), np.int8), field=np.zeros((L, R, n)), best_x=np.zeros((L, n), np.int8),
        cur=np.zeros((L, R, units), np.int64), boards=fl((R, 2, cells), np.int16), marg=fl((R, 2, cells), np.int32),
        pcost=fl((R, n_prof), np.int64), energy=np.zeros((L, R), np.int64 if profile else np.float64),
        beta_of=np.zeros((L, R)), slot_of=np.zeros((L, R), np.int64),
        tables=np.zeros((L, R, table if profile else 1)), weight=np.zeros((L, slots)),
        prefix=np.zeros((L, slots + 1)), chosen=np.zeros((L, units + 1), np.int64),
        cost=fl((2 * (longest + 1),), np.int64), dp=fl((2, span), np.int64), scratch=fl((6 * (longest + 1),), np.int64),
        rng=rng, best_cur=np.zeros((L, units), np.int64), order=np.zeros((L, R), np.int64))
    return {"puzzles": pz, "ladders": ld, "seeds": seeds, "chain": _chain(models)}


def memory_bytes(models: list[LaunchModel], num_reads: int) -> int:
    """Bytes :func:`pack` allocates for the ladders (the bulk of a launch), to check before allocating them:
    each ladder's state padded to the largest model."""
    slots = max(len(m.structure.group_vars) for m in models)
    units = max(len(m.structure.group_ptr) for m in models)
    if _chain(models) == "fields":  # x, fields, positions and energy per replica; scratch and sample per ladder
        per_rung = 9 * slots + 8 * units + 40
        rungs = max(max(m.rungs) for m in models)
        return len(models) * num_reads * (rungs * per_rung + 26 * slots + 16 * units)
    cells = max(int(m.board.n_cells) for m in models)
    table = max(int(m.board.table_size) for m in models)
    lines = max(max(len(p.prof_chain) for p in m.profiles) for m in models)
    per_rung = cells * (2 * 2 + 2 * 4) + 8 * (units + table + lines)
    return len(models) * num_reads * (MAX_RUNGS * per_rung + 17 * slots + 16 * units)


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
        self.kernel[self.grid, self.block](count, unit, budget, *moves, *flags, self.pz, self.ld)
        self.cuda.synchronize()

    def close(self, flags):
        self.close_kernel[self.grid, self.block](*flags, self.pz, self.ld)
        self.cuda.synchronize()

    def read(self, names):
        return {k: getattr(self.ld, k).copy_to_host() for k in names}

    def stop(self, puzzles):
        stopped = self.pz.stopped.copy_to_host()
        stopped[puzzles] = 1
        self.pz.stopped.copy_to_device(stopped)


def run(launch: dict, backend: str, budget: int, unit: int, moves: tuple, flags: tuple, sweeps_per_launch: int,
        time_limit: float | None, threads_per_block: int = 64) -> dict:
    """Run every ladder of ``launch`` (:func:`pack`) until each has finished, or ``time_limit`` seconds.

    ``moves`` is ``(shift_probability, line_moves, block_moves)``, ``flags`` ``(stop_at_hit, at_target,
    return_last)`` (:func:`ladder_run`). Sweeps run in launches of 1, 2, 4, ... up to ``sweeps_per_launch``.
    Returns the ladders' ``lowest`` energy, ``sample``, ``hit`` (sweeps to the target, -1), ``done`` sweeps and
    ``restart`` count, with ``hit_time`` (seconds from the start of sampling to the end of the launch in which
    the ladder reached the target, an upper bound by at most one launch; ``inf`` if never), ``stopped_at`` per
    model, ``launches``, ``sweeps`` and ``wall_s``.
    """
    ld = launch["ladders"]
    L, P = len(ld["puzzle"]), len(launch["puzzles"]["w"])
    moves = (float(moves[0]), float(moves[1]), bool(moves[2]))
    flags = tuple(bool(f) for f in flags)
    stop_at_hit = flags[0]
    device = (_CUDABackend if backend == "cuda" else _CPUBackend)(launch, threads_per_block)
    puzzle = ld["puzzle"]
    start = now = time.perf_counter()
    hit_time = np.full(L, np.inf)
    stopped_at = np.full(P, math.nan)
    active = np.ones(P, bool)
    launches, k, swept = 0, 1, 0
    while active.any():
        if time_limit is not None and now - start >= time_limit:
            break
        device.sweeps(k, unit, budget, moves, flags)
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
    if active.any():  # cut by the time limit: the other ladders of those models stop too
        device.stop(np.flatnonzero(active))
    stopped_at[active] = now - start
    device.close(flags)
    out = device.read(("lowest", "sample", "hit", "done", "restart"))
    out.update(hit_time=hit_time, stopped_at=stopped_at, launches=launches, sweeps=swept, wall_s=now - start)
    return out
