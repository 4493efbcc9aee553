"""benchmarks.traps: each read's distance to the solution and to the other reads, as the verifier and the boards say."""

import itertools

import numpy as np

from benchmarks.traps import traps_table, watch_reads
from qpicross import Puzzle, anneal, check
from qpicross.classical.sat import solve_sat
from tests.benchmarks.test_stall import RANDOM_30  # three sweeps leave broken lines: the distances are not all zero


def test_the_reads_distances_are_those_of_the_boards_the_same_seeds_give():
    row = watch_reads(RANDOM_30, reads=3, sweeps=3)
    solution = np.asarray(solve_sat(RANDOM_30).board, bool)
    boards = [np.asarray(anneal(RANDOM_30, seed=s, threads=1, num_reads=1, num_sweeps=3, time_limit=60.0).board, bool)
              for s in range(3)]
    assert row["cells_off"] == [int((b != solution).sum()) for b in boards] and min(row["cells_off"]) > 0
    assert row["apart"] == [int((a != b).sum()) for a, b in itertools.combinations(boards, 2)]
    assert row["broken_lines"] == [len(check(RANDOM_30, b)) for b in boards] and row["solved"] == 0
    assert row["sweeps"] == [3, 3, 3] and row["painted"] == int(solution.sum()) and row["cells"] == 900
    assert "| 0 of 3 |" in traps_table([row]).splitlines()[2]


def test_a_solved_read_is_on_the_solution():
    row = watch_reads(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), reads=2, budget_s=5)
    assert row["solved"] == 2 and row["cells_off"] == [0, 0] and row["energies"] == [0.0, 0.0] and row["unique"]
