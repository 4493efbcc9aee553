import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qpicross import Puzzle, check, load_puzzle
from qpicross.classical.logic import Contradiction, line_placements, line_text, propagate, solve_line
from qpicross.puzzle import line_runs
from puzzles import NO_SOLUTION, TWO_DIAGONALS

# The CP report's "ratio of unfixed cells" (%) after propagation with its best model M3.
CP_REPORT_M3_UNFIXED = {
    "bird": 0, "clock": 0, "godzilla": 0, "hare": 0, "kabuki": 33.00, "knife": 76.44, "layton": 0,
    "ouhbatman": 60.52, "panda": 87.25, "pikachu": 0, "phantom": 37.45, "qrcode": 28.42, "ratz": 80.89,
    "spade": 0, "tarantino": 14.4, "tardis": 0, "zen": 0,
}


def brute_force_line(clue, cells):
    """Every full line matching the clue and the known cells (enumeration)."""
    cells = np.asarray(cells)
    fits = []
    for bits in itertools.product((0, 1), repeat=len(cells)):
        line = np.array(bits)
        if line_runs(line) == tuple(clue) and np.all((cells == -1) | (cells == line)):
            fits.append(line)
    return np.array(fits).reshape(-1, len(cells))


@st.composite
def clue_and_line(draw):
    length = draw(st.integers(1, 10))
    source = draw(st.lists(st.integers(0, 1), min_size=length, max_size=length))
    clue = line_runs(source)
    # Reveal some cells of the source line (consistent), or of an unrelated line (often inconsistent).
    other = draw(st.lists(st.integers(0, 1), min_size=length, max_size=length))
    revealed_from = source if draw(st.booleans()) else other
    mask = draw(st.lists(st.booleans(), min_size=length, max_size=length))
    cells = [v if m else -1 for v, m in zip(revealed_from, mask)]
    return clue, cells


@settings(max_examples=300, deadline=None)
@given(clue_and_line())
def test_solve_line_matches_brute_force(case):
    clue, cells = case
    fits = brute_force_line(clue, cells)
    if len(fits) == 0:
        with pytest.raises(Contradiction):
            solve_line(clue, cells)
        return
    expected = np.where(fits.min(axis=0) == fits.max(axis=0), fits[0], -1)
    assert solve_line(clue, cells).tolist() == expected.tolist()


@settings(max_examples=150, deadline=None)
@given(clue_and_line())
def test_line_placements_match_brute_force(case):
    clue, cells = case
    fits = brute_force_line(clue, cells)
    if len(fits) == 0:
        return
    expected = np.zeros((len(clue), len(cells)), bool)
    for line in fits:
        starts = [p for p in range(len(line)) if line[p] and (p == 0 or not line[p - 1])]
        expected[np.arange(len(clue)), starts] = True
    assert line_placements(clue, cells).tolist() == expected.tolist()


def test_solve_line_examples():
    assert line_text(solve_line([6], 10)) == "????##????"
    assert line_text(solve_line([7, 2], 10)) == "#######.##"
    assert line_text(solve_line([], "??")) == ".."
    assert line_text(solve_line([4, 3], "???#.#????")) == "####.###.."
    with pytest.raises(Contradiction):
        solve_line([3], "##.#")
    with pytest.raises(Contradiction):
        solve_line([], "#?")
    with pytest.raises(ValueError):
        solve_line([2], "#z")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_propagate_never_contradicts_a_solution(n_rows, n_cols, data):
    board = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n_rows * n_cols,
                                        max_size=n_rows * n_cols))).reshape(n_rows, n_cols)
    puzzle = Puzzle.from_board(board)
    reveal = np.array(data.draw(st.lists(st.booleans(), min_size=board.size, max_size=board.size)))
    known = np.where(reveal.reshape(board.shape), board, -1)
    for start in (None, known):
        result = propagate(puzzle, start)
        assert not result.contradiction
        settled = result.known != -1
        assert (result.known[settled] == board[settled]).all()
        if start is not None:
            assert settled[start != -1].all()
        # A fixpoint: no line can settle anything more.
        for i in range(n_rows):
            assert (solve_line(puzzle.rows[i], result.known[i]) == result.known[i]).all()
        for j in range(n_cols):
            assert (solve_line(puzzle.cols[j], result.known[:, j]) == result.known[:, j]).all()
        if result.solved:
            assert check(puzzle, result.board) == []


def test_propagate_reports_contradiction_and_leaves_input_alone():
    puzzle = NO_SOLUTION  # column 0 forces an empty column 1
    assert propagate(puzzle).contradiction
    known = np.full((2, 2), -1)
    known[0, 0] = 1
    result = propagate(TWO_DIAGONALS, known)
    assert result.solved and result.board_strings == ["#.", ".#"]
    assert known[0, 1] == -1
    assert propagate(TWO_DIAGONALS, np.array([[1, 1], [-1, -1]])).contradiction


def test_bompol_logic_leaves_no_more_unfixed_cells_than_cp_m3(shared_instances):
    for path in sorted((shared_instances / "bompol").glob("*.px")):
        puzzle = load_puzzle(path)
        result = propagate(puzzle)
        assert not result.contradiction, path.name
        assert 100 * result.fraction_unfixed <= CP_REPORT_M3_UNFIXED[puzzle.name] + 0.01, path.name
        if result.solved:
            assert check(puzzle, result.board) == [], path.name
