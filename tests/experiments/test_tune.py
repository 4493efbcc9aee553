"""Penalty-weight sweeps: grid parsing, one formulation per sweep, local and Dask runs, the CLI."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

import qpicross.experiments.tune as tune_module
from conftest import INSTANCES
from qpicross import PenaltyWeights, build_formulation, load_puzzle
from qpicross.cli import main
from qpicross.experiments.tune import (
    TuneInterrupted,
    WeightRange,
    grid_points,
    parse_grid,
    random_points,
    summarize,
    plot_tuning,
    tune,
)
from puzzles import LETTER_A_FILE

SMILE7 = INSTANCES / "smile7.px"
# Dropping the board-matching term lets rows and columns disagree: the row board
# then almost never satisfies the column clues. match=0 vs match=1 is a sweep
# whose answer is known without trusting the code under test.
MATCH_OFF_ON = "match=0:1:2"


def test_parse_grid_ranges_and_fixed_values():
    ranges = parse_grid("one_hot=0.5:4:8, match=2")
    assert ranges == [WeightRange("one_hot", 0.5, 4.0, 8), WeightRange("match", 2.0, 2.0, 1)]
    assert ranges[0].values().tolist() == pytest.approx(np.linspace(0.5, 4, 8).tolist())


@pytest.mark.parametrize("text, message", [
    ("bogus=1:2:3", "unknown weight"),
    ("match=a:2:3", "must be numbers"),
    ("match=1:2", "NAME=LOW:HIGH:N"),
    ("match=2:1:3", "LOW <= HIGH"),
    ("match=1:2:1", "N >= 2"),
    ("match=1:2:2,match=3", "twice"),
    ("", "empty grid"),
])
def test_parse_grid_rejects(text, message):
    with pytest.raises(ValueError, match=message):
        parse_grid(text)


def test_grid_points_are_the_cartesian_product():
    points = grid_points(parse_grid("one_hot=1:4:3,match=0.5:2:3"), log=True)
    assert len(points) == 9
    assert sorted({p.one_hot for p in points}) == pytest.approx([1, 2, 4])
    assert sorted({p.match for p in points}) == pytest.approx([0.5, 1, 2])
    assert {p.order for p in points} == {1.0} and {p.at_most_one for p in points} == {1.0}
    with pytest.raises(ValueError, match="LOW > 0"):
        grid_points(parse_grid("match=0:1:3"), log=True)


def test_random_points_stay_in_the_box_and_repeat_with_the_seed():
    ranges = parse_grid("one_hot=0.1:10:2,order=3")
    points = random_points(ranges, 200, log=True, seed=5)
    values = np.array([p.one_hot for p in points])
    assert values.min() >= 0.1 and values.max() <= 10 and {p.order for p in points} == {3.0}
    # Log-uniform: about half the draws fall below the geometric midpoint 1.
    assert 0.35 < np.mean(values < 1.0) < 0.65
    assert random_points(ranges, 5, log=True, seed=5) == points[:5]


def test_one_formulation_serves_every_point(letter_a, monkeypatch):
    built = []
    real_build = tune_module.build_formulation
    def counting_build(*args, **kwargs):
        built.append(1)
        return real_build(*args, **kwargs)

    monkeypatch.setattr(tune_module, "build_formulation", counting_build)
    points = grid_points(parse_grid("one_hot=1:2:2,match=1:2:2"))
    result = tune(letter_a, points, num_reads=10, seeds=2, workers=1)
    assert len(built) == 1 and len(result.runs) == 8
    # A pre-built formulation is used as is.
    formulation = real_build(letter_a)
    tune(formulation, points[:1], num_reads=10, workers=1)
    assert len(built) == 1


def test_sweep_ranks_a_broken_penalty_last(letter_a):
    points = grid_points(parse_grid(MATCH_OFF_ON))
    result = tune(letter_a, points, num_reads=40, seeds=2, workers=1, seed=3)
    off, on = result.records
    assert off["match"] == 0 and on["match"] == 1
    assert on["num_reads"] == 80 and on["successes"] > 0
    assert off["success_probability"] < on["success_probability"]
    assert result.best["match"] == 1
    for r in result.records:
        assert r["p_low"] <= r["success_probability"] <= r["p_high"]
        assert r["tts99_low_s"] <= r["tts99_s"] <= r["tts99_high_s"]
    if off["successes"] == 0:
        assert math.isinf(off["tts99_s"]) and off["p_low"] == 0.0


def test_summarize_pools_seeds_and_drops_unfinished_points():
    points = [PenaltyWeights(), PenaltyWeights(match=2)]
    runs = [
        {"point": 0, "successes": 3, "num_reads": 10, "sample_s": 0.1, "min_energy": 0.0},
        {"point": 0, "successes": 5, "num_reads": 10, "sample_s": 0.3, "min_energy": 1.0},
        {"point": 1, "successes": 9, "num_reads": 10, "sample_s": 0.1, "min_energy": 0.0},
    ]
    (record,) = summarize(points, runs, seeds=2)
    assert record["point"] == 0 and record["successes"] == 8 and record["num_reads"] == 20
    assert record["success_probability"] == 0.4
    assert record["time_per_read_s"] == pytest.approx(0.02)
    assert record["tts99_s"] == pytest.approx(0.02 * math.log(0.01) / math.log(0.6))


def test_local_processes_give_the_serial_answer(letter_a):
    puzzles = [letter_a, load_puzzle(SMILE7)]
    points = grid_points(parse_grid(MATCH_OFF_ON))
    serial = tune(puzzles, points, num_reads=20, seeds=2, workers=1)
    parallel = tune(puzzles, points, num_reads=20, seeds=2, workers=2)
    assert [r["successes"] for r in parallel.records] == [r["successes"] for r in serial.records]
    assert len(parallel.records) == 4


def test_several_puzzles_are_summarised_per_point(letter_a):
    points = grid_points(parse_grid(MATCH_OFF_ON))
    result = tune([letter_a, load_puzzle(SMILE7)], points, num_reads=30, workers=1, seed=1)
    assert result.puzzles == ["5x5", "smile7"]
    assert [(r["puzzle"], r["match"]) for r in result.records] == [
        ("5x5", 0.0), ("5x5", 1.0), ("smile7", 0.0), ("smile7", 1.0)]
    off, on = result.summary
    assert on["puzzles"] == 2 and on["puzzles_solved"] == 2 and off["puzzles_solved"] < 2
    per_puzzle = [r["success_probability"] for r in result.records if r["match"] == 1]
    assert on["success_probability"] == pytest.approx(np.mean(per_puzzle))
    assert on["min_success_probability"] == min(per_puzzle)
    assert result.best["match"] == 1


def test_ctrl_c_keeps_points_finished_on_every_puzzle(letter_a):
    def stop_after_three(done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(TuneInterrupted) as caught:
        tune([letter_a, load_puzzle(SMILE7)], grid_points(parse_grid("match=0.5:2:3")), num_reads=10,
             workers=1, progress=stop_after_three)
    partial = caught.value.result
    # Point 0 ran on both puzzles, point 1 only on the first.
    assert [(r["puzzle"], r["point"]) for r in partial.records] == [("5x5", 0), ("5x5", 1), ("smile7", 0)]
    assert [r["point"] for r in partial.summary] == [0]


def test_ctrl_c_inside_a_read_stops_the_sweep(letter_a):
    """A sampler that stops its read at Ctrl-C returns what it has: the sweep must stop there, not go on."""
    import dimod

    from qpicross.pipeline.config import SolverConfig

    class StoppedInItsSecondCall(dimod.Sampler):
        parameters = {"num_reads": []}
        properties = {}
        calls = 0

        def sample(self, bqm, num_reads=1, **kwargs):
            StoppedInItsSecondCall.calls += 1
            sampleset = dimod.SampleSet.from_samples_bqm(
                (np.zeros((num_reads, bqm.num_variables), np.int8), list(bqm.variables)), bqm)
            sampleset.info["interrupted"] = StoppedInItsSecondCall.calls == 2
            return sampleset

    with pytest.raises(TuneInterrupted) as caught:
        tune(letter_a, grid_points(parse_grid("match=0.5:2:4")), config=SolverConfig(sampler=StoppedInItsSecondCall()),
             num_reads=3, workers=1)
    assert StoppedInItsSecondCall.calls == 2 and [r["point"] for r in caught.value.result.records] == [0]


def test_dask_local_cluster_gives_the_serial_answer(letter_a):
    distributed = pytest.importorskip("distributed")
    puzzles = [letter_a, load_puzzle(SMILE7)]
    points = grid_points(parse_grid(MATCH_OFF_ON))
    serial = tune(puzzles, points, num_reads=20, seeds=2, workers=1)
    # Worker processes: the formulations and the tasks travel pickled, as on a real cluster.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        on_dask = tune(puzzles, points, num_reads=20, seeds=2, scheduler=cluster.scheduler_address)
    assert [r["successes"] for r in on_dask.records] == [r["successes"] for r in serial.records]
    assert len(on_dask.runs) == 8


def test_ctrl_c_keeps_finished_points(letter_a):
    points = grid_points(parse_grid("match=0.5:2:4"))

    def stop_after_five(done, total):
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(TuneInterrupted) as caught:
        tune(letter_a, points, num_reads=10, seeds=2, workers=1, progress=stop_after_five)
    partial = caught.value.result
    # Runs go point by point: points 0 and 1 are complete, point 2 has one of its two seeds.
    assert partial.interrupted and len(partial.runs) == 5
    assert [r["point"] for r in partial.records] == [0, 1]


def test_plot_tuning_draws_a_heat_map(letter_a):
    formulation = build_formulation(letter_a)
    result = tune(formulation, grid_points(parse_grid("one_hot=1:2:2,match=0:1:2")), num_reads=10, workers=1)
    fig = plot_tuning(result)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "one_hot weight" and ax.get_ylabel() == "match weight"
    assert ax.images[0].get_array().shape == (2, 2)


def test_cli_tune_writes_csv_plot_and_json(tmp_path, capsys):
    out_csv, out_png = tmp_path / "sweep.csv", tmp_path / "sweep.png"
    code = main(["tune", LETTER_A_FILE, "--grid", MATCH_OFF_ON, "--reads", "20", "--workers", "1",
                 "--csv", str(out_csv), "--plot", str(out_png), "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["best"]["match"] == 1 and report["finished_points"] == 2
    with open(out_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [float(r["match"]) for r in rows] == [0.0, 1.0]
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_tune_text_report_names_the_best_point(capsys):
    assert main(["tune", LETTER_A_FILE, "--grid", MATCH_OFF_ON, "--reads", "20", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "best: " in out and "match=1" in out.splitlines()[-1] and "Wilson 95 %" in out


def test_cli_tune_on_a_dask_cluster(capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code = main(["tune", LETTER_A_FILE, "--grid", MATCH_OFF_ON, "--reads", "20", "--json",
                     "--scheduler", cluster.scheduler_address])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["best"]["match"] == 1


@pytest.mark.parametrize("argv, message", [
    (["--grid", "nope=1:2:2"], "--grid: unknown weight"),
    (["--grid", "match=1:2:2", "--random", "0"], "--random"),
    (["--grid", "match=1:2:2", "--reads", "0"], "--reads must be at least 1"),
])
def test_cli_tune_bad_arguments_exit_2(argv, message, capsys):
    assert main(["tune", LETTER_A_FILE, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qpicross: error: ") and message in err and len(err.strip().splitlines()) == 1


def test_cli_ctrl_c_writes_the_finished_points(tmp_path, monkeypatch, capsys):
    import qpicross.cli.tune as cli_tune

    class StopAfterTwo:
        def __init__(self, label):
            pass

        def __call__(self, done, total):
            if done == 2:
                raise KeyboardInterrupt

    monkeypatch.setattr(cli_tune, "Progress", StopAfterTwo)
    monkeypatch.chdir(tmp_path)
    code = main(["tune", LETTER_A_FILE, "--grid", "match=0.5:2:3", "--reads", "10", "--seeds", "1", "--workers", "1"])
    assert code == 130
    err = capsys.readouterr().err
    written = tmp_path / "tune-5x5-partial.csv"
    assert "3 of 3 points" not in err and "2 of 3 points finished" in err and str(written.name) in err
    with open(written, newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 2


def test_cli_tune_refuses_to_overwrite_before_running(tmp_path, capsys):
    existing = tmp_path / "old.csv"
    existing.write_text("keep me\n")
    argv = ["tune", LETTER_A_FILE, "--grid", MATCH_OFF_ON, "--reads", "10", "--workers", "1", "--csv", str(existing)]
    assert main(argv) == 2
    assert "--force" in capsys.readouterr().err and existing.read_text() == "keep me\n"
    assert main([*argv, "--force"]) == 0
    assert existing.read_text().startswith("puzzle,point,one_hot,")


def test_presolve_sweeps_the_smaller_model(capsys):
    smile = str(INSTANCES / "smile7.px")
    assert main(["tune", smile, "--grid", "match=1:2:2", "--reads", "10", "--workers", "1", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)["num_variables"]
    assert main(["tune", smile, "--grid", "match=1:2:2", "--reads", "10", "--workers", "1", "--json",
                 "--presolve"]) == 0
    presolved = json.loads(capsys.readouterr().out)["num_variables"]
    assert 0 < presolved < plain
    # The 5x5 "A" is settled entirely by line logic: nothing is left to tune (exit 2, one line).
    assert main(["tune", LETTER_A_FILE, "--grid", "match=1:2:2", "--workers", "1", "--presolve"]) == 2
    assert "settles every cell" in capsys.readouterr().err


def test_plot_tuning_scatters_random_points_on_log_axes(letter_a):
    points = random_points(parse_grid("one_hot=0.1:10:2,match=0.1:10:2"), 6, log=True, seed=2)
    result = tune(letter_a, points, num_reads=10, workers=1)
    ax = plot_tuning(result).axes[0]
    assert not ax.images and len(ax.collections[0].get_offsets()) == 6
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"


def test_cli_tune_several_puzzles(capsys):
    assert main(["tune", LETTER_A_FILE, str(SMILE7), "--grid", MATCH_OFF_ON, "--reads", "30", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 puzzles") and "solves 2 of 2 puzzles" in out
    assert "  5x5: p = " in out and "  smile7: p = " in out
