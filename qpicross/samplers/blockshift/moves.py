r"""The block-shift annealer's moves on the board, written once, compiled for the CPU and for CUDA.

Every move of the profile chain (:mod:`~qpicross.samplers.blockshift.profile`)
and the pieces the other board chains share are functions here, decorated
with ``device_jit``:

* imported normally, ``device_jit`` is :func:`numba.njit` (cached): the CPU
  sampler (:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`, one
  restart per call) and the batched sampler's CPU backend (a ``prange`` over
  ladders) call them;
* :mod:`qpicross.samplers.blockshift.cuda` loads a second copy of this file with
  ``device_jit = numba.cuda.jit(device=True)`` already set, so the batched
  sampler's CUDA kernel runs the very same code as device functions, one
  thread per tempering ladder.

So they use nothing a CUDA device function lacks: no allocation, no
``np.random`` (each ladder draws from its own xorshift64* stream,
:func:`uniform`, a one-element ``uint64`` array), no sorting. Same seed, same
samples, on either target (``tests/test_batched_profile.py`` checks it under
numba's CUDA simulator).

Kernel data are named tuples (:class:`Structure`, :class:`Board`, :class:`Profile`,
:class:`ProfileWork`), built by the modules that own them.

The profile chain's moves:

* :func:`free_move` -- heat-bath redraw of one free line given the others,
  from each cell's column marginals (:func:`column`: max-plus passes over the
  column's placements);
* :func:`random_replica` -- a uniformly random clue-consistent state (an exact draw at beta = 0);
* :func:`replica_sweep` -- one sweep of a replica: a move of each free line;
* :func:`exchange_replicas` -- replica exchange between neighbouring temperatures;
* :func:`restart_begin` / :func:`restart_sweeps` -- one restart of parallel tempering (or annealing with
  one replica), started and continued in pieces, as a batched launch runs it;
* :func:`returned_state` -- the sample: the free lines with each profiled line's best placement.

Examples:
    >>> rng = np.zeros(1, np.uint64)
    >>> seed_rng(rng, 7)
    >>> a = [uniform(rng) for _ in range(3)]
    >>> seed_rng(rng, 7)
    >>> a == [uniform(rng) for _ in range(3)] and all(0.0 <= u < 1.0 for u in a)
    True
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np

# The CUDA backend sets ``device_jit`` before executing this file (see the module docstring).
device_jit = globals().get("device_jit") or numba.njit(cache=True)

__all__ = ["Structure", "Board", "Profile", "ProfileWork", "uniform", "randint", "seed_rng", "propose_start",
           "breaks_fit", "fill_table",
           "paint", "sample_position", "draw_placement", "exchange_replicas", "keep_best", "coldest",
           "positions_to_sample", "sweep_table", "column", "best_columns", "free_move", "random_replica",
           "replica_sweep", "returned_state", "restart_begin", "restart_sweeps", "NONE", "TOLERANCE"]

Structure = namedtuple("Structure", "linear adj_ptr adj_idx adj_val group_ptr group_vars free chain_ptr "
                                    "next_limit has_prev has_next inner")
Structure.__doc__ = """The structure of a BQM's one-hot lines (:func:`~qpicross.samplers.blockshift.structure.read_structure`).

``linear`` and ``adj_ptr``/``adj_idx``/``adj_val`` the model (linear biases, symmetric CSR couplings),
``group_ptr``/``group_vars`` the one-hot groups (blocks) and their variables, ``chain_ptr`` each
line's groups, ``next_limit`` the first start of the next block each start allows.
"""
Board = namedtuple("Board", "seg_start glen line_axis cell0 stride line_len n_cells table_size")
Board.__doc__ = """The board kernel's arrays (:func:`~qpicross.samplers.blockshift.board.board_model`).

Each start's first cell, each block's length, each line's axis, first cell, stride between its cells
and length; the board's cells and the size of a Boltzmann factor table.
"""
Profile = namedtuple("Profile", "prof_chain prof_cell0 prof_stride prof_len cross free_chains pos_of blocks "
                                "longest band")
Profile.__doc__ = "The profile chain's arrays (:func:`~qpicross.samplers.blockshift.profile.profile_model`)."
ProfileWork = namedtuple("ProfileWork", "cur boards marg pcost energy beta_of slot_of tables weight prefix chosen "
                                        "cost dp scratch rng best_cur order")
ProfileWork.__doc__ = """Scratch and state of one profile-chain restart of ``R`` replicas.

