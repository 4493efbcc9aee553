r"""The moves of one chain of the batched block-shift annealer, written once, compiled twice.

:mod:`qpicross.samplers.blockshift.batched` runs many chains (replicas of many puzzles) at
once. Everything one chain or one tempering ladder does is a function here,
decorated with ``device_jit``:

* as imported normally, ``device_jit`` is :func:`numba.njit` (cached): the
  CPU backend calls these functions from a ``prange`` over ladders;
* :mod:`qpicross.samplers.blockshift.cuda` loads a second copy of this file with
  ``device_jit = numba.cuda.jit(device=True)`` already set, so the CUDA kernels
  call the very same code as device functions (one thread per chain).

So the CPU backend (tested in CI) and the GPU kernels (tested in CI through
numba's CUDA simulator) run identical logic; each chain draws from its own
random stream (:func:`uniform`, xorshift64*), so both give the same samples.

The moves are those of :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`:
Metropolis block moves on one-hot groups (shift by one start with probability
``shift_probability``, else jump anywhere in the window), single flips of free
variables, and heat-bath line moves that redraw every block of a line from
the Boltzmann distribution of the line's energy over the placements whose
consecutive blocks fit (couplings inside a line, which the formulation does
not have on such placements, corrected by a Metropolis test). With line moves
on (``restrict``), a block move that breaks more of that fit than its block's
current start does is rejected, so every move keeps the chain among
clue-consistent lines and the chain samples :math:`e^{-\beta E}` restricted to
them; the chain starts from a uniformly drawn consistent placement of each line.
The same rules as the CPU sampler's, move for move; only the random streams differ.

Layout (the puzzles of a launch are concatenated; indices in ``adj_idx`` and
``group_vars`` are local to their puzzle):

* puzzle ``p``: variables ``var_off[p]:var_off[p+1]`` of ``linear`` and
  ``adj_ptr``; groups ``group_off[p]:group_off[p+1]``; lines
  ``line_off[p]:line_off[p+1]``, line ``i`` being groups ``line_span[i, 0]:line_span[i, 1]``
  (``inner[i]``: it has couplings between its blocks);
* chain ``c`` (of puzzle ``chain_puzzle[c]``): its state ``x`` and local
  fields ``field`` at ``x_off[c]``, its block positions ``current`` at
  ``cur_off[c]``, line-move scratch at ``c * scratch`` of ``weight`` etc.;
* ladder ``l``: chains ``l*R`` to ``l*R + R - 1``; ``chain_at[l*R + t]`` is the
  chain at temperature ``t`` and ``temp_of[c]`` its inverse; the best state
  seen is kept in ``best_x`` at ``best_off[l]``.
"""

from __future__ import annotations

import math

import numba

# The CUDA backend sets ``device_jit``, and ``_moves`` to its CUDA copy of the moves, before executing this file.
device_jit = globals().get("device_jit") or numba.njit(cache=True)
if "_moves" not in globals():
    from qpicross.samplers.blockshift import moves as _moves

#: Energies within this of the target count as reaching it (as in the CPU sampler).
_TOLERANCE = 1e-9


@device_jit
def uniform(rng, i):
    """The next number in [0, 1) of random stream ``i`` (:func:`~qpicross.samplers.blockshift.moves.uniform`)."""
    return _moves.uniform(rng[i:i + 1])


@device_jit
def randint(rng, i, n):
    """A uniform integer in [0, n) from stream ``i``."""
    return _moves.randint(rng[i:i + 1], n)


@device_jit
def flip(v, sign, vo, xo, field, adj_ptr, adj_idx, adj_val):
    """Add ``sign`` times variable ``v``'s couplings to its neighbours' local fields."""
    for k in range(adj_ptr[vo + v], adj_ptr[vo + v + 1]):
        field[xo + adj_idx[k]] += sign * adj_val[k]


