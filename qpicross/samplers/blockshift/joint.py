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

* **fields** (:data:`FIELDS`, this module): any one-hot BQM; each replica's 0/1 state and local fields
  :math:`f_v = h_v + \sum_u J_{vu} x_u`, updated by every accepted move;
* **board** (:data:`~qpicross.samplers.blockshift.board.BOARD`): a Picross BQM, which on clue-consistent
  states is ``constant + w x mismatched cells``; each replica's two boards, energies read from tables.

Both run the same moves on the same random numbers, so the same seed gives the same samples on either
(``tests/samplers/blockshift/test_board_kernel.py`` checks it); the board is faster.
"""

from __future__ import annotations

import math

import numpy as np

from qpicross.samplers.blockshift.engine import (breaks_fit, copy_row, draw_placement, propose_start, randint, uniform,
                                                 TOLERANCE)
from qpicross.samplers.blockshift.layouts import FieldsWork, Structure
from qpicross.samplers.blockshift.compile_targets import (kernel, layout_delta, layout_factor, layout_flip, layout_move,
                                                  layout_place, layout_random, layout_weights)

__all__ = ["joint_start", "joint_sweep", "line_move", "fields_work", "FIELDS"]

# The layout's open names (layout_random, layout_flip, layout_delta, layout_factor, layout_move, layout_weights,
# layout_place): their calls in compile_targets.OPEN_NAMES; FIELDS below and board.BOARD bind them.


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
    shift_probability, line_moves, block_moves = moves
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


# -- the fields layout (data: (structure,)) -------------------------------------------------------------------


def fields_work(replicas: int, model: Structure) -> FieldsWork:
    """State and scratch of one restart of ``replicas`` replicas on the fields layout."""
    n, units = len(model.linear), len(model.group_ptr) - 1
    return FieldsWork(
        x=np.zeros((replicas, n), np.int8), field=np.zeros((replicas, n)), cur=np.zeros((replicas, units), np.int64),
        energy=np.zeros(replicas), beta_of=np.zeros(replicas), slot_of=np.zeros(replicas, np.int64),
        tables=np.zeros((replicas, 1)), weight=np.zeros(n), prefix=np.zeros(n + 1),
        chosen=np.zeros(units + 1, np.int64), rng=np.ones(1, np.uint64), best_x=np.zeros(n, np.int8),
        order=np.zeros(replicas, np.int64))


@kernel
def _flip(v, on, x, field, model):
    """Set ``x[v]`` to ``on`` (a change), updating the local fields; returns the energy change."""
    delta = field[v] if on else -field[v]
    x[v] = on
    sign = 1.0 if on else -1.0
    for k in range(model.adj_ptr[v], model.adj_ptr[v + 1]):
        field[model.adj_idx[k]] += sign * model.adj_val[k]
    return delta


@kernel
def _set_line(on, g0, g1, pos, shift, x, field, model):
    """Turn start ``pos[g + shift]`` of each group ``g0 <= g < g1`` on (or off); returns the energy change."""
    delta = 0.0
    for g in range(g0, g1):
        delta += _flip(model.group_vars[model.group_ptr[g] + pos[g + shift]], on, x, field, model)
    return delta


@kernel
def _line_field(g0, g1, pos, shift, field, model):
    total = 0.0
    for g in range(g0, g1):
        total += field[model.group_vars[model.group_ptr[g] + pos[g + shift]]]
    return total


@kernel
def fields_random(r, work, data):
    """``layout_random``: each block at a uniformly random start, each free variable a random bit; the
    local fields and the energy (without offset)."""
    model = data[0]
    x, field, cur, group_ptr, group_vars = work.x[r], work.field[r], work.cur[r], model.group_ptr, model.group_vars
    for v in range(len(x)):
        x[v] = 0
    for g in range(len(group_ptr) - 1):
        first = group_ptr[g]
        if model.free[g]:
            x[group_vars[first]] = randint(work.rng, 2)
        else:
            cur[g] = randint(work.rng, group_ptr[g + 1] - first)
            x[group_vars[first + cur[g]]] = 1
    energy = 0.0
    for v in range(len(x)):
        f = model.linear[v]
        for k in range(model.adj_ptr[v], model.adj_ptr[v + 1]):
            f += model.adj_val[k] * x[model.adj_idx[k]]
        field[v] = f
        if x[v]:
            energy += model.linear[v] + 0.5 * (f - model.linear[v])
    return energy


@kernel
def fields_flip(r, g, beta, work, data):
    """``layout_flip``: single-flip Metropolis of free variable ``g``."""
    model = data[0]
    x, field = work.x[r], work.field[r]
    v = model.group_vars[model.group_ptr[g]]
    delta = field[v] if x[v] == 0 else -field[v]
    if delta <= 0.0 or uniform(work.rng) < math.exp(-beta * delta):
        return _flip(v, 1 - x[v], x, field, model)
    return 0.0


@kernel
def fields_delta(r, c, g, pa, pb, work, data):
    """``layout_delta``: ``f_b - f_a`` (the two starts of one group are never coupled: such couplings are
    dropped)."""
    model = data[0]
    first = model.group_ptr[g]
    return work.field[r, model.group_vars[first + pb]] - work.field[r, model.group_vars[first + pa]]


@kernel
def fields_factor(delta, beta, table):
    """``layout_factor``: ``exp(-beta * delta)``."""
    return math.exp(-beta * delta)


@kernel
def fields_move(r, c, g, pa, pb, work, data):
    """``layout_move``: start ``pa`` off, ``pb`` on."""
    model = data[0]
    x, field, first = work.x[r], work.field[r], model.group_ptr[g]
    return _flip(model.group_vars[first + pa], 0, x, field, model) + _flip(model.group_vars[first + pb], 1, x,
                                                                           field, model)


@kernel
def fields_weights(r, c, beta, table, work, data):
    """``layout_weights``: the line taken out, each start's factor ``exp(-beta (f - lowest of its block))``
    (below ``e^-50``: 0, which keeps denormal numbers out of the partition sums); returns the energy change
    and, on a line with inner couplings, the old placement's couplings inside the line."""
    model = data[0]
    x, field, cur, weight = work.x[r], work.field[r], work.cur[r], work.weight
    g0, g1 = model.chain_ptr[c], model.chain_ptr[c + 1]
    removed = _set_line(0, g0, g1, cur, 0, x, field, model)
    inner_old = -removed - _line_field(g0, g1, cur, 0, field, model) if model.inner[c] else 0.0
    for g in range(g0, g1):
        first, size = model.group_ptr[g], model.group_ptr[g + 1] - model.group_ptr[g]
        lowest = np.inf
        for p in range(size):
            lowest = min(lowest, field[model.group_vars[first + p]])
        for p in range(size):
            arg = beta * (field[model.group_vars[first + p]] - lowest)
            weight[first + p] = math.exp(-arg) if arg < 50.0 else 0.0
    return removed, inner_old