Made by :func:`~qpicross.samplers.blockshift.profile.profile_work`.
"""

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
#: Larger than any mismatch count: "no placement".
NONE = 1 << 28
#: Energies within this of the target count as reaching it.
TOLERANCE = 1e-9


@device_jit
def uniform(rng):
    """The next number in [0, 1) of the xorshift64* stream ``rng`` (a one-element ``uint64`` array, not 0)."""
    s = rng[0]
    s ^= s >> _SHIFT_A
    s ^= s << _SHIFT_B
    s ^= s >> _SHIFT_C
    rng[0] = s
    return float((s * _MULTIPLIER) >> _TOP53) * _UNIT


@device_jit
def randint(rng, n):
    """A uniform integer in [0, n) from ``rng``."""
    k = int(uniform(rng) * n)
    return k if k < n else n - 1


@device_jit
def seed_rng(rng, seed):
    """Start ``rng`` from ``seed`` (any integer >= 0): splitmix64 of it, never the xorshift's fixed point 0."""
    z = np.uint64(seed) + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    rng[0] = z if z != np.uint64(0) else _GOLDEN


@device_jit
def propose_start(pa, size, shift_probability, rng):
    """A block move's proposed start for a block at start ``pa`` of its ``size``: with probability
    ``shift_probability`` a shift by one (either way, equally likely), else a jump to any other start;
    -1 where the shift leaves the block's starts. Every kernel's block moves propose with it."""
    if uniform(rng) < shift_probability:
        pb = pa + 1 if uniform(rng) < 0.5 else pa - 1
        return pb if 0 <= pb < size else -1
    pb = randint(rng, size - 1)
    return pb + 1 if pb >= pa else pb


@device_jit
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


@device_jit
def fill_table(beta, w, table):
    """``table[k] = exp(-beta * w * k)``, 0 from an exponent of 50 on (as the BQM kernel cuts)."""
    for k in range(len(table)):
        arg = beta * (w * k)
        table[k] = math.exp(-arg) if arg < 50.0 else 0.0


@device_jit
def paint(sign, c, g, p, own, other, board):
    """Add (``sign=1``) or remove (-1) block ``g`` of line ``c`` at position ``p``; returns the mismatch change."""
    s = board.seg_start[p]
    step, base = board.stride[c], board.cell0[c]
    change = 0
    for j in range(s, s + board.glen[g]):
        cell = base + j * step
        o = own[cell] - other[cell]
        change += 2 * o + 1 if sign > 0 else 1 - 2 * o
        own[cell] += sign
    return change


@device_jit
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


@device_jit
def draw_placement(weight, prefix, chosen, g0, g1, group_ptr, next_limit, rng):
    """Draw a consistent placement of groups ``g0`` to ``g1 - 1`` from their Boltzmann factors; False if none.

    ``weight`` holds each start's factor relative to its group's best (below
    ``e^-50``: 0). A forward pass turns it, group by group, into the share of the
    fitting placements of blocks ``g0 .. g`` that put block ``g`` at each start
    (``next_limit``: the compatible predecessors form a prefix), normalised; a
    backward pass draws block ``g1 - 1`` first, then each earlier one among the
    starts that fit before it, into ``chosen[g - g0]``. Every line move of every
    kernel draws with it (the same draws for the same factors).
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


@device_jit
def exchange_replicas(beta_of, slot_of, mism, w, rng, order):
    """Replica exchange between neighbouring temperatures, energies ``w * mism``, after each sweep.

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
        d = (beta_of[r1] - beta_of[r2]) * (w * (mism[r1] - mism[r2]))
        if d >= 0.0 or uniform(rng) < math.exp(d):
            beta_of[r1], beta_of[r2] = beta_of[r2], beta_of[r1]
            slot_of[r1], slot_of[r2] = slot_of[r2], slot_of[r1]
            order[i], order[i + 1] = r2, r1