@device_jit
def set_line(sign, g0, g1, pos, po, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr, group_vars):
    """Turn start ``pos[po + g]`` of each group ``g0 <= g < g1`` on (``sign`` 1) or off (-1); the energy change."""
    delta = 0.0
    for g in range(g0, g1):
        v = group_vars[group_ptr[g] + pos[po + g]]
        if sign > 0.0:
            delta += field[xo + v]
            x[xo + v] = 1
        else:
            delta -= field[xo + v]
            x[xo + v] = 0
        flip(v, sign, vo, xo, field, adj_ptr, adj_idx, adj_val)
    return delta


@device_jit
def chain_beta(c, p, s, num_replicas, num_sweeps, betas, hot, cold, temp_of):
    """Inverse temperature of chain ``c`` in sweep ``s``: its rung of the ladder, or the annealing schedule."""
    if num_replicas > 1:
        return betas[p * num_replicas + temp_of[c]]
    if num_sweeps <= 1:
        return hot[p]
    return hot[p] * math.exp(math.log(cold[p] / hot[p]) * s / (num_sweeps - 1))


@device_jit
def sample_position(weight, lo, count, rng, c):
    """Draw ``i`` in ``[0, count)`` with probability proportional to ``weight[lo + i]`` (-1: all zero)."""
    total = 0.0
    for i in range(count):
        total += weight[lo + i]
    if not total > 0.0:
        return -1
    u = uniform(rng, c) * total
    for i in range(count):
        u -= weight[lo + i]
        if u <= 0.0 and weight[lo + i] > 0.0:
            return i
    for i in range(count - 1, -1, -1):  # rounding left u > 0: take the last possible one
        if weight[lo + i] > 0.0:
            return i
    return -1


@device_jit
def line_move(c, p, line, beta, e, x, field, current, rng, var_off, x_off, cur_off, scratch, adj_ptr, adj_idx,
              adj_val, group_off, group_ptr, group_vars, next_limit, line_span, inner, weight, prefix, chosen):
    """Heat-bath move of one line of chain ``c``: redraw its blocks from the Boltzmann distribution.

    The line's blocks are taken out, then a placement is drawn with
    probability proportional to ``exp(-beta * sum of the starts' local fields)``
    over the placements whose consecutive blocks fit (``next_limit``): forward
    (normalised) partition sums, backward draw. ``beta = 0`` draws a uniform
    fitting placement. Couplings between blocks of the line (none on fitting
    placements of the formulation; ``inner[line]`` says whether there are) are
    left out of that draw and corrected by a Metropolis test, as in
    :func:`qpicross.samplers.blockshift.bqm_kernel._line_move`. Returns the chain's new
    energy ``e``; should every weight underflow, the line keeps its placement.
    """
    vo = var_off[p]
    xo = x_off[c]
    co = cur_off[c] - group_off[p]
    wo = c * scratch[0]
    po = c * scratch[1]
    ho = c * scratch[2]
    g0 = line_span[line, 0]
    g1 = line_span[line, 1]
    base = group_ptr[g0]
    removed = set_line(-1.0, g0, g1, current, co, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr, group_vars)
    e += removed
    inner_old = 0.0  # the old placement's couplings inside the line
    if inner[line]:
        inner_old = -removed
        for g in range(g0, g1):
            inner_old -= field[xo + group_vars[group_ptr[g] + current[co + g]]]
    # forward: weight of position q of block g = share of the fitting placements of blocks g0..g with g at q
    ok = True
    pfirst = 0
    psize = 0
    for g in range(g0, g1):
        first = group_ptr[g]
        size = group_ptr[g + 1] - first
        lowest = math.inf
        for q in range(size):
            f = field[xo + group_vars[first + q]]
            if f < lowest:
                lowest = f
        if g > g0:
            pfirst = group_ptr[g - 1]
            psize = first - pfirst
            prefix[po] = 0.0
            for a in range(psize):
                prefix[po + a + 1] = prefix[po + a] + weight[wo + pfirst - base + a]
        total = 0.0
        count = 0
        for q in range(size):
            if g > g0:
                while count < psize and next_limit[pfirst + count] <= q:
                    count += 1
            # weights below e^-50 of the best are dropped: they would only feed
            # denormal numbers (very slow arithmetic) into the partition sums
            arg = beta * (field[xo + group_vars[first + q]] - lowest)
            w = math.exp(-arg) if arg < 50.0 else 0.0
            if g > g0:
                w *= prefix[po + count]
                if w < 1e-200:
                    w = 0.0
            weight[wo + first - base + q] = w
            total += w
        if not total > 0.0:
            ok = False
            break
        for q in range(size):
            weight[wo + first - base + q] /= total
    # backward draw
    if ok:
        limit_count = group_ptr[g1] - group_ptr[g1 - 1]
        for g in range(g1 - 1, g0 - 1, -1):
            first = group_ptr[g]
            if g < g1 - 1:
                b = chosen[ho + g + 1 - g0]
                limit_count = 0
                size = group_ptr[g + 1] - first
                while limit_count < size and next_limit[first + limit_count] <= b:
                    limit_count += 1
            q = sample_position(weight, wo + first - base, limit_count, rng, c)
            if q < 0:
                ok = False
                break
            chosen[ho + g - g0] = q
    if not ok:
        return e + set_line(1.0, g0, g1, current, co, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr,
                            group_vars)
    rest = 0.0  # the new placement's fields without the line
    if inner[line]:
        for g in range(g0, g1):
            rest += field[xo + group_vars[group_ptr[g] + chosen[ho + g - g0]]]
    added = set_line(1.0, g0, g1, chosen, ho - g0, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr, group_vars)
    e += added
    d = added - rest - inner_old
    if inner[line] and d > _TOLERANCE and uniform(rng, c) >= math.exp(-beta * d):  # rejected: the old line returns
        e += set_line(-1.0, g0, g1, chosen, ho - g0, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr,
                      group_vars)
        return e + set_line(1.0, g0, g1, current, co, xo, vo, x, field, adj_ptr, adj_idx, adj_val, group_ptr,
                            group_vars)
    for g in range(g0, g1):
        current[co + g] = chosen[ho + g - g0]
    return e


