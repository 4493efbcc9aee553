import numpy as np
from qpicross import Puzzle, anneal, build_formulation, check, load_puzzle
from qpicross.classical.logic import propagate

# Line logic settles 11 of these 25 cells and leaves the rest open.
PARTLY_LOGICAL = ["#....", ".##..", "##..#", ".#.##", ".#.#."]


def test_presolve_shrinks_the_qubo_and_decodes_the_whole_board():
    puzzle = Puzzle.from_board(PARTLY_LOGICAL)
    logic = propagate(puzzle)
    assert 0 < logic.num_settled < puzzle.num_rows * puzzle.num_cols
    plain = anneal(puzzle, num_reads=200, seed=3)
    result = anneal(puzzle, presolve=True, num_reads=200, seed=3)
    info = result.presolve
    assert info["variables_before"] == plain.bqm.num_variables == build_formulation(puzzle).num_variables
    assert info["variables_after"] == info["variables_annealed"] < info["variables_before"]
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


def test_contradiction_is_reported_and_nothing_is_solved():
    puzzle = Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]])  # no solution
    result = anneal(puzzle, presolve=True, num_reads=20, seed=1)
    assert result.presolve["contradiction"] and not result.solved


def test_presolve_respects_given_known_cells():
    puzzle = Puzzle.from_board(PARTLY_LOGICAL)
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
