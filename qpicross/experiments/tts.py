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
:func:`survival_tts` treats the reads as survival data, estimating :math:`p(\tau)` by
Kaplan--Meier (``scipy.stats.ecdf`` on ``scipy.stats.CensoredData``), minimises
:math:`\tau R(p(\tau))` over the event times within the observed range, and gives a
bootstrap interval (``scipy.stats.bootstrap``, reads resampled with their censoring) widened by a
high end that sees the choice of cutoff (a simultaneous lower band of :math:`p`), and a
flag where the optimal cutoff rests on fewer than :data:`MIN_EVENTS` events.

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

__all__ = ["Z95", "MIN_EVENTS", "BOOTSTRAP_RESAMPLES", "TimeToTarget", "SurvivalTTS", "read_durations", "repetitions",
           "quantile_with_inf", "no_event_lower_bound", "survival_tts", "time_to_target_tts", "tts99",
           "wilson_interval"]

Z95 = 1.959963984540054
"""Two-sided 95 % standard-normal quantile."""

MIN_EVENTS = 3
"""Events (reads that reached the target) at or below the optimal cutoff under which a
:class:`SurvivalTTS` is flagged ``few_events``: its cutoff, and so its TTS99, rests on one or two reads."""

BOOTSTRAP_RESAMPLES = 999
"""Resamples of :func:`survival_tts`'s bootstrap interval."""


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


@dataclasses.dataclass(frozen=True)
class SurvivalTTS:
    r"""Optimal-cutoff TTS of early-stopping reads with censoring (see :func:`survival_tts`).

    Attributes:
        tts99_s: :math:`\min_\tau \tau R(\hat p(\tau))` over the event times, :math:`\hat p` the
            Kaplan--Meier estimate; inf when no read reached the target.
        tts99_low_s: Low end of the bootstrap interval (``confidence``, percentile method); with no event, what
            the reads rule out (:func:`no_event_lower_bound`).
        tts99_high_s: High end: the greatest of the bootstrap's, the Wilson interval's at :math:`\tau^*` and the
            least TTS over a simultaneous lower band of :math:`p` (see :func:`survival_tts`); inf where more than
            the tail share of resamples has no event.
        cutoff_s: The optimal cutoff :math:`\tau^*` (inf when no event).
        p_at_cutoff: :math:`\hat p(\tau^*)` (0.0 when no event).
        events_at_cutoff: Events at or below :math:`\tau^*`.
        few_events: ``events_at_cutoff < min_events``: the cutoff rests on too few reads.
        num_reads: Reads.
        num_events: Reads that reached the target.
        num_censored: Reads stopped before they reached it.
        median_s: Kaplan--Meier median time to target (inf where :math:`\hat p` stays below 1/2).
        p99_s: Kaplan--Meier 99th percentile (inf where :math:`\hat p` stays below 0.99).
    """

    tts99_s: float
    tts99_low_s: float
    tts99_high_s: float
    cutoff_s: float
    p_at_cutoff: float
    events_at_cutoff: int
    few_events: bool
    num_reads: int
    num_events: int
    num_censored: int
    median_s: float
    p99_s: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields: infinity as ``"inf"``."""
        return {k: ("inf" if isinstance(v, float) and math.isinf(v) else v)
                for k, v in dataclasses.asdict(self).items()}


def read_durations(times: Sequence[float] | np.ndarray, sample_s: float, *, parallel: bool = False) -> np.ndarray:
    r"""Each read's run time from its time to target and the run's sampling time.

    A read that reached the target stopped there: its run time is its time to target. A read
    that did not (``inf``) ran until the budget or its own end; the samplers record no per-read
    run time, so it is derived: reads drawn one after another (``parallel=False``) share what is
    left of ``sample_s`` after the hits, equally; reads run side by side (a batched GPU call) each
    ran the whole ``sample_s``. ``sample_s`` also holds the sampler's set-up, so a derived run time
    is an upper bound: a censored read is kept at risk a little longer than it ran, which can only
    lower :math:`\hat p(\tau)`, never raise it.

    Examples:
        >>> read_durations([29.6, 9.5, math.inf], 60.2).round(2).tolist()
        [29.6, 9.5, 21.1]
        >>> read_durations([2.0, math.inf, math.inf], 10.0, parallel=True).tolist()
        [2.0, 10.0, 10.0]
    """
    arr = np.asarray(times, dtype=float)
    hit = np.isfinite(arr)
    misses = int((~hit).sum())
    if misses == 0:
        return arr.copy()
    left = float(sample_s) if parallel else max(float(sample_s) - float(arr[hit].sum()), 0.0) / misses
    return np.where(hit, arr, max(left, float(arr[hit].max()) if parallel and hit.any() else left))


def _km_tts(times: np.ndarray, observed: np.ndarray, target: float) -> tuple[float, float, float, int]:
    """``(tts, cutoff, p at cutoff, events at or below it)`` from scipy's Kaplan--Meier estimate."""
    from scipy import stats

    events = times[observed]
    if events.size == 0:
        return math.inf, math.inf, 0.0, 0
    data = stats.CensoredData(uncensored=events, right=times[~observed])
    cutoffs = np.unique(events)
    p = np.clip(stats.ecdf(data).cdf.evaluate(cutoffs), 0.0, 1.0)
    values = np.array([tau * repetitions(float(q), target) for tau, q in zip(cutoffs.tolist(), p.tolist())])
    best = int(np.argmin(values))  # first of equal values: the smallest cutoff
    return float(values[best]), float(cutoffs[best]), float(p[best]), int(np.searchsorted(np.sort(events), cutoffs[best], side="right"))


