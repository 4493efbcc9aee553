"""The fair schedule (benchmarks.schedule): the β rule, the sweep ladder's bookkeeping, its tables."""

import json
import math
from pathlib import Path

import pytest

from benchmarks.ladder import Rung
from benchmarks.schedule import (ARMS, EXCITATION, HOT_MULTIPLE, STUDY_WEIGHTS, beta_rule, energy_gap, main,
                                 optimum_table, plot_schedule, rule_beta_range, run_schedule, schedule_table)
from qpicross import PenaltyWeights, build_formulation, load_puzzle
from qpicross.model.thermometer import thermometer_bqm

from conftest import INSTANCES
from puzzles import LETTER_A_FILE, PARTLY_LOGICAL_4X4

ROOT = Path(__file__).resolve().parents[2]


def test_rule_scales_with_the_gap_and_the_size():
    bqm = thermometer_bqm(build_formulation(load_puzzle(INSTANCES / "star10.px"))).bqm
    hot, cold = beta_rule(bqm, gap=1.0)
    assert cold == pytest.approx(math.log(bqm.num_variables / EXCITATION))
    assert hot == pytest.approx(math.log(2) / HOT_MULTIPLE)
    hot2, cold2 = beta_rule(bqm, gap=2.0)  # weights twice as large: the same schedule in units of the gap
    assert (hot2, cold2) == pytest.approx((hot / 2, cold / 2))
    with pytest.raises(ValueError):
        beta_rule(bqm, gap=0)


def test_gap_is_the_smallest_weight_the_encoding_uses():
    assert energy_gap(STUDY_WEIGHTS) == 1.0
    assert energy_gap(PenaltyWeights(one_hot=3, order=2, match=5, at_most_one=0.1)) == 2.0  # at_most_one unused


def test_rule_range_of_a_presolved_model_counts_only_what_logic_leaves():
    puzzle = PARTLY_LOGICAL_4X4
    _, cold = rule_beta_range(puzzle)
    _, cold_pre = rule_beta_range(puzzle, presolve=True)
    assert cold_pre < cold


def test_study_weights_are_the_studys_tuned_ones():
    study = json.loads((ROOT / "results" / "study.json").read_text())
    tuned = next(c for c in study["combinations"] if c["label"] == "sa/thermometer")["weights"]
    assert tuned == STUDY_WEIGHTS.as_dict()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("schedule") / "schedule.json"
    rungs = [Rung(name, f"instances/{name}.px", path=str(INSTANCES / f"{name}.px")) for name in ("5x5", "star10")]
    data = run_schedule(rungs, sweeps=(1, 20, 2000), arms=ARMS, budget_s=0.3, max_reads=20, path=path)
    return path, data


def test_every_cell_is_measured_until_p_reaches_one(tiny):
    path, data = tiny
    saved = json.loads(path.read_text())
    assert saved["meta"]["arms"] == list(ARMS) and saved["meta"]["commit"]
    for p in ("5x5", "star10"):
        for arm in ARMS:
            row = [r for r in saved["records"] if r["puzzle"] == p and r["arm"] == arm]
            assert [r["sweeps"] for r in row] == [1, 20, 2000]
            full = [i for i, r in enumerate(row) if r.get("num_reads") and r["num_solved"] == r["num_reads"]]
            if full:  # after the first cell with p = 1 nothing more is measured
                assert all(r["status"] == "not measured" for r in row[full[0] + 1:])
            rule = arm.startswith("rule")
            for r in row:
                if r["status"] != "not measured":
                    assert (r["beta_range"] is not None) == rule
    one_sweep = next(r for r in saved["records"] if r["puzzle"] == "star10" and r["arm"] == "default"
                     and r["sweeps"] == 1)
    assert one_sweep["status"] == "unsolved" and one_sweep["tts99_s"] is None


