r"""The joint chain's board layout: a Picross BQM as two boards, its energy a count of mismatched cells.

The joint chain (:mod:`~qpicross.samplers.blockshift.joint`) works on any BQM with one-hot lines
through local fields: every accepted move updates the fields of all its neighbours. On the Picross
formulation most of those updates are redundant: with line moves on, every state is clue-consistent,
and there the BQM's energy is

.. math:: E(x) = c + w \cdot \#\{\text{cells where the rows' board and the columns' board differ}\},

``c`` a constant and ``w`` the ``match`` weight (``one_hot``, ``order`` and ``at_most_one`` are 0 on
such states). So the chain needs only the two boards: a block move changes ``E`` by ``w`` times a sum
over the cells it paints and unpaints, and a line move draws its line from prefix sums of the crossing
board. Energies are integers times ``w``, so every Boltzmann factor is read from a table made once per
temperature.

:func:`board_model` decides, exactly, whether a BQM is of that form given what each variable paints
(``paints``, from :meth:`~qpicross.model.formulation.PicrossFormulation.paints`); it returns ``None``
otherwise, and the sampler keeps the fields layout. :func:`layout_board` makes the same arrays from the
model's own :class:`~qpicross.model.layout.PicrossLayout` (``layout=``), which says whether the form holds,
without reading the BQM. :data:`BOARD` binds the joint chain to this layout
(:mod:`~qpicross.samplers.blockshift.chains`): the same chain as on the fields, move for move and random
number for random number, so the same seed gives the same samples, only faster. The profile chain
(:mod:`~qpicross.samplers.blockshift.profile`) reads its board from the same model.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from qpicross.samplers.blockshift.engine import (no_window_exchange, paint, positions_to_sample, randint,
                                                 save_positions, table_weights)
from qpicross.samplers.blockshift.joint import joint_start, joint_sweep
from qpicross.samplers.blockshift.layouts import Board, BoardWork, Structure
from qpicross.samplers.blockshift.compile_targets import kernel

__all__ = ["board_model", "layout_board", "picross_board", "board_work", "BOARD"]


def board_model(variables: Sequence[Hashable], paints: Mapping[Hashable, tuple[int, int, int, int]],
                structure: Structure, couplings: tuple):
    """The board layout's model of a BQM, or ``None`` when the BQM is not "constant + w x mismatches".

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
    n_rows, n_cols = _board_shape(axis, line, start, length)

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
    return _board_arrays(axis, line, start, length, structure), w, constant


def layout_board(layout, structure: Structure):
    """The board layout's model of a Picross BQM from its :class:`~qpicross.model.layout.PicrossLayout`, as
    :func:`board_model` gives it but without reading the BQM: ``(arrays, w, c)``, or ``None`` where the
    layout does not vouch for the board energy (its ``match_weight`` is None).

    ``structure`` is :func:`~qpicross.samplers.blockshift.structure.read_structure` of the BQM with the
    layout's lines and variables (the caller checked the BQM with :meth:`PicrossLayout.check
    <qpicross.model.layout.PicrossLayout.check>`).
    """
    if layout.match_weight is None:
        return None
    return (_board_arrays(layout.axis, layout.line, layout.start, layout.length, structure), layout.match_weight,
            layout.constant)


def picross_board(variables: Sequence[Hashable], structure: Structure, couplings: tuple, *,
                  paints: Mapping[Hashable, tuple[int, int, int, int]] | None = None, layout=None):
    """The board layout's model, ``(arrays, w, c)``, from what the caller was given: read from ``layout`` where
    it vouches for the board energy (:func:`layout_board`), else checked exactly from its paints, or from
    ``paints`` without a layout (:func:`board_model`); ``None`` where none applies."""
    if layout is not None:
        return layout_board(layout, structure) or board_model(variables, layout.paints(), structure, couplings)
    return None if paints is None else board_model(variables, paints, structure, couplings)


def _board_shape(axis, line, start, length) -> tuple[int, int]:
    """The board's rows and columns: as far as the lines and the blocks reach."""
    n_rows = int(max(line[axis == 0].max(initial=-1) + 1, (start + length)[axis == 1].max(initial=0)))
    n_cols = int(max(line[axis == 1].max(initial=-1) + 1, (start + length)[axis == 0].max(initial=0)))
    return n_rows, n_cols


def _board_arrays(axis, line, start, length, structure: Structure) -> Board:
    """The kernels' :class:`Board` from each variable's placement (arrays in the BQM's variable order)."""
    group_ptr, slot_var, chain_ptr = structure.group_ptr, structure.group_vars, structure.chain_ptr
    g_first = slot_var[group_ptr[:-1]]
    c_first = g_first[chain_ptr[:-1]]
    n_rows, n_cols = _board_shape(axis, line, start, length)
    line_axis = axis[c_first]
    line_index = line[c_first]
    line_len = np.where(line_axis == 0, n_cols, n_rows).astype(np.int64)
    cell0 = np.where(line_axis == 0, line_index * n_cols, line_index).astype(np.int64)
    stride = np.where(line_axis == 0, 1, n_cols).astype(np.int64)
    glen = length[g_first].astype(np.int64)
    return Board(start[slot_var].astype(np.int64), glen, line_axis.astype(np.int64), cell0, stride, line_len,
                 np.int64(n_rows * n_cols), np.int64(2 * glen.max() + 1))