def _band_high_end(times: np.ndarray, observed: np.ndarray, confidence: float, target: float) -> float:
    r"""The high end of :func:`survival_tts`'s interval that sees the choice of cutoff: :math:`\min_{\tau}
    \tau R(L(\tau))` over the ``m`` event times, :math:`L` a lower confidence band of :math:`p` holding at all of
    them at once (``confidence``'s one tail, shared by Bonferroni: each bound at :math:`\alpha/m`); Jeffreys
    bounds on :math:`k` events in the effective :math:`k / \hat p(\tau)` reads."""
    from scipy import stats

    events = np.sort(times[observed])
    cutoffs = np.unique(events)
    p = np.clip(stats.ecdf(stats.CensoredData(uncensored=events, right=times[~observed])).cdf.evaluate(cutoffs),
                0.0, 1.0)
    k = np.searchsorted(events, cutoffs, side="right")
    reads = np.maximum(k / p, k)
    low = stats.beta.ppf((1 - confidence) / 2 / cutoffs.size, k + 0.5, reads - k + 0.5)
    return min(tau * repetitions(float(q), target) for tau, q in zip(cutoffs.tolist(), low.tolist()))


def quantile_with_inf(values: Sequence[float] | np.ndarray, q: float) -> float:
    r"""The ``q``-quantile of ``values`` (linear interpolation, as ``numpy.quantile``) where some are infinite.

    Between two order statistics the quantile interpolates; where one of them is infinite it is that
    infinity (no finite number lies a fraction of the way to infinity; ``numpy.quantile`` gives ``nan``
    where both are). So the high end of a percentile bootstrap interval is ``inf`` exactly when more
    than its tail share of resamples (2.5 % for a 95 % interval, up to rounding of the rank) has no
    finite value, and the low end ``-inf`` likewise.

    Examples:
        >>> quantile_with_inf([1.0, 2.0, 3.0], 0.5), quantile_with_inf([1.0, 2.0, math.inf], 0.75)
        (2.0, inf)
        >>> quantile_with_inf([1.0, 2.0, 3.0, math.inf], 0.5), quantile_with_inf([-math.inf, 0.0, 1.0], 0.25)
        (2.5, -inf)
    """
    ordered = np.sort(np.asarray(values, dtype=float))
    position = q * (ordered.size - 1)
    below, above = float(ordered[math.floor(position)]), float(ordered[math.ceil(position)])
    if below == -math.inf:
        return -math.inf
    if above == math.inf and (math.ceil(position) != math.floor(position) or below == math.inf):
        return math.inf
    return float(np.quantile(ordered, q))


