r"""Independent restart streams of one read, side by side on processes or machines: a Dask cluster.

:class:`StreamsComposite` runs each read of its child as one restart stream per worker of a Dask
cluster, instead of one stream per thread (``--scheduler``, the ``scheduler`` option of ``shift``, wraps the
block-shift sampler in it: :func:`~qpicross.samplers.registry.with_streams`): ``"local:N"``
starts ``N`` local worker processes (kept for the life of this process, their scratch space in a temporary
folder of their own, removed when the process exits, where Dask would leave its lock files behind), an
address (``"tcp://host:8786"``) or a :class:`distributed.Client` uses a running
cluster. Each stream is the one-thread read of
:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` (Luby restarts
of tempering on the profile chain) from a seed of its own; the first stream to
reach ``target_energy`` stops the others (a :class:`distributed.Event` they poll
every :data:`~qpicross.samplers.control.PROGRESS_INTERVAL_S`), and
the read returns its state. ``time_limit``, ``progress`` and Ctrl-C mean what they mean for every
sampler (:mod:`qpicross.samplers.control`).

The child is any sampler whose reads are independent restarts and that takes ``interrupt_function`` (the stop
input a stream gives it to poll the stop event: a stopped stream still returns its best state), ``time_limit``
and ``target_energy``, and reports ``info["time_to_target_s"]``: the block-shift sampler does. Each stream is one read of the child, on one thread of its worker.

Restarts are independent, so a read whose time to target is exponential
(the tail of the tournament puzzles) is ``N`` times faster in wall time on ``N``
streams at the same core-seconds: ``info["core_s"]`` counts the CPU seconds of every
stream of each read, ``info["read_s"]`` its wall seconds. Which stream wins
depends on the clock, so a read's state is not fixed by the seed (the seeds of
the streams are).

Needs the ``tune`` extra (``dask[distributed]``).

Examples:
    >>> parse_scheduler("local:4"), parse_scheduler("tcp://10.0.0.1:8786")
    (4, 'tcp://10.0.0.1:8786')
    >>> from qpicross.samplers.blockshift import BlockShiftSampler
    >>> streams = StreamsComposite(BlockShiftSampler(), "local:2")  # the cluster starts at the first sample
    >>> streams.properties["independent_reads"], "scheduler" in streams.parameters
    (True, False)
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import math
import re
import shutil
import signal
import tempfile
import threading
import time
import uuid

import dimod
import numpy as np

from qpicross.exceptions import ParameterError, SamplerUnavailableError
from qpicross.samplers import control as _control
from qpicross.samplers.control import RunControl, check_time_limit

__all__ = ["StreamsComposite", "parse_scheduler", "client_for", "MAX_LOCAL_WORKERS", "CONNECT_TIMEOUT_S"]

#: Most local worker processes ``"local:N"`` may ask for.
MAX_LOCAL_WORKERS = 1024
#: Seconds to reach a scheduler at an address before giving up.
CONNECT_TIMEOUT_S = 5
#: Seconds a read interrupted by Ctrl-C waits for its streams' best states (each stops within a sweep).
_STOP_WAIT_S = 5
_CLIENTS: dict = {}
#: The scratch folders of the local clusters this process started (removed with them).
_SCRATCH: list[str] = []


def parse_scheduler(scheduler) -> int | str:
    """``"local:N"`` -> ``N`` local processes; an address -> itself (checked by Dask when connecting, its
    port here).

    Raises:
        ValueError: For a malformed ``local:N``, or an address whose port is no port number.

    >>> parse_scheduler("local:2"), parse_scheduler("tcp://127.0.0.1:8786")
    (2, 'tcp://127.0.0.1:8786')
    >>> parse_scheduler("tcp://127.0.0.1:99999")
    Traceback (most recent call last):
        ...
    qpicross.exceptions.ParameterError: scheduler 'tcp://127.0.0.1:99999': 99999 is not a port number (1 to 65535)
    """
    if not isinstance(scheduler, str):
        raise ParameterError(f"scheduler must be 'local:N' or a scheduler address, got {scheduler!r}")
    if scheduler.startswith("local:"):
        text = scheduler[len("local:"):]
        if not text.isdigit() or not 1 <= int(text) <= MAX_LOCAL_WORKERS:
            raise ParameterError(f"scheduler local:N takes N from 1 to {MAX_LOCAL_WORKERS}, got {scheduler!r}")
        return int(text)
    if "://" not in scheduler and ":" not in scheduler:
        raise ParameterError(f"scheduler must be 'local:N' or an address such as tcp://host:8786, got {scheduler!r}")
    port = re.search(r":(\d+)/?$", scheduler)
    if port and not 1 <= int(port.group(1)) <= 65535:
        raise ParameterError(f"scheduler {scheduler!r}: {port.group(1)} is not a port number (1 to 65535)")
    return scheduler


def client_for(scheduler):
    """A :class:`distributed.Client` for ``scheduler`` (a client, ``"local:N"`` or an address), made once
    per process and warmed up: every worker has run a small read, so its kernels are compiled.

    Raises:
        SamplerUnavailableError: Without ``dask[distributed]``, or when no scheduler answers.
        ValueError: For a malformed scheduler.
    """
    from qpicross.exceptions import import_extra

    distributed = import_extra("distributed", "tune", "scheduler= (restart streams on a Dask cluster)")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if isinstance(scheduler, Client):
        return scheduler
    where = parse_scheduler(scheduler)
    if scheduler in _CLIENTS:
        return _CLIENTS[scheduler]
    try:
        if isinstance(where, int):
            import dask

            scratch = tempfile.mkdtemp(prefix="qpicross-dask-")
            try:  # the scheduler's and the workers' scratch spaces (lock files Dask leaves behind) in one folder
                with dask.config.set({"temporary-directory": scratch}), _workers_ignore_ctrl_c():
                    # its workers' logs off: a worker whose scheduler left first (this process's exit, a Ctrl-C)
                    # logged dozens of lines of tracebacks; a stream's own error still comes back with its result
                    cluster = LocalCluster(n_workers=where, threads_per_worker=1, processes=True,
                                           dashboard_address=None, local_directory=scratch,
                                           silence_logs=logging.CRITICAL)
                    client = Client(cluster)
            except BaseException:
                shutil.rmtree(scratch, ignore_errors=True)
                raise
            _SCRATCH.append(scratch)
        else:  # probed first: one line for an address where nothing listens, tls:// or ucx:// without support
            from qpicross.samplers.workers import connect_scheduler

            client = connect_scheduler(where, timeout=CONNECT_TIMEOUT_S)
    except ConnectionError as exc:
        raise SamplerUnavailableError(str(exc)) from None
    except (OSError, TimeoutError, ValueError) as exc:
        raise SamplerUnavailableError(f"no Dask scheduler answered at {scheduler!r}: {exc}") from None
    if not _CLIENTS:  # registered after dask's own exit handlers, so it runs before them
        atexit.register(_close_clients)
    _CLIENTS[scheduler] = client
    return client


@contextlib.contextmanager
def _workers_ignore_ctrl_c():
    """Start worker processes that ignore Ctrl-C: a terminal's Ctrl-C reaches every process of its group, and a
    worker's own handler printed tracebacks (dozens of lines while the cluster starts). The workers inherit
    the ignored signal; this process stops them itself (its streams' stop event, then the cluster's close).
    While they start (a few seconds), a Ctrl-C here is ignored too: it cannot be both ignored and noted."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _close_clients() -> None:  # pragma: no cover - at interpreter exit
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # workers leaving at exit are no news
    for client in _CLIENTS.values():
        cluster = getattr(client, "cluster", None)
        client.close()
        if cluster is not None:
            cluster.close()
    _CLIENTS.clear()
    while _SCRATCH:
        shutil.rmtree(_SCRATCH.pop(), ignore_errors=True)


