import numpy as np
import pytest

from qpicross import Puzzle, anneal, check, load_puzzle
from qpicross.classical.sat import solve_sat
from qpicross.pipeline.hybrid import _probe, anneal_with_logic, read_agreement
from qpicross.classical.logic import propagate
from puzzles import PARTLY_LOGICAL


def test_probing_only_settles_what_every_solution_has():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(40):
        board = (rng.random((6, 6)) < 0.5).astype(int)
        puzzle = Puzzle.from_board(board)
        exact = solve_sat(puzzle)
        if not exact.unique:
            continue
        known = propagate(puzzle).known
        unknown = np.flatnonzero(known.reshape(-1) == -1)
        values = rng.integers(0, 2, size=len(unknown)).astype(np.int8)  # arbitrary hints, often wrong
        after, probes, proven = _probe(puzzle, known, unknown, values)
        settled = after != -1
        assert (after[settled] == board[settled]).all()
        assert probes >= proven and (after != -1).sum() >= (known != -1).sum()
        checked += 1
    assert checked >= 10


def test_read_agreement_is_a_fraction_per_cell(letter_a):
    result = anneal(letter_a, num_reads=30, seed=1)
    agreement = read_agreement(result)
    assert agreement.shape == letter_a.shape
    assert ((agreement >= 0) & (agreement <= 1)).all()


def test_rounds_are_recorded_and_reads_counted():
    puzzle = PARTLY_LOGICAL
    result = anneal_with_logic(puzzle, rounds=4, num_reads=5, num_sweeps=5, seed=3)
    info = result.presolve
    assert 1 <= len(info["rounds"]) <= 4
    assert info["total_reads"] == sum(r["num_reads"] for r in info["rounds"])
    assert info["variables_final"] == result.presolve["variables_final"] <= info["variables_after"]
    # the annealed model is the unsettled variables and the forced starts (kept, one in each of their groups)
    assert all(r["variables"] <= r["variables_annealed"] for r in info["rounds"])
    with pytest.raises(ValueError):
        anneal_with_logic(puzzle, rounds=0)


@pytest.mark.parametrize("name", ["knife", "ouhbatman", "kabuki"])
def test_presolve_with_logic_rounds_solves_bompol(shared_instances, name):
    puzzle = load_puzzle(shared_instances / "bompol" / f"{name}.px")
    result = anneal_with_logic(puzzle, rounds=3, num_reads=20, num_sweeps=200, seed=1)
    assert result.solved and check(puzzle, result.board) == []
    info = result.presolve
    assert info["variables_final"] <= info["variables_after"] < info["variables_before"]
