"""The benchmark harness: its arithmetic on fixed inputs, and a tiny end-to-end run (never timed)."""

import json
import math

import pytest

from qpicross import Puzzle
from qpicross import SolverConfig
from qpicross.experiments.bench import (
    BASELINE,
    BenchResult,
    _fill_ratios,
    bench_puzzle,
    read_results,
    run_bench,
    write_csv,
    write_json,
)
from qpicross.experiments.tts import tts99, wilson_interval
from qpicross.cli import main
from qpicross.samplers.blockshift.sampler import default_threads

from conftest import INSTANCES
from puzzles import LETTER_A, LETTER_A_BOARD, LETTER_A_FILE


@pytest.mark.parametrize(
    "t_read, p, expected",
    [
        (1.0, 0.5, math.log(0.01) / math.log(0.5)),  # 6.6439 reads
        (0.01, 0.99, 0.01),  # one read reaches 99 % exactly
        (2.0, 0.1, 2.0 * 43.7090),  # ln(0.01)/ln(0.9) = 43.709
        (0.5, 1.0, 0.5),  # p = 1: one read
    ],
)
def test_tts99_formula(t_read, p, expected):
    assert tts99(t_read, p) == pytest.approx(expected, rel=1e-4)


def test_tts99_infinite_when_nothing_solves():
    assert tts99(0.1, 0.0) == math.inf


def test_tts99_rejects_a_probability_outside_0_1():
    with pytest.raises(ValueError):
        tts99(1.0, 1.5)


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        # Reference values: scipy.stats.binomtest(k, n).proportion_ci(method="wilson").
        (5, 10, 0.236593, 0.763407),
        (1, 20, 0.008881, 0.236131),
        (0, 50, 0.0, 0.071348),
        (50, 50, 0.928652, 1.0),
        (37, 100, 0.281824, 0.467795),
    ],
)
def test_wilson_interval_reference_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-5)
    assert hi == pytest.approx(high, abs=1e-5)


def test_wilson_interval_contains_the_estimate_and_narrows():
    for k, n in [(3, 10), (30, 100), (300, 1000)]:
        lo, hi = wilson_interval(k, n)
        assert lo < k / n < hi
    assert wilson_interval(300, 1000)[1] - wilson_interval(300, 1000)[0] < wilson_interval(3, 10)[1] - wilson_interval(3, 10)[0]


def _result(config, tts, puzzle="x"):
    return BenchResult(puzzle, "", 5, 5, config, "sa", None, "stacking", "", False, "", 1, 1, 0, 0.0, 0.0, 10, 1,
                       1.0, 0.1, 0.1, 0.0, 1.0, tts, tts, tts, 0.0, 0.0, 0.0, {}, False)


def test_ratio_to_baseline_and_none_where_baseline_never_solves():
    results = [_result("baseline", 10.0), _result("fast", 0.1), _result("baseline", math.inf, "y"),
               _result("fast", 1.0, "y")]
    _fill_ratios(results)
    assert results[1].speedup_vs_baseline == pytest.approx(100.0)
    assert results[0].speedup_vs_baseline == pytest.approx(1.0)
    assert results[3].speedup_vs_baseline is None and results[3].baseline_tts99_s == math.inf


def test_bench_puzzle_counts_and_consistency():
    r = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", num_sweeps=300), num_reads=40, seed=3)
    assert r.num_reads == 40 and 0 <= r.num_solved <= 40
    assert r.p == r.num_solved / 40
    assert r.p_low <= r.p <= r.p_high
    assert r.num_variables == 44 and r.num_couplers > 0
    assert sum(r.residual_histogram.values()) == 40
    assert r.best_energy == min(float(e) for e in r.residual_histogram)
    if r.num_solved:
        assert r.best_energy == 0
        assert r.tts99_s - r.presolve_s == pytest.approx(tts99(r.t_read_s, r.p))
    else:
        assert r.tts99_s == math.inf


