r"""How the structured annealer's reads run: the Luby restart plan, restart streams on threads, Ctrl-C.

:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` builds its model and
hands each read to a :class:`ReadRunner`. A read is a sequence of independent
restarts (one compiled call each: :func:`~qpicross.samplers.blockshift.engine.read` of the chain's
build, :mod:`~qpicross.samplers.blockshift.chains`) along
:func:`restart_plan`, until one reaches the target energy or the plan's sweeps are
spent. The runner

* runs each restart in a worker thread, so the main thread can report
  ``progress`` about twice a second, enforce the time budget and act on Ctrl-C
  within a sweep (the compiled loop checks a stop flag every sweep); restarts the
  measured sweep rate says are shorter than :data:`INLINE_S` run in the calling
  thread instead (a thread costs more than they do);
* with ``threads > 1``, runs that many *streams* of restarts at once, one per
  thread (the kernels release the GIL): stream 0 is the one-thread read, the
  others follow their own plans (by default the odd ones :func:`long_restarts`)
  from seeds of their own (:func:`_restart_seeds`), and the first stream at the
  target stops the others.

>>> [luby(k) for k in range(1, 8)]
[1, 1, 2, 1, 1, 2, 4]
"""

from __future__ import annotations

import math
import os
import threading
import time

import numpy as np

from qpicross.samplers.blockshift import (board as _board, chains as _chains, engine as _engine, joint as _joint,
                                         profile as _profile)

__all__ = ["LubyRestarts", "population_restarts", "ReadRunner", "default_threads", "ladder", "long_restarts", "luby",
           "restart_plan", "RESTART_SWEEPS", "MAX_RESTART_SWEEPS", "PROGRESS_INTERVAL_S", "INLINE_S", "LONG_SWEEPS",
           "LONG_LEVEL", "LEAD_S", "POPULATION", "POPULATION_STEPS", "POPULATION_SWEEPS"]

#: The Luby schedule's default unit (sweeps of its shortest restarts). Measured, not argued (``make
#: bench-unit``, the docs' results pages): 8 000 was 1.41x faster than the earlier 1 000 in geometric mean
#: over 40 tournament puzzles, kabuki and phantom (phantom 6.3 s against 20.2 s), and even on easy puzzles
#: (solved within their first restart, whatever its length).
RESTART_SWEEPS = 8000
#: Default sweep budget of one read under the Luby schedule (all its restarts together; 25 units).
MAX_RESTART_SWEEPS = 200_000
#: Seconds between ``progress`` calls (and between checks for Ctrl-C) while a read runs.
PROGRESS_INTERVAL_S = 0.5
#: Restarts expected to take less than this run in the calling thread (a thread costs more than they do).
INLINE_S = 0.02
#: Sweeps of the first restart's ladder first timed before the reads (doubled until a run takes
#: :data:`CALIBRATION_S`), to estimate a sweep's cost.
CALIBRATION_SWEEPS = 20
CALIBRATION_S = 0.002
#: Members of the population the calibration runs (``schedule="population"``).
CALIBRATION_MEMBERS = 4
#: The second stream's plan (:func:`long_restarts`): Luby restarts with this unit (sweeps, whatever the
#: first stream's unit), on the ladder of this level (8 replicas, the hot end halved): long runs of a wide
#: ladder, raced against the first stream's Luby plan.
LONG_SWEEPS = 32_000
LONG_LEVEL = 2
#: Seconds of restarts of the Luby plan the second stream runs before its long restarts
#: (:func:`long_restarts`): typical puzzles are solved in the first second, by short restarts.
LEAD_S = 1.0
#: ``schedule="population"`` (:mod:`~qpicross.samplers.blockshift.population`): members of the population, temperature
#: steps of one annealing run, and the Luby unit (sweeps of the whole population in the shortest run). Sizes
#: from side runs on taai2011 #403 (250 to 1000 members, 100 or 200 steps of 5 sweeps: 250 members did as
#: well as any), not tuned further: ``make bench-population`` measures the schedule as it stands.
POPULATION = 250
POPULATION_STEPS = 100
POPULATION_SWEEPS = 500


