"""The puzzle model: clues, validation, boards and the independent checker.

A :class:`Puzzle` holds a nonogram's row and column clues. A *board* is a
``(num_rows, num_cols)`` numpy array of 0/1 (1 = filled). :func:`check` tells
which lines of a board break their clue; it never looks at the QUBO, so it is
the ground truth every sampler is judged by.

Examples:
    >>> from qpicross import Puzzle, check
    >>> p = Puzzle(rows=[[1], [1, 1], [1, 1], [5], [1, 1]],
    ...            cols=[[2], [3], [1, 1], [3], [2]], name="A")
    >>> p.shape
    (5, 5)
    >>> board = board_from_strings(["..#..", ".#.#.", ".#.#.", "#####", "#...#"])
    >>> check(p, board)
    []
    >>> check(p, board_from_strings(["#####"] * 5))[:2]
    [BrokenLine(kind='row', index=0, clue=(1,), runs=(5,)), BrokenLine(kind='row', index=1, clue=(1, 1), runs=(5,))]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from qpicross.exceptions import ParameterError, PuzzleFormatError

__all__ = [
    "Puzzle",
    "require_puzzle",
    "PuzzleFormatError",
    "BrokenLine",
    "check",
    "line_runs",
    "board_from_strings",
    "board_to_strings",
    "board_array",
    "min_line_length",
    "line_name",
    "clue_text",
]

Clue = tuple[int, ...]


def line_name(kind: str, index: int) -> str:
    """How messages name a line: counted from 1, as a user counts (``row 1`` is the top row, ``column 1``
    the leftmost); ``kind`` is ``"row"`` or ``"col"`` and ``index`` counts from 0, as arrays do.

    >>> line_name("row", 0), line_name("col", 2)
    ('row 1', 'column 3')
    """
    return f"{'row' if kind == 'row' else 'column'} {index + 1}"


def clue_text(clue: Iterable[int]) -> str:
    """A clue as messages write it: its block lengths separated by spaces, ``0`` for a blank line.

    >>> clue_text((2, 1)), clue_text([3]), clue_text(())
    ('2 1', '3', '0')
    """
    return " ".join(str(int(v)) for v in clue) or "0"


class BrokenLine(NamedTuple):
    """A row or column whose filled runs differ from its clue."""

    kind: str  # "row" or "col"
    index: int
    clue: Clue
    runs: Clue

    @property
    def name(self) -> str:
        """The line as messages name it (:func:`line_name`: ``row 1`` is the top row)."""
        return line_name(self.kind, self.index)


def min_line_length(clue: Sequence[int]) -> int:
    """Fewest cells a clue needs: its blocks plus one gap between each pair.

    >>> min_line_length([2, 1, 2])
    7
    >>> min_line_length([])
    0
    """
    return int(sum(clue)) + max(len(clue) - 1, 0)


def _normalise_clue(clue: Iterable[int], kind: str, index: int) -> Clue:
    values = tuple(clue)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise PuzzleFormatError(f"{line_name(kind, index)}: clue {list(values)!r} holds a non-integer {v!r}")
        if v <= 0:
            raise PuzzleFormatError(
                f"{line_name(kind, index)}: clue {clue_text(values)} holds {v}; block lengths must be positive "
                "(write an empty line, or 0 alone, for a blank line)"
            )
    return tuple(int(v) for v in values)


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """A nonogram: one clue (tuple of block lengths) per row and per column.

    An empty clue ``()`` is an all-blank line. Construction validates the
    clues and raises :class:`PuzzleFormatError` when they cannot describe any
    board of this size: a non-positive block, a clue longer than its line, or
    row and column fill totals that differ.

    Args:
        rows: Row clues, top to bottom.
        cols: Column clues, left to right.
        name: A label used in reports and plots.
        goal: Optional intended solution read from a file (a read-only 0/1
            array of the puzzle's shape). It is *not* checked against the
            clues here -- ``check(puzzle, puzzle.goal)`` does that -- and it
            takes no part in equality or hashing.
    """

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    name: str = "puzzle"
    goal: np.ndarray | None = dataclasses.field(default=None, compare=False, repr=False)

    def __init__(
        self,
        rows: Iterable[Iterable[int]],
        cols: Iterable[Iterable[int]],
        name: str = "puzzle",
        goal: np.ndarray | Sequence[str] | None = None,
    ):
        row_clues = tuple(_normalise_clue(c, "row", i) for i, c in enumerate(rows))
        col_clues = tuple(_normalise_clue(c, "col", j) for j, c in enumerate(cols))
        object.__setattr__(self, "rows", row_clues)
        object.__setattr__(self, "cols", col_clues)
        object.__setattr__(self, "name", str(name))
        self._validate()
        object.__setattr__(self, "goal", None if goal is None else self._goal_array(goal))

    def _goal_array(self, goal) -> np.ndarray:
        try:
            grid = board_array(goal)  # a 0/1 board, or the first cell that is not 0 or 1 named
        except ValueError as exc:
            raise PuzzleFormatError(f"goal: {exc}") from None
        if grid.shape != self.shape:
            raise PuzzleFormatError(f"goal grid has shape {grid.shape}, the clues {self.shape}")
        grid = grid.astype(np.uint8)  # a copy: the caller's array stays theirs
        grid.flags.writeable = False
        return grid

    def _validate(self) -> None:
        if not self.rows or not self.cols:
            raise PuzzleFormatError(f"a puzzle needs at least one row and one column, got {self.shape}")
        for kind, clues, length in (("row", self.rows, self.num_cols), ("col", self.cols, self.num_rows)):
            for index, clue in enumerate(clues):
                need = min_line_length(clue)
                if need > length:
                    raise PuzzleFormatError(
                        f"{line_name(kind, index)}: clue {clue_text(clue)} needs {need} cells "
                        f"but the line has {length}"
                    )
        row_total = sum(map(sum, self.rows))
        col_total = sum(map(sum, self.cols))
        if row_total != col_total:
            raise PuzzleFormatError(
                f"row clues fill {row_total} cells but column clues fill {col_total}; they must agree"
            )

    @property
    def num_rows(self) -> int:
        return len(self.rows)

    @property
    def num_cols(self) -> int:
        return len(self.cols)

    @property
    def shape(self) -> tuple[int, int]:
        """``(num_rows, num_cols)``."""
        return (len(self.rows), len(self.cols))

    def identity(self) -> dict:
        """The keys every JSON report about this puzzle starts with (``anneal``, ``solve``, ``info``).

        >>> Puzzle([[1]], [[1]], name="dot").identity()
        {'puzzle': 'dot', 'shape': [1, 1]}
        """
        return {"puzzle": self.name, "shape": list(self.shape)}

    def outcome(self, solved: bool | None, board: list[str] | None) -> dict:
        """The keys every JSON report of an attempt at this puzzle starts with: :meth:`identity`, whether it
        was solved, and the board (rows as ``#``/``.`` strings, or None).

        >>> Puzzle([[1]], [[1]], name="dot").outcome(True, ["#"])
        {'puzzle': 'dot', 'shape': [1, 1], 'solved': True, 'board': ['#']}
        """
        return {**self.identity(), "solved": solved, "board": board}

    @property
    def num_filled(self) -> int:
        """Number of filled cells in any solution."""
        return sum(map(sum, self.rows))

    def lines(self) -> Iterable[tuple[str, int, Clue, int]]:
        """Yield ``(kind, index, clue, length)`` for every row, then every column."""
        for i, clue in enumerate(self.rows):
            yield "row", i, clue, self.num_cols
        for j, clue in enumerate(self.cols):
            yield "col", j, clue, self.num_rows

    @classmethod
    def from_board(cls, board: np.ndarray | Sequence[str], name: str = "puzzle") -> Puzzle:
        """The puzzle whose clues a board has (used to plant solutions).

        >>> Puzzle.from_board(["#.#", "###"]).rows
        ((1, 1), (3,))
        """
        grid = board_from_strings(board) if _is_strings(board) else np.asarray(board, dtype=np.uint8)
        return cls(
            rows=[line_runs(r) for r in grid],
            cols=[line_runs(c) for c in grid.T],
            name=name,
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.num_rows}x{self.num_cols})"


def line_runs(line: Iterable[int]) -> Clue:
    """Lengths of the runs of filled cells in a line.

    >>> line_runs([1, 1, 0, 1, 0, 0, 1, 1, 1])
    (2, 1, 3)
    """
    runs: list[int] = []
    current = 0
    for cell in line:
        if cell:
            current += 1
        elif current:
            runs.append(current)
            current = 0
    if current:
        runs.append(current)
    return tuple(runs)


def require_puzzle(puzzle, name: str = "puzzle") -> Puzzle:
    """``puzzle`` itself if it is a :class:`Puzzle`; else the typed error naming the parameter, before any work.

    >>> require_puzzle(None)
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: puzzle must be a Puzzle, got NoneType
    """
    if not isinstance(puzzle, Puzzle):
        raise ParameterError(f"{name} must be a Puzzle, got {type(puzzle).__name__}")
    return puzzle


def check(puzzle: Puzzle, board: np.ndarray | Sequence[str]) -> list[BrokenLine]:
    """Lines of ``board`` whose runs differ from the puzzle's clues.

    This is the independent verifier: it reads only the clues and the board,
    never the QUBO. An empty list means the board solves the puzzle.

    Args:
        puzzle: The puzzle.
        board: A 0/1 array of shape ``puzzle.shape``, or strings of ``#``/``.``.

    Returns:
        Every broken row, then every broken column.

    Raises:
        ParameterError: If ``puzzle`` is not a :class:`Puzzle`, or the board is not a 0/1 board of the puzzle's
            shape (a cell of 7, 0.5 or NaN is no board: :func:`board_array`).
    """
    require_puzzle(puzzle)
    grid = board_array(board)
    if grid.shape != puzzle.shape:
        raise ParameterError(f"board has shape {grid.shape}, puzzle {puzzle.name} is {puzzle.shape}")
    broken = []
    for kind, lines, clues in (("row", grid, puzzle.rows), ("col", grid.T, puzzle.cols)):
        for index, (line, clue) in enumerate(zip(lines, clues)):
            runs = line_runs(line)
            if runs != clue:
                broken.append(BrokenLine(kind, index, clue, runs))
    return broken


def _is_strings(board) -> bool:
    return isinstance(board, (list, tuple)) and len(board) > 0 and isinstance(board[0], str)


def board_array(board: np.ndarray | Sequence[str] | Sequence[Sequence[int]]) -> np.ndarray:
    """A board as a 2-D array of 0/1: strings of ``#``/``.`` (:func:`board_from_strings`), or rows of 0/1 (numbers
    or booleans) that :func:`numpy.asarray` takes.

    Raises:
        ParameterError: For anything else: no board, not two dimensions, or a cell that is neither 0 nor 1
            (7, 0.5, NaN, text), naming the first such cell.

    >>> board_array(["#."]).tolist(), board_array([[1, 0]]).tolist(), board_array([[True, False]]).tolist()
    ([[1, 0]], [[1, 0]], [[1, 0]])
    >>> board_array([[1, 7]])
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: board cell 7 (row 1, column 2) is neither 0 nor 1
    """
    if board is None:
        raise ParameterError("board must be a 0/1 array or #/. strings, got None")
    if _is_strings(board):
        return board_from_strings(board)
    try:
        grid = np.asarray(board)
    except (TypeError, ValueError):  # ragged rows
        raise ParameterError("board must be a rectangular 0/1 array or #/. strings") from None
    if grid.ndim != 2:
        raise ParameterError(f"board must be a 2-D 0/1 array (rows of cells), got {grid.ndim} dimension(s)")
    if grid.dtype == bool:
        return grid.astype(np.uint8)
    if not (np.issubdtype(grid.dtype, np.integer) or np.issubdtype(grid.dtype, np.floating)):
        raise ParameterError(f"board cells must be 0 or 1, got values of type {grid.dtype}")
    bad = np.argwhere((grid != 0) & (grid != 1))  # NaN is neither
    if len(bad):
        i, j = bad[0]
        value = grid[i, j].item()
        raise ParameterError(f"board cell {value!r} (row {i + 1}, column {j + 1}) is neither 0 nor 1")
    return grid


#: Characters a board's text may hold for a filled cell, and for an empty one.
FILLED_CHARACTERS, EMPTY_CHARACTERS = "#1Xx■", ".0 -_□"


def board_from_strings(lines: Sequence[str]) -> np.ndarray:
    """Parse ``#``/``.`` strings (``1``/``0``, ``X``/``x`` and ``-``/``_``/space also accepted) into a 0/1 array.

    >>> board_from_strings(["#.", ".#"]).tolist()
    [[1, 0], [0, 1]]
    >>> board_from_strings(["#?"])
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: board cell '?' (row 1, column 2) is neither filled (#1Xx■) nor empty (.0 -_□)
    """
    if isinstance(lines, str) or not all(isinstance(line, str) for line in lines):
        raise ParameterError("a board as text is a list of strings, one a row")
    for number, line in enumerate(lines, 1):
        stray = next((i for i, ch in enumerate(line) if ch not in FILLED_CHARACTERS + EMPTY_CHARACTERS), None)
        if stray is not None:
            raise ParameterError(f"board cell {line[stray]!r} (row {number}, column {stray + 1}) is neither filled "
                                 f"({FILLED_CHARACTERS}) nor empty ({EMPTY_CHARACTERS})")
    rows = [[1 if ch in FILLED_CHARACTERS else 0 for ch in line] for line in lines]
    if len({len(r) for r in rows}) > 1:
        raise ParameterError("board rows have different lengths")
    return np.array(rows, dtype=np.uint8).reshape(len(rows), -1)


def board_to_strings(board: np.ndarray) -> list[str]:
    """Render a 0/1 array as ``#``/``.`` strings.

    >>> board_to_strings(np.array([[1, 0], [0, 1]]))
    ['#.', '.#']
    """
    return ["".join("#" if cell else "." for cell in row) for row in np.asarray(board)]
