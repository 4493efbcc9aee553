r"""How the structured annealer's reads run: restarts along a plan, restart streams on threads, Ctrl-C.

:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` builds its model and
hands each read to a :class:`ReadRunner`. A read is a sequence of independent
restarts (one compiled call each: :func:`~qpicross.samplers.blockshift.engine.read` of the chain's
build, :mod:`~qpicross.samplers.blockshift.chains`) along a plan
(:func:`~qpicross.samplers.blockshift.plans.restart_plan`), until one reaches the target energy or the
plan's sweeps are spent. The runner

* runs each restart in a worker thread (the runner's own, started once: :class:`_Worker`), so the main
  thread can report
  ``progress`` about twice a second, enforce the time limit and act on Ctrl-C
  within a sweep (the compiled loop checks a stop flag every sweep: the run control of
  :mod:`qpicross.samplers.control`); restarts the
  measured sweep rate says are shorter than :data:`INLINE_S` run in the calling
  thread instead (a thread costs more than they do);
* with ``threads > 1``, runs that many *streams* of restarts at once, one per
  thread (the kernels release the GIL): stream 0 is the one-thread read, the
  others follow their own plans (by default the odd ones
  :func:`~qpicross.samplers.blockshift.plans.long_restarts`)
  from seeds of their own (:func:`_restart_seeds`), and the first stream at the
  target stops the others.

>>> ReadRunner.__name__, INLINE_S > 0
('ReadRunner', True)
"""

from __future__ import annotations

import itertools
import math
import os
import queue
import threading
import time
import weakref

import numpy as np

from qpicross.samplers.blockshift import board as _board, chains as _chains, fields as _fields, profile as _profile
from qpicross.samplers.blockshift.engine import restart_of
from qpicross.samplers.blockshift.layouts import Params, Signals
from qpicross.samplers.blockshift.plans import LeadThenLong, tagged
from qpicross.samplers.control import RunControl, stop_flag

__all__ = ["ReadRunner", "default_threads", "INLINE_S"]

#: Restarts expected to take less than this run in the calling thread (a thread costs more than they do).
INLINE_S = 0.02
#: Sweeps of the first restart's ladder first timed before the reads (doubled until a run takes
#: :data:`CALIBRATION_S`), to estimate a sweep's cost.
CALIBRATION_SWEEPS = 4
CALIBRATION_S = 0.002
#: Members of the population the calibration runs (``schedule="population"``).
CALIBRATION_MEMBERS = 4

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


