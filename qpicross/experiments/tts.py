r"""Time-to-solution statistics for annealing runs (Rønnow et al. 2014; Albash & Lidar 2018).

Two kinds of samplers need two estimators.

*Fixed-length reads* (every read runs the same time :math:`t_{read}` and
succeeds with probability :math:`p`): :func:`tts99`,

.. math:: TTS_{99} = t_{read}\,R(p), \qquad
          R(p) = \max\!\Big(1, \frac{\ln(1 - 0.99)}{\ln(1 - p)}\Big).

*Early-stopping reads* (each read stops when it first reaches the target, or
at its cap): :func:`time_to_target_tts`. With :math:`T_i` the time at which
read :math:`i` first hit (:math:`+\infty` for a miss) and the empirical
success probability at cutoff :math:`\tau`,
:math:`p(\tau) = \#\{i : T_i \le \tau\}/n`, restarting reads every
:math:`\tau` gives

.. math:: TTS_{99} = \min_{\tau} \tau\,R\big(p(\tau)\big),

the optimal-cutoff TTS of Rønnow et al. and Albash & Lidar.

The *mean* time of the early-stopping reads,
:math:`\bar T = \frac1n\sum_i T_i = \int_0^\infty (1 - F(t))\,dt`, is **not** a
TTS99: it is the expected time to the first hit of one read, whereas TTS99 is
the time within which the target is reached with 99 % probability, a tail
quantity. No fixed factor converts one into the other: a deterministic hit
time :math:`T \equiv t` gives :math:`TTS_{99} = \bar T = t`; a memoryless
(exponential) one gives :math:`TTS_{99} = \ln(100)\,\bar T \approx 4.6\,\bar T`;
a heavy tail (90 reads at 1 s, 10 at 1000 s) gives :math:`\bar T = 100.9` s
but :math:`TTS_{99} = 2` s (restart every second).

*Censored reads.* A read stopped by the time budget (or by Ctrl-C) before it reached the
target says only that its time to target is *above* its run time: it is right-censored, not a
miss at every cutoff. :func:`time_to_target_tts` counts it as a miss (:math:`T_i = \infty`),
which biases :math:`p(\tau)` low wherever a read was cut before another read's hit time;
:func:`~qpicross.experiments.survival.survival_tts` treats the reads as survival data, estimating :math:`p(\tau)` by
Kaplan--Meier (``scipy.stats.ecdf`` on ``scipy.stats.CensoredData``), minimises
:math:`\tau R(p(\tau))` over the event times within the observed range, and gives a
bootstrap interval (``scipy.stats.bootstrap``, reads resampled with their censoring) widened by a
high end that sees the choice of cutoff (a simultaneous lower band of :math:`p`), and a
flag where the optimal cutoff rests on fewer than
:data:`~qpicross.experiments.survival.MIN_EVENTS` events.

References:
    T. F. Rønnow et al., "Defining and detecting quantum speedup",
    Science 345, 420 (2014).
    T. Albash and D. A. Lidar, "Demonstration of a scaling advantage for a
    quantum annealer over simulated annealing", PRX 8, 031016 (2018).

Examples:
    >>> r = time_to_target_tts([1.0] * 90 + [1000.0] * 10)
    >>> round(r.tts99_s, 12), r.cutoff_s, r.p_at_cutoff, round(r.mean_s, 1), r.p99_s
    (2.0, 1.0, 0.9, 100.9, 1000.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from qpicross.exceptions import ParameterError

__all__ = ["Z95", "TimeToTarget", "repetitions", "time_to_target_tts", "tts99", "wilson_interval"]

Z95 = 1.959963984540054
"""Two-sided 95 % standard-normal quantile."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    r"""Wilson score interval for a binomial proportion.

    .. math:: \frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}

    The low end is exactly 0 when ``successes == 0``, the high end exactly 1
    when ``successes == trials``; ``(0.0, 1.0)`` when ``trials <= 0``.

    Raises:
        ValueError: ``successes`` outside ``[0, trials]``.

    Examples:
        >>> [round(v, 4) for v in wilson_interval(5, 10)]
        [0.2366, 0.7634]
        >>> [round(v, 4) for v in wilson_interval(0, 100)]
        [0.0, 0.037]
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ParameterError(f"successes must be in [0, {trials}], got {successes}")
    n = trials
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def repetitions(p: float, target: float = 0.99) -> float:
    r"""Independent runs needed to succeed with probability ``target``.

    .. math:: R(p) = \max\!\Big(1, \frac{\ln(1-\text{target})}{\ln(1-p)}\Big)

    ``inf`` when ``p == 0``; ``1.0`` when ``p >= target`` (one run suffices).

    Raises:
        ValueError: ``p`` outside ``[0, 1]`` or ``target`` outside ``(0, 1)``.

    Examples:
        >>> round(repetitions(0.5), 6)
        6.643856
        >>> repetitions(0.0), repetitions(0.995), repetitions(1.0)
        (inf, 1.0, 1.0)
    """
    if not 0 <= p <= 1:
        raise ParameterError(f"p must be in [0, 1], got {p}")
    if not 0 < target < 1:
        raise ParameterError(f"target must be in (0, 1), got {target}")
    if p == 0:
        return math.inf
    if p == 1:
        return 1.0
    return max(1.0, math.log1p(-target) / math.log1p(-p))


