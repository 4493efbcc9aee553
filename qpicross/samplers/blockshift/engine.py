r"""What every chain of the block-shift annealer shares: random streams, proposals, line draws, the restart.

Both chains (:mod:`~qpicross.samplers.blockshift.profile` and
:mod:`~qpicross.samplers.blockshift.joint`) are built from these kernels, written once and compiled
for the CPU and as CUDA device functions (:mod:`~qpicross.samplers.blockshift.compile_targets`). So they use
nothing a CUDA device function lacks: no allocation, no ``np.random`` (each read or ladder draws from
its own xorshift64* stream, :func:`uniform`, a one-element ``uint64`` array), no sorting.

* random streams: :func:`uniform`, :func:`randint`, :func:`seed_rng`;
* block moves: :func:`propose_start`, :func:`breaks_fit`; line moves: :func:`draw_placement`
  (forward partition sums, backward draw), :func:`sample_position`;
* the board: :func:`paint`; Boltzmann tables: :func:`fill_table`, :func:`sweep_table`, :func:`table_weights`;
* replicas: :func:`exchange_replicas`, :func:`no_window_exchange` (the chains without one), :func:`keep_best`,
  :func:`coldest`;
* one restart of parallel tempering (or annealing, one replica): :func:`restart_begin`,
  :func:`restart_sweeps`, and :func:`read`, a restart in one call; the Luby sequence :func:`luby` and the
  restart plan :func:`restart_of` (restart ``k``'s sweeps, level and free axis).

The restart calls its chain through five open names (:data:`~.compile_targets.OPEN_NAMES`), bound by
:func:`~.compile_targets.build` for each chain:
``chain_start(r, moves, work, data)`` (replica ``r`` at a random state; its energy),
``chain_sweep(r, beta, table, moves, work, data)`` (one sweep of replica ``r``; the energy change),
``chain_save(r, work)`` (keep replica ``r``'s state as the best), ``chain_sample(out, work, data)``
(write the kept state as a 0/1 sample) and ``chain_exchange(w, moves, work, data)`` (with
``moves.window > 0``, after each sweep's replica exchange: windows of lines swapped between neighbouring
rungs). ``work`` is the chain's layout of the replicas (:mod:`~qpicross.samplers.blockshift.layouts`),
``data`` its model, ``moves`` a
:class:`~.layouts.Moves`. A call's :class:`~.layouts.Params` hold the moves, the target and the energy
scale: energies are ``constant + w * e`` for the chain's ``e`` (mismatches on the board layouts, the
BQM's energy without offset with ``w = 1`` on the fields); its :class:`~.layouts.Signals` the stop flag
and status the host shares with a running restart.

Examples:
    >>> rng = np.zeros(1, np.uint64)
    >>> seed_rng(rng, 7)
    >>> a = [uniform(rng) for _ in range(3)]
    >>> seed_rng(rng, 7)
    >>> a == [uniform(rng) for _ in range(3)] and all(0.0 <= u < 1.0 for u in a)
    True
    >>> [luby(k) for k in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    >>> [restart_of(k, 0, 100, 10**6, 2) for k in (1, 2, 3, 7)]  # (sweeps, level, free axis)
    [(100, 0, 0), (100, 0, 1), (200, 1, 0), (400, 2, 0)]
"""

from __future__ import annotations

import math

import numpy as np

from qpicross.samplers.blockshift.compile_targets import (chain_exchange, chain_sample, chain_save, chain_start,
                                                         chain_sweep, kernel)

__all__ = ["uniform", "randint", "seed_rng", "propose_start", "breaks_fit", "sample_position", "draw_placement",
           "table_weights", "paint", "fill_table", "sweep_table", "exchange_replicas", "no_window_exchange",
           "keep_best", "coldest", "copy_row", "save_positions", "positions_to_sample", "luby", "restart_of",
           "restart_begin", "reached", "restart_sweeps", "read", "TOLERANCE"]

_SHIFT_A = np.uint64(12)
_SHIFT_B = np.uint64(25)
_SHIFT_C = np.uint64(27)
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_TOP53 = np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
#: Energies within this of the target count as reaching it, and a new best must beat the old by more.
TOLERANCE = 1e-9


# -- random streams -------------------------------------------------------------------------------------------


@kernel
def uniform(rng):
    """The next number in [0, 1) of the xorshift64* stream ``rng`` (a one-element ``uint64`` array, not 0)."""
    s = rng[0]
    s ^= s >> _SHIFT_A
    s ^= s << _SHIFT_B
    s ^= s >> _SHIFT_C
    rng[0] = s
    return float((s * _MULTIPLIER) >> _TOP53) * _UNIT


@kernel
def randint(rng, n):
    """A uniform integer in [0, n) from ``rng``."""
    k = int(uniform(rng) * n)
    return k if k < n else n - 1


