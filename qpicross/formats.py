"""Reading and writing puzzle files.

Formats (chosen by extension unless ``format=`` / ``--format`` says otherwise):

========== ============ ===================================================== =======
name       extensions   what                                                  writer
========== ============ ===================================================== =======
px         .px          Bompol's CP-report format (below)                     yes
non        .non         Simpson's format as extended by nonogram-db           yes
nonpack    .nonpack     several ``.non`` puzzles separated by ``====`` lines  no
tournament .txt [#]_    TAAI/TCGA/ICGA ``$n`` files, 1000 puzzles each        no
xml        .xml, .pbn   webpbn XML (``<puzzleset><puzzle><clues ...>``)       no
json       .json        qpicross JSON (below)                                 yes
========== ============ ===================================================== =======

.. [#] a ``.txt`` file is read as a tournament file when its first line starts
   with ``$``; other ``.txt`` layouts need an explicit format.

The ``.px`` format (Bompol's CP report, section I.2)::

    5,5          <- rows,cols
    1            <- one line per row clue, top to bottom
    1,1
    ...
    2            <- then one line per column clue, left to right

Numbers are separated by commas without spaces; an empty line or a lone ``0``
is an all-blank line. CRLF line endings and a missing final newline are fine.

The JSON form (one object per puzzle; a file may hold one object or a list)::

    {
      "format": "qpicross-puzzle",   <- optional on reading
      "version": 1,                  <- optional on reading
      "name": "letter A",            <- optional
      "rows": [[1], [1, 1], ...],    <- row clues; [] (or [0]) is a blank line
      "cols": [[2], [3], ...],       <- column clues
      "goal": ["..#..", ...]         <- optional: '#' filled, '.' empty
    }

Goal grids (``.non`` ``goal``, XML ``<solution type="goal">``, JSON ``goal``, the
tournament's ``solution/`` file next to its ``question/`` file) are kept in
:attr:`Puzzle.goal <qpicross.puzzle.Puzzle>`; ``check(puzzle, puzzle.goal)``
verifies them against the clues.

Multi-puzzle files are addressed as ``FILE#17`` (the puzzle numbered 17: the
``$17`` of a tournament file, the 17th puzzle of any other file) or
``FILE#1-100`` (an inclusive range); :func:`load_puzzles` and
:func:`expand_puzzle_specs` understand these specs, :func:`iter_puzzles`
iterates a whole file.

Every reader raises :class:`~qpicross.puzzle.PuzzleFormatError` naming the file
and line for anything that is not a puzzle, never another exception.

Examples:
    >>> from qpicross.formats import parse_px, format_px, parse_non
    >>> p = parse_px("2,2\\n1\\n1\\n0\\n2\\n", name="tiny")
    >>> p.rows, p.cols
    (((1,), (1,)), ((), (2,)))
    >>> print(format_px(p), end="")
    2,2
    1
    1
    0
    2
    >>> parse_non("width 2\\nheight 2\\nrows\\n1\\n1\\ncolumns\\n\\n2\\n").cols
    ((), (2,))
"""

from __future__ import annotations

import html
import json
import json.decoder
import json.scanner
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from xml.parsers import expat

import numpy as np

from .puzzle import Puzzle, PuzzleFormatError, board_to_strings

__all__ = [
    "load_puzzle",
    "load_puzzles",
    "iter_puzzles",
    "expand_puzzle_specs",
    "split_spec",
    "save_puzzle",
    "parse_px",
    "format_px",
    "parse_non",
    "parse_nonpack",
    "format_non",
    "parse_tournament",
    "parse_tournament_solutions",
    "parse_xml",
    "parse_json",
    "format_json",
    "READERS",
    "MULTI_READERS",
    "WRITERS",
    "EXTENSIONS",
    "MAX_DIMENSION",
    "MAX_FILE_BYTES",
]

#: Largest rows/cols a file may declare; far above any annealable size, it only
#: stops absurd headers from allocating memory.
MAX_DIMENSION = 10_000
#: Largest file read (bytes): the biggest real collection file is ~2 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Deepest XML element nesting accepted (webpbn files nest 5 deep).
MAX_XML_DEPTH = 32


# -- shared helpers ----------------------------------------------------------------------------


def _decode_text(data: bytes, path: str | None) -> str:
    nul = data.find(b"\x00")
    if nul >= 0:
        raise PuzzleFormatError(f"binary data (a NUL byte at offset {nul}), not a text puzzle file", path,
                                data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); "
                                "puzzle files are UTF-8", path, data.count(b"\n", 0, exc.start) + 1) from None
    return text