def _warm_up(child) -> None:
    """Compile (or load from numba's cache) the kernels a stream runs, on a worker: one short read of a 5x5."""
    from qpicross.model.formulation import build_formulation
    from qpicross.puzzle import Puzzle

    f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    offered = dict(lines=f.one_hot_lines(), paints=f.paints(), num_sweeps=10, target_energy=0)
    child.sample(f.bqm(), num_reads=1, seed=0, **{k: v for k, v in offered.items() if k in child.parameters})


#: The clients whose workers have compiled a sampler class's kernels (client id, class).
_WARMED: set = set()


def _stream(child, bqm, params: dict, seed: int, stop_name: str, time_limit: float | None) -> dict:
    """One restart stream of a read, on a worker: a one-thread read of ``child`` whose stop input is the read's
    stop event; stopped or not, it returns its best state."""
    from distributed import Event

    stop = Event(stop_name)

    # the stream's CPU time is its worker process's (one stream a worker): its restarts may run in a thread of their own
    started, cpu_started = time.perf_counter(), time.process_time()

    def spent() -> dict:
        return {"seconds": time.perf_counter() - started, "cpu_s": time.process_time() - cpu_started}

    if "threads" in child.parameters:
        params = {**params, "threads": 1}
    ss = child.sample(bqm, num_reads=1, seed=seed, interrupt_function=stop.is_set, time_limit=time_limit, **params)
    to_target = ss.info.get("time_to_target_s", [math.inf])[0]
    return {**spent(), "sample": ss.record.sample[0],
            "variables": list(ss.variables),
            "energy": float(ss.record.energy[0]), "reached": math.isfinite(to_target), "to_target_s": to_target,
            "sweeps": int(ss.info["sweeps"][0])}