def board_work(replicas: int, model: Structure, arrays: Board) -> BoardWork:
    """State and scratch of one restart of ``replicas`` replicas on the board layout."""
    units, slots = len(model.group_ptr) - 1, len(model.group_vars)
    n_cells, table_size, longest = int(arrays.n_cells), int(arrays.table_size), int(arrays.line_len.max())
    return BoardWork(
        cur=np.zeros((replicas, units), np.int64), boards=np.zeros((replicas, 2, n_cells), np.int16),
        energy=np.zeros(replicas, np.int64), beta_of=np.zeros(replicas), slot_of=np.zeros(replicas, np.int64),
        tables=np.zeros((replicas, table_size)), weight=np.zeros(slots), prefix=np.zeros(slots + 1),
        chosen=np.zeros(units + 1, np.int64), cost=np.zeros(2 * (longest + 1), np.int64), rng=np.ones(1, np.uint64),
        best_cur=np.zeros(units, np.int64), order=np.zeros(replicas, np.int64))


@kernel
def _segment_cost(c, g, p, other, board):
    """Mismatches block ``g`` at position ``p`` adds over leaving its cells empty: sum of ``1 - 2 other``."""
    s = board.seg_start[p]
    total = 0
    for j in range(s, s + board.glen[g]):
        total += 1 - 2 * other[board.cell0[c] + j * board.stride[c]]
    return total


@kernel
def board_random(r, work, data):
    """``layout_random``: each block at a uniformly random start, painted; the mismatched cells."""
    model, board, w = data
    boards, cur = work.boards[r], work.cur[r]
    for a in range(2):
        for cell in range(boards.shape[1]):
            boards[a, cell] = 0
    for g in range(len(model.group_ptr) - 1):
        cur[g] = randint(work.rng, model.group_ptr[g + 1] - model.group_ptr[g])
    for c in range(len(model.chain_ptr) - 1):
        axis = board.line_axis[c]
        for g in range(model.chain_ptr[c], model.chain_ptr[c + 1]):
            paint(1, c, g, model.group_ptr[g] + cur[g], boards[axis], boards[1 - axis], board)
    m = 0
    for cell in range(boards.shape[1]):
        d = boards[0, cell] - boards[1, cell]
        m += d * d
    return m


@kernel
def board_flip(r, g, beta, work, data):
    """``layout_flip``: a Picross model has no free variables."""
    return 0


@kernel
def board_delta(r, c, g, pa, pb, work, data):
    """``layout_delta``: the mismatches block ``g`` gains by moving from ``pa`` to ``pb``."""
    model, board, w = data
    other = work.boards[r, 1 - board.line_axis[c]]
    first = model.group_ptr[g]
    return _segment_cost(c, g, first + pb, other, board) - _segment_cost(c, g, first + pa, other, board)


@kernel
def board_factor(delta, beta, table):
    """``layout_factor``: the table's ``exp(-beta w delta)``."""
    return table[delta]


@kernel
def board_move(r, c, g, pa, pb, work, data):
    """``layout_move``: block ``g`` repainted from ``pa`` to ``pb``."""
    model, board, w = data
    axis = board.line_axis[c]
    own, other = work.boards[r, axis], work.boards[r, 1 - axis]
    first = model.group_ptr[g]
    return paint(-1, c, g, first + pa, own, other, board) + paint(1, c, g, first + pb, own, other, board)


@kernel
def board_weights(r, c, beta, table, work, data):
    """``layout_weights``: each start's factor from the crossing board (prefix sums of its cost along the
    line), read from ``table``; the line stays painted (the draw reads only the crossing board)."""
    model, board, w = data
    other, cost = work.boards[r, 1 - board.line_axis[c]], work.cost
    base, step = board.cell0[c], board.stride[c]
    span = cost.shape[0] // 2  # cost[span + j]: mismatches of painting cells 0..j-1 over leaving them empty
    cost[span] = 0
    for j in range(board.line_len[c]):
        cost[span + j + 1] = cost[span + j] + 1 - 2 * other[base + j * step]
    table_weights(model.chain_ptr[c], model.chain_ptr[c + 1], beta, w, table, cost, work.weight,
                  (model.group_ptr, board.seg_start, board.glen))
    return 0, 0.0


@kernel
def board_place(r, c, ok, beta, saved, work, data):
    """``layout_place``: the line repainted where the drawn placement moved it."""
    model, board, w = data
    axis = board.line_axis[c]
    own, other, cur, chosen = work.boards[r, axis], work.boards[r, 1 - axis], work.cur[r], work.chosen
    g0, g1 = model.chain_ptr[c], model.chain_ptr[c + 1]
    change = 0
    if ok:
        for g in range(g0, g1):
            if chosen[g - g0] != cur[g]:
                change += paint(-1, c, g, model.group_ptr[g] + cur[g], own, other, board)
        for g in range(g0, g1):
            if chosen[g - g0] != cur[g]:
                cur[g] = chosen[g - g0]
                change += paint(1, c, g, model.group_ptr[g] + cur[g], own, other, board)
    return change


@kernel
def board_sample(out, work, data):
    """``chain_sample``: the kept block positions as a one-hot sample."""
    model = data[0]
    positions_to_sample(work.best_cur, out, model.group_ptr, model.group_vars)


#: The joint chain on the board: :func:`~.compile_targets.build`'s bindings.
BOARD = dict(chain_start=joint_start, chain_sweep=joint_sweep, chain_save=save_positions, chain_sample=board_sample,
             chain_exchange=no_window_exchange, layout_random=board_random, layout_flip=board_flip,
             layout_delta=board_delta, layout_factor=board_factor, layout_move=board_move, layout_weights=board_weights,
             layout_place=board_place)