def no_event_lower_bound(durations: Sequence[float] | np.ndarray, *, target: float = 0.99,
                         confidence: float = 0.95) -> float:
    r"""The low end of the TTS99 interval of reads none of which reached the target: what they rule out.

    A cutoff :math:`\tau` no longer than a read was passed by the :math:`n(\tau)` reads that ran at least
    :math:`\tau` without a hit, so :math:`p(\tau)` is at most the Wilson high end :math:`p^+` of 0 in
    :math:`n(\tau)`, and restarting every :math:`\tau` takes at least :math:`\tau R(p^+)`. The bound is
    the least of these over the reads' lengths: for reads of one length (fixed-length reads, a time
    budget) exactly the low end that :func:`tts99` gives with the Wilson interval, so both kinds of row
    agree. A cutoff shorter than every read is not tried, as :func:`survival_tts` tries none shorter
    than its first hit: no read can show how often a far shorter restart succeeds.

    Examples:
        One 60 s read allows :math:`p(60) \le 0.79`; 12 reads of 2 s allow :math:`p(2) \le 0.24`:

        >>> round(no_event_lower_bound([60.0]), 1), round(no_event_lower_bound([2.0] * 12), 1)
        (175.2, 33.2)
        >>> no_event_lower_bound([2.0] * 12) == tts99(2.0, wilson_interval(0, 12)[1])
        True
    """
    from scipy import stats

    lengths = np.sort(np.asarray(durations, dtype=float))
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    bounds = [tau * repetitions(wilson_interval(0, int(lengths.size - np.searchsorted(lengths, tau)), z)[1], target)
              for tau in np.unique(lengths[lengths > 0]).tolist()]
    return min(bounds, default=0.0)