def test_unsolvable_run_reports_infinite_tts():
    # One sweep at a fixed hot temperature practically never solves the 5x5.
    r = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", name="hot", num_sweeps=1, options={"beta_range": (0.01, 0.01)}),
                     num_reads=5, seed=0)
    assert r.num_solved == 0 and r.tts99_s == math.inf and r.tts99_high_s == math.inf
    assert json.loads(json.dumps(r.to_dict()))["tts99_s"] == "inf"


def test_same_seed_same_result():
    a = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", num_sweeps=100), num_reads=20, seed=11)
    b = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", num_sweeps=100), num_reads=20, seed=11)
    assert (a.num_solved, a.residual_histogram) == (b.num_solved, b.residual_histogram)


def test_run_bench_with_baseline_writes_csv_and_json(tmp_path):
    results = run_bench([LETTER_A], [SolverConfig(sampler="sa", num_sweeps=200)], num_reads=30, seed=1, baseline=True)
    assert [r.config for r in results] == [BASELINE.label, "sa"]
    assert results[0].num_variables == 60  # the published formulation keeps every start
    write_csv(results, tmp_path / "r.csv")
    write_json(results, tmp_path / "r.json")
    for path in (tmp_path / "r.csv", tmp_path / "r.json"):
        rows = read_results(path)
        assert [row["config"] for row in rows] == ["baseline", "sa"]
        assert rows[1]["p"] == pytest.approx(results[1].p)
        assert isinstance(rows[0]["residual_histogram"], dict)


def test_cli_bench_end_to_end(tmp_path, capsys):
    out_csv = tmp_path / "bench.csv"
    out_png = tmp_path / "bench.png"
    code = main(["bench", LETTER_A_FILE, str(INSTANCES), "--reads", "20", "--sweeps", "200", "--sampler", "sa",
                 "--baseline", "--csv", str(out_csv), "--plot", str(out_png), "--seed", "2"])
    captured = capsys.readouterr()
    assert code in (0, 1)
    assert "| 5x5 | 5x5 | baseline |" in captured.out and "TTS99" in captured.out
    rows = read_results(out_csv)
    assert {row["config"] for row in rows} == {"baseline", "sa"}
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_cli_bench_json_to_stdout(capsys):
    code = main(["bench", LETTER_A_FILE, "--reads", "10", "--sweeps", "100", "--json",
                 "--sampler", "shift", "--label", "mine", "--option", "num_replicas=2"])
    data = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert data["meta"]["cpus"] >= 1
    row = data["results"][0]
    threads = default_threads()  # the structured annealer's reads get every core of a one-worker bench
    assert row["num_reads"] == 10 and row["config"] == "mine" and row["options"] == f"num_replicas=2,threads={threads}"
    assert data["summary"]["mine"]["puzzles"] == 1


