"""Puzzles: the clue model with its independent checker, and the file formats.

* :mod:`qpicross.puzzle.puzzle` -- :class:`Puzzle`, :func:`check` (the verifier every read is judged by);
* :mod:`qpicross.puzzle.formats` -- one module per file format, a registry by extension, :func:`load_puzzle`.

Random puzzles (``qpicross generate``) are made by :mod:`qpicross.classical.generate`, beside the exact solvers
that tell a puzzle with one solution.
"""

from qpicross.puzzle.formats import (
    expand_puzzle_specs,
    iter_puzzles,
    load_puzzle,
    load_puzzles,
    save_puzzle,
)
from qpicross.puzzle.puzzle import *  # the clue model's public names, as its __all__ lists them
from qpicross.puzzle.puzzle import __all__ as _PUZZLE_NAMES

__all__ = [*_PUZZLE_NAMES, "load_puzzle", "load_puzzles", "iter_puzzles", "expand_puzzle_specs", "save_puzzle"]