def survival_tts(
    times: Sequence[float] | np.ndarray,
    durations: Sequence[float] | np.ndarray,
    *,
    target: float = 0.99,
    min_events: int = MIN_EVENTS,
    confidence: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> SurvivalTTS:
    r"""TTS99 of early-stopping reads whose misses are right-censored at their run time.

    ``times[i]`` is when read ``i`` reached the target (``inf``: it did not), ``durations[i]``
    how long it ran (:func:`read_durations`); a miss is censored at its duration. The success
    probability within :math:`\tau` is the Kaplan--Meier estimate
    :math:`\hat p(\tau) = 1 - \prod_{t_j \le \tau} (1 - d_j / n_j)` (``scipy.stats.ecdf``), with
    :math:`d_j` events at :math:`t_j` among the :math:`n_j` reads still running, and

    .. math:: TTS_{99} = \min_{\tau \in \{t_j\}} \tau\,\frac{\ln(1 - 0.99)}{\ln(1 - \hat p(\tau))}

    (Rønnow et al. 2014), only event times being tried: :math:`\hat p` rises only there, and
    never beyond the longest observed time. Without censoring before the last hit it equals
    :func:`time_to_target_tts`.

    The interval (``confidence``) is the union of three parts:

    * ``scipy.stats.bootstrap``'s percentile interval over reads resampled with their censoring
      (``n_resamples``, fixed ``seed``);
    * the TTS at :math:`\tau^*` over the Wilson interval of :math:`\hat p(\tau^*)` (on the effective
      number of reads, events / :math:`\hat p`), which covers what no resample can show: a resample's
      cutoff is never later than the sample's, so where every read hit, the bootstrap's high end is the
      estimate itself;
    * for the high end, a bound that sees the choice of the cutoff. The estimate is the least of
      :math:`m` noisy values :math:`\tau R(\hat p(\tau))`, so it is biased low: for memoryless reads
      every cutoff has the same true TTS99 and the least estimate falls far below it (15 exponential
      reads: 0.42 of it at the median), and neither the bootstrap (each resample takes its own least
      value in the same way) nor an interval at :math:`\tau^*` alone sees that; without this part the
      interval held the true TTS99 of such reads in only 77.5 % of draws, every miss a high end below
      it. If a lower band :math:`L(\tau) \le p(\tau)` holds at every event time at once, then
      :math:`\tau R(L(\tau)) \ge \tau R(p(\tau)) \ge TTS_{99}` at each, so
      :math:`\min_\tau \tau R(L(\tau))` is a high end whichever cutoff the data favour. :math:`L` is
      Bonferroni's band: at each of the :math:`m` event times, the one-sided Jeffreys bound (the
      :math:`\alpha/m` quantile of :math:`\mathrm{Beta}(k + 1/2, n - k + 1/2)`, :math:`\alpha` the
      interval's high tail) on the :math:`k` events in the effective :math:`n = k/\hat p(\tau)` reads
      (exactly the binomial without censoring before :math:`\tau`). Jeffreys rather than Wilson: at
      these small counts and far tails Wilson's low end lies above :math:`p` far more often than
      :math:`\alpha/m` (2 hits in 15 reads, :math:`\alpha/m = 0.0017`: 4.2 % of the time, Jeffreys' 0.8 %),
      and the band with it missed in 13.5 % of draws; Clopper--Pearson's, exact but conservative, added
      to Bonferroni's conservatism (the bounds of one curve are strongly correlated), made the interval
      hold the truth in 99 % of draws.

    Simulated 15 reads with exponential times to target, cut by budgets of 2 s to 4 s
    (``tests/experiments/test_tts.py``): the interval holds the true TTS99 in 98 % of 400 draws (low
    end always below it); its high end is 2.0 times the truth at the median (1.4 without the band).
    A fast mode with a slow tail (60 % of reads exponential with mean 0.5 s, 40 % mean 20 s, budgets of
    5 s to 30 s): 98.5 % of 200 draws, the high end 2.8 times the truth at the median (1.9 without the band). One read gives no bootstrap, only the other two parts. Where no read reached
    the target the estimate and the high end are ``inf`` and the low end is what the reads rule out,
    :func:`no_event_lower_bound`: such a row reads "> low end", never a certain ∞.

    Raises:
        ValueError: Lengths differ, no reads, nan, a negative duration, or a hit after its read's end.

    Examples:
        Two hits, at 9.5 s and 29.6 s, and a read cut by the budget at 21.1 s: counted as a
        miss, :math:`p(29.6) = 2/3`; censored, the only read still running at 29.6 s hits, so
        :math:`\hat p(29.6) = 1`:

        >>> naive = time_to_target_tts([29.6, 9.5, math.inf])
        >>> r = survival_tts([29.6, 9.5, math.inf], [29.6, 9.5, 21.1])
        >>> round(naive.tts99_s, 1), r.tts99_s, r.p_at_cutoff, r.events_at_cutoff, r.few_events
        (107.9, 29.6, 1.0, 2, True)
    """
    from scipy import stats

    t = np.asarray(times, dtype=float)
    d = np.asarray(durations, dtype=float)
    if t.ndim != 1 or t.shape != d.shape or t.size == 0:
        raise ParameterError(f"times and durations must be non-empty 1-D of one length, got {t.shape} and {d.shape}")
    if np.isnan(t).any() or np.isnan(d).any() or (d < 0).any() or (t < 0).any():
        raise ParameterError("times and durations must be non-negative, without nan")
    observed = np.isfinite(t)
    if (t[observed] > d[observed] * (1 + 1e-9) + 1e-12).any():
        raise ParameterError("a read reached the target after it ended (time above its duration)")
    at = np.where(observed, t, d)
    tts, cutoff, p, k = _km_tts(at, observed, target)
    sf = stats.ecdf(stats.CensoredData(uncensored=at[observed], right=at[~observed])).cdf if observed.any() else None

    def quantile(q: float) -> float:
        if sf is None:
            return math.inf
        reached = np.flatnonzero(sf.probabilities >= q - 1e-12)
        return float(sf.quantiles[reached[0]]) if reached.size else math.inf

    low, high = tts, tts
    if at.size > 1 and observed.any():
        cache: dict[tuple, float] = {}
        huge = 1e100  # scipy's percentiles of inf give nan: a stand-in (its square still a float), mapped back to inf

        def statistic(x, o):  # a resample of (time, observed) pairs; few distinct ones with few reads
            key = tuple(sorted(zip(x.tolist(), o.tolist())))
            if key not in cache:
                cache[key] = min(_km_tts(np.asarray(x, float), np.asarray(o, bool), target)[0], huge)
            return cache[key]

        res = stats.bootstrap((at, observed), statistic, paired=True, vectorized=False, n_resamples=n_resamples,
                              confidence_level=confidence, method="percentile", rng=np.random.default_rng(seed))
        resampled = np.where(res.bootstrap_distribution >= huge, math.inf, res.bootstrap_distribution)
        alpha = (1 - confidence) / 2  # the tails, as scipy's percentile interval cuts them
        low = min(quantile_with_inf(resampled, alpha), tts)
        high = max(quantile_with_inf(resampled, 1 - alpha), tts)
    if not observed.any():
        low, high = no_event_lower_bound(d, target=target, confidence=confidence), math.inf
    else:  # resamples never exceed the sample's best cutoff: widen by p's own uncertainty there
        z = float(stats.norm.ppf(0.5 + confidence / 2))
        p_low, p_high = wilson_interval(k, max(k, round(k / p)), z)
        low = min(low, cutoff * repetitions(p_high, target))
        high = max(high, cutoff * repetitions(p_low, target) if p_low > 0 else math.inf,
                   _band_high_end(at, observed, confidence, target))
    return SurvivalTTS(
        tts99_s=tts, tts99_low_s=low, tts99_high_s=high, cutoff_s=cutoff, p_at_cutoff=p, events_at_cutoff=k,
        few_events=k < min_events, num_reads=int(t.size), num_events=int(observed.sum()),
        num_censored=int((~observed).sum()), median_s=quantile(0.5), p99_s=quantile(0.99),
    )


def streams_tts(times: Sequence[float] | np.ndarray, durations: Sequence[float] | np.ndarray, streams: int,
                target: float = 0.99) -> float:
    r"""TTS99 in wall seconds of ``streams`` independent restart streams raced side by side, projected from
    reads of one stream (``times``, ``durations`` as for :func:`survival_tts`).

    The race stops at its first stream's hit, so within :math:`\tau` it succeeds with
    :math:`p_N(\tau) = 1 - (1 - \hat p_1(\tau))^N`, :math:`\hat p_1` the Kaplan--Meier estimate of one
    stream, and :math:`TTS_{99}(N) = \min_\tau \tau R(p_N(\tau))` over the observed event times. It
    assumes streams that do not slow each other down (one core each); its core-seconds are ``N`` times it.
    One stream gives :func:`survival_tts`'s estimate.

    Examples:
        Exponential times to target (mean 10 s) make TTS99 fall as ``1 / N`` until one cutoff is
        short enough:

        >>> rng = np.random.default_rng(0)
        >>> t = rng.exponential(10.0, 4000)
        >>> one, four = streams_tts(t, t, 1), streams_tts(t, t, 4)
        >>> round(one / four, 1)
        4.0
        >>> streams_tts([math.inf], [5.0], 64)
        inf
    """
    from scipy import stats

    t = np.asarray(times, dtype=float)
    d = np.asarray(durations, dtype=float)
    observed = np.isfinite(t)
    if not observed.any():
        return math.inf
    at = np.where(observed, t, d)
    cutoffs = np.unique(at[observed])
    p1 = np.clip(stats.ecdf(stats.CensoredData(uncensored=at[observed], right=at[~observed])).cdf.evaluate(cutoffs),
                 0.0, 1.0)
    p = 1.0 - (1.0 - p1) ** int(streams)
    return float(min(tau * repetitions(float(q), target) for tau, q in zip(cutoffs.tolist(), p.tolist())))
