"""The ``.non`` format (Simpson, as extended by nonogram-db) and ``.nonpack`` bundles."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

import numpy as np

from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _quote, _parse_number, _parse_dimension, _parse_clue, _build

__all__ = ["parse_non", "parse_nonpack", "format_non"]


# -- .non (nonogram-db) --------------------------------------------------------------------------

_NON_KEYS = {"catalogue", "title", "by", "copyright", "license", "color", "width", "height", "rows",
             "columns", "goal"}
_NON_TOKEN = re.compile(r"(\d+)([A-Za-z]?)")


def parse_non(text: str, name: str = "puzzle", path: str | None = None) -> Puzzle:
    """Parse a ``.non`` file (nonogram-db's FORMAT.md).

    Keys may come in any order, except that ``width`` and ``height`` precede
    ``rows``, ``columns`` and ``goal``. ``rows`` / ``columns`` are followed by
    exactly ``height`` / ``width`` clue lines (a blank line or a lone ``0`` is an
    empty clue, but a section's last clue before the next key must be written ``0``:
    a blank line there may be the separator after one clue too few, so it is refused). Unknown keys are ignored; a clue line outside a section is an
    error (it means a section had more lines than the dimensions say). The ``goal``, if any, is ``width x height``
    characters ``0`` (empty) or ``1`` (filled), row by row: any other character is an error. Only
    black-and-white puzzles are supported: a colour letter after a number is
    an error.

    Raises:
        PuzzleFormatError: With the offending line number.

    Examples:
        >>> p = parse_non('width 3\\nheight 1\\nrows\\n1,1\\ncolumns\\n1\\n0\\n1\\ngoal "101"\\n')
        >>> p.rows, p.goal.tolist()
        (((1, 1),), [[1, 0, 1]])
    """
    return _parse_non_lines(text.removeprefix("\ufeff").splitlines(), 0, name, path)


def _parse_non_lines(lines: Sequence[str], offset: int, name: str, path: str | None) -> Puzzle:
    dims: dict[str, int] = {}
    sections: dict[str, tuple[list[tuple[int, ...]], list[int]]] = {}
    seen: dict[str, int] = {}
    goal_text: str | None = None
    goal_line: int | None = None
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        lineno = offset + i + 1
        i += 1
        if not stripped:
            continue
        key, _, value = stripped.partition(" ") if " " in stripped else stripped.partition("\t")
        key, value = key.lower(), value.strip()
        if key in ("width", "height", "rows", "columns", "goal"):
            if key in seen:
                raise PuzzleFormatError(f"'{key}' given twice (first on line {seen[key]})", path, lineno)
            seen[key] = lineno
        if key in ("width", "height"):
            if key in sections or "rows" in sections or "columns" in sections:
                raise PuzzleFormatError(f"'{key}' must come before 'rows' and 'columns'", path, lineno)
            dims[key] = _parse_dimension(value, path, lineno, key)
        elif key in ("rows", "columns"):
            dim = "height" if key == "rows" else "width"
            if dim not in dims:
                raise PuzzleFormatError(f"'{key}' before '{dim}': the dimensions must come first",
                                        path, lineno)
            if value:
                raise PuzzleFormatError(f"expected '{key}' alone on its line, the clues on the next lines, "
                                        f"got {_quote(stripped)}", path, lineno)
            clues, clue_lines = [], []
            for n in range(dims[dim]):
                k = i + n
                if k >= len(lines):
                    raise PuzzleFormatError(f"'{key}' (line {lineno}) needs {dims[dim]} clue lines ({dim} "
                                            f"{dims[dim]}) but the file ends after {n}", path, offset + k)
                body = lines[k].strip()
                word = body.split(None, 1)[0].lower() if body else ""
                if word in _NON_KEYS:
                    raise PuzzleFormatError(f"'{key}' (line {lineno}) needs {dims[dim]} clue lines ({dim} "
                                            f"{dims[dim]}) but '{word}' follows after {n}",
                                            path, offset + k + 1)
                what = f"{'row' if key == 'rows' else 'column'} {n + 1} clue"
                clues.append(_parse_non_clue(body, path, offset + k + 1, what))
                clue_lines.append(offset + k + 1)
            following = next((line.split(None, 1)[0].lower() for line in lines[i + dims[dim]:] if line.strip()), "")
            if dims[dim] and not lines[i + dims[dim] - 1].strip() and following in _NON_KEYS:
                # A blank line may be an empty clue, but a blank last clue right before the next key may as well
                # be the blank line that separates the sections after a clue too few: ambiguous, so refused.
                given = sum(1 for k in range(i, i + dims[dim]) if lines[k].strip())
                raise PuzzleFormatError(f"'{key}' (line {lineno}) needs {dims[dim]} clue lines ({dim} {dims[dim]}) "
                                        f"but its last one is blank ({given} written): write an empty clue as 0",
                                        path, offset + i + dims[dim])
            sections[key] = (clues, clue_lines)
            i += dims[dim]
        elif key == "goal":
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            goal_text, goal_line = value, lineno
        elif key[:1].isdigit():
            raise PuzzleFormatError(f"clue line {_quote(stripped)} outside a 'rows' or 'columns' section "
                                    "(more clue lines than the dimensions say?)", path, lineno)
        # Anything else (catalogue, title, unknown keys) is ignored, as the format asks.
    end = offset + len(lines)
    if not any(line.strip() for line in lines):
        raise PuzzleFormatError("empty file; expected 'width', 'height', 'rows' and 'columns'",
                                path, end or 1)
    for key in ("width", "height", "rows", "columns"):
        if key not in dims and key not in sections:
            raise PuzzleFormatError(f"missing '{key}' (required: width, height, rows, columns)", path, end)
    goal = None
    if goal_text is not None:
        if len(goal_text) != dims["width"] * dims["height"]:
            raise PuzzleFormatError(f"goal has {len(goal_text)} cells, expected width x height = "
                                    f"{dims['width'] * dims['height']}", path, goal_line)
        stray = next((ch for ch in goal_text if ch not in "01"), None)
        if stray is not None:
            raise PuzzleFormatError(f"goal cell {_quote(stray)} at position {goal_text.index(stray) + 1}: a goal "
                                    "holds only 0 (empty) and 1 (filled)", path, goal_line)
        cells = np.frombuffer(goal_text.encode("ascii"), dtype=np.uint8)
        goal = (cells == ord("1")).astype(np.uint8).reshape(dims["height"], dims["width"])
    rows, row_lines = sections["rows"]
    cols, col_lines = sections["columns"]
    return _build(rows, cols, name, path, row_lines, col_lines, col_lines[0] - 1, goal, goal_line)


def _parse_non_clue(body: str, path: str | None, line: int, what: str) -> tuple[int, ...]:
    if not body:
        return ()
    numbers = []
    for token in body.split(","):
        token = token.strip()
        match = _NON_TOKEN.fullmatch(token)
        if match is None:
            _parse_number(token, path, line, what)  # raises with the standard message
            raise PuzzleFormatError(f"bad {what} token {_quote(token)}", path, line)  # pragma: no cover
        if match.group(2):
            raise PuzzleFormatError(f"colour clue {_quote(token)} in {what}: only black-and-white puzzles are "
                                    "supported", path, line)
        numbers.append(match.group(1))
    return _parse_clue(numbers, path, line, what)


def parse_nonpack(text: str, name: str = "puzzle", path: str | None = None) -> list[Puzzle]:
    """Several ``.non`` puzzles separated by lines of ``====`` (a ``.nonpack``)."""
    lines = text.removeprefix("\ufeff").splitlines()
    puzzles, start = [], 0
    for k, line in enumerate([*lines, "===="]):
        if line.strip() == "====":
            if any(x.strip() for x in lines[start:k]) or not puzzles and k == len(lines):
                puzzles.append(_parse_non_lines(lines[start:k], start, name, path))
            start = k + 1
    return puzzles


def format_non(puzzle: Puzzle) -> str:
    """The ``.non`` text of a puzzle (blank clues written as ``0``; the goal if it has one).

    >>> print(format_non(Puzzle([[1], []], [[1], []], name="dot")), end="")
    title "dot"
    width 2
    height 2
    <BLANKLINE>
    rows
    1
    0
    <BLANKLINE>
    columns
    1
    0
    """
    out = [f'title "{html.escape(puzzle.name)}"', f"width {puzzle.num_cols}", f"height {puzzle.num_rows}", "",
           "rows"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) if c else "0" for c in puzzle.cols]
    if puzzle.goal is not None:
        out += ["", 'goal "' + "".join(map(str, puzzle.goal.ravel().tolist())) + '"']
    return "\n".join(out) + "\n"


