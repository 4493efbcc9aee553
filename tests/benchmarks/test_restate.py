"""Results files restated with the censored estimator: the committed files are, and restating is a fixed point."""

import json
import math

import pytest

from benchmarks import report
from benchmarks.restate import restate_file, restate_row
from qpicross.experiments.tts import time_to_target_tts
from qpicross.experiments.survival import survival_tts

RESULTS = report.ROOT / "results"


def _rows(name):
    return json.loads((RESULTS / name).read_text())["results"]


def test_every_committed_time_to_target_row_is_restated():
    for path in sorted(RESULTS.glob("*.json")):
        for row in json.loads(path.read_text()).get("results", []):
            if row.get("tts_method") == "time-to-target" and int(row.get("num_variables") or 0):
                assert row["tts_estimator"] == "kaplan-meier", (path.name, row["puzzle"])
                assert len(row["read_s"]) == len(row["time_to_target_s"]) == row["num_reads"]
            if "tts99_s" in row:
                assert "threads" in row, (path.name, row["puzzle"])


@pytest.mark.parametrize("name", ["tail_default.json", "bench_tournament_retry.json"])
def test_restating_the_committed_rows_again_changes_nothing(name):
    """... but the low end of a row no read of which reached the target, written as inf before that low end
    was kept: restated, it is the one the tables compute from the row's reads (report.low_end)."""
    for row in _rows(name):
        again = restate_row(row)
        if row["tts99_s"] == "inf" and row["tts99_low_s"] == "inf":
            assert again.pop("tts99_low_s") == pytest.approx(report.low_end(row)) and math.isfinite(report.low_end(row))
            row = {k: v for k, v in row.items() if k != "tts99_low_s"}
        assert again == row


def test_the_tail_row_that_moved_most_is_the_survival_estimate_of_its_reads():
    """taai2011 #549: a read solved it at 52.4 s, the other was cut by the budget after 8 s. Counted as a miss,
    p(52.4 s) = 1/2 and TTS99 = 348 s; censored, the only read still running at 52.4 s hit it: 52.4 s."""
    row = next(r for r in _rows("tail_default.json") if r["puzzle"] == "taai2011#549")
    times = [math.inf if t == "inf" else t for t in row["time_to_target_s"]]
    assert times[1] == math.inf and row["read_s"][1] == pytest.approx(row["sample_s"] - times[0])
    assert row["read_s"][1] < times[0]
    assert row["tts99_s"] == survival_tts(times, row["read_s"]).tts99_s == times[0]
    assert row["tts99_naive_s"] == pytest.approx(time_to_target_tts(times).tts99_s) and row["tts99_naive_s"] > 300
    assert row["few_events"] and row["events_at_cutoff"] == 1


def test_a_row_whose_figure_does_not_follow_from_its_times_is_refused():
    row = {"puzzle": "x", "tts_method": "time-to-target", "num_variables": 5, "presolve_s": 0.0, "sample_s": 3.0,
           "time_to_target_s": [1.0, 2.0], "tts99_s": 1.5}
    with pytest.raises(ValueError, match="is not the 2.0 its per-read times give"):
        restate_row(row)


def test_restate_file_rewrites_rows_summaries_and_meta(tmp_path):
    row = {"puzzle": "p", "source": "s", "rows": 5, "cols": 5, "config": "shift", "sampler": "shift",
           "num_sweeps": None, "bounds": "stacking", "weights": "", "presolve": False, "options": "threads=2",
           "num_variables": 44, "num_couplers": 1, "num_fixed": 0, "presolve_s": 0.0, "build_s": 0.0,
           "num_reads": 4, "num_solved": 2, "sample_s": 12.0, "t_read_s": 3.0, "p": 0.5, "p_low": 0.15,
           "p_high": 0.85, "tts99_s": time_to_target_tts([1.0, math.inf, 4.0, math.inf]).tts99_s,
           "tts99_low_s": 1.0, "tts99_high_s": 99.0, "best_energy": 0.0, "residual_mean": 1.0,
           "residual_median": 1.0, "residual_histogram": {"0": 2, "2": 2}, "stopped_by_budget": True,
           "tts_method": "time-to-target", "time_to_target_s": [1.0, "inf", 4.0, "inf"]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"meta": {"commit": "abc"}, "summary": {}, "results": [row]}))
    assert restate_file(path) == 1
    data = json.loads(path.read_text())
    new = data["results"][0]
    # the misses share the 7 s the hits left: censored at 3.5 s, before the hit at 4 s
    assert new["read_s"] == [1.0, 3.5, 4.0, 3.5] and new["threads"] == 2
    assert new["tts99_s"] == survival_tts([1.0, math.inf, 4.0, math.inf], [1.0, 3.5, 4.0, 3.5]).tts99_s
    assert data["summary"]["shift"]["median_tts99_s"] == new["tts99_s"]
    assert data["meta"]["restated"]["estimator"] == "kaplan-meier" and data["meta"]["commit"] == "abc"
    before = path.read_text()
    assert restate_file(path) == 0 and path.read_text() == before
