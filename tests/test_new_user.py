"""Issue 35, what a new user hit: a puzzle without a solution answered at once, one spec grammar, honest
names and messages."""

from __future__ import annotations

import io
import json
import time

import pytest

from conftest import INSTANCES
from qpicross import load_puzzle
from qpicross.cli import main
from qpicross.cli._progress import Progress
from puzzles import LETTER_A_FILE

#: A 2x2 without a solution whose totals agree (the first row fills the first column, whose clue is blank).
NO_SOLUTION = "2,2\n2\n0\n0\n2\n"


def test_no_solution_is_answered_before_annealing(tmp_path, capsys):
    path = tmp_path / "none.px"
    path.write_text(NO_SOLUTION)
    start = time.monotonic()
    assert main(["anneal", str(path)]) == 1  # was 600 s of annealing
    assert time.monotonic() - start < 30
    out = capsys.readouterr().out.splitlines()
    assert out == ["none (2x2): no board satisfies these clues (line logic: column 1: no placement of clue 0 fits); "
                   "nothing to anneal"]
    assert main(["anneal", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["no_solution"] is True


def test_measured_run_without_solution_says_none_exists(tmp_path, capsys):
    path = tmp_path / "none.px"
    path.write_text(NO_SOLUTION)
    assert main(["anneal", str(path), "--reads", "2", "--sweeps", "50", "--sampler", "sa"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("no board satisfies these clues (line logic: column 1") and "--time-limit" not in last


def test_bench_baseline_takes_the_runs_reads(capsys):
    assert main(["bench", LETTER_A_FILE, "--baseline", "--reads", "7", "--json"]) in (0, 1)
    results = json.loads(capsys.readouterr().out)["results"]
    assert {r["config"]: r["num_reads"] for r in results} == {"baseline": 7, "shift": 7}


def test_a_directory_given_as_a_puzzle_says_so(capsys):
    assert main(["show", str(INSTANCES)]) == 2
    assert "a directory, not a puzzle file" in capsys.readouterr().err


def test_solve_reads_specs_as_bench_does(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_text("$1\n1\n1\n1\n1\n$2\n1\n0\n1\n0\n$3\n2\n0\n1\n1\n")
    assert main(["solve", f"{path}#1-2", "--method", "logic", "--json"]) in (0, 1)
    assert len(json.loads(capsys.readouterr().out)) == 2
    assert main(["solve", str(INSTANCES), "--method", "logic", "--json"]) in (0, 1)
    assert len(json.loads(capsys.readouterr().out)) == len(list(INSTANCES.glob("*.px")))


def test_generate_without_seed_names_the_seed_it_drew(capsys):
    assert main(["generate", "--size", "4x4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "None" not in out["puzzle"] and out["puzzle"].endswith(f"-s{out['seed']}")


def test_exact_refusal_suggests_the_default(capsys):
    assert main(["anneal", LETTER_A_FILE, "--sampler", "exact"]) == 2
    assert "'shift'" in capsys.readouterr().err


def test_readme_sampler_example_runs():
    import dwave.samplers

    from qpicross import anneal

    assert anneal(load_puzzle(LETTER_A_FILE), sampler=dwave.samplers.TabuSampler(), num_reads=3, seed=1).energy >= 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_run_that_stops_at_the_first_solution_shows_no_total():
    stream = _Terminal()
    with Progress("annealing", stream=stream, open_ended=True) as progress:
        progress(0, 1000)
        progress(3, 1000, 5.0)
    assert "/1000" not in stream.getvalue() and "3read" in stream.getvalue().replace(" ", "")


def test_generic_samplers_draw_doubling_batches_until_solved():
    import dimod
    from dwave.samplers import SimulatedAnnealingSampler

    from qpicross.samplers import sample

    class Counting(SimulatedAnnealingSampler):
        def __init__(self):
            super().__init__()
            self.sizes = []

        def sample(self, bqm, num_reads=1, **kwargs):
            self.sizes.append(num_reads)
            return super().sample(bqm, num_reads=num_reads, **kwargs)

    bqm = dimod.BinaryQuadraticModel({"a": 1.0}, {}, 0.0, "BINARY")
    for budget in (None, 600.0):
        sampler = Counting()
        ss = sample(bqm, sampler, num_reads=300, num_sweeps=1, seed=1, target_energy=-1.0, early_stop="puzzle",
                    time_limit=budget)
        assert len(ss) == 300 and sampler.sizes[:7] == [1, 2, 4, 8, 16, 32, 64] and max(sampler.sizes) == 64
        sampler = Counting()
        flat = dimod.BinaryQuadraticModel({"a": 0.0}, {}, 0.0, "BINARY")  # every read is a ground state
        ss = sample(flat, sampler, num_reads=300, num_sweeps=1, seed=1, target_energy=0.0, early_stop="puzzle",
                    time_limit=budget)
        assert sampler.sizes == [1] and ss.info["reached_target"]


def test_sb_stops_at_the_first_solution(capsys):
    pytest.importorskip("simulated_bifurcation")
    assert main(["anneal", LETTER_A_FILE, "--sampler", "sb", "--seed", "1"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("found a solution on read"))
    assert int(line.split()[5]) < 200, line  # was read 1000: all the reads in one call


def test_tune_heatmap_when_nothing_solves_has_a_full_scale_and_no_best(tmp_path):
    from qpicross.experiments.tune import grid_points, parse_grid, tune
    from qpicross.pipeline.config import SolverConfig
    from qpicross.experiments.tune import plot_tuning

    puzzle = load_puzzle(_write(tmp_path, NO_SOLUTION))
    points = grid_points(parse_grid("match=1:2:2,order=1:2:2"))
    result = tune(puzzle, points, config=SolverConfig(sampler="sa", num_reads=2, num_sweeps=5), workers=1)
    fig = plot_tuning(result)
    image = fig.axes[0].images[0]
    assert image.get_clim() == (0, 1.0)  # was a colour bar up to 1e-9
    assert not [line for line in fig.axes[0].lines if line.get_label() == "best"]  # was a star on p = 0
    assert any("no point solved" in text.get_text() for text in fig.axes[0].texts)


def _write(tmp_path, text: str):
    path = tmp_path / "none.px"
    path.write_text(text)
    return path


def test_a_wide_board_fits_the_terminal():
    from qpicross import Puzzle
    from qpicross.cli._terminal import board_text

    puzzle = Puzzle.from_board(["#" * 60] * 3, name="wide")
    assert max(map(len, board_text(puzzle, width=200).splitlines())) == 2 * 60 - 1 + 4 + 2  # fits: one space apart
    compact = board_text(puzzle, width=80).splitlines()
    assert max(map(len, compact)) <= 80  # was 125 wide
    assert compact[0] == "?" * 60 + " | 60" and compact[3].startswith("columns: 3 | 3")
