r"""The structured annealer's profile chain: rows are sampled, every column is minimised out.

On the Picross formulation with every line clue-consistent, the BQM's energy is
:math:`c + w\,M(x)`, :math:`M` the cells where the rows' board and the columns'
board differ (:mod:`qpicross.samplers.blockshift.board`). The joint chain samples rows and
columns together. The *profile* chain keeps only the lines of one axis (the
*free* lines: rows here, columns by symmetry, :func:`profile_model`'s ``free_axis``;
the sampler's restarts take both in turn) and gives each state the energy of its
best columns:

.. math:: E_{\text{profile}}(\text{rows}) = c + w \sum_j \min_{\text{placements of column } j} \#\{\text{mismatched cells of column } j\}
          = \min_{\text{columns}} E(\text{rows}, \text{columns}).

Its ground states are exactly the BQM's (energy ``c`` there, and a column
placement with no mismatch is one of the solution), and a read's sample is its
rows with, in each column, a placement that attains the minimum: a state of the
BQM with exactly that energy. At inverse temperature :math:`\beta` the chain
samples :math:`e^{-\beta E_{\text{profile}}}` over clue-consistent rows, with
heat-bath row moves: a column's minimum, as a function of one cell with the
column's other cells fixed, is ``min(Mb + v, Mp + 1 - v)`` for the cell's value
``v`` (``Mb``/``Mp``: the fewest mismatches on the column's other cells among its
placements leaving the cell empty/painting it), so a row's conditional is a
product over its cells and is drawn exactly by the line move's dynamic
programme (:func:`~qpicross.samplers.blockshift.engine.draw_placement`). ``Mb`` and ``Mp``
come from one forward and one backward pass of max-plus dynamic programming over
the column, redone for each column a row move changes: a placement's mismatches
are ``sum(lengths) + painted - 2 covered`` (``covered``: the painted cells under its
blocks), and a placement is a non-decreasing sequence of its blocks' offsets from
their leftmost starts (:func:`_band`), so the passes take ``O(blocks x slack)``
steps, each a running maximum (:func:`column`).

A row move thus sees what each column could become, not only where its blocks
are now: the joint chain's row move pays for a cell its column paints the other
way even when the column could shift at no cost. ``make bench-chains`` measures
the difference (the docs' results pages).

It applies when the lines are plain nonogram lines: each block at start ``s``
lets the next start from ``s + length + 1`` on (the formulation's order term;
checked exactly on the sampler's structure), the starts a block may take being
any subset (presolve may remove some).

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> from qpicross.samplers.blockshift.sampler import BlockShiftSampler
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=3,
    ...                                 num_sweeps=100, target_energy=0, seed=1)
    >>> ss.info["chain"], float(ss.first.energy)
    ('profile', 0.0)
"""

from __future__ import annotations

import math

import numpy as np

from qpicross.samplers.blockshift.engine import (draw_placement, paint, positions_to_sample, randint,
                                                 save_positions, table_weights, uniform)
from qpicross.samplers.blockshift.layouts import Board, Profile, ProfileWork
from qpicross.samplers.blockshift.compile_targets import kernel

__all__ = ["profile_model", "profile_work", "column", "best_columns", "free_move", "random_replica", "replica_sweep",
           "returned_state", "swap_window", "window_attempt", "window_exchange", "profile_start", "profile_sweep",
           "profile_sample", "PROFILE", "NONE"]

#: Larger than any mismatch count: "no placement".
NONE = 1 << 28