def _parse_number(token: str, path: str | None, line: int | None, what: str) -> int:
    token = token.strip()
    if not token.isdigit() or not token.isascii():
        raise PuzzleFormatError(f"expected a non-negative integer for {what}, got {token[:40]!r}", path, line)
    if len(token) > 9 or int(token) > MAX_DIMENSION * 10:
        raise PuzzleFormatError(f"{what} {token[:20]}{'...' if len(token) > 20 else ''} is absurdly large "
                                f"(at most {MAX_DIMENSION * 10})", path, line)
    return int(token)


def _parse_dimension(token: str, path: str | None, line: int | None, what: str) -> int:
    value = _parse_number(token, path, line, what)
    if not 1 <= value <= MAX_DIMENSION:
        raise PuzzleFormatError(f"{what} {value} out of range (1..{MAX_DIMENSION})", path, line)
    return value


def _parse_clue(tokens: Sequence[str], path: str | None, line: int | None, what: str) -> tuple[int, ...]:
    """Block lengths from number tokens; a lone 0 (or nothing) is a blank line."""
    if all(t.isascii() and t.isdigit() and len(t) <= 5 for t in tokens):  # fast path, the common case
        numbers = tuple(map(int, tokens))
    else:
        numbers = tuple(_parse_number(tok, path, line, what) for tok in tokens)
    if numbers == (0,):
        return ()
    if 0 in numbers:
        text = ",".join(map(str, numbers))
        raise PuzzleFormatError(f"{what} {text!r} holds a 0 among other blocks; blocks are positive",
                                path, line)
    return numbers


def _build(
    rows: Sequence[tuple[int, ...]],
    cols: Sequence[tuple[int, ...]],
    name: str,
    path: str | None,
    row_lines: Sequence[int | None],
    col_lines: Sequence[int | None],
    totals_line: int | None,
    goal=None,
    goal_line: int | None = None,
) -> Puzzle:
    """A :class:`Puzzle`, its validation errors re-raised with the file's line."""
    try:
        return Puzzle(rows, cols, name=name, goal=goal)
    except PuzzleFormatError as exc:
        reason = exc.reason
        kind, _, rest = reason.partition(" ")
        index = rest.partition(":")[0]
        line = totals_line
        if kind in ("row", "col") and index.isdigit():
            lines = row_lines if kind == "row" else col_lines
            line = lines[int(index)] if int(index) < len(lines) else None
        elif reason.startswith("goal"):
            line = goal_line
        raise PuzzleFormatError(reason, path, line) from None


def _numbered_names(name: str, puzzles: list[Puzzle]) -> list[tuple[int, Puzzle]]:
    """Number puzzles 1.. and rename them ``name#k`` when there are several."""
    if len(puzzles) == 1:
        return [(1, puzzles[0])]
    return [(k, _renamed(p, f"{name}#{k}")) for k, p in enumerate(puzzles, 1)]


def _renamed(puzzle: Puzzle, name: str) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, name=name, goal=puzzle.goal)


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
        raise PuzzleFormatError(f"expected 'rows,cols' on line 1, got {lines[0].strip()[:40]!r}", path, 1)
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

    rows = [clue(i, f"row {i} clue") for i in range(num_rows)]
    cols = [clue(num_rows + j, f"column {j} clue") for j in range(num_cols)]
    return _build(rows, cols, name, path, range(2, num_rows + 2),
                  range(num_rows + 2, num_rows + num_cols + 2), num_rows + 2)


def format_px(puzzle: Puzzle) -> str:
    """The ``.px`` text of a puzzle (blank lines written as ``0``)."""
    out = [f"{puzzle.num_rows},{puzzle.num_cols}"]
    for clue in (*puzzle.rows, *puzzle.cols):
        out.append(",".join(map(str, clue)) if clue else "0")
    return "\n".join(out) + "\n"


# -- .non (nonogram-db) --------------------------------------------------------------------------

_NON_KEYS = {"catalogue", "title", "by", "copyright", "license", "color", "width", "height", "rows",
             "columns", "goal"}
_NON_TOKEN = re.compile(r"(\d+)([A-Za-z]?)")


