"""The small puzzles the tests share, each typed once: import them by name.

Constants rather than fixtures, because parametrize lists and module-level tables use them when the
tests are collected; a :class:`~qpicross.Puzzle` is frozen, so sharing one is safe (the boards are
lists, as a JSON answer is: compare with them, never change them). Any test module imports them as
``from puzzles import LETTER_A`` (``tests/`` is on ``sys.path`` beside ``conftest``).

Examples:
    >>> from puzzles import LETTER_A, LETTER_A_BOARD
    >>> from qpicross import check
    >>> LETTER_A.rows
    ((1,), (1, 1), (1, 1), (5,), (1, 1))
    >>> check(LETTER_A, LETTER_A_BOARD)
    []
"""

from __future__ import annotations

from conftest import INSTANCES
from qpicross import Puzzle

#: The letter "A" on 5x5, the one solution of the shipped ``instances/5x5.px``; line logic settles it.
LETTER_A_BOARD = ["..#..", ".#.#.", ".#.#.", "#####", "#...#"]
#: Its clues, named "A" (the shipped file, :data:`LETTER_A_FILE`, is named "5x5").
LETTER_A = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
#: The shipped file of the letter "A", as a command line takes it.
LETTER_A_FILE = str(INSTANCES / "5x5.px")

#: 2x2 with two solutions, the two diagonals.
TWO_DIAGONALS = Puzzle([[1], [1]], [[1], [1]])
#: 2x2 with one solution, three cells of an L.
CORNER = Puzzle([[2], [1]], [[2], [1]])
#: 3x3 without a solution, although the row and column sums agree: line logic refutes it.
NO_SOLUTION = Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]])

#: 5x5 of which line logic settles 11 cells and leaves the rest open.
PARTLY_LOGICAL_BOARD = ["#....", ".##..", "##..#", ".#.##", ".#.#."]
PARTLY_LOGICAL = Puzzle.from_board(PARTLY_LOGICAL_BOARD)
#: 4x4 that line logic settles only in part (presolve leaves a model with variables).
PARTLY_LOGICAL_4X4 = Puzzle.from_board(["...#", "#..#", "#..#", ".#.#"])

#: 12x12 with four single cells in every line (many solutions): a model large enough for reads that must last.
FOUR_DOTS_12 = Puzzle([[1, 1, 1, 1]] * 12, [[1, 1, 1, 1]] * 12)
