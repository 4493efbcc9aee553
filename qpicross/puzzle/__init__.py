"""Puzzles: the clue model with its independent checker, and the file formats.

* :mod:`qpicross.puzzle.puzzle` -- :class:`Puzzle`, :func:`check` (the verifier every read is judged by);
* :mod:`qpicross.puzzle.formats` -- one module per file format, a registry by extension, :func:`load_puzzle`.
"""

from qpicross.puzzle.formats import (
    expand_puzzle_specs,
    iter_puzzles,
    load_puzzle,
    load_puzzles,
    save_puzzle,
)
from qpicross.puzzle.puzzle import (
    BrokenLine,
    Puzzle,
    PuzzleFormatError,
    board_from_strings,
    board_to_strings,
    check,
    line_runs,
    min_line_length,
)

__all__ = [
    "Puzzle",
    "PuzzleFormatError",
    "BrokenLine",
    "check",
    "line_runs",
    "board_from_strings",
    "board_to_strings",
    "min_line_length",
    "load_puzzle",
    "load_puzzles",
    "iter_puzzles",
    "expand_puzzle_specs",
    "save_puzzle",
]
