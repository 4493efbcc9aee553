"""Drawing a run's reads in calls of a few reads each: the composite that every named sampler runs under.

:class:`ReadsComposite` wraps any :class:`dimod.Sampler` and draws ``num_reads`` reads from it in
one or more calls, so that a run can show progress, keep a time limit, stop at the first read
that reaches a target energy, and keep the reads already drawn when Ctrl-C arrives (the run control
of :mod:`qpicross.samplers.control`). It splits a
run only where the child's reads are independent restarts (:func:`independent_reads`: a
``properties["independent_reads"]`` of the child, dwave-samplers' simulated annealing and tabu
search, and :class:`~dwave.samplers.SteepestDescentComposite` over one of those); any other
child is called once. :func:`qpicross.samplers.registry.sample` runs every sampler under it.

Examples:
    >>> import dimod
    >>> from dwave.samplers import SimulatedAnnealingSampler
    >>> bqm = dimod.BinaryQuadraticModel({"a": -1, "b": 1}, {("a", "b"): 2}, 0, "BINARY")
    >>> seen = []
    >>> sampler = ReadsComposite(SimulatedAnnealingSampler())
    >>> ss = sampler.sample(bqm, num_reads=100, seed=1, num_sweeps=100,
    ...                     progress=lambda done, total, best: seen.append(done))
    >>> len(ss), seen[-1], float(ss.first.energy), ss.info["timed_out"]
    (100, 100, -1.0, False)
    >>> ss = sampler.sample(bqm, num_reads=100, seed=1, num_sweeps=100, target_energy=-1.0, early_stop="puzzle")
    >>> len(ss) < 100 and ss.info["reached_target"]
    True
"""

from __future__ import annotations

import contextlib
import itertools

import dimod
import numpy as np

from qpicross.samplers.control import BetweenReads, ProgressHook, RunControl, check_early_stop, check_time_limit

__all__ = ["ReadsComposite", "independent_reads", "FIND_BATCH"]

#: Most reads one call draws when a run stops at the first solution.
FIND_BATCH = 64


def independent_reads(sampler: dimod.Sampler) -> bool:
    """Whether a sampler's reads are independent restarts, so that a run may be split into calls of a few reads:
    its ``properties["independent_reads"]`` (the block-shift and peer samplers, and composites that keep it),
    or dwave-samplers' simulated annealing and tabu search (also under a steepest-descent composite, which
    works read by read).

    >>> from qpicross.samplers.blockshift import BatchedShiftSampler, BlockShiftSampler
    >>> independent_reads(BlockShiftSampler()), independent_reads(BatchedShiftSampler())
    (True, False)
    """
    from dwave.samplers import SimulatedAnnealingSampler, SteepestDescentComposite, TabuSampler

    while isinstance(sampler, SteepestDescentComposite):
        sampler = sampler.child
    if sampler.properties.get("independent_reads"):
        return True
    return isinstance(sampler, (SimulatedAnnealingSampler, TabuSampler))