def test_tables_quote_the_results(tiny):
    path, data = tiny
    table = optimum_table(path)
    row = next(line for line in table.splitlines() if line.startswith("| star10 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    mine = [r for r in data["records"] if r["puzzle"] == "star10" and r["arm"] == "rule" and r.get("tts99_s")]
    best = min(mine, key=lambda r: r["tts99_s"])
    assert cells[4].endswith(f"at {best['sweeps']:,} ({best['num_solved']}/{best['num_reads']})")
    assert cells[2] == "not solved" or cells[2].endswith("at 2,000")  # the study's sweep counts only: 1 000, 10 000
    grid = schedule_table(path)
    assert grid.count("| star10 |") == len(ARMS)


def test_plot_and_command(tiny, tmp_path, capsys):
    path, data = tiny
    plot_schedule(data, tmp_path / "s.png")
    assert (tmp_path / "s.png").stat().st_size > 0
    assert main(["beta", str(INSTANCES / "star10.px"), "--weights", "order=2"]) == 0
    hot, cold = rule_beta_range(load_puzzle(INSTANCES / "star10.px"), PenaltyWeights(order=2))
    assert capsys.readouterr().out.strip() == f"--beta-range {hot:.6g},{cold:.6g}"


def test_command_runs_named_puzzles_and_arms(tmp_path, capsys):
    path = tmp_path / "s.json"
    assert main(["run", "--puzzle", LETTER_A_FILE, "--sweeps", "10,50", "--arms", "rule",
                 "--budget", "0.2", "--max-reads", "5", "--json", str(path)]) == 0
    saved = json.loads(path.read_text())
    assert [p["label"] for p in saved["puzzles"]] == ["5x5"] and saved["meta"]["arms"] == ["rule"]
    assert {r["arm"] for r in saved["records"]} == {"rule"} and saved["records"][0]["sweeps"] == 10
    assert "| 5x5 | 5×5 |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["run", "--puzzle", LETTER_A_FILE, "--arms", "hot", "--json", str(path)])
    with pytest.raises(SystemExit):  # the repository's ladder is benchmarks.frontier's, not the package's
        main(["run", "--json", str(path)])


def test_comparison_says_faster_only_where_the_intervals_are_apart():
    from benchmarks.schedule import comparison_list

    def cell(arm, puzzle, tts, low, high, n=5):
        return {"puzzle": puzzle, "arm": arm, "sweeps": 100, "status": "solved", "num_variables": n, "num_solved": 1,
                "num_reads": 2, "tts99_s": tts, "tts99_low_s": low, "tts99_high_s": high}
    data = {"meta": {"arms": ["default", "rule"]},
            "puzzles": [{"label": x, "rows": 2, "cols": 2} for x in ("apart", "overlap", "alone")],
            "records": [cell("default", "apart", 4.0, 3.0, 5.0), cell("rule", "apart", 1.0, 0.5, 2.0),
                        cell("default", "overlap", 4.0, 3.0, 5.0), cell("rule", "overlap", 2.0, 1.0, 3.5),
                        cell("rule", "alone", 2.0, 1.0, None),
                        {"puzzle": "alone", "arm": "default", "sweeps": 100, "status": "unsolved", "tts99_s": None}]}
    text = comparison_list(data)
    assert "- apart (2×2), rule against default: rule faster (95 % intervals apart): 4x" in text
    assert "- overlap (2×2), rule against default: no difference shown" in text
    assert "- alone (2×2), rule against default: only rule solved it" in text


def test_summary_counts_solved_puzzles_and_those_within_the_limit():
    from benchmarks.schedule import summary_line

    data = {"meta": {"arms": ["rule"]}, "puzzles": [{"label": x} for x in "abc"],
            "records": [{"puzzle": "a", "arm": "rule", "sweeps": 1, "tts99_s": 5.0},
                        {"puzzle": "b", "arm": "rule", "sweeps": 1, "tts99_s": 90.0},
                        {"puzzle": "b", "arm": "rule", "sweeps": 2, "tts99_s": 70.0},
                        {"puzzle": "c", "arm": "rule", "sweeps": 1, "tts99_s": None}]}
    assert summary_line(data) == "- rule: 2 of 3 puzzles solved at some sweep count; 1 with a TTS99 of at most 60 s"
    data["meta"]["planned"] = ["a", "b", "c", "d"]
    assert summary_line(data, list_unsolved=True).splitlines() == [
        "- rule: 2 of 3 puzzles solved at some sweep count; 1 with a TTS99 of at most 60 s; not solved: c",
        "- the run stopped after 3 of the 4 puzzles it was given"]


def test_a_sample_is_drawn_by_its_seed_from_every_puzzle_the_specs_name():
    from benchmarks.schedule import sample_specs
    from qpicross.exceptions import ParameterError

    first = sample_specs(["x/t.txt#1-1000"], 100, seed=2011)
    assert first == sample_specs(["x/t.txt#1-1000"], 100, seed=2011) != sample_specs(["x/t.txt#1-1000"], 100, seed=1)
    numbers = [int(spec.rpartition("#")[2]) for spec in first]
    assert len(set(numbers)) == 100 and numbers == sorted(numbers) and 1 <= min(numbers) and max(numbers) <= 1000
    assert sample_specs(["x/t.txt#1-3", "y.px"], 4, seed=0) == ["x/t.txt#1", "x/t.txt#2", "x/t.txt#3", "y.px"]
    with pytest.raises(ParameterError):
        sample_specs(["x/t.txt#1-3"], 4, seed=0)


def test_an_arm_at_an_encoding_runs_that_encoding_in_the_same_run(tmp_path):
    """``rule@one_hot`` anneals the one-hot model, with the rule's range from that model."""
    from benchmarks.schedule import range_key

    rungs = [Rung("star10", "instances/star10.px", path=str(INSTANCES / "star10.px"))]
    data = run_schedule(rungs, sweeps=(200,), arms=("rule", "rule@one_hot"), budget_s=0.3, max_reads=5,
                        path=tmp_path / "s.json")
    assert data["meta"]["encoding"] == {"rule": "thermometer", "rule@one_hot": "one_hot"}
    plain, one_hot = ({r["arm"]: r for r in data["records"]}[arm] for arm in ("rule", "rule@one_hot"))
    assert one_hot["num_variables"] > plain["num_variables"]
    entry = data["puzzles"][0]
    assert one_hot["beta_range"] == entry[range_key(False, "one_hot")] != entry[range_key(False)]
    assert "one-hot" in schedule_table(data)


def test_the_file_is_written_after_every_puzzle_with_the_puzzles_planned(tmp_path, monkeypatch):
    """A run cut short after its first puzzle leaves a file that names both puzzles and holds the first."""
    import benchmarks.schedule as schedule

    path = tmp_path / "s.json"
    rungs = [Rung(name, f"instances/{name}.px", path=str(INSTANCES / f"{name}.px")) for name in ("5x5", "star10")]
    real_rule = schedule.rule_beta_range

    def stop_at_the_second(puzzle, *args, **kw):
        if puzzle.num_rows == 10:
            raise KeyboardInterrupt
        return real_rule(puzzle, *args, **kw)
    monkeypatch.setattr(schedule, "rule_beta_range", stop_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        run_schedule(rungs, sweeps=(20,), arms=("rule",), budget_s=0.2, max_reads=5, path=path)
    saved = json.loads(path.read_text())
    assert saved["meta"]["planned"] == ["5x5", "star10"]
    assert [p["label"] for p in saved["puzzles"]] == ["5x5"] and {r["puzzle"] for r in saved["records"]} == {"5x5"}
    absent = [Rung("gone", "nowhere/gone.px", path=str(tmp_path / "gone.px")), rungs[1]]  # an absent puzzle first
    with pytest.raises(KeyboardInterrupt):
        run_schedule(absent, sweeps=(20,), arms=("rule",), budget_s=0.2, max_reads=5, path=path)
    saved = json.loads(path.read_text())
    assert [p["label"] for p in saved["puzzles"]] == ["gone"] and "absent" in saved["puzzles"][0]


def test_an_arm_is_also_a_samplers_name_on_its_own_schedule(tmp_path, capsys):
    from benchmarks.schedule import parse_arm

    assert parse_arm("default") == ("sa", False, False) and parse_arm("tabu+presolve") == ("tabu", False, True)
    assert parse_arm("rule+presolve@one-hot") == ("sa", True, True)
    with pytest.raises(ValueError, match="unknown arm 'hot'"):
        parse_arm("hot")
    with pytest.raises(ValueError, match="unknown encoding 'qubits'"):
        parse_arm("rule@qubits")
    assert parse_arm("rule@qubits", known=False) == ("sa", True, False)  # an older results file's arm, in a table
    with pytest.raises(ValueError, match="one-hot and thermometer encodings only"):
        parse_arm("rule+presolve@domain-wall")
    path = tmp_path / "peers.json"
    rungs = [Rung("5x5", "instances/5x5.px", path=str(INSTANCES / "5x5.px"))]
    data = run_schedule(rungs, sweeps=(1, 50), arms=("rule", "sa+descent", "tabu"), budget_s=0.2, max_reads=10,
                        path=path)
    assert data["meta"]["sampler"] == {"rule": "sa", "sa+descent": "sa+descent", "tabu": "tabu"}
    tabu = [r for r in data["records"] if r["arm"] == "tabu"]  # tabu takes no sweep count: one cell, its default
    assert tabu[0]["own_schedule"] and tabu[0]["num_reads"] > 0
    assert tabu[1]["status"] == "not measured" and tabu[1]["reason"] == "tabu takes no sweep count"
    descent = [r for r in data["records"] if r["arm"] == "sa+descent"]
    assert descent[0]["beta_range"] is None and "own_schedule" not in descent[0]
    row = next(line for line in optimum_table(path).splitlines() if line.startswith("| 5x5 |"))
    assert "at its own schedule" in row.split("|")[-2]
    assert "tabu's own" in schedule_table(path) and "sa+descent's own" in schedule_table(path)
    with pytest.raises(SystemExit):
        main(["run", "--puzzle", LETTER_A_FILE, "--arms", "rule,nonsense", "--json", str(path)])
    assert "unknown arm 'nonsense'" in capsys.readouterr().err


def test_the_size_table_counts_each_sizes_puzzles_with_an_interval(tiny):
    from benchmarks.schedule import size_table
    from qpicross.experiments.tts import wilson_interval

    path, data = tiny
    table = size_table(path, limit_s=1e9)
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]}
    assert list(rows) == ["5×5", "10×10"] and rows["5×5"][1] == "1"
    for k, arm in enumerate(ARMS):  # a puzzle counts as solved where some cell of its arm had a TTS99
        solved = any(r.get("tts99_s") is not None for r in data["records"] if r["puzzle"] == "star10" and r["arm"] == arm)
        low, high = wilson_interval(int(solved), 1)
        assert rows["10×10"][2 + 2 * k] == f"{int(solved)}/1 [{low:.2f}, {high:.2f}]" == rows["10×10"][3 + 2 * k]