def default_threads() -> int:
    """Threads (restart streams) a read gets when the pipeline runs this sampler: every CPU this process may use.

    The sampler's own default is one (the same samples for the same seed); :func:`qpicross.anneal`,
    ``qpicross anneal`` and ``qpicross bench`` (shared among its workers) use this.

    >>> default_threads() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


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
        raise ValueError(f"k must be at least 1, got {k}")
    return int(_engine.luby(k))


def restart_plan(total_sweeps: int, unit: int, beta_range: tuple[float, float]) -> list[tuple[np.ndarray, int]]:
    """The self-tuning schedule of one read: ``(betas, sweeps)`` of each restart, within ``total_sweeps``.

    Restart ``k`` runs ``unit * luby(k)`` sweeps of parallel tempering. Short
    restarts use the default ladder (4 replicas over ``beta_range``); a restart
    ``2^j`` times longer than the unit gets ``2 j`` more replicas (at most 12) and
    a hotter top, ``beta_range[0] / (1 + j / 2)``, so the rare long restarts are
    the wide ladders hard puzzles need while easy puzzles are solved by the
    many short ones. Nothing is tuned to a puzzle: the user never picks the
    replicas or the temperatures.

    >>> [(len(b), s) for b, s in restart_plan(2000, 250, (2.0, 5.0))]
    [(4, 250), (4, 250), (6, 500), (4, 250), (4, 250), (6, 500)]
    >>> betas, sweeps = restart_plan(10**4, 250, (2.0, 5.0))[6]  # luby(7) = 4: two doublings
    >>> len(betas), sweeps, float(betas[0]), float(betas[-1])
    (8, 1000, 1.0, 5.0)
    """
    return list(LubyRestarts(total_sweeps, unit, beta_range))


def ladder(beta_range: tuple[float, float], level: int) -> np.ndarray:
    """The tempering ladder of a restart ``2^level`` units long: ``4 + 2 level`` replicas (at most 12),
    geometric from ``beta_range[0] / (1 + level / 2)`` to ``beta_range[1]``.

    >>> [round(float(b), 3) for b in ladder((2.0, 5.0), 2)]
    [1.0, 1.258, 1.584, 1.993, 2.508, 3.157, 3.973, 5.0]
    """
    hot, cold = beta_range
    return np.geomspace(hot / (1 + level / 2), cold, min(4 + 2 * level, 12))


def long_restarts(total_sweeps: int, unit: int, beta_range: tuple[float, float], lead_s: float | None = None):
    """The plan of the second stream of a read with threads: for its first ``lead_s`` seconds (default
    :data:`LEAD_S`) the restarts of :func:`restart_plan`, then Luby restarts of unit :data:`LONG_SWEEPS`
    sweeps (whatever ``unit``), all on the ladder :func:`restart_plan` gives restarts 4 units long.

    The lead doubles the short restarts that solve typical puzzles in their first second; the long
    restarts are what the hardest ones need. Each iteration starts over, its clock included.

    >>> [(len(b), s) for b, s in long_restarts(200_000, 8000, (2.0, 5.0), lead_s=0)]
    [(8, 32000), (8, 32000), (8, 64000), (8, 32000), (8, 32000), (8, 8000)]
    >>> [(len(b), s) for b, s in long_restarts(24_000, 8000, (2.0, 5.0), lead_s=60)]  # all within the lead
    [(4, 8000), (4, 8000), (6, 8000)]
    """
    return _LeadThenLong(total_sweeps, unit, beta_range, LEAD_S if lead_s is None else lead_s)


class _LeadThenLong:
    """:func:`long_restarts`: the Luby plan's restarts begun within ``lead_s`` of the iteration's start,
    then the long restarts, within ``total_sweeps`` together."""

    def __init__(self, total_sweeps, unit, beta_range, lead_s):
        self.total_sweeps, self.unit, self.beta_range, self.lead_s = total_sweeps, unit, beta_range, lead_s

    def __iter__(self):
        return ((betas, sweeps) for betas, sweeps, _ in self.tagged())

    def tagged(self):
        """The restarts as ``(betas, sweeps, long)``: ``long`` is False in the lead, True after it."""
        started, used = time.perf_counter(), 0
        if self.lead_s > 0:
            for betas, sweeps in LubyRestarts(self.total_sweeps, self.unit, self.beta_range):
                yield betas, sweeps, False
                used += sweeps
                if time.perf_counter() - started >= self.lead_s:
                    break
        if used < self.total_sweeps or self.lead_s <= 0:  # (a budget of 0: the lead's one empty restart)
            for betas, sweeps in LubyRestarts(self.total_sweeps - used, LONG_SWEEPS, self.beta_range,
                                              fixed_level=LONG_LEVEL):
                yield betas, sweeps, True


def _tagged(plan):
    """``(betas, sweeps, long)`` for each restart of ``plan``: only :func:`long_restarts` has long ones."""
    return plan.tagged() if isinstance(plan, _LeadThenLong) else ((betas, sweeps, False) for betas, sweeps in plan)


class LubyRestarts:
    """The restarts of :func:`restart_plan`, ``(betas, sweeps)`` each, generated as they are needed
    (a read's budget may be huge; each iteration starts over).

    With ``fixed_level``, every restart runs :func:`ladder` of that level, whatever its length; with
    ``betas``, every restart runs those. A budget of 0 sweeps is one restart of 0 sweeps (a read of the
    random initial states).

    >>> import itertools
    >>> plan = LubyRestarts(10**12, 1000, (2.0, 5.0))
    >>> [(len(b), s) for b, s in itertools.islice(plan, 7)]
    [(4, 1000), (4, 1000), (6, 2000), (4, 1000), (4, 1000), (6, 2000), (8, 4000)]
    >>> [(len(b), s) for b, s in LubyRestarts(0, 1000, (2.0, 5.0))]
    [(4, 0)]
    """

    def __init__(self, total_sweeps: int, unit: int, beta_range: tuple[float, float], fixed_level: int | None = None,
                 betas: np.ndarray | None = None):
        self.total_sweeps, self.unit, self.beta_range = total_sweeps, unit, beta_range
        self.fixed_level, self.betas = fixed_level, betas

    def __iter__(self):
        used, k = 0, 1
        while used < self.total_sweeps or (k == 1 and self.total_sweeps == 0):
            m = luby(k)
            level = m.bit_length() - 1 if self.fixed_level is None else self.fixed_level
            sweeps = min(self.unit * m, self.total_sweeps - used)
            yield (ladder(self.beta_range, level) if self.betas is None else self.betas), sweeps
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


class ReadRunner:
    """Runs a sampler call's reads: each restart in a worker thread, so Ctrl-C and progress reach the
    main thread at once, and with ``threads > 1`` that many restart streams at once (:meth:`_read_streams`).

    Restarts that the measured sweep rate says will take under :data:`INLINE_S` run
    in the calling thread instead, one stream: on small puzzles a thread costs more than the read.
    ``params`` is ``(shift_probability, line_moves, block_moves, return_last, target)``; ``board``, when
    given, the board layout's model ``(arrays, w, constant)`` (else the joint chain runs on the fields).
    Stream ``i`` runs the profile chain on ``profiles[i % len(profiles)]`` (needs ``board``), or the joint
    chain where that is None; with ``long_joint`` the long restarts of :func:`long_restarts` run the joint
    chain whatever their stream's. A profile entry is a tuple of profile chains (one per free axis) that
    the restarts take in turn: restart ``k`` of stream ``i`` (from 0, each read anew) runs
    ``entry[(i + k) % len(entry)]``, so with rows and columns both free the streams of a read start on
    different axes and each stream alternates. With ``population`` set (members), every restart is a
    population-annealing run of the profile chain (:func:`~qpicross.samplers.blockshift.population.population_read`).
    """

    def __init__(self, model, n, units, params, progress, offset, board=None, threads=1, profiles=None,
                 long_joint=False):
        self.model, self.n, self.units, self.params, self.progress = model, n, units, params, progress
        self.board = board  # (arrays, w, constant) of the board layout, or None: the fields
        self.profiles = [None] if profiles is None else list(profiles)
        self.long_joint = bool(long_joint) and board is not None
        self.threads = threads  # restart streams per read
        self.offset = float(offset)
        self.best = math.inf  # of the whole call, with the offset
        self.stop = np.zeros(1, np.int8)
        self.status = np.array([0.0, np.inf])  # sweeps of the current restart, best energy of the call
        self.interrupted = self.timed_out = False
        self.deadline = math.inf
        self.anneal = False  # one replica whose inverse temperature follows ``betas`` sweep by sweep
        self.population = 0  # members of each restart's population annealing (0: tempering or annealing)
        self.seconds_per_replica_sweep = math.inf  # measured by warm_up, then the least seen
        self.calibration_s = 0.0  # what warm_up's timed sweeps took (its compilation apart)
        self.reported = time.perf_counter()  # when progress was last called
        self._work = {}

    def _replicas(self, betas) -> int:
        """Replicas a restart along ``betas`` runs: one when annealing, the members of population
        annealing, else one per inverse temperature."""
        if self.population:
            return self.population
        return 1 if self.anneal else len(betas)

    def _chain_of(self, stream, long=False, restart=0):
        """The profile chain's arrays restart ``restart`` of stream ``stream`` runs on, or None: the joint chain."""
        axes = None if long and self.long_joint else self.profiles[stream % len(self.profiles)]
        return None if axes is None else axes[(stream + restart) % len(axes)]

    def chain_names(self, plans) -> list[str]:
        """The chain each stream runs along ``plans[i % len(plans)]``: ``"profile"``, ``"joint"``, or
        ``"profile then joint"`` where its long restarts run the joint chain."""
        names = []
        for i in range(self.threads):
            name = "joint" if self._chain_of(i) is None else "profile"
            if name == "profile" and self.long_joint and isinstance(plans[i % len(plans)], _LeadThenLong):
                name = "profile then joint"
            names.append(name)
        return names

    def _buffers(self, replicas, stream=0, long=False, restart=0):
        profile = self._chain_of(stream, long, restart)
        # each stream its own (streams run at once), each chain (and free axis) its own
        key = (stream, replicas, None if profile is None else id(profile))
        if key not in self._work and profile is not None:
            self._work[key] = _profile.profile_work(replicas, self.units, len(self.model.group_vars), self.board[0],
                                                    profile)
        if key not in self._work and self.board is not None:
            self._work[key] = _board.board_work(replicas, self.model, self.board[0])
        if key not in self._work:
            self._work[key] = _joint.fields_work(replicas, self.model)
        return self._work[key]

    def warm_up(self, out, seed, betas, sweeps) -> None:
        """Compile the kernel, then time sweeps of the first restart's ladder (not the target).

        The timed runs never stop at the target: short reads would time the call, not the
        sweeps, and every restart would then look too long to run without a thread. They
        double from :data:`CALIBRATION_SWEEPS` until one takes :data:`CALIBRATION_S`. A population
        is probed with a few members and one temperature step (a member's sweep costs the same in
        any population, and a large one takes seconds to start, which nothing polls here).
        """
        replicas = self._replicas(betas)
        if self.population:
            replicas, betas = min(replicas, CALIBRATION_MEMBERS), betas[:1]
        work = self._buffers(replicas)
        scratch = out.copy()
        for stream in range(min(self.threads, len(self.profiles))):  # compiles every chain a stream runs
            self._kernel(scratch, seed, betas, 0, self._buffers(replicas, stream), stream=stream)
        if self.threads > 1 and self.long_joint:
            self._kernel(scratch, seed, betas, 0, self._buffers(replicas, 1, long=True), stream=1, long=True)
        count = min(sweeps, CALIBRATION_SWEEPS)
        calibrating = time.perf_counter()
        while count > 0:
            started = time.perf_counter()
            done, _ = self._kernel(scratch, seed, betas, count, work, target=-math.inf)
            seconds = time.perf_counter() - started
            self._learn(seconds, done * replicas)
            if seconds >= CALIBRATION_S or count >= sweeps:
                break
            count = min(2 * count, sweeps)
        self.calibration_s = time.perf_counter() - calibrating

    def _kernel(self, out, seed, betas, sweeps, work, target=None, stop=None, status=None, stream=0, long=False,
                restart=0):
        moves, return_last = self.params[:3], self.params[3]
        target = self.params[4] if target is None else target
        stop = self.stop if stop is None else stop
        status = self.status if status is None else status
        if self.board is None:
            return _chains.FIELDS.read(out, seed, betas, sweeps, moves, return_last, target, 1.0, 0.0, work,
                                       (self.model,), stop, status)
        arrays, w, constant = self.board
        profile = self._chain_of(stream, long, restart)
        if profile is not None:
            read = _chains.PROFILE.population_read if self.population else _chains.PROFILE.read
            return read(out, seed, betas, sweeps, moves, return_last, target, w, constant, work,
                        (self.model, arrays, profile), stop, status)
        return _chains.BOARD.read(out, seed, betas, sweeps, moves, return_last, target, w, constant, work,
                                  (self.model, arrays, w), stop, status)

    def read(self, out, seed, plan, stream_plans=None) -> tuple[int, int]:
        """One read: the restarts of ``plan`` until the target; returns ``(sweeps, sweeps to target or -1)``.

        With ``threads > 1`` and restarts long enough to need a thread, :meth:`_read_streams` runs
        that many streams of restarts at once, stream ``i`` along ``stream_plans[i % len(stream_plans)]``
        (default: ``plan`` for all; ``stream_plans[0]`` is ``plan``).
        """
        betas, sweeps = next(iter(plan))
        if self.threads > 1 and sweeps * self._replicas(betas) * self.seconds_per_replica_sweep >= INLINE_S:
            return self._read_streams(out, seed, stream_plans or [plan])
        done, best, scratch = 0, math.inf, np.empty_like(out)
        for restart, ((betas, sweeps), restart_seed) in enumerate(zip(plan, _restart_seeds(seed, 0))):
            ran, reached = self._run(scratch, restart_seed, betas, sweeps, restart)
            energy = self.status[1]
            self.best = min(self.best, float(energy) + self.offset)
            if energy < best or best == math.inf:
                best = energy
                out[:] = scratch
            if reached >= 0:
                return done + ran, done + reached
            done += ran
            now = time.perf_counter()
            if self.progress is not None and now - self.reported >= PROGRESS_INTERVAL_S:
                self.reported = now  # restarts run without a thread report here
                self.progress(done, self.best)
            if not self.interrupted and now >= self.deadline:
                self.timed_out = True  # restarts shorter than a polling interval are never polled
            if self.interrupted or self.timed_out:
                break
        return done, -1

    def _run(self, out, seed, betas, sweeps, restart=0) -> tuple[int, int]:
        replicas = self._replicas(betas)
        work = self._buffers(replicas, restart=restart)
        self.status[:] = (0.0, math.inf)
        replica_sweeps = sweeps * replicas
        if replica_sweeps * self.seconds_per_replica_sweep < INLINE_S:  # too short to need a thread
            return self._run_inline(out, seed, betas, sweeps, work, restart)
        box = []
        finished = threading.Event()  # not Thread.join: a join cut short by Ctrl-C may return early
        started = time.perf_counter()

        def target():
            try:
                box.append(self._kernel(out, seed, betas, sweeps, work, restart=restart))
            finally:
                finished.set()

        threading.Thread(target=target, daemon=True).start()
        self._wait(finished, [self.stop], lambda: (int(self.status[0]), float(self.status[1])))
        if not box:  # the compiled read raised: it said why on stderr
            raise RuntimeError("the structured annealer's read failed")
        self._learn(time.perf_counter() - started, box[0][0] * replicas)
        return box[0]

    def _run_inline(self, out, seed, betas, sweeps, work, restart=0) -> tuple[int, int]:
        """A restart expected to take under :data:`INLINE_S`: in this thread (Ctrl-C acts once it returns)."""
        started = time.perf_counter()
        try:
            result = self._kernel(out, seed, betas, sweeps, work, restart=restart)
        except KeyboardInterrupt:  # raised as the compiled call returned: ``out`` holds its best state
            self.interrupted = True
            return int(self.status[0]), -1
        self._learn(time.perf_counter() - started, result[0] * self._replicas(betas))
        return result

    def _read_streams(self, out, seed, plans) -> tuple[int, int]:
        """:meth:`read` with ``self.threads`` streams of restarts at once, each in a thread of its own.

        Stream ``i`` follows ``plans[i % len(plans)]`` with the seeds of :func:`_restart_seeds`
        (stream 0: those of a one-stream read). The first stream to reach the target stops the
        others (through their ``stop`` flags, checked every sweep); this thread polls for the
        deadline, progress and Ctrl-C meanwhile. Returns the sweeps of all streams together, and the winning stream's
        sweeps to the target (or -1); ``out`` gets the winner's state, else the lowest-energy one.
        """
        streams = [_Stream(out) for _ in range(self.threads)]
        stops = [stream.stop for stream in streams]
        lock, all_done, winner = threading.Lock(), threading.Event(), []

        def run_stream(i):
            stream = streams[i]
            try:
                restarts = zip(_tagged(plans[i % len(plans)]), _restart_seeds(seed, i))
                for restart, ((betas, sweeps, long), restart_seed) in enumerate(restarts):
                    if stream.stop[0]:
                        break
                    work = self._buffers(self._replicas(betas), i, long, restart)
                    stream.status[:] = (0.0, math.inf)
                    started = time.perf_counter()
                    ran, reached = self._kernel(stream.scratch, restart_seed, betas, sweeps, work,
                                                stop=stream.stop, status=stream.status, stream=i, long=long,
                                                restart=restart)
                    self._learn(time.perf_counter() - started, ran * self._replicas(betas))
                    if stream.status[1] < stream.best:
                        stream.best = float(stream.status[1])
                        stream.out[:] = stream.scratch
                    if reached >= 0:
                        with lock:
                            if not winner:
                                winner.append((i, stream.done + reached))
                                for stop in stops:
                                    stop[0] = 1
                    with lock:  # the progress report sums done and status[0]: count this restart once
                        stream.done += ran
                        stream.status[0] = 0.0
                    if reached >= 0:
                        break
            finally:
                with lock:
                    stream.finished = True
                    if all(s.finished for s in streams):
                        all_done.set()

        for i in range(self.threads):
            threading.Thread(target=run_stream, args=(i,), daemon=True).start()

        def report():
            with lock:
                return (sum(s.done + int(s.status[0]) for s in streams),
                        min(min(s.best, float(s.status[1])) for s in streams))

        self._wait(all_done, stops, report)
        done = sum(s.done for s in streams)
        if winner:
            index, reached = winner[0]
        else:
            index, reached = min(range(len(streams)), key=lambda i: streams[i].best), -1
        if streams[index].best == math.inf:  # no stream finished a restart: the compiled reads raised
            raise RuntimeError("the structured annealer's read failed")
        out[:] = streams[index].out
        self.best = min(self.best, streams[index].best + self.offset)
        return done, reached

    def _wait(self, finished, stops, report) -> None:
        """Wait for ``finished`` while compiled reads run in other threads, polling every
        :data:`PROGRESS_INTERVAL_S`: past the deadline, or on Ctrl-C, set every flag of ``stops``
        (the compiled loops check them every sweep); call ``progress`` with ``report()``, which gives
        the sweeps so far and the best energy so far without the offset. Should ``progress`` raise,
        every compiled read is stopped before the error propagates."""
        try:
            while not finished.wait(PROGRESS_INTERVAL_S):
                if time.perf_counter() >= self.deadline:
                    for stop in stops:
                        stop[0] = 1
                    self.timed_out = True
                if self.progress is not None:
                    self.reported = time.perf_counter()
                    sweeps, best = report()
                    self.progress(sweeps, min(self.best, best + self.offset))
        except KeyboardInterrupt:
            self.interrupted = True
            self._stop_and_wait(finished, stops)
        except BaseException:  # progress raised: no compiled read may outlive the call
            self._stop_and_wait(finished, stops)
            raise

    @staticmethod
    def _stop_and_wait(finished, stops) -> None:
        """Set every flag of ``stops`` and wait for ``finished`` (the compiled loops check them every sweep)."""
        for stop in stops:
            stop[0] = 1
        while not finished.wait(0.05):  # within a sweep
            pass

    def _learn(self, seconds, replica_sweeps) -> None:
        """Keep the least measured cost of a replica-sweep: each measure counts the call's fixed cost
        (and a thread's start) in, so the least is the closest."""
        if replica_sweeps > 0 and seconds > 0:
            self.seconds_per_replica_sweep = min(self.seconds_per_replica_sweep, seconds / replica_sweeps)


class _Stream:
    """One stream of restarts of a read with threads: its stop flag, status, buffers and best state."""

    def __init__(self, out):
        self.stop = np.zeros(1, np.int8)
        # sweeps of the current restart, best energy of that restart: polled before the first restart begins
        self.status = np.array([0.0, np.inf])
        self.scratch, self.out = np.empty_like(out), np.empty_like(out)
        self.best = math.inf  # without the offset
        self.done = 0  # sweeps of finished restarts
        self.finished = False


def _restart_seeds(seed, stream):
    """The seeds of a read's restarts in stream ``stream``: stream 0 starts with ``seed`` itself."""
    if stream == 0:
        yield int(seed)
        rng = np.random.SeedSequence(int(seed))
    else:
        rng = np.random.SeedSequence([int(seed), int(stream)])
    while True:
        yield int(rng.spawn(1)[0].generate_state(1)[0] >> 1)
