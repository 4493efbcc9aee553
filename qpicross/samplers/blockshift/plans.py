"""The restart plans of the block-shift annealer: the Luby sequence, the ladders, the long restarts.

A read of :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` is a sequence of independent
restarts along a plan (:func:`restart_plan`, :class:`LubyRestarts`), run by
:class:`~qpicross.samplers.blockshift.restarts.ReadRunner`; the batched driver runs the same plan on the device
(:func:`~qpicross.samplers.blockshift.engine.luby`, each level's :func:`ladder`): both take restart ``k``'s
sweeps, level and free axis from one kernel, :func:`~qpicross.samplers.blockshift.engine.restart_of`.

>>> [luby(k) for k in range(1, 8)]
[1, 1, 2, 1, 1, 2, 4]
"""

from __future__ import annotations

import functools
import time

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.samplers.parameters import POPULATION, POPULATION_STEPS, RUNGS
from qpicross.samplers.blockshift import engine as _engine

__all__ = ["LubyRestarts", "LeadThenLong", "population_restarts", "ladder", "long_restarts", "luby", "restart_plan",
           "tagged", "MAX_RUNGS", "RESTART_SWEEPS", "MAX_RESTART_SWEEPS", "LONG_SWEEPS", "LONG_LEVEL", "LEAD_S",
           "POPULATION", "POPULATION_STEPS", "POPULATION_SWEEPS", "RUNGS", "FIRST_RUNGS"]

#: Most replicas of a plan's first restart (:class:`LubyRestarts`), whatever its ``rungs``.
FIRST_RUNGS = 4
#: Rungs of the widest ladder (:func:`ladder`) of ``rungs`` up to 12, the batched driver's too (whose ladders
#: have 4 rungs at level 0: ``launch.BATCHED_RUNGS``).
MAX_RUNGS = 12
#: The Luby schedule's default unit (sweeps of its shortest restarts). Measured, not argued (``make
#: bench-unit``, the docs' results pages): 8 000 was 1.41x faster than the earlier 1 000 in geometric mean
#: over 40 tournament puzzles, kabuki and phantom (phantom 6.3 s against 20.2 s), and even on easy puzzles
#: (solved within their first restart, whatever its length).
RESTART_SWEEPS = 8000
#: Default sweep budget of one read under the Luby schedule (all its restarts together; 25 units).
MAX_RESTART_SWEEPS = 200_000
#: The second stream's plan (:func:`long_restarts`): Luby restarts with this unit (sweeps, whatever the
#: first stream's unit), on the ladder of this level (12 replicas after the first, the hot end halved): long
#: runs of a wide ladder, raced against the first stream's Luby plan.
LONG_SWEEPS = 32_000
LONG_LEVEL = 2
#: Seconds of restarts of the Luby plan the second stream runs before its long restarts
#: (:func:`long_restarts`): typical puzzles are solved in the first second, by short restarts.
LEAD_S = 1.0
#: ``schedule="population"`` (:mod:`~qpicross.samplers.blockshift.population`): members of the population, temperature
#: steps of one annealing run (both the sampler's defaults, declared with its parameters in
#: :data:`~qpicross.samplers.parameters.SHIFT_PARAMETERS`), and the Luby unit (sweeps of the whole population in the
#: shortest run). Sizes from side runs on taai2011 #403 (250 to 1000 members, 100 or 200 steps of 5 sweeps: 250
#: members did as well as any), not tuned further: ``make bench-population`` measures the schedule as it stands.
POPULATION_SWEEPS = 500



