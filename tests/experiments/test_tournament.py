"""Issue 41, item 1: a tournament run -- the puzzles once, in order, each until its first solving read, one total."""

import json

import pytest

from qpicross.classical.logic import propagate
from qpicross.cli import main
from qpicross.exceptions import ParameterError
from qpicross.experiments.tournament import MAX_READS, run_tournament
from qpicross.pipeline.config import SolverConfig

from puzzles import CORNER, LETTER_A, LETTER_A_FILE, PARTLY_LOGICAL, TWO_DIAGONALS

SET = [("a", LETTER_A), ("b", PARTLY_LOGICAL), ("c", TWO_DIAGONALS), ("d", CORNER)]


def test_every_puzzle_runs_in_order_until_solved_and_the_total_adds_up():
    seen = []
    result = run_tournament(SET, SolverConfig(seed=1), time_limit=120, progress=lambda e, n: seen.append((e, n)))
    assert [e.source for e in result.entries] == ["a", "b", "c", "d"] and [n for _, n in seen] == [4] * 4
    assert all(e.solved and 1 <= e.reads <= MAX_READS for e in result.entries) and result.finished
    totals = [e.total_s for e in result.entries]
    assert totals == sorted(totals) and result.total_s == pytest.approx(sum(e.seconds for e in result.entries))
    summary = result.summary()
    assert summary["solved"] == 4 and summary["within_limit"] and summary["unsolved"] == []
    assert result.config.early_stop == "puzzle" and result.config.sampler_options["threads"] == 1  # one core


def test_the_total_limit_stops_the_run_and_counts_against_it():
    result = run_tournament(SET * 50, SolverConfig(seed=1), time_limit=0.05)
    assert 1 <= len(result.entries) < 200 and not result.finished and not result.summary()["within_limit"]


def test_ctrl_c_keeps_the_puzzles_measured_before_it():
    def progress(entry, total):
        if entry.source == "b":
            raise KeyboardInterrupt

    result = run_tournament(SET, SolverConfig(seed=1), time_limit=120, progress=progress)
    assert result.interrupted and [e.source for e in result.entries] == ["a", "b"] and not result.finished


@pytest.mark.parametrize("kwargs", [{"time_limit": 0}, {"time_limit": "x"}, {"cores": 0}])
def test_bad_limits_are_parameter_errors(kwargs):
    with pytest.raises(ParameterError):
        run_tournament(SET, **kwargs)


def test_cli_tournament_writes_every_puzzle_and_the_running_total(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["bench", LETTER_A_FILE, LETTER_A_FILE, "--tournament", "--json", str(out), "--seed", "3"]) == 0
    data = json.loads(out.read_text())
    assert data["summary"]["solved"] == 2 and data["meta"]["cores"] == 1 and data["meta"]["time_limit_s"] == 7200
    assert [e["source"] for e in data["results"]] == [LETTER_A_FILE] * 2 and all(e["solved"] for e in data["results"])
    assert data["results"][1]["total_s"] >= data["results"][0]["total_s"] and "libraries" in data["meta"]
    assert "tournament: 2 of 2 puzzles solved" in capsys.readouterr().out


@pytest.mark.parametrize("flags, says", [(["--baseline"], "--baseline"), (["--workers", "2"], "--workers"),
                                         (["--sampler", "sa,shift"], "one configuration"), (["--json"], "--json FILE")])
def test_cli_tournament_refuses_what_it_cannot_do(flags, says, capsys):
    assert main(["bench", LETTER_A_FILE, "--tournament", *flags]) == 2
    assert says in capsys.readouterr().err


def test_a_presolve_run_says_what_line_logic_settled_and_what_was_annealed(capsys):
    result = run_tournament(SET, SolverConfig(seed=1, presolve=True), time_limit=120)
    assert all(e.solved for e in result.entries)
    for entry, (_, puzzle) in zip(result.entries, SET):
        logic = propagate(puzzle)
        assert (entry.cells_settled, entry.solved_by_logic) == (logic.num_settled, logic.solved)
    summary = result.summary()
    assert summary["cells"] == sum(p.num_rows * p.num_cols for _, p in SET)
    assert summary["cells_settled"] == sum(propagate(p).num_settled for _, p in SET) < summary["cells"]
    assert 1 <= summary["solved_by_logic"] == sum(propagate(p).solved for _, p in SET) < len(SET)
    plain = run_tournament(SET, SolverConfig(seed=1), time_limit=120)
    assert {e.cells_settled for e in plain.entries} == {None} and "cells_settled" not in plain.summary()
    assert main(["bench", LETTER_A_FILE, "--tournament", "--presolve", "--seed", "3"]) == 0
    assert "presolve: line logic settled 25 of 25 cells (100.0%) and solved 1 of 1 puzzles alone" in (
        capsys.readouterr().out)
