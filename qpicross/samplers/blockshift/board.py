r"""The structured annealer's board kernel: the same chain as the BQM kernel, computed on the board.

:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` works on any BQM with
one-hot lines, through local fields (every accepted move updates the fields of
all its neighbours). On the Picross formulation most of those updates are
redundant: with line moves on, every state is clue-consistent, and there the
BQM's energy is

.. math:: E(x) = c + w \cdot \#\{\text{cells where the rows' board and the columns' board differ}\},

``c`` a constant and ``w`` the ``match`` weight (``one_hot``, ``order`` and
``at_most_one`` are 0 on such states). So the chain needs only the two boards:
a block move changes ``E`` by ``w`` times a sum over the cells it paints and
unpaints, and a line move draws its line from prefix sums of the crossing
board. Energies are integers times ``w``, so every Boltzmann factor is read
from a table made once per temperature.

:func:`board_model` decides, exactly, whether a BQM is of that form given
what each variable paints (``paints``, from
:meth:`~qpicross.model.formulation.PicrossFormulation.paints`); it returns
``None`` otherwise, and the sampler keeps its BQM kernel. :func:`board_read`
then runs *the same Markov chain* as the BQM kernel's read, move for move and
random number for random number: same proposals, same acceptance tests, same
line draws, so the same seed gives the same samples
(``tests/test_structured.py`` checks that), only faster.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import numba
import numpy as np

from qpicross.samplers.blockshift.moves import (Board, Structure, breaks_fit, coldest, draw_placement, exchange_replicas, fill_table, keep_best,
                                                paint, positions_to_sample, propose_start, randint, seed_rng,
                                                sweep_table, uniform)

__all__ = ["board_model", "board_read", "board_work"]


def board_model(variables: Sequence[Hashable], paints: Mapping[Hashable, tuple[int, int, int, int]],
                structure: Structure, couplings: tuple):
    """The board kernel's model of a BQM, or ``None`` when the BQM is not "constant + w x mismatches".

    Args:
        variables: The BQM's variables, in index order.
        paints: For each variable, ``(axis, line, start, length)``: it paints
            cells ``start .. start + length - 1`` of row ``line`` (axis 0) or
            column ``line`` (axis 1).
        structure, couplings: The binary BQM's structure and ``(irow, icol, qdata)``
            (:func:`~qpicross.samplers.blockshift.structure.read_structure`).

    The model qualifies when, on every clue-consistent state, its energy is
    ``c + w * (cells where the boards differ)``, which holds exactly when:
    every variable is in a one-hot group and paints a segment of its group's
    line; consecutive blocks of a consistent line never overlap; the couplings
    between different lines are exactly ``-2 w`` for each row/column pair that
    paints a common cell; ``linear[v] - w * length[v]`` is the same for all
    variables of a group; and no coupling inside a line joins starts a
    consistent placement can hold together (``inner`` all False).

    Returns:
        ``(arrays, w, c)``: the kernel's arrays, the weight and the constant.
    """
    linear, group_ptr, group_vars, free = structure.linear, structure.group_ptr, structure.group_vars, structure.free
    chain_ptr, next_limit, inner = structure.chain_ptr, structure.next_limit, structure.inner
    irow, icol, qdata = couplings
    n, groups = len(variables), len(group_ptr) - 1
    if n == 0 or groups == 0 or free.any() or inner.any():
        return None
    try:
        segments = np.array([paints[v] for v in variables], np.int64).reshape(n, 4)
    except (KeyError, TypeError, ValueError):
        return None
    axis, line, start, length = segments.T
    if ((axis != 0) & (axis != 1)).any() or (line < 0).any() or (start < 0).any() or (length < 1).any():
        return None
    sizes = np.diff(group_ptr)
    gid = np.repeat(np.arange(groups), sizes)
    slot_var = group_vars
    # a group: one axis, one line, one length; starts increasing. A chain (line): one axis and line.
    g_first = slot_var[group_ptr[:-1]]
    same = lambda a: (a[slot_var] == a[g_first][gid]).all()  # noqa: E731
    if not (same(axis) and same(line) and same(length)):
        return None
    s = start[slot_var]
    if ((np.diff(s) <= 0) & (np.diff(gid) == 0)).any():
        return None
    chain_groups = np.diff(chain_ptr)
    c_first = g_first[chain_ptr[:-1]]
    chain_of_group = np.repeat(np.arange(len(chain_groups)), chain_groups)
    if not ((axis[g_first] == axis[c_first][chain_of_group]).all()
            and (line[g_first] == line[c_first][chain_of_group]).all()):
        return None
    keys = axis[c_first] * (1 << 32) + line[c_first]
    if len(np.unique(keys)) != len(keys):
        return None
    n_rows = int(max(line[axis == 0].max(initial=-1) + 1, (start + length)[axis == 1].max(initial=0)))
    n_cols = int(max(line[axis == 1].max(initial=-1) + 1, (start + length)[axis == 0].max(initial=0)))

    # consecutive blocks of a consistent line are disjoint: the first start allowed after each start is past it
    for g in range(groups):
        lo, hi = group_ptr[g], group_ptr[g + 1]
        if g + 1 < chain_ptr[np.searchsorted(chain_ptr, g, side="right")]:
            limit = next_limit[lo:hi]
            nxt = group_ptr[g + 1] + limit
            fits = limit < sizes[g + 1]
            if (start[slot_var[nxt[fits]]] < s[lo:hi][fits] + length[slot_var[lo]]).any():
                return None

    # couplings between lines: -2w for each row/column pair painting a common cell, nothing else
    chain_of_var = np.empty(n, np.int64)
    chain_of_var[slot_var] = chain_of_group[gid]
    irow, icol = np.asarray(irow, np.int64), np.asarray(icol, np.int64)
    qdata = np.asarray(qdata, np.float64)
    cross = (chain_of_var[irow] != chain_of_var[icol]) & (qdata != 0)
    a, b, q = irow[cross], icol[cross], qdata[cross]
    if len(q) == 0:
        return None
    w = -float(q[0]) / 2
    if not w > 0 or (q != q[0]).any():
        return None
    row_var, col_var = np.where(axis[a] == 0, a, b), np.where(axis[a] == 0, b, a)
    if (axis[row_var] != 0).any() or (axis[col_var] != 1).any():
        return None
    i, j = line[row_var], line[col_var]
    if not ((start[row_var] <= j) & (j < start[row_var] + length[row_var])
            & (start[col_var] <= i) & (i < start[col_var] + length[col_var])).all():
        return None
    cover_rows = np.zeros(n_rows * n_cols, np.int64)
    cover_cols = np.zeros(n_rows * n_cols, np.int64)
    for ax, counts in ((0, cover_rows), (1, cover_cols)):
        v = np.flatnonzero(axis == ax)
        cells_v = np.repeat(v, length[v])
        offset = np.arange(len(cells_v)) - np.repeat(np.cumsum(length[v]) - length[v], length[v])
        along = start[cells_v] + offset
        flat = line[cells_v] * n_cols + along if ax == 0 else along * n_cols + line[cells_v]
        np.add.at(counts, flat, 1)
    if int((cover_rows * cover_cols).sum()) != len(q):  # every sharing pair is coupled (each once)
        return None

    # linear: w * length plus one constant per group
    rest = np.asarray(linear, np.float64)[slot_var] - w * length[slot_var]
    per_group = rest[group_ptr[:-1]]
    if np.abs(rest - per_group[gid]).max(initial=0.0) > 1e-9 * max(1.0, w):
        return None
    constant = float(per_group.sum())

    line_axis = axis[c_first]
    line_index = line[c_first]
    line_len = np.where(line_axis == 0, n_cols, n_rows).astype(np.int64)
    cell0 = np.where(line_axis == 0, line_index * n_cols, line_index).astype(np.int64)
    stride = np.where(line_axis == 0, 1, n_cols).astype(np.int64)
    glen = length[g_first].astype(np.int64)
    arrays = Board(s.astype(np.int64), glen, line_axis.astype(np.int64), cell0, stride, line_len,
                   np.int64(n_rows * n_cols), np.int64(2 * glen.max() + 1))
    return arrays, w, constant


def board_work(replicas: int, units: int, slots: int, arrays: Board) -> tuple:
    """Scratch buffers of one read with ``replicas`` replicas."""
    n_cells, table_size = int(arrays.n_cells), int(arrays.table_size)
    longest = int(arrays.line_len.max())
    return (np.zeros((replicas, units), np.int64), np.zeros((replicas, 2, n_cells), np.int16),
            np.zeros(replicas, np.int64), np.zeros(replicas), np.zeros(replicas, np.int64),
            np.zeros((replicas, table_size)), np.zeros(slots), np.zeros(slots + 1), np.zeros(units + 1, np.int64),
            np.zeros(2 * (longest + 1), np.int64), np.zeros(units, np.int64), np.ones(1, np.uint64),
            np.zeros(replicas, np.int64))


@numba.njit(cache=True)
def _segment_cost(c, g, p, other, board):
    """Mismatches block ``g`` at position ``p`` adds over leaving its cells empty: sum of ``1 - 2 other``."""
    seg_start, glen, cell0, stride = board.seg_start, board.glen, board.cell0, board.stride
    s = seg_start[p]
    total = 0
    for j in range(s, s + glen[g]):
        total += 1 - 2 * other[cell0[c] + j * stride[c]]
    return total


@numba.njit(cache=True)
def _line_move(c, beta, w, table, cur, boards, model, board, weight, prefix, chosen, cost, rng):
    """The BQM kernel's heat-bath line move, on the board; returns the mismatch change."""
    group_ptr, chain_ptr, next_limit = model.group_ptr, model.chain_ptr, model.next_limit
    axis = board.line_axis[c]
    own, other = boards[axis], boards[1 - axis]
    g0, g1 = chain_ptr[c], chain_ptr[c + 1]
    seg_start, glen, cell0, stride = board.seg_start, board.glen, board.cell0, board.stride
    base, step = cell0[c], stride[c]
    span = cost.shape[0] // 2  # cost[span + j]: mismatches of painting cells 0..j-1 over leaving them empty
    cost[span] = 0
    for j in range(board.line_len[c]):
        cost[span + j + 1] = cost[span + j] + 1 - 2 * other[base + j * step]
    for g in range(g0, g1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        lowest = 1 << 30
        length = glen[g]
        for p in range(size):
            s = seg_start[first + p]
            cost[p] = cost[span + s + length] - cost[span + s]
            lowest = min(lowest, cost[p])
        for p in range(size):
            k = cost[p] - lowest
            if beta == 0.0:
                wt = 1.0
            elif k < len(table):
                wt = table[k]
            else:  # only while the initial state's lines overlap (never at beta > 0 in practice)
                arg = beta * (w * k)
                wt = math.exp(-arg) if arg < 50.0 else 0.0
            weight[first + p] = wt
    # the draw reads only the crossing board, so the line is repainted only where it moved
    change = 0
    if draw_placement(weight, prefix, chosen, g0, g1, group_ptr, next_limit, rng):
        for g in range(g0, g1):
            if chosen[g - g0] != cur[g]:
                change += paint(-1, c, g, group_ptr[g] + cur[g], own, other, board)
        for g in range(g0, g1):
            if chosen[g - g0] != cur[g]:
                cur[g] = chosen[g - g0]
                change += paint(1, c, g, group_ptr[g] + cur[g], own, other, board)
    return change


@numba.njit(cache=True)
def _sweep(beta, w, table, cur, boards, shift_probability, model, board, line_of, rng):
    """The BQM kernel's block-move sweep, on the board; returns the mismatch change."""
    group_ptr, next_limit, has_prev, has_next = model.group_ptr, model.next_limit, model.has_prev, model.has_next
    line_axis = board.line_axis
    change = 0
    for g in range(len(group_ptr) - 1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        if size < 2:
            continue
        pa = cur[g]
        pb = propose_start(pa, size, shift_probability, rng)
        if pb < 0:
            continue
        if breaks_fit(g, pa, pb, cur, group_ptr, next_limit, has_prev, has_next):
            continue
        c = line_of[g]
        axis = line_axis[c]
        own, other = boards[axis], boards[1 - axis]
        k = _segment_cost(c, g, first + pb, other, board) - _segment_cost(c, g, first + pa, other, board)
        delta = w * k
        if delta <= 0.0 or uniform(rng) < table[k]:
            change += paint(-1, c, g, first + pa, own, other, board)
            change += paint(1, c, g, first + pb, own, other, board)
            cur[g] = pb
    return change


@numba.njit(cache=True, nogil=True)
def board_read(out, seed, betas, num_sweeps, shift_probability, line_moves, block_moves, return_last, target,
               model, board, w, constant, work, stop, status):
    """One read, as :func:`~qpicross.samplers.blockshift.bqm_kernel.sample_read` with line moves on; same return value.

    ``target`` and ``status[1]`` are energies without the BQM's offset, as there.
    """
    cur, boards, mism, beta_of, slot_of, tables, weight, prefix, chosen, cost, line_of, rng, order = work
    group_ptr, group_vars, chain_ptr = model.group_ptr, model.group_vars, model.chain_ptr
    seed_rng(rng, seed)
    R = cur.shape[0]
    n_chains = len(chain_ptr) - 1
    for c in range(n_chains):
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            line_of[g] = c
    for r in range(R):
        boards[r, :, :] = 0
        for g in range(len(group_ptr) - 1):  # as the BQM kernel's random one-hot state
            cur[r, g] = randint(rng, group_ptr[g + 1] - group_ptr[g])
        for c in range(n_chains):
            axis = board.line_axis[c]
            for g in range(chain_ptr[c], chain_ptr[c + 1]):
                paint(1, c, g, group_ptr[g] + cur[r, g], boards[r, axis], boards[r, 1 - axis], board)
        for c in range(n_chains):  # uniformly random consistent placements: line moves at beta = 0
            _line_move(c, 0.0, w, tables[0], cur[r], boards[r], model, board, weight, prefix, chosen, cost, rng)
        m = 0
        for cell in range(boards.shape[2]):
            d = boards[r, 0, cell] - boards[r, 1, cell]
            m += d * d
        mism[r] = m
        beta_of[r] = betas[r] if R > 1 else 0.0
        slot_of[r] = r
        if R > 1:
            fill_table(betas[r], w, tables[r])
    best_r = 0
    for r in range(R):
        if mism[r] < mism[best_r]:
            best_r = r
    best = mism[best_r]
    best_cur = cur[best_r].copy()
    status[1] = constant + w * best
    done = 0
    for s in range(num_sweeps):
        if constant + w * best <= target + 1e-9 or stop[0] != 0:
            break
        for r in range(R):
            beta, table = sweep_table(s, r, betas, beta_of, slot_of, w, tables)
            m = mism[r]
            if block_moves:
                m += _sweep(beta, w, table, cur[r], boards[r], shift_probability, model, board, line_of, rng)
            for c in range(n_chains):
                if line_moves >= 1.0 or uniform(rng) < line_moves:
                    m += _line_move(c, beta, w, table, cur[r], boards[r], model, board, weight, prefix, chosen,
                                    cost, rng)
            mism[r] = m
            best = keep_best(m, best, r, cur, best_cur, status, constant, w, return_last)
        if R > 1:  # replica exchange between neighbouring temperatures, as the BQM kernel
            exchange_replicas(beta_of, slot_of, mism, w, rng, order)
        done += 1
        status[0] = done
    if return_last:  # the replica at beta_range[1]
        best_cur[:] = cur[coldest(beta_of, betas)]
    positions_to_sample(best_cur, out, group_ptr, group_vars)
    return done, done if constant + w * best <= target + 1e-9 else -1
