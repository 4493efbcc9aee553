r"""The joint chain of the block-shift annealer, written once, on either layout of its state.

The joint chain samples every line (rows and columns together) of a BQM with one-hot lines:

* **block moves** (each sweep, each block, when ``block_moves``): Metropolis on the BQM restricted
  to one-hot states, the start proposed by :func:`~.engine.propose_start`; with line moves on, a
  move that breaks more of its line's fit than the block's current start does is rejected
  (:func:`~.engine.breaks_fit`);
* **free variables**: single-flip Metropolis;
* **line moves** (each sweep, each line with probability ``line_moves``): a heat-bath redraw of the
  line among its consistent placements (:func:`~.engine.draw_placement`); couplings between blocks of
  the line, which the Picross formulation does not have there, are corrected by a Metropolis test.

Its state has two layouts, and the chain's functions here call the layout through open names
(``layout_*``, :data:`~.compile_targets.OPEN_NAMES`), bound by :func:`~.compile_targets.build` (the builds are in
:mod:`~.chains`):

* **fields** (:data:`~qpicross.samplers.blockshift.fields.FIELDS`): any one-hot BQM; each replica's 0/1 state and local fields
  :math:`f_v = h_v + \sum_u J_{vu} x_u`, updated by every accepted move;
* **board** (:data:`~qpicross.samplers.blockshift.board.BOARD`): a Picross BQM, which on clue-consistent
  states is ``constant + w x mismatched cells``; each replica's two boards, energies read from tables.

Both run the same moves on the same random numbers, so the same seed gives the same samples on either
(``tests/samplers/blockshift/test_board_kernel.py`` checks it); the board is faster.
"""

from __future__ import annotations

from qpicross.samplers.blockshift.engine import breaks_fit, draw_placement, propose_start, uniform
from qpicross.samplers.blockshift.compile_targets import (kernel, layout_delta, layout_factor, layout_flip, layout_move,
                                                  layout_place, layout_random, layout_weights)

__all__ = ["joint_start", "joint_sweep", "line_move"]

# The layout's open names (layout_random, layout_flip, layout_delta, layout_factor, layout_move, layout_weights,
# layout_place): their calls in compile_targets.OPEN_NAMES; fields.FIELDS and board.BOARD bind them.


@kernel
def line_move(r, c, beta, table, work, data):
    """Heat-bath redraw of line ``c`` of replica ``r`` among its consistent placements; the energy change."""
    model = data[0]
    change, saved = layout_weights(r, c, beta, table, work, data)
    ok = draw_placement(work.weight, work.prefix, work.chosen, model.chain_ptr[c], model.chain_ptr[c + 1],
                        model.group_ptr, model.next_limit, work.rng)
    return change + layout_place(r, c, ok, beta, saved, work, data)


@kernel
def joint_start(r, moves, work, data):
    """``chain_start``: replica ``r`` at a random one-hot state, each line then a uniformly random consistent
    placement (a line move at beta = 0) when line moves are on; its energy."""
    model = data[0]
    e = layout_random(r, work, data)
    if moves.line_moves > 0.0:
        for c in range(len(model.chain_ptr) - 1):
            e += line_move(r, c, 0.0, work.tables[0], work, data)
    return e


@kernel
def joint_sweep(r, beta, table, moves, work, data):
    """``chain_sweep``: a block move per block (when ``moves.block_moves``), a flip per free variable, then a line
    move per line (each with probability ``moves.line_moves``); the energy change."""
    shift_probability, line_moves, block_moves = moves.shift_probability, moves.line_moves, moves.block_moves
    model = data[0]
    group_ptr, chain_ptr, cur, rng = model.group_ptr, model.chain_ptr, work.cur[r], work.rng
    change = work.energy[r] - work.energy[r]  # a zero of the layout's energy type
    for c in range(len(chain_ptr) - 1):
        if not block_moves:
            break
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            size = group_ptr[g + 1] - group_ptr[g]
            if size < 2:
                continue
            pa = cur[g]
            pb = propose_start(pa, size, shift_probability, rng)
            if pb < 0:
                continue
            if line_moves > 0.0 and breaks_fit(g, pa, pb, cur, group_ptr, model.next_limit, model.has_prev,
                                               model.has_next):
                continue
            delta = layout_delta(r, c, g, pa, pb, work, data)
            if delta <= 0 or uniform(rng) < layout_factor(delta, beta, table):
                change += layout_move(r, c, g, pa, pb, work, data)
                cur[g] = pb
    for g in range(chain_ptr[len(chain_ptr) - 1], len(group_ptr) - 1):  # the free variables follow the lines
        change += layout_flip(r, g, beta, work, data)
    if line_moves > 0.0:
        for c in range(len(chain_ptr) - 1):
            if line_moves >= 1.0 or uniform(rng) < line_moves:
                change += line_move(r, c, beta, table, work, data)
    return change