def tts99(t_read: float, p: float, target: float = 0.99) -> float:
    r"""Time to solution of fixed-length reads: :math:`t_{read}\,R(p)`.

    ``inf`` when ``p == 0``, ``t_read`` when ``p == 1`` (or ``p >= target``).

    Raises:
        ValueError: ``p`` outside ``[0, 1]``.

    Examples:
        >>> round(tts99(0.002, 0.5), 5)
        0.01329
        >>> tts99(0.002, 1.0), tts99(0.002, 0.0)
        (0.002, inf)
        >>> round(tts99(1.0, 0.01), 2)
        458.21
    """
    if not 0 <= p <= 1:
        raise ParameterError(f"p must be in [0, 1], got {p}")
    if p == 0:
        return math.inf
    if p == 1:
        return float(t_read)
    return float(t_read * max(1.0, math.log1p(-target) / math.log1p(-p)))


@dataclasses.dataclass(frozen=True)
class TimeToTarget:
    r"""Optimal-cutoff TTS of early-stopping reads (see :func:`time_to_target_tts`).

    Times are in the units of the input (seconds, or sweeps, ...).

    Attributes:
        tts99_s: :math:`\min_\tau \tau R(p(\tau))`; inf when no read hit.
        cutoff_s: The optimal cutoff :math:`\tau^*` (inf when no read hit).
        p_at_cutoff: :math:`p(\tau^*)` (0.0 when no read hit).
        tts99_low_s: TTS at :math:`\tau^*` with the Wilson *high* end of :math:`p(\tau^*)`.
        tts99_high_s: TTS at :math:`\tau^*` with the Wilson *low* end of :math:`p(\tau^*)`.
        num_reads: Number of reads.
        num_hits: Reads that hit the target (finite time, at most the cap).
        median_s: Median time to target, misses counted as inf.
        p99_s: 99th percentile of the time to target, misses counted as inf.
        mean_s: Mean of the hit times only (nan when none). NOT a TTS.
    """

    tts99_s: float
    cutoff_s: float
    p_at_cutoff: float
    tts99_low_s: float
    tts99_high_s: float
    num_reads: int
    num_hits: int
    median_s: float
    p99_s: float
    mean_s: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields: infinity as ``"inf"``, nan as ``None``.

        Examples:
            >>> time_to_target_tts([math.inf]).to_dict()["tts99_s"]
            'inf'
        """

        def clean(v: Any) -> Any:
            if isinstance(v, float) and math.isnan(v):
                return None
            if isinstance(v, float) and math.isinf(v):
                return "inf" if v > 0 else "-inf"
            return v

        return {k: clean(v) for k, v in dataclasses.asdict(self).items()}


def _quantile(sorted_times: np.ndarray, q: float) -> float:
    """Smallest observed t with (reads <= t) / n >= q (inverted-CDF order statistic)."""
    n = len(sorted_times)
    k = max(1, math.ceil(q * n))
    while k > 1 and (k - 1) / n >= q:  # guard against rounding in q * n
        k -= 1
    while k < n and k / n < q:
        k += 1
    return float(sorted_times[k - 1])


def time_to_target_tts(
    times: Sequence[float] | np.ndarray, *, cap: float | None = None, target: float = 0.99
) -> TimeToTarget:
    r"""TTS99 of early-stopping reads, minimised over the restart cutoff.

    ``times[i]`` is when read ``i`` first reached the target, ``math.inf`` if
    it never did; times above ``cap`` count as misses. Only the observed hit
    times are tried as cutoffs: :math:`p(\tau)` only rises at hit times, so
    between two of them :math:`\tau R(p(\tau))` grows with :math:`\tau`.
    Ties keep the smallest cutoff. The function is unit-agnostic: pass
    sweeps-to-target and every ``*_s`` field is in sweeps.

    The Wilson bounds ignore that :math:`\tau^*` was chosen on the same data,
    so they are somewhat optimistic.

    Raises:
        ValueError: ``times`` empty or not 1-D, a time negative or nan, ``cap``
            not positive, or ``target`` outside ``(0, 1)``.

    Examples:
        >>> r = time_to_target_tts([1.0, 2.0, 3.0, 4.0])
        >>> r.tts99_s, r.cutoff_s, r.p_at_cutoff, r.median_s, r.mean_s
        (4.0, 4.0, 1.0, 2.0, 2.5)
        >>> r = time_to_target_tts([0.5, 5.0, math.inf, math.inf], cap=2.0)
        >>> r.num_hits, r.p_at_cutoff, round(r.tts99_s, 4), r.p99_s
        (1, 0.25, 8.0039, inf)
    """
    if not 0 < target < 1:
        raise ParameterError(f"target must be in (0, 1), got {target}")
    arr = np.asarray(times, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"times must be a non-empty 1-D sequence, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ParameterError("times must not contain nan (use math.inf for a miss)")
    if (arr < 0).any():
        raise ParameterError("times must be non-negative")
    if cap is not None:
        if math.isnan(cap) or cap <= 0:
            raise ParameterError(f"cap must be positive, got {cap}")
        arr = np.where(arr > cap, math.inf, arr)
    n = int(arr.size)
    srt = np.sort(arr)
    hits = srt[np.isfinite(srt)]
    num_hits = int(hits.size)
    median, p99 = _quantile(srt, 0.5), _quantile(srt, 0.99)
    if num_hits == 0:
        inf = math.inf
        return TimeToTarget(inf, inf, 0.0, inf, inf, n, 0, median, p99, math.nan)
    best, tau_best, k_best = math.inf, math.inf, 0
    cutoffs = np.unique(hits)
    counts = np.searchsorted(hits, cutoffs, side="right")
    for tau, k in zip(cutoffs.tolist(), counts.tolist()):
        value = tau * repetitions(k / n, target)
        if value < best:
            best, tau_best, k_best = value, tau, k
    p_low, p_high = wilson_interval(k_best, n)
    return TimeToTarget(
        tts99_s=best,
        cutoff_s=tau_best,
        p_at_cutoff=k_best / n,
        tts99_low_s=tau_best * repetitions(p_high, target),
        tts99_high_s=tau_best * repetitions(p_low, target),
        num_reads=n,
        num_hits=num_hits,
        median_s=median,
        p99_s=p99,
        mean_s=float(hits.mean()),
    )