def luby(k: int) -> int:
    """The ``k``-th term (``k >= 1``) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
    (:func:`~qpicross.samplers.blockshift.engine.luby`, the one the batched ladders run, with ``k`` checked).

    Restarting a randomised search after ``luby(k) * unit`` steps is within a
    logarithmic factor of the best fixed restart length for *any* run-time
    distribution (Luby, Sinclair & Zuckerman 1993), without knowing it.

    >>> [luby(k) for k in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    if k < 1:
        raise ParameterError(f"k must be at least 1, got {k}")
    return int(_engine.luby(k))


def restart_plan(total_sweeps: int, unit: int, beta_range: tuple[float, float],
                 rungs: int = RUNGS) -> list[tuple[np.ndarray, int]]:
    """The self-tuning schedule of one read: ``(betas, sweeps)`` of each restart, within ``total_sweeps``.

    Restart ``k`` runs ``unit * luby(k)`` sweeps of parallel tempering. The first
    runs :data:`FIRST_RUNGS` replicas (4) geometric over ``beta_range``: typical
    puzzles are solved within it. The short restarts after it run ``rungs``
    (default :data:`RUNGS`, 8) over the same range, so that neighbours swap more
    often; a restart ``2^j`` times longer than the unit gets ``rungs * j / 2``
    more replicas (at most ``max(rungs, 12)``) and a hotter top,
    ``beta_range[0] / (1 + j / 2)``, so the rare long restarts are the wide
    ladders hard puzzles need while easy puzzles are solved by the many short
    ones. Nothing is tuned to a puzzle: the user never picks the temperatures.

    >>> [(len(b), s) for b, s in restart_plan(2000, 250, (2.0, 5.0))]
    [(4, 250), (8, 250), (12, 500), (8, 250), (8, 250), (12, 500)]
    >>> betas, sweeps = restart_plan(10**4, 250, (2.0, 5.0))[6]  # luby(7) = 4: two doublings
    >>> len(betas), sweeps, float(betas[0]), float(betas[-1])
    (12, 1000, 1.0, 5.0)
    >>> [len(b) for b, _ in restart_plan(10**4, 250, (2.0, 5.0), rungs=4)][:7]  # the plan before issue 58
    [4, 4, 6, 4, 4, 6, 8]
    """
    return list(LubyRestarts(total_sweeps, unit, beta_range, rungs=rungs))


def ladder(beta_range: tuple[float, float], level: int, rungs: int = RUNGS) -> np.ndarray:
    """The tempering ladder of a restart ``2^level`` units long: ``rungs * (1 + level / 2)`` replicas (rounded
    down; at most ``max(rungs, 12)``), geometric from ``beta_range[0] / (1 + level / 2)`` to ``beta_range[1]``.

    >>> [round(float(b), 3) for b in ladder((2.0, 5.0), 2, rungs=4)]
    [1.0, 1.258, 1.584, 1.993, 2.508, 3.157, 3.973, 5.0]
    >>> len(ladder((2.0, 5.0), 0, rungs=8)), len(ladder((2.0, 5.0), 1, rungs=8)), len(ladder((2.0, 5.0), 4, rungs=16))
    (8, 12, 16)
    """
    hot, cold = beta_range
    return _ladder(float(hot), float(cold), int(level), int(rungs)).copy()


@functools.lru_cache(maxsize=256)
def _ladder(hot: float, cold: float, level: int, rungs: int = RUNGS) -> np.ndarray:
    """:func:`ladder`, made once per ladder: the restarts share it (no kernel writes its ``betas``), and a
    read of an easy puzzle takes little more than the two ``np.geomspace`` calls it would otherwise pay."""
    return np.geomspace(hot / (1 + level / 2), cold, min(rungs * (2 + level) // 2, max(rungs, MAX_RUNGS)))


def long_restarts(total_sweeps: int, unit: int, beta_range: tuple[float, float], lead_s: float | None = None,
                  rungs: int = RUNGS):
    """The plan of the second stream of a read with threads: for its first ``lead_s`` seconds (default
    :data:`LEAD_S`) the restarts of :func:`restart_plan`, then Luby restarts of unit :data:`LONG_SWEEPS`
    sweeps (whatever ``unit``), all on the ladder :func:`restart_plan` gives restarts 4 units long.

    The lead doubles the short restarts that solve typical puzzles in their first second; the long
    restarts are what the hardest ones need. Each iteration starts over, its clock included.

    >>> [(len(b), s) for b, s in long_restarts(200_000, 8000, (2.0, 5.0), lead_s=0)]
    [(8, 32000), (12, 32000), (12, 64000), (12, 32000), (12, 32000), (12, 8000)]
    >>> [(len(b), s) for b, s in long_restarts(24_000, 8000, (2.0, 5.0), lead_s=60)]  # all within the lead
    [(4, 8000), (8, 8000), (12, 8000)]
    """
    return LeadThenLong(total_sweeps, unit, beta_range, LEAD_S if lead_s is None else lead_s, rungs)


class LeadThenLong:
    """:func:`long_restarts`: the Luby plan's restarts begun within ``lead_s`` of the iteration's start,
    then the long restarts, within ``total_sweeps`` together."""

    def __init__(self, total_sweeps, unit, beta_range, lead_s, rungs=RUNGS):
        self.total_sweeps, self.unit, self.beta_range, self.lead_s = total_sweeps, unit, beta_range, lead_s
        self.rungs = rungs

    def __iter__(self):
        return ((betas, sweeps) for betas, sweeps, _ in self.tagged())

    def tagged(self):
        """The restarts as ``(betas, sweeps, long)``: ``long`` is False in the lead, True after it."""
        started, used = time.perf_counter(), 0
        if self.lead_s > 0:
            for betas, sweeps in LubyRestarts(self.total_sweeps, self.unit, self.beta_range, rungs=self.rungs):
                yield betas, sweeps, False
                used += sweeps
                if time.perf_counter() - started >= self.lead_s:
                    break
        if used < self.total_sweeps or self.lead_s <= 0:  # (a budget of 0: the lead's one empty restart)
            for betas, sweeps in LubyRestarts(self.total_sweeps - used, LONG_SWEEPS, self.beta_range,
                                              fixed_level=LONG_LEVEL, rungs=self.rungs):
                yield betas, sweeps, True


def tagged(plan):
    """``(betas, sweeps, long)`` for each restart of ``plan``: only :func:`long_restarts` has long ones."""
    return plan.tagged() if isinstance(plan, LeadThenLong) else ((betas, sweeps, False) for betas, sweeps in plan)


class LubyRestarts:
    """The restarts of :func:`restart_plan`, ``(betas, sweeps)`` each, generated as they are needed
    (a read's budget may be huge; each iteration starts over).

    With ``fixed_level``, every restart runs :func:`ladder` of that level, whatever its length; with
    ``betas``, every restart runs those. ``rungs``: the level-0 ladder's replicas (:func:`ladder`) from the
    second restart on; the first runs at most :data:`FIRST_RUNGS` (typical puzzles are solved within it, where
    a denser ladder only costs more a sweep). A budget of 0 sweeps is one restart of 0 sweeps (a read of the
    random initial states).

    >>> import itertools
    >>> plan = LubyRestarts(10**12, 1000, (2.0, 5.0))
    >>> [(len(b), s) for b, s in itertools.islice(plan, 7)]
    [(4, 1000), (8, 1000), (12, 2000), (8, 1000), (8, 1000), (12, 2000), (12, 4000)]
    >>> [len(b) for b, s in itertools.islice(LubyRestarts(10**12, 1000, (2.0, 5.0), rungs=4), 7)]
    [4, 4, 6, 4, 4, 6, 8]
    >>> [(len(b), s) for b, s in LubyRestarts(0, 1000, (2.0, 5.0))]
    [(4, 0)]
    """

    def __init__(self, total_sweeps: int, unit: int, beta_range: tuple[float, float], fixed_level: int | None = None,
                 betas: np.ndarray | None = None, rungs: int = RUNGS):
        self.total_sweeps, self.unit, self.beta_range = total_sweeps, unit, beta_range
        self.fixed_level, self.betas, self.rungs = fixed_level, betas, int(rungs)

    def __iter__(self):
        used, k = 0, 1
        hot, cold = (float(beta) for beta in self.beta_range)
        while used < self.total_sweeps or (k == 1 and self.total_sweeps == 0):
            sweeps, level, _ = _engine.restart_of(k, 0, self.unit, self.total_sweeps - used, 1)
            level = level if self.fixed_level is None else self.fixed_level
            rungs = min(self.rungs, FIRST_RUNGS) if k == 1 else self.rungs
            yield (_ladder(hot, cold, int(level), rungs) if self.betas is None else self.betas), int(sweeps)
            used += sweeps
            k += 1


def population_restarts(total_sweeps: int, unit: int, beta_range: tuple[float, float], steps: int):
    """The restarts of ``schedule="population"``: :class:`LubyRestarts` of ``unit * luby(k)`` sweeps (within
    ``total_sweeps``), each one population-annealing run along ``steps`` inverse temperatures linear from
    half the hot end of ``beta_range`` (the hot end of the long restarts' ladder) to its cold end.

    >>> [(len(b), float(b[0]), float(b[-1]), s) for b, s in population_restarts(2000, 500, (2.0, 5.0), 100)]
    [(100, 1.0, 5.0, 500), (100, 1.0, 5.0, 500), (100, 1.0, 5.0, 1000)]
    """
    return LubyRestarts(total_sweeps, unit, beta_range, betas=np.linspace(beta_range[0] / 2, beta_range[1], steps))
