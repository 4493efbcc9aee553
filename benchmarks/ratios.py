r"""How much faster one configuration is than another over some puzzles, and how sure: geometric-mean ratios
with bootstrap intervals.

* :func:`geometric_interval` -- the per-puzzle ratios are given (one figure a puzzle): the percentile
  bootstrap interval of their geometric mean, the puzzles resampled.
* :func:`reads_interval` -- the interval of any statistic of one configuration's reads of one puzzle, the
  reads resampled (what the next resamples within a puzzle).
* :func:`reads_ratio` -- the reads of both configurations are given, puzzle by puzzle: the geometric mean
  over puzzles of the ratio of a statistic of the reads (TTS99 by default, :func:`tts99_of_reads`; or
  :func:`mean_time_of_reads`), with a two-level (puzzle-cluster) bootstrap: the puzzles resampled, then
  each drawn puzzle's reads of each configuration resampled and the statistic recomputed. On one puzzle
  it is the bootstrap over that puzzle's reads alone; it sees the noise of a few reads a puzzle, which a
  bootstrap of the per-puzzle figures cannot.

A resample in which a configuration has no read at the target gives an infinite ratio (or zero); the
interval then reaches infinity (:func:`~qpicross.experiments.survival.quantile_with_inf`), never a finite
stand-in.

Examples:
    Two streams against one on a puzzle whose times to target are exponential: the wall-time ratio of
    TTS99 is about 2, and 12 reads a configuration give an interval several times wide:

    >>> rng = np.random.default_rng(1)
    >>> one, two = rng.exponential(10.0, 12), rng.exponential(5.0, 12)
    >>> r = reads_ratio([(one, one)], [(two, two)])
    >>> r.low < r.ratio < r.high, r.puzzles
    (True, 1)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.survival import BOOTSTRAP_RESAMPLES, _km_quantiles, _km_tts, quantile_with_inf

__all__ = ["RatioInterval", "geometric_interval", "reads_interval", "reads_ratio", "tts99_of_reads",
           "mean_time_of_reads", "median_time_of_reads"]

#: One configuration's reads of one puzzle: per read, its time to target (``inf``: it never reached it) and
#: how long it ran (its censoring time).
Reads = tuple[Sequence[float], Sequence[float]]


def tts99_of_reads(times: np.ndarray, durations: np.ndarray) -> float:
    """The censored (Kaplan--Meier) TTS99 of some reads: :func:`~qpicross.experiments.survival.survival_tts`'s
    estimate, without its interval.

    >>> tts99_of_reads(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    2.0
    """
    observed = np.isfinite(times)
    return _km_tts(np.where(observed, times, durations), observed, 0.99)[0]


def mean_time_of_reads(times: np.ndarray, durations: np.ndarray) -> float:
    """The mean time to target of some reads, ``inf`` where one never reached it (its time is then unknown).

    >>> mean_time_of_reads(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    1.5
    >>> mean_time_of_reads(np.array([1.0, np.inf]), np.array([1.0, 5.0]))
    inf
    """
    return float(np.mean(times)) if np.isfinite(times).all() else math.inf


def median_time_of_reads(times: np.ndarray, durations: np.ndarray) -> float:
    """The Kaplan--Meier median time to target of some reads (a read that never reached it censored at its
    duration), ``inf`` where fewer than half are known to reach it: the ``ttt_median_s`` of a results row.

    >>> median_time_of_reads(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0]))
    2.0
    >>> median_time_of_reads(np.array([1.0, np.inf, np.inf]), np.array([1.0, 5.0, 5.0]))
    inf
    """
    observed = np.isfinite(times)
    return _km_quantiles(np.where(observed, times, durations), observed, 0.5)[0]


@dataclasses.dataclass(frozen=True)
class RatioInterval:
    """A geometric-mean ratio (first / second) with its bootstrap interval, over ``puzzles`` puzzles."""

    ratio: float
    low: float
    high: float
    puzzles: int

    def text(self) -> str:
        """``ratio× [low, high]``, to three figures.

        >>> RatioInterval(2.5412, 1.1391, math.inf, 1).text()
        '2.54× [1.14, ∞]'
        """
        def fmt(v: float) -> str:
            return "∞" if math.isinf(v) else f"{v:.3g}"

        return f"{fmt(self.ratio)}× [{fmt(self.low)}, {fmt(self.high)}]"


def geometric_interval(ratios: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """The percentile bootstrap interval of the geometric mean of per-puzzle ratios, the puzzles resampled
    (scipy's :func:`~scipy.stats.bootstrap`, 9 999 resamples, a fixed seed: the same figures give the same
    interval); ``None`` for fewer than two puzzles.

    >>> low, high = geometric_interval([0.5, 2.0, 1.0, 1.0])
    >>> 0.5 <= low < 1.0 < high <= 2.0
    True
    """
    if len(ratios) < 2:
        return None
    from scipy import stats

    logs = [math.log(v) for v in ratios]
    if max(logs) - min(logs) < 1e-12:
        return math.exp(logs[0]), math.exp(logs[0])
    found = stats.bootstrap((logs,), np.mean, confidence_level=confidence, n_resamples=9999, method="percentile",
                            random_state=0, vectorized=True)
    return math.exp(found.confidence_interval.low), math.exp(found.confidence_interval.high)


def _log_ratio(a: float, b: float) -> float:
    """``log(a / b)`` of two positive figures either of which may be infinite (``nan`` where both are)."""
    if math.isinf(a) and math.isinf(b):
        return math.nan
    return math.inf if math.isinf(a) or b == 0 else -math.inf if math.isinf(b) or a == 0 else math.log(a / b)


def _cached(statistic: Callable[[np.ndarray, np.ndarray], float]) -> Callable[[np.ndarray, np.ndarray], float]:
    """``statistic`` remembering its value for each multiset of reads (resamples of few reads repeat)."""
    cache: dict[tuple, float] = {}

    def value(times: np.ndarray, durations: np.ndarray) -> float:
        key = tuple(sorted(zip(times.tolist(), durations.tolist())))
        if key not in cache:
            cache[key] = float(statistic(times, durations))
        return cache[key]

    return value


def _resample(times: np.ndarray, durations: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """As many reads drawn with replacement, each with its duration; the reads themselves where ``rng`` is None."""
    if rng is None:
        return times, durations
    pick = rng.integers(times.size, size=times.size)
    return times[pick], durations[pick]


def reads_interval(times: Sequence[float], durations: Sequence[float],
                   statistic: Callable[[np.ndarray, np.ndarray], float] = tts99_of_reads, *, confidence: float = 0.95,
                   n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> tuple[float, float, float]:
    """``(statistic, low, high)`` of one configuration's reads of one puzzle: the percentile bootstrap over the
    reads (with their durations), the resampling of :func:`reads_ratio`; an infinite resample reaches the
    interval's end as infinity. For a figure :func:`~qpicross.experiments.survival.survival_tts` does not give
    an interval of, e.g. a projection to more streams (:func:`~qpicross.experiments.survival.streams_tts`).

    >>> point, low, high = reads_interval([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], mean_time_of_reads)
    >>> point, low <= point <= high
    (2.5, True)
    """
    t, d = np.asarray(times, float), np.asarray(durations, float)
    value = _cached(statistic)
    rng = np.random.default_rng(seed)
    draws = np.array([value(*_resample(t, d, rng)) for _ in range(n_resamples)])
    alpha = (1 - confidence) / 2
    return value(t, d), quantile_with_inf(draws, alpha), quantile_with_inf(draws, 1 - alpha)


def reads_ratio(first: Sequence[Reads], second: Sequence[Reads], *,
                statistic: Callable[[np.ndarray, np.ndarray], float] = tts99_of_reads, confidence: float = 0.95,
                n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> RatioInterval:
    r"""The geometric mean over puzzles of ``statistic(first) / statistic(second)``, with its two-level bootstrap
    interval (see the module docstring).

    ``first[i]`` and ``second[i]`` are the reads of puzzle ``i`` under the two configurations, each a pair
    ``(times to target, durations)`` as :func:`~qpicross.experiments.survival.survival_tts` takes them. Each of
    ``n_resamples`` resamples (a fixed ``seed``) draws as many puzzles with replacement (one puzzle: that
    one), then for each drawn puzzle as many reads of each configuration with replacement, and takes the
    mean of the log ratios; the interval is the percentile interval of those means, mapped back by
    ``exp``. A resample whose two figures are both infinite counts towards both ends (``-inf`` for the low
    end, ``inf`` for the high end): it can only widen the interval.

    Raises:
        ParameterError: No puzzles, or the two sequences of different lengths, or a puzzle without reads.
    """
    if not first or len(first) != len(second):
        raise ParameterError(f"reads_ratio needs the same puzzles for both configurations, got {len(first)} "
                             f"and {len(second)}")
    puzzles = [tuple((np.asarray(t, float), np.asarray(d, float)) for t, d in pair) for pair in zip(first, second)]
    if any(t.size == 0 or t.shape != d.shape for pair in puzzles for t, d in pair):
        raise ParameterError("every puzzle needs reads (times and durations of one length) in both configurations")
    value = _cached(statistic)

    def mean_log(chosen, rng) -> float:
        logs = [_log_ratio(*(value(*_resample(t, d, rng)) for t, d in puzzles[i])) for i in chosen]
        if any(math.isnan(v) for v in logs) or (math.inf in logs and -math.inf in logs):
            return math.nan
        return float(np.mean(logs))

    point = mean_log(range(len(puzzles)), None)
    rng = np.random.default_rng(seed)
    count = len(puzzles)
    draws = np.array([mean_log(rng.integers(count, size=count) if count > 1 else [0], rng)
                      for _ in range(n_resamples)])
    alpha = (1 - confidence) / 2
    low = quantile_with_inf(np.where(np.isnan(draws), -math.inf, draws), alpha)
    high = quantile_with_inf(np.where(np.isnan(draws), math.inf, draws), 1 - alpha)
    ratio = math.nan if math.isnan(point) else math.exp(point)
    return RatioInterval(ratio=ratio, low=math.exp(low), high=math.exp(high), puzzles=count)
