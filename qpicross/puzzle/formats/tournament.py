"""TAAI / TCGA / ICGA tournament ``$n`` files, 1000 puzzles each, and their solution files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _quote, _parse_number, _parse_clue, _build, MAX_DIMENSION

__all__ = ["parse_tournament", "parse_tournament_solutions"]


# -- tournament $-files (TAAI / TCGA / ICGA) -----------------------------------------------------


def _dollar_blocks(lines: Sequence[str], path: str | None, what: str) -> list[tuple[int, int, int]]:
    """``(number, first_line_index, end_index)`` of each ``$n`` block."""
    starts = [i for i, line in enumerate(lines) if line.startswith("$")]
    first_text = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first_text is None:
        raise PuzzleFormatError(f"empty file; expected '$1' then the {what}", path, 1)
    if not starts or starts[0] != first_text:
        raise PuzzleFormatError(f"expected a '$n' line (tournament format), got "
                                f"{_quote(lines[first_text].strip())}", path, first_text + 1)
    blocks, seen = [], {}
    for b, s in enumerate(starts):
        number = _parse_number(lines[s][1:], path, s + 1, "puzzle number after '$'")
        if number in seen:
            raise PuzzleFormatError(f"puzzle ${number} appears twice (first on line {seen[number]})",
                                    path, s + 1)
        seen[number] = s + 1
        end = starts[b + 1] if b + 1 < len(starts) else len(lines)
        blocks.append((number, s + 1, end))
    return blocks


def parse_tournament(
    text: str,
    name: str = "puzzle",
    path: str | None = None,
    solutions: str | None = None,
    solutions_path: str | None = None,
    wanted: Callable[[int], bool] | None = None,
) -> list[tuple[int, Puzzle]]:
    """Parse a tournament question file: ``$n``, then the column clues, then the row clues.

    The puzzles are square; the size ``n`` comes from the first block's
    ``2n`` lines (25 in every official set). Numbers are separated by tabs or
    spaces; an empty line is an empty clue. Extra blank lines at the very end
    of the file are ignored.

    Args:
        text: The question file's contents.
        name: Puzzles are named ``name#n``.
        path: For error messages.
        solutions: The matching solution file's contents (``$n`` then ``n`` rows
            of 0/1), whose grids become the puzzles' goals.
        solutions_path: For error messages about ``solutions``.
        wanted: Build only the puzzles whose number it accepts (the file is
            still checked for its block structure).

    Returns:
        ``(number, puzzle)`` pairs in file order.

    Raises:
        PuzzleFormatError: With the offending line number (in the solution
            file's name for errors there).

    Examples:
        >>> text = "$1\\n1\\n1\\n1\\n1\\n$2\\n2\\n\\n1\\n1\\n"
        >>> [(n, p.rows, p.cols) for n, p in parse_tournament(text, "t")]
        [(1, ((1,), (1,)), ((1,), (1,))), (2, ((1,), (1,)), ((2,), ()))]
    """
    lines = text.removeprefix("\ufeff").splitlines()
    blocks = _dollar_blocks(lines, path, "column and row clues")
    number0, s0, e0 = blocks[0]
    first_len = e0 - s0
    if len(blocks) == 1:  # the only block: drop blank lines beyond an even count
        while first_len % 2 and first_len > 0 and not lines[s0 + first_len - 1].strip():
            first_len -= 1
    if first_len == 0 or first_len % 2:
        raise PuzzleFormatError(f"puzzle ${number0} has {first_len} clue lines; expected 2n "
                                "(n column clues, then n row clues)", path, s0)
    size = first_len // 2
    if size > MAX_DIMENSION:
        raise PuzzleFormatError(f"puzzle ${number0} is {size}x{size}, above {MAX_DIMENSION}", path, s0)
    goals = {}
    if solutions is not None:
        goals = parse_tournament_solutions(solutions, size, solutions_path, wanted)
    out = []
    for b, (number, s, e) in enumerate(blocks):
        count = e - s
        if b == len(blocks) - 1:
            while count > 2 * size and not lines[s + count - 1].strip():
                count -= 1
        if count != 2 * size:
            # Too many lines: point at the first extra one; too few: at the '$n' line.
            raise PuzzleFormatError(f"puzzle ${number} has {count} clue lines; expected {2 * size} "
                                    f"({size} columns, then {size} rows)", path,
                                    s + 2 * size + 1 if count > 2 * size else s)
        if wanted is not None and not wanted(number):
            continue
        clues = [_parse_clue(lines[s + k].split(), path, s + k + 1,
                             f"{'column' if k < size else 'row'} {k % size + 1} clue") for k in range(2 * size)]
        goal, _ = goals.get(number, (None, None))
        puzzle = _build(clues[size:], clues[:size], f"{name}#{number}", path,
                        range(s + size + 1, s + 2 * size + 1), range(s + 1, s + size + 1), s, goal, None)
        out.append((number, puzzle))
    return out


def parse_tournament_solutions(
    text: str, size: int, path: str | None = None, wanted: Callable[[int], bool] | None = None
) -> dict[int, tuple[np.ndarray, int]]:
    """Goal grids of a tournament solution file: ``{n: (grid, line)}``.

    Each block is ``$n`` then ``size`` rows of ``size`` 0/1 values separated
    by tabs or spaces. ``wanted`` limits the grids decoded (every block's
    length is still checked).

    >>> grid, line = parse_tournament_solutions("$1\\n1\\t0\\n0\\t1\\n", 2)[1]
    >>> grid.tolist(), line
    ([[1, 0], [0, 1]], 1)
    """
    lines = text.removeprefix("\ufeff").splitlines()
    out = {}
    for b, (number, s, e) in enumerate(_dollar_blocks(lines, path, "solution grid")):
        count = e - s
        while count > size and not lines[s + count - 1].strip():
            count -= 1
        if count != size:
            raise PuzzleFormatError(f"solution ${number} has {count} rows; expected {size}", path, s)
        if wanted is not None and not wanted(number):
            continue
        rows = [lines[s + r].split() for r in range(size)]
        for r, row in enumerate(rows):
            if len(row) != size or any(v not in ("0", "1") for v in row):
                raise PuzzleFormatError(f"solution ${number} row {r + 1}: expected {size} values 0 or 1, "
                                        f"got {_quote(' '.join(row))}", path, s + r + 1)
        out[number] = (np.array(rows, dtype=np.uint8), s)
    return out


def _tournament_solution_file(path: Path) -> Path | None:
    """The NonogramRecord layout: ``question/X.txt`` pairs with ``solution/X.txt``."""
    if path.parent.name == "question":
        candidate = path.parent.parent / "solution" / path.name
        if candidate.is_file():
            return candidate
    return None


