"""Tests for benchmarks.ratios (geometric-mean ratios with bootstrap intervals)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from qpicross.exceptions import ParameterError
from benchmarks.ratios import geometric_interval, mean_time_of_reads, reads_ratio, tts99_of_reads
from qpicross.experiments.survival import survival_tts

RESULTS = Path(__file__).resolve().parents[2] / "results"


def _reads(name: str) -> dict[str, tuple[list[float], list[float]]]:
    rows = json.loads((RESULTS / name).read_text())["results"]
    return {r["puzzle"]: ([float(t) for t in r["time_to_target_s"]], [float(t) for t in r["read_s"]]) for r in rows}


def test_the_ratio_is_that_of_the_censored_estimates_and_its_interval_holds_it():
    a = ([1.0, 2.0, math.inf, 4.0], [1.0, 2.0, 3.0, 4.0])
    b = ([0.5, 1.0, 1.5, 2.0], [0.5, 1.0, 1.5, 2.0])
    r = reads_ratio([a], [b], n_resamples=199)
    assert r.ratio == pytest.approx(survival_tts(*a).tts99_s / survival_tts(*b).tts99_s)
    assert r.low <= r.ratio <= r.high and r.puzzles == 1
    assert reads_ratio([a], [b], n_resamples=199) == r  # a fixed seed
    same = reads_ratio([b, a], [b, a], n_resamples=99)
    assert same.ratio == pytest.approx(1.0) and same.low < 1.0 < same.high  # reads of each side drawn apart


def test_a_resample_without_a_hit_widens_the_interval_to_infinity_not_to_a_stand_in():
    """3 hits in 15 reads on one side: many resamples draw none, so the ratio's high end is infinite."""
    slow = ([1.0] * 3 + [math.inf] * 12, [1.0] * 3 + [2.0] * 12)
    fast = ([0.5] * 10, [0.5] * 10)
    r = reads_ratio([slow], [fast])  # 999 resamples: about 35 without a hit, more than the 25 of the tail
    assert math.isfinite(r.ratio) and r.high == math.inf and 0 < r.low < r.ratio


def test_puzzles_are_resampled_as_clusters():
    """Ten puzzles, one twice as slow under the first configuration and nine equal: the geometric mean is
    2^(1/10), and resampling puzzles puts 1 inside the interval; the statistic can be the mean time."""
    rng = np.random.default_rng(3)
    first, second = [], []
    for i in range(10):
        t = rng.exponential(1.0, 8)
        first.append((t * (2.0 if i == 0 else 1.0), t * (2.0 if i == 0 else 1.0)))
        second.append((t, t))
    r = reads_ratio(first, second, statistic=mean_time_of_reads, n_resamples=199)
    assert r.ratio == pytest.approx(2 ** 0.1) and r.low <= 1.0 <= r.high and r.puzzles == 10
    assert tts99_of_reads(np.array([1.0, 2.0]), np.array([1.0, 2.0])) == 2.0


def test_two_streams_on_taai2011_403_from_the_results_files():
    """The parallel page's figure, recomputed from the reads alone: one stream's wall TTS99 over two streams',
    the ratio of the two files' own TTS99 (written by the bench from the same reads), inside its interval."""
    one, two = _reads("parallel_403_1.json"), _reads("parallel_403_2.json")
    r = reads_ratio([one["taai2011#403"]], [two["taai2011#403"]], n_resamples=299)
    tts = [json.loads((RESULTS / name).read_text())["results"][0]["tts99_s"]
           for name in ("parallel_403_1.json", "parallel_403_2.json")]
    assert r.ratio == pytest.approx(tts[0] / tts[1], rel=1e-9) and r.low < r.ratio < r.high


def test_refusals_and_the_puzzle_only_interval():
    with pytest.raises(ParameterError):
        reads_ratio([], [])
    with pytest.raises(ParameterError):
        reads_ratio([([1.0], [1.0])], [])
    with pytest.raises(ParameterError):
        reads_ratio([([], [])], [([1.0], [1.0])])
    assert geometric_interval([2.0]) is None and geometric_interval([2.0, 2.0]) == pytest.approx((2.0, 2.0))