@kernel
def fields_place(r, c, ok, beta, inner_old, work, data):
    """``layout_place``: the drawn placement put in (the old one where none was drawn), then, on a line with
    inner couplings, a Metropolis test on them: an independence proposal from the line's conditional without
    them, exact for the conditional with them (rejected: the old placement returns)."""
    model = data[0]
    x, field, cur, chosen = work.x[r], work.field[r], work.cur[r], work.chosen
    g0, g1 = model.chain_ptr[c], model.chain_ptr[c + 1]
    if not ok:
        return _set_line(1, g0, g1, cur, 0, x, field, model)
    rest = _line_field(g0, g1, chosen, -g0, field, model) if model.inner[c] else 0.0
    added = _set_line(1, g0, g1, chosen, -g0, x, field, model)
    d = added - rest - inner_old
    if model.inner[c] and d > TOLERANCE and uniform(work.rng) >= math.exp(-beta * d):
        return added + _set_line(0, g0, g1, chosen, -g0, x, field, model) + _set_line(1, g0, g1, cur, 0, x,
                                                                                       field, model)
    for g in range(g0, g1):
        cur[g] = chosen[g - g0]
    return added


@kernel
def fields_save(r, work):
    """``chain_save``: replica ``r``'s 0/1 state into ``best_x``."""
    copy_row(r, work.x, work.best_x)


@kernel
def fields_sample(out, work, data):
    """``chain_sample``: the kept 0/1 state."""
    for v in range(len(out)):
        out[v] = work.best_x[v]


#: The joint chain on local fields: :func:`~.compile_targets.build`'s bindings.
FIELDS = dict(chain_start=joint_start, chain_sweep=joint_sweep, chain_save=fields_save, chain_sample=fields_sample,
              layout_random=fields_random, layout_flip=fields_flip, layout_delta=fields_delta,
              layout_factor=fields_factor, layout_move=fields_move, layout_weights=fields_weights,
              layout_place=fields_place)
