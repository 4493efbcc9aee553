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


@pytest.mark.parametrize("value", [7, 0.5, np.nan, -1, 2.0])
def test_check_rejects_a_board_that_is_not_zero_one(letter_a, value):
    """Issue 59, item 2: a cell of 7, 0.5 or NaN where 1 belongs made check() answer [] ("solved")."""
    from qpicross.exceptions import ParameterError

    board = board_from_strings(LETTER_A_BOARD).astype(float)
    board[board == 1] = value  # every filled cell: a board that painted the solution with a wrong value
    with pytest.raises(ParameterError, match="neither 0 nor 1"):
        check(letter_a, board)
    assert check(letter_a, board_from_strings(LETTER_A_BOARD).astype(bool)) == []  # booleans are 0/1


@pytest.mark.parametrize(("puzzle", "board", "says"), [
    (None, [[1]], "puzzle must be a Puzzle"), ("letter", [[1]], "puzzle must be a Puzzle"),
    ("letter_a", None, "got None"), ("letter_a", [1, 0, 1], "2-D"), ("letter_a", [["a", "b"]], "must be 0 or 1")])
def test_check_answers_what_is_not_a_puzzle_or_a_board_with_a_typed_error(letter_a, puzzle, board, says):
    from qpicross.exceptions import ParameterError

    puzzle = letter_a if puzzle == "letter_a" else puzzle
    with pytest.raises(ParameterError, match=says):
        check(puzzle, board)


@pytest.mark.parametrize("value", [7, 0.5, np.nan])
def test_a_goal_that_is_not_zero_one_is_refused_as_the_verifier_refuses_it(value):
    """Puzzle(goal=...) and check() take a board through the same board_array: the same cells are refused."""
    with pytest.raises(PuzzleFormatError, match="goal: board cell .* is neither 0 nor 1"):
        Puzzle([[1]], [[1]], goal=[[value]])