def parse_non(text: str, name: str = "puzzle", path: str | None = None) -> Puzzle:
    """Parse a ``.non`` file (nonogram-db's FORMAT.md).

    Keys may come in any order, except that ``width`` and ``height`` precede
    ``rows``, ``columns`` and ``goal``. ``rows`` / ``columns`` are followed by
    exactly ``height`` / ``width`` clue lines (a blank line or a lone ``0`` is an
    empty clue). Unknown keys are ignored; a clue line outside a section is an
    error (it means a section had more lines than the dimensions say). Only
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
                                        f"got {stripped[:40]!r}", path, lineno)
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
                what = f"{'row' if key == 'rows' else 'column'} {n} clue"
                clues.append(_parse_non_clue(body, path, offset + k + 1, what))
                clue_lines.append(offset + k + 1)
            sections[key] = (clues, clue_lines)
            i += dims[dim]
        elif key == "goal":
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            goal_text, goal_line = value, lineno
        elif key[:1].isdigit():
            raise PuzzleFormatError(f"clue line {stripped[:40]!r} outside a 'rows' or 'columns' section "
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
        cells = np.frombuffer(goal_text.encode("utf-32-le"), dtype=np.uint32)
        goal = (cells != ord("0")).astype(np.uint8).reshape(dims["height"], dims["width"])
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
            raise PuzzleFormatError(f"bad {what} token {token[:40]!r}", path, line)  # pragma: no cover
        if match.group(2):
            raise PuzzleFormatError(f"colour clue {token!r} in {what}: only black-and-white puzzles are "
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


# -- tournament $-files (TAAI / TCGA / ICGA) -----------------------------------------------------


def _dollar_blocks(lines: Sequence[str], path: str | None, what: str) -> list[tuple[int, int, int]]:
    """``(number, first_line_index, end_index)`` of each ``$n`` block."""
    starts = [i for i, line in enumerate(lines) if line.startswith("$")]
    first_text = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first_text is None:
        raise PuzzleFormatError(f"empty file; expected '$1' then the {what}", path, 1)
    if not starts or starts[0] != first_text:
        raise PuzzleFormatError(f"expected a '$n' line (tournament format), got "
                                f"{lines[first_text].strip()[:40]!r}", path, first_text + 1)
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
                             f"{'column' if k < size else 'row'} {k % size} clue") for k in range(2 * size)]
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
                raise PuzzleFormatError(f"solution ${number} row {r}: expected {size} values 0 or 1, "
                                        f"got {' '.join(row)[:60]!r}", path, s + r + 1)
        out[number] = (np.array(rows, dtype=np.uint8), s)
    return out


def _tournament_solution_file(path: Path) -> Path | None:
    """The NonogramRecord layout: ``question/X.txt`` pairs with ``solution/X.txt``."""
    if path.parent.name == "question":
        candidate = path.parent.parent / "solution" / path.name
        if candidate.is_file():
            return candidate
    return None


# -- webpbn XML ----------------------------------------------------------------------------------


class _Element:
    """A minimal XML element that remembers its line (ElementTree does not)."""

    __slots__ = ("tag", "attrs", "children", "text", "line")

    def __init__(self, tag: str, attrs: dict, line: int):
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[_Element] = []
        self.text = ""

    def find_all(self, tag: str) -> list[_Element]:
        return [c for c in self.children if c.tag == tag]


def _parse_xml_tree(text: str, path: str | None) -> _Element:
    """Parse XML with expat, refusing DTD entity declarations (no entity-expansion bombs,
    no external entities) and absurd nesting."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Element] = []
    root: list[_Element] = []

    def refuse_entity(*args):
        raise PuzzleFormatError("XML entity declarations are not accepted", path, parser.CurrentLineNumber)

    def start(tag, attrs):
        if len(stack) >= MAX_XML_DEPTH:
            raise PuzzleFormatError(f"XML nested deeper than {MAX_XML_DEPTH} elements", path,
                                    parser.CurrentLineNumber)
        element = _Element(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(element)
        stack.append(element)

    def end(tag):
        stack.pop()

    def data(chunk):
        if stack:
            stack[-1].text += chunk

    parser.EntityDeclHandler = refuse_entity
    parser.UnparsedEntityDeclHandler = refuse_entity
    parser.ExternalEntityRefHandler = lambda *a: refuse_entity()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise PuzzleFormatError(f"not well-formed XML: {expat.ErrorString(exc.code)}",
                                path, exc.lineno) from None
    except RecursionError:  # pragma: no cover - depth is capped above
        raise PuzzleFormatError("XML nested too deeply", path) from None
    if not root:  # pragma: no cover - expat reports "no element found" first
        raise PuzzleFormatError("no XML element found", path, 1)
    return root[0]


def parse_xml(text: str, name: str = "puzzle", path: str | None = None) -> list[Puzzle]:
    """Parse webpbn XML (``pbn-0.3.dtd``): every ``<puzzle>`` of a ``<puzzleset>``.

    Clues are ``<clues type="columns">`` and ``<clues type="rows">`` holding one
    ``<line>`` per line with one ``<count>`` per block (an empty ``<line/>`` is a
    blank line). Counts in a colour other than the puzzle's one foreground
    colour make it a colour puzzle, which is refused. A
    ``<solution type="goal">`` image (``|..X.|`` rows) becomes the goal.
    Entity declarations are refused (so is every DTD-driven expansion); a
    ``<!DOCTYPE ... SYSTEM "...">`` reference is allowed and never fetched.

    Raises:
        PuzzleFormatError: With the offending line number.

    Examples:
        >>> xml = ('<puzzleset><puzzle><clues type="columns"><line><count>1</count></line>'
        ...        '<line/></clues><clues type="rows"><line><count>1</count></line>'
        ...        '<line></line></clues></puzzle></puzzleset>')
        >>> [(p.rows, p.cols) for p in parse_xml(xml)]
        [(((1,), ()), ((1,), ()))]
    """
    root = _parse_xml_tree(text.removeprefix("\ufeff"), path)
    if root.tag == "puzzleset":
        elements = root.find_all("puzzle")
    elif root.tag == "puzzle":
        elements = [root]
    else:
        raise PuzzleFormatError(f"expected a <puzzleset> or <puzzle> root element, got <{root.tag[:40]}>",
                                path, root.line)
    if not elements:
        raise PuzzleFormatError("the <puzzleset> holds no <puzzle>", path, root.line)
    return [_xml_puzzle(e, name, path) for e in elements]


def _xml_puzzle(element: _Element, name: str, path: str | None) -> Puzzle:
    kind = element.attrs.get("type", "grid")
    if kind != "grid":
        raise PuzzleFormatError(f"puzzle type {kind[:40]!r} is not supported (only 'grid')",
                                path, element.line)
    background = element.attrs.get("backgroundcolor", "white")
    default = element.attrs.get("defaultcolor", "black")
    chars = {c.attrs.get("name"): c.attrs.get("char") for c in element.find_all("color")}
    clue_sets: dict[str, tuple[list, list]] = {}
    colours: set[str] = set()
    for clues in element.find_all("clues"):
        which = clues.attrs.get("type")
        if which not in ("rows", "columns"):
            raise PuzzleFormatError(f"<clues type={which!r}>: expected type 'rows' or 'columns'",
                                    path, clues.line)
        if which in clue_sets:
            raise PuzzleFormatError(f"<clues type={which!r}> given twice", path, clues.line)
        lines, numbers = clue_sets.setdefault(which, ([], []))
        for k, line in enumerate(clues.find_all("line")):
            what = f"{'row' if which == 'rows' else 'column'} {k} clue"
            counts = line.find_all("count")
            for count in counts:
                colour = count.attrs.get("color", default)
                if colour == background:
                    raise PuzzleFormatError(f"{what}: a block in the background colour {colour!r}",
                                            path, count.line)
                colours.add(colour)
            numbers.append(_parse_clue([c.text for c in counts], path, line.line, what))
            lines.append(line.line)
        if len(lines) > MAX_DIMENSION:
            raise PuzzleFormatError(f"<clues type={which!r}> has more than {MAX_DIMENSION} lines",
                                    path, clues.line)
    for which in ("columns", "rows"):
        if which not in clue_sets:
            raise PuzzleFormatError(f'missing <clues type="{which}">', path, element.line)
    if len(colours) > 1:
        raise PuzzleFormatError(f"colour puzzle ({', '.join(sorted(colours))}): only black-and-white puzzles "
                                "are supported", path, element.line)
    row_lines, rows = clue_sets["rows"]
    col_lines, cols = clue_sets["columns"]
    goal, goal_line = None, None
    for solution in element.find_all("solution"):
        if solution.attrs.get("type", "goal") != "goal":
            continue
        images = solution.find_all("image")
        if not images:
            raise PuzzleFormatError("<solution> without an <image>", path, solution.line)
        goal_line = images[0].line
        goal = _xml_image(images[0], chars.get(background) or ".", len(rows), len(cols), path)
        break
    if not rows or not cols:
        raise PuzzleFormatError(f"puzzle has {len(rows)} row and {len(cols)} column clue lines; "
                                "it needs at least one of each", path, element.line)
    return _build(rows, cols, name, path, row_lines, col_lines, col_lines[0], goal, goal_line)


def _xml_image(image: _Element, background_char: str, num_rows: int, num_cols: int, path) -> np.ndarray:
    rows = [line.strip() for line in image.text.splitlines() if line.strip()]
    if len(rows) != num_rows:
        raise PuzzleFormatError(f"goal image has {len(rows)} rows; the clues say {num_rows}",
                                path, image.line)
    grid = np.zeros((num_rows, num_cols), np.uint8)
    for r, row in enumerate(rows):
        cells = row[1:-1] if len(row) >= 2 and row[0] == row[-1] == "|" else row
        if len(cells) != num_cols or "?" in cells:
            raise PuzzleFormatError(f"goal image row {r}: expected {num_cols} cells between '|' and '|', "
                                    f"got {row[:60]!r}", path, image.line + 1 + r)
        grid[r] = [ch != background_char for ch in cells]
    return grid


# -- JSON ----------------------------------------------------------------------------------------

_JSON_KEYS = ("format", "version", "name", "rows", "cols", "goal")


class _PosList(list):
    """A JSON array that remembers its offset in the text."""

    pos = 0


class _PosDict(dict):
    """A JSON object that remembers its offset in the text."""

    pos = 0


def _json_load(text: str, path: str | None):
    """``json.loads`` whose arrays and objects carry their text offset, for line numbers."""

    def parse_array(s_and_end, scan_once):
        values, end = json.decoder.JSONArray(s_and_end, scan_once)
        out = _PosList(values)
        out.pos = s_and_end[1] - 1
        return out, end

    def parse_object(s_and_end, *args):
        values, end = json.decoder.JSONObject(s_and_end, *args)
        out = _PosDict(values)
        out.pos = s_and_end[1] - 1
        return out, end

    def no_constant(name):
        raise ValueError(f"{name} is not a number a puzzle can hold")

    decoder = json.JSONDecoder(parse_constant=no_constant)
    decoder.parse_array = parse_array
    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"not valid JSON: {exc.msg}", path, exc.lineno) from None
    except RecursionError:
        raise PuzzleFormatError("JSON nested too deeply", path, 1) from None
    except ValueError:  # huge integers, NaN / Infinity: find the culprit for its line
        culprit = re.search(r"\d{4300,}|NaN|-?Infinity", text)
        line = text.count("\n", 0, culprit.start()) + 1 if culprit else None
        digits = culprit is None or culprit.group()[-1].isdigit()
        what = "a number with thousands of digits" if digits else "NaN / Infinity"
        raise PuzzleFormatError(f"{what}: expected small non-negative integers", path, line) from None


