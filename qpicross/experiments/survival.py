r"""TTS99 of early-stopping reads whose misses are right-censored: Kaplan--Meier, the optimal cutoff, intervals.

A read stopped by the time budget (or by Ctrl-C) before it reached the target says only that its
time to target is *above* its run time. :func:`survival_tts` treats the reads as survival data
(the estimator and its interval are explained there); :func:`read_durations` gives each read's run
time from a sampler's records; :func:`streams_tts` projects the TTS99 of restart streams raced side
by side. The fixed-length and uncensored estimators are in :mod:`qpicross.experiments.tts`.

Examples:
    >>> r = survival_tts([1.0, 2.0, math.inf], [1.0, 2.0, 5.0])
    >>> r.num_events, r.num_censored, r.tts99_s <= r.tts99_high_s
    (2, 1, True)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.tts import repetitions, wilson_interval
from qpicross.experiments.tts import time_to_target_tts, tts99  # noqa: F401 (the examples compare with them)

__all__ = ["MIN_EVENTS", "BOOTSTRAP_RESAMPLES", "SurvivalTTS", "read_durations", "quantile_with_inf",
           "no_event_lower_bound", "survival_tts", "survival_tts99", "streams_tts"]

MIN_EVENTS = 3
"""Events (reads that reached the target) at or below the optimal cutoff under which a
:class:`SurvivalTTS` is flagged ``few_events``: its cutoff, and so its TTS99, rests on one or two reads."""

BOOTSTRAP_RESAMPLES = 999
"""Resamples of :func:`survival_tts`'s bootstrap interval."""


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


def _censored(times, durations) -> tuple[np.ndarray, np.ndarray]:
    """``(time, observed)`` of each read: its time to target, or its duration where it missed (censored there).

    Raises:
        ParameterError: Lengths differ, no reads, nan, a negative duration, or a hit after its read's end.
    """
    t = np.asarray(times, dtype=float)
    d = np.asarray(durations, dtype=float)
    if t.ndim != 1 or t.shape != d.shape or t.size == 0:
        raise ParameterError(f"times and durations must be non-empty 1-D of one length, got {t.shape} and {d.shape}")
    if np.isnan(t).any() or np.isnan(d).any() or (d < 0).any() or (t < 0).any():
        raise ParameterError("times and durations must be non-negative, without nan")
    observed = np.isfinite(t)
    if (t[observed] > d[observed] * (1 + 1e-9) + 1e-12).any():
        raise ParameterError("a read reached the target after it ended (time above its duration)")
    return np.where(observed, t, d), observed


def survival_tts99(times: Sequence[float] | np.ndarray, durations: Sequence[float] | np.ndarray,
                   target: float = 0.99) -> float:
    """The estimate of :func:`survival_tts` alone, without its interval: for a ratio of many puzzles' TTS99,
    whose interval resamples the puzzles (the repository's ``benchmarks/ratios.py`` does).

    >>> survival_tts99([29.6, 9.5, math.inf], [29.6, 9.5, 21.1]) == survival_tts([29.6, 9.5, math.inf],
    ...                                                                         [29.6, 9.5, 21.1]).tts99_s
    True
    """
    return _km_tts(*_censored(times, durations), target)[0]


def _km_cdf(times: np.ndarray, observed: np.ndarray):
    """scipy's Kaplan--Meier estimate of reaching the target by each time (its ``cdf``: ``evaluate``,
    ``quantiles``, ``probabilities``); ``times`` each read's event or censoring time, None when no read reached it."""
    if not observed.any():
        return None
    from scipy import stats

    return stats.ecdf(stats.CensoredData(uncensored=times[observed], right=times[~observed])).cdf


def _km_quantiles(times: np.ndarray, observed: np.ndarray, *qs: float) -> tuple[float, ...]:
    """For each ``q``, the first time by which the Kaplan--Meier estimate (:func:`_km_cdf`) of reaching the target is
    ``q`` (``inf`` where it never is: fewer reads known to reach it)."""
    cdf = _km_cdf(times, observed)
    if cdf is None:
        return tuple(math.inf for _ in qs)
    reached = [np.flatnonzero(cdf.probabilities >= q - 1e-12) for q in qs]
    return tuple(float(cdf.quantiles[r[0]]) if r.size else math.inf for r in reached)


def _km_tts(times: np.ndarray, observed: np.ndarray, target: float) -> tuple[float, float, float, int]:
    """``(tts, cutoff, p at cutoff, events at or below it)`` from the Kaplan--Meier estimate (:func:`_km_cdf`)."""
    cdf = _km_cdf(times, observed)
    if cdf is None:
        return math.inf, math.inf, 0.0, 0
    events = times[observed]
    cutoffs = np.unique(events)
    p = np.clip(cdf.evaluate(cutoffs), 0.0, 1.0)
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
    p = np.clip(_km_cdf(times, observed).evaluate(cutoffs), 0.0, 1.0)
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

    at, observed = _censored(times, durations)
    tts, cutoff, p, k = _km_tts(at, observed, target)
    median, p99 = _km_quantiles(at, observed, 0.5, 0.99)

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
        low, high = no_event_lower_bound(at, target=target, confidence=confidence), math.inf  # at: every duration
    else:  # resamples never exceed the sample's best cutoff: widen by p's own uncertainty there
        z = float(stats.norm.ppf(0.5 + confidence / 2))
        p_low, p_high = wilson_interval(k, max(k, round(k / p)), z)
        low = min(low, cutoff * repetitions(p_high, target))
        high = max(high, cutoff * repetitions(p_low, target) if p_low > 0 else math.inf,
                   _band_high_end(at, observed, confidence, target))
    return SurvivalTTS(
        tts99_s=tts, tts99_low_s=low, tts99_high_s=high, cutoff_s=cutoff, p_at_cutoff=p, events_at_cutoff=k,
        few_events=k < min_events, num_reads=int(at.size), num_events=int(observed.sum()),
        num_censored=int((~observed).sum()), median_s=median, p99_s=p99,
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
    t = np.asarray(times, dtype=float)
    d = np.asarray(durations, dtype=float)
    observed = np.isfinite(t)
    if not observed.any():
        return math.inf
    at = np.where(observed, t, d)
    cutoffs = np.unique(at[observed])
    p1 = np.clip(_km_cdf(at, observed).evaluate(cutoffs), 0.0, 1.0)
    p = 1.0 - (1.0 - p1) ** int(streams)
    return float(min(tau * repetitions(float(q), target) for tau, q in zip(cutoffs.tolist(), p.tolist())))
