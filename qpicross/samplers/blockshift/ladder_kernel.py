"""The device side of the batched sampler's profile chain: one ladder's restart plan, run in pieces.

:func:`ladder_run` runs up to a launch's worth of sweeps of one ladder -- the Luby restarts of
:mod:`~qpicross.samplers.blockshift.restarts`, each a restart of
:func:`~qpicross.samplers.blockshift.moves.restart_begin` and
:func:`~qpicross.samplers.blockshift.moves.restart_sweeps` -- and keeps its state between launches in the
:data:`Ladders` arrays; :mod:`~qpicross.samplers.blockshift.ladders` drives it on the CPU (a ``prange``)
and :mod:`~qpicross.samplers.blockshift.cuda` on a GPU (one thread per ladder), the same code compiled
twice as :mod:`~qpicross.samplers.blockshift.moves` is.
"""

from __future__ import annotations

from collections import namedtuple

import numba

# The CUDA backend sets ``device_jit``, and ``_moves`` to its CUDA copy of the moves, before executing this file.
device_jit = globals().get("device_jit") or numba.njit(cache=True)
if "_moves" not in globals():
    from qpicross.samplers.blockshift import moves as _moves

__all__ = ["Puzzles", "Ladders", "SIZES", "MAX_RUNGS", "luby", "ladder_run", "ladder_close"]

#: The batched sampler's padded arrays of every puzzle of a launch (:func:`~qpicross.samplers.blockshift.ladders.pack`):
#: row ``p`` of each holds puzzle ``p``'s structure, board and both axes' profile-chain arrays
#: (:mod:`~qpicross.samplers.blockshift.moves`), ``sizes[p]`` their true lengths (:data:`SIZES`), ``level_betas[p, j]`` the ladder of Luby level ``j``.
Puzzles = namedtuple("Puzzles", "group_ptr group_vars chain_ptr next_limit seg_start glen line_axis cell0 stride "
                                "line_len prof_chain prof_cell0 prof_stride prof_len cross free_chains pos_of band "
                                "sizes w constant target level_betas stopped")
#: The columns of ``Puzzles.sizes``: groups, variables, lines, cells, table size, blocks, longest line, then the
#: profiled and the free lines of axis 0 and of axis 1.
SIZES = ("units", "slots", "chains", "cells", "table", "blocks", "longest", "prof0", "free0", "prof1", "free1")
#: Every ladder's state between launches (:func:`~qpicross.samplers.blockshift.ladders.pack`): its puzzle and stream
#: (its index among the puzzle's ladders), its restart (``restart`` begun, ``left`` sweeps to go, ``s`` done,
#: ``best`` its lowest profile energy, ``axis``, ``level``: its Luby level), its totals (``done`` sweeps, ``hit`` the sweep that
#: reached the target or -1, ``lowest`` energy and its ``sample``), ``finished``, and one :class:`ProfileWork`
#: of the largest ladder, one row per ladder.
Ladders = namedtuple("Ladders", "puzzle stream restart left s best axis level used done hit lowest sample finished "
                                "status cur boards marg pcost energy beta_of slot_of tables weight prefix chosen cost dp "
                                "scratch rng best_cur order")
#: Rungs of the widest ladder (:func:`~qpicross.samplers.blockshift.restarts.ladder`).
MAX_RUNGS = 12


@device_jit
def luby(k):
    """The ``k``-th term (``k >= 1``) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ... (as
    :func:`~qpicross.samplers.blockshift.restarts.luby`, without recursion)."""
    while True:
        power = 1
        while (1 << power) - 1 < k:
            power += 1
        if k == (1 << power) - 1:
            return 1 << (power - 1)
        k = k - (1 << (power - 1)) + 1


@device_jit
def _rungs(level):
    """Replicas of the ladder of Luby level ``level`` (:func:`~qpicross.samplers.blockshift.restarts.ladder`)."""
    return min(4 + 2 * level, MAX_RUNGS)


