"""Run control, named once: the time limit, the target energy and its early stop, the progress hook, the stop flag.

Every loop that draws reads -- :class:`~qpicross.samplers.reads.ReadsComposite` (calls of a few reads),
the block-shift sampler's :class:`~qpicross.samplers.blockshift.restarts.ReadRunner` (restart streams on
threads), :class:`~qpicross.samplers.streams.StreamsComposite` (restart streams on a Dask cluster)
and the batched driver (:func:`~qpicross.samplers.blockshift.driver.run`, launches of sweeps) -- takes
the same parameters, with one meaning each, and keeps them with one :class:`RunControl`: the deadline, the
progress hook and what the run has drawn so far, what stopped it, and the one polling loop
(:meth:`RunControl.watch`) that waits while compiled reads run in other threads:

* ``time_limit`` -- the most wall seconds a run samples (None: no limit): no further call, read or
  launch starts once it has passed, and a sampler that takes ``time_limit`` itself also stops the
  read it is running (:class:`Deadline`); ``info["timed_out"]`` says whether it cut the run short;
* ``target_energy`` -- the energy that counts as solved (None: none): a read that reaches it stops
  there and records when it did (``info["time_to_target_s"]``, ``info["sweeps_to_target"]``);
* ``early_stop`` -- what else reaching ``target_energy`` stops (:data:`EARLY_STOP`): ``"puzzle"``,
  the whole run of that model (no further read starts); ``"read"``, only that read; ``"none"``,
  nothing (reads run their sweeps, noting their first hit; batched samplers only);
* ``progress`` -- called as ``progress(reads_done, num_reads, best_energy)`` (:data:`ProgressHook`):
  before the first read, while reads run (about every :data:`PROGRESS_INTERVAL_S`) and after the last;
  ``best_energy`` is ``inf`` until a read has one. Raising from it stops every running read;
* ``interrupt_function`` -- the stop input, in dwave-samplers' idiom: a function of no arguments, asked
  between two pieces of work and while reads run (as often as ``progress``, about every
  :data:`PROGRESS_INTERVAL_S`); once it returns True the running reads stop within a sweep, keeping their best
  states, no further read starts, and :attr:`RunControl.halted` says so (the restart streams of
  :class:`~qpicross.samplers.streams.StreamsComposite` are stopped with it);
* a stop flag -- a one-element ``int8`` array that a compiled read checks every sweep; setting it ends
  the read within a sweep (Ctrl-C, the time limit, another stream at the target all set it); a sampler
  whose compiled loop calls back into Python between reads instead (dwave-samplers' simulated annealing,
  ``interrupt_function``) gets a :class:`BetweenReads`.
  Ctrl-C ends a run with the reads drawn so far and ``info["interrupted"] = True``.

Examples:
    >>> deadline = Deadline(None)
    >>> deadline.passed(), deadline.left()
    (False, inf)
    >>> deadline = Deadline(60.0)
    >>> deadline.passed(), 59 < deadline.left() <= 60
    (False, True)
    >>> check_time_limit(0)
    Traceback (most recent call last):
        ...
    qpicross.exceptions.ParameterError: time_limit must be a positive number of seconds, got 0
"""

from __future__ import annotations

import contextlib
import math
import numbers
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from qpicross.exceptions import ParameterError
from qpicross.names import EARLY_STOP

__all__ = ["BetweenReads", "Deadline", "EARLY_STOP", "PROGRESS_INTERVAL_S", "ProgressHook", "RunControl",
           "check_early_stop", "check_time_limit", "stop_flag"]

T = TypeVar("T")
#: Seconds between ``progress`` calls (and between checks for the time limit and Ctrl-C) while reads run.
PROGRESS_INTERVAL_S = 0.5
#: ``progress(reads_done, num_reads, best_energy)``: the one signature of every progress hook.
ProgressHook = Callable[[int, int, float], None]


