"""The formulation study (benchmarks.study) on a tiny ladder: JSON, table, figure, command."""

import json

import pytest

from benchmarks.ladder import Rung
from benchmarks.study import (COMBINATIONS, LADDER, TUNING_PUZZLES, Combination, main, plot_study, run_study,
                              study_table)
from benchmarks.tables import fmt_seconds

TINY = [r for r in LADDER if r.label in ("5x5", "smile7")]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "study.json"
    combos = [Combination("sa", "thermometer", sweeps=(200,), grid="order=1:2:2", reads=10, tune_on=("house8",)),
              Combination("sa", "one_hot", sweeps=(100,), reads=10)]
    data = run_study(combos, TINY, tuning=TUNING_PUZZLES, budget_s=0.5, tune_reads=3, path=path)
    return path, data


def test_study_writes_every_rung_of_every_combination(results):
    path, data = results
    saved = json.loads(path.read_text())
    assert [c["label"] for c in saved["combinations"]] == ["sa/thermometer", "sa/one_hot", "exact (SAT)"]
    thermo = saved["combinations"][0]
    assert thermo["tuning"]["puzzles"] == ["house8"] and len(thermo["tuning"]["points"]) == 2
    assert [r["puzzle"] for r in thermo["rungs"]] == ["5x5", "smile7"]
    assert all(r["status"] == "solved" and r["tts99_s"] > 0 for r in thermo["rungs"])
    assert saved["combinations"][1]["tuning"] is None


def test_table_quotes_the_results(results):
    path, data = results
    table = study_table(path)
    assert table.splitlines()[0].startswith("| sampler / encoding |")
    saved = json.loads(path.read_text())
    for combo in saved["combinations"][:2]:
        row = next(line for line in table.splitlines() if line.startswith(f"| {combo['label']} |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        top = [r for r in combo["rungs"] if r["status"] == "solved"][-1]  # the largest solved rung
        assert cells[2] == f"{top['puzzle']} ({top['rows']}×{top['cols']})" == "smile7 (7×7)"
        assert cells[3] == fmt_seconds(top["tts99_s"])  # the TTS99 the file holds, not another
        w = combo.get("weights")
        assert cells[1] == ("–" if not w else f"{w['one_hot']:g}, {w['order']:g}, {w['match']:g}")
        assert cells[-1] == "none (all solved)"


def test_plot_draws_every_combination_through_its_rungs(results, tmp_path):
    _, data = results
    fig = plot_study(data, tmp_path / "study.png")
    assert (tmp_path / "study.png").stat().st_size > 0
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    for combo in data["combinations"]:
        rungs = [r for r in combo["rungs"] if r.get("status") in ("solved", "unsolved")]
        if not rungs:
            continue
        drawn = lines[combo["label"]].get_ydata()
        assert list(drawn) == [r["tts99_s"] for r in rungs]  # one point per rung, at its TTS99
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == ["5x5", "smile7"]
    assert ax.get_yscale() == "log"


def test_unsolved_rungs_stop_the_climb(tmp_path):
    hopeless = Combination("sa", "one_hot", sweeps=(1,), reads=2)  # one sweep never solves smile7 or house8
    rungs = [r for r in LADDER if r.label in ("house8", "star10", "boat12")]
    data = run_study([hopeless], rungs, budget_s=0.2, exact=False)
    statuses = [r["status"] for r in data["combinations"][0]["rungs"]]
    assert statuses == ["unsolved", "unsolved", "not tried"]


def test_a_combination_without_its_tuning_puzzle_is_refused_before_any_work():
    with pytest.raises(ValueError, match="no tuning puzzle named house8"):
        run_study([Combination("sa", "one_hot", grid="match=1:2:2")], TINY, tuning={})


def test_an_absent_file_is_recorded_not_raised(tmp_path):
    absent = Rung("gone", "bompol/gone.px", shared=True, path=str(tmp_path / "gone.px"))
    data = run_study([Combination("sa", "one_hot", sweeps=(10,), reads=2)], [absent], budget_s=0.1)
    assert {r["status"] for c in data["combinations"] for r in c["rungs"]} == {"absent"}


def test_every_combination_is_a_valid_configuration():
    for combo in COMBINATIONS:
        combo.config().validate()


def test_command_prints_the_table(results, capsys):
    path, _ = results
    assert main(["table", str(path)]) == 0
    assert "sa/thermometer" in capsys.readouterr().out


def test_results_page_quotes_the_committed_study_table():
    """The results page's table is the one printed from results/study.json, not typed by hand."""
    from conftest import ROOT

    results = ROOT / "results" / "study.json"
    if not results.exists():
        pytest.skip("results/study.json is absent (make study writes it)")
    assert study_table(results) in (ROOT / "docs" / "results" / "generic.md").read_text()
