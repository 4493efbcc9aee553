r"""Benchmarks of batched samplers: every puzzle in one call, TTS99 of reads that ran side by side.

:func:`~qpicross.experiments.bench.run_bench` hands the puzzles of a
configuration whose sampler is batched (``shift-batched``) to :func:`bench_batch`:
one :func:`~qpicross.pipeline.run.run_many` call samples them all at once,
and each puzzle's results are measured as for any run
(:func:`~qpicross.experiments.result.result_from_run`), with two differences:

* the ``num_reads`` reads of a puzzle are ``num_reads`` tempering ladders that
  ran *at the same time*, each with its wall-clock time to target
  :math:`T_i` (``inf`` if it never reached it). Restarting the whole launch
  with a cutoff :math:`\tau` succeeds when any of the :math:`n` ladders does,
  with probability :math:`P(\tau) = 1 - (1 - k(\tau)/n)^n`
  (:math:`k(\tau)` = ladders with :math:`T_i \le \tau`), so

  .. math:: TTS_{99} = \min_\tau \tau\, R\big(P(\tau)\big),

  the optimal-cutoff TTS of :mod:`qpicross.experiments.tts` with a launch as
  the unit of restart (:func:`parallel_time_to_target_tts`); ``tts_method`` is
  ``"parallel-time-to-target"``;
* ``batch_wall_s`` is the wall time of the whole call (all puzzles), and a
  puzzle's ``sample_s`` (and ``t_read_s``: its reads ran side by side) the
  time from the start of sampling until it stopped. Without ``target_energy``
  a solved read counts at the end of the run.

Examples:
    >>> r = parallel_time_to_target_tts([1.0, 2.0, math.inf, math.inf])
    >>> r.cutoff_s, r.p_at_cutoff, round(r.tts99_s, 3)
    (2.0, 0.9375, 3.322)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.result import BenchResult, result_from_run
from qpicross.experiments.tts import TimeToTarget, _quantile, repetitions, wilson_interval
from qpicross.pipeline.run import run_many
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle import Puzzle

__all__ = ["bench_batch", "parallel_time_to_target_tts"]


def parallel_time_to_target_tts(times: Sequence[float], parallel: int | None = None,
                                target: float = 0.99) -> TimeToTarget:
    r"""TTS99 of reads run ``parallel`` at a time, restarting them all together after a cutoff.

    ``times[i]`` is read ``i``'s wall time to target (``inf``: never); with
    ``k`` of ``n`` reads at or below :math:`\tau`, one launch of ``parallel``
    reads succeeds by :math:`\tau` with probability
    :math:`1 - (1 - k/n)^{parallel}`, and TTS99 is the least
    :math:`\tau R(\cdot)` over the hit times. ``p_at_cutoff`` is that launch
    probability; the bounds use the Wilson interval of :math:`k/n`.

    Args:
        times: Per-read times to target.
        parallel: Reads per launch (default: all of them).
        target: Wanted probability of success.

    Examples:
        >>> parallel_time_to_target_tts([0.5] * 4).tts99_s
        0.5
        >>> parallel_time_to_target_tts([math.inf] * 4).tts99_s
        inf
    """
    arr = np.sort(np.asarray(times, float))
    n = len(arr)
    if n == 0 or np.isnan(arr).any() or (arr < 0).any():
        raise ParameterError("times must be a non-empty sequence of non-negative numbers (inf for a miss)")
    parallel = n if parallel is None else int(parallel)
    hits = arr[np.isfinite(arr)]
    median, p99 = _quantile(arr, 0.5), _quantile(arr, 0.99)
    if len(hits) == 0:
        return TimeToTarget(math.inf, math.inf, 0.0, math.inf, math.inf, n, 0, median, p99, math.nan)

    def launch(p_read: float) -> float:
        return 1.0 - (1.0 - p_read) ** parallel

    best, tau_best, k_best = math.inf, math.inf, 0
    cutoffs = np.unique(hits)
    for tau, k in zip(cutoffs.tolist(), np.searchsorted(hits, cutoffs, side="right").tolist()):
        value = tau * repetitions(launch(k / n), target)
        if value < best:
            best, tau_best, k_best = value, tau, k
    low, high = wilson_interval(k_best, n)
    return TimeToTarget(
        tts99_s=best, cutoff_s=tau_best, p_at_cutoff=launch(k_best / n),
        tts99_low_s=tau_best * repetitions(launch(high), target),
        tts99_high_s=tau_best * repetitions(launch(low), target) if low > 0 else math.inf,
        num_reads=n, num_hits=len(hits), median_s=median, p99_s=p99, mean_s=float(hits.mean()),
    )


def bench_batch(tasks: Sequence[tuple[str, Puzzle, SolverConfig]]) -> list[BenchResult]:
    """Benchmark one batched configuration on many puzzles with one sampler call.

    Args:
        tasks: ``(source, puzzle, config)`` per puzzle; the first task's configuration
            (its seed included) is used for all.

    Returns:
        One result per task, in order, with ``batch_wall_s`` set.

    Raises:
        ValueError, SamplerUnavailableError: As :func:`~qpicross.pipeline.run.run_many`.
    """
    if not tasks:
        return []
    config = tasks[0][2]
    _warm_up(config)
    t0 = time.perf_counter()
    runs = run_many([puzzle for _, puzzle, _ in tasks], config)
    wall = time.perf_counter() - t0
    results = []
    for (source, _, _), run in zip(tasks, runs):
        result = result_from_run(run, source)
        info = run.sampleset.info
        if result.num_variables:
            # the reads ran side by side: each took the whole of its puzzle's sampling time
            result.t_read_s = result.sample_s
            if "time_to_target_s" in info:
                times = np.asarray(info["time_to_target_s"], float)
            else:  # no target: a solved read counts as solved at the end of the run
                times = np.full(result.num_reads, result.sample_s)
            times = np.where(run.evaluation.read_solved, times, np.inf)
            ttt = parallel_time_to_target_tts(times, info.get("parallel_reads"))
            result.tts_method = "parallel-time-to-target"
            result.tts99_s = result.presolve_s + ttt.tts99_s
            result.tts99_low_s = result.presolve_s + ttt.tts99_low_s
            result.tts99_high_s = result.presolve_s + ttt.tts99_high_s
            result.cutoff_s, result.p_at_cutoff = ttt.cutoff_s, ttt.p_at_cutoff
            result.ttt_median_s, result.ttt_p99_s, result.ttt_mean_s = ttt.median_s, ttt.p99_s, ttt.mean_s
            result.time_to_target_s = times.tolist()
            # every read ran the whole call, so none is censored before a hit: the parallel estimator stands
            result.tts_estimator, result.events_at_cutoff, result.few_events, result.tts99_naive_s = "", None, None, None
        result.batch_wall_s = wall
        results.append(result)
    return results


_WARM: set = set()
#: What :func:`_warm_up` samples: two small puzzles of different shapes, one batch, as every benchmark batch is
#: (a tiny non-Picross model would compile only the joint chain's launch, not the board and profile ones).
WARM_UP_BATCH = (Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="warm-up 5x5"),
                 Puzzle([[2], [1, 1], [3]], [[2], [1, 1], [1, 1], [1]], name="warm-up 3x4"))


def _warm_up(config: SolverConfig) -> None:
    """Compile (or load from numba's cache) what ``config``'s batches run, on :data:`WARM_UP_BATCH`, one read a puzzle,
    so that compilation is not timed as sampling."""
    key = (config.sampler_name, dict(config.options).get("backend"))
    if key in _WARM:
        return
    run_many(list(WARM_UP_BATCH), config.replace(num_reads=1))
    _WARM.add(key)