def test_threaded_samplers_get_the_cores_shared_by_the_workers_by_name_or_instance():
    from qpicross.samplers.blockshift.sampler import BlockShiftSampler

    share = max(1, default_threads() // 2)
    by_name, instance, other = run_bench(
        [LETTER_A], [SolverConfig(sampler="shift", num_sweeps=50, name="name"),
                     SolverConfig(sampler=BlockShiftSampler(), num_sweeps=50, name="instance"),
                     SolverConfig(sampler="sa", num_sweeps=50, name="sa")], num_reads=2, seed=1, workers=2)
    assert by_name.options == instance.options == f"threads={share}"
    assert "threads" not in other.options


@pytest.mark.parametrize("argv, fragment", [
    (["--reads", "0"], "--reads"), (["--sampler", "nope"], "unknown sampler"), (["--sweeps", "a"], "--sweeps"),
    (["--option", "x"], "--option"),
])
def test_cli_bench_bad_arguments_exit_2(capsys, argv, fragment):
    code = main(["bench", LETTER_A_FILE, *argv])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_cli_bench_missing_path_exits_2(capsys, tmp_path):
    code = main(["bench", str(tmp_path / "nope.px")])
    assert code == 2 and "nope.px" in capsys.readouterr().err


def test_plot_of_many_puzzles_is_a_solved_within_curve(tmp_path):
    from qpicross.experiments.bench import plot_results

    results = [_result("fast", 0.01 * (i + 1), puzzle=f"p{i}") for i in range(40)]
    results.append(_result("fast", math.inf, puzzle="hard"))
    fig = plot_results(results, tmp_path / "many.png")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and "41 puzzles" in ax.get_title()
    assert "40/41 solved" in ax.get_legend().get_texts()[0].get_text()
    assert (tmp_path / "many.png").read_bytes()[:4] == b"\x89PNG"


def test_time_limit_stops_after_the_first_read_when_spent():
    r = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", num_sweeps=50), num_reads=20, time_limit=1e-9, seed=0)
    assert r.num_reads == 1 and r.stopped_by_budget
    r = bench_puzzle(LETTER_A, SolverConfig(sampler="sa", num_sweeps=50), num_reads=20, time_limit=1e6, seed=0)
    assert r.num_reads == 20 and not r.stopped_by_budget


def test_tts99_is_never_less_than_one_read():
    # Above p = 0.99 the formula alone would promise less than one read's time.
    assert tts99(0.5, 0.999) == 0.5
    assert tts99(0.5, 0.99) == pytest.approx(0.5)
    assert tts99(0.5, 0.98) > 0.5


def test_bench_refuses_to_overwrite_before_running(tmp_path, capsys):
    out = tmp_path / "r.csv"
    out.write_text("old")
    code = main(["bench", LETTER_A_FILE, "--reads", "2", "--csv", str(out)])
    assert code == 2 and "--force" in capsys.readouterr().err
    assert out.read_text() == "old"
    code = main(["bench", LETTER_A_FILE, "--reads", "2", "--sweeps", "50", "--csv", str(out), "--force"])
    assert code in (0, 1)
    assert "puzzle" in out.read_text().splitlines()[0]


def test_interrupted_bench_keeps_finished_results(tmp_path, capsys, monkeypatch):
    import qpicross.experiments.bench as cli_bench  # the command imports run_bench from here when it runs
    real = bench_puzzle(Puzzle.from_board(["#."]), SolverConfig(sampler="sa", num_sweeps=10), num_reads=2)

    def interrupted(puzzles, configs, progress=None, **kwargs):
        progress(1, 2, real)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_bench, "run_bench", interrupted)
    out = tmp_path / "partial.json"
    code = main(["bench", LETTER_A_FILE, "--json", str(out)])
    err = capsys.readouterr().err
    assert code == 130 and "1 of 2 results finished, written to" in err and str(out) in err
    assert len(json.loads(out.read_text())["results"]) == 1


def test_run_bench_job_seeds_suit_every_sampler(letter_a):
    """Derived job seeds stay below 2**31, which dwave-samplers SA needs (one chunk passes the seed as is)."""
    from qpicross.experiments.bench import run_bench

    results = run_bench([letter_a], [SolverConfig(num_sweeps=50)], num_reads=10, seed=0)
    assert results[0].error == "" and results[0].seed < 2**31


def test_a_read_cut_short_by_ctrl_c_stops_the_bench_instead_of_becoming_a_result():
    """Samplers that catch Ctrl-C return what they have; the bench must not record that as a measurement."""
    import dimod

    class StoppedByCtrlC(dimod.Sampler):
        parameters = {"num_reads": []}
        properties = {}

        def sample(self, bqm, num_reads=1):
            ss = dimod.SampleSet.from_samples_bqm([{v: 0 for v in bqm.variables}], bqm)
            ss.info["interrupted"] = True
            return ss

    puzzle = Puzzle([[1]], [[1]])
    with pytest.raises(KeyboardInterrupt):
        bench_puzzle(puzzle, SolverConfig(sampler=StoppedByCtrlC(), num_reads=1))
    with pytest.raises(KeyboardInterrupt):
        run_bench([puzzle, puzzle], [SolverConfig(sampler=StoppedByCtrlC(), num_reads=1)], check_sizes=False)


