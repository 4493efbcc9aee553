r"""The fields layout of the joint chain's state: any one-hot BQM, each replica's 0/1 state and local fields.

:math:`f_v = h_v + \sum_u J_{vu} x_u` for every variable, updated by every accepted move. The joint chain's moves
(:mod:`~.joint`) call these functions through its open names (``layout_*``, :data:`~.compile_targets.OPEN_NAMES`);
:data:`FIELDS` binds them (the builds are in :mod:`~.chains`). The other layout is the board's
(:mod:`~.board`): the same moves on the same random numbers, so the same samples.
"""

from __future__ import annotations

import math

import numpy as np

from qpicross.samplers.blockshift.compile_targets import kernel
from qpicross.samplers.blockshift.engine import TOLERANCE, copy_row, no_window_exchange, randint, uniform
from qpicross.samplers.blockshift.joint import joint_start, joint_sweep
from qpicross.samplers.blockshift.layouts import FieldsWork, Structure

__all__ = ["fields_work", "FIELDS"]

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
              chain_exchange=no_window_exchange, layout_random=fields_random, layout_flip=fields_flip,
              layout_delta=fields_delta, layout_factor=fields_factor, layout_move=fields_move,
              layout_weights=fields_weights, layout_place=fields_place)
