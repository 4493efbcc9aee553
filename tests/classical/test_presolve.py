import dimod
import numpy as np
import pytest

from qpicross import Puzzle, anneal, build_formulation, check
from qpicross.classical.logic import propagate
from qpicross.classical.presolve import CONTRADICTION_SWEEPS, PresolveComposite, presolve
from qpicross.pipeline.config import SolverConfig
from puzzles import NO_SOLUTION, PARTLY_LOGICAL


def test_presolve_shrinks_the_qubo_and_decodes_the_whole_board():
    puzzle = PARTLY_LOGICAL
    logic = propagate(puzzle)
    assert 0 < logic.num_settled < puzzle.num_rows * puzzle.num_cols
    plain = anneal(puzzle, num_reads=200, seed=3)
    result = anneal(puzzle, presolve=True, num_reads=200, seed=3)
    info = result.presolve
    assert info["variables_before"] == plain.bqm.num_variables == build_formulation(puzzle).num_variables
    forced = sum(value == 1 for value in presolve(build_formulation(puzzle)).fixed.values())
    # the annealed model keeps each forced start, the one left in its block's group: whole lines, a board
    assert info["variables_after"] + forced == info["variables_annealed"] < info["variables_before"]
    assert result.bqm.num_variables == info["variables_before"]  # reads are judged on the full model
    assert info["cells_settled"] == logic.num_settled and not info["solved_by_logic"]
    assert result.solved and check(puzzle, result.board) == []
    settled = logic.known != -1
    assert (result.board[settled] == logic.known[settled]).all()
    assert result.to_dict()["presolve"] == info
    assert "presolve_s" in result.timing and plain.presolve is None


def test_logic_alone_solving_is_reported_as_zero_variables(letter_a):
    result = anneal(letter_a, presolve=True, num_reads=10, seed=1)
    assert result.solved and result.presolve["solved_by_logic"]
    assert result.presolve["variables_after"] == 0
    assert result.presolve["variables_annealed"] == 0
    assert result.presolve["variables_before"] > 0
    assert result.success_probability == 1.0 and result.sampler == "none"


@pytest.mark.parametrize("early_stop", [None, "puzzle"])
def test_contradiction_is_reported_and_ends_the_run_after_one_short_read(early_stop):
    """Line logic proves there is no board: no search for a ground state that is not there (the run used
    to spend every read, or with early_stop="puzzle" its whole time limit)."""
    config = SolverConfig(presolve=True, num_reads=20, seed=1, early_stop=early_stop,
                          time_limit=60 if early_stop else None)
    result = anneal(NO_SOLUTION, config=config)
    assert result.presolve["contradiction"] and not result.solved
    assert len(result.sampleset) == 1 and result.best is not None


def test_on_a_contradiction_the_child_gets_one_short_read_and_no_target():
    seen = []

    class Recording(dimod.Sampler):
        parameters = {"num_reads": [], "num_sweeps": [], "target_energy": [], "seed": []}
        properties = {}

        def sample(self, bqm, **kwargs):
            seen.append(kwargs)
            return dimod.RandomSampler().sample(bqm, num_reads=kwargs["num_reads"], seed=kwargs["seed"])

    f = build_formulation(NO_SOLUTION)
    ss = PresolveComposite(Recording()).sample(f.bqm(), formulation=f, num_reads=50, num_sweeps=10**6,
                                                target_energy=0.0, seed=2)
    assert seen == [{"num_reads": 1, "num_sweeps": CONTRADICTION_SWEEPS, "seed": 2}]
    assert len(ss) == 1 and ss.info["presolve"]["contradiction"]


def test_the_cli_says_there_is_no_solution(capsys, tmp_path):
    from qpicross.cli import main

    path = tmp_path / "none.px"
    path.write_text("3,3\n1,1\n1\n1,1\n3\n1\n1\n")  # NO_SOLUTION in the .px format
    assert main(["anneal", str(path), "--presolve"]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("no board satisfies these clues") and "qpicross solve" in last


def test_presolve_respects_given_known_cells():
    puzzle = PARTLY_LOGICAL
    known = np.full(puzzle.shape, -1)
    known[0, 0] = 1
    result = anneal(puzzle, presolve=True, known=known, num_reads=100, seed=2)
    assert result.presolve["variables_before"] == build_formulation(puzzle, known=known).num_variables
    assert result.presolve["cells_settled"] >= propagate(puzzle).num_settled


def test_logic_solved_puzzle_leaves_no_variables():
    # Row "#.#...#" with clue (1, 1, 1): cells alone would keep block 0 at column 2
    # (its neighbours are empty); pruning by whole-line placements knows the block
    # order rules it out, so nothing is left to anneal.
    puzzle = Puzzle.from_board(["#.#...#"])
    result = anneal(puzzle, presolve=True, num_reads=10, seed=1)
    info = result.presolve
    assert info["solved_by_logic"] and info["variables_annealed"] == 0
    assert info["variables_after"] == 0
    assert result.solved and result.sampler == "none" and result.num_reads == 1