# --- the time-to-target path (early-stopping samplers) and num_occurrences ------------------------------------------

import dimod  # noqa: E402

from qpicross import build_formulation  # noqa: E402
from qpicross.experiments.survival import survival_tts  # noqa: E402
from qpicross.experiments.tts import time_to_target_tts  # noqa: E402


class ScriptedEarlyStop(dimod.Sampler):
    """An early-stopping sampler with a script: reads (good or bad), their times to target and run times."""

    parameters = {"num_reads": [], "target_energy": [], "seed": []}
    properties = {}

    def __init__(self, good, bad, reads, read_s=None, core_s=None):
        self.good, self.bad, self.reads, self.read_s, self.core_s = good, bad, reads, read_s, core_s

    def sample(self, bqm, num_reads=1, target_energy=None, seed=None):
        samples = [self.good if t < math.inf else self.bad for t in self.reads]
        ss = dimod.SampleSet.from_samples_bqm(samples, bqm)
        ss.info["time_to_target_s"] = list(self.reads)
        if self.read_s is not None:
            ss.info["read_s"] = list(self.read_s)
        if self.core_s is not None:
            ss.info["core_s"] = list(self.core_s)
        return ss


def _letter_a_samples():
    f = build_formulation(LETTER_A)
    good = f.sample_from_board(LETTER_A_BOARD)
    bad = dict.fromkeys(good, 0)  # every one-hot group empty
    return good, bad


def test_time_to_target_row_treats_a_read_cut_short_as_censored():
    """Hits at 1 s and 4 s, a read stopped at 2 s, one at 5 s (the sampler timed each read): the bench row
    is the hand-computed Kaplan-Meier TTS99 (p(1) = 1/4, p(4) = 5/8: tau* = 1 s, 16.0 s), not the naive
    one that counts the read stopped at 2 s as a miss at 4 s."""
    good, bad = _letter_a_samples()
    stub = ScriptedEarlyStop(good, bad, [1.0, math.inf, 4.0, math.inf], read_s=[1.0, 2.0, 4.0, 5.0])
    row = bench_puzzle(LETTER_A, SolverConfig(sampler=stub, num_reads=4, seed=1))
    assert row.tts_method == "time-to-target" and row.tts_estimator == "kaplan-meier"
    assert (row.num_reads, row.num_solved) == (4, 2)
    assert row.read_s == [1.0, 2.0, 4.0, 5.0] and row.cutoff_s == 1.0 and row.p_at_cutoff == pytest.approx(0.25)
    assert row.tts99_s == pytest.approx(math.log(0.01) / math.log(0.75), rel=1e-12)
    assert row.few_events and row.events_at_cutoff == 1
    assert row.tts99_naive_s == pytest.approx(time_to_target_tts([1.0, math.inf, 4.0, math.inf]).tts99_s)
    assert row.tts99_low_s <= row.tts99_s <= row.tts99_high_s
    data = row.to_dict()
    assert data["time_to_target_s"] == [1.0, "inf", 4.0, "inf"] and data["threads"] == 1
    assert row.core_s is None  # the sampler measured no CPU time: the row says so, the tables count threads x wall


def test_measured_cpu_seconds_go_from_the_sampler_to_the_row_and_the_table():
    """The sampler's per-read CPU seconds (``core_s``) are kept; the tables' core-seconds are the wall TTS99
    times the cores the reads kept busy (CPU over wall seconds), not threads x wall."""
    from benchmarks.report import core_note, cores_used, fmt_core

    good, bad = _letter_a_samples()
    stub = ScriptedEarlyStop(good, bad, [1.0, math.inf, 4.0, math.inf], read_s=[1.0, 2.0, 4.0, 5.0],
                             core_s=[1.5, 3.0, 6.0, 7.5])
    row = bench_puzzle(LETTER_A, SolverConfig(sampler=stub, num_reads=4, seed=1)).to_dict()
    assert row["core_s"] == [1.5, 3.0, 6.0, 7.5] and row["threads"] == 1
    assert cores_used(row) == pytest.approx(1.5) and core_note([row]) == ""
    assert fmt_core(row["tts99_s"], cores_used(row)) == fmt_core(1.5 * row["tts99_s"], 1)


