"""The qpicross JSON puzzle format (see :mod:`qpicross.puzzle.formats`), with line numbers in errors."""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import re

from qpicross.exceptions import ParameterError
from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError, board_to_strings
from qpicross.puzzle.formats._text import _quote, _parse_clue, _build, MAX_DIMENSION

__all__ = ["parse_json", "format_json"]


# -- JSON ----------------------------------------------------------------------------------------

_JSON_KEYS = ("format", "version", "name", "rows", "cols", "goal")


class _PosList(list):
    """A JSON array that remembers its offset in the text."""

    pos = 0


class _PosDict(dict):
    """A JSON object that remembers its offset in the text."""

    pos = 0


class _Lines:
    """Line numbers of text offsets, by bisection over the newlines (linear in all, not per lookup)."""

    def __init__(self, text: str):
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, value) -> int:
        return bisect.bisect_left(self.newlines, getattr(value, "pos", 0)) + 1


_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _json_load(text: str, path: str | None, limit: int | None = None):
    """``json.loads`` whose arrays and objects carry their text offset, for line numbers.

    With ``limit``, a top-level list is read item by item and reading stops
    after ``limit`` items (what follows them is not looked at).
    """

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
        raise ParameterError(f"{name} is not a number a puzzle can hold")

    decoder = json.JSONDecoder(parse_constant=no_constant)
    decoder.parse_array = parse_array
    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        if limit is not None:
            first = _first_items(text, decoder.scan_once, limit)
            if first is not None:
                return first
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


def _first_items(text: str, scan_once, limit: int) -> _PosList | None:
    """The first ``limit`` items of a top-level JSON list (None: not a list, or malformed before them)."""
    index = _WHITESPACE.match(text, 0).end()
    if not text.startswith("[", index):
        return None
    items = _PosList()
    items.pos = index
    index = _WHITESPACE.match(text, index + 1).end()
    try:
        while len(items) < limit and not text.startswith("]", index):
            value, index = scan_once(text, index)
            items.append(value)
            index = _WHITESPACE.match(text, index).end()
            if text.startswith(",", index):
                index = _WHITESPACE.match(text, index + 1).end()
            elif not text.startswith("]", index):
                return None  # malformed: the full decode reports it with its line
    except StopIteration:
        return None
    return items if items else None


def parse_json(text: str, name: str = "puzzle", path: str | None = None, limit: int | None = None) -> list[Puzzle]:
    """Parse the qpicross JSON form: one puzzle object, or a list of them.

    Args:
        text: The file's text.
        name: The name of a puzzle without a ``"name"``.
        path: The file, for messages.
        limit: Read at most this many puzzles of a list (the rest is not parsed).

    Raises:
        PuzzleFormatError: With the line of the offending value.

    Examples:
        >>> [p.cols for p in parse_json('{"rows": [[1], []], "cols": [[1], [0]]}')]
        [((1,), ())]
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise PuzzleFormatError("empty file; expected a JSON object with 'rows' and 'cols'", path, 1)
    data = _json_load(text, path, limit)
    line_of = _Lines(text)

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
        raise PuzzleFormatError(f"unknown key {_quote(unknown[0])}; expected {', '.join(_JSON_KEYS)}",
                                path, where)
    if obj.get("format", "qpicross-puzzle") != "qpicross-puzzle" or obj.get("version", 1) != 1:
        raise PuzzleFormatError("expected format 'qpicross-puzzle' version 1", path, where)
    title = obj.get("name", name)
    if not isinstance(title, str):
        raise PuzzleFormatError("'name' must be a string", path, where)
    if any("\ud800" <= ch <= "\udfff" for ch in title):
        raise PuzzleFormatError("'name' holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); "
                                "names must be valid Unicode text", path, where)
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
            what = f"{key[:-1]} {k + 1} clue".replace("col ", "column ")
            line = line_of(clue) if isinstance(clue, list) else line_of(clues)
            if not isinstance(clue, list) or not all(type(v) is int for v in clue):
                got = _quote(json.dumps(clue))
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
        if len(goal) != len(clue_sets["rows"][0]):  # an empty list too: a goal of the wrong length is refused
            raise PuzzleFormatError(f"goal has {len(goal)} rows, the clues {len(clue_sets['rows'][0])}",
                                    path, goal_line)
    rows, row_lines = clue_sets["rows"]
    cols, col_lines = clue_sets["cols"]
    return _build(rows, cols, title, path, row_lines, col_lines, where, goal, goal_line)


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


