r"""A structure-respecting annealer: moves that shift a block's start, never break one-hot.

In the Picross QUBO every block of every line has one binary variable per
possible start, and the ``one_hot`` penalty asks exactly one of them to be 1.
Single-bit-flip annealing (dwave-samplers SA) must cross that penalty barrier
every time a block moves: turning the old start off costs energy before the
new start can be turned on, and on 15x15 puzzles it never finds the ground
state. :class:`BlockShiftSampler` instead keeps each block's variables
one-hot at all times and proposes *moves of the block*: the active start jumps
to another start of the same block (with probability ``shift_probability`` to
a neighbouring start, i.e. the block shifts by one cell; otherwise anywhere in
its window). The Metropolis test uses the exact BQM energy change,

.. math:: \Delta E = f_b - f_a - J_{ab}, \qquad f_v = h_v + \sum_u J_{vu} x_u,

so the ordering and matching penalties are annealed as written in the BQM,
only the one-hot penalty is satisfied by construction. (Two starts of one
block are never 1 together in such states, so the couplings inside a group
never contribute and are dropped: :math:`J_{ab} = 0` in the move.) Every returned sample
is a state of the BQM and its energy is the BQM's energy.

Which variables form a one-hot group comes from the labels: labels
``(kind, line, start, block)`` (the :mod:`qpicross.formulation` labels) are
grouped by ``(kind, line, block)`` and ordered by ``start``. Any other label
(or ``groups=[]``) is a free binary variable annealed by single flips, so the
sampler is a plain simulated annealer on BQMs without that structure. Pass
``groups`` to name the one-hot groups of another model explicitly.

Schedules:

* ``num_replicas=R > 1`` (default 4): parallel tempering (replica exchange)
  with ``R`` replicas at fixed inverse temperatures geometric over
  ``beta_range``, swapping neighbours after every sweep;
* ``num_replicas=1``: simulated annealing, inverse temperature geometric
  from ``beta_range[0]`` to ``beta_range[1]`` over ``num_sweeps``.

Besides block moves, every sweep redraws each line (with probability
``line_moves``) by a *heat-bath line move*: all blocks of the line are taken
out and a new placement is drawn from the Boltzmann distribution of the
line's energy given the rest of the board, over the placements whose
consecutive blocks fit (exactly, by dynamic programming over the starts).
It is a Gibbs step on a whole line at the current temperature, not a
deduction: it never fixes a cell.

Each read is an independent restart and returns the lowest-energy state it
visited; with ``target_energy`` a read stops as soon as it reaches that energy.
The inner loops are compiled with numba.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> puzzle = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> bqm = build_formulation(puzzle).bqm()
    >>> ss = BlockShiftSampler().sample(bqm, num_reads=5, num_sweeps=200, seed=1)
    >>> float(ss.first.energy)
    0.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence

import dimod
import numba
import numpy as np

__all__ = ["BlockShiftSampler", "infer_groups", "infer_lines", "default_beta_range"]


def infer_lines(variables: Sequence[Hashable]) -> list[list[list[Hashable]]]:
    """Lines of one-hot groups from formulation labels ``(kind, line, start, block)``.

    Each line is its list of groups in block order; each group is its
    variables in start order. Variables with other labels belong to no line.

    >>> infer_lines([("row", 0, 3, 1), ("row", 0, 0, 0), ("row", 0, 4, 1), ("col", 2, 1, 0), "x"])
    [[[('row', 0, 0, 0)], [('row', 0, 3, 1), ('row', 0, 4, 1)]], [[('col', 2, 1, 0)]]]
    """
    lines: dict[tuple, dict[int, list[tuple]]] = {}
    for v in variables:
        if isinstance(v, tuple) and len(v) == 4 and isinstance(v[0], str) and all(
            isinstance(x, (int, np.integer)) for x in v[1:]
        ):
            lines.setdefault((v[0], v[1]), {}).setdefault(v[3], []).append(v)
    return [
        [sorted(blocks[k], key=lambda label: label[2]) for k in sorted(blocks)] for blocks in lines.values()
    ]


def infer_groups(variables: Sequence[Hashable]) -> list[list[Hashable]]:
    """One-hot groups from formulation labels ``(kind, line, start, block)``.

    Variables whose label is not such a 4-tuple belong to no group.

    >>> infer_groups([("row", 0, 2, 0), ("row", 0, 0, 0), ("col", 1, 0, 0), "x"])
    [[('row', 0, 0, 0), ('row', 0, 2, 0)], [('col', 1, 0, 0)]]
    """
    return [group for line in infer_lines(variables) for group in line]


def default_beta_range(bqm: dimod.BinaryQuadraticModel) -> tuple[float, float]:
    """``(hot, cold)`` inverse temperatures: ``(2 / q, 5 / q)``, ``q`` the smallest non-zero bias.

    In the Picross formulation every penalty is an integer multiple of its
    weight, so ``q`` is the energy quantum (one mismatched cell at weight 1).
    The range was tuned with ``qpicross bench`` on taai2011 and Bompol puzzles
    (see the README's results): hotter starts waste sweeps, colder ones freeze.

    >>> bqm = dimod.BinaryQuadraticModel({"a": 1.0}, {("a", "b"): -4.0}, 0, "BINARY")
    >>> default_beta_range(bqm)
    (2.0, 5.0)
    """
    linear, (_, _, quadratic), _ = bqm.to_numpy_vectors()
    biases = np.abs(np.concatenate([linear, quadratic]))
    biases = biases[biases > 1e-12]
    quantum = float(biases.min()) if len(biases) else 1.0
    return (2.0 / quantum, 5.0 / quantum)


class BlockShiftSampler(dimod.Sampler):
    """One-hot-preserving simulated annealing / parallel tempering (see the module docstring).

    Examples:
        >>> import dimod
        >>> bqm = dimod.BinaryQuadraticModel({"a": 1, "b": -1}, {("a", "b"): 0.5}, 0, "BINARY")
        >>> ss = BlockShiftSampler().sample(bqm, num_reads=3, seed=0)
        >>> ss.record.sample.shape, float(ss.first.energy)
        ((3, 2), -1.0)
    """

    @property
    def parameters(self) -> dict:
        return {
            "num_reads": [],
            "num_sweeps": [],
            "seed": [],
            "beta_range": [],
            "num_replicas": [],
            "shift_probability": [],
            "line_moves": [],
            "groups": [],
            "target_energy": [],
        }

    @property
    def properties(self) -> dict:
        return {"moves": "one-hot block shift + single flip", "schedules": ["anneal", "tempering"]}

    def sample(
        self,
        bqm: dimod.BinaryQuadraticModel,
        *,
        num_reads: int = 10,
        num_sweeps: int = 1000,
        seed: int | None = None,
        beta_range: tuple[float, float] | None = None,
        num_replicas: int = 4,
        shift_probability: float = 0.5,
        line_moves: float = 1.0,
        groups: Sequence[Sequence[Hashable]] | None = None,
        target_energy: float | None = None,
        **kwargs,
    ) -> dimod.SampleSet:
        """Sample a BQM.

        Args:
            bqm: The model (any vartype; spins are handled through the binary form).
            num_reads: Independent reads (restarts).
            num_sweeps: Sweeps per read; a sweep proposes one move per group and free variable
                (per replica with tempering).
            seed: Random seed (0 <= seed < 2**32); the same seed gives the same samples.
            beta_range: ``(hot, cold)`` inverse temperatures (default: :func:`default_beta_range`).
            num_replicas: 1 for annealing, more (default 4) for parallel tempering.
            shift_probability: Chance that a block move shifts the block by one start.
            line_moves: Chance per sweep that each line is redrawn by a heat-bath line move (0: never).
            groups: One-hot groups of variables (default: :func:`infer_groups`).
            target_energy: Stop a read once it reaches this energy.

        Returns:
            One sample per read, with energies from the BQM; ``info["timing"]`` holds seconds.

        Raises:
            ValueError: For a bad parameter or a group naming an unknown variable.
        """
        self.remove_unknown_kwargs(**kwargs)
        if num_reads < 1 or num_sweeps < 0 or num_replicas < 1:
            raise ValueError("num_reads and num_replicas must be positive and num_sweeps non-negative")
        if not 0 <= shift_probability <= 1:
            raise ValueError(f"shift_probability must be in [0, 1], got {shift_probability}")
        if not 0 <= line_moves <= 1:
            raise ValueError(f"line_moves must be in [0, 1], got {line_moves}")
        if seed is not None and not (isinstance(seed, (int, np.integer)) and 0 <= seed < 2**32):
            raise ValueError(f"seed must be an integer in [0, 2**32), got {seed!r}")
        t0 = time.perf_counter()
        binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
        variables = list(binary.variables)
        n = len(variables)
        if n == 0:
            return dimod.SampleSet.from_samples_bqm((np.zeros((num_reads, 0), np.int8), []), bqm)
        if beta_range is None:
            beta_range = default_beta_range(binary)
        hot, cold = (float(b) for b in beta_range)
        if not (0 < hot and 0 < cold):
            raise ValueError(f"beta_range must be positive, got {beta_range}")

        index = {v: i for i, v in enumerate(variables)}
        if groups is None:
            lines = infer_lines(variables)
        else:  # explicit groups: each is its own chain
            lines = [[list(g)] for g in groups]
        group_ptr, group_vars, free, chain_ptr = _units(lines, index, n)
        linear, (irow, icol, qdata), _ = binary.to_numpy_vectors(variable_order=variables)
        keep, next_limit = _structure(group_ptr, group_vars, free, chain_ptr, irow, icol, qdata, n)
        adj_ptr, adj_idx, adj_val = _symmetric_csr(n, irow[keep], icol[keep], qdata[keep])

        seeds = np.random.SeedSequence(seed).generate_state(num_reads).astype(np.int64)
        target = -np.inf if target_energy is None else float(target_energy) - binary.offset
        samples = np.empty((num_reads, n), np.int8)
        sweeps_done = np.zeros(num_reads, np.int64)
        if num_replicas == 1:
            betas = np.geomspace(hot, cold, max(num_sweeps, 1)) if num_sweeps else np.zeros(0)
        else:
            betas = np.geomspace(hot, cold, num_replicas)
        t1 = time.perf_counter()
        _sample_reads(
            samples, sweeps_done, seeds, betas, num_sweeps, num_replicas, float(shift_probability),
            float(line_moves), target, np.asarray(linear, np.float64), adj_ptr, adj_idx, adj_val, group_ptr,
            group_vars, free, chain_ptr, next_limit,
        )
        t2 = time.perf_counter()
        if bqm.vartype is dimod.SPIN:
            samples = 2 * samples - 1
        sampleset = dimod.SampleSet.from_samples_bqm((samples, variables), bqm)
        sampleset.info["timing"] = {"preprocess_s": t1 - t0, "sample_s": t2 - t1}
        sampleset.info["sweeps"] = sweeps_done.tolist()
        return sampleset


def _units(lines, index, n):
    """CSR of one-hot groups (chained by line) followed by one single-flip unit per ungrouped variable.

    Returns ``group_ptr, group_vars, free, chain_ptr``: groups ``chain_ptr[c]`` to
    ``chain_ptr[c + 1]`` are the consecutive blocks of line ``c``.
    """
    in_group = np.zeros(n, bool)
    members = []
    chain_sizes = []
    for line in lines:
        count = 0
        for g in line:
            try:
                idx = [index[v] for v in g]
            except KeyError as exc:
                raise ValueError(f"group names a variable the BQM lacks: {exc.args[0]!r}") from None
            if not idx:
                continue
            if in_group[idx].any() or len(set(idx)) != len(idx):
                raise ValueError("a variable belongs to more than one group")
            in_group[idx] = True
            members.append(np.asarray(idx, np.int64))
            count += 1
        if count:
            chain_sizes.append(count)
    loose = np.flatnonzero(~in_group)
    sizes = [len(m) for m in members] + [1] * len(loose)
    group_ptr = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    group_vars = np.concatenate(members + [loose.astype(np.int64)]) if sizes else np.zeros(0, np.int64)
    free = np.r_[np.zeros(len(members), np.bool_), np.ones(len(loose), np.bool_)]
    chain_ptr = np.r_[0, np.cumsum(chain_sizes)].astype(np.int64)
    return group_ptr, group_vars.astype(np.int64), free, chain_ptr


def _symmetric_csr(n, irow, icol, qdata):
    rows = np.concatenate([irow, icol]).astype(np.int64)
    cols = np.concatenate([icol, irow]).astype(np.int64)
    vals = np.concatenate([qdata, qdata]).astype(np.float64)
    order = np.argsort(rows, kind="stable")
    ptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=n))].astype(np.int64)
    return ptr, cols[order], vals[order]


def _structure(group_ptr, group_vars, free, chain_ptr, irow, icol, qdata, n):
    """Couplings that matter between one-hot states, and which starts of the next block fit after each start.

    Two variables of one group are never 1 together in a one-hot state, so
    their couplings never contribute: they are dropped (``keep`` is False).

    ``next_limit[i]`` (for the variable at ``group_vars[i]``) is the first
    position in the next group of its chain that no positive coupling forbids
    after it: the order and overlap penalties of the formulation define it.
    It is made non-decreasing along the group, so the compatible predecessors
    of a position form a prefix (what the line move's dynamic programme needs).
    """
    sizes = np.diff(group_ptr)
    group_of = np.full(n, -1, np.int64)
    position = np.zeros(n, np.int64)
    gid = np.repeat(np.arange(len(sizes)), sizes)
    group_of[group_vars] = np.where(free[gid], -1, gid)
    position[group_vars] = np.arange(len(group_vars)) - group_ptr[gid]
    irow, icol = np.asarray(irow, np.int64), np.asarray(icol, np.int64)
    qdata = np.asarray(qdata, np.float64)
    keep = ~((group_of[irow] >= 0) & (group_of[irow] == group_of[icol]))

    # the last group of each chain has no next group
    has_next = np.zeros(len(sizes), bool)
    for c in range(len(chain_ptr) - 1):
        has_next[chain_ptr[c] : chain_ptr[c + 1] - 1] = True
    limit = np.zeros(n, np.int64)  # indexed by variable
    for u, v in ((irow, icol), (icol, irow)):
        gu, gv = group_of[u], group_of[v]
        hit = (gu >= 0) & (gv == gu + 1) & has_next[np.maximum(gu, 0)] & (qdata > 0)
        np.maximum.at(limit, u[hit], position[v[hit]] + 1)
    next_limit = limit[group_vars]
    for grp in np.flatnonzero(has_next):
        lo, hi = group_ptr[grp], group_ptr[grp + 1]
        next_limit[lo:hi] = np.maximum.accumulate(next_limit[lo:hi])
    return keep, next_limit


@numba.njit(cache=True)
def _flip(v, delta_sign, field, adj_ptr, adj_idx, adj_val):
    for k in range(adj_ptr[v], adj_ptr[v + 1]):
        field[adj_idx[k]] += delta_sign * adj_val[k]


@numba.njit(cache=True)
def _sweep(beta, x, field, current, energy, shift_probability, adj_ptr, adj_idx, adj_val, group_ptr,
           group_vars, free):
    """One proposal per unit; returns the new energy."""
    for g in range(len(group_ptr) - 1):
        first = group_ptr[g]
        size = group_ptr[g + 1] - first
        if free[g]:
            v = group_vars[first]
            delta = field[v] if x[v] == 0 else -field[v]
            if delta <= 0.0 or np.random.random() < math.exp(-beta * delta):
                x[v] = 1 - x[v]
                _flip(v, 1.0 if x[v] == 1 else -1.0, field, adj_ptr, adj_idx, adj_val)
                energy += delta
            continue
        if size < 2:
            continue
        pa = current[g]
        if np.random.random() < shift_probability:
            pb = pa + 1 if np.random.random() < 0.5 else pa - 1
            if pb < 0 or pb >= size:
                continue
        else:
            pb = np.random.randint(size - 1)
            if pb >= pa:
                pb += 1
        a = group_vars[first + pa]
        b = group_vars[first + pb]
        delta = field[b] - field[a]  # a and b are never coupled: intra-group couplings are dropped
        if delta <= 0.0 or np.random.random() < math.exp(-beta * delta):
            x[a] = 0
            _flip(a, -1.0, field, adj_ptr, adj_idx, adj_val)
            x[b] = 1
            _flip(b, 1.0, field, adj_ptr, adj_idx, adj_val)
            current[g] = pb
            energy += delta
    return energy


@numba.njit(cache=True)
def _sample_position(weight, lo, count):
    """Draw ``i`` in ``[0, count)`` with probability proportional to ``weight[lo + i]`` (-1: all zero)."""
    total = 0.0
    for i in range(count):
        total += weight[lo + i]
    if not total > 0.0:
        return -1
    u = np.random.random() * total
    for i in range(count):
        u -= weight[lo + i]
        if u <= 0.0 and weight[lo + i] > 0.0:
            return i
    for i in range(count - 1, -1, -1):  # rounding left u > 0: take the last possible one
        if weight[lo + i] > 0.0:
            return i
    return -1


@numba.njit(cache=True)
def _line_move(c, beta, x, field, current, energy, chain_ptr, group_ptr, group_vars, next_limit, adj_ptr,
               adj_idx, adj_val, weight, prefix, chosen):
    """Heat-bath move of a whole line: redraw all its block starts from the Boltzmann distribution.

    The line's blocks are taken out, then a new placement is drawn with
    probability proportional to ``exp(-beta * sum of the starts' local fields)``
    over the placements whose consecutive blocks fit (``next_limit``), by a
    forward pass of (normalised) partition sums and a backward draw; returns
    the new energy. Should every weight underflow, the line keeps its placement.
    """
    g0 = chain_ptr[c]
    g1 = chain_ptr[c + 1]
    for g in range(g0, g1):
        a = group_vars[group_ptr[g] + current[g]]
        energy -= field[a]
        x[a] = 0
        _flip(a, -1.0, field, adj_ptr, adj_idx, adj_val)
    # forward: weight[i] = share of the fitting placements of blocks g0..g that put block g at i
    ok = True
    for g in range(g0, g1):
        first = group_ptr[g]
        size = group_ptr[g + 1] - first
        lowest = np.inf
        for p in range(size):
            f = field[group_vars[first + p]]
            if f < lowest:
                lowest = f
        if g > g0:
            pfirst = group_ptr[g - 1]
            psize = first - pfirst
            prefix[0] = 0.0
            for a in range(psize):
                prefix[a + 1] = prefix[a] + weight[pfirst + a]
        total = 0.0
        count = 0
        for p in range(size):
            if g > g0:
                while count < psize and next_limit[pfirst + count] <= p:
                    count += 1
            # weights below e^-50 of the best are dropped: they would only feed
            # denormal numbers (very slow arithmetic) into the partition sums
            arg = beta * (field[group_vars[first + p]] - lowest)
            w = math.exp(-arg) if arg < 50.0 else 0.0
            if g > g0:
                w *= prefix[count]
                if w < 1e-200:
                    w = 0.0
            weight[first + p] = w
            total += w
        if not total > 0.0:
            ok = False
            break
        for p in range(size):
            weight[first + p] /= total
    # backward draw
    if ok:
        limit_count = group_ptr[g1] - group_ptr[g1 - 1]
        for g in range(g1 - 1, g0 - 1, -1):
            first = group_ptr[g]
            if g < g1 - 1:
                b = chosen[g + 1 - g0]
                limit_count = 0
                size = group_ptr[g + 1] - first
                while limit_count < size and next_limit[first + limit_count] <= b:
                    limit_count += 1
            p = _sample_position(weight, first, limit_count)
            if p < 0:
                ok = False
                break
            chosen[g - g0] = p
    for g in range(g0, g1):
        p = chosen[g - g0] if ok else current[g]
        v = group_vars[group_ptr[g] + p]
        energy += field[v]
        x[v] = 1
        _flip(v, 1.0, field, adj_ptr, adj_idx, adj_val)
        current[g] = p
    return energy


@numba.njit(cache=True)
def _random_state(x, field, current, linear, adj_ptr, adj_idx, adj_val, group_ptr, group_vars, free):
    """A random one-hot state; fills the local fields and returns the energy (without offset)."""
    x[:] = 0
    for g in range(len(group_ptr) - 1):
        first = group_ptr[g]
        size = group_ptr[g + 1] - first
        if free[g]:
            x[group_vars[first]] = np.random.randint(2)
        else:
            p = np.random.randint(size)
            current[g] = p
            x[group_vars[first + p]] = 1
    energy = 0.0
    for v in range(len(x)):
        f = linear[v]
        for k in range(adj_ptr[v], adj_ptr[v + 1]):
            f += adj_val[k] * x[adj_idx[k]]
        field[v] = f
        if x[v]:
            energy += linear[v] + 0.5 * (f - linear[v])
    return energy


@numba.njit(cache=True)
def _sample_reads(samples, sweeps_done, seeds, betas, num_sweeps, num_replicas, shift_probability, line_moves,
                  target, linear, adj_ptr, adj_idx, adj_val, group_ptr, group_vars, free, chain_ptr, next_limit):
    n = len(linear)
    n_chains = len(chain_ptr) - 1
    weight = np.zeros(n, np.float64)
    prefix = np.zeros(n + 1, np.float64)
    chosen = np.zeros(len(group_ptr), np.int64)
    n_units = len(group_ptr) - 1
    R = num_replicas
    x = np.zeros((R, n), np.int8)
    field = np.zeros((R, n), np.float64)
    current = np.zeros((R, n_units), np.int64)
    energy = np.zeros(R, np.float64)
    beta_of = np.zeros(R, np.float64)
    for read in range(len(seeds)):
        np.random.seed(seeds[read])
        for r in range(R):
            energy[r] = _random_state(x[r], field[r], current[r], linear, adj_ptr, adj_idx, adj_val,
                                      group_ptr, group_vars, free)
            beta_of[r] = betas[r] if R > 1 else 0.0
        best = energy[0]
        best_r = 0
        for r in range(R):
            if energy[r] < best:
                best = energy[r]
                best_r = r
        samples[read] = x[best_r]
        done = 0
        for s in range(num_sweeps):
            if best <= target + 1e-9:
                break
            for r in range(R):
                beta = betas[s] if R == 1 else beta_of[r]
                energy[r] = _sweep(beta, x[r], field[r], current[r], energy[r], shift_probability, adj_ptr,
                                   adj_idx, adj_val, group_ptr, group_vars, free)
                if line_moves > 0.0:
                    for c in range(n_chains):
                        if line_moves >= 1.0 or np.random.random() < line_moves:
                            energy[r] = _line_move(c, beta, x[r], field[r], current[r], energy[r], chain_ptr,
                                                   group_ptr, group_vars, next_limit, adj_ptr, adj_idx, adj_val,
                                                   weight, prefix, chosen)
                if energy[r] < best - 1e-9:
                    best = energy[r]
                    samples[read] = x[r]
            if R > 1:  # replica exchange between neighbouring temperatures
                order = np.argsort(beta_of)
                for i in range(R - 1):
                    r1 = order[i]
                    r2 = order[i + 1]
                    d = (beta_of[r1] - beta_of[r2]) * (energy[r1] - energy[r2])
                    if d >= 0.0 or np.random.random() < math.exp(d):
                        tmp = beta_of[r1]
                        beta_of[r1] = beta_of[r2]
                        beta_of[r2] = tmp
                        order[i] = r2
                        order[i + 1] = r1
            done += 1
        sweeps_done[read] = done