def check_time_limit(time_limit) -> float | None:
    """``time_limit`` as seconds (a positive finite number, or None for no limit).

    Raises:
        ParameterError: For anything else.
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real) or not time_limit > 0:
        raise ParameterError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    return float(time_limit)


def check_early_stop(early_stop) -> str | None:
    """``early_stop`` if it is one of :data:`EARLY_STOP` (or None: the sampler's default).

    Raises:
        ParameterError: For anything else.
    """
    if early_stop is not None and early_stop not in EARLY_STOP:
        raise ParameterError(f"early_stop must be one of {', '.join(EARLY_STOP)}, got {early_stop!r}")
    return early_stop


def stop_flag():
    """A new stop flag: a one-element ``int8`` array, 0 until something sets it to 1."""
    import numpy as np

    return np.zeros(1, np.int8)


class Deadline:
    """When a run's ``time_limit`` ends, on :func:`time.perf_counter`'s clock, from ``start`` (default: now).

    Args:
        time_limit: Seconds (None: never).
        start: The run's start, a :func:`time.perf_counter` reading.
    """

    def __init__(self, time_limit: float | None, start: float | None = None):
        self.time_limit = check_time_limit(time_limit)
        self.start = time.perf_counter() if start is None else start
        self.at = math.inf if self.time_limit is None else self.start + self.time_limit

    def left(self) -> float:
        """Seconds until the deadline (``inf`` without a limit; negative once past)."""
        return self.at - time.perf_counter()

    def passed(self) -> bool:
        """Whether the time limit is spent."""
        return time.perf_counter() >= self.at

    def elapsed(self) -> float:
        """Seconds since the run's start."""
        return time.perf_counter() - self.start


class RunControl:
    """One run's control, for every loop that draws reads: its :class:`Deadline`, its ``progress`` hook, how far
    it is (:attr:`reads_done` of :attr:`num_reads`, the :attr:`best` energy so far) and what stopped it
    (:attr:`timed_out`, :attr:`interrupted`, :attr:`halted`).

    The loop advances :attr:`reads_done` and :attr:`best` itself. Between two pieces of work it asks
    :meth:`between` (a report when one is due, the time limit noted); while compiled code runs in other
    threads it waits in :meth:`watch`, which sets their stop flags at the deadline or on Ctrl-C; around the
    whole loop, :meth:`interruptible` turns a Ctrl-C into :attr:`interrupted` so that the reads drawn are kept.

    Args:
        time_limit: Seconds (None: no limit).
        progress: The hook, ``progress(reads_done, num_reads, best_energy)`` (None: none).
        num_reads: The reads the run is to draw.
        start: The run's start, a :func:`time.perf_counter` reading (default: now).
        interrupt_function: The stop input (None: none): asked as often as ``progress`` is called; once it
            returns True the run stops (:attr:`halted`).

    Examples:
        >>> seen = []
        >>> control = RunControl(None, lambda *call: seen.append(call), num_reads=2)
        >>> control.report()
        >>> control.reads_done, control.best = 2, -1.0
        >>> control.report()
        >>> seen
        [(0, 2, inf), (2, 2, -1.0)]
        >>> with control.interruptible():
        ...     raise KeyboardInterrupt
        >>> control.interrupted, control.stopped
        (True, True)
        >>> control = RunControl(interrupt_function=lambda: True)
        >>> control.asked_to_stop(), control.halted, control.stopped
        (True, True, True)
    """

    def __init__(self, time_limit: float | None = None, progress: ProgressHook | None = None, num_reads: int = 1,
                 start: float | None = None, interrupt_function: Callable[[], bool] | None = None):
        if interrupt_function is not None and not callable(interrupt_function):
            raise ParameterError(f"interrupt_function must be a function of no arguments, got "
                                 f"{type(interrupt_function).__name__}")
        self.deadline = Deadline(time_limit, start)
        self.progress = progress
        self.interrupt_function = interrupt_function
        self.num_reads = int(num_reads)
        self.reads_done = 0
        self.best = math.inf
        self.timed_out = self.interrupted = self.halted = False
        self.reported = self.polled = time.perf_counter()  # when progress was last called, the stop input asked

    @property
    def stopped(self) -> bool:
        """Whether the time limit, a Ctrl-C or the stop input has ended the run."""
        return self.timed_out or self.interrupted or self.halted

    def asked_to_stop(self) -> bool:
        """Ask ``interrupt_function`` now (once it has said True, it is not asked again): whether the run is
        :attr:`halted`."""
        if self.interrupt_function is not None and not self.halted:
            self.polled = time.perf_counter()
            self.halted = bool(self.interrupt_function())
        return self.halted

    def going(self, work: Iterable[T]) -> Iterator[T]:
        """The read loop: the items of ``work`` (reads, calls of a few reads, launches) while the run goes on.

        The first item always comes; each later one only while no time limit, Ctrl-C or stop input has ended
        the run (a spent time limit is noted as :attr:`timed_out`). Every loop that draws reads runs through
        here, so each stops for the same reasons at the same point; what else ends a loop (a read at the target,
        a child that returned fewer reads) is the loop's own ``break``.

        >>> control = RunControl(interrupt_function=lambda: True)
        >>> [read for read in control.going(range(3)) if control.asked_to_stop() or True]
        [0]
        """
        for index, item in enumerate(work):
            if index:
                if self.deadline.passed():
                    self.timed_out = True
                if self.stopped:
                    return
            yield item

    def report(self, best: float = math.inf) -> None:
        """Call ``progress(reads_done, num_reads, best_energy)``, the best energy being the lower of
        :attr:`best` and ``best`` (what running reads have reached); nothing without a hook."""
        if self.progress is not None:
            self.reported = time.perf_counter()
            self.progress(min(self.reads_done, self.num_reads), self.num_reads, min(self.best, best))

    def between(self, best: float = math.inf) -> bool:
        """Between two pieces of work (restarts, reads, calls, launches): report if the last report is
        :data:`PROGRESS_INTERVAL_S` old, note a spent time limit; whether the run must stop."""
        now = time.perf_counter()
        if self.progress is not None and now - self.reported >= PROGRESS_INTERVAL_S:
            self.report(best)
        if now - self.polled >= PROGRESS_INTERVAL_S:
            self.asked_to_stop()
        if self.deadline.passed():
            self.timed_out = True
        return self.stopped

    def watch(self, finished: threading.Event, flags, best: Callable[[], float] = lambda: math.inf) -> None:
        """Wait for ``finished`` while compiled reads run in other threads, polling every
        :data:`PROGRESS_INTERVAL_S`: past the deadline, or once the stop input says so, set every stop flag of
        ``flags`` (the compiled loops check them every sweep) and note :attr:`timed_out` or :attr:`halted`; report
        ``best()``, the running reads' best energy;
        on Ctrl-C set the flags, wait for the reads to end and note :attr:`interrupted`. Should ``progress``
        raise, every compiled read is stopped before the error propagates."""
        try:
            while not finished.wait(PROGRESS_INTERVAL_S):
                if self.deadline.passed():
                    _raise_flags(flags)
                    self.timed_out = True
                if self.progress is not None:
                    self.report(best())
                if self.asked_to_stop():
                    _raise_flags(flags)
        except KeyboardInterrupt:
            self.interrupted = True
            _stop_and_wait(finished, flags)
        except BaseException:  # progress or the stop input raised: no compiled read may outlive the call
            _stop_and_wait(finished, flags)
            raise

    @contextlib.contextmanager
    def interruptible(self):
        """A block whose Ctrl-C ends it quietly, noted as :attr:`interrupted` (the reads drawn are kept)."""
        try:
            yield self
        except KeyboardInterrupt:
            self.interrupted = True


def _raise_flags(flags) -> None:
    for flag in flags:
        flag[0] = 1


def _stop_and_wait(finished: threading.Event, flags) -> None:
    """Set every stop flag of ``flags`` and wait for ``finished`` (the compiled loops check them every sweep)."""
    _raise_flags(flags)
    while not finished.wait(0.05):  # within a sweep
        pass


class BetweenReads:
    """The ``interrupt_function`` of a sampler whose compiled loop calls it between reads (dwave-samplers'
    simulated annealing): it counts the reads, reports ``progress`` inside the call, and stops the call at
    a Ctrl-C, keeping the reads already drawn.

    Python's Ctrl-C handler raises :class:`KeyboardInterrupt` inside the callback, where the compiled loop
    drops it (the call would run on to its last read); so while the call runs, in a ``with`` block on the
    main thread, a Ctrl-C that Python handles inside the callback only sets :attr:`interrupted`, and the
    callback's answer ends the call; one handled anywhere else (the sampler's Python code before and after
    its loop) raises as it always does. A ``progress`` hook (or ``chained``) that raises ends the call too:
    :attr:`raised` holds the exception, for the caller to act on once the call has returned.

    Args:
        progress: Called as ``progress(reads_done)`` about every :data:`PROGRESS_INTERVAL_S`
            (None: never).
        chained: A user's own ``interrupt_function``, asked as well (None: none).

    Examples:
        >>> seen = []
        >>> with BetweenReads(seen.append) as between_reads:
        ...     stops = [between_reads() for _ in range(3)]
        >>> stops, between_reads.reads, between_reads.interrupted
        ([False, False, False], 3, False)
    """

    def __init__(self, progress: Callable[[int], None] | None = None, chained: Callable[[], bool] | None = None):
        self.progress = progress
        self.chained = chained
        self.reads = 0
        self.interrupted = False
        self.raised: BaseException | None = None
        self._previous = None
        self._next_report = time.perf_counter() + PROGRESS_INTERVAL_S

    def __call__(self) -> bool:
        """Whether the call must stop now (called once after each read)."""
        self.reads += 1
        try:
            if self.progress is not None and self.raised is None and time.perf_counter() >= self._next_report:
                self.progress(self.reads)
                self._next_report = time.perf_counter() + PROGRESS_INTERVAL_S
            if self.chained is not None and self.chained():
                return True
        except BaseException as exc:  # noqa: B902 -- the compiled caller would drop it: kept for the caller
            self.raised = exc
        return self.interrupted or self.raised is not None

    def _note_interrupt(self, signum, frame) -> None:
        callback = type(self).__call__.__code__
        inside = frame
        while inside is not None and inside.f_code is not callback:
            inside = inside.f_back
        if inside is None:  # Python code of the sampler's own, before or after its compiled loop: raised there
            self._previous(signum, frame)
        else:
            self.interrupted = True

    def __enter__(self) -> BetweenReads:
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if callable(previous):  # a Python handler (Ctrl-C raises): noted instead while the call runs
                self._previous = previous
                signal.signal(signal.SIGINT, self._note_interrupt)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None