def test_time_to_target_row_derives_the_censoring_time_when_reads_are_not_timed():
    """Without per-read times, a read that never reached the target is censored at what the hits left of
    the sampling time; a read that reached energy 0 with a board the check refuses is no hit."""
    good, bad = _letter_a_samples()
    stub = ScriptedEarlyStop(good, bad, [0.01, 0.02, math.inf])
    row = bench_puzzle(LETTER_A, SolverConfig(sampler=stub, num_reads=3, seed=1))
    assert row.read_s[:2] == [0.01, 0.02]
    assert row.read_s[2] == pytest.approx(max(row.sample_s - 0.03, 0.0))
    expected = survival_tts([0.01, 0.02, math.inf], row.read_s)
    assert row.tts99_s == pytest.approx(expected.tts99_s) and row.cutoff_s == expected.cutoff_s


def test_structured_annealer_row_is_the_survival_estimate_of_its_own_reads(letter_a):
    row = bench_puzzle(letter_a, SolverConfig(sampler="shift", num_reads=6, seed=3, options={"threads": 1}))
    assert row.tts_method == "time-to-target" and row.num_solved == 6
    times = row.time_to_target_s
    assert all(0 < t < math.inf for t in times) and row.read_s == times  # every read stopped at its hit
    expected = survival_tts(times, times)
    assert (row.tts99_s, row.cutoff_s, row.p_at_cutoff) == (expected.tts99_s, expected.cutoff_s, expected.p_at_cutoff)
    assert row.cutoff_s in times and row.threads == 1
    assert len(row.core_s) == 6 and all(c > 0 for c in row.core_s)  # CPU seconds measured read by read
    assert row.tts99_s == pytest.approx(time_to_target_tts(times).tts99_s)  # nothing censored: the naive figure


def test_aggregated_reads_count_by_their_occurrences():
    """Nine good reads and one bad one, aggregated into two rows: p = 0.9 over 10 reads, not 0.5 over 2."""
    good, bad = _letter_a_samples()

    class Aggregated(dimod.Sampler):
        parameters = {"num_reads": []}
        properties = {}

        def sample(self, bqm, num_reads=1):
            return dimod.SampleSet.from_samples_bqm([good, bad], bqm, num_occurrences=[9, 1])

    row = bench_puzzle(LETTER_A, SolverConfig(sampler=Aggregated(), num_reads=10))
    assert (row.num_reads, row.num_solved, row.p) == (10, 9, 0.9)
    assert (row.p_low, row.p_high) == wilson_interval(9, 10)
    assert sum(row.residual_histogram.values()) == 10 and row.residual_histogram["0"] == 9
    assert row.tts99_s == pytest.approx(tts99(row.t_read_s, 0.9))


@pytest.mark.parametrize("sampler, kernels", [("shift", {"bqm", "board"}), ("sa", set())])
def test_the_warm_up_runs_the_kernels_a_picross_model_runs(monkeypatch, sampler, kernels):
    """Compiling (or loading numba's cache) happens before the clock: for the structured annealer that is the board
    and profile chains of a Picross model too, not only the tiny generic model's joint chain, else the first puzzle
    of a bench or a tournament pass is timed with them."""
    from qpicross.experiments import bench
    from qpicross.samplers.blockshift.sampler import BlockShiftSampler

    ran, sample = [], BlockShiftSampler.sample

    def recording(self, bqm, **kwargs):
        sampleset = sample(self, bqm, **kwargs)
        ran.append(sampleset.info["kernel"])
        return sampleset

    monkeypatch.setattr(BlockShiftSampler, "sample", recording)
    monkeypatch.setattr(bench, "_WARM", set())
    bench.warm_up(SolverConfig(sampler=sampler))
    assert set(ran) == kernels