class StreamsComposite(dimod.ComposedSampler):
    """Each read of ``child`` as one restart stream per worker of a Dask cluster, the first stream at the target
    winning (see the module docstring).

    Args:
        child: A sampler whose reads are independent restarts and that takes ``interrupt_function``, ``time_limit``
            and ``target_energy`` (:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`).
        scheduler: ``"local:N"`` (``N`` local worker processes, started at the first sample), a scheduler's
            address or a :class:`distributed.Client`.
    """

    def __init__(self, child: dimod.Sampler, scheduler):
        if isinstance(scheduler, str):  # a malformed one is refused here; a Client is used as it is
            parse_scheduler(scheduler)
        missing = [name for name in ("interrupt_function", "time_limit", "target_energy")
                   if name not in child.parameters]
        if missing:
            raise ParameterError(f"restart streams on a cluster need a sampler that takes {', '.join(missing)}")
        self._children = [child]
        self.scheduler = scheduler

    @property
    def children(self) -> list[dimod.Sampler]:
        return self._children

    @property
    def parameters(self) -> dict:
        return {name: value for name, value in self.child.parameters.items() if name != "threads"}

    @property
    def properties(self) -> dict:  # one stream a worker: not the threads of one process
        return {"child_properties": self.child.properties, "independent_reads": True, "streams": "dask",
                "threaded": False}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 1, seed: int | None = None,
               target_energy: float | None = None, time_limit: float | None = None, progress=None,
               interrupt_function=None, **params) -> dimod.SampleSet:
        """``num_reads`` reads of the child, each one restart stream per worker of the scheduler; ``params`` go to
        every stream's read as they are.

        ``info`` holds, per read, ``time_to_target_s`` (wall seconds from the read's start to the first stream's
        return at the target; ``inf`` if none), ``read_s`` (the read's wall seconds), ``core_s`` (CPU seconds of
        all its streams together, each measured by ``time.process_time`` in the worker that ran it: one stream a
        worker, as ``local:N``'s workers of one thread each), ``stream_s`` (wall seconds of all its streams
        together), ``winner`` (the stream, or -1) and ``sweeps`` (the winner's, or the best stream's); and
        ``streams`` and ``threads`` (the workers: one core each), ``scheduler``, ``timed_out``, ``interrupted``,
        ``halted``. A read cut short (the time limit, Ctrl-C, ``interrupt_function``) returns its best stream's state:
        every stream, stopped or not, returns its best.
        """
        params["target_energy"] = target_energy
        layout = params.pop("layout", None)
        if layout is not None:  # the workers take the layout's lines and paints (a layout's labels do not travel)
            params["lines"] = layout.lines if params.get("lines") is None else params["lines"]
            params["paints"] = layout.paints()
        time_limit = check_time_limit(time_limit)
        client = client_for(self.scheduler)  # first: it says in one line what this machine lacks
        if (id(client), type(self.child)) not in _WARMED:
            client.run(_warm_up, self.child)
            _WARMED.add((id(client), type(self.child)))
        control = RunControl(time_limit, progress, num_reads, interrupt_function=interrupt_function)  # from now
        return _sample_streams(self.child, bqm, client, str(self.scheduler), num_reads=num_reads, seed=seed,
                               control=control, params=params)