class ReadsComposite(dimod.ComposedSampler):
    """Draw a run's reads from a child sampler in calls of a few reads each, under the run control of
    :mod:`qpicross.samplers.control` (``time_limit``, ``target_energy`` and ``early_stop``, ``progress``, Ctrl-C).

    * without ``time_limit``, a child with independent reads is called ``chunks`` times
      (default: up to 10 calls of at least 50 reads); the split depends only on ``num_reads``
      and each call's seed is derived from ``seed``, so the same seed gives the same samples;
    * with ``time_limit`` (seconds), one read is drawn first to time it, then calls of as many
      reads as the rest of the limit allows; no call starts once the limit is spent (at least
      one read is always drawn), and a child that takes ``time_limit`` itself is handed what is
      left of it, so the limit also ends a running read;
    * ``target_energy`` goes to a child that takes it (its reads stop there); with
      ``early_stop="puzzle"`` no further call starts once a read has reached it
      (``info["reached_target"]`` says whether one did): a child whose reads stop at the target
      themselves draws one read per call, others batches of 1, 2, 4, ... reads (at most
      :data:`FIND_BATCH`); ``early_stop`` also goes to a child that takes it;
    * ``progress(reads_done, num_reads, best_energy)`` is called before the first call and after
      each (and, for a child that takes ``progress``, inside its reads);
    * a Ctrl-C after the first read keeps the reads drawn so far (``info["interrupted"]``); a child that
      calls back between reads (``interrupt_function``: dwave-samplers' simulated annealing) is stopped
      inside its call, at the end of the read it is drawing, and reports ``progress`` there too.

    Per-read lists in the calls' ``info`` (``sweeps``, ``time_to_target_s``, ...) are joined in read
    order; ``info["timing"]["sample_s"]`` is the run's wall time and ``info["timed_out"]``
    whether the time limit cut it short.

    Args:
        child: The sampler.
        independent: Whether its reads may be split into calls (default: :func:`independent_reads`).
    """

    def __init__(self, child: dimod.Sampler, *, independent: bool | None = None):
        self._children = [child]
        self.independent = independent_reads(child) if independent is None else bool(independent)

    @property
    def children(self) -> list[dimod.Sampler]:
        return self._children

    @property
    def parameters(self) -> dict:
        return {**self.child.parameters, "num_reads": [], "seed": [], "progress": [], "chunks": [],
                "time_limit": [], "target_energy": [], "early_stop": []}

    @property
    def properties(self) -> dict:
        return {"child_properties": self.child.properties, "independent_reads": self.independent}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 100, seed: int | None = None,
               progress: ProgressHook | None = None, chunks: int | None = None,
               time_limit: float | None = None, target_energy: float | None = None, early_stop: str | None = None,
               **parameters) -> dimod.SampleSet:
        """Draw ``num_reads`` reads of ``bqm``; ``parameters`` go to every call of the child as they are."""
        child = self.child
        time_limit, early_stop = check_time_limit(time_limit), check_early_stop(early_stop)
        for name, value in (("target_energy", target_energy), ("early_stop", early_stop)):
            if value is not None and name in child.parameters:
                parameters[name] = value
        stop_at_target = target_energy is not None and early_stop == "puzzle"
        takes_reads = "num_reads" in child.parameters
        splittable = self.independent and takes_reads  # otherwise one call decides how many samples come back
        one_by_one = "target_energy" in child.parameters
        if time_limit is not None and splittable:
            sizes = None  # decided as the time is spent
        elif stop_at_target and splittable:
            sizes = [1] * num_reads if one_by_one else _doubling(num_reads)
        else:
            if chunks is None:
                chunks = min(10, max(1, num_reads // 50)) if splittable else 1
            sizes = [len(part) for part in np.array_split(np.arange(num_reads), chunks) if len(part)]
        seeds = np.random.SeedSequence(seed) if seed is not None else None

        control = RunControl(time_limit, progress, num_reads, interrupt_function=parameters.get("interrupt_function"))
        deadline = control.deadline
        control.report()
        parts: list[dimod.SampleSet] = []
        done = 0
        reached = False
        try:
            for calls in control.going(itertools.count()):
                if done >= num_reads or (sizes is not None and calls == len(sizes)):
                    break
                if sizes is not None:
                    size = sizes[calls]
                else:
                    elapsed = deadline.elapsed()
                    size = 1 if not parts else _reads_that_fit(time_limit - elapsed, elapsed / done, num_reads - done)
                    if stop_at_target:
                        size = 1 if one_by_one else min(size, FIND_BATCH, 2 ** len(parts))
                call = dict(parameters)
                if takes_reads:
                    call["num_reads"] = size
                if seed is not None and "seed" in child.parameters:
                    one_call = sizes is not None and len(sizes) == 1
                    call["seed"] = seed if one_call else int(seeds.spawn(1)[0].generate_state(1)[0] >> 1)
                if time_limit is not None and "time_limit" in child.parameters:  # the limit also ends a read
                    call["time_limit"] = time_limit if not parts else max(deadline.left(), 1e-3)
                if progress is not None and "progress" in child.parameters:  # updates inside a read
                    call["progress"] = lambda reads, _, energy, done=done: progress(
                        min(done + reads, num_reads), num_reads, min(control.best, energy))
                between_reads = None
                # a child that reports no progress but calls back between reads: progress and Ctrl-C inside the call
                if "interrupt_function" in child.parameters and "progress" not in child.parameters:
                    report = None if progress is None else (
                        lambda reads, done=done: progress(min(done + reads, num_reads), num_reads, control.best))
                    between_reads = BetweenReads(report, chained=parameters.get("interrupt_function"))
                    call["interrupt_function"] = between_reads
                with between_reads or contextlib.nullcontext():
                    part = child.sample(bqm, **call)
                if between_reads is not None and between_reads.raised is not None:
                    if not isinstance(between_reads.raised, KeyboardInterrupt):  # the progress hook failed
                        raise between_reads.raised
                    part.info["interrupted"] = True
                if between_reads is not None and between_reads.interrupted:  # the reads finished are kept
                    part.info["interrupted"] = True
                parts.append(part)
                done += len(parts[-1]) if takes_reads else size
                if len(parts[-1]):
                    control.best = min(control.best, float(parts[-1].record.energy.min()))
                control.reads_done = done
                control.report()
                info = parts[-1].info
                if stop_at_target and control.best <= target_energy + 1e-9:
                    reached = True
                    break
                if info.get("interrupted"):  # Ctrl-C inside the child, which kept its reads
                    raise KeyboardInterrupt
                if info.get("timed_out"):  # the time limit ran out inside a read
                    control.timed_out = True
                    break
                if info.get("halted") or control.asked_to_stop():  # the stop input, inside the child or between calls
                    control.halted = True
                    break
                if len(parts[-1]) < size:  # the child returned fewer reads than asked (e.g. presolve settled all)
                    break
                if info.get("presolve", {}).get("contradiction"):  # line logic proved there is no solution
                    break
        except KeyboardInterrupt:  # keep what finished: the caller reports the best read so far
            parts = [part for part in parts if len(part)]  # a call stopped in its first read has none
            if not parts:
                raise
            control.interrupted = True
        sampleset = parts[0] if len(parts) == 1 else dimod.concatenate(parts)
        if len(parts) > 1:
            sampleset.info.update(_join_info(parts))
        timing = sampleset.info.get("timing")
        sampleset.info["timing"] = dict(timing) if isinstance(timing, dict) else {}
        sampleset.info["timing"]["sample_s"] = deadline.elapsed()
        sampleset.info["timed_out"] = control.timed_out
        sampleset.info["interrupted"] = control.interrupted
        sampleset.info["halted"] = control.halted
        if stop_at_target:
            sampleset.info["reached_target"] = reached
        return sampleset


def _doubling(num_reads: int) -> list[int]:
    """Call sizes 1, 2, 4, ... (at most :data:`FIND_BATCH`) that add up to ``num_reads``.

    >>> _doubling(10), sum(_doubling(1000)), max(_doubling(1000))
    ([1, 2, 4, 3], 1000, 64)
    """
    sizes, size, total = [], 1, 0
    while total < num_reads:
        sizes.append(min(size, num_reads - total))
        total += sizes[-1]
        size = min(2 * size, FIND_BATCH)
    return sizes


def _reads_that_fit(seconds_left: float, per_read: float, reads_left: int) -> int:
    """How many reads the rest of a time limit allows (at least one, at most what is left).

    >>> _reads_that_fit(1.0, 0.25, 10), _reads_that_fit(1e308, 1e-9, 10), _reads_that_fit(0.0, 1.0, 10)
    (4, 10, 1)
    """
    if per_read <= 0:
        return reads_left
    fit = seconds_left / per_read  # may be inf for a limit near the float limit
    return reads_left if not fit < reads_left else max(1, int(fit))


def _join_info(parts: list[dimod.SampleSet]) -> dict:
    """Per-read lists of every call joined in order; timings summed; other entries from the first call."""
    info = dict(parts[0].info)
    for key, value in parts[0].info.items():
        if isinstance(value, list) and all(isinstance(p.info.get(key), list) and len(p.info[key]) == len(p)
                                           for p in parts):
            info[key] = [item for p in parts for item in p.info[key]]
        elif isinstance(value, dict) and key == "timing":
            info[key] = {k: sum(p.info.get(key, {}).get(k, 0.0) for p in parts) for k in value
                         if all(isinstance(p.info.get(key, {}).get(k), (int, float)) for p in parts)}
    return info
