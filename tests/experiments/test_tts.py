"""Tests for qpicross.experiments.tts (fixed-length and optimal-cutoff time to solution)."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy import stats

from qpicross.experiments.tts import TimeToTarget, repetitions, time_to_target_tts, tts99, wilson_interval
from qpicross.experiments.survival import (MIN_EVENTS, no_event_lower_bound, quantile_with_inf, read_durations,
                                          survival_tts)

LN01 = math.log(0.01)


def R(p: float) -> float:
    """Repetitions, computed independently of the module."""
    return max(1.0, LN01 / math.log(1 - p))


def test_repetitions_by_hand():
    assert repetitions(0.5) == pytest.approx(6.643856189774724, rel=1e-14)
    assert repetitions(0.25) == pytest.approx(LN01 / math.log(0.75), rel=1e-14)
    assert repetitions(0.0) == math.inf
    assert repetitions(0.99) == 1.0
    assert repetitions(0.999) == 1.0
    assert repetitions(1.0) == 1.0
    assert repetitions(0.5, target=0.75) == pytest.approx(2.0, rel=1e-14)
    with pytest.raises(ValueError):
        repetitions(1.5)
    with pytest.raises(ValueError):
        repetitions(0.5, target=1.0)


def test_tts99_by_hand():
    assert tts99(0.002, 0.5) == pytest.approx(0.002 * 6.643856189774724, rel=1e-14)
    assert tts99(1.0, 0.01) == pytest.approx(LN01 / math.log(0.99), rel=1e-14)
    assert tts99(0.002, 1.0) == 0.002
    assert tts99(0.002, 0.0) == math.inf
    assert tts99(3.0, 0.995) == 3.0
    for bad in (-0.1, 1.1):
        with pytest.raises(ValueError):
            tts99(1.0, bad)


def test_wilson_interval_by_hand():
    z = 1.959963984540054
    n, k = 10, 5
    centre = (0.5 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.25 / 10 + z * z / 400) / (1 + z * z / 10)
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(centre - half, rel=1e-14)
    assert high == pytest.approx(centre + half, rel=1e-14)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 100)
    assert low == 0.0 and round(high, 4) == 0.037
    assert wilson_interval(7, 7)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_all_reads_hit_optimum_at_last_time():
    # TTS(1)=1*R(.25)=16.008, TTS(2)=2*R(.5)=13.29, TTS(3)=3*R(.75)=9.966, TTS(4)=4.
    assert 1 * R(0.25) == pytest.approx(16.0078, abs=1e-4)
    assert 2 * R(0.5) == pytest.approx(13.2877, abs=1e-4)
    assert 3 * R(0.75) == pytest.approx(9.9658, abs=1e-4)
    r = time_to_target_tts([1.0, 2.0, 3.0, 4.0])
    assert r.tts99_s == 4.0
    assert r.cutoff_s == 4.0
    assert r.p_at_cutoff == 1.0
    assert (r.num_reads, r.num_hits) == (4, 4)
    assert r.mean_s == 2.5
    assert r.p99_s == 4.0
    # Wilson: p_high = 1 -> TTS 4; p_low < 1 -> larger.
    assert r.tts99_low_s == 4.0
    p_low = wilson_interval(4, 4)[0]
    assert r.tts99_high_s == pytest.approx(4.0 * R(p_low), rel=1e-12)
    assert r.tts99_high_s > 4.0


def test_heavy_tail_99_fast_one_slow():
    r = time_to_target_tts([0.01] * 99 + [100.0])
    assert r.mean_s == pytest.approx((99 * 0.01 + 100) / 100, rel=1e-12)
    assert r.mean_s == pytest.approx(1.0099, rel=1e-12)
    assert r.tts99_s == 0.01
    assert r.cutoff_s == 0.01
    assert r.p_at_cutoff == 0.99
    assert r.median_s == 0.01
    assert r.p99_s == 0.01  # exactly 99 % of reads hit by 0.01
    assert r.tts99_s <= r.p99_s


def test_heavy_tail_restart_beats_mean():
    r = time_to_target_tts([1.0] * 90 + [1000.0] * 10)
    assert r.cutoff_s == 1.0
    assert r.p_at_cutoff == 0.9
    assert r.tts99_s == pytest.approx(LN01 / math.log(0.1), rel=1e-14)
    assert r.tts99_s == pytest.approx(2.0, rel=1e-14)
    assert r.mean_s == pytest.approx(100.9, rel=1e-12)
    assert r.p99_s == 1000.0
    assert r.median_s == 1.0
    p_low, p_high = wilson_interval(90, 100)
    assert r.tts99_low_s == pytest.approx(R(p_high), rel=1e-12)
    assert r.tts99_high_s == pytest.approx(R(p_low), rel=1e-12)
    assert r.tts99_low_s < r.tts99_s < r.tts99_high_s


def test_misses():
    r = time_to_target_tts([0.5, math.inf, math.inf, math.inf])
    assert r.num_hits == 1
    assert r.num_reads == 4
    assert r.p_at_cutoff == 0.25
    assert r.cutoff_s == 0.5
    assert r.tts99_s == pytest.approx(0.5 * R(0.25), rel=1e-14)
    assert r.median_s == math.inf
    assert r.p99_s == math.inf
    assert r.mean_s == 0.5


def test_p99_infinite_when_more_than_one_percent_miss():
    assert time_to_target_tts([1.0] * 98 + [math.inf] * 2).p99_s == math.inf
    assert time_to_target_tts([1.0] * 99 + [math.inf]).p99_s == 1.0
    assert time_to_target_tts([1.0] * 2 + [math.inf] * 3).median_s == math.inf


def test_all_misses():
    r = time_to_target_tts([math.inf] * 5)
    assert r.tts99_s == math.inf
    assert r.cutoff_s == math.inf
    assert r.p_at_cutoff == 0.0
    assert r.num_hits == 0
    assert r.tts99_low_s == math.inf and r.tts99_high_s == math.inf
    assert r.median_s == math.inf and r.p99_s == math.inf
    assert math.isnan(r.mean_s)
    d = r.to_dict()
    assert d["tts99_s"] == "inf" and d["cutoff_s"] == "inf" and d["mean_s"] is None
    json.dumps(d, allow_nan=False)


def test_cap_turns_late_hits_into_misses():
    times = [1.0, 2.0, 3.0, 4.0]
    r = time_to_target_tts(times, cap=2.5)
    assert r.num_hits == 2
    assert r.num_reads == 4
    assert r.p99_s == math.inf
    assert r.mean_s == 1.5
    # Candidates: TTS(1) = R(.25), TTS(2) = 2 R(.5); 4.0 is no longer reachable.
    assert r.tts99_s == pytest.approx(min(R(0.25), 2 * R(0.5)), rel=1e-14)
    assert r.cutoff_s == 2.0
    assert r.tts99_s > time_to_target_tts(times).tts99_s
    assert time_to_target_tts(times, cap=4.0).tts99_s == 4.0  # at the cap is a hit
    assert time_to_target_tts(times, cap=0.5).tts99_s == math.inf


def test_to_dict_is_json_ready():
    r = time_to_target_tts([0.5, math.inf])
    d = r.to_dict()
    assert set(d) == {f.name for f in dataclasses.fields(TimeToTarget)}
    assert d["median_s"] == 0.5 and d["p99_s"] == "inf" and d["num_hits"] == 1
    assert json.loads(json.dumps(d, allow_nan=False)) == d


@pytest.mark.parametrize(
    "times, kwargs",
    [
        ([], {}),
        ([1.0, -0.5], {}),
        ([1.0, math.nan], {}),
        ([1.0, -math.inf], {}),
        ([[1.0, 2.0]], {}),
        ([1.0], {"cap": 0.0}),
        ([1.0], {"cap": -1.0}),
        ([1.0], {"cap": math.nan}),
        ([1.0], {"target": 1.0}),
    ],
)
def test_errors(times, kwargs):
    with pytest.raises(ValueError):
        time_to_target_tts(times, **kwargs)


@pytest.mark.parametrize("seed", range(5))
def test_brute_force_grid(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 400))
    times = rng.lognormal(mean=0.0, sigma=1.5, size=n)
    times[rng.random(n) < rng.uniform(0.0, 0.5)] = math.inf
    times[rng.integers(0, n)] = 0.3  # at least one hit
    r = time_to_target_tts(times)
    finite = np.sort(times[np.isfinite(times)])
    grid = np.union1d(np.linspace(0.0, finite.max(), 10001), finite)

    def tts_at(tau: float) -> float:  # same arithmetic as the module, so hit-time values agree exactly
        p = np.count_nonzero(times <= tau) / n
        if p == 0:
            return math.inf
        return tau if p == 1 else tau * max(1.0, math.log1p(-0.99) / math.log1p(-p))

    grid_values = np.array([tts_at(t) for t in grid])
    assert np.all(r.tts99_s <= grid_values + 1e-12)
    hit_values = [tts_at(t) for t in finite]
    assert r.tts99_s == min(hit_values)
    assert r.cutoff_s == finite[int(np.argmin(hit_values))]
    assert r.p_at_cutoff == np.count_nonzero(times <= r.cutoff_s) / n
    assert r.num_hits == finite.size
    assert r.mean_s == pytest.approx(finite.mean(), rel=1e-12)


def test_target_and_tie_keeps_smallest_cutoff():
    # target 0.75: TTS(1) = 1 * ln(0.25)/ln(0.5) = 2 (p = 0.5) ties TTS(2) = 2 (p = 1).
    r = time_to_target_tts([1.0, 1.0, 2.0, 2.0], target=0.75)
    assert r.tts99_s == 2.0
    assert r.cutoff_s == 1.0
    assert r.p_at_cutoff == 0.5


# --- censored reads: survival_tts -------------------------------------------------------------------------------


def test_censored_estimate_is_right_where_the_naive_one_is_biased():
    """Half the reads reach the target at a time uniform on (1, 2) s, the others never: p(tau) = (tau - 1) / 2
    up to 1/2 at tau = 2, where tau R(p(tau)) is least, TTS99 = 2 R(1/2) = 13.29 s. Each read is cut at an
    independent budget uniform on (0, 3) s; a cut read is censored at its budget. Counted as misses, half the
    hits are lost (a read hitting at T survives the cut with probability 1 - T/3): p(2) ~ 1/4, TTS99 ~ 32 s."""
    rng = np.random.default_rng(12)
    n = 20000
    hit = np.where(rng.random(n) < 0.5, rng.uniform(1.0, 2.0, n), math.inf)
    budget = rng.uniform(0.0, 3.0, n)
    times = np.where(hit <= budget, hit, math.inf)
    durations = np.minimum(hit, budget)
    truth = 2 * R(0.5)
    censored = survival_tts(times, durations, n_resamples=99)
    naive = time_to_target_tts(times)
    assert censored.num_censored > 10000 and censored.num_events + censored.num_censored == n
    assert censored.tts99_s == pytest.approx(truth, rel=0.05)
    assert censored.cutoff_s == pytest.approx(2.0, abs=0.05) and censored.p_at_cutoff == pytest.approx(0.5, abs=0.025)
    assert censored.tts99_low_s <= truth <= censored.tts99_high_s
    assert naive.tts99_s > 1.8 * truth and naive.p_at_cutoff < 0.3  # every cut read a miss forever
    assert naive.tts99_s == pytest.approx(2 * R(0.25), rel=0.15)


def test_censored_estimate_by_hand():
    """Hand-computed Kaplan-Meier: events at 1 and 4, a read cut at 2, one at 5 (n = 4).
    p(1) = 1/4; at 4 the reads still running are 2 (the one cut at 2 has left), one hits: S = 3/4 * 1/2,
    p(4) = 5/8. TTS(1) = R(1/4) = 16.0, TTS(4) = 4 R(5/8) = 18.78: the optimum is tau = 1.
    Counted as misses: p(4) = 1/2, TTS(4) = 26.6."""
    times = [1.0, math.inf, 4.0, math.inf]
    r = survival_tts(times, [1.0, 2.0, 4.0, 5.0])
    assert r.cutoff_s == 1.0 and r.p_at_cutoff == pytest.approx(0.25)
    assert r.tts99_s == pytest.approx(R(0.25), rel=1e-12)
    assert r.events_at_cutoff == 1 and r.few_events and MIN_EVENTS > 1
    assert r.median_s == 4.0 and r.p99_s == math.inf  # KM reaches 5/8 at 4 and never 0.99
    # with the read cut at 2 moved past 4, nothing is censored before a hit: the naive estimate again
    same = survival_tts(times, [1.0, 4.5, 4.0, 5.0])
    assert same.tts99_s == pytest.approx(time_to_target_tts(times).tts99_s, rel=1e-12)
    # a cut before the last hit raises p there: 4 reads, hits at 1, 2, 3, one cut at 0.5
    r = survival_tts([1.0, 2.0, 3.0, math.inf], [1.0, 2.0, 3.0, 0.5])
    assert r.p_at_cutoff == 1.0 and r.tts99_s == 3.0
    assert time_to_target_tts([1.0, 2.0, 3.0, math.inf]).tts99_s == pytest.approx(3 * R(0.75))


def test_censored_interval_and_edge_cases():
    r = survival_tts([math.inf, math.inf], [60.0, 60.0])  # no event: "> low end", what two 60 s reads rule out
    assert (r.tts99_s, r.tts99_high_s, r.num_events) == (math.inf, math.inf, 0)
    assert r.tts99_low_s == pytest.approx(60.0 * R(wilson_interval(0, 2)[1]))
    one = survival_tts([2.0], [2.0])  # no bootstrap of one read: the band's Jeffreys bound on 1 in 1, below Wilson's
    jeffreys = stats.beta.ppf(0.025, 1.5, 0.5)
    assert jeffreys < wilson_interval(1, 1)[0]
    assert one.tts99_s == 2.0 and one.tts99_high_s == pytest.approx(2.0 * R(jeffreys)) and one.few_events
    many = survival_tts([1.0] * 20, [1.0] * 20)  # every resample says 1.0; 20 of 20 still allows p = 0.84
    assert (many.tts99_s, many.tts99_low_s, many.few_events) == (1.0, 1.0, False)
    assert many.tts99_high_s == pytest.approx(R(wilson_interval(20, 20)[0]))
    again = survival_tts([0.3, 1.2, 0.8, math.inf, 2.5], [0.3, 1.2, 0.8, 0.9, 2.5])
    assert again == survival_tts([0.3, 1.2, 0.8, math.inf, 2.5], [0.3, 1.2, 0.8, 0.9, 2.5])  # fixed seed
    assert again.tts99_low_s <= again.tts99_s <= again.tts99_high_s
    with pytest.raises(ValueError, match="after it ended"):
        survival_tts([3.0], [2.0])
    with pytest.raises(ValueError, match="one length"):
        survival_tts([1.0, 2.0], [1.0])


def test_read_durations_share_what_the_hits_left():
    assert read_durations([1.0, math.inf, 2.0, math.inf], 9.0).tolist() == [1.0, 3.0, 2.0, 3.0]
    assert read_durations([1.0, 2.0], 9.0).tolist() == [1.0, 2.0]
    assert read_durations([5.0, math.inf], 4.0).tolist() == [5.0, 0.0]  # never negative
    assert read_durations([1.0, math.inf], 7.0, parallel=True).tolist() == [1.0, 7.0]


def test_bootstrap_high_end_is_infinite_where_more_than_its_tail_of_resamples_has_no_event():
    """3 hits at 1 s and 12 reads censored at 2 s: a resample draws none of the 3 hits with probability
    (12/15)^15 = 3.5 %, more than the 2.5 % tail of a 95 % interval, so the high end is inf (the stand-in
    for a resample without an event was once interpolated into a finite 5e98 s)."""
    r = survival_tts([1.0] * 3 + [math.inf] * 12, [1.0] * 3 + [2.0] * 12)
    assert r.tts99_high_s == math.inf
    assert r.tts99_low_s < r.tts99_s < math.inf
    # of 999 resamples, the 97.5 % quantile sits at rank 973.05 (from 0): finite with 24 inf, inf with 25
    quantile = [quantile_with_inf(np.array([1.0] * (999 - n) + [math.inf] * n), 0.975) for n in (24, 25)]
    assert quantile == [1.0, math.inf]
    assert quantile_with_inf([1.0, 3.0, math.inf], 0.25) == pytest.approx(np.quantile([1.0, 3.0, 5.0], 0.25))


def test_no_event_lower_bound_agrees_with_fixed_length_reads_and_takes_the_least_cutoff():
    """Reads of one length give tts99's low end at p's Wilson high end; reads of several lengths the least
    over the lengths of length x R(Wilson high end of 0 in the reads at least that long), computed by hand."""
    assert no_event_lower_bound([3.0] * 7) == pytest.approx(tts99(3.0, wilson_interval(0, 7)[1]))
    by_hand = min(1.0 * R(wilson_interval(0, 4)[1]), 2.0 * R(wilson_interval(0, 3)[1]),
                  60.0 * R(wilson_interval(0, 1)[1]))
    assert no_event_lower_bound([60.0, 2.0, 1.0, 2.0]) == pytest.approx(by_hand)
    r = survival_tts([math.inf] * 4, [60.0, 2.0, 1.0, 2.0])
    assert (r.tts99_s, r.tts99_low_s, r.tts99_high_s) == (math.inf, pytest.approx(by_hand), math.inf)


COVERAGE_DRAWS = 400
COVERAGE_READS = 15


def test_the_95_percent_interval_covers_the_true_tts99_of_censored_exponential_reads():
    """400 draws of 15 reads with exponential times to target (mean 1 s, so TTS99 = ln 100 s at every cutoff),
    each cut by a budget drawn from 2 s to 4 s: the 95 % interval of survival_tts (49 resamples, to keep the
    test short; the high end that decides it is the simultaneous band's, no resample's) holds the true TTS99 in
    90 % to 98 % of the draws. The least of the cutoffs' estimates is biased low (0.42 of the truth at the median):
    without the band the high end fell below the truth in 90 draws (coverage 77.5 %); with it, in 8 (98 %)."""
    true = math.log(100)
    rng = np.random.default_rng(2026)
    missed = 0
    for draw in range(COVERAGE_DRAWS):
        to_target = rng.exponential(1.0, COVERAGE_READS)
        budget = rng.uniform(2.0, 4.0, COVERAGE_READS)
        times = np.where(to_target <= budget, to_target, math.inf)
        r = survival_tts(times, np.minimum(to_target, budget), n_resamples=49, seed=draw)
        missed += not r.tts99_low_s <= true <= r.tts99_high_s
        assert missed <= 0.10 * COVERAGE_DRAWS, f"{missed} misses after {draw + 1} draws"  # settled: stop early
    assert missed >= 0.02 * COVERAGE_DRAWS, f"only {missed} misses of {COVERAGE_DRAWS}: too wide"
