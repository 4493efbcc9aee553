"""Reading the puzzle a command names: ``FILE`` or ``FILE#N``, with the size guard, errors in one line.

The file formats and their one-line errors are :mod:`qpicross.puzzle.formats`; this module adds what a
command needs around them (the size guard of the work it is about to do, the file named in the message).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from qpicross.exceptions import UsageError

if TYPE_CHECKING:  # numpy: imported when a command runs, not while the arguments are parsed
    from qpicross.puzzle import Puzzle

__all__ = ["load_puzzle_arg", "check_puzzle_size", "size_error"]


def load_puzzle_arg(args: argparse.Namespace, guard: str | None = None) -> Puzzle:
    """The puzzle named on the command line (``FILE`` or ``FILE#N``).

    Args:
        guard: Also run the size guard of this work on it (a method of
            :func:`~qpicross.model.size.estimate_solver_size`), before any is done.
    """
    from qpicross.puzzle.formats import load_puzzle

    puzzle = load_puzzle(args.puzzle, format=args.format)
    if guard is not None:
        check_puzzle_size(args.puzzle, puzzle, guard)
    return puzzle


def check_puzzle_size(path: str, puzzle: Puzzle, method: str) -> None:
    """The size guard of ``method`` (``"sat"``, ``"cpsat"``, ``"logic"``, ``"show"``) on a loaded puzzle.

    Raises:
        UsageError: Above the limit: one line naming the file and the estimate.
    """
    from qpicross.model.size import check_solver_size

    try:
        check_solver_size(puzzle, method)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def size_error(path: str | None, exc: Exception, force: bool = True) -> UsageError:
    """A size-guard (or other one-line) error of a run on ``path`` (None: the message names the puzzle), naming the
    file, in the command line's spellings: ``--max-memory`` for the limit, and ``--force`` where the command has
    one that builds above it (``force``), else a larger ``--max-memory``.

    >>> from qpicross.model.size import FORCE_HINT, LIMIT_SETTINGS
    >>> print(size_error("big.px", ValueError(f"big is large (1 GiB; {LIMIT_SETTINGS}){FORCE_HINT}")))
    big.px: big is large (1 GiB; --max-memory or QPICROSS_MAX_MEMORY); use --force to build it anyway
    >>> print(size_error(None, ValueError(f"big is large (1 GiB; {LIMIT_SETTINGS}){FORCE_HINT}"), force=False))
    big is large (1 GiB; --max-memory or QPICROSS_MAX_MEMORY); give a larger --max-memory to run it anyway
    """
    from qpicross.model.size import FORCE_HINT, FORCED_HINT, LIMIT_SETTINGS

    message = str(exc).replace(LIMIT_SETTINGS, "--max-memory or QPICROSS_MAX_MEMORY").replace(
        FORCE_HINT, "; use --force to build it anyway" if force else "; give a larger --max-memory to run it anyway"
    ).replace(FORCED_HINT, FORCED_HINT.replace("force=True", "--force"))
    return UsageError(message if path is None else f"{path}: {message}")
