"""Random puzzles: a random board's clues, optionally retried until the solution is unique.

Examples:
    >>> g = generate_puzzle((6, 8), density=0.55, seed=1, unique=True)
    >>> g.puzzle.shape, g.unique
    ((6, 8), True)
    >>> from qpicross import check
    >>> check(g.puzzle, g.board)
    []
"""

from __future__ import annotations

import dataclasses
import secrets

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.puzzle import Puzzle

__all__ = ["GeneratedPuzzle", "random_board", "generate_puzzle", "parse_size", "MAX_GENERATE_SIDE"]

#: Largest side of a generated board: what the puzzle readers accept back
#: (:data:`qpicross.puzzle.formats.MAX_DIMENSION`).
MAX_GENERATE_SIDE = 10_000


@dataclasses.dataclass
class GeneratedPuzzle:
    """A generated puzzle and the board it was made from.

    Attributes:
        puzzle: The puzzle (clues of :attr:`board`).
        board: The planted solution.
        unique: True if an exact solver proved the solution unique, None if not checked.
        tries: Boards drawn (more than 1 when ``unique`` rejected some).
        seed: The seed the generator started from.
    """

    puzzle: Puzzle
    board: np.ndarray
    unique: bool | None
    tries: int
    seed: int | None


def parse_size(text: str) -> tuple[int, int]:
    """``"15x20"`` -> ``(15, 20)`` (rows x columns); ``"15"`` -> ``(15, 15)``.

    >>> parse_size("15x20")
    (15, 20)

    Raises:
        ValueError: If the text is not ``ROWSxCOLS`` with positive integers.
    """
    parts = text.lower().replace("×", "x").split("x")
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        raise ParameterError(f"size must be ROWSxCOLS, e.g. 15x15, got {text!r}") from None
    if len(numbers) == 1:
        numbers = numbers * 2
    if len(numbers) != 2 or min(numbers) < 1:
        raise ParameterError(f"size must be ROWSxCOLS with positive numbers, got {text!r}")
    return numbers  # type: ignore[return-value]


def random_board(shape: tuple[int, int], density: float, rng: np.random.Generator) -> np.ndarray:
    """A board whose cells are filled independently with probability ``density``."""
    return (rng.random(shape) < density).astype(np.uint8)


def generate_puzzle(
    shape: tuple[int, int],
    *,
    density: float = 0.55,
    seed: int | None = None,
    unique: bool = False,
    method: str = "sat",
    max_tries: int = 1000,
    name: str | None = None,
    check_sizes: bool = True,
) -> GeneratedPuzzle:
    """Draw random boards and return the first one's puzzle (with ``unique``: the first unique one).

    Args:
        shape: ``(rows, cols)``.
        density: Probability that a cell is filled, in ``[0, 1]``.
        seed: Random seed (the same seed gives the same puzzle); ``None``: one is drawn, and the name
            and the result's ``seed`` give it.
        unique: Retry until an exact solver (``method``) proves the solution unique.
        method: Exact method for the uniqueness check (see :func:`~qpicross.classical.exact.solve_exact`).
        max_tries: Give up after this many boards.
        name: The puzzle's name (default ``random-RxC-dD-sS``).
        check_sizes: Run the size guard (:func:`~qpicross.model.size.check_solver_size`) of the
            board and, with ``unique``, of the exact solver, before the work.

    Raises:
        ValueError: On a bad shape, seed or density; :class:`~qpicross.exceptions.ModelTooLargeError`
            above the size guard.
        RuntimeError: If no unique puzzle turned up in ``max_tries`` boards.
    """
    rows, cols = shape
    if not (1 <= rows <= MAX_GENERATE_SIDE and 1 <= cols <= MAX_GENERATE_SIDE):
        raise ParameterError(f"each side must be between 1 and {MAX_GENERATE_SIDE}, got {rows}x{cols}")
    if seed is not None and not 0 <= seed < 2**32:
        raise ParameterError(f"seed must be a whole number in [0, 2**32), got {seed}")
    if not 0.0 <= density <= 1.0:
        raise ParameterError(f"density must be between 0 and 1, got {density}")
    if max_tries < 1:
        raise ParameterError(f"max_tries must be at least 1, got {max_tries}")
    if seed is None:  # draw one, so that the puzzle's name and ``seed`` say how to make it again
        seed = secrets.randbits(32)
    name = name or f"random-{rows}x{cols}-d{density:g}-s{seed}"
    if check_sizes:  # the board (and a blank puzzle's share of the exact solver) before drawing any
        from qpicross.model.size import check_solver_size

        blank = Puzzle([[]] * rows, [[]] * cols, name=name)
        check_solver_size(blank, "generate")
        if unique:
            check_solver_size(blank, method)
    rng = np.random.default_rng(seed)
    for tries in range(1, max_tries + 1):
        board = random_board((rows, cols), density, rng)
        puzzle = Puzzle.from_board(board, name=name)
        if not unique:
            return GeneratedPuzzle(puzzle, board, None, tries, seed)
        from qpicross.classical.exact import solve_exact

        if check_sizes and tries == 1:
            from qpicross.model.size import check_solver_size

            check_solver_size(puzzle, method)  # the clues' own windows, before the first solve
        result = solve_exact(puzzle, method)
        if result.interrupted:  # Ctrl-C ended the search (which returns what it had): it ends the drawing too
            raise KeyboardInterrupt
        if result.unique:
            return GeneratedPuzzle(puzzle, board, True, tries, seed)
    raise RuntimeError(
        f"no puzzle with a unique solution in {max_tries} random {rows}x{cols} boards of density {density:g}"
    )
