"""The block-shift annealer's kernel on any BQM with one-hot groups: local fields, block moves, line moves.

:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` runs it where the BQM is not a Picross
model of the board kernel's form (:mod:`~qpicross.samplers.blockshift.board`), and the board kernel's
tests check that both give the same samples for the same seed. ``model`` is a
:class:`~qpicross.samplers.blockshift.moves.Structure`.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from qpicross.samplers.blockshift.moves import breaks_fit, draw_placement, propose_start, randint, seed_rng, uniform

__all__ = ["sample_read"]


@numba.njit(cache=True)
def _flip(v, on, x, field, adj_ptr, adj_idx, adj_val):
    """Set ``x[v]`` to ``on`` (a change), updating the local fields; returns the energy change."""
    delta = field[v] if on else -field[v]
    x[v] = on
    sign = 1.0 if on else -1.0
    for k in range(adj_ptr[v], adj_ptr[v + 1]):
        field[adj_idx[k]] += sign * adj_val[k]
    return delta


@numba.njit(cache=True)
def _sweep(beta, x, field, current, energy, shift_probability, constrained, blocks, model, rng):
    """One Metropolis proposal per unit (block move, if ``blocks``, or single flip); returns the new energy.

    With ``constrained`` (line moves on), a block move that breaks more of the
    order with the neighbouring blocks of its line than its current start does
    is rejected: from a consistent line, every move that would leave the consistent set.
    """
    _, adj_ptr, adj_idx, adj_val, group_ptr, group_vars, free, _, next_limit, has_prev, has_next, _ = model
    for g in range(len(group_ptr) - 1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        if free[g]:
            v = group_vars[first]
            delta = field[v] if x[v] == 0 else -field[v]
            if delta <= 0.0 or uniform(rng) < math.exp(-beta * delta):
                energy += _flip(v, 1 - x[v], x, field, adj_ptr, adj_idx, adj_val)
            continue
        if size < 2 or not blocks:
            continue
        pa = current[g]
        pb = propose_start(pa, size, shift_probability, rng)
        if pb < 0:
            continue
        if constrained and breaks_fit(g, pa, pb, current, group_ptr, next_limit, has_prev, has_next):
            continue
        a, b = group_vars[first + pa], group_vars[first + pb]
        delta = field[b] - field[a]  # a and b are never coupled: intra-group couplings are dropped
        if delta <= 0.0 or uniform(rng) < math.exp(-beta * delta):
            energy += _flip(a, 0, x, field, adj_ptr, adj_idx, adj_val)
            energy += _flip(b, 1, x, field, adj_ptr, adj_idx, adj_val)
            current[g] = pb
    return energy


@numba.njit(cache=True)
def _set_line(on, g0, g1, pos, shift, x, field, model):
    """Turn start ``pos[g + shift]`` of each group ``g0 <= g < g1`` on (or off); returns the energy change."""
    _, adj_ptr, adj_idx, adj_val, group_ptr, group_vars, _, _, _, _, _, _ = model
    delta = 0.0
    for g in range(g0, g1):
        delta += _flip(group_vars[group_ptr[g] + pos[g + shift]], on, x, field, adj_ptr, adj_idx, adj_val)
    return delta


@numba.njit(cache=True)
def _line_field(g0, g1, pos, shift, field, group_ptr, group_vars):
    total = 0.0
    for g in range(g0, g1):
        total += field[group_vars[group_ptr[g] + pos[g + shift]]]
    return total


@numba.njit(cache=True)
def _line_move(c, beta, x, field, current, energy, model, weight, prefix, chosen, rng):
    """Heat-bath move of line ``c`` among its consistent placements; returns the new energy.

    The line's blocks are taken out, then a new placement is drawn with
    probability proportional to ``exp(-beta * sum of the starts' local fields)``
    over the consistent placements (``next_limit``), by a forward pass of
    (normalised) partition sums and a backward draw. Couplings between blocks
    of the line (0 on consistent placements of the formulation, where
    ``inner[c]`` is False) are left out of that draw, so it is then accepted by
    a Metropolis test on them: an independence proposal from the line's
    conditional without them, exact for the conditional with them. Should
    every weight underflow (which depends on the rest of the board only), the
    line keeps its placement.
    """
    _, _, _, _, group_ptr, group_vars, _, chain_ptr, next_limit, _, _, inner = model
    g0, g1 = chain_ptr[c], chain_ptr[c + 1]
    removed = _set_line(0, g0, g1, current, 0, x, field, model)
    energy += removed
    inner_old = -removed - _line_field(g0, g1, current, 0, field, group_ptr, group_vars) if inner[c] else 0.0
    for g in range(g0, g1):  # each start's Boltzmann factor relative to its block's best
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        lowest = np.inf
        for p in range(size):
            lowest = min(lowest, field[group_vars[first + p]])
        for p in range(size):
            # weights below e^-50 of the best are dropped: they would only feed
            # denormal numbers (very slow arithmetic) into the partition sums
            arg = beta * (field[group_vars[first + p]] - lowest)
            weight[first + p] = math.exp(-arg) if arg < 50.0 else 0.0
    ok = draw_placement(weight, prefix, chosen, g0, g1, group_ptr, next_limit, rng)
    if not ok:
        return energy + _set_line(1, g0, g1, current, 0, x, field, model)
    rest = _line_field(g0, g1, chosen, -g0, field, group_ptr, group_vars) if inner[c] else 0.0
    added = _set_line(1, g0, g1, chosen, -g0, x, field, model)
    energy += added
    d = added - rest - inner_old
    if inner[c] and d > 1e-9 and uniform(rng) >= math.exp(-beta * d):  # rejected: the old line returns
        energy += _set_line(0, g0, g1, chosen, -g0, x, field, model)
        return energy + _set_line(1, g0, g1, current, 0, x, field, model)
    for g in range(g0, g1):
        current[g] = chosen[g - g0]
    return energy


@numba.njit(cache=True)
def _random_state(x, field, current, model, rng):
    """A random one-hot state; fills the local fields and returns the energy (without offset)."""
    linear, adj_ptr, adj_idx, adj_val, group_ptr, group_vars, free, _, _, _, _, _ = model
    x[:] = 0
    for g in range(len(group_ptr) - 1):
        first = group_ptr[g]
        if free[g]:
            x[group_vars[first]] = randint(rng, 2)
        else:
            current[g] = randint(rng, group_ptr[g + 1] - first)
            x[group_vars[first + current[g]]] = 1
    energy = 0.0
    for v in range(len(x)):
        f = linear[v]
        for k in range(adj_ptr[v], adj_ptr[v + 1]):
            f += adj_val[k] * x[adj_idx[k]]
        field[v] = f
        if x[v]:
            energy += linear[v] + 0.5 * (f - linear[v])
    return energy


@numba.njit(cache=True, nogil=True)
def sample_read(out, seed, betas, num_sweeps, shift_probability, line_moves, block_moves, return_last, target,
                 model, work, stop, status):
    """One read into ``out``; returns ``(sweeps done, sweeps after which it reached target or -1)``."""
    x, field, current, energy, beta_of, weight, prefix, chosen = work
    rng = np.empty(1, np.uint64)
    seed_rng(rng, seed)
    R = x.shape[0]
    n_chains = len(model.chain_ptr) - 1
    constrained = line_moves > 0.0
    for r in range(R):
        energy[r] = _random_state(x[r], field[r], current[r], model, rng)
        if constrained:  # uniformly random consistent placements: line moves at beta = 0
            for c in range(n_chains):
                energy[r] = _line_move(c, 0.0, x[r], field[r], current[r], energy[r], model, weight, prefix,
                                       chosen, rng)
        beta_of[r] = betas[r] if R > 1 else 0.0
    best, done = energy.min(), 0
    out[:] = x[np.argmin(energy)]
    status[1] = best
    for s in range(num_sweeps):
        if best <= target + 1e-9 or stop[0] != 0:
            break
        for r in range(R):
            beta = betas[s] if R == 1 else beta_of[r]
            xr, fr, cr = x[r], field[r], current[r]
            e = _sweep(beta, xr, fr, cr, energy[r], shift_probability, constrained, block_moves, model, rng)
            if constrained:
                for c in range(n_chains):
                    if line_moves >= 1.0 or uniform(rng) < line_moves:
                        e = _line_move(c, beta, xr, fr, cr, e, model, weight, prefix, chosen, rng)
            energy[r] = e
            if e < best - 1e-9:
                best = e
                status[1] = e
                if not return_last:
                    out[:] = xr
        if R > 1:  # replica exchange between neighbouring temperatures
            order = np.argsort(beta_of)
            for i in range(R - 1):
                r1, r2 = order[i], order[i + 1]
                d = (beta_of[r1] - beta_of[r2]) * (energy[r1] - energy[r2])
                if d >= 0.0 or uniform(rng) < math.exp(d):
                    beta_of[r1], beta_of[r2] = beta_of[r2], beta_of[r1]
                    order[i], order[i + 1] = r2, r1
        done += 1
        status[0] = done
    if return_last:  # the replica at beta_range[1]
        last = 0
        for r in range(R):
            if R > 1 and beta_of[r] == betas[R - 1]:
                last = r
        out[:] = x[last]
    return done, done if best <= target + 1e-9 else -1
