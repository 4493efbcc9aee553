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

__all__ = ["run_tasks", "default_workers"]

_SHARED: Any = None


def _example_square(shared: int, task: int) -> int:
    return shared + task * task


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


def _run_on_dask(function, tasks, on_result, shared, scheduler) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("a Dask scheduler needs the 'tune' extra: pip install 'qpicross[tune]'") from None

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
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
