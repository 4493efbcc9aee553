"""Reading and writing puzzle files.

The ``.px`` format (Bompol's CP report, section I.2)::

    5,5          <- rows,cols
    1            <- one line per row clue, top to bottom
    1,1
    ...
    2            <- then one line per column clue, left to right

Numbers are separated by commas without spaces; an empty line or a lone ``0``
is an all-blank line. CRLF line endings and a missing final newline are fine.

Every reader raises :class:`~qpicross.puzzle.PuzzleFormatError` naming the file
and line for anything that is not a puzzle.

Examples:
    >>> from qpicross.formats import parse_px, format_px
    >>> p = parse_px("2,2\\n1\\n1\\n0\\n2\\n", name="tiny")
    >>> p.rows, p.cols
    (((1,), (1,)), ((), (2,)))
    >>> print(format_px(p), end="")
    2,2
    1
    1
    0
    2
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .puzzle import Puzzle, PuzzleFormatError

__all__ = [
    "load_puzzle",
    "save_puzzle",
    "parse_px",
    "format_px",
    "READERS",
    "WRITERS",
]

#: Largest rows/cols a file may declare; far above any annealable size, it only
#: stops absurd headers from allocating memory.
MAX_DIMENSION = 10_000


def _decode_text(data: bytes, path: str | None) -> str:
    if b"\x00" in data:
        raise PuzzleFormatError("binary data, not a text puzzle file", path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not UTF-8 text (byte {exc.start})", path) from None
    return text


def _parse_number(token: str, path: str | None, line: int, what: str) -> int:
    token = token.strip()
    if not token.isdigit() or not token.isascii():
        raise PuzzleFormatError(f"expected a non-negative integer for {what}, got {token!r}", path, line)
    value = int(token)
    if value > MAX_DIMENSION * 10:
        raise PuzzleFormatError(f"{what} {value} is absurdly large", path, line)
    return value


def _parse_px_clue(text: str, path: str | None, line: int, what: str) -> tuple[int, ...]:
    text = text.strip()
    if text == "" or text == "0":
        return ()
    numbers = tuple(_parse_number(tok, path, line, what) for tok in text.split(","))
    if 0 in numbers:
        raise PuzzleFormatError(f"{what} {text!r} holds a 0 among other blocks; blocks are positive", path, line)
    return numbers


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
        raise PuzzleFormatError(f"expected 'rows,cols' on line 1, got {lines[0].strip()!r}", path, 1)
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
    rows = [_parse_px_clue(body[i], path, i + 2, f"row {i} clue") for i in range(num_rows)]
    cols = [
        _parse_px_clue(body[num_rows + j], path, num_rows + j + 2, f"column {j} clue")
        for j in range(num_cols)
    ]
    try:
        return Puzzle(rows, cols, name=name)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(exc.reason, path, _line_of(exc.reason, num_rows)) from None


def _line_of(reason: str, num_rows: int) -> int | None:
    """Best file line for a Puzzle validation message ('row 3: ...' -> line 5)."""
    kind, _, rest = reason.partition(" ")
    index = rest.partition(":")[0]
    if kind in ("row", "col") and index.isdigit():
        return int(index) + 2 + (num_rows if kind == "col" else 0)
    return None


def format_px(puzzle: Puzzle) -> str:
    """The ``.px`` text of a puzzle (blank lines written as ``0``)."""
    out = [f"{puzzle.num_rows},{puzzle.num_cols}"]
    for clue in (*puzzle.rows, *puzzle.cols):
        out.append(",".join(map(str, clue)) if clue else "0")
    return "\n".join(out) + "\n"


Reader = Callable[[str, str, str], Puzzle]  # (text, name, path) -> Puzzle
Writer = Callable[[Puzzle], str]

#: Readers by format name; later formats register here.
READERS: dict[str, Reader] = {"px": lambda text, name, path: parse_px(text, name, path)}
#: Writers by format name.
WRITERS: dict[str, Writer] = {"px": format_px}
#: File extensions (lower case, with dot) to format names.
EXTENSIONS: dict[str, str] = {".px": "px"}


def _format_for(path: Path, format: str | None, table: dict) -> str:
    if format is not None:
        if format not in table:
            raise PuzzleFormatError(f"unknown format {format!r}; known: {', '.join(sorted(table))}", str(path))
        return format
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None or fmt not in table:
        raise PuzzleFormatError(
            f"cannot tell the format from the extension {path.suffix!r}; "
            f"use one of {', '.join(sorted(EXTENSIONS))} or pass format=",
            str(path),
        )
    return fmt


def load_puzzle(path: str | os.PathLike, format: str | None = None) -> Puzzle:
    """Read a puzzle file, choosing the reader by extension unless ``format`` is given.

    Args:
        path: The file.
        format: A key of :data:`READERS` (e.g. ``"px"``), overriding the extension.

    Raises:
        PuzzleFormatError: If the file is missing, unreadable or not a puzzle.

    Examples:
        >>> import qpicross, pathlib
        >>> p = load_puzzle(pathlib.Path(qpicross.__file__).parent.parent / "instances" / "5x5.px")
        >>> p.name, p.shape
        ('5x5', (5, 5))
    """
    path = Path(path)
    fmt = _format_for(path, format, READERS)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PuzzleFormatError(f"cannot read file: {exc.strerror or exc}", str(path)) from None
    text = _decode_text(data, str(path))
    return READERS[fmt](text, path.stem, str(path))


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike, format: str | None = None) -> None:
    """Write a puzzle; the format follows the extension unless given."""
    path = Path(path)
    fmt = _format_for(path, format, WRITERS)
    path.write_text(WRITERS[fmt](puzzle), encoding="utf-8")
