"""Pieces shared by the sub-commands: loading puzzles, writing output, progress."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..formats import load_puzzle
from ..puzzle import Puzzle, board_to_strings

__all__ = ["UsageError", "error", "add_puzzle_argument", "load_puzzle_arg", "print_json", "board_text", "Progress"]


class UsageError(ValueError):
    """A mistake in the command line's arguments (exit code 2)."""


def error(message: str, code: int = 2) -> int:
    print(f"qpicross: error: {message}", file=sys.stderr)
    return code


def add_puzzle_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle file (.px)")
    parser.add_argument("--format", default=None, help="file format, overriding the extension")


def load_puzzle_arg(args: argparse.Namespace) -> Puzzle:
    """The puzzle named on the command line."""
    return load_puzzle(Path(args.puzzle), format=args.format)


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, sort_keys=False))


def board_text(puzzle: Puzzle, board=None) -> str:
    """The clues and a board as text: ``#`` filled, ``.`` empty, ``?`` unknown.

    Row clues follow each row; column clues are written downwards under the board.
    """
    n_rows, n_cols = puzzle.shape
    rows = board_to_strings(board) if board is not None else ["?" * n_cols] * n_rows
    width = max(len(str(v)) for c in puzzle.cols for v in (c or (0,)))
    lines = [
        " ".join(ch.rjust(width) for ch in r) + "  | " + " ".join(map(str, clue or (0,)))
        for r, clue in zip(rows, puzzle.rows)
    ]
    lines.append("-" * ((width + 1) * n_cols - 1))
    for d in range(max(len(c) or 1 for c in puzzle.cols)):
        cells = []
        for clue in puzzle.cols:
            numbers = clue or (0,)
            cells.append(str(numbers[d]).rjust(width) if d < len(numbers) else " " * width)
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


class Progress:
    """``progress(done, total)`` that draws a one-line bar on stderr when it is a terminal."""

    def __init__(self, label: str, stream=None):
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = int(width * done / max(total, 1))
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            self.stream.write("\r" + " " * (width + len(self.label) + 30) + "\r")
        self.stream.flush()