def parse_json(text: str, name: str = "puzzle", path: str | None = None) -> list[Puzzle]:
    """Parse the qpicross JSON form: one puzzle object, or a list of them.

    Raises:
        PuzzleFormatError: With the line of the offending value.

    Examples:
        >>> [p.cols for p in parse_json('{"rows": [[1], []], "cols": [[1], [0]]}')]
        [((1,), ())]
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise PuzzleFormatError("empty file; expected a JSON object with 'rows' and 'cols'", path, 1)
    data = _json_load(text, path)

    def line_of(value) -> int:
        return text.count("\n", 0, getattr(value, "pos", 0)) + 1

    items = data if isinstance(data, list) else [data]
    if not items:
        raise PuzzleFormatError("empty JSON list; expected puzzle objects", path, 1)
    puzzles = []
    for item in items:
        if not isinstance(item, dict):
            raise PuzzleFormatError(f"expected a puzzle object, got {type(item).__name__}",
                                    path, line_of(data))
        puzzles.append(_json_puzzle(item, name, path, line_of))
    return puzzles


def _json_puzzle(obj: dict, name: str, path: str | None, line_of) -> Puzzle:
    where = line_of(obj)
    unknown = sorted(set(obj) - set(_JSON_KEYS))
    if unknown:
        raise PuzzleFormatError(f"unknown key {unknown[0][:40]!r}; expected {', '.join(_JSON_KEYS)}",
                                path, where)
    if obj.get("format", "qpicross-puzzle") != "qpicross-puzzle" or obj.get("version", 1) != 1:
        raise PuzzleFormatError("expected format 'qpicross-puzzle' version 1", path, where)
    title = obj.get("name", name)
    if not isinstance(title, str):
        raise PuzzleFormatError("'name' must be a string", path, where)
    clue_sets = {}
    for key in ("rows", "cols"):
        if key not in obj:
            raise PuzzleFormatError(f"missing '{key}' (a list of clues)", path, where)
        clues = obj[key]
        if not isinstance(clues, list):
            raise PuzzleFormatError(f"'{key}' must be a list of clues (lists of block lengths)", path, where)
        if len(clues) > MAX_DIMENSION:
            raise PuzzleFormatError(f"'{key}' has {len(clues)} lines, above {MAX_DIMENSION}",
                                    path, line_of(clues))
        parsed, lines = [], []
        for k, clue in enumerate(clues):
            what = f"{key[:-1]} {k} clue".replace("col ", "column ")
            line = line_of(clue) if isinstance(clue, list) else line_of(clues)
            if not isinstance(clue, list) or not all(type(v) is int for v in clue):
                got = json.dumps(clue)[:40]
                raise PuzzleFormatError(f"{what}: expected a list of block lengths, got {got}", path, line)
            parsed.append(_parse_clue([str(v) for v in clue], path, line, what))
            lines.append(line)
        clue_sets[key] = (parsed, lines)
    goal, goal_line = obj.get("goal"), None
    if goal is not None:
        goal_line = line_of(goal) if isinstance(goal, list) else where
        if not isinstance(goal, list) or not all(isinstance(r, str) and set(r) <= set("#.") for r in goal):
            raise PuzzleFormatError("'goal' must be a list of strings of '#' (filled) and '.' (empty)",
                                    path, goal_line)
        if len({len(r) for r in goal}) > 1:
            raise PuzzleFormatError("goal rows have different lengths", path, goal_line)
    rows, row_lines = clue_sets["rows"]
    cols, col_lines = clue_sets["cols"]
    return _build(rows, cols, title, path, row_lines, col_lines, where, goal or None, goal_line)


def format_json(puzzle: Puzzle) -> str:
    """The JSON text of a puzzle, one clue per line.

    >>> print(format_json(Puzzle([[1]], [[1]], name="dot")), end="")
    {
      "format": "qpicross-puzzle",
      "version": 1,
      "name": "dot",
      "rows": [
        [1]
      ],
      "cols": [
        [1]
      ]
    }
    """
    def clue_list(clues):
        return "[\n" + ",\n".join(f"    {json.dumps(list(c))}" for c in clues) + "\n  ]"

    parts = ['  "format": "qpicross-puzzle"', '  "version": 1', f'  "name": {json.dumps(puzzle.name)}',
             f'  "rows": {clue_list(puzzle.rows)}', f'  "cols": {clue_list(puzzle.cols)}']
    if puzzle.goal is not None:
        rows = ",\n".join(f"    {json.dumps(r)}" for r in board_to_strings(puzzle.goal))
        parts.append(f'  "goal": [\n{rows}\n  ]')
    return "{\n" + ",\n".join(parts) + "\n}\n"


# -- registries ----------------------------------------------------------------------------------

Reader = Callable[[str, str, str], Puzzle]  # (text, name, path) -> Puzzle
MultiReader = Callable[[str, str, str], list]  # (text, name, path) -> [(number, Puzzle)]
Writer = Callable[[Puzzle], str]


def _single(multi: MultiReader) -> Reader:
    def read(text: str, name: str, path: str | None) -> Puzzle:
        puzzles = multi(text, name, path)
        if len(puzzles) != 1:
            raise PuzzleFormatError(f"the file holds {len(puzzles)} puzzles; pick one as FILE#N", path)
        return puzzles[0][1]

    return read


#: Multi-puzzle readers by format name: ``(text, name, path) -> [(number, Puzzle), ...]``.
MULTI_READERS: dict[str, MultiReader] = {
    "px": lambda text, name, path: [(1, parse_px(text, name, path))],
    "non": lambda text, name, path: [(1, parse_non(text, name, path))],
    "nonpack": lambda text, name, path: _numbered_names(name, parse_nonpack(text, name, path)),
    "tournament": lambda text, name, path: parse_tournament(text, name, path),
    "xml": lambda text, name, path: _numbered_names(name, parse_xml(text, name, path)),
    "json": lambda text, name, path: _numbered_names(name, parse_json(text, name, path)),
}
#: Single-puzzle readers by format name: ``(text, name, path) -> Puzzle``.
READERS: dict[str, Reader] = {fmt: _single(reader) for fmt, reader in MULTI_READERS.items()}
READERS["px"] = lambda text, name, path: parse_px(text, name, path)
READERS["non"] = lambda text, name, path: parse_non(text, name, path)
#: Writers by format name.
WRITERS: dict[str, Writer] = {"px": format_px, "non": format_non, "json": format_json}
#: File extensions (lower case, with dot) to format names (``.txt`` is sniffed, see above).
EXTENSIONS: dict[str, str] = {".px": "px", ".non": "non", ".nonpack": "nonpack", ".xml": "xml", ".pbn": "xml",
                              ".json": "json"}


def _format_for(path: Path, format: str | None, table: dict) -> str:
    if format is not None:
        if format not in table:
            raise PuzzleFormatError(f"unknown format {format!r}; known: {', '.join(sorted(table))}",
                                    str(path))
        return format
    fmt = EXTENSIONS.get(path.suffix.lower())
    sniff = fmt is None and path.suffix.lower() == ".txt" and table is MULTI_READERS
    if sniff and _looks_like_tournament(path):
        fmt = "tournament"
    if fmt is None or fmt not in table:
        raise PuzzleFormatError(
            f"cannot tell the format from the extension {path.suffix!r}; "
            f"use one of {', '.join(sorted(EXTENSIONS))} (or a .txt tournament file starting with '$') "
            f"or pass --format / format=",
            str(path),
        )
    return fmt


def _looks_like_tournament(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError:
        return False
    return head.removeprefix(b"\xef\xbb\xbf").lstrip(b"\r\n").startswith(b"$")


def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PuzzleFormatError(f"file is {size} bytes, above the {MAX_FILE_BYTES}-byte limit", str(path))
        if path.is_dir():
            raise PuzzleFormatError("is a directory, not a puzzle file", str(path))
        data = path.read_bytes()
    except OSError as exc:
        raise PuzzleFormatError(f"cannot read file: {exc.strerror or exc}", str(path)) from None
    return _decode_text(data, str(path))


def _read_numbered(path: Path, format: str | None, wanted=None) -> list[tuple[int, Puzzle]]:
    fmt = _format_for(path, format, MULTI_READERS)
    text = _read_text(path)
    if fmt == "tournament":
        solution = _tournament_solution_file(path)
        return parse_tournament(text, path.stem, str(path), _read_text(solution) if solution else None,
                                str(solution) if solution else None, wanted)
    return MULTI_READERS[fmt](text, path.stem, str(path))


# -- specs: FILE, FILE#N, FILE#a-b, directories ------------------------------------------------------

_SPEC = re.compile(r"^(?P<path>.+)#(?P<first>\d+)(?:-(?P<last>\d+))?$")


def split_spec(spec: str | os.PathLike) -> tuple[Path, tuple[int, int] | None]:
    """Split ``FILE#N`` / ``FILE#a-b`` into the path and an inclusive number range.

    A path that exists as written wins (a file may have ``#`` in its name).

    >>> split_spec("set.txt#17")
    (PosixPath('set.txt'), (17, 17))
    >>> split_spec("set.txt#1-100")
    (PosixPath('set.txt'), (1, 100))
    >>> split_spec("puzzle.px")
    (PosixPath('puzzle.px'), None)
    """
    text = os.fspath(spec)
    match = _SPEC.match(text)
    if match is None or Path(text).exists():
        return Path(text), None
    first = int(match["first"])
    last = int(match["last"]) if match["last"] is not None else first
    return Path(match["path"]), (first, last)


def load_puzzles(spec: str | os.PathLike, format: str | None = None) -> list[Puzzle]:
    """Every puzzle a spec names: ``FILE`` (all its puzzles), ``FILE#N`` or ``FILE#a-b``.

    Raises:
        PuzzleFormatError: For a bad file, or a number the file does not hold.
    """
    path, selection = split_spec(spec)
    wanted = None if selection is None else (lambda n: selection[0] <= n <= selection[1])
    if selection is not None and selection[0] > selection[1]:
        raise PuzzleFormatError(f"empty range #{selection[0]}-{selection[1]}; write #FIRST-LAST with "
                                "FIRST <= LAST", str(path))
    numbered = _read_numbered(path, format, wanted)
    if selection is None:
        return [p for _, p in numbered]
    first, last = selection
    chosen = [p for n, p in numbered if first <= n <= last]
    if len(chosen) != last - first + 1:
        numbers = [n for n, _ in _read_numbered(path, format)]  # error path only: read it all
        asked = f"#{first}" if first == last else f"#{first}-{last} ({last - first + 1} puzzles)"
        raise PuzzleFormatError(f"{asked} asked for, but the file holds {len(chosen) or 'none'} of them "
                                f"({len(numbers)} puzzles numbered {min(numbers)}..{max(numbers)})",
                                str(path))
    return chosen


def iter_puzzles(path: str | os.PathLike, format: str | None = None) -> Iterator[Puzzle]:
    """Iterate over every puzzle of a file (one for single-puzzle formats), or of a spec.

    >>> import qpicross, pathlib
    >>> root = pathlib.Path(qpicross.__file__).parent.parent / "instances"
    >>> [p.name for p in iter_puzzles(root / "5x5.px")]
    ['5x5']
    """
    yield from load_puzzles(path, format)


def load_puzzle(path: str | os.PathLike, format: str | None = None) -> Puzzle:
    """Read one puzzle, choosing the reader by extension unless ``format`` is given.

    Args:
        path: The file, or ``FILE#N`` for one puzzle of a multi-puzzle file.
        format: A key of :data:`READERS` (e.g. ``"px"``), overriding the extension.

    Raises:
        PuzzleFormatError: If the file is missing, unreadable, not a puzzle,
            or holds several puzzles and no ``#N`` picks one.

    Examples:
        >>> import qpicross, pathlib
        >>> p = load_puzzle(pathlib.Path(qpicross.__file__).parent.parent / "instances" / "5x5.px")
        >>> p.name, p.shape
        ('5x5', (5, 5))
    """
    puzzles = load_puzzles(path, format)
    if len(puzzles) != 1:
        raise PuzzleFormatError(f"holds {len(puzzles)} puzzles; pick one as FILE#N "
                                f"(e.g. {split_spec(path)[0]}#1)", str(split_spec(path)[0]))
    return puzzles[0]


def _directory_files(directory: Path, format: str | None) -> list[Path]:
    files = []
    for child in sorted(directory.iterdir()):
        if not child.is_file() or child.name.startswith("."):
            continue
        if format is not None:
            if child.suffix.lower() in EXTENSIONS and EXTENSIONS[child.suffix.lower()] != format:
                continue
            if format != "tournament" and child.suffix.lower() not in EXTENSIONS:
                continue
            if format == "tournament" and not _looks_like_tournament(child):
                continue
            files.append(child)
        elif child.suffix.lower() in EXTENSIONS:
            files.append(child)
        elif child.suffix.lower() == ".txt" and _looks_like_tournament(child):
            files.append(child)
    return files


def expand_puzzle_specs(specs: Iterable[str | os.PathLike], format: str | None = None) -> list[Puzzle]:
    """Every puzzle named by a list of command-line specs, in order.

    A spec is a file (all its puzzles), ``FILE#N``, ``FILE#a-b``, or a
    directory (every puzzle file directly in it, sorted by name; ``.txt`` files
    only when they look like tournament files; sub-directories are not
    entered).

    Raises:
        PuzzleFormatError: For a missing path, a bad file, or an empty directory.

    Examples:
        >>> import qpicross, pathlib
        >>> root = pathlib.Path(qpicross.__file__).parent.parent / "instances"
        >>> [p.name for p in expand_puzzle_specs([str(root / "5x5.px")])]
        ['5x5']
    """
    out: list[Puzzle] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            files = _directory_files(path, format)
            if not files:
                raise PuzzleFormatError("no puzzle files in this directory", str(path))
            for file in files:
                out.extend(load_puzzles(file, format))
        else:
            file, _ = split_spec(spec)
            if not file.exists():
                raise PuzzleFormatError("no such file or directory", str(file))
            out.extend(load_puzzles(spec, format))
    return out


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike, format: str | None = None) -> None:
    """Write a puzzle; the format follows the extension unless given."""
    path = Path(path)
    fmt = _format_for(path, format, WRITERS)
    path.write_text(WRITERS[fmt](puzzle), encoding="utf-8")
