"""The clue-only layout: row clue lines, one blank line, column clue lines (webpbn's export for Kyle Keen's solver).

This is the layout of the webpbn survey puzzles kept in the gramcracker repository
(``nonograms/survey_by_numbers_dataset/*.txt``): no header, no dimensions, no goal; the number of row clue
lines is the height, the number of column clue lines the width.
"""

from __future__ import annotations

from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _build, _parse_clue, MAX_DIMENSION

__all__ = ["parse_clues", "format_clues"]

#: What the layout is, as the structural errors say it.
_LAYOUT = "expected row clue lines, one blank line, then column clue lines"


def parse_clues(text: str, name: str = "puzzle", path: str | None = None) -> Puzzle:
    """Parse a clue-only file: one line per row clue (top to bottom), one blank line, one line per column clue
    (left to right).

    Numbers are separated by spaces or tabs. An empty clue is written ``0``: the blank line is the separator, so a
    second blank line (or a blank first line) is refused rather than read as an empty clue. Blank lines after the
    last column clue are ignored; CRLF line endings, a byte-order mark and a missing final newline are fine. The
    dimensions are bounded (:data:`~qpicross.puzzle.formats.MAX_DIMENSION` clue lines a side) before any clue is
    parsed, and the file by :data:`~qpicross.puzzle.formats.MAX_FILE_BYTES` before it is read.

    Args:
        text: The file's contents.
        name: The puzzle's name.
        path: Used in error messages only.

    Raises:
        PuzzleFormatError: With the offending line number.

    Examples:
        >>> p = parse_clues("1 1\\n3\\n\\n2\\n1\\n2\\n")
        >>> p.shape, p.rows, p.cols
        ((2, 3), ((1, 1), (3,)), ((2,), (1,), (2,)))
    """
    lines = text.removeprefix("\ufeff").splitlines()
    end = len(lines)
    while end and not lines[end - 1].strip():  # trailing blank lines: the final newline's echo
        end -= 1
    if end == 0:
        raise PuzzleFormatError(f"empty file; {_LAYOUT}", path, 1)
    if not lines[0].strip():
        raise PuzzleFormatError(f"blank line before the first row clue; {_LAYOUT} (an empty clue is written 0)",
                                path, 1)
    blank = next((i for i in range(end) if not lines[i].strip()), None)
    if blank is None:
        raise PuzzleFormatError(f"no blank line between the row clues and the column clues; {_LAYOUT}", path, end)
    second = next((i for i in range(blank + 1, end) if not lines[i].strip()), None)
    if second is not None:
        raise PuzzleFormatError(f"a second blank line (the first is line {blank + 1}); {_LAYOUT}, "
                                "and an empty clue is written 0", path, second + 1)
    row_lines = range(1, blank + 1)  # 1-based line numbers
    col_lines = range(blank + 2, end + 1)
    for kind, numbers in (("row", row_lines), ("column", col_lines)):
        if len(numbers) > MAX_DIMENSION:
            raise PuzzleFormatError(f"more than {MAX_DIMENSION} {kind} clue lines (at most {MAX_DIMENSION} a side)",
                                    path, numbers[MAX_DIMENSION])
    rows = [_parse_clue(lines[n - 1].split(), path, n, f"row {k} clue") for k, n in enumerate(row_lines, 1)]
    cols = [_parse_clue(lines[n - 1].split(), path, n, f"column {k} clue") for k, n in enumerate(col_lines, 1)]
    return _build(rows, cols, name, path, row_lines, col_lines, col_lines[0])


def format_clues(puzzle: Puzzle) -> str:
    """The clue-only text of a puzzle (empty clues written ``0``).

    >>> print(format_clues(Puzzle([[1, 1], []], [[1], [], [1]])), end="")
    1 1
    0
    <BLANKLINE>
    1
    0
    1
    """
    def line(clue: tuple[int, ...]) -> str:
        return " ".join(map(str, clue)) if clue else "0"

    return "\n".join([*map(line, puzzle.rows), "", *map(line, puzzle.cols)]) + "\n"