@kernel
def seed_rng(rng, seed):
    """Start ``rng`` from ``seed`` (any integer >= 0): splitmix64 of it, never the xorshift's fixed point 0."""
    z = np.uint64(seed) + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    rng[0] = z if z != np.uint64(0) else _GOLDEN


# -- block moves and line draws -------------------------------------------------------------------------------


@kernel
def propose_start(pa, size, shift_probability, rng):
    """A block move's proposed start for a block at start ``pa`` of its ``size``: with probability
    ``shift_probability`` a shift by one (either way, equally likely), else a jump to any other start;
    -1 where the shift leaves the block's starts."""
    if uniform(rng) < shift_probability:
        pb = pa + 1 if uniform(rng) < 0.5 else pa - 1
        return pb if 0 <= pb < size else -1
    pb = randint(rng, size - 1)
    return pb + 1 if pb >= pa else pb


@kernel
def breaks_fit(g, pa, pb, cur, group_ptr, next_limit, has_prev, has_next):
    """Whether moving block ``g`` from start ``pa`` to ``pb`` breaks more of its line's fit with the
    neighbouring blocks (``next_limit``) than it breaks now: such block moves are rejected while line moves
    keep every line clue-consistent."""
    first = group_ptr[g]
    broken = 0
    if has_prev[g]:
        lim = next_limit[group_ptr[g - 1] + cur[g - 1]]
        broken += (1 if pb < lim else 0) - (1 if pa < lim else 0)
    if has_next[g]:
        nxt = cur[g + 1]
        broken += 1 if nxt < next_limit[first + pb] else 0
        broken -= 1 if nxt < next_limit[first + pa] else 0
    return broken > 0


@kernel
def sample_position(weight, lo, count, rng):
    """Draw ``i`` in ``[0, count)`` with probability proportional to ``weight[lo + i]`` (-1: all zero)."""
    total = 0.0
    for i in range(count):
        total += weight[lo + i]
    u = uniform(rng) * total if total > 0.0 else 0.0
    last = -1
    for i in range(count):
        if weight[lo + i] > 0.0:
            last = i  # should rounding leave u > 0 at the end: the last possible one
            u -= weight[lo + i]
            if u <= 0.0:
                return i
    return last