@device_jit
def _views(l, p, axis, R, pz, ld):
    """Puzzle ``p``'s arrays with their true lengths, and ladder ``l``'s work for ``R`` replicas on ``axis``."""
    z = pz.sizes[p]
    units, slots, chains, cells, table, blocks, longest = z[0], z[1], z[2], z[3], z[4], z[5], z[6]
    n_prof, n_free = z[7 + 2 * axis], z[8 + 2 * axis]
    model = _moves.Structure(pz.glen[p, :0], pz.group_ptr[p, :0], pz.group_ptr[p, :0], pz.glen[p, :0],
                      pz.group_ptr[p, :units + 1], pz.group_vars[p, :slots], pz.glen[p, :0], pz.chain_ptr[p, :chains + 1],
                      pz.next_limit[p, :slots], pz.glen[p, :0], pz.glen[p, :0], pz.glen[p, :0])
    board = _moves.Board(pz.seg_start[p, :slots], pz.glen[p, :units], pz.line_axis[p, :chains], pz.cell0[p, :chains],
                  pz.stride[p, :chains], pz.line_len[p, :chains], cells, table)
    pmodel = _moves.Profile(pz.prof_chain[p, axis, :n_prof], pz.prof_cell0[p, axis, :n_prof], pz.prof_stride[p, axis],
                     pz.prof_len[p, axis], pz.cross[p, axis, :cells], pz.free_chains[p, axis, :n_free],
                     pz.pos_of[p, :units, :longest + 1], blocks, longest, pz.band[p, axis, :n_prof, :blocks + 1])
    span = (blocks + 1) * (longest + 1)
    work = _moves.ProfileWork(ld.cur[l, :R, :units], ld.boards[l, :R, :, :cells], ld.marg[l, :R, :, :cells],
                       ld.pcost[l, :R, :n_prof], ld.energy[l, :R], ld.beta_of[l, :R], ld.slot_of[l, :R],
                       ld.tables[l, :R, :table], ld.weight[l, :slots], ld.prefix[l, :slots + 1],
                       ld.chosen[l, :units + 1], ld.cost[l, :2 * (longest + 1)], ld.dp[l, :, :span],
                       ld.scratch[l, :6 * (longest + 1)], ld.rng[l:l + 1], ld.best_cur[l, :units], ld.order[l, :R])
    return model, board, pmodel, work


@device_jit
def _keep_lowest(l, p, pz, ld, model, board, pmodel, work):
    """The ladder's lowest energy and its sample, should the current restart's best beat it."""
    e = pz.constant[p] + pz.w[p] * ld.best[l]
    if e < ld.lowest[l]:
        ld.lowest[l] = e
        _moves.returned_state(work.best_cur, ld.sample[l, :pz.sizes[p, 1]], work, pmodel, board, model)


@device_jit
def ladder_run(l, count, unit, budget, line_moves, stop_at_hit, pz, ld):
    """Up to ``count`` more sweeps of ladder ``l``: restarts of the Luby plan (unit ``unit``, ``budget`` sweeps in
    all), each on the ladder of its level (:func:`~qpicross.samplers.blockshift.restarts.ladder`) and on the free
    axis ``(stream + restart) % 2``, as a stream of the CPU sampler runs them. The ladder finishes at the target or
    at the end of its budget; with ``stop_at_hit`` it stops once the host has marked its puzzle solved
    (``pz.stopped``, set between launches only, so that the samples do not depend on timing)."""
    if ld.finished[l] != 0:
        return
    p = ld.puzzle[l]
    w, constant, target = pz.w[p], pz.constant[p], pz.target[p]
    stop = pz.stopped[p:p + 1]
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
            R = _rungs(level)
            ld.axis[l] = (ld.stream[l] + k - 1) % 2
            sweeps = min(unit * m, budget - ld.used[l])
            ld.used[l] += sweeps
            ld.left[l] = sweeps
            ld.s[l] = 0
            model, board, pmodel, work = _views(l, p, ld.axis[l], R, pz, ld)
            betas = pz.level_betas[p, min(level, pz.level_betas.shape[1] - 1), :R]
            ld.best[l] = _moves.restart_begin(betas, w, work, pmodel, board, model)
            if sweeps == 0:  # a budget of 0: the random start is the read
                _keep_lowest(l, p, pz, ld, model, board, pmodel, work)
                ld.finished[l] = 1
                return
        level = ld.level[l]
        R = _rungs(level)
        model, board, pmodel, work = _views(l, p, ld.axis[l], R, pz, ld)
        betas = pz.level_betas[p, min(level, pz.level_betas.shape[1] - 1), :R]
        n = min(remaining, ld.left[l])
        status = ld.status[l]
        done, best = _moves.restart_sweeps(ld.s[l], n, betas, ld.best[l], line_moves, False, target, w, constant, work,
                                    pmodel, board, model, stop if stop_at_hit else ld.finished[l:l + 1], status)
        ld.best[l] = best
        ld.s[l] += done
        ld.left[l] -= done
        ld.done[l] += done
        remaining -= done
        if constant + w * best <= target + _moves.TOLERANCE:
            ld.hit[l] = ld.done[l]
            _keep_lowest(l, p, pz, ld, model, board, pmodel, work)
            ld.finished[l] = 1
            return
        if ld.left[l] == 0:
            _keep_lowest(l, p, pz, ld, model, board, pmodel, work)
        elif done < n:  # stopped
            break


@device_jit
def ladder_close(l, pz, ld):
    """At the end of a run: the ladder's current restart counts towards its lowest energy and sample."""
    if ld.restart[l] == 0:
        return
    p = ld.puzzle[l]
    model, board, pmodel, work = _views(l, p, ld.axis[l], _rungs(ld.level[l]), pz, ld)
    _keep_lowest(l, p, pz, ld, model, board, pmodel, work)