@device_jit
def init_chain(c, p, restrict, x, field, current, energy, rng, var_off, x_off, cur_off, scratch, linear, adj_ptr,
               adj_idx, adj_val, group_off, group_ptr, group_vars, free, next_limit, line_off, line_span, inner,
               weight, prefix, chosen):
    """A random one-hot state of chain ``c`` (each line a uniform fitting placement when ``restrict``)."""
    vo = var_off[p]
    xo = x_off[c]
    co = cur_off[c] - group_off[p]
    n = var_off[p + 1] - vo
    for v in range(n):
        x[xo + v] = 0
    for g in range(group_off[p], group_off[p + 1]):
        first = group_ptr[g]
        if free[g]:
            x[xo + group_vars[first]] = randint(rng, c, 2)
        else:
            q = randint(rng, c, group_ptr[g + 1] - first)
            current[co + g] = q
            x[xo + group_vars[first + q]] = 1
    e = 0.0
    for v in range(n):
        f = linear[vo + v]
        for k in range(adj_ptr[vo + v], adj_ptr[vo + v + 1]):
            f += adj_val[k] * x[xo + adj_idx[k]]
        field[xo + v] = f
        if x[xo + v]:
            e += linear[vo + v] + 0.5 * (f - linear[vo + v])
    if restrict:
        for line in range(line_off[p], line_off[p + 1]):
            e = line_move(c, p, line, 0.0, e, x, field, current, rng, var_off, x_off, cur_off, scratch, adj_ptr,
                          adj_idx, adj_val, group_off, group_ptr, group_vars, next_limit, line_span, inner, weight,
                          prefix, chosen)
    energy[c] = e