class ReadRunner:
    """Runs a sampler call's reads: each restart in a worker thread, so Ctrl-C and progress reach the
    main thread at once, and with ``threads > 1`` that many restart streams at once (:meth:`_read_streams`).

    Restarts that the measured sweep rate says will take under :data:`INLINE_S` run
    in the calling thread instead, one stream: on small puzzles a thread costs more than the read.
    ``params`` are the :class:`~.layouts.Params` of the fields (``w`` 1, ``constant`` 0); ``board``, when
    given, the board layout's model ``(arrays, w, constant)`` (else the joint chain runs on the fields), whose
    ``w`` and ``constant`` the board's and profile's reads take instead.
    Stream ``i`` runs the profile chain on ``profiles[i % len(profiles)]`` (needs ``board``), or the joint
    chain where that is None; with ``long_joint`` the long restarts of :func:`~.plans.long_restarts` run the joint
    chain whatever their stream's. A profile entry is a tuple of profile chains (one per free axis) that
    the restarts take in turn: restart ``k`` of stream ``i`` (from 0, each read anew) runs the entry of the
    axis :func:`~.engine.restart_of` gives it, ``entry[(i + k) % len(entry)]``, so with rows and columns both free
    the streams of a read start on different axes and each stream alternates. With ``population`` set (members), every restart is a
    population-annealing run of the profile chain (:func:`~qpicross.samplers.blockshift.population.population_read`).

    Run control: ``control``, the call's :class:`~qpicross.samplers.control.RunControl` (its deadline ends
    the reads, its hook reports them; the caller advances its ``reads_done``); its ``timed_out`` and
    ``interrupted`` say what stopped them, and its ``best`` is the call's best energy, with the offset.
    """

    def __init__(self, model, n, units, params: Params, control: RunControl, offset, *, board=None, threads=1,
                 profiles=None, long_joint=False):
        self.model, self.n, self.units, self.params, self.control = model, n, units, params, control
        self.board = board  # (arrays, w, constant) of the board layout, or None: the fields
        if board is not None:  # the board's and profile's energies: constant + w x mismatches
            self.board_params = params._replace(w=float(board[1]), constant=float(board[2]))
        self.profiles = [None] if profiles is None else list(profiles)
        self.long_joint = bool(long_joint) and board is not None
        self.threads = threads  # restart streams per read
        self.offset = float(offset)
        self.stop = stop_flag()
        self.status = np.array([0.0, np.inf])  # sweeps of the current restart, best energy of the call
        self.signals = Signals(self.stop, self.status)
        self.anneal = False  # one replica whose inverse temperature follows ``betas`` sweep by sweep
        self.population = 0  # members of each restart's population annealing (0: tempering or annealing)
        self.seconds_per_replica_sweep = math.inf  # measured by warm_up, then the least seen
        self.calibration_s = 0.0  # what warm_up's timed sweeps took (its compilation apart)
        self.restarts = 0  # restarts the reads ran, every stream's (warm_up's apart)
        self.restart_s = 0.0  # their wall seconds, summed over streams (a thread's start and wait included)
        self._counting = threading.Lock()  # streams finish restarts at once
        self._work = {}
        self._workers = [_Worker() for _ in range(threads)]  # stream i's thread (a one-stream read's: the first)

    def _replicas(self, betas) -> int:
        """Replicas a restart along ``betas`` runs: one when annealing, the members of population
        annealing, else one per inverse temperature."""
        if self.population:
            return self.population
        return 1 if self.anneal else len(betas)

    def _chain_of(self, stream, long=False, restart=0):
        """The profile chain's arrays restart ``restart`` of stream ``stream`` runs on, or None: the joint chain."""
        axes = None if long and self.long_joint else self.profiles[stream % len(self.profiles)]
        return None if axes is None else axes[restart_of(restart + 1, stream, 0, 0, len(axes))[2]]

    def chain_names(self, plans) -> list[str]:
        """The chain each stream runs along ``plans[i % len(plans)]``: ``"profile"``, ``"joint"``, or
        ``"profile then joint"`` where its long restarts run the joint chain."""
        names = []
        for i in range(self.threads):
            name = "joint" if self._chain_of(i) is None else "profile"
            if name == "profile" and self.long_joint and isinstance(plans[i % len(plans)], LeadThenLong):
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
            self._work[key] = _fields.fields_work(replicas, self.model)
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

    def _kernel(self, out, seed, betas, sweeps, work, *, target=None, signals=None, stream=0, long=False,
                restart=0):
        """One restart, the compiled read of the chain that restart ``restart`` of ``stream`` runs (``target``:
        another than the call's; ``signals``: another stream's)."""
        signals = self.signals if signals is None else signals
        params = self.params if self.board is None else self.board_params
        params = params if target is None else params._replace(target=float(target))
        if self.board is None:
            return _chains.FIELDS.read(out, seed, betas, sweeps, params, work, (self.model,), signals)
        arrays, w, _ = self.board
        profile = self._chain_of(stream, long, restart)
        if profile is not None:
            read = _chains.PROFILE.population_read if self.population else _chains.PROFILE.read
            return read(out, seed, betas, sweeps, params, work, (self.model, arrays, profile), signals)
        return _chains.BOARD.read(out, seed, betas, sweeps, params, work, (self.model, arrays, w), signals)

    def read(self, out, seed, plan, stream_plans=None) -> tuple[int, int]:
        """One read: the restarts of ``plan`` until the target; returns ``(sweeps, sweeps to target or -1)``.

        With ``threads > 1`` and restarts long enough to need a thread, :meth:`_read_streams` runs
        that many streams of restarts at once, stream ``i`` along ``stream_plans[i % len(stream_plans)]``
        (default: ``plan`` for all; ``stream_plans[0]`` is ``plan``).
        """
        betas, sweeps = next(iter(plan))
        if self.threads > 1 and sweeps * self._replicas(betas) * self.seconds_per_replica_sweep >= INLINE_S:
            return self._read_streams(out, seed, stream_plans or [plan])
        control = self.control
        done, kept = 0, _Best(out)
        for restart, ((betas, sweeps), restart_seed) in enumerate(zip(plan, _restart_seeds(seed, 0))):
            ran, reached = self._run(kept.scratch, restart_seed, betas, sweeps, restart)
            control.best = min(control.best, float(self.status[1]) + self.offset)
            kept.keep(self.status[1])
            if reached >= 0:
                return done + ran, done + reached
            done += ran
            # Ctrl-C (or a raising progress hook): no further report or restart; restarts without a thread
            # report here, and those shorter than a polling interval are never polled for the time limit
            if control.interrupted or control.between():
                break
        return done, -1

    def _run(self, out, seed, betas, sweeps, restart=0) -> tuple[int, int]:
        replicas = self._replicas(betas)
        work = self._buffers(replicas, restart=restart)
        self.status[:] = (0.0, math.inf)
        replica_sweeps = sweeps * replicas
        if replica_sweeps == 0 or replica_sweeps * self.seconds_per_replica_sweep < INLINE_S:  # too short for a thread
            return self._run_inline(out, seed, betas, sweeps, work, restart)
        started = time.perf_counter()
        finished, outcome = self._workers[0].submit(lambda: self._kernel(out, seed, betas, sweeps, work, restart=restart))
        self.control.watch(finished, [self.stop], lambda: float(self.status[1]) + self.offset)
        if isinstance(outcome[0], BaseException):
            raise RuntimeError("the structured annealer's read failed") from outcome[0]
        self._restart_done(time.perf_counter() - started, outcome[0][0] * replicas)
        return outcome[0]

    def _run_inline(self, out, seed, betas, sweeps, work, restart=0) -> tuple[int, int]:
        """A restart expected to take under :data:`INLINE_S`: in this thread (Ctrl-C acts once it returns)."""
        started = time.perf_counter()
        try:
            result = self._kernel(out, seed, betas, sweeps, work, restart=restart)
        except KeyboardInterrupt:  # raised as the compiled call returned: ``out`` holds its best state
            self.control.interrupted = True
            return int(self.status[0]), -1
        self._restart_done(time.perf_counter() - started, result[0] * self._replicas(betas))
        return result

    def _read_streams(self, out, seed, plans) -> tuple[int, int]:
        """:meth:`read` with ``self.threads`` streams of restarts at once, stream i in the runner's thread i.

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
                restarts = zip(tagged(plans[i % len(plans)]), _restart_seeds(seed, i))
                for restart, ((betas, sweeps, long), restart_seed) in enumerate(restarts):
                    if stream.stop[0]:
                        break
                    work = self._buffers(self._replicas(betas), i, long, restart)
                    stream.status[:] = (0.0, math.inf)
                    started = time.perf_counter()
                    ran, reached = self._kernel(stream.kept.scratch, restart_seed, betas, sweeps, work,
                                                signals=Signals(stream.stop, stream.status), stream=i, long=long,
                                                restart=restart)
                    self._restart_done(time.perf_counter() - started, ran * self._replicas(betas))
                    stream.kept.keep(stream.status[1])
                    if reached >= 0:
                        with lock:
                            if not winner:
                                winner.append((i, stream.done + reached))
                                for stop in stops:
                                    stop[0] = 1
                    with lock:  # done and status[0] move together: this restart is counted once
                        stream.done += ran
                        stream.status[0] = 0.0
                    if reached >= 0:
                        break
            finally:
                with lock:
                    stream.finished = True
                    if all(s.finished for s in streams):
                        all_done.set()

        outcomes = [self._workers[i].submit(lambda i=i: run_stream(i))[1] for i in range(self.threads)]

        def best():
            with lock:
                return min(min(s.kept.energy, float(s.status[1])) for s in streams) + self.offset

        self.control.watch(all_done, stops, best)
        done = sum(s.done for s in streams)
        if winner:
            index, reached = winner[0]
        else:
            index, reached = min(range(len(streams)), key=lambda i: streams[i].kept.energy), -1
        kept = streams[index].kept
        failed = next((error for outcome in outcomes for error in outcome if isinstance(error, BaseException)), None)
        if failed is not None or kept.energy == math.inf:  # a stream's compiled read raised: a bug, never a result
            raise RuntimeError("the structured annealer's read failed") from failed
        out[:] = kept.out
        self.control.best = min(self.control.best, kept.energy + self.offset)
        return done, reached

    def _restart_done(self, seconds, replica_sweeps) -> None:
        """Count a restart a read ran (:attr:`restarts`, :attr:`restart_s`) and learn its sweep cost."""
        with self._counting:
            self.restarts += 1
            self.restart_s += seconds
        self._learn(seconds, replica_sweeps)

    def _learn(self, seconds, replica_sweeps) -> None:
        """Keep the least measured cost of a replica-sweep: each measure counts the call's fixed cost
        (and a thread's start) in, so the least is the closest."""
        if replica_sweeps > 0 and seconds > 0:
            self.seconds_per_replica_sweep = min(self.seconds_per_replica_sweep, seconds / replica_sweeps)


class _Worker:
    """A thread that runs a read runner's jobs one after another (a one-stream read's restarts, or one stream's
    restarts of each read with threads): started at the first, ended when the worker is dropped (its runner with
    it). Starting a thread for each job costs about 50 µs on one core, handing a job to a running one about 20:
    on an easy puzzle, whose read is one restart of a few sweeps, that difference is a third of the read.

    >>> worker = _Worker()
    >>> finished, outcome = worker.submit(lambda: 6 * 7)
    >>> finished.wait(10), outcome
    (True, [42])
    >>> finished, outcome = worker.submit(lambda: 1 / 0)
    >>> finished.wait(10), type(outcome[0]).__name__
    (True, 'ZeroDivisionError')
    """

    def __init__(self):
        self._jobs = None

    def submit(self, job) -> tuple[threading.Event, list]:
        """Run ``job()`` in the worker's thread: ``(finished, outcome)``, ``finished`` set once ``outcome`` holds
        what ``job`` returned or the exception it raised. (A ``finished`` event, not a join: a join cut short by
        Ctrl-C may return early.)"""
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            name = f"qpicross-restarts-{next(_WORKER_NUMBERS)}"
            threading.Thread(target=_serve, args=(self._jobs,), name=name, daemon=True).start()
            weakref.finalize(self, self._jobs.put, None)  # the thread ends with its worker
        finished, outcome = threading.Event(), []
        self._jobs.put((job, finished, outcome))
        return finished, outcome


_WORKER_NUMBERS = itertools.count(1)  # each worker's thread has a name of its own


def _serve(jobs: queue.SimpleQueue) -> None:
    """:class:`_Worker`'s thread: run the jobs put in ``jobs`` until a None. It holds no job between jobs,
    so that dropping a worker's runner drops the worker, whose finaliser puts the None."""
    while (item := jobs.get()) is not None:
        job, finished, outcome = item
        del item
        try:
            outcome.append(job())
        except BaseException as error:  # the compiled read raised: the caller raises it
            outcome.append(error)
        finally:
            del job, outcome
            finished.set()
            del finished


class _Best:
    """The state a read keeps of its restarts (of one stream's, with threads): the one place a read's best state is
    kept between restarts (a restart's own best is :func:`~.engine.keep_best`'s, a batched ladder's
    :func:`~.driver.ladder_run`'s). A restart writes its sample into ``scratch``; :meth:`keep` keeps it as ``out``
    where its lowest energy (without the offset) beats ``energy``, the best so far.

    >>> kept = _Best(np.zeros(2, np.int8))
    >>> kept.scratch[:] = 1; kept.keep(3.0); kept.scratch[:] = 0; kept.keep(5.0)
    >>> kept.energy, kept.out.tolist()
    (3.0, [1, 1])
    """

    def __init__(self, out):
        self.out, self.scratch, self.energy = out, np.empty_like(out), math.inf

    def keep(self, energy) -> None:
        if energy < self.energy or self.energy == math.inf:
            self.energy = float(energy)
            self.out[:] = self.scratch


class _Stream:
    """One stream of restarts of a read with threads: its stop flag, status and best state."""

    def __init__(self, out):
        self.stop = stop_flag()
        # sweeps of the current restart, best energy of that restart: polled before the first restart begins
        self.status = np.array([0.0, np.inf])
        self.kept = _Best(np.empty_like(out))
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
