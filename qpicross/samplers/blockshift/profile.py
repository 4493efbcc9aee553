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
programme (:func:`~qpicross.samplers.blockshift.board.draw_placement`). ``Mb`` and ``Mp``
come from one forward and one backward pass of max-plus dynamic programming over
the column, redone for each column a row move changes: a placement's mismatches
are ``sum(lengths) + painted - 2 covered`` (``covered``: the painted cells under its
blocks), and a placement is a non-decreasing sequence of its blocks' offsets from
their leftmost starts (:func:`_band`), so the passes take ``O(blocks x slack)``
steps, each a running maximum (:func:`_column`).

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

import numba
import numpy as np

from qpicross.samplers.blockshift.moves import (Board, Profile, ProfileWork, coldest, restart_begin,
                                                restart_sweeps, returned_state, seed_rng)

__all__ = ["profile_model", "profile_read", "profile_work"]


def profile_model(board_arrays, model, free_axis: int = 0):
    """The profile chain's arrays for a board-kernel model, or ``None`` when its lines are not plain.

    Args:
        board_arrays: The board kernel's arrays (from :func:`~qpicross.samplers.blockshift.board.board_model`).
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
    # plain lines: the next block's first start is the first one at least length + 1 past this start
    for c in range(len(chain_ptr) - 1):
        for g in range(chain_ptr[c], chain_ptr[c + 1] - 1):
            nxt = seg_start[group_ptr[g + 1]:group_ptr[g + 2]]
            starts = seg_start[group_ptr[g]:group_ptr[g + 1]]
            if (next_limit[group_ptr[g]:group_ptr[g + 1]] != np.searchsorted(nxt, starts + glen[g] + 1)).any():
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
    for g in range(groups):
        pos_of[g, seg_start[group_ptr[g]:group_ptr[g + 1]]] = np.arange(group_ptr[g + 1] - group_ptr[g])
    blocks = int(np.diff(chain_ptr).max(initial=0))
    band = np.zeros((n_prof, blocks + 1, 2), np.int64)
    for j in range(n_prof):
        c = prof_chain[j]
        band[j, :, 1] = prof_len
        if c >= 0:
            band[j] = _band(glen[chain_ptr[c]:chain_ptr[c + 1]], prof_len, blocks)
    return Profile(prof_chain, prof_cell0, prof_stride, np.int64(prof_len), cross.astype(np.int64), free_chains,
                   pos_of, np.int64(blocks), np.int64(longest), band)


def _band(lengths, n: int, blocks: int) -> np.ndarray:
    """``[lo, hi]`` of the cells where a line of ``n`` cells with these blocks can be with ``k`` blocks
    placed before it and block ``k`` still to come (``k = len(lengths)``: all placed), row ``k``.

    Outside it no placement passes. Every block's row has the same ``hi - lo``, the line's slack:
    the offsets from ``lo`` that :func:`_column`'s passes run over.

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


@numba.njit(cache=True, nogil=True)
def profile_read(out, seed, betas, num_sweeps, shift_probability, line_moves, block_moves, return_last, target,
                 model, board, pmodel, w, constant, work, stop, status):
    """One restart of the profile chain, as :func:`~qpicross.samplers.blockshift.board.board_read`; same
    return value: :func:`~qpicross.samplers.blockshift.moves.restart_begin`, then ``num_sweeps`` of
    :func:`~qpicross.samplers.blockshift.moves.restart_sweeps` in one piece.

    ``shift_probability`` and ``block_moves`` are not used (the chain has line moves only).
    """
    seed_rng(work.rng, seed)
    best = restart_begin(betas, w, work, pmodel, board, model)
    status[1] = constant + w * best
    done, best = restart_sweeps(0, num_sweeps, betas, best, line_moves, return_last, target, w, constant, work,
                                pmodel, board, model, stop, status)
    if return_last:  # the replica at beta_range[1]
        last = coldest(work.beta_of, betas)
        for g in range(len(work.best_cur)):
            work.best_cur[g] = work.cur[last, g]
    returned_state(work.best_cur, out, work, pmodel, board, model)
    return done, done if constant + w * best <= target + 1e-9 else -1


