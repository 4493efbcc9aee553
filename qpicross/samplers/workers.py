"""Many tasks, one way: in this process, on local worker processes, or on a Dask cluster.

:func:`run_tasks` calls ``function(shared, task)`` for every task and hands
each outcome to ``on_result(index, ok, value)`` as it finishes (``ok`` false
and ``value`` the one-line error when the task raised: one failing task never
loses the others). ``shared`` is sent to each worker once (a process
initializer locally, a broadcast ``scatter`` on Dask). Benchmarks and tuning
sweeps both run through it, so a 5 000-puzzle benchmark scales out to a
cluster exactly as a sweep does.

Interrupts: on Ctrl-C queued tasks are cancelled and local workers are
terminated at once (workers ignore SIGINT themselves, so the parent decides),
then :class:`KeyboardInterrupt` propagates; everything reported through
``on_result`` before it is kept by the caller. On Linux each worker also asks
the kernel for SIGTERM when its parent dies (``PR_SET_PDEATHSIG``), so no
worker outlives a parent killed by SIGTERM or SIGKILL, which runs no cleanup.

Examples:
    >>> out = {}
    >>> run_tasks(_example_square, [1, 2, 3], shared=10, on_result=lambda i, ok, v: out.update({i: v}))
    >>> out
    {0: 11, 1: 14, 2: 19}
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from qpicross.samplers.blockshift.restarts import default_threads

__all__ = ["run_tasks", "default_workers", "check_workers", "MAX_WORKERS", "connect_scheduler", "SCHEDULER_TIMEOUT_S"]

#: Most local worker processes a run may ask for.
MAX_WORKERS = 1024

#: Seconds a Dask scheduler has to answer before a run gives up on it (dask's own default is 30).
SCHEDULER_TIMEOUT_S = 3.0

_SHARED: Any = None


def _example_square(shared: int, task: int) -> int:
    return shared + task * task


def check_workers(workers, none: bool = False) -> None:
    """Refuse a number of worker processes that is not an integer in ``[1, MAX_WORKERS]`` (``none``: or None).

    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: workers must be an integer in [1, 1,024], got 0
    """
    from qpicross.samplers.parameters import integer

    integer(1, MAX_WORKERS, none=none).check("workers", workers)


def default_workers() -> int:
    """Worker processes used when none is asked for: every CPU this process may run on
    (:func:`~qpicross.samplers.blockshift.restarts.default_threads`)."""
    return default_threads()


#: prctl option: the signal a process gets when its parent exits (Linux).
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Linux: SIGTERM this process when its parent exits, however it exits; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl in this libc
        return
    if os.getppid() != parent:  # the parent died before the request: nobody is left to wait for us
        os._exit(1)


def _init_worker(shared: Any, parent: int | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if parent is not None:
        _die_with_parent(parent)
    global _SHARED
    _SHARED = shared


def _call(function: Callable, shared: Any, task: Any) -> tuple[bool, Any]:
    try:
        return True, function(shared, task)
    except Exception as exc:  # reported with the task, not raised: the other tasks go on
        return False, f"{type(exc).__name__}: {exc}"


def _call_in_worker(function: Callable, task: Any) -> tuple[bool, Any]:
    return _call(function, _SHARED, task)


def run_tasks(
    function: Callable[[Any, Any], Any],
    tasks: Sequence[Any],
    *,
    on_result: Callable[[int, bool, Any], None],
    shared: Any = None,
    workers: int = 1,
    scheduler: Any = None,
) -> None:
    """Run ``function(shared, task)`` for every task; report each outcome as it finishes.

    Args:
        function: A module-level (picklable) function.
        tasks: The tasks, picklable.
        on_result: Called as ``on_result(index, ok, value)`` in the parent process.
        shared: Data every task needs, sent once per worker.
        workers: Local processes (1: in this process). Ignored with ``scheduler``.
        scheduler: A Dask scheduler address (``"tcp://host:8786"``) or a
            :class:`distributed.Client` (needs the ``tune`` extra).

    Raises:
        KeyboardInterrupt: On Ctrl-C, after cancelling what had not finished.
    """
    if scheduler is not None:
        _run_on_dask(function, tasks, on_result, shared, scheduler)
    elif workers <= 1 or len(tasks) <= 1:
        for index, task in enumerate(tasks):
            ok, value = _call(function, shared, task)
            on_result(index, ok, value)
    else:
        _run_in_processes(function, tasks, on_result, shared, workers)


def _run_in_processes(function, tasks, on_result, shared, workers) -> None:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(max_workers=min(workers, len(tasks)), initializer=_init_worker,
                               initargs=(shared, os.getpid()))
    clean = False
    try:
        pending = {pool.submit(_call_in_worker, function, task): index for index, task in enumerate(tasks)}
        while pending:
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                ok, value = future.result()
                on_result(index, ok, value)
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:  # interrupted (or on_result raised): stop the workers now, none may outlive us
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(timeout=2)
                if process.is_alive():  # pragma: no cover - a worker stuck in C code
                    process.kill()


def connect_scheduler(address: Any, timeout: float = SCHEDULER_TIMEOUT_S):
    """A :class:`distributed.Client` of the Dask scheduler at ``address``, or one line why not, within ``timeout``.

    The address is probed first with one connection (dask's comm layer, with the TLS settings of
    dask's configuration), so an address where nothing listens, an unknown scheme, ``tls://``
    without certificates or ``ucx://`` without UCX support fail in seconds with one line, before a
    client exists (a client that failed to connect spends seconds closing itself and prints a
    traceback when collected). A client given as ``address`` is returned as it is.

    Raises:
        ConnectionError: One line naming the address and the reason.
        RuntimeError: Without the ``tune`` extra (dask.distributed).

    Examples:
        >>> connect_scheduler("tcp://127.0.0.1:1", timeout=0.5)  # doctest: +SKIP
        Traceback (most recent call last):
        ...
        ConnectionError: cannot reach the Dask scheduler at 'tcp://127.0.0.1:1': nothing answered within 0.5 s
    """
    try:
        from distributed import Client
    except ImportError:
        raise RuntimeError("a Dask scheduler needs the 'tune' extra: pip install 'qpicross[tune]'") from None
    if isinstance(address, Client):
        return address
    address = str(address)
    import asyncio
    import concurrent.futures

    from distributed.comm import connect
    from distributed.security import Security

    scheme = address.partition("://")[0].lower() if "://" in address else "tcp"
    try:
        async def probe() -> None:
            comm = await connect(address, timeout=timeout, **Security().get_connection_args("client"))
            await comm.close()

        # In a thread of its own with its own event loop: the caller may be inside one (a notebook).
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, probe()).result()
    except Exception as exc:  # dask raises OSError, TimeoutError, ValueError or TypeError by scheme
        if scheme == "ucx":
            reason = "ucx:// needs UCX support (the distributed-ucxx package), which is not installed"
        elif scheme in ("tls", "wss") and isinstance(exc, TypeError):
            reason = f"{scheme}:// needs dask's TLS settings (distributed.comm.tls: ca-file, client cert and key)"
        elif isinstance(exc, (OSError, asyncio.TimeoutError)) and "Timed out" in str(exc):
            reason = f"nothing answered within {timeout:g} s"
        else:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConnectionError(f"cannot reach the Dask scheduler at {address!r}: {reason}") from None
    return Client(address, timeout=timeout)


def _run_on_dask(function, tasks, on_result, shared, scheduler) -> None:
    from distributed import as_completed

    client = connect_scheduler(scheduler)
    futures = []
    try:
        shared_future = client.scatter([shared], broadcast=True)[0] if shared is not None else None
        futures = [client.submit(_call, function, shared_future, task, pure=False) for task in tasks]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):
            ok, value = future.result()
            on_result(index[future.key], ok, value)
    finally:
        if futures:
            client.cancel(futures)
        if client is not scheduler:
            client.close()
