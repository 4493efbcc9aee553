"""The window study's exact optimum: checked against brute force and the independent verifier."""

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ortools", reason="the window study's CP-SAT needs the classical extra")

from benchmarks.line_windows import window_lowest  # noqa: E402
from benchmarks.stall import start_ladder  # noqa: E402
from qpicross import check, load_puzzle  # noqa: E402

SMILE = Path(__file__).resolve().parents[2] / "instances" / "smile7.px"


def _clue(cells) -> tuple[int, ...]:
    return tuple(len(run) for run in "".join(map(str, cells)).split("0") if run)


def _lines(clue, n):
    """Every 0/1 line of ``n`` cells with this clue, by brute force."""
    return [np.array(cells) for cells in itertools.product((0, 1), repeat=n) if _clue(cells) == tuple(clue)]


def _profile_energy(rows_board, col_clues):
    """The fewest mismatches of each column with any line of its clue, summed: brute force."""
    n = rows_board.shape[0]
    return sum(min(int((line != rows_board[:, j]).sum()) for line in _lines(clue, n))
               for j, clue in enumerate(col_clues))


def _board(run, r, puzzle):
    return (run.work.boards[r, 0] > 0).astype(int).reshape(puzzle.num_rows, puzzle.num_cols)


def _cells(run, t):
    """The board cells (flat) of free line ``t``, in its order (a line without blocks is no free line)."""
    board = run.data[1]
    c = run.data[2].free_chains[t]
    return board.cell0[c] + np.arange(board.line_len[c]) * board.stride[c]


@pytest.mark.parametrize("seed", [0, 1])
def test_one_and_two_row_windows_reach_the_brute_force_optimum(seed):
    puzzle = load_puzzle(SMILE)
    run = start_ladder(puzzle, 0, 4, seed)  # random replicas, far from a solution
    r = int(np.argmax(run.work.energy))
    board = _board(run, r, puzzle)
    assert _profile_energy(board, puzzle.cols) == run.work.energy[r]
    rows = [int(_cells(run, t)[0]) // puzzle.num_cols for t in range(len(run.data[2].free_chains))]
    for t0, k in ((0, 1), (3, 1), (1, 2), (3, 2)):
        window = rows[t0:t0 + k]
        choices = [_lines(puzzle.rows[row], puzzle.num_cols) for row in window]
        trial = board.copy()
        energies = []
        for combo in itertools.product(*choices):
            trial[window] = combo
            energies.append(_profile_energy(trial, puzzle.cols))
        lowest, arrangement = window_lowest(run, r, t0, k)
        assert lowest == min(energies)
        trial[window] = arrangement  # the arrangement it returns has that energy, each line its clue
        assert _profile_energy(trial, puzzle.cols) == lowest
        assert all(_clue(line) == puzzle.rows[row] for row, line in zip(window, arrangement))


def test_every_line_free_is_a_solution_the_verifier_accepts():
    puzzle = load_puzzle(SMILE)
    for axis in (0, 1):
        run = start_ladder(puzzle, 0, 4, 0, axis)
        n_free = len(run.data[2].free_chains)
        lowest, arrangement = window_lowest(run, 0, 0, n_free)
        assert lowest == 0
        board = np.zeros(puzzle.num_rows * puzzle.num_cols, bool)
        for t, line in enumerate(arrangement):
            board[_cells(run, t)] = line
        assert check(puzzle, board.reshape(puzzle.shape)) == []
