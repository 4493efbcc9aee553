"""The ``.px`` format of Bompol's CP report (see :mod:`qpicross.puzzle.formats`)."""

from __future__ import annotations


from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _quote, _parse_number, _parse_clue, _build, MAX_DIMENSION

__all__ = ["parse_px", "format_px"]


# -- .px ---------------------------------------------------------------------------------------


def parse_px(text: str, name: str = "puzzle", path: str | None = None) -> Puzzle:
    """Parse the text of a ``.px`` file.

    Args:
        text: The file's contents.
        name: The puzzle's name.
        path: Used in error messages only.

    Raises:
        PuzzleFormatError: With the offending line number.
    """
    lines = text.removeprefix("\ufeff").splitlines()
    # A trailing blank line is only the final newline's echo; trailing lines
    # beyond the declared count are reported below.
    if not lines or not lines[0].strip():
        raise PuzzleFormatError("empty file; expected 'rows,cols' on line 1", path, 1)
    header = lines[0].strip().split(",")
    if len(header) != 2:
        raise PuzzleFormatError(f"expected 'rows,cols' on line 1, got {_quote(lines[0].strip())}", path, 1)
    num_rows = _parse_number(header[0], path, 1, "rows")
    num_cols = _parse_number(header[1], path, 1, "cols")
    if not (1 <= num_rows <= MAX_DIMENSION and 1 <= num_cols <= MAX_DIMENSION):
        raise PuzzleFormatError(
            f"dimensions {num_rows}x{num_cols} out of range (1..{MAX_DIMENSION})", path, 1
        )
    expected = 1 + num_rows + num_cols
    body = lines[1:]
    while len(body) > num_rows + num_cols and not body[-1].strip():
        body.pop()
    if len(body) != num_rows + num_cols:
        raise PuzzleFormatError(
            f"header says {num_rows} rows + {num_cols} columns = {expected} lines in all, "
            f"but the file has {1 + len(body)}",
            path,
            min(len(lines), expected + 1) if len(body) > num_rows + num_cols else len(lines),
        )

    def clue(i: int, what: str) -> tuple[int, ...]:
        text = body[i].strip()
        return _parse_clue(text.split(",") if text else [], path, i + 2, what)

    rows = [clue(i, f"row {i + 1} clue") for i in range(num_rows)]
    cols = [clue(num_rows + j, f"column {j + 1} clue") for j in range(num_cols)]
    return _build(rows, cols, name, path, range(2, num_rows + 2),
                  range(num_rows + 2, num_rows + num_cols + 2), num_rows + 2)


def format_px(puzzle: Puzzle) -> str:
    """The ``.px`` text of a puzzle (blank lines written as ``0``)."""
    out = [f"{puzzle.num_rows},{puzzle.num_cols}"]
    for clue in (*puzzle.rows, *puzzle.cols):
        out.append(",".join(map(str, clue)) if clue else "0")
    return "\n".join(out) + "\n"


