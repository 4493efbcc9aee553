import numpy as np
import pytest
from hypothesis import given, strategies as st

from qpicross import Puzzle, PuzzleFormatError, board_from_strings, board_to_strings, check
from qpicross.puzzle import line_runs
from puzzles import LETTER_A_BOARD


def test_letter_a_solution_checks(letter_a):
    assert check(letter_a, LETTER_A_BOARD) == []


def test_check_reports_each_broken_line(letter_a):
    board = board_from_strings(LETTER_A_BOARD)
    board[0, 0] = 1  # row 0 becomes "#.#..", column 0 becomes 1,2
    broken = check(letter_a, board)
    assert [(b.kind, b.index) for b in broken] == [("row", 0), ("col", 0)]
    assert broken[0].runs == (1, 1) and broken[0].clue == (1,)


def test_check_rejects_wrong_shape(letter_a):
    with pytest.raises(ValueError, match="shape"):
        check(letter_a, np.zeros((4, 5)))


@pytest.mark.parametrize(
    "rows, cols, message",
    [
        ([[3]], [[1], [1]], "needs 3 cells"),
        ([[1]], [[0]], "positive"),
        ([[2]], [[1], []], "must agree"),
        ([[1.5]], [[1]], "non-integer"),
        ([], [[1]], "at least one row"),
    ],
)
def test_invalid_clues_raise(rows, cols, message):
    with pytest.raises(PuzzleFormatError, match=message):
        Puzzle(rows, cols)


def test_empty_lines_are_allowed():
    p = Puzzle([[], [2]], [[1], [1]])
    assert check(p, ["..", "##"]) == []


@given(st.lists(st.integers(0, 1), max_size=30))
def test_line_runs_reconstructs_the_count(cells):
    assert sum(line_runs(cells)) == sum(cells)


@given(st.integers(1, 8), st.integers(1, 8), st.data())
def test_any_board_solves_its_own_puzzle(n_rows, n_cols, data):
    cells = data.draw(st.lists(st.integers(0, 1), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    board = np.array(cells, dtype=np.uint8).reshape(n_rows, n_cols)
    puzzle = Puzzle.from_board(board)
    assert check(puzzle, board) == []
    assert (board_from_strings(board_to_strings(board)) == board).all()