def _sample_streams(child, bqm: dimod.BinaryQuadraticModel, client, scheduler: str, *, num_reads: int,
                    seed: int | None, control: RunControl, params: dict) -> dimod.SampleSet:
    from distributed import Event

    workers = sorted(client.scheduler_info()["workers"])
    if not workers:
        raise SamplerUnavailableError(f"the Dask cluster at {scheduler!r} has no workers")
    root = np.random.SeedSequence(seed)
    shared = client.scatter(bqm, broadcast=True, hash=False)  # a key of its own: the last call cancels its own
    variables = list(bqm.variables)
    position = {v: i for i, v in enumerate(variables)}
    samples = np.zeros((num_reads, len(variables)), np.int8)  # in the BQM's vartype, as the streams return them
    to_target, read_s, core_s, stream_s, winners, sweeps = [], [], [], [], [], []
    deadline = control.deadline
    for read in control.going(range(num_reads)):
        control.reads_done = read
        left = None if deadline.time_limit is None else max(deadline.left(), 1e-3)
        stop = Event(f"qpicross-stop-{uuid.uuid4().hex}", client=client)
        seeds = [int(s.generate_state(1)[0] >> 1) for s in root.spawn(len(workers))]
        t0 = time.perf_counter()
        futures = [client.submit(_stream, child, shared, params, seeds[i], stop.name, left, workers=[w], pure=False)
                   for i, w in enumerate(workers)]
        hit, results = _race(futures, stop, control, t0)
        if not results:  # no stream returned (Ctrl-C as the read began, the workers lost): nothing to keep
            break
        win = hit[0] if hit is not None else min(results, key=lambda i: results[i]["energy"])
        samples[read, [position[v] for v in results[win]["variables"]]] = results[win]["sample"]  # by label
        control.best = min(control.best, results[win]["energy"])
        to_target.append(hit[1] if hit is not None else math.inf)
        read_s.append(time.perf_counter() - t0)
        core_s.append(sum(r["cpu_s"] for r in results.values()))
        stream_s.append(sum(r["seconds"] for r in results.values()))
        winners.append(win if hit is not None else -1)
        sweeps.append(results[win]["sweeps"])
    client.cancel(shared)
    drawn = len(read_s)
    sampleset = dimod.SampleSet.from_samples_bqm((samples[:drawn], variables), bqm)
    sampleset.info.update(
        timing={"sample_s": deadline.elapsed()}, sweeps=sweeps, read_s=read_s, core_s=core_s, stream_s=stream_s,
        winner=winners, streams=len(workers), threads=len(workers), scheduler=scheduler,
        timed_out=control.timed_out, interrupted=control.interrupted, halted=control.halted)
    if params.get("target_energy") is not None:
        sampleset.info["time_to_target_s"] = to_target
    return sampleset


def _race(futures, stop, control: RunControl, t0: float):
    """Wait for a read's streams, the first at the target stopping the others (through ``stop``, their stop
    input), as do the deadline, Ctrl-C and the run's own stop input; every stream then returns its best state.
    Returns the winner ``(stream, seconds to target)`` or None, and ``{stream: result}`` of those that returned."""
    from distributed import wait

    hit, results, pending = None, {}, set(futures)
    try:
        while pending:
            try:
                done, pending = wait(pending, timeout=_control.PROGRESS_INTERVAL_S, return_when="FIRST_COMPLETED")
            except TimeoutError:  # none finished meanwhile
                done = set()
            if control.deadline.left() < -_control.PROGRESS_INTERVAL_S or control.asked_to_stop():
                stop.set()  # the streams end at their own time limit; this is for those that could not start
            for future in done:
                result = results[futures.index(future)] = future.result()
                if result["reached"] and hit is None:
                    hit = (futures.index(future), time.perf_counter() - t0)
                    stop.set()
            control.report(min((r["energy"] for r in results.values()), default=math.inf))
    except KeyboardInterrupt:  # every stream stops within a sweep and returns its best state: the read is kept
        control.interrupted = True
        stop.set()
        try:
            wait(futures, timeout=_STOP_WAIT_S)
        except KeyboardInterrupt:  # a second Ctrl-C: keep what has returned
            pass
        results.update({i: f.result() for i, f in enumerate(futures) if f.done() and f.status == "finished"})
    return hit, results