@device_jit
def keep_best(e, best, r, cur, best_cur, status, constant, w, return_last):
    """The lowest energy so far after replica ``r`` reached ``e``: on a new lowest, ``status[1]`` gets it
    (with ``constant``) and, unless ``return_last``, ``best_cur`` the replica's state."""
    if e < best:
        status[1] = constant + w * e
        if not return_last:
            for g in range(len(best_cur)):
                best_cur[g] = cur[r, g]
        return e
    return best


@device_jit
def coldest(beta_of, betas):
    """The replica at ``betas[-1]`` (the one of annealing)."""
    last = 0
    for r in range(len(beta_of)):
        if len(beta_of) > 1 and beta_of[r] == betas[len(betas) - 1]:
            last = r
    return last


@device_jit
def positions_to_sample(cur, out, group_ptr, group_vars):
    """The one-hot sample (0/1 per variable) of block positions ``cur``."""
    for v in range(len(out)):
        out[v] = 0
    for g in range(len(group_ptr) - 1):
        out[group_vars[group_ptr[g] + cur[g]]] = 1


@device_jit
def sweep_table(s, r, betas, beta_of, slot_of, w, tables):
    """The inverse temperature and factor table of replica ``r`` in sweep ``s``: annealing (one
    replica) follows ``betas`` sweep by sweep, tempering reads each replica's current slot."""
    if len(beta_of) == 1:
        fill_table(betas[s], w, tables[0])
        return betas[s], tables[0]
    return beta_of[r], tables[slot_of[r]]


# -- the profile chain ------------------------------------------------------------------------------------------


@device_jit
def column(j, own, pmodel, board, model, dp, scratch, marg, want_marginals):
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
    """
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


@device_jit
def best_columns(own, cur, pmodel, board, model, dp, scratch, marg):
    """Set every profiled line's blocks in ``cur`` to a placement with the fewest mismatches against ``own``."""
    pos_of, glen, chain_ptr = pmodel.pos_of, board.glen, model.chain_ptr
    for j in range(len(pmodel.prof_chain)):
        c = pmodel.prof_chain[j]
        if c < 0:
            continue
        column(j, own, pmodel, board, model, dp, scratch, marg, False)
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


@device_jit
def free_move(c, beta, table, cur, boards, marg, pcost, pmodel, board, model, weight, prefix, chosen, cost, dp,
              scratch, rng):
    """Heat-bath redraw of free line ``c`` given the other free lines; returns the profile energy change."""
    group_ptr, chain_ptr, next_limit = model.group_ptr, model.chain_ptr, model.next_limit
    seg_start, glen = board.seg_start, board.glen
    own = boards[0]
    g0, g1 = chain_ptr[c], chain_ptr[c + 1]
    base, step, n = board.cell0[c], board.stride[c], board.line_len[c]
    span = cost.shape[0] // 2
    cost[span] = 0
    for j in range(n):  # painting cell j over leaving it empty: min(Mb + 1, Mp) - min(Mb, Mp + 1)
        cell = base + j * step
        b, p = marg[0, cell], marg[1, cell]
        cost[span + j + 1] = cost[span + j] + min(b + 1, p) - min(b, p + 1)
    for g in range(g0, g1):
        first, size = group_ptr[g], group_ptr[g + 1] - group_ptr[g]
        lowest = 1 << 30
        for p in range(size):
            s = seg_start[first + p]
            cost[p] = cost[span + s + glen[g]] - cost[span + s]
            lowest = min(lowest, cost[p])
        for p in range(size):
            k = cost[p] - lowest
            weight[first + p] = 1.0 if beta == 0.0 else (table[k] if k < len(table) else 0.0)
    if not draw_placement(weight, prefix, chosen, g0, g1, group_ptr, next_limit, rng):
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
        v = column(col, own, pmodel, board, model, dp, scratch[2 * n + 2:], marg, True)
        change += v - pcost[col]
        pcost[col] = v
    return change


