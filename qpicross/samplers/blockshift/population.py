r"""Population annealing on the structured annealer's profile chain.

Population annealing (Hukushima & Iba 2003; Machta 2010) is the structured
annealer's other way through the temperatures, beside parallel tempering. A
population of ``R`` independent states of the profile chain
(:mod:`qpicross.samplers.blockshift.profile`: the lines of one axis free, the other
axis minimised out) starts from uniformly random clue-consistent lines (an
exact draw at :math:`\beta = 0`) and is carried down a schedule of inverse
temperatures :math:`\beta_1 < \dots < \beta_T`. At each step the population is
resampled with weights :math:`e^{-(\beta_t - \beta_{t-1}) E}` (systematic
resampling, the size kept at ``R``: states of low energy are copied, those of
high energy dropped), then every member gets its share of the sweeps at
:math:`\beta_t` (heat-bath line moves, the profile chain's own). With enough
members and sweeps the population at each step is a sample of
:math:`e^{-\beta_t E}`, and the low-energy states the schedule's colder steps
keep are the candidates for the ground state.

:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` runs it with
``schedule="population"``: Luby restarts, each one annealing run of
``population`` members along ``population_steps`` steps, its sweeps (sweeps of
the whole population) growing with the Luby sequence. ``make bench-population``
measures it against the default (tempering restarts) on hard and typical
puzzles (the docs' results pages).

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> from qpicross.samplers.blockshift.sampler import BlockShiftSampler
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=2,
    ...                                 schedule="population", population=20, target_energy=0, seed=1)
    >>> ss.info["schedule"], float(ss.first.energy)
    ('population', 0.0)
"""

from __future__ import annotations

import math

import numpy as np

from qpicross.samplers.blockshift.engine import fill_table, keep_best, randint, reached, seed_rng, uniform
from qpicross.samplers.blockshift.layouts import ProfileWork
from qpicross.samplers.blockshift.profile import random_replica, replica_sweep, returned_state
from qpicross.samplers.blockshift.compile_targets import kernel

__all__ = ["population_read", "resample"]


@kernel
def resample(energy, dbeta, w, u, src):
    """Systematic resampling: ``src[k]`` is the member whose state member ``k`` gets.

    Member ``r`` is drawn with probability proportional to ``exp(-dbeta * w * energy[r])``,
    and gets ``floor`` or ``ceil`` of ``R`` times that share of the copies, ``u`` in ``[0, 1)``
    the one random number; the population keeps its size ``R``.

    >>> src = np.zeros(4, np.int64)
    >>> resample(np.array([0, 0, 0, 0]), 1.0, 1.0, 0.5, src); src.tolist()  # equal weights: each kept
    [0, 1, 2, 3]
    >>> resample(np.array([0, 50, 50, 50]), 1.0, 1.0, 0.5, src); src.tolist()  # one far below: copied 4 times
    [0, 0, 0, 0]
    """
    R = len(energy)
    lowest = energy[0]
    for r in range(1, R):
        lowest = min(lowest, energy[r])
    total = 0.0
    for r in range(R):
        total += math.exp(-dbeta * w * (energy[r] - lowest))
    share, k = 0.0, 0
    for r in range(R):
        share += math.exp(-dbeta * w * (energy[r] - lowest)) / total
        while k < R and (u + k) / R < share:
            src[k] = r
            k += 1
    while k < R:  # rounding left the last copies undrawn: the last member
        src[k] = R - 1
        k += 1


@kernel(nogil=True, _nrt=True)
def population_read(out, seed, betas, num_sweeps, params, work, data, signals):
    """One annealing run of a population of ``work``'s replicas along ``betas``; as the profile chain's
    :func:`~qpicross.samplers.blockshift.engine.read` otherwise (same arguments, same return value).

    ``num_sweeps`` sweeps of the whole population, shared evenly among the steps
    ``betas`` (each gets ``num_sweeps / len(betas)``, rounded). With ``return_last``
    a read returns a member of the final population drawn uniformly (a draw at ``betas[-1]``), else
    the lowest-energy state seen. ``params.moves.line_moves`` is each free line's chance of a move in a
    sweep, as in the profile chain; the rest of the moves is not used.
    """
    line_moves, return_last, w = params.moves.line_moves, params.return_last, params.w
    stop, status = signals.stop, signals.status
    rng, tables, best_cur = work.rng, work.tables, work.best_cur
    seed_rng(rng, seed)
    cur, boards, marg, pcost, energy = work.cur, work.boards, work.marg, work.pcost, work.energy
    R = cur.shape[0]
    started = R
    for r in range(R):  # an exact draw at beta = 0 (a large population takes a while: stop within a member)
        energy[r] = random_replica(r, work, data)
        if stop[0] != 0:
            started = r + 1
            break
    best_r = np.argmin(energy[:started])
    best = energy[best_r]
    best_cur[:] = cur[best_r]
    status[1] = params.constant + w * best
    spare = (cur.copy(), boards.copy(), marg.copy(), pcost.copy(), energy.copy())
    src = np.zeros(R, np.int64)
    done, previous, steps = 0, 0.0, len(betas)
    live = work
    for t in range(steps):
        if reached(best, params) or stop[0] != 0:
            break
        beta = betas[t]
        resample(energy, beta - previous, w, uniform(rng), src)
        new_cur, new_boards, new_marg, new_pcost, new_energy = spare
        for r in range(R):
            q = src[r]
            new_cur[r] = cur[q]
            new_boards[r] = boards[q]
            new_marg[r] = marg[q]
            new_pcost[r] = pcost[q]
            new_energy[r] = energy[q]
        spare = (cur, boards, marg, pcost, energy)
        cur, boards, marg, pcost, energy = new_cur, new_boards, new_marg, new_pcost, new_energy
        live = ProfileWork(cur, boards, marg, pcost, energy, work.beta_of, work.slot_of, tables, work.weight,
                           work.prefix, work.chosen, work.cost, work.dp, work.scratch, rng, best_cur, work.order)
        previous = beta
        fill_table(beta, w, tables[0])
        for _ in range((num_sweeps * (t + 1)) // steps - (num_sweeps * t) // steps):
            if reached(best, params) or stop[0] != 0:
                break
            for r in range(R):
                if stop[0] != 0:  # a sweep of a large population may take a while: stop within a member
                    break
                e = energy[r] + replica_sweep(r, beta, tables[0], line_moves, live, data)
                energy[r] = e
                best = keep_best(e, best, r, live, params, status)
            done += 1
            status[0] = done
    if return_last:  # a member drawn uniformly (systematic resampling orders the copies)
        best_cur[:] = cur[randint(rng, started)]
    returned_state(best_cur, out, live, data)
    return done, done if reached(best, params) else -1