def profile_model(board_arrays, model, free_axis: int = 0):
    """The profile chain's arrays for a board-kernel model, or ``None`` when its lines are not plain.

    Args:
        board_arrays: The board layout's arrays (from :func:`~qpicross.samplers.blockshift.board.board_model`).
        model: The sampler's structure arrays (``group_ptr`` at 4, ``chain_ptr`` at 7, ``next_limit`` at 8).
        free_axis: 0: rows are sampled, columns minimised out; 1: the other way round.
    """
    seg_start, glen, line_axis, cell0, stride, line_len, n_cells, _ = board_arrays
    group_ptr, chain_ptr, next_limit = model.group_ptr, model.chain_ptr, model.next_limit
    n_cells = int(n_cells)
    lengths = {int(a): int(n) for a, n in zip(line_axis, line_len)}  # axis -> its lines' length
    if free_axis not in (0, 1) or not lengths:
        return None
    n_cols = lengths.get(0, n_cells // lengths[1] if lengths.get(1) else 0)
    n_rows = lengths.get(1, n_cells // n_cols if n_cols else 0)
    if n_rows * n_cols != n_cells or n_cells == 0:
        return None
    if not _plain_lines(seg_start, glen, group_ptr, chain_ptr, next_limit):
        return None
    prof_axis = 1 - free_axis
    n_prof = n_cols if prof_axis == 1 else n_rows
    prof_len = n_rows if prof_axis == 1 else n_cols
    prof_chain = np.full(n_prof, -1, np.int64)
    line_index = np.where(line_axis == 0, cell0 // max(n_cols, 1), cell0)
    for c in np.flatnonzero(line_axis == prof_axis):
        prof_chain[line_index[c]] = c
    prof_cell0 = np.arange(n_prof, dtype=np.int64) * (n_cols if prof_axis == 0 else 1)
    prof_stride = np.int64(1 if prof_axis == 0 else n_cols)
    cells = np.arange(n_cells)
    cross = (cells % n_cols) if prof_axis == 1 else (cells // n_cols)
    free_chains = np.flatnonzero(line_axis == free_axis).astype(np.int64)
    longest = max(n_rows, n_cols)
    groups = len(group_ptr) - 1
    pos_of = np.full((groups, longest + 1), -1, np.int64)  # the position of group g starting at cell s
    group_of = np.repeat(np.arange(groups), np.diff(group_ptr))
    pos_of[group_of, seg_start[:len(group_of)]] = np.arange(len(group_of)) - group_ptr[group_of]
    blocks = int(np.diff(chain_ptr).max(initial=0))
    band = np.zeros((n_prof, blocks + 1, 2), np.int64)
    for j in range(n_prof):
        c = prof_chain[j]
        band[j, :, 1] = prof_len
        if c >= 0:
            band[j] = _band(glen[chain_ptr[c]:chain_ptr[c + 1]], prof_len, blocks)
    return Profile(prof_chain, prof_cell0, prof_stride, np.int64(prof_len), cross.astype(np.int64), free_chains,
                   pos_of, np.int64(blocks), np.int64(longest), band)


def _plain_lines(seg_start, glen, group_ptr, chain_ptr, next_limit) -> bool:
    """Whether every line is plain: after each start of a block, the next block's first allowed start
    (``next_limit``) is its first start at least the block's length + 1 further on.

    All blocks at once: each group's starts, increasing, are put after the previous group's (``group * width +
    start``), so one sorted search finds every start's first allowed successor in the group that follows.

    >>> ptr, chains = np.array([0, 3, 6]), np.array([0, 2])  # one line: block 0 (length 1) at 0-2, block 1 at 2-4
    >>> starts, lengths = np.array([0, 1, 2, 2, 3, 4]), np.array([1, 1])
    >>> [_plain_lines(starts, lengths, ptr, chains, np.array(limits + [0, 0, 0])) for limits in ([0, 1, 2], [0, 0, 2])]
    [True, False]
    """
    sizes = np.diff(group_ptr)
    group_of = np.repeat(np.arange(len(sizes)), sizes)
    width = int(seg_start.max(initial=0)) + int(glen.max(initial=0)) + 2
    keys = group_of * width + seg_start  # increasing: groups in order, each group's starts increasing
    followed = np.zeros(len(sizes), bool)  # a block of a line but its last (units outside lines: none)
    followed[:chain_ptr[-1]] = True
    followed[np.asarray(chain_ptr[1:], np.int64) - 1] = False
    has_next = followed[group_of]
    g = group_of[has_next]
    first_fit = np.searchsorted(keys, (g + 1) * width + seg_start[has_next] + glen[g] + 1) - group_ptr[g + 1]
    return bool(np.array_equal(next_limit[has_next], first_fit))


def _band(lengths, n: int, blocks: int) -> np.ndarray:
    """``[lo, hi]`` of the cells where a line of ``n`` cells with these blocks can be with ``k`` blocks
    placed before it and block ``k`` still to come (``k = len(lengths)``: all placed), row ``k``.

    Outside it no placement passes. Every block's row has the same ``hi - lo``, the line's slack:
    the offsets from ``lo`` that :func:`column`'s passes run over.

    >>> _band(np.array([2, 1]), 6, 2).tolist()  # block 0 starts in 0..2, block 1 in 3..5, then the end
    [[0, 2], [3, 5], [4, 6]]
    """
    K = len(lengths)
    band = np.zeros((blocks + 1, 2), np.int64)
    band[:, 1] = n
    earliest, latest = 0, n - int(lengths.sum()) - (K - 1)
    for k in range(K):
        band[k] = earliest, latest
        earliest += int(lengths[k]) + 1
        latest += int(lengths[k]) + 1
    band[K, 0] = earliest - 1 if K else 0  # the last block may end the line, with no blank after it
    return band


def profile_work(replicas: int, units: int, slots: int, board_arrays: Board, pmodel: Profile) -> ProfileWork:
    """Scratch and state of one restart with ``replicas`` replicas (``units``: the model's groups,
    ``slots``: its variables)."""
    n_cells, table_size = int(board_arrays.n_cells), int(board_arrays.table_size)
    n_prof, blocks, longest = len(pmodel.prof_chain), int(pmodel.blocks), int(pmodel.longest)
    return ProfileWork(
        cur=np.zeros((replicas, units), np.int64), boards=np.zeros((replicas, 2, n_cells), np.int16),
        marg=np.zeros((replicas, 2, n_cells), np.int64), pcost=np.zeros((replicas, n_prof), np.int64),
        energy=np.zeros(replicas, np.int64), beta_of=np.zeros(replicas), slot_of=np.zeros(replicas, np.int64),
        tables=np.zeros((replicas, table_size)), weight=np.zeros(slots), prefix=np.zeros(slots + 1),
        chosen=np.zeros(units + 1, np.int64), cost=np.zeros(2 * (longest + 1), np.int64),
        dp=np.zeros((2, (blocks + 1) * (longest + 1)), np.int64), scratch=np.zeros(6 * (longest + 1), np.int64),
        rng=np.ones(1, np.uint64), best_cur=np.zeros(units, np.int64), order=np.zeros(replicas, np.int64))



@kernel
def column(j, own, dp, scratch, marg, want_marginals, data):
    """Max-plus passes over profiled line ``j`` against the free lines' board ``own``.

    Returns the fewest mismatches of any of its placements; with ``want_marginals``
    writes, for each of its cells, ``marg[0, cell]`` / ``marg[1, cell]``: the fewest
    mismatches on its *other* cells among the placements leaving the cell empty /
    painting it (:data:`NONE`: no such placement). ``dp[0]`` keeps the forward pass.

    A placement's mismatches are ``sum(lengths) + painted - 2 * covered``, ``covered`` the
    painted cells under its blocks, so the passes maximise ``covered``. Block ``k`` starts
    at ``lo[k] + d``, its offset ``d`` from ``0`` to the line's slack ``S``, and a
    placement is any non-decreasing sequence of offsets: ``dp[0][k, d]`` is the most
    blocks ``0..k-1`` cover with block ``k-1`` at an offset up to ``d`` (a running maximum
    over ``d``; row 0: no blocks), ``dp[1][k, d]`` the most blocks ``k..K-1`` cover from offset ``d`` on.
    ``data`` is the chain's model ``(structure, board, profile)``.
    """
    model, board, pmodel = data
    n, pos_of, glen, chain_ptr = pmodel.prof_len, pmodel.pos_of, board.glen, model.chain_ptr
    c = pmodel.prof_chain[j]
    g0 = chain_ptr[c] if c >= 0 else 0
    K = chain_ptr[c + 1] - g0 if c >= 0 else 0
    base, step = pmodel.prof_cell0[j], pmodel.prof_stride
    x, P = scratch[: n], scratch[n + 1:]
    P[0] = 0
    for i in range(n):
        x[i] = own[base + i * step]
        P[i + 1] = P[i] + x[i]
    band = pmodel.band[j]
    S = band[0, 1] - band[0, 0] if K > 0 else 0  # every block's offsets: 0..S
    D = S + 1
    painted, lengths = P[n], 0
    for k in range(K):
        lengths += glen[g0 + k]
    G, H = dp[0], dp[1]  # G's row 0 and H's row K: no blocks, nothing covered
    for d in range(D):
        G[d] = 0
        H[K * D + d] = 0
    for k in range(K):  # forward: G[k + 1, d] = max over offsets d' <= d of (blocks 0..k, block k at d')
        h, lo = glen[g0 + k], band[k, 0]
        run = -NONE
        for d in range(D):
            if pos_of[g0 + k, lo + d] >= 0:
                v = P[lo + d + h] - P[lo + d] + G[k * D + d]
                if v > run:
                    run = v
            G[(k + 1) * D + d] = run
    best = G[K * D + S]
    total = lengths + painted - 2 * best if best > -NONE // 2 else NONE
    if not want_marginals:
        return total
    mb, mp = scratch[2 * n + 2: 3 * n + 2], scratch[3 * n + 2: 4 * n + 2]  # the most covered, cell blank/painted
    for i in range(n):
        mb[i] = -NONE if K > 0 else 0
        mp[i] = -NONE
    for k in range(K - 1, -1, -1):  # backward: H[k, d] = max over offsets d' >= d of (blocks k..K-1)
        h, lo = glen[g0 + k], band[k, 0]
        run = -NONE
        for d in range(S, -1, -1):
            if pos_of[g0 + k, lo + d] >= 0:
                v = P[lo + d + h] - P[lo + d] + H[(k + 1) * D + d]
                if v > run:
                    run = v
                v += G[k * D + d]  # the best placement with block k at d
                for i in range(lo + d, lo + d + h):
                    if v > mp[i]:
                        mp[i] = v
            H[k * D + d] = run
    for k in range(K + 1):  # cell i blank: blocks 0..k-1 at offsets <= a, blocks k.. at offsets >= a
        lo = band[k, 0] if k < K else n - S + 1  # lo - 1 + a: the cell, a = 0..S
        for a in range(max(0, 1 - lo), min(S, n - lo) + 1):
            u = G[k * D + a] + H[k * D + a]
            if u > mb[lo - 1 + a]:
                mb[lo - 1 + a] = u
    for i in range(n):  # leave out the cell's own mismatch
        cell = base + i * step
        marg[0, cell] = lengths + painted - 2 * mb[i] - x[i] if mb[i] > -NONE // 2 else NONE
        marg[1, cell] = lengths + painted - 2 * mp[i] - (1 - x[i]) if mp[i] > -NONE // 2 else NONE
    return total


@kernel
def best_columns(own, cur, dp, scratch, marg, data):
    """Set every profiled line's blocks in ``cur`` to a placement with the fewest mismatches against ``own``."""
    model, board, pmodel = data
    pos_of, glen, chain_ptr = pmodel.pos_of, board.glen, model.chain_ptr
    for j in range(len(pmodel.prof_chain)):
        c = pmodel.prof_chain[j]
        if c < 0:
            continue
        column(j, own, dp, scratch, marg, False, data)
        g0, K = chain_ptr[c], chain_ptr[c + 1] - chain_ptr[c]
        n, band, G = pmodel.prof_len, pmodel.band[j], dp[0]
        P = scratch[n + 1:]
        S = band[0, 1] - band[0, 0] if K > 0 else 0
        D = S + 1
        limit = S
        for k in range(K - 1, -1, -1):  # trace the forward pass back: the last offset that attains its maximum
            h, lo = glen[g0 + k], band[k, 0]
            goal = G[(k + 1) * D + limit]
            for d in range(limit, -1, -1):
                if pos_of[g0 + k, lo + d] >= 0 and P[lo + d + h] - P[lo + d] + G[k * D + d] == goal:
                    cur[g0 + k] = pos_of[g0 + k, lo + d]
                    limit = d
                    break


@kernel
def free_move(r, c, beta, table, work, data):
    """Heat-bath redraw of free line ``c`` of replica ``r`` given its other free lines; returns the profile energy
    change."""
    model, board, pmodel = data
    cur, boards, marg, pcost = work.cur[r], work.boards[r], work.marg[r], work.pcost[r]
    cost, dp, scratch, chosen = work.cost, work.dp, work.scratch, work.chosen
    group_ptr, chain_ptr, next_limit = model.group_ptr, model.chain_ptr, model.next_limit
    own = boards[0]
    g0, g1 = chain_ptr[c], chain_ptr[c + 1]
    base, step, n = board.cell0[c], board.stride[c], board.line_len[c]
    span = cost.shape[0] // 2
    cost[span] = 0
    for j in range(n):  # painting cell j over leaving it empty: min(Mb + 1, Mp) - min(Mb, Mp + 1)
        cell = base + j * step
        b, p = marg[0, cell], marg[1, cell]
        cost[span + j + 1] = cost[span + j] + min(b + 1, p) - min(b, p + 1)
    # a block's costs differ by at most 2 x its length, within the table: the w of its fallback is never used
    table_weights(g0, g1, beta, 1.0, table, cost, work.weight, (group_ptr, board.seg_start, board.glen))
    if not draw_placement(work.weight, work.prefix, work.chosen, g0, g1, group_ptr, next_limit, work.rng):
        return 0
    old = scratch[:n]  # the line before the move (scratch is free until a column is recomputed)
    for j in range(n):
        old[j] = own[base + j * step]
    other = boards[1]
    for g in range(g0, g1):
        if chosen[g - g0] != cur[g]:
            paint(-1, c, g, group_ptr[g] + cur[g], own, other, board)
    for g in range(g0, g1):
        if chosen[g - g0] != cur[g]:
            cur[g] = chosen[g - g0]
            paint(1, c, g, group_ptr[g] + cur[g], own, other, board)
    changed = scratch[n + 1: 2 * n + 1]
    count = 0
    for j in range(n):
        if own[base + j * step] != old[j]:
            changed[count] = j
            count += 1
    change = 0
    cross = pmodel.cross
    for t in range(count):
        cell = base + changed[t] * step
        col = cross[cell]
        v = column(col, own, dp, scratch[2 * n + 2:], marg, True, data)
        change += v - pcost[col]
        pcost[col] = v
    return change


@kernel
def random_replica(r, work, data):
    """Set replica ``r`` of ``work`` to uniformly random clue-consistent free lines (an exact draw at
    beta = 0), its columns' fewest mismatches and their marginals; returns its profile energy."""
    model, board, pmodel = data
    group_ptr, chain_ptr = model.group_ptr, model.chain_ptr
    free_chains = pmodel.free_chains
    boards, cur, marg, pcost = work.boards, work.cur, work.marg, work.pcost
    for a in range(2):
        for cell in range(boards.shape[2]):
            boards[r, a, cell] = 0
    for g in range(len(group_ptr) - 1):
        cur[r, g] = 0
    for t in range(len(free_chains)):  # each line painted at its first placement, then redrawn at beta = 0
        c = free_chains[t]
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            paint(1, c, g, group_ptr[g], boards[r, 0], boards[r, 1], board)
        free_move(r, c, 0.0, work.tables[r], work, data)
    e = 0
    for j in range(len(pmodel.prof_chain)):
        pcost[r, j] = column(j, boards[r, 0], work.dp, work.scratch, marg[r], True, data)
        e += pcost[r, j]
    return e


@kernel
def replica_sweep(r, beta, table, line_moves, work, data):
    """One sweep of replica ``r``: a heat-bath move of each free line (each with probability
    ``line_moves``); returns the profile energy change."""
    free_chains = data[2].free_chains
    change = 0
    for t in range(len(free_chains)):
        if line_moves >= 1.0 or uniform(work.rng) < line_moves:
            change += free_move(r, free_chains[t], beta, table, work, data)
    return change


@kernel
def returned_state(best_cur, out, work, data):
    """Write to ``out`` the sample of free lines ``best_cur`` with each profiled line's best placement
    against them (replica 0's board and marginals are overwritten)."""
    model, board, pmodel = data
    group_ptr, chain_ptr = model.group_ptr, model.chain_ptr
    free_chains = pmodel.free_chains
    own, other = work.boards[0, 0], work.boards[0, 1]
    for cell in range(len(own)):
        own[cell] = 0
    for t in range(len(free_chains)):
        c = free_chains[t]
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            paint(1, c, g, group_ptr[g] + best_cur[g], own, other, board)
    best_columns(own, best_cur, work.dp, work.scratch, work.marg[0], data)
    positions_to_sample(best_cur, out, group_ptr, model.group_vars)


@kernel
def swap_window(r1, r2, t0, t1, work, data):
    """Swap free lines ``t0`` to ``t1 - 1`` (of ``free_chains``) between replicas ``r1`` and ``r2``: their blocks
    and the cells they paint (the profiled lines' costs and marginals are left to the caller)."""
    model, board, pmodel = data
    chain_ptr, free_chains = model.chain_ptr, pmodel.free_chains
    cur, boards = work.cur, work.boards
    for t in range(t0, t1):
        c = free_chains[t]
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            cur[r1, g], cur[r2, g] = cur[r2, g], cur[r1, g]
        base, step = board.cell0[c], board.stride[c]
        for j in range(board.line_len[c]):
            cell = base + j * step
            boards[r1, 0, cell], boards[r2, 0, cell] = boards[r2, 0, cell], boards[r1, 0, cell]


@kernel
def window_attempt(r1, r2, window, w, work, data):
    """One window exchange between replicas ``r1`` and ``r2``: a window of 1 to ``window`` consecutive free lines,
    its length and place drawn uniformly, swapped and kept by Metropolis on both replicas' energies (see
    :func:`window_exchange`). Returns whether it was kept (False where the two windows are the same)."""
    board, pmodel = data[1], data[2]
    free_chains, n_prof = pmodel.free_chains, len(pmodel.prof_chain)
    n_free = len(free_chains)
    rng, boards, pcost, cross = work.rng, work.boards, work.pcost, pmodel.cross
    L = 1 + randint(rng, min(window, n_free))
    t0 = randint(rng, n_free - L + 1)
    flags = work.scratch[:n_prof]  # the profiled lines to recompute
    col_scratch = work.scratch[pmodel.longest + 1:]
    for j in range(n_prof):
        flags[j] = 0
    differ = False
    for t in range(t0, t0 + L):
        c = free_chains[t]
        base, step = board.cell0[c], board.stride[c]
        for j in range(board.line_len[c]):
            cell = base + j * step
            if boards[r1, 0, cell] != boards[r2, 0, cell]:
                flags[cross[cell]] = 1
                differ = True
    if not differ:
        return False
    swap_window(r1, r2, t0, t0 + L, work, data)
    d1, d2 = 0, 0
    for j in range(n_prof):
        if flags[j] != 0:
            d1 += column(j, boards[r1, 0], work.dp, col_scratch, work.marg[r1], False, data) - pcost[r1, j]
            d2 += column(j, boards[r2, 0], work.dp, col_scratch, work.marg[r2], False, data) - pcost[r2, j]
    x = -(work.beta_of[r1] * (w * d1) + work.beta_of[r2] * (w * d2))
    if not (x >= 0.0 or uniform(rng) < math.exp(x)):
        swap_window(r1, r2, t0, t0 + L, work, data)
        return False
    for j in range(n_prof):
        if flags[j] != 0:
            pcost[r1, j] = column(j, boards[r1, 0], work.dp, col_scratch, work.marg[r1], True, data)
            pcost[r2, j] = column(j, boards[r2, 0], work.dp, col_scratch, work.marg[r2], True, data)
    work.energy[r1] += d1
    work.energy[r2] += d2
    return True


@kernel
def window_exchange(w, moves, work, data):
    """``chain_exchange``: swap a window of consecutive free lines between each pair of neighbouring rungs, each
    kept by Metropolis on both replicas' energies; returns how many were kept.

    After a sweep's replica exchange (``work.order``: the replicas by increasing inverse temperature), for each
    neighbouring pair ``r1, r2`` in turn (:func:`window_attempt`): a window length ``L`` from 1 to
    ``moves.window`` (at most the free lines) and a first line, drawn uniformly, a proposal that does not
    depend on the state and is its own inverse; the two replicas' lines in the window are swapped and kept
    with probability ``min(1, exp(-beta1 w dE1 - beta2 w dE2))``, so the ladder's joint distribution (each
    rung's ``exp(-beta E)``) is kept. Only the profiled lines that cross a cell where the two windows differ
    are recomputed. Replica exchange moves a whole state between rungs; this moves a part of one, so that a
    colder replica can take the rows a warmer one has right without those it has wrong
    (``make bench-window`` measures how often it is kept).
    """
    R, n_free = len(work.energy), len(data[2].free_chains)
    kept = 0
    if R < 2 or n_free == 0 or moves.window < 1:
        return kept
    for i in range(R - 1):
        if window_attempt(work.order[i], work.order[i + 1], moves.window, w, work, data):
            kept += 1
    return kept


# -- the chain as the engine calls it (data: (structure, board, profile)) ----------------------------------------


@kernel
def profile_start(r, moves, work, data):
    """``chain_start``: replica ``r`` at uniformly random clue-consistent free lines; its profile energy."""
    return random_replica(r, work, data)


@kernel
def profile_sweep(r, beta, table, moves, work, data):
    """``chain_sweep``: a heat-bath move of each free line of replica ``r`` (each with probability
    ``moves.line_moves``); the profile energy change."""
    return replica_sweep(r, beta, table, moves.line_moves, work, data)


@kernel
def profile_sample(out, work, data):
    """``chain_sample``: the kept free lines with each profiled line's best placement against them."""
    returned_state(work.best_cur, out, work, data)


#: The profile chain: :func:`~.compile_targets.build`'s bindings.
PROFILE = dict(chain_start=profile_start, chain_sweep=profile_sweep, chain_save=save_positions,
               chain_sample=profile_sample, chain_exchange=window_exchange)