@device_jit
def chain_sweep(c, p, beta, restrict, shift_probability, line_moves, x, field, current, energy, rng, var_off, x_off,
                cur_off, scratch, adj_ptr, adj_idx, adj_val, group_off, group_ptr, group_vars, free, has_prev,
                has_next, next_limit, line_off, line_span, inner, weight, prefix, chosen):
    """One sweep of chain ``c``: a move per group and free variable, then a line move per line."""
    vo = var_off[p]
    xo = x_off[c]
    co = cur_off[c] - group_off[p]
    e = energy[c]
    for g in range(group_off[p], group_off[p + 1]):
        first = group_ptr[g]
        size = group_ptr[g + 1] - first
        if free[g]:
            v = group_vars[first]
            delta = field[xo + v] if x[xo + v] == 0 else -field[xo + v]
            if delta <= 0.0 or uniform(rng, c) < math.exp(-beta * delta):
                x[xo + v] = 1 - x[xo + v]
                flip(v, 1.0 if x[xo + v] == 1 else -1.0, vo, xo, field, adj_ptr, adj_idx, adj_val)
                e += delta
            continue
        if size < 2:
            continue
        pa = current[co + g]
        pb = _moves.propose_start(pa, size, shift_probability, rng[c:c + 1])
        if pb < 0:
            continue
        if restrict:  # rejected if it breaks more of the fit with the line's neighbours than before
            broken = 0
            if has_prev[g]:
                lim = next_limit[group_ptr[g - 1] + current[co + g - 1]]
                broken += (1 if pb < lim else 0) - (1 if pa < lim else 0)
            if has_next[g]:
                nxt = current[co + g + 1]
                broken += (1 if nxt < next_limit[first + pb] else 0) - (1 if nxt < next_limit[first + pa] else 0)
            if broken > 0:
                continue
        a = group_vars[first + pa]
        b = group_vars[first + pb]
        delta = field[xo + b] - field[xo + a]  # a and b are never coupled: intra-group couplings are dropped
        if delta <= 0.0 or uniform(rng, c) < math.exp(-beta * delta):
            x[xo + a] = 0
            flip(a, -1.0, vo, xo, field, adj_ptr, adj_idx, adj_val)
            x[xo + b] = 1
            flip(b, 1.0, vo, xo, field, adj_ptr, adj_idx, adj_val)
            current[co + g] = pb
            e += delta
    if line_moves > 0.0:
        for line in range(line_off[p], line_off[p + 1]):
            if line_moves >= 1.0 or uniform(rng, c) < line_moves:
                e = line_move(c, p, line, beta, e, x, field, current, rng, var_off, x_off, cur_off, scratch, adj_ptr,
                              adj_idx, adj_val, group_off, group_ptr, group_vars, next_limit, line_span, inner,
                              weight, prefix, chosen)
    energy[c] = e


@device_jit
def ladder_update(l, p, done_sweeps, num_replicas, stop_at_hit, x, energy, var_off, x_off, best_x, best_off,
                  best_energy, target, hit_sweep, ladder_done, sweeps_done, betas, temp_of, chain_at, ladder_rng):
    """After a sweep of ladder ``l``'s chains: keep the best state, note the target, swap temperatures.

    ``done_sweeps`` is the number of sweeps the ladder has now run (0 after
    :func:`init_chain`, when there is nothing to swap).
    """
    R = num_replicas
    n = var_off[p + 1] - var_off[p]
    for r in range(R):
        c = l * R + r
        if energy[c] < best_energy[l] - _TOLERANCE:
            best_energy[l] = energy[c]
            xo = x_off[c]
            bo = best_off[l]
            for v in range(n):
                best_x[bo + v] = x[xo + v]
    sweeps_done[l] = done_sweeps
    if hit_sweep[l] < 0 and best_energy[l] <= target[p] + _TOLERANCE:
        hit_sweep[l] = done_sweeps
        if stop_at_hit:
            ladder_done[l] = 1
    if done_sweeps > 0 and R > 1:  # replica exchange between neighbouring temperatures
        for t in range(R - 1):
            c1 = chain_at[l * R + t]
            c2 = chain_at[l * R + t + 1]
            d = (betas[p * R + t] - betas[p * R + t + 1]) * (energy[c1] - energy[c2])
            if d >= 0.0 or uniform(ladder_rng, l) < math.exp(d):
                chain_at[l * R + t] = c2
                chain_at[l * R + t + 1] = c1
                temp_of[c1] = t + 1
                temp_of[c2] = t