@device_jit
def random_replica(r, work, pmodel, board, model):
    """Set replica ``r`` of ``work`` to uniformly random clue-consistent free lines (an exact draw at
    beta = 0), its columns' fewest mismatches and their marginals; returns its profile energy."""
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
        free_move(c, 0.0, work.tables[r], cur[r], boards[r], marg[r], pcost[r], pmodel, board, model, work.weight,
                  work.prefix, work.chosen, work.cost, work.dp, work.scratch, work.rng)
    e = 0
    for j in range(len(pmodel.prof_chain)):
        pcost[r, j] = column(j, boards[r, 0], pmodel, board, model, work.dp, work.scratch, marg[r], True)
        e += pcost[r, j]
    return e


@device_jit
def replica_sweep(r, beta, table, line_moves, work, pmodel, board, model):
    """One sweep of replica ``r``: a heat-bath move of each free line (each with probability
    ``line_moves``); returns the profile energy change."""
    free_chains = pmodel.free_chains
    change = 0
    for t in range(len(free_chains)):
        if line_moves >= 1.0 or uniform(work.rng) < line_moves:
            change += free_move(free_chains[t], beta, table, work.cur[r], work.boards[r], work.marg[r],
                                work.pcost[r], pmodel, board, model, work.weight, work.prefix, work.chosen,
                                work.cost, work.dp, work.scratch, work.rng)
    return change


@device_jit
def returned_state(best_cur, out, work, pmodel, board, model):
    """Write to ``out`` the sample of free lines ``best_cur`` with each profiled line's best placement
    against them (replica 0's board and marginals are overwritten)."""
    group_ptr, chain_ptr = model.group_ptr, model.chain_ptr
    free_chains = pmodel.free_chains
    own, other = work.boards[0, 0], work.boards[0, 1]
    for cell in range(len(own)):
        own[cell] = 0
    for t in range(len(free_chains)):
        c = free_chains[t]
        for g in range(chain_ptr[c], chain_ptr[c + 1]):
            paint(1, c, g, group_ptr[g] + best_cur[g], own, other, board)
    best_columns(own, best_cur, pmodel, board, model, work.dp, work.scratch, work.marg[0])
    positions_to_sample(best_cur, out, group_ptr, model.group_vars)


@device_jit
def restart_begin(betas, w, work, pmodel, board, model):
    """Start a restart along ``betas`` (one per replica; one replica: annealing along them sweep by sweep):
    random replicas, their tables, ``best_cur`` the lowest; returns its profile energy."""
    R = work.cur.shape[0]
    energy, beta_of, slot_of = work.energy, work.beta_of, work.slot_of
    for r in range(R):
        energy[r] = random_replica(r, work, pmodel, board, model)
        beta_of[r] = betas[r] if R > 1 else 0.0
        slot_of[r] = r
        if R > 1:
            fill_table(betas[r], w, work.tables[r])
    best_r = 0
    for r in range(R):
        if energy[r] < energy[best_r]:
            best_r = r
    for g in range(work.cur.shape[1]):
        work.best_cur[g] = work.cur[best_r, g]
    return energy[best_r]


@device_jit
def restart_sweeps(s0, count, betas, best, line_moves, return_last, target, w, constant, work, pmodel, board, model,
                   stop, status):
    """Sweeps ``s0`` to ``s0 + count - 1`` of a restart begun by :func:`restart_begin` whose lowest profile
    energy so far is ``best``; each sweep first checks the target (``constant + w * best <= target``) and
    ``stop[0]``. Returns ``(sweeps done, lowest energy)``; ``status`` gets the sweeps done since ``s0``
    and the lowest energy with ``constant``."""
    R = work.cur.shape[0]
    done = 0
    for s in range(s0, s0 + count):
        if constant + w * best <= target + TOLERANCE or stop[0] != 0:
            break
        for r in range(R):
            beta, table = sweep_table(s, r, betas, work.beta_of, work.slot_of, w, work.tables)
            e = work.energy[r] + replica_sweep(r, beta, table, line_moves, work, pmodel, board, model)
            work.energy[r] = e
            best = keep_best(e, best, r, work.cur, work.best_cur, status, constant, w, return_last)
        if R > 1:  # replica exchange between neighbouring temperatures
            exchange_replicas(work.beta_of, work.slot_of, work.energy, w, work.rng, work.order)
        done += 1
        status[0] = done
    return done, best