@kernel
def draw_placement(weight, prefix, chosen, g0, g1, group_ptr, next_limit, rng):
    """Draw a consistent placement of groups ``g0`` to ``g1 - 1`` from their Boltzmann factors; False if none.

    ``weight`` holds each start's factor relative to its group's best (below
    ``e^-50``: 0). A forward pass turns it, group by group, into the share of the
    fitting placements of blocks ``g0 .. g`` that put block ``g`` at each start
    (``next_limit``: the compatible predecessors form a prefix), normalised; a
    backward pass draws block ``g1 - 1`` first, then each earlier one among the
    starts that fit before it, into ``chosen[g - g0]``. Every line move of every
    chain draws with it.
    """
    for g in range(g0, g1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        pfirst, psize = 0, 0
        if g > g0:
            pfirst, psize = group_ptr[g - 1], first - group_ptr[g - 1]
            prefix[0] = 0.0
            for a in range(psize):
                prefix[a + 1] = prefix[a] + weight[pfirst + a]
        total, count = 0.0, 0
        for p in range(size):
            w = weight[first + p]
            if g > g0:
                while count < psize and next_limit[pfirst + count] <= p:
                    count += 1
                w *= prefix[count]
                if w < 1e-200:
                    w = 0.0
            weight[first + p] = w
            total += w
        if not total > 0.0:
            return False
        for p in range(size):
            weight[first + p] /= total
    limit_count = group_ptr[g1] - group_ptr[g1 - 1]
    for g in range(g1 - 1, g0 - 1, -1):
        first = group_ptr[g]
        if g < g1 - 1:
            limit_count, size = 0, group_ptr[g + 1] - first
            while limit_count < size and next_limit[first + limit_count] <= chosen[g + 1 - g0]:
                limit_count += 1
        chosen[g - g0] = sample_position(weight, first, limit_count, rng)
        if chosen[g - g0] < 0:
            return False
    return True


@kernel
def table_weights(g0, g1, beta, w, table, cost, weight, blocks):
    """Each start's Boltzmann factor into ``weight``, for blocks ``g0`` to ``g1 - 1`` of a line whose cell costs
    are summed in ``cost[span + j]`` (the cost of painting its first ``j`` cells; ``span`` half the array):
    ``table[k]``, ``k`` the start's cost above its block's cheapest (1 at ``beta = 0``; past the table,
    ``exp(-beta w k)``, cut at ``e^-50``). ``blocks`` is ``(group_ptr, seg_start, glen)``: each block's starts,
    each start's first cell, each block's length (the arrays alone: a kernel called this often takes no more)."""
    group_ptr, seg_start, glen = blocks
    span = cost.shape[0] // 2
    for g in range(g0, g1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        lowest = 1 << 30
        for p in range(size):
            s = seg_start[first + p]
            cost[p] = cost[span + s + glen[g]] - cost[span + s]
            lowest = min(lowest, cost[p])
        for p in range(size):
            k = cost[p] - lowest
            if beta == 0.0:
                weight[first + p] = 1.0
            elif k < len(table):
                weight[first + p] = table[k]
            else:  # only while the initial state's lines overlap on the board
                arg = beta * (w * k)
                weight[first + p] = math.exp(-arg) if arg < 50.0 else 0.0


@kernel
def paint(sign, c, g, p, own, other, board):
    """Add (``sign=1``) or remove (-1) block ``g`` of line ``c`` at position ``p`` on the board ``own``;
    returns the change in cells where ``own`` and ``other`` differ."""
    s = board.seg_start[p]
    step, base = board.stride[c], board.cell0[c]
    change = 0
    for j in range(s, s + board.glen[g]):
        cell = base + j * step
        o = own[cell] - other[cell]
        change += 2 * o + 1 if sign > 0 else 1 - 2 * o
        own[cell] += sign
    return change


# -- temperatures and replicas --------------------------------------------------------------------------------


@kernel
def fill_table(beta, w, table):
    """``table[k] = exp(-beta * w * k)``, 0 from an exponent of 50 on (as a line move's weights are cut)."""
    for k in range(len(table)):
        arg = beta * (w * k)
        table[k] = math.exp(-arg) if arg < 50.0 else 0.0


@kernel
def sweep_table(s, r, betas, beta_of, slot_of, w, tables):
    """The inverse temperature and factor table of replica ``r`` in sweep ``s``: annealing (one
    replica) follows ``betas`` sweep by sweep, tempering reads each replica's current slot."""
    if len(beta_of) == 1:
        fill_table(betas[s], w, tables[0])
        return betas[s], tables[0]
    return beta_of[r], tables[slot_of[r]]


@kernel
def exchange_replicas(beta_of, slot_of, energy, w, rng, order):
    """Replica exchange between neighbouring temperatures, energies ``w * energy``, after each sweep.

    ``order`` (scratch, one slot per replica) gets the replicas by increasing inverse temperature.
    """
    R = len(beta_of)
    for i in range(R):
        order[i] = i
    for i in range(1, R):  # insertion sort: a ladder has at most a dozen rungs
        j = i
        while j > 0 and beta_of[order[j - 1]] > beta_of[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    for i in range(R - 1):
        r1, r2 = order[i], order[i + 1]
        d = (beta_of[r1] - beta_of[r2]) * (w * (energy[r1] - energy[r2]))
        if d >= 0.0 or uniform(rng) < math.exp(d):
            beta_of[r1], beta_of[r2] = beta_of[r2], beta_of[r1]
            slot_of[r1], slot_of[r2] = slot_of[r2], slot_of[r1]
            order[i], order[i + 1] = r2, r1


@kernel
def no_window_exchange(w, moves, work, data):
    """``chain_exchange`` of the chains that have no window exchange (the joint chain's): nothing, none kept."""
    return 0


@kernel
def keep_best(e, best, r, work, params, status):
    """The lowest energy so far after replica ``r`` reached ``e``: on a new lowest, ``status[1]`` gets it
    (as ``constant + w * e``) and, unless ``params.return_last``, the chain keeps the replica's state
    (``chain_save``). The one place a restart's best state is kept."""
    if e < best - TOLERANCE:
        status[1] = params.constant + params.w * e
        if not params.return_last:
            chain_save(r, work)
        return e
    return best


@kernel
def coldest(beta_of, betas):
    """The replica at ``betas[-1]`` (the one of annealing)."""
    last = 0
    for r in range(len(beta_of)):
        if len(beta_of) > 1 and beta_of[r] == betas[len(betas) - 1]:
            last = r
    return last


@kernel
def copy_row(r, rows, row):
    """Row ``r`` of the 2-D ``rows`` into the 1-D ``row`` (a replica's state into the kept best)."""
    for i in range(len(row)):
        row[i] = rows[r, i]


@kernel
def save_positions(r, work):
    """``chain_save`` of the layouts whose state is the block positions ``cur``: into ``best_cur``."""
    copy_row(r, work.cur, work.best_cur)


@kernel
def positions_to_sample(cur, out, group_ptr, group_vars):
    """The one-hot sample (0/1 per variable) of block positions ``cur``."""
    for v in range(len(out)):
        out[v] = 0
    for g in range(len(group_ptr) - 1):
        out[group_vars[group_ptr[g] + cur[g]]] = 1


# -- restarts -------------------------------------------------------------------------------------------------


@kernel
def luby(k):
    """The ``k``-th term (``k >= 1``) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ...

    Restarting a randomised search after ``luby(k) * unit`` steps is within a logarithmic factor of the
    best fixed restart length for *any* run-time distribution (Luby, Sinclair & Zuckerman 1993).
    """
    while True:
        power = 1
        while (1 << power) - 1 < k:
            power += 1
        if k == (1 << power) - 1:
            return 1 << (power - 1)
        k = k - (1 << (power - 1)) + 1


@kernel
def restart_of(k, stream, unit, left, axes):
    """Restart ``k`` (from 1) of restart stream ``stream`` of a Luby plan: ``(sweeps, level, axis)``.

    Its ``sweeps`` are ``unit * luby(k)``, at most ``left`` (the plan's budget left); its Luby ``level``
    (``log2 luby(k)``) is the ladder it runs (:func:`~qpicross.samplers.blockshift.plans.ladder` of that level:
    a longer restart, a wider ladder); its free ``axis``, of ``axes`` the chain takes in turn, is
    ``(stream + k - 1) % axes``, so the streams of a read start on different axes and each alternates. The one
    restart plan: :class:`~qpicross.samplers.blockshift.plans.LubyRestarts` (the CPU sampler's plans), the read
    runner (:class:`~qpicross.samplers.blockshift.restarts.ReadRunner`, the axis) and the batched driver
    (:func:`~qpicross.samplers.blockshift.driver.ladder_run`, all three) take it from here.
    """
    m = luby(k)
    level = 0
    while (2 << level) <= m:
        level += 1
    return min(unit * m, left), level, (stream + k - 1) % axes


@kernel
def restart_begin(betas, w, moves, work, data):
    """Start a restart along ``betas`` (one per replica; one replica: annealing along them sweep by sweep):
    random replicas, their tables, the lowest one kept; returns its energy."""
    R = len(work.energy)
    for r in range(R):
        work.energy[r] = chain_start(r, moves, work, data)
        work.beta_of[r] = betas[r] if R > 1 else 0.0
        work.slot_of[r] = r
        if R > 1:
            fill_table(betas[r], w, work.tables[r])
    best_r = 0
    for r in range(R):
        if work.energy[r] < work.energy[best_r]:
            best_r = r
    chain_save(best_r, work)
    return work.energy[best_r]


@kernel
def reached(best, params):
    """Whether a restart whose lowest energy is ``best`` reached the target of ``params``."""
    return params.constant + params.w * best <= params.target + TOLERANCE


@kernel
def restart_sweeps(s0, count, betas, best, params, work, data, signals):
    """Sweeps ``s0`` to ``s0 + count - 1`` of a restart begun by :func:`restart_begin` whose lowest energy so
    far is ``best``; each sweep first checks the target (:func:`reached`) and ``signals.stop[0]``.
    Returns ``(sweeps done, lowest energy)``; ``signals.status`` gets the sweeps done since ``s0`` and the lowest
    energy (``constant + w * best``)."""
    R = len(work.energy)
    moves, w, constant, target = params.moves, params.w, params.constant, params.target
    stop, status = signals.stop, signals.status
    done = 0
    for s in range(s0, s0 + count):
        if constant + w * best <= target + TOLERANCE or stop[0] != 0:
            break
        for r in range(R):
            beta, table = sweep_table(s, r, betas, work.beta_of, work.slot_of, w, work.tables)
            e = work.energy[r] + chain_sweep(r, beta, table, moves, work, data)
            work.energy[r] = e
            best = keep_best(e, best, r, work, params, status)
        if R > 1:  # replica exchange between neighbouring temperatures, whole states and windows of lines
            exchange_replicas(work.beta_of, work.slot_of, work.energy, w, work.rng, work.order)
            if moves.window > 0:
                chain_exchange(w, moves, work, data)
                for r in range(R):
                    best = keep_best(work.energy[r], best, r, work, params, status)
        done += 1
        status[0] = done
    return done, best


@kernel(nogil=True)
def read(out, seed, betas, num_sweeps, params, work, data, signals):
    """One restart in one call: :func:`restart_begin`, then ``num_sweeps`` of :func:`restart_sweeps`, and its
    sample into ``out`` (its best state, or with ``params.return_last`` the replica at ``betas[-1]``). Returns
    ``(sweeps done, sweeps after which it reached the target or -1)``."""
    seed_rng(work.rng, seed)
    best = restart_begin(betas, params.w, params.moves, work, data)
    signals.status[1] = params.constant + params.w * best
    done, best = restart_sweeps(0, num_sweeps, betas, best, params, work, data, signals)
    if params.return_last:
        chain_save(coldest(work.beta_of, betas), work)
    chain_sample(out, work, data)
    return done, done if reached(best, params) else -1
